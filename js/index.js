// Stratagen for JavaScript: deterministic noise and chunked voxel worlds from the same core
// as the C library, compiled to WebAssembly, bit for bit the same on every platform.
//
//   import { init, Noise, World } from 'stratagen';
//   await init();
//   const heights = new Noise({ type: 'simplex', octaves: 5, seed: 42 }).fill2d(0, 0, 1, 1, 128, 128);
//   const chunk = new World({ seed: 42 }).chunk(0, 0);   // chunk.blocks: Uint16Array
//
// Results are copied out of the module's memory into typed arrays the caller owns. Objects
// that hold module memory (Noise, World, Chunk) have free(); a FinalizationRegistry frees
// what is garbage-collected unfreed. Every refusal is a StratagenError with the library's
// message; nothing a caller passes can trap the module. A WorldPool runs the same calls on
// workers, each with a module of its own.

export { StratagenError, init, simdSupported, moduleKind, liveObjects } from './lib/module.js';
export { Noise } from './lib/noise.js';
export { World, Chunk } from './lib/world.js';
export { compileDefinition } from './lib/definition.js';
export { WorldPool } from './lib/pool.js';
