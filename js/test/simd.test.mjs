// The SIMD128 build gives the baseline build's bits: fills of every type, fractal and
// precision, and finished chunks, compared byte for byte between the two modules, each driven
// through its raw exports; and each module's own parity corpus equals the snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { simdSupported } from '../index.js';
import { corpusLines } from './setup.mjs';

async function instance(name) {
  const bytes = await readFile(new URL(`../dist/${name}`, import.meta.url));
  return (await WebAssembly.instantiate(bytes, {})).instance.exports;
}

/** Bytes of a 2D and a 3D fill of a noise made by module `e`. */
function fills(e, names) {
  const enc = new TextEncoder().encode(names.join('\0'));
  const nums = e.sg_alloc(80);
  new Float64Array(e.memory.buffer, nums, 10).set([4, 0.031, 2, 0.5, 0.25, -1, 3, 0.65, 6, 0.02]);
  const text = e.sg_alloc(enc.length);
  new Uint8Array(e.memory.buffer, text, enc.length).set(enc);
  const h = e.sg_noise_create(-42n, nums, text, enc.length);
  assert.notEqual(h, 0);
  const out = e.sg_alloc(8 * 33 * 17 * 3);
  assert.equal(e.sg_noise_fill_2d(h, -1e6 - 0.5, 12.25, 0.75, 1.25, 33, 17, out), 0);
  const a = new Uint8Array(e.memory.buffer, out, 8 * 33 * 17).slice();
  assert.equal(e.sg_noise_fill_3d(h, 5, -64, -9, 1, 2, 1, 11, 17, 9, out), 0);
  const b = new Uint8Array(e.memory.buffer, out, 8 * 11 * 17 * 9).slice();
  e.sg_free(out, 8 * 33 * 17 * 3);
  e.sg_noise_free(h);
  return [a, b];
}

test('the SIMD128 build fills and generates the baseline build\'s bits', { skip: !simdSupported() && 'no SIMD128 here' }, async () => {
  const [base, simd] = [await instance('stratagen.wasm'), await instance('stratagen-simd.wasm')];
  for (const type of ['value', 'perlin', 'simplex', 'cellular']) {
    for (const fractal of ['none', 'fbm', 'ridged', 'billow']) {
      for (const precision of ['f64', 'f32']) {
        const names = [type, fractal, 'euclidean', 'f1', precision];
        assert.deepEqual(fills(simd, names), fills(base, names), names.join(' '));
      }
    }
  }
  const digest = (e) => {
    const w = e.sg_world_create(77n, -64, 384, 63, 0, 0);
    const p = e.sg_alloc(8);
    assert.equal(e.sg_world_generate(w, 3, -5, 4, -5, p), 0);
    const handles = Array.from(new Uint32Array(e.memory.buffer, p, 2));
    return handles.map((c) => e.sg_chunk_digest(c));
  };
  assert.deepEqual(digest(simd), digest(base));
});

test('each build\'s parity corpus equals the snapshot', async () => {
  const lines = await corpusLines();
  for (const name of ['parity.wasm', 'parity-simd.wasm']) {
    if (name.includes('simd') && !simdSupported()) continue;
    const e = await instance(name);
    const len = e.corpus();
    const got = new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.corpus_ptr(), len)).split('\n');
    assert.deepEqual(got, lines, name);
  }
});
