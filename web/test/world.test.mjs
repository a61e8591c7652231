// The world view in Chromium: a scripted flight streams chunks fast enough and never blocks
// the page; a dug block changes the mesh as the package in Node meshes it, and survives
// saving and reloading; under WebGPU the terrain's heights read back from the GPU are the
// CPU's heightmap.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, World } from 'stratagen';
import { startBrowser, nativeCli } from './browser.mjs';

/** How long the scripted flight lasts, in milliseconds. */
const FLIGHT_MS = 10_000;
/** Of the chunks in view, the share that must be on screen after the flight. */
const MIN_COVERAGE = 0.9;
/** Longest main-thread task allowed once chunks show, and the p95 from view to mesh, in ms. */
const MAX_TASK_MS = 50;
const MAX_P95_MS = 250;
const SEED = 20261207;

const browsers = [];
after(async () => { for (const b of browsers) await b.close(); });

async function open(t, query, options) {
  const browser = await startBrowser(t, options);
  if (browser === null) return null;
  browsers.push(browser);
  const page = await browser.open(`world.html${query}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 60_000 });
  return { browser, page };
}

/** Chunk (cx, cz)'s mesh digest on the page, once its newest mesh is in the scene. */
function meshDigest(page, cx, cz) {
  return page.waitForFunction(([x, z]) => {
    const v = window.worldView;
    return !v.stale(x, z) && v.meshDigest(x, z) !== null ? String(v.meshDigest(x, z)) : false;
  }, [cx, cz], { timeout: 30_000 }).then((h) => h.jsonValue());
}

test('a 10 s flight shows what is in view, quickly, without long tasks', async (t) => {
  const opened = await open(t, `?seed=${SEED}&view=5&autopilot=1&y=120`);
  if (opened === null) return;
  const { browser, page } = opened;
  await page.waitForTimeout(FLIGHT_MS);
  const s = await page.evaluate(() => window.worldView.stats());
  t.diagnostic(`${s.backend}: ${s.shown}/${s.seen} chunks in view shown, ${s.loaded} loaded, ${s.abandoned} abandoned, `
    + `view → mesh p95 ${s.latencyP95.toFixed(0)} ms over ${s.latencies}, longest task ${Math.max(0, ...s.longTasks).toFixed(0)} ms, ${s.fps.toFixed(1)} fps`);
  assert.ok(s.seen > 20, `${s.seen} chunks in view`);
  assert.ok(s.shown >= MIN_COVERAGE * s.seen, `${s.shown} of ${s.seen} chunks in view are shown`);
  assert.ok(s.latencyP95 <= MAX_P95_MS, `view → mesh p95 ${s.latencyP95} ms`);
  assert.deepEqual(s.longTasks.filter((d) => d > MAX_TASK_MS), [], 'main-thread tasks over 50 ms');
  if (process.env.STRATAGEN_SCREENSHOTS) {
    // The README's picture: a village of seed 42, once every chunk in view is drawn.
    const still = await browser.open('world.html?seed=42&view=6&x=-500&y=120&z=400&yaw=-0.8&pitch=-0.3');
    await still.waitForFunction(() => window.worldView?.stats().started, null, { timeout: 60_000 });
    mkdirSync(process.env.STRATAGEN_SCREENSHOTS, { recursive: true });
    await still.screenshot({ path: join(process.env.STRATAGEN_SCREENSHOTS, 'web-world.png') });
  }
  assert.deepEqual(browser.problems, []);
});

test('a dug block changes the mesh as the package meshes it, and survives save and reload', async (t) => {
  const query = `?seed=${SEED}&view=3&x=8&y=150&z=8&pitch=-1.2`;
  const opened = await open(t, query);
  if (opened === null) return;
  const { browser, page } = opened;
  const before = await meshDigest(page, 0, 0);
  // The top block of column (5, 9): dug out.
  let y = 319;
  while (y > -64 && await page.evaluate(([yy]) => window.worldView.getBlock(5, yy, 9), [y]) === await page.evaluate(() => window.worldView.air)) y -= 1;
  await page.evaluate(([yy]) => window.worldView.edit(5, yy, 9, window.worldView.air), [y]);
  const dug = await meshDigest(page, 0, 0);
  assert.notEqual(dug, before, 'digging changes the mesh');

  // The same edit through the package in Node gives the same meshes, before and after.
  await init();
  const world = new World({ seed: SEED });
  assert.equal(String(world.mesh(0, 0, { greedy: true }).digest), before);
  world.setBlock(5, y, 9, world.blocks.findIndex((b) => b.name === 'air'));
  assert.equal(String(world.mesh(0, 0, { greedy: true }).digest), dug);
  world.free();

  await page.evaluate(() => window.worldView.saveEdits());
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  assert.equal(await meshDigest(page, 0, 0), dug, 'the saved edit is back after a reload');
  assert.equal(await page.evaluate(([yy]) => window.worldView.getBlock(5, yy, 9), [y]), await page.evaluate(() => window.worldView.air));
  assert.equal(await page.evaluate(() => window.worldView.stats().restored), 1);
  assert.deepEqual(browser.problems, []);
});

test('a click digs the block under the pointer and a shift-click places one', async (t) => {
  const opened = await open(t, `?seed=${SEED}&view=2&x=8&y=140&z=8&pitch=-1.5&yaw=0`);
  if (opened === null) return;
  const { browser, page } = opened;
  await page.waitForFunction(() => window.worldView.stats().started, null, { timeout: 30_000 });
  const air = await page.evaluate(() => window.worldView.air);
  const canvas = await page.locator('#view').boundingBox();
  const centre = [canvas.x + canvas.width / 2, canvas.y + canvas.height / 2];
  const blockAt = ([x, y, z]) => page.evaluate(([bx, by, bz]) => window.worldView.getBlock(bx, by, bz), [x, y, z]);
  await page.mouse.click(...centre);
  await page.waitForFunction(() => window.worldView.stats().edits === 1);
  const dug = (await page.evaluate(() => window.worldView.stats().lastEdit)).slice(0, 3);
  assert.equal(await blockAt(dug), air, `block ${dug} dug`);
  // A block that was there, below the camera (which looks almost straight down).
  await init();
  const world = new World({ seed: SEED });
  assert.notEqual(world.getBlock(...dug), world.blocks.findIndex((b) => b.name === 'air'), 'the world had a block there');
  world.free();
  assert.ok(Math.hypot(dug[0] + 0.5 - 8, dug[2] + 0.5 - 8) < 8, `${dug} lies under the camera`);
  // The hole's mesh is in the scene before the next click picks against it.
  await page.waitForFunction(([x, z]) => !window.worldView.stale(x, z), [Math.floor(dug[0] / 16), Math.floor(dug[2] / 16)]);
  await page.keyboard.down('Shift');
  await page.mouse.click(...centre);
  await page.keyboard.up('Shift');
  await page.waitForFunction(() => window.worldView.stats().edits === 2);
  const placed = await page.evaluate(() => window.worldView.stats().lastEdit);
  const chosen = await page.evaluate(() => Number(document.querySelector('select[name=block]').value));
  assert.equal(placed[3], chosen);
  assert.equal(await blockAt(placed.slice(0, 3)), chosen, 'the chosen block is placed');
  const steps = placed.slice(0, 3).reduce((n, v, i) => n + Math.abs(v - dug[i]), 0);
  assert.ok(steps <= 1, `placed at ${placed.slice(0, 3)}, in or beside the hole at ${dug}`);
  assert.deepEqual(browser.problems, []);
});

test('a compiled definition file gives its world; a damaged one shows the library\'s message', async (t) => {
  const exe = nativeCli(t);
  if (exe === undefined) return;
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-world-'));
  try {
    const file = join(dir, 'highlands.bin');
    execFileSync(exe, ['world', 'compile', fileURLToPath(new URL('../../docs/worlds/highlands.toml', import.meta.url)), '--out', file]);
    const bytes = readFileSync(file);
    const opened = await open(t, `?seed=${SEED}&view=2&x=8&y=150&z=8&pitch=-1.2`);
    if (opened === null) return;
    const { browser, page } = opened;
    const preset = await meshDigest(page, 0, 0);
    await page.selectOption('select[name=world]', 'file');
    // Bytes that are not a definition: refused with the library's message, the world unchanged.
    await page.setInputFiles('input[name=definition]', { name: 'broken.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('not a world') });
    await page.waitForFunction(() => document.getElementById('problems').textContent !== '');
    t.diagnostic(`refused: ${await page.locator('#problems').textContent()}`);
    assert.equal(await meshDigest(page, 0, 0), preset);
    await page.setInputFiles('input[name=definition]', { name: 'highlands.bin', mimeType: 'application/octet-stream', buffer: bytes });
    await page.waitForFunction(() => document.getElementById('problems').textContent === '');
    await page.waitForFunction((old) => String(window.worldView.meshDigest(0, 0)) !== old && window.worldView.meshDigest(0, 0) !== null, preset, { timeout: 30_000 });
    await init();
    const world = new World({ seed: SEED, world: new Uint8Array(bytes) });
    assert.equal(await meshDigest(page, 0, 0), String(world.mesh(0, 0, { greedy: true }).digest), 'the page meshes the file\'s world');
    world.free();
    assert.deepEqual(browser.problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a TOML definition typed beside the world: the command line\'s problems, then its world', async (t) => {
  const exe = nativeCli(t);
  if (exe === undefined) return;
  const highlands = readFileSync(new URL('../../docs/worlds/highlands.toml', import.meta.url), 'utf8');
  // Wide characters before a problem on its line: columns count characters, as the command
  // line's do.
  const broken = highlands.replace('name = "highlands"', 'name = "hautes terres"\nseed = "x"')
    .replace('colour = [196, 98, 48]', 'colour = [196, 98]')
    .replace('[terrain]', '[terrain]\ninland = { note = "⛰️ — é", from = "x" }');
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-world-'));
  let expected;
  try {
    const file = join(dir, 'broken.toml');
    writeFileSync(file, broken);
    const check = spawnSync(exe, ['world', 'check', file], { encoding: 'utf8' });
    assert.notEqual(check.status, 0);
    expected = check.stderr.split('\n').filter((l) => /^\d+:\d+: /.test(l));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(expected.length >= 4, `the command line finds the problems: ${expected.join('; ')}`);
  t.diagnostic(expected.join('\n'));
  const opened = await open(t, `?seed=${SEED}&view=2&x=8&y=150&z=8&pitch=-1.2`);
  if (opened === null) return;
  const { browser, page } = opened;
  const preset = await meshDigest(page, 0, 0);
  await page.selectOption('select[name=world]', 'text');
  // The example the editor starts from has no problems.
  assert.notEqual(await page.inputValue('#toml-text'), '');
  assert.equal(await page.locator('#toml-problems li').count(), 0);
  await page.fill('#toml-text', broken);
  await page.waitForFunction(() => document.querySelectorAll('#toml-problems li').length > 0);
  assert.deepEqual(await page.locator('#toml-problems li').allTextContents(), expected);
  // A problem clicked puts the cursor where it was written.
  const [line, column] = expected[0].split(':').map(Number);
  await page.locator('#toml-problems li').first().click();
  const cursor = await page.evaluate(() => document.getElementById('toml-text').selectionStart);
  const before = broken.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0);
  assert.equal(cursor, before + Array.from(broken.split('\n')[line - 1]).slice(0, column - 1).join('').length);
  // Applying a document with problems changes nothing; the fixed one is the world.
  await page.click('#toml-apply');
  assert.equal(await meshDigest(page, 0, 0), preset);
  await page.fill('#toml-text', highlands);
  await page.waitForFunction(() => document.querySelectorAll('#toml-problems li').length === 0);
  await page.click('#toml-apply');
  await page.waitForFunction((old) => String(window.worldView.meshDigest(0, 0)) !== old && window.worldView.meshDigest(0, 0) !== null, preset, { timeout: 30_000 });
  await init();
  const world = new World({ seed: SEED, world: highlands });
  assert.equal(await meshDigest(page, 0, 0), String(world.mesh(0, 0, { greedy: true }).digest), 'the page meshes the document\'s world');
  world.free();
  assert.deepEqual(browser.problems, []);
});

test('the heightmap mode draws under WebGL2 with the GLSL shader', async (t) => {
  const opened = await open(t, `?seed=${SEED}&mode=terrain`);
  if (opened === null) return;
  const { browser, page } = opened;
  await page.waitForFunction(() => window.worldView.stats().frames > 0);
  assert.equal(await page.evaluate(() => window.worldView.stats().backend), 'WebGL2');
  // A shader that does not compile is a console error (three reports it there).
  await page.waitForTimeout(500);
  assert.deepEqual(browser.problems, []);
});

test('under WebGPU the terrain heights read back from the GPU are the CPU heightmap', async (t) => {
  const opened = await open(t, `?seed=${SEED}&mode=terrain`, { webgpu: true });
  if (opened === null) return;
  const { browser, page } = opened;
  assert.equal(await page.evaluate(() => window.worldView.stats().backend), 'WebGPU');
  for (const [cx, cz] of [[0, 0], [-7, 12]]) {
    const [gpu, cpu] = await page.evaluate(async ([x, z]) => [await window.worldView.gpuSamples(x, z, 64), window.worldView.cpuSamples(x, z, 64)], [cx, cz]);
    assert.equal(gpu.length, 64 * 64);
    let worst = 0;
    for (let i = 0; i < gpu.length; i++) worst = Math.max(worst, Math.abs(gpu[i] - cpu[i]));
    t.diagnostic(`chunk (${cx}, ${cz}): largest GPU − CPU difference ${worst}`);
    assert.ok(worst <= 1e-5, `chunk (${cx}, ${cz}): GPU and CPU differ by ${worst}`);
    assert.ok(new Set(cpu).size > 100, 'the heightmap has detail');
  }
  assert.deepEqual(browser.problems, []);
});
