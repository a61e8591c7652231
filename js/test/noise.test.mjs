// Noise: fills equal point samples, both precisions, shaders, and every refusal a
// StratagenError with the library's message.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { Noise, StratagenError } from '../index.js';
import { start } from './setup.mjs';

before(() => start());

test('2D and 3D fills equal point samples at every point', () => {
  for (const type of ['value', 'perlin', 'simplex', 'cellular']) {
    for (const fractal of ['fbm', 'ridged', 'billow']) {
      const n = new Noise({ type, fractal, octaves: 3, frequency: 0.037, seed: 11, warpAmplitude: 4 });
      const v = n.fill2d(-20.5, 1e6 + 0.25, 0.75, 1.5, 9, 7);
      assert.ok(v instanceof Float64Array);
      for (let j = 0; j < 7; j++) {
        for (let i = 0; i < 9; i++) {
          assert.equal(v[j * 9 + i], n.sample2d(-20.5 + i * 0.75, 1e6 + 0.25 + j * 1.5), `${type} ${fractal} (${i}, ${j})`);
        }
      }
      const w = n.fill3d(3, -64, 5, 1, 2, 1, 4, 3, 2);
      for (let j = 0; j < 3; j++) {
        for (let k = 0; k < 2; k++) {
          for (let i = 0; i < 4; i++) {
            assert.equal(w[(j * 2 + k) * 4 + i], n.sample3d(3 + i, -64 + 2 * j, 5 + k));
          }
        }
      }
      n.free();
    }
  }
});

test('f32 noises fill Float32Arrays, heightmap chunks and shaders come out', () => {
  const n = new Noise({ type: 'simplex', precision: 'f32', octaves: 5 });
  assert.equal(n.precision, 'f32');
  const v = n.fill2d(0, 0, 1, 1, 16, 16);
  assert.ok(v instanceof Float32Array && v.length === 256);
  assert.ok(v.some((x) => x !== 0));
  const h = n.heightmapChunk(3, -2, 32);
  assert.ok(h instanceof Float32Array && h.length === 32 * 32);
  assert.match(n.shader('wgsl', 2), /fn sg_noise_2d/);
  assert.match(n.shader('glsl', 3), /sg_noise_3d/);
  n.free();
});

test('seeds are numbers or BigInts, and the same seed gives the same bits', () => {
  const a = new Noise({ seed: 12345 }).fill2d(0, 0, 1, 1, 8, 8);
  const b = new Noise({ seed: 12345n }).fill2d(0, 0, 1, 1, 8, 8);
  assert.deepEqual(a, b);
  const c = new Noise({ seed: -(2n ** 63n) }).fill2d(0, 0, 1, 1, 8, 8);
  assert.notDeepEqual(a, c);
});

test('bad settings and arguments are StratagenErrors with the library\'s message', () => {
  const refused = (f, message) => assert.throws(f, (e) => e instanceof StratagenError && message.test(e.message));
  refused(() => new Noise({ frequency: NaN }), /frequency/);
  refused(() => new Noise({ octaves: 0 }), /octaves/);
  refused(() => new Noise({ octaves: 17 }), /octaves/);
  refused(() => new Noise({ octaves: 2.5 }), /octaves 2.5/);
  refused(() => new Noise({ type: 'purlin' }), /expected one of value, perlin, simplex, cellular/);
  refused(() => new Noise({ seed: 1.5 }), /seed/);
  refused(() => new Noise({ seed: 2n ** 64n }), /seed/);
  refused(() => new Noise({ offset: [1, 2] }), /offset/);
  const n = new Noise();
  refused(() => n.fill2d(0, 0, 1, 1, 2.5, 4), /width/);
  refused(() => n.fill2d(0, 0, 1, 1, 0, 4), /zero/);
  refused(() => n.fill2d(0, 0, 1, 1, 1 << 15, 1 << 15), /too large/);
  refused(() => n.shader('hlsl'), /expected one of wgsl, glsl, godot/);
  n.free();
  refused(() => n.sample2d(0, 0), /freed/);
  n.free();
});
