// Types of the `stratagen` package (index.js).

/** Every error the package throws, with the library's message. */
export class StratagenError extends Error {
  /** A world definition's problems, each where it was written (definitions only). */
  problems?: DefinitionProblem[];
  /** Problems found beyond those listed (definitions only). */
  more?: number;
}

/** One problem of a world definition document. */
export interface DefinitionProblem {
  /** Line of the value (or the nearest enclosing one), from 1; 0 when it has no place. */
  line: number;
  /** Column in characters, from 1; 0 when it has no place. */
  column: number;
  /** Path of the value (`biomes[3].surface`); empty for the document itself. */
  path: string;
  /** What is wrong, with the allowed values where there are any. */
  message: string;
}

/**
 * Check a world definition written as TOML (it may start from a preset with `base = "name"`)
 * and give its canonical bytes, which `World` and `WorldPool` take, and its digest. A document
 * with problems throws a StratagenError listing every one in `problems`. Needs the package's
 * dependency `toml-eslint-parser` (in a browser without a bundler: an import map entry).
 */
export function compileDefinition(text: string): { bytes: Uint8Array; digest: bigint };

/**
 * Load the WebAssembly module once (later calls return at once): the SIMD128 build where the
 * engine has SIMD128, the baseline build elsewhere (the same bits). `simd` forces the choice;
 * `wasm` gives a module's bytes or a compiled module instead. `definitions: false` skips the
 * TOML parser and the presets' text (then only definitions as bytes or preset names work).
 * Refused after `init()` of 'stratagen/noise' (the noise-only module).
 */
export function init(options?: {
  simd?: boolean; wasm?: BufferSource | WebAssembly.Module; definitions?: boolean;
}): Promise<void>;

/** Whether this engine runs WebAssembly SIMD128. */
export function simdSupported(): boolean;

/** Which build `init()` loaded. */
export function moduleKind(): 'simd128' | 'baseline' | 'given';

/** Live objects in the module, for leak checks. */
export function liveObjects(): { noises: number; chunks: number; memoryBytes: number };

export type NoiseType = 'value' | 'perlin' | 'simplex' | 'cellular';
export type FractalType = 'none' | 'fbm' | 'ridged' | 'billow';
export type Precision = 'f64' | 'f32';
export type CellularDistance = 'euclidean' | 'manhattan';
export type CellularReturn = 'f1' | 'f2' | 'f2_minus_f1' | 'cell_value';
export type ShaderLanguage = 'wgsl' | 'glsl' | 'godot';

/** Noise settings; the library's defaults where missing. */
export interface NoiseOptions {
  type?: NoiseType;
  fractal?: FractalType;
  /** 1..=16. */
  octaves?: number;
  /** Cycles per unit, > 0. */
  frequency?: number;
  lacunarity?: number;
  /** Amplitude multiplier between octaves (persistence). */
  gain?: number;
  seed?: number | bigint;
  /** Added to every coordinate before scaling. */
  offset?: [number, number, number];
  /** Domain warp displacement in units; 0 disables the warp. */
  warpAmplitude?: number;
  warpFrequency?: number;
  cellularDistance?: CellularDistance;
  cellularReturn?: CellularReturn;
  /** 0..=1. */
  cellularJitter?: number;
  /** 'f64' fills Float64Arrays; 'f32' is its own noise, filling Float32Arrays. */
  precision?: Precision;
}

/** Objects that hold module memory. */
export interface Freeable {
  /** Release the module memory; later calls on the object throw. */
  free(): void;
}

