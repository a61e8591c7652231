// The worker pool: the same chunks, meshes, scatter and fills as the calling thread's, nearest the
// viewer first, cancellable, and refusals as StratagenErrors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { Noise, World, WorldPool, StratagenError } from '../index.js';
import { start, nativeCli } from './setup.mjs';

before(() => start());

/** The committed full-chunk digests of seed 0 around the origin (tests/full_chunk.rs). */
function goldenDigests() {
  const text = readFileSync(new URL('../../tests/snapshots/full_chunk__full_digests.snap', import.meta.url), 'utf8');
  const lines = text.split('---\n').slice(2).join('---\n').split('\n').filter((l) => l.length > 0);
  return new Map(lines.map((l) => {
    const [, x, z, d] = /^\((-?\d+), (-?\d+)\) ([0-9a-f]{16})$/.exec(l);
    return [`${x},${z}`, BigInt(`0x${d}`)];
  }));
}

test('a pool\'s region equals the committed digests and the calling thread\'s chunks', async () => {
  const pool = await WorldPool.create({ seed: 0, workers: 2 });
  try {
    const chunks = await pool.region(-1, -1, 1, 1);
    const golden = goldenDigests();
    assert.equal(chunks.length, 9);
    for (const c of chunks) assert.equal(c.digest, golden.get(`${c.x},${c.z}`), `(${c.x}, ${c.z})`);
    const world = new World({ seed: 0 });
    const here = world.chunk(1, 0);
    const there = chunks[5];
    assert.deepEqual([there.x, there.z], [1, 0]);
    assert.deepEqual(there.blocks, here.blocks);
    assert.deepEqual(there.skyLight, here.skyLight);
    assert.deepEqual(there.blockLight, here.blockLight);
    assert.deepEqual(there.biomes, here.biomes);
    assert.deepEqual(there.heightmaps.motion_blocking, here.heightmap('motion_blocking'));
    const mesh = await pool.mesh(0, 0, { greedy: true });
    const local = world.mesh(0, 0, { greedy: true });
    assert.equal(mesh.digest, local.digest);
    assert.deepEqual(mesh.opaque.positions, local.opaque.positions);
    const scatter = await pool.scatter(3, -2);
    const localScatter = world.scatter(3, -2);
    assert.equal(scatter.digest, localScatter.digest);
    assert.deepEqual(scatter.layers, localScatter.layers);
    here.free();
    world.free();
  } finally {
    pool.free();
  }
});

test('a pool\'s region equals `stratagen digest`', async (t) => {
  const text = nativeCli(t, ['digest', '--seed', '11', '--world', 'archipelago', '--region', '-2,-1,1,1']);
  if (text === null) return;
  const want = text.split('\n').filter((l) => l.startsWith('chunk '));
  const pool = await WorldPool.create({ seed: 11, world: 'archipelago', workers: 2 });
  try {
    const got = (await pool.region(-2, -1, 1, 1))
      .map((c) => `chunk ${c.x} ${c.z} ${c.digest.toString(16).padStart(16, '0')}`);
    assert.deepEqual(got, want);
  } finally {
    pool.free();
  }
});

test('a pool fills noise and draws images as the calling thread does', async () => {
  const pool = await WorldPool.create({ workers: 2 });
  try {
    const options = { type: 'simplex', octaves: 5, seed: 7n, precision: 'f32' };
    const fills = await Promise.all([0, 1, 2].map((k) => pool.fill2d(options, k * 64, 0, 1, 1, 64, 64)));
    const noise = new Noise(options);
    fills.forEach((f, k) => assert.deepEqual(f, noise.fill2d(k * 64, 0, 1, 1, 64, 64)));
    assert.deepEqual(await pool.fill3d(options, 0, 0, 0, 1, 1, 1, 8, 8, 8), noise.fill3d(0, 0, 0, 1, 1, 1, 8, 8, 8));
    const image = { contrast: 2, palette: 'magma' };
    const rgba = await pool.image(options, 96, 64, image);
    assert.ok(rgba instanceof Uint8ClampedArray);
    assert.deepEqual(rgba, noise.image(96, 64, image));
    await assert.rejects(pool.image(options, 8, 8, { palette: 'mauve' }), (e) => e instanceof StratagenError && /palette/.test(e.message));
    noise.free();
  } finally {
    pool.free();
  }
});

