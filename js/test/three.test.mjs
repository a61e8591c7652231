// `stratagen/three`: geometries view the package's arrays, instanced meshes hold the scatter
// matrices of the kinds asked for, and the noise node wraps the noise's own shaders. (The
// browser tests in web/ draw them and read the noise node's samples back from a GPU.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { BufferGeometry, Material, MeshBasicMaterial } from 'three';

import { Noise, World } from '../index.js';
import { chunkGeometry, scatterMesh, noiseNode } from '../three.js';
import { start } from './setup.mjs';

before(() => start());

test('chunkGeometry views the mesh arrays', () => {
  const world = new World({ seed: 5 });
  const mesh = world.mesh(0, 0, { greedy: true });
  const s = mesh.opaque;
  const g = chunkGeometry(s);
  assert.ok(g instanceof BufferGeometry);
  assert.equal(g.getAttribute('position').array, s.positions);
  assert.equal(g.getAttribute('normal').array, s.normals);
  assert.equal(g.getAttribute('color').array, s.colours);
  assert.equal(g.getAttribute('color').itemSize, 4);
  assert.equal(g.getAttribute('uv').array, s.uvs);
  assert.equal(g.getIndex().array, s.indices);
  assert.equal(g.getAttribute('position').count, s.positions.length / 3);
  assert.ok(s.indices.length > 300, 'a chunk has faces');
  // Chunk-relative: x and z within the chunk's 16 blocks.
  for (const axis of ['x', 'z']) {
    assert.ok(g.boundingBox.min[axis] >= 0 && g.boundingBox.max[axis] <= 16, `${axis} in 0..16`);
  }
  world.free();
});

test('scatterMesh holds the instance matrices of the kinds asked for', () => {
  const world = new World({ seed: 5 });
  let layer = null;
  for (let x = 0; x < 8 && layer === null; x++) {
    layer = world.scatter(x, 0).layers.find((l) => new Set(l.kind).size > 1) ?? null;
  }
  assert.ok(layer !== null, 'a layer with two kinds in one chunk');
  const material = new MeshBasicMaterial();
  const all = scatterMesh(layer, new BufferGeometry(), material);
  assert.equal(all.count, layer.kind.length);
  assert.deepEqual(Array.from(all.instanceMatrix.array), Array.from(layer.matrices));
  let seen = 0;
  for (let kind = 0; kind < layer.kinds.length; kind++) {
    const only = scatterMesh(layer, new BufferGeometry(), material, kind);
    const picked = [...layer.kind.keys()].filter((i) => layer.kind[i] === kind);
    assert.equal(only.count, picked.length);
    picked.forEach((i, n) => {
      assert.deepEqual(Array.from(only.instanceMatrix.array.subarray(16 * n, 16 * n + 16)), Array.from(layer.matrices.subarray(16 * i, 16 * i + 16)));
    });
    seen += only.count;
  }
  assert.equal(seen, layer.kind.length);
  assert.ok(material instanceof Material);
  world.free();
});

test('noiseNode wraps the noise\'s WGSL and GLSL functions', () => {
  const noise = new Noise({ type: 'simplex', precision: 'f32', seed: 3 });
  const node = noiseNode(noise);
  assert.equal(typeof node, 'function');
  // f64 noises have no shader: the package's error, at once.
  const f64 = new Noise({ type: 'simplex' });
  assert.throws(() => noiseNode(f64), /f32/);
  noise.free();
  f64.free();
});