export class Noise implements Freeable {
  constructor(options?: NoiseOptions);
  readonly precision: Precision;
  /** A width × height grid from (x0, y0) with steps (dx, dy), row by row. */
  fill2d(x0: number, y0: number, dx: number, dy: number, width: number, height: number): Float64Array | Float32Array;
  /** A width × height × depth grid, index (j * depth + k) * width + i (y, z, x). */
  fill3d(
    x0: number, y0: number, z0: number,
    dx: number, dy: number, dz: number,
    width: number, height: number, depth: number,
  ): Float64Array | Float32Array;
  sample2d(x: number, y: number): number;
  sample3d(x: number, y: number, z: number): number;
  /** The res × res heightmap chunk (cx, cz); chunks tile seamlessly. */
  heightmapChunk(cx: number, cz: number, res?: number): Float32Array;
  /**
   * The heightmap chunk (cx, cz) as a grid mesh: `res` samples per side (64), heights
   * `heightOffset + heightScale * sample` blocks (64, 64), skirts `skirtDepth` deep (0: none).
   */
  heightmapMesh(cx: number, cz: number, options?: {
    res?: number; heightScale?: number; heightOffset?: number; skirtDepth?: number;
  }): { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: Uint32Array; digest: bigint };
  /**
   * The image of the noise, pixel (x, y) at (x, y), as RGBA for `ImageData`: contrast,
   * brightness and a palette as `stratagen noise` applies them, with its pixels.
   */
  image(width: number, height: number, options?: {
    contrast?: number; brightness?: number; palette?: string; tileable?: boolean;
  }): Uint8ClampedArray;
  /** The noise as GPU shader source. */
  shader(language?: ShaderLanguage, dims?: 2 | 3): string;
  free(): void;
}

export type Preset = 'default' | 'archipelago' | 'caverns';

export interface WorldOptions {
  seed?: number | bigint;
  /**
   * A preset's name; a definition as TOML text (any string that is not one word: see
   * `compileDefinition`); or a definition's canonical bytes (`compileDefinition`, or
   * `stratagen world compile FILE --out F`).
   */
  world?: Preset | string | Uint8Array;
  minY?: number;
  height?: number;
  seaLevel?: number;
  /** Finished chunks kept between calls (128 unless given; 0 keeps none): speed, never bits. */
  cache?: number;
}

export type HeightmapKind = 'world_surface' | 'ocean_floor' | 'motion_blocking' | 'motion_blocking_no_leaves';

/** A finished chunk; block index ((y - minY) * 16 + z) * 16 + x. */
export class Chunk implements Freeable {
  readonly x: number;
  readonly z: number;
  readonly minY: number;
  /** As `stratagen digest` prints it. */
  readonly digest: bigint;
  readonly blocks: Uint16Array;
  /** Per 4 × 4 column cell, index z / 4 * 4 + x / 4. */
  readonly biomes: Uint8Array;
  /** Index z * 16 + x: y + 1 of the top block of the kind. */
  heightmap(kind?: HeightmapKind): Int32Array;
  readonly skyLight: Uint8Array;
  readonly blockLight: Uint8Array;
  free(): void;
}

/** One surface of a chunk mesh, ready for a THREE.BufferGeometry. */
export interface SurfaceArrays {
  positions: Float32Array;
  normals: Float32Array;
  /** Linear RGBA with ambient occlusion and light. */
  colours: Float32Array;
  /** In blocks. */
  uvs: Float32Array;
  /** Counter-clockwise triangles. */
  indices: Uint32Array;
}

export interface ChunkMesh {
  opaque: SurfaceArrays;
  cutout: SurfaceArrays;
  translucent: SurfaceArrays;
  digest: bigint;
}

export class World implements Freeable {
  constructor(options?: WorldOptions);
  readonly minY: number;
  readonly height: number;
  readonly definitionDigest: bigint;
  chunk(cx: number, cz: number): Chunk;
  /** Row-major (z, then x). */
  region(x0: number, z0: number, x1: number, z1: number): Chunk[];
  mesh(cx: number, cz: number, options?: { greedy?: boolean }): ChunkMesh;
  /** Put block `block` at world block (x, y, z); later chunks and meshes show it, relit. */
  setBlock(x: number, y: number, z: number, block: number): void;
  /** The world's edits: the C library's edit records, one per edited chunk, one after another. */
  saveEdits(): Uint8Array;
  /** Apply saved edit records (all checked first; one refused refuses all). The record count. */
  loadEdits(bytes: Uint8Array): number;
  /** The block id at world block (x, y, z), edits included. */
  getBlock(x: number, y: number, z: number): number;
  /** The scatter instances of finished chunk (cx, cz), per layer, and its scatter digest. */
  scatter(cx: number, cz: number): { digest: bigint; layers: ScatterLayerInstances[] };
  /** The blocks in id order. */
  readonly blocks: BlockInfo[];
  /** The biomes in id order. */
  readonly biomes: { name: string; colour: [number, number, number] }[];
  readonly scatterLayers: { name: string; radius: number; kinds: string[] }[];
  free(): void;
}

