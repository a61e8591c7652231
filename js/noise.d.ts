// The noise-only entry point: the Noise class of 'stratagen' over a module without worlds.

export { StratagenError, Noise, simdSupported, moduleKind, liveObjects } from './index.js';
export type {
  NoiseOptions, NoiseType, FractalType, Precision, CellularDistance, CellularReturn,
  ShaderLanguage, Freeable,
} from './index.js';

/**
 * Load the noise-only module (once): the SIMD128 build where the engine has SIMD128. After
 * it, `init()` of 'stratagen' refuses; `Noise.heightmapMesh` (a mesh) needs the whole module.
 */
export function init(options?: { simd?: boolean; wasm?: BufferSource | WebAssembly.Module }): Promise<void>;