test('waiting chunks go nearest the viewer first, and aborted ones are dropped', async () => {
  const pool = await WorldPool.create({ seed: 2, workers: 1 });
  try {
    const order = [];
    const ask = (x, z, options) => pool.chunk(x, z, options).then((c) => { order.push(c.x); return c; });
    // The worker holds two requests (the one it runs and the next); the rest wait.
    const posted = [ask(0, 0), ask(40, 0)];
    assert.equal(pool.waiting, 0);
    const cancel = new AbortController();
    const dropped = [ask(30, 0, { signal: cancel.signal }), ask(31, 0, { signal: cancel.signal })];
    const rest = [ask(10, 0), ask(20, 0), ask(5, 0)];
    pool.setViewer(21, 0);
    assert.equal(pool.waiting, 5);
    cancel.abort();
    assert.equal(pool.waiting, 3);
    for (const d of dropped) await assert.rejects(d, { name: 'AbortError' });
    await Promise.all([...posted, ...rest]);
    assert.deepEqual(order, [0, 40, 20, 10, 5]);
    await assert.rejects(pool.chunk(1, 1, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  } finally {
    pool.free();
  }
});

test('edits reach every worker: chunks, meshes and saved edits equal one World\'s', async () => {
  const pool = await WorldPool.create({ seed: 4, workers: 2 });
  const world = new World({ seed: 4 });
  const again = await WorldPool.create({ seed: 4, workers: 2 });
  try {
    const stone = world.blocks.findIndex((b) => b.name === 'stone');
    const air = world.blocks.findIndex((b) => b.name === 'air');
    assert.ok(stone > 0 && air >= 0);
    // Before the edits, so both workers hold chunks the edits then change.
    await pool.region(-1, -1, 1, 1);
    const edits = [[3, 90, 5, stone], [-7, 60, 20, air], [17, 120, -3, stone], [-20, 70, -20, air], [30, 40, 1, stone]];
    for (const [x, y, z, b] of edits) {
      world.setBlock(x, y, z, b);
      await pool.setBlock(x, y, z, b);
    }
    const want = world.region(-2, -2, 2, 2);
    const got = await pool.region(-2, -2, 2, 2);
    assert.deepEqual(got.map((c) => c.digest), want.map((c) => c.digest));
    // The edited chunks differ from the unedited world's, so the comparison above can fail.
    const plain = new World({ seed: 4 });
    const unedited = plain.region(-2, -2, 2, 2);
    assert.ok(unedited.some((c, i) => c.digest !== want[i].digest));
    [...want, ...unedited].forEach((c) => c.free());
    plain.free();
    for (const [x, y, z, b] of edits) assert.equal(await pool.getBlock(x, y, z), b);
    const mesh = await pool.mesh(0, 0, { greedy: true });
    assert.equal(mesh.digest, world.mesh(0, 0, { greedy: true }).digest);
    const saved = await pool.saveEdits();
    assert.deepEqual(saved, world.saveEdits());
    assert.equal(await again.loadEdits(saved), 5);
    const loaded = await again.region(-2, -2, 2, 2);
    assert.deepEqual(loaded.map((c) => c.digest), got.map((c) => c.digest));
    await assert.rejects(pool.setBlock(0, 64, 0, 65000), (e) => e instanceof StratagenError && /block/.test(e.message));
    await assert.rejects(pool.loadEdits(new Uint8Array([1, 2, 3])), StratagenError);
    await assert.rejects(pool.loadEdits('bytes'), StratagenError);
    assert.deepEqual(await pool.saveEdits(), saved);
  } finally {
    pool.free();
    again.free();
    world.free();
  }
});

test('bad pool arguments and a freed pool are StratagenErrors', async () => {
  const refused = (p, message) => assert.rejects(p, (e) => e instanceof StratagenError && message.test(e.message));
  await refused(WorldPool.create({ workers: 0 }), /at least one/);
  await refused(WorldPool.create({ world: 'islands', workers: 1 }), /expected a preset/);
  const pool = await WorldPool.create({ workers: 1 });
  await refused(pool.chunk(0.5, 0), /whole number/);
  await refused(pool.chunk(1 << 21, 0), /outside the supported range/);
  await refused(pool.region(1, 0, 0, 0), /holds no chunk/);
  await refused(pool.region(0, 0, 99, 99), /at most 4096/);
  await refused(pool.fill2d({ octaves: 99 }, 0, 0, 1, 1, 4, 4), /octaves/);
  const waiting = pool.chunk(3, 3);
  pool.free();
  await refused(waiting, /freed/);
  await refused(pool.chunk(0, 0), /freed/);
});
