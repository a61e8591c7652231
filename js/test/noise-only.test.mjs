// The noise-only module (`stratagen/noise`) is the whole module's noise code: each build's
// fills, heightmaps, images and shaders equal the whole module's byte for byte, called
// through the raw exports; through the package entry the corpus's noise lines equal the
// snapshot, and worlds are refused with a StratagenError; and it stays within its size budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

import { init, Noise, StratagenError, moduleKind, liveObjects, simdSupported } from '../noise.js';
import { init as initWhole, World, WorldPool, compileDefinition } from '../index.js';
import { withBuffer, withText } from '../lib/module.js';
import { instance, create, fills, corpusLines, xxh64 } from './setup.mjs';

/** The noise-only module's budget, gzipped. */
const NOISE_MODULE_BUDGET = 150 * 1024;

/** `f(p)` with `bytes` of module `e`'s memory at `p`, then a copy of them. */
function written(e, bytes, f) {
  return withBuffer(bytes, (p) => {
    assert.equal(f(p), 0);
    return new Uint8Array(e.memory.buffer, p, bytes).slice();
  }, e);
}

/** What module `e` makes of noise `names`: fills, a heightmap chunk, an image, a shader. */
function outputs(e, names) {
  const h = create(e, 1234n, [5, 0.02, 2.1, 0.55, 3, -7, 0, 0.65, 0, 0.01], names);
  const heightmap = written(e, 4 * 24 * 24, (p) => e.sg_noise_heightmap(h, -2, 9, 24, p));
  const image = withText('terrain', (palette, len) =>
    written(e, 4 * 20 * 12, (p) => e.sg_noise_image(h, 20, 12, 1.5, 0.1, palette, len, 0, p)), e);
  // An f64 noise has no shader: then the message is compared.
  const made = withText('glsl', (lang, len) => e.sg_noise_shader(h, lang, len, 3), e) === 0;
  const [p, len] = made ? [e.sg_text_ptr(), e.sg_text_len()] : [e.sg_error_ptr(), e.sg_error_len()];
  const shader = [made, new Uint8Array(e.memory.buffer, p, len).slice()];
  e.sg_noise_free(h);
  return [...fills(e, names), heightmap, image, shader];
}

test('each noise-only build gives the whole module\'s bits', async () => {
  const whole = await instance('stratagen.wasm');
  for (const file of ['stratagen-noise.wasm', 'stratagen-noise-simd.wasm']) {
    if (file.includes('simd') && !simdSupported()) continue;
    const noise = await instance(file);
    for (const type of ['value', 'perlin', 'simplex', 'cellular']) {
      for (const fractal of ['none', 'fbm', 'ridged']) {
        for (const precision of ['f64', 'f32']) {
          const names = [type, fractal, 'euclidean', 'f1', precision];
          assert.deepEqual(outputs(noise, names), outputs(whole, names), `${file} ${names.join(' ')}`);
        }
      }
    }
    assert.equal(typeof noise.sg_world_create, 'undefined', `${file} has no worlds`);
  }
});

test('the noise-only module is within its size budget', async () => {
  for (const file of ['stratagen-noise.wasm', 'stratagen-noise-simd.wasm']) {
    const gzipped = gzipSync(await readFile(new URL(`../dist/${file}`, import.meta.url)), { level: 9 }).length;
    assert.ok(gzipped <= NOISE_MODULE_BUDGET, `${file}: ${gzipped} bytes gzipped, budget ${NOISE_MODULE_BUDGET}`);
  }
});

/** This file's module: the engine's choice, or the baseline with STRATAGEN_TEST_BUILD=baseline. */
const start = () => init(process.env.STRATAGEN_TEST_BUILD === 'baseline' ? { simd: false } : {});

test('the digest is XXH64: the specification\'s known answers', () => {
  const text = (s) => new TextEncoder().encode(s);
  assert.equal(xxh64(text('')), 0xEF46DB3751D8E999n);
  assert.equal(xxh64(text('a')), 0xD24EC4F1A98C6E5Bn);
  assert.equal(xxh64(text('abc')), 0x44BC2CF5AD770999n);
  assert.equal(xxh64(text('abcdefghijklmnopqrstuvwxyz')), 0xCFE1F278FA89835Cn);
});

test('the corpus\'s noise lines through stratagen/noise equal the snapshot', async () => {
  await start();
  const lines = (await corpusLines()).filter((l) => /^noise(-f32)? /.test(l));
  assert.equal(lines.length, 48);
  const hex = (v) => xxh64(new Uint8Array(Float64Array.from(v).buffer)).toString(16).padStart(16, '0');
  for (const line of lines) {
    const [label, name] = line.split(' ');
    const [type, fractal, warp] = name.split('-');
    const n = new Noise({
      seed: 99, type: type.toLowerCase(), fractal: fractal.toLowerCase(), octaves: 4, frequency: 0.043,
      warpAmplitude: Number(warp.slice('warp'.length)), precision: label === 'noise' ? 'f64' : 'f32',
    });
    const flat = n.fill2d(-33.5, 16777000.25, 0.75, 1.25, 24, 16);
    const deep = n.fill3d(5, -64, -9, 1, 2, 1, 8, 12, 8);
    assert.equal(`${label} ${name} 2d ${hex(flat)} 3d ${hex(deep)}`, line);
    n.free();
  }
});

test('stratagen/noise serves noises and refuses worlds', async () => {
  await start();
  assert.match(moduleKind(), /^(simd128|baseline)$/);
  const n = new Noise({ type: 'perlin', octaves: 4, seed: 42, precision: 'f32' });
  const grid = n.fill2d(0, 0, 1, 1, 32, 8);
  assert.equal(grid.length, 256);
  assert.equal(grid[37], n.sample2d(5, 1));
  assert.equal(n.heightmapChunk(1, 2, 16).length, 256);
  assert.match(n.shader('wgsl'), /fn /);
  const refused = (f, pattern) => assert.throws(f, (e) => e instanceof StratagenError && pattern.test(e.message));
  refused(() => n.heightmapMesh(0, 0), /needs the whole module/);
  refused(() => new World({ seed: 1 }), /World needs the whole module/);
  refused(() => compileDefinition('seed = 1\n'), /needs the whole module/);
  await assert.rejects(WorldPool.create({ workers: 1 }), /WorldPool needs the whole module/);
  await assert.rejects(initWhole(), (e) => e instanceof StratagenError && /noise-only module is loaded/.test(e.message));
  refused(() => n.fill2d(0, 0, 1, 1, 0, 4), /zero/);
  n.free();
  assert.deepEqual(liveObjects().noises, 0);
  assert.equal(liveObjects().chunks, 0);
});