export interface BlockInfo {
  name: string;
  shape: 'none' | 'cube' | 'cross' | 'fluid' | 'layer';
  surface: 'opaque' | 'cutout' | 'translucent';
  solid: boolean;
  liquid: boolean;
  replaceable: boolean;
  leaves: boolean;
  /** Drawn in its biome's colour (grass). */
  tinted: boolean;
  /** Block light emitted, 0..15. */
  emission: number;
  /** Light lost passing through, 0..15. */
  opacity: number;
  /** sRGB and alpha, 0..255. */
  colour: [number, number, number, number];
}

/** One scatter layer's instances in one chunk. */
export interface ScatterLayerInstances {
  name: string;
  /** The kinds' names; `kind[i]` indexes them. */
  kinds: string[];
  kind: Uint32Array;
  /** 16 floats per instance: its world transform, column-major (InstancedMesh.instanceMatrix). */
  matrices: Float32Array;
  /** 3 floats per instance, relative to the chunk's corner; y the top of its ground block. */
  positions: Float32Array;
  /** Radians. */
  yaws: Float32Array;
  scales: Float32Array;
  /** 3 floats per instance. */
  ups: Float32Array;
}

/** A finished chunk as a pool hands it over: plain typed arrays, nothing to free. */
export interface ChunkArrays {
  x: number;
  z: number;
  minY: number;
  digest: bigint;
  /** Index ((y - minY) * 16 + z) * 16 + x. */
  blocks: Uint16Array;
  biomes: Uint8Array;
  heightmaps: Record<HeightmapKind, Int32Array>;
  skyLight: Uint8Array;
  blockLight: Uint8Array;
}

/** Options of one pool request. */
export interface RequestOptions {
  /** Drops the request while it waits; its promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The package's calls on workers (Web Workers, or worker_threads in Node), each with a
 * module and a World of its own. A free worker takes the waiting request nearest the viewer.
 */
export class WorldPool {
  /** `workers` (one per core unless given) and the World options of every worker. */
  static create(options?: WorldOptions & { workers?: number }): Promise<WorldPool>;
  readonly size: number;
  /** Requests waiting for a worker. */
  readonly waiting: number;
  /** Waiting chunks are taken nearest (cx, cz) first from now on. */
  setViewer(cx: number, cz: number): void;
  chunk(cx: number, cz: number, options?: RequestOptions): Promise<ChunkArrays>;
  mesh(cx: number, cz: number, options?: RequestOptions & { greedy?: boolean }): Promise<ChunkMesh>;
  scatter(cx: number, cz: number, options?: RequestOptions): Promise<{ digest: bigint; layers: ScatterLayerInstances[] }>;
  /** Row-major (z, then x), at most 4096 chunks. */
  region(x0: number, z0: number, x1: number, z1: number, options?: RequestOptions): Promise<ChunkArrays[]>;
  fill2d(
    noise: NoiseOptions, x0: number, y0: number, dx: number, dy: number, width: number, height: number,
    options?: RequestOptions,
  ): Promise<Float64Array | Float32Array>;
  fill3d(
    noise: NoiseOptions, x0: number, y0: number, z0: number, dx: number, dy: number, dz: number,
    width: number, height: number, depth: number, options?: RequestOptions,
  ): Promise<Float64Array | Float32Array>;
  /** `new Noise(noise).image(...)` on a worker: a page's image without blocking its UI. */
  image(
    noise: NoiseOptions, width: number, height: number,
    image?: { contrast?: number; brightness?: number; palette?: string; tileable?: boolean },
    options?: RequestOptions,
  ): Promise<Uint8ClampedArray>;
  /** An edit in every worker's World; requests made afterwards show it, relit. */
  setBlock(x: number, y: number, z: number, block: number): Promise<void>;
  /** The block id at world block (x, y, z), edits included. */
  getBlock(x: number, y: number, z: number, options?: RequestOptions): Promise<number>;
  /** The edits made so far, as `World.saveEdits` gives them. */
  saveEdits(): Promise<Uint8Array>;
  /** Apply saved edits in every worker; the number of records. */
  loadEdits(bytes: Uint8Array): Promise<number>;
  /** Stop the workers; waiting and running requests reject. */
  free(): void;
}
