// Handles leave nothing behind: 10,000 noises made and freed, and chunks, keep the module's
// memory flat once its allocator has warmed up.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { liveObjects, Noise, World, compileDefinition } from '../index.js';
import { start } from './setup.mjs';

before(() => start());

test('10,000 noise create and free cycles leave wasm memory flat', () => {
  const cycle = () => {
    const n = new Noise({ type: 'simplex', octaves: 6 });
    n.fill2d(0, 0, 1, 1, 64, 64);
    n.free();
  };
  for (let i = 0; i < 1000; i++) cycle();
  const before = liveObjects();
  for (let i = 0; i < 10000; i++) cycle();
  const after = liveObjects();
  assert.equal(after.noises, before.noises);
  assert.equal(after.memoryBytes, before.memoryBytes);
});

test('chunks made and freed leave wasm memory flat', () => {
  const world = new World({ seed: 1 });
  const cycle = () => {
    const c = world.chunk(0, 0);
    void c.blocks;
    c.free();
  };
  for (let i = 0; i < 3; i++) cycle();
  const before = liveObjects();
  for (let i = 0; i < 10; i++) cycle();
  const after = liveObjects();
  assert.equal(after.chunks, 0);
  assert.equal(after.memoryBytes, before.memoryBytes);
  world.free();
});

test('documents compiled and refused leave wasm memory flat', () => {
  const good = 'base = "archipelago"\nname = "isles"\n';
  const bad = 'base = "archipelago"\nname = 3\n[terrain]\nsea_levell = 3\n';
  const cycle = () => {
    compileDefinition(good);
    try {
      compileDefinition(bad);
    } catch {
      // Refused, as it must be: what matters is the memory afterwards.
    }
  };
  for (let i = 0; i < 20; i++) cycle();
  const before = liveObjects();
  for (let i = 0; i < 200; i++) cycle();
  assert.equal(liveObjects().memoryBytes, before.memoryBytes);
});
