// Stratagen's noises alone: the noise-only WebAssembly module, a third of the whole one's
// size, for pages that need fills, samples, heightmap chunks, images and shaders but no
// worlds. The same Noise class and the same bits as `stratagen`.
//
//   import { init, Noise } from 'stratagen/noise';
//   await init();
//   const heights = new Noise({ type: 'perlin', octaves: 4, seed: 42 }).fill2d(0, 0, 1, 1, 128, 128);
//
// One module serves a page: after this `init()`, `init()` of 'stratagen' refuses (call it
// first to have both; the whole module has every noise).

export { StratagenError, simdSupported, moduleKind, liveObjects } from './lib/module.js';
export { initNoise as init } from './lib/module.js';
export { Noise } from './lib/noise.js';
