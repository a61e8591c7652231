// The SIMD128 build gives the baseline build's bits: fills of every type, fractal and
// precision, and finished chunks, compared byte for byte between the two modules, each driven
// through its raw exports; and each module's own parity corpus equals the snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { simdSupported } from '../index.js';
import { corpusLines, instance, create, fill2d, fills } from './setup.mjs';

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

// The f64 2D simplex row has a SIMD128 kernel of its own (core's `noise::simd128`): unwarped
// fills of it over many grids, from widths below one vector group to several tiles, fine and
// coarse frequencies and coordinates far from the origin, against the baseline's scalar row.
test('the SIMD128 simplex row gives the scalar row\'s bits', { skip: !simdSupported() && 'no SIMD128 here' }, async () => {
  const [base, simd] = [await instance('stratagen.wasm'), await instance('stratagen-simd.wasm')];
  let state = 0x9e3779b9;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  for (let c = 0; c < 60; c++) {
    const seed = BigInt(Math.floor(random() * 2 ** 32)) - (1n << 31n);
    const numbers = [1 + Math.floor(random() * 8), pick([0.001, 0.013, 0.37, 3.3, 170]), pick([2, 1.7, 3.1]), pick([0.5, 0.8]),
      random() * 100 - 50, random() * 100 - 50, 0, 1, 0, 0.01];
    const names = ['simplex', pick(['none', 'fbm', 'ridged', 'billow']), 'euclidean', 'f1', 'f64'];
    const span = pick([1, 1e3, 1e6, 1e9]);
    const grid = [(random() - 0.5) * span, (random() - 0.5) * span, pick([1, 0.25, 1.75, -0.5]), pick([1, 0.5]),
      pick([1, 3, 7, 8, 9, 31, 32, 33, 64, 130]), 1 + Math.floor(random() * 5)];
    const [hb, hs] = [create(base, seed, numbers, names), create(simd, seed, numbers, names)];
    assert.deepEqual(fill2d(simd, hs, grid), fill2d(base, hb, grid), `${names[1]} ${numbers} ${grid}`);
    base.sg_noise_free(hb);
    simd.sg_noise_free(hs);
  }
});
