// The noise studio in Chromium: its canvas holds `stratagen noise`'s pixels for the same
// parameters, the URL restores every parameter, moving a control redraws without blocking,
// and the "copy as code" snippets draw the same image when run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { decodePng } from '../../js/test/png.mjs';
import { startBrowser, nativeCli } from './browser.mjs';
import { fromQuery, toQuery } from '../src/params.js';
import { codeFor } from '../src/code.js';

/** Parameter sets as the studio's URL holds them: the page's defaults among them. */
const CASES = [
  '',
  '?type=simplex&fractal=ridged&seed=65535&scale=120&octaves=5&contrast=3&palette=terrain&width=300&height=256',
  '?type=value&fractal=billow&seed=3&scale=40&octaves=4&lacunarity=2.5&persistence=0.35&brightness=-0.3&palette=ff0000,00ff00,0000ff,ffff00,00ffff,ff00ff&width=257&height=300',
  '?type=cellular&fractal=none&seed=12&scale=30&offsetX=-1000&offsetY=999&precision=f32&palette=fire&width=2048&height=256',
  '?fractal=billow&seed=99&scale=64&octaves=3&contrast=0.5&brightness=0.5&palette=ice&tileable=1&width=256&height=256',
];

/** The flags of `stratagen noise` for a query, read off the command-line snippet the page shows. */
function cliArgs(query, out) {
  const text = codeFor('cli', fromQuery(query)).split('\n#')[0];
  const args = text.replace(/\\\n/g, ' ').split(/\s+/).filter((a) => a !== '').slice(2);
  args[args.indexOf('--out') + 1] = out;
  return args;
}

let browser = null;
let dir = null;
before(() => { dir = mkdtempSync(join(tmpdir(), 'stratagen-studio-')); });
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The studio at `query`, once it has drawn those parameters. */
async function studio(query) {
  const page = await browser.open(`index.html${query}`);
  await page.waitForFunction((q) => document.body.dataset.state === 'idle' && document.body.dataset.rendered === q, toQuery(fromQuery(query)), { timeout: 30_000 });
  return page;
}

/** The canvas's RGB bytes. */
async function canvasRgb(page) {
  const { width, height, base64 } = await page.evaluate(() => {
    const c = document.getElementById('image');
    const rgba = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const rgb = new Uint8Array((rgba.length / 4) * 3);
    for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) rgb.set(rgba.subarray(i, i + 3), j);
    let s = '';
    for (let i = 0; i < rgb.length; i += 0x8000) s += String.fromCharCode(...rgb.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, base64: btoa(s) };
  });
  return { width, height, rgb: Buffer.from(base64, 'base64') };
}

test('the studio draws the pixels of `stratagen noise`', async (t) => {
  const exe = nativeCli(t);
  browser = await startBrowser(t);
  if (exe === undefined || browser === null) return;
  for (const [k, query] of CASES.entries()) {
    const out = join(dir, `${k}.png`);
    execFileSync(exe, ['noise', ...cliArgs(query, out)]);
    const png = decodePng(readFileSync(out));
    const page = await studio(query);
    const shown = await canvasRgb(page);
    assert.deepEqual([shown.width, shown.height], [png.width, png.height], query);
    assert.ok(shown.rgb.equals(Buffer.from(png.rgb)), `the canvas differs from the CLI's PNG for ${query || 'the defaults'}`);
    assert.ok(new Set(shown.rgb).size > 8, `${query} has detail`);
    await page.close();
  }
  if (process.env.STRATAGEN_SCREENSHOTS) {
    // The README's picture.
    const page = await studio('?type=simplex&fractal=ridged&octaves=7&palette=terrain');
    mkdirSync(process.env.STRATAGEN_SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(process.env.STRATAGEN_SCREENSHOTS, 'web-noise.png') });
  }
  assert.deepEqual(browser.problems, []);
});

test('controls redraw, the URL follows them, and the code draws the same image', async (t) => {
  browser ??= await startBrowser(t);
  if (browser === null) return;
  const page = await studio('?width=256&height=256&palette=magma');
  // A slider dragged through many values: the page keeps answering and draws the last one.
  const slider = page.locator('input[type=range][name=scale]');
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 2; x < box.width - 2; x += 8) await page.mouse.move(box.x + x, box.y + box.height / 2);
  await page.mouse.up();
  const shown = await page.evaluate(() => ({ search: location.search, scale: document.querySelector('label[data-key=scale] input[type=number]').value }));
  const params = fromQuery(shown.search);
  assert.ok(params.scale > 300, `dragged to scale ${params.scale}`);
  assert.equal(String(params.scale), shown.scale);
  await page.waitForFunction((q) => document.body.dataset.state === 'idle' && document.body.dataset.rendered === q, toQuery(params));
  const dragged = await canvasRgb(page);
  // The same URL opened afresh restores every control and draws the same pixels.
  const again = await studio(shown.search);
  assert.ok((await canvasRgb(again)).rgb.equals(dragged.rgb));
  assert.equal(await again.locator('select[name=palette]').inputValue(), 'magma');

  // The JavaScript snippet, run in Node against the same package's noise-only module, gives
  // these pixels (the page draws them with the whole module).
  const snippet = codeFor('js', params).replace("from 'stratagen/noise'", `from '${new URL('../node_modules/stratagen/noise.js', import.meta.url)}'`);
  assert.notEqual(snippet, codeFor('js', params), 'the snippet imports stratagen/noise');
  const file = join(dir, 'snippet.mjs');
  writeFileSync(file, `${snippet}\nprocess.stdout.write(Buffer.from(rgba.filter((_, i) => i % 4 !== 3)).toString('base64'));\n`);
  const fromSnippet = Buffer.from(execFileSync(process.execPath, [file], { maxBuffer: 1 << 26 }).toString(), 'base64');
  assert.ok(fromSnippet.equals(dragged.rgb), 'the JavaScript snippet draws the page\'s image');
  // The page shows the snippet it was built from.
  assert.equal(await again.locator('#code').textContent(), codeFor('js', params));
  assert.deepEqual(browser.problems, []);
});

test('tileable is offered where the library draws it', async (t) => {
  browser ??= await startBrowser(t);
  if (browser === null) return;
  const page = await browser.open('index.html?type=simplex&width=256&height=256');
  await page.waitForFunction(() => document.body.dataset.state === 'idle');
  // Tileable needs value or Perlin: the control is off for simplex, and the image is drawn plain.
  assert.equal(await page.locator('select[name=tileable]').isDisabled(), true);
  await page.selectOption('select[name=type]', 'perlin');
  await page.selectOption('select[name=tileable]', '1');
  await page.waitForFunction(() => document.body.dataset.state === 'idle' && location.search.includes('tileable=1'));
  assert.match(await page.locator('#status').textContent(), /256 × 256 in [\d.]+ ms/);
  assert.deepEqual(browser.problems, []);
});
