// The same bits as every other platform through the package's own calls: the corpus's
// finished-chunk, preset and mesh digests (simd.test.mjs runs the whole corpus in wasm32).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { World } from '../index.js';
import { corpusLines, start } from './setup.mjs';

let lines;
before(async () => {
  await start();
  lines = await corpusLines();
});

/** The corpus lines matching `re`, as its capture groups. */
function matching(re) {
  return lines.map((l) => l.match(re)).filter((m) => m !== null);
}

test('finished chunks through World equal the corpus digests', () => {
  const full = matching(/^chunk (\S+) seed (-?\d+) \((-?\d+), (-?\d+)\) full ([0-9a-f]{16})$/);
  assert.equal(full.length, 9);
  for (const [, label, seed, x, z, digest] of full) {
    const world = new World({ seed: Number(seed) });
    const chunk = world.chunk(Number(x), Number(z));
    assert.equal(chunk.digest.toString(16).padStart(16, '0'), digest, label);
    assert.deepEqual([chunk.x, chunk.z], [Number(x), Number(z)]);
    chunk.free();
    world.free();
  }
});

test('preset worlds through World equal the corpus digests', () => {
  const full = matching(/^preset (\S+) seed (-?\d+) \((-?\d+), (-?\d+)\) full ([0-9a-f]{16})$/);
  assert.equal(full.length, 4);
  for (const [, name, seed, x, z, digest] of full) {
    const world = new World({ seed: Number(seed), world: name });
    const chunk = world.chunk(Number(x), Number(z));
    assert.equal(chunk.digest.toString(16).padStart(16, '0'), digest, name);
    chunk.free();
    world.free();
  }
  const digests = matching(/^preset (\S+) digest ([0-9a-f]{16})$/);
  for (const [, name, digest] of digests) {
    const world = new World({ world: name });
    assert.equal(world.definitionDigest.toString(16).padStart(16, '0'), digest, name);
    world.free();
  }
});

test('the origin mesh through World equals the corpus, culled and greedy', () => {
  const world = new World({ seed: 0 });
  for (const [, mode, digest] of matching(/^mesh origin seed 0 \(0, 0\) (culled|greedy) quads \d+ ([0-9a-f]{16})$/)) {
    const mesh = world.mesh(0, 0, { greedy: mode === 'greedy' });
    assert.equal(mesh.digest.toString(16).padStart(16, '0'), digest, mode);
    const o = mesh.opaque;
    assert.equal(o.positions.length, o.normals.length);
    assert.equal(o.colours.length / 4, o.positions.length / 3);
    assert.equal(o.uvs.length / 2, o.positions.length / 3);
    assert.ok(o.indices.every((i) => i < o.positions.length / 3));
  }
  world.free();
});
