// Scatter instances, palettes and heightmap terrain meshes: the native library's results
// for the same inputs, and the rules each must keep.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Noise, World, StratagenError } from '../index.js';
import { start, corpusLines, nativeCli } from './setup.mjs';

before(() => start());

test('scatter equals `stratagen scatter`: digest and instances per kind', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-scatter-'));
  let text;
  try {
    text = nativeCli(t, ['scatter', '--seed', '3', '--region', '4,4,4,4', '--out', join(dir, 's.glb')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (text === null) return;
  const world = new World({ seed: 3 });
  const s = world.scatter(4, 4);
  assert.equal(s.digest.toString(16).padStart(16, '0'), /scatter digest ([0-9a-f]{16})/.exec(text)[1]);
  const counts = [];
  for (const l of s.layers) {
    l.kinds.forEach((name, k) => counts.push(`${l.name} ${name} ${l.kind.filter((x) => x === k).length}`));
  }
  assert.deepEqual(counts, text.split('\n').slice(1).filter((x) => x.length > 0).map((x) => x.trim()));
  world.free();
});

test('scatter instances stand on their column\'s ground, and their matrices place them there', () => {
  const world = new World({ seed: 3 });
  const chunk = world.chunk(4, 4);
  const ground = chunk.heightmap('motion_blocking_no_leaves');
  const { layers } = world.scatter(4, 4);
  assert.deepEqual(layers.map((l) => l.name), world.scatterLayers.map((l) => l.name));
  let seen = 0;
  for (const l of layers) {
    const n = l.kind.length;
    assert.equal(l.matrices.length, 16 * n);
    for (let i = 0; i < n; i++) {
      seen++;
      const [x, y, z] = l.positions.subarray(3 * i, 3 * i + 3);
      assert.ok(x >= 0 && x < 16 && z >= 0 && z < 16, `${l.name} ${i} inside the chunk`);
      assert.equal(y, ground[Math.floor(z) * 16 + Math.floor(x)], 'on the ground');
      assert.ok(l.kind[i] < l.kinds.length);
      const m = l.matrices.subarray(16 * i, 16 * i + 16);
      assert.deepEqual(Array.from(m.subarray(12)), [64 + x, y, 64 + z, 1].map(Math.fround));
      // The model's up axis, scaled: the matrix's second column is up × scale.
      const up = l.ups.subarray(3 * i, 3 * i + 3);
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(m[4 + k] - up[k] * l.scales[i]) < 1e-5);
    }
  }
  assert.ok(seen > 10, 'the chunk has instances to check');
  chunk.free();
  world.free();
});

test('palettes name every id a chunk holds', () => {
  const world = new World({ seed: 3, world: 'archipelago' });
  const { blocks, biomes } = world;
  assert.equal(blocks[0].name, 'air');
  assert.equal(blocks[0].shape, 'none');
  assert.ok(blocks.some((b) => b.name === 'water' && b.liquid && b.surface === 'translucent'));
  const chunk = world.chunk(0, 0);
  assert.ok(chunk.blocks.every((b) => b < blocks.length));
  assert.ok(chunk.biomes.every((b) => b < biomes.length));
  assert.ok(biomes.every((b) => typeof b.name === 'string' && b.colour.length === 3));
  chunk.free();
  world.free();
});

test('a heightmap mesh equals the corpus, and neighbours share their edge bit for bit', async () => {
  const lines = await corpusLines();
  const want = lines.find((l) => l.startsWith('mesh heightmap seed 5 (-7, 3) res 24 ')).split(' ').pop();
  const noise = new Noise({ seed: 5, octaves: 5, frequency: 1 / 200 });
  const m = noise.heightmapMesh(-7, 3, { res: 24, skirtDepth: 3.5 });
  assert.equal(m.digest.toString(16).padStart(16, '0'), want);
  assert.equal(m.positions.length, 3 * (25 * 25 + 4 * 25));
  const a = noise.heightmapMesh(0, 0, { res: 8 });
  const b = noise.heightmapMesh(1, 0, { res: 8 });
  for (let j = 0; j <= 8; j++) {
    const right = 3 * (j * 9 + 8);
    const left = 3 * (j * 9);
    assert.equal(a.positions[right + 1], b.positions[left + 1], `row ${j} height`);
    assert.deepEqual(a.normals.subarray(right, right + 3), b.normals.subarray(left, left + 3));
  }
  assert.throws(() => noise.heightmapMesh(0, 0, { res: 0 }), StratagenError);
  assert.throws(() => noise.heightmapMesh(0, 0, { heightScale: 'tall' }), StratagenError);
  noise.free();
});

/** The native CLI's edits of seed 7 as a store: its digest lines and its edit records (read by Python's sqlite3). */
function nativeEdits(t) {
  const script = 'set 0 70 0 1\nfill -3 60 -3 3 64 3 0\nset 15 80 15 5\n';
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-edit-'));
  try {
    writeFileSync(join(dir, 'e.txt'), script);
    const store = join(dir, 'e.sqlite');
    if (nativeCli(t, ['edit', '--seed', '7', '--out', store, '--script', join(dir, 'e.txt')]) === null) return null;
    const text = nativeCli(t, ['digest', '--from', store, '--region', '-1,-1,0,0']);
    const dump = execFileSync('python3', ['-c',
      'import sqlite3,sys; sys.stdout.buffer.write(b"".join(r[0] for r in sqlite3.connect(sys.argv[1]).execute("select record from edits order by z, x")))',
      store]);
    return { text, records: new Uint8Array(dump) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('edits equal `stratagen edit` then `digest --from`, survive release, and are refused whole', (t) => {
  const native = nativeEdits(t);
  if (native === null) return;
  const { text } = native;
  const want = text.split('\n').filter((l) => l.startsWith('chunk '));
  // A world that keeps nothing: every edited chunk is generated again, the edits stay.
  const world = new World({ seed: 7, cache: 0 });
  const before = world.region(-1, -1, 0, 0).map((c) => c.digest);
  world.setBlock(0, 70, 0, 1);
  for (let y = 60; y <= 64; y++) for (let z = -3; z <= 3; z++) for (let x = -3; x <= 3; x++) world.setBlock(x, y, z, 0);
  world.setBlock(15, 80, 15, 5);
  const chunks = world.region(-1, -1, 0, 0);
  assert.deepEqual(chunks.map((c) => `chunk ${c.x} ${c.z} ${c.digest.toString(16).padStart(16, '0')}`), want);
  assert.notDeepEqual(chunks.map((c) => c.digest), before);
  assert.equal(world.getBlock(0, 70, 0), 1);
  assert.equal(world.getBlock(-3, 62, 3), 0);
  const blocks = chunks[3].blocks;
  assert.equal(blocks[((80 - world.minY) * 16 + 15) * 16 + 15], 5);
  assert.throws(() => world.setBlock(0, 9999, 0, 1), (e) => e instanceof StratagenError && /outside the world/.test(e.message));
  assert.throws(() => world.setBlock(0, 70, 0, 60000), StratagenError);
  assert.throws(() => world.setBlock(0.5, 70, 0, 1), StratagenError);
  assert.equal(world.getBlock(0, 70, 0), 1, 'a refused edit changes nothing');
  chunks.forEach((c) => c.free());
  world.free();
});

test('saved edits are the C library\'s records: they load both ways, and a damaged one changes nothing', (t) => {
  const native = nativeEdits(t);
  if (native === null) return;
  const want = native.text.split('\n').filter((l) => l.startsWith('chunk '));
  const lines = (w) => w.region(-1, -1, 0, 0).map((c) => {
    const line = `chunk ${c.x} ${c.z} ${c.digest.toString(16).padStart(16, '0')}`;
    c.free();
    return line;
  });
  // The command line's records, loaded here.
  const loaded = new World({ seed: 7 });
  assert.equal(loaded.loadEdits(native.records), 4);
  assert.deepEqual(lines(loaded), want);
  // Saved here: the same records, byte for byte (the same edits, chunk order and framing).
  const saved = loaded.saveEdits();
  assert.deepEqual(saved, native.records);
  const again = new World({ seed: 7, cache: 0 });
  assert.equal(again.loadEdits(saved), 4);
  assert.deepEqual(lines(again), want);
  // A damaged byte in the last record refuses every record; another world's are refused.
  const damaged = saved.slice();
  damaged[damaged.length - 20] ^= 1;
  const fresh = new World({ seed: 7 });
  const untouched = lines(fresh);
  assert.throws(() => fresh.loadEdits(damaged), (e) => e instanceof StratagenError && /checksum/.test(e.message));
  assert.throws(() => fresh.loadEdits(saved.subarray(0, saved.length - 3)), (e) => e instanceof StratagenError && /truncated/.test(e.message));
  assert.deepEqual(lines(fresh), untouched, 'refused records change nothing');
  const other = new World({ seed: 8 });
  assert.throws(() => other.loadEdits(saved), (e) => e instanceof StratagenError && /another world/.test(e.message));
  assert.equal(new World({ seed: 7 }).saveEdits().length, 0, 'no edits, no records');
  [loaded, again, fresh, other].forEach((w) => w.free());
});
