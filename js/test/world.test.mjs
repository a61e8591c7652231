// Worlds: chunks in the C copies' layout, regions row-major, and refusals.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { World, StratagenError } from '../index.js';
import { start, nativeCli } from './setup.mjs';

before(() => start());

test('a chunk holds blocks, biomes, heightmaps and light of the world\'s height', () => {
  const world = new World({ seed: 4 });
  assert.equal(world.height, 384);
  const c = world.chunk(2, -3);
  const blocks = c.blocks;
  assert.equal(blocks.length, 16 * 16 * 384);
  assert.equal(blocks[0], 13, 'bedrock at the bottom');
  const surface = c.heightmap();
  assert.equal(surface.length, 256);
  // The top non-air block of each column lies just below its world-surface height.
  for (let z = 0; z < 16; z++) {
    for (let x = 0; x < 16; x++) {
      const y = surface[z * 16 + x] - 1 - world.minY;
      assert.notEqual(blocks[(y * 16 + z) * 16 + x], 0);
      for (let above = y + 1; above < 384; above++) assert.equal(blocks[(above * 16 + z) * 16 + x], 0);
    }
  }
  assert.equal(c.biomes.length, 16);
  const sky = c.skyLight;
  assert.equal(sky.length, blocks.length);
  assert.equal(sky[sky.length - 1], 15, 'open sky at the top');
  assert.ok(c.blockLight.every((l) => l <= 15));
  c.free();
  world.free();
});

test('regions are row-major and equal chunk by chunk', () => {
  const world = new World({ seed: 9 });
  const r = world.region(-1, 4, 0, 5);
  assert.deepEqual(r.map((c) => [c.x, c.z]), [[-1, 4], [0, 4], [-1, 5], [0, 5]]);
  const one = world.chunk(0, 5);
  assert.equal(one.digest, r[3].digest);
  [...r, one].forEach((c) => c.free());
  world.free();
});

test('bad worlds and positions are StratagenErrors', () => {
  const refused = (f, message) => assert.throws(f, (e) => e instanceof StratagenError && message.test(e.message));
  refused(() => new World({ world: 'islands' }), /expected a preset \(default, archipelago, caverns\)/);
  refused(() => new World({ height: 100 }), /height/);
  const world = new World();
  refused(() => world.region(1, 0, 0, 0), /holds no chunk/);
  refused(() => world.chunk(1 << 21, 0), /outside the supported range/);
  refused(() => world.chunk(0.5, 0), /whole number/);
  refused(() => world.region(0, 0, 99, 99), /at most 4096/);
  refused(() => world.chunk(0, 0).heightmap('roof'), /expected one of world_surface/);
  world.free();
  refused(() => world.chunk(0, 0), /freed/);
});

test('a definition compiled by the CLI gives `stratagen digest`\'s chunks', async (t) => {
  const file = new URL('../../docs/worlds/highlands.toml', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-world-'));
  try {
    const out = join(dir, 'highlands.bin');
    if (nativeCli(t, ['world', 'compile', file, '--out', out]) === null) return;
    const bytes = new Uint8Array(readFileSync(out));
    const want = nativeCli(t, ['digest', '--seed', '6', '--world', file, '--region', '-1,-1,0,0'])
      .split('\n').filter((l) => l.startsWith('chunk '));
    const world = new World({ seed: 6, world: bytes });
    const got = world.region(-1, -1, 0, 0).map((c) => `chunk ${c.x} ${c.z} ${c.digest.toString(16).padStart(16, '0')}`);
    assert.deepEqual(got, want);
    // Not the default world's chunks, so the comparison can fail.
    const plain = new World({ seed: 6 });
    assert.notEqual(plain.chunk(0, 0).digest, world.chunk(0, 0).digest);
    plain.free();
    world.free();
    // A preset compiled by the CLI is the preset the package ships.
    const preset = join(dir, 'caverns.bin');
    nativeCli(t, ['world', 'compile', 'caverns', '--out', preset]);
    const compiled = new World({ world: new Uint8Array(readFileSync(preset)) });
    const shipped = new World({ world: 'caverns' });
    assert.equal(compiled.definitionDigest, shipped.definitionDigest);
    compiled.free();
    shipped.free();
    // Damaged bytes are refused with the library's message.
    const damaged = bytes.slice(0, bytes.length - 3);
    assert.throws(() => new World({ world: damaged }), (e) => e instanceof StratagenError && /definition/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
