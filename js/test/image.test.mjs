// Noise images: the package's pixels are `stratagen noise`'s PNG pixels, byte for byte, for
// every kind of parameter the noise page offers; refusals are StratagenErrors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Noise, StratagenError } from '../index.js';
import { start, nativeCli } from './setup.mjs';
import { decodePng } from './png.mjs';

before(() => start());

// The command line's flags and the package's options for the same image.
const CASES = [
  { type: 'perlin', fractal: 'fbm', octaves: 6, scale: 80, seed: 7, size: [800, 600] },
  { type: 'simplex', fractal: 'ridged', octaves: 5, scale: 120, seed: 65535, contrast: 3, palette: 'terrain', size: [300, 200] },
  { type: 'value', fractal: 'billow', octaves: 4, lacunarity: 2.5, persistence: 0.35, scale: 40, seed: 3, brightness: -0.3,
    palette: 'ff0000,00ff00,0000ff,ffff00,00ffff,ff00ff', size: [257, 131] },
  { type: 'cellular', fractal: 'none', octaves: 1, scale: 30, seed: 12, offset: [-1000, 999.5], palette: 'fire', precision: 'f32', size: [2048, 256] },
  { type: 'perlin', fractal: 'fbm', octaves: 3, scale: 64, seed: 99, palette: 'ice', contrast: 0.5, brightness: 0.5, tileable: true, size: [256, 128] },
];

test('a noise image has the pixels of `stratagen noise`', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-image-'));
  try {
    for (const [k, c] of CASES.entries()) {
      const out = join(dir, `${k}.png`);
      const args = ['noise', '--type', c.type, '--fractal', c.fractal, '--octaves', String(c.octaves),
        '--scale', String(c.scale), '--seed', String(c.seed), '--size', `${c.size[0]}x${c.size[1]}`, '--out', out];
      if (c.lacunarity !== undefined) args.push('--lacunarity', String(c.lacunarity));
      if (c.persistence !== undefined) args.push('--persistence', String(c.persistence));
      if (c.offset !== undefined) args.push('--offset', c.offset.join(','));
      if (c.contrast !== undefined) args.push('--contrast', String(c.contrast));
      if (c.brightness !== undefined) args.push('--brightness', String(c.brightness));
      if (c.palette !== undefined) args.push('--palette', c.palette);
      if (c.precision !== undefined) args.push('--precision', c.precision);
      if (c.tileable) args.push('--tileable');
      if (nativeCli(t, args) === null) return;
      const png = decodePng(readFileSync(out));
      const noise = new Noise({
        type: c.type, fractal: c.fractal, octaves: c.octaves, frequency: 1 / c.scale, seed: c.seed,
        lacunarity: c.lacunarity, gain: c.persistence, offset: c.offset && [...c.offset, 0], precision: c.precision,
      });
      const rgba = noise.image(c.size[0], c.size[1], c);
      noise.free();
      assert.deepEqual([png.width, png.height], c.size);
      assert.equal(rgba.length, 4 * c.size[0] * c.size[1]);
      const rgb = new Uint8Array(3 * c.size[0] * c.size[1]);
      for (let i = 0; i < c.size[0] * c.size[1]; i++) {
        rgb.set(rgba.subarray(4 * i, 4 * i + 3), 3 * i);
        assert.equal(rgba[4 * i + 3], 255);
      }
      assert.ok(Buffer.from(rgb).equals(Buffer.from(png.rgb)), `case ${k}: ${args.join(' ')}`);
      // Not a flat image: the comparison above can fail.
      assert.ok(new Set(rgb).size > 8, `case ${k} has detail`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad image settings are StratagenErrors', () => {
  const noise = new Noise({ type: 'simplex' });
  const refused = (f, message) => assert.throws(f, (e) => e instanceof StratagenError && message.test(e.message));
  refused(() => noise.image(0, 10), /fill|grid|size/);
  refused(() => noise.image(10, 10, { palette: 'mauve' }), /palette/);
  refused(() => noise.image(10, 10, { palette: '000000' }), /2 to 6/);
  refused(() => noise.image(10, 10, { contrast: 11 }), /contrast/);
  refused(() => noise.image(10, 10, { brightness: NaN }), /brightness/);
  refused(() => noise.image(10, 10, { tileable: true }), /value or Perlin/);
  // Still usable after every refusal.
  assert.equal(noise.image(3, 2).length, 24);
  noise.free();
});
