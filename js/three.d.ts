// Types of `stratagen/three` (three.js). three's own types come from `@types/three`.
import type { BufferGeometry, InstancedMesh, Material } from 'three';
import type { Noise, ScatterLayerInstances, SurfaceArrays } from './index.js';

/**
 * One surface of a chunk mesh as a BufferGeometry (`position`, `normal`, `color` RGBA, `uv`,
 * index) viewing the given arrays. Positions are relative to the chunk's corner.
 */
export function chunkGeometry(surface: SurfaceArrays): BufferGeometry;

/** A scatter layer's instances (all, or those of kind index `kind`) as an InstancedMesh. */
export function scatterMesh(
  layer: ScatterLayerInstances, geometry: BufferGeometry, material: Material | Material[], kind?: number,
): InstancedMesh;

/**
 * The f32 noise as a TSL function of a `vec2` (dims 2) or `vec3` (dims 3) position node giving
 * its sample: WGSL under WebGPU, GLSL under WebGPURenderer's WebGL2 fallback.
 */
export function noiseNode(noise: Noise, dims?: 2 | 3): (position: unknown) => unknown;
