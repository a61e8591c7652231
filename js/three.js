// `stratagen/three`: the package's arrays as three.js objects. The geometry's attributes
// view the arrays the package returned (no copies); the noise node is the shader
// `Noise.shader` prints, so the GPU computes the CPU's f32 samples.
//
// three is a peer dependency: this module imports `three` and `three/tsl` (three r168 or
// later, with the WebGPU build's TSL), which the page's import map or bundler resolves.

import { BufferAttribute, BufferGeometry, InstancedMesh } from 'three';
import { Fn, glslFn, wgslFn } from 'three/tsl';

/**
 * One surface of a chunk mesh (`World.mesh(...).opaque`, `.cutout` or `.translucent`) as a
 * BufferGeometry: `position`, `normal`, `color` (linear RGBA: draw with `vertexColors`),
 * `uv` and the index. Positions are relative to the chunk's corner: place the mesh at
 * (16 · cx, 0, 16 · cz).
 */
export function chunkGeometry(surface) {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(surface.positions, 3));
  g.setAttribute('normal', new BufferAttribute(surface.normals, 3));
  g.setAttribute('color', new BufferAttribute(surface.colours, 4));
  g.setAttribute('uv', new BufferAttribute(surface.uvs, 2));
  g.setIndex(new BufferAttribute(surface.indices, 1));
  g.computeBoundingBox();
  g.computeBoundingSphere();
  return g;
}

/**
 * One scatter layer's instances (`World.scatter(...).layers[i]`) as an InstancedMesh of
 * `geometry` and `material`: every instance, or those of kind `kind` (an index of the
 * layer's `kinds`). The instance matrices are world transforms: leave the mesh at the origin.
 */
export function scatterMesh(layer, geometry, material, kind = undefined) {
  const picked = [];
  for (let i = 0; i < layer.kind.length; i++) if (kind === undefined || layer.kind[i] === kind) picked.push(i);
  const mesh = new InstancedMesh(geometry, material, picked.length);
  const out = mesh.instanceMatrix.array;
  picked.forEach((i, n) => out.set(layer.matrices.subarray(16 * i, 16 * i + 16), 16 * n));
  mesh.instanceMatrix.needsUpdate = true;
  mesh.computeBoundingBox();
  mesh.computeBoundingSphere();
  return mesh;
}

/**
 * The noise as a TSL function of a world position node (`vec2` for `dims` 2, `vec3` for 3)
 * giving its f32 sample: WGSL under WebGPU, GLSL under WebGL2 (WebGPURenderer's fallback).
 * The noise must be of precision 'f32'. Example: `positionLocal.y = noiseNode(noise)(positionWorld.xz)`.
 */
export function noiseNode(noise, dims = 2) {
  const wgsl = wgslFn(noise.shader('wgsl', dims));
  const glsl = glslFn(noise.shader('glsl', dims));
  return Fn(([p], builder) => (builder.renderer.backend.isWebGPUBackend ? wgsl : glsl)({ p }));
}
