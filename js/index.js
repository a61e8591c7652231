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
// message; nothing a caller passes can trap the module.

/** Every error this package throws. */
export class StratagenError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StratagenError';
  }
}

/** The module's exports, once `init()` has run. */
let wasm = null;
/** Which build was loaded: 'simd128', 'baseline', or 'given' (the caller's bytes). */
let kind = null;
/** Preset name → canonical definition bytes (`default` is the built-in world: none). */
let presets = null;
/** The library's noise defaults: the numbers and names the module reports. */
let noiseDefaults = null;
/** The library's default world settings: min_y, height, sea_level. */
let settingsDefaults = null;

const NOISE_NUMBERS = [
  'octaves', 'frequency', 'lacunarity', 'gain', null, null, null,
  'cellularJitter', 'warpAmplitude', 'warpFrequency',
];
const NOISE_NAMES = ['type', 'fractal', 'cellularDistance', 'cellularReturn', 'precision'];
const PRESETS = ['default', 'archipelago', 'caverns'];
const HEIGHTMAPS = ['world_surface', 'ocean_floor', 'motion_blocking', 'motion_blocking_no_leaves'];
const SURFACES = ['opaque', 'cutout', 'translucent'];
const decoder = new TextDecoder();
const encoder = new TextEncoder();

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

/** The bytes of a file next to this module: read in Node, fetched in a browser. */
async function load(relative) {
  const url = new URL(relative, import.meta.url);
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new StratagenError(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * A module of one SIMD128 instruction: whether the engine validates it is whether it runs the
 * SIMD build (the check `wasm-feature-detect` makes).
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Whether this engine runs WebAssembly SIMD128. */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * Load the WebAssembly module (once; later calls return at once): the SIMD128 build where the
 * engine has SIMD128, the other build elsewhere (both give the same bits). `options.simd`
 * forces the choice; `options.wasm` gives a module's bytes or a compiled `WebAssembly.Module`
 * instead of the files beside this one.
 */
export async function init(options = {}) {
  if (wasm !== null) return;
  const simd = options.simd ?? simdSupported();
  const source = options.wasm ?? await load(simd ? './dist/stratagen-simd.wasm' : './dist/stratagen.wasm');
  const { instance } = source instanceof WebAssembly.Module
    ? { instance: await WebAssembly.instantiate(source, {}) }
    : await WebAssembly.instantiate(source, {});
  const e = instance.exports;
  const loaded = { default: null };
  for (const name of PRESETS.slice(1)) loaded[name] = await load(`./dist/presets/${name}.bin`);
  const numbers = withBuffer(8 * NOISE_NUMBERS.length, (p) => {
    check(e, e.sg_noise_defaults(p));
    return Array.from(new Float64Array(e.memory.buffer, p, NOISE_NUMBERS.length));
  }, e);
  const names = readText(e).split('\0');
  const settings = withBuffer(12, (p) => {
    check(e, e.sg_default_settings(p));
    return Array.from(new Int32Array(e.memory.buffer, p, 3));
  }, e);
  wasm = e;
  kind = options.wasm !== undefined ? 'given' : simd ? 'simd128' : 'baseline';
  presets = loaded;
  noiseDefaults = { numbers, names };
  settingsDefaults = settings;
}

function exports() {
  if (wasm === null) throw new StratagenError('call `await init()` before using stratagen');
  return wasm;
}

function readText(e, ptr = e.sg_text_ptr(), len = e.sg_text_len()) {
  return decoder.decode(new Uint8Array(e.memory.buffer, ptr, len));
}

/** Throw the module's message when a call failed. */
function check(e, status) {
  if (status !== 0) throw new StratagenError(readText(e, e.sg_error_ptr(), e.sg_error_len()));
}

/** A handle the module made, or its message. */
function made(e, handle) {
  if (handle === 0) throw new StratagenError(readText(e, e.sg_error_ptr(), e.sg_error_len()));
  return handle;
}

/** The largest buffer one call asks the module for, in bytes (wasm32 sizes are 32-bit). */
const MAX_BUFFER = 0x7fffffff;

/** Run `f` with a module buffer of `bytes`, released afterwards. */
function withBuffer(bytes, f, e = exports()) {
  if (!(bytes >= 0 && bytes <= MAX_BUFFER)) throw new StratagenError(`a buffer of ${bytes} bytes is too large`);
  const p = e.sg_alloc(bytes);
  if (p === 0) throw new StratagenError(`out of memory for ${bytes} bytes`);
  try {
    return f(p);
  } finally {
    e.sg_free(p, bytes);
  }
}

/** Run `f` with `text` as UTF-8 in module memory (pointer, length). */
function withText(text, f, e = exports()) {
  const bytes = encoder.encode(text);
  return withBuffer(bytes.length, (p) => {
    new Uint8Array(e.memory.buffer, p, bytes.length).set(bytes);
    return f(p, bytes.length);
  }, e);
}

function int32(name, v) {
  if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) {
    throw new StratagenError(`${name} ${v}: a whole number from -2^31 to 2^31 - 1`);
  }
  return v;
}

function uint32(name, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new StratagenError(`${name} ${v}: a whole number from 0 to 2^32 - 1`);
  }
  return v;
}

function number(name, v) {
  if (typeof v !== 'number') throw new StratagenError(`${name} ${v}: a number`);
  return v;
}

function seed64(v) {
  if (typeof v === 'bigint') {
    if (BigInt.asIntN(64, v) !== v) throw new StratagenError(`seed ${v}: outside the 64-bit range`);
    return v;
  }
  if (!Number.isSafeInteger(v)) throw new StratagenError(`seed ${v}: a whole number (or a BigInt)`);
  return BigInt(v);
}

/** Frees what the garbage collector finds unfreed: `[free export name, handle]`. */
const finalizer = new FinalizationRegistry(([release, handle]) => {
  if (wasm !== null) wasm[release](handle);
});

/** What every handle-holding class shares: its handle, freed once. */
class Handle {
  #handle;
  #release;
  constructor(handle, release) {
    this.#handle = handle;
    this.#release = release;
    finalizer.register(this, [release, handle], this);
  }

  /** The live handle, or a StratagenError after free(). */
  get handle() {
    if (this.#handle === 0) throw new StratagenError(`${this.constructor.name} was freed`);
    return this.#handle;
  }

  /** Release the module memory this object holds; later calls on it throw. */
  free() {
    if (this.#handle === 0) return;
    finalizer.unregister(this);
    exports()[this.#release](this.#handle);
    this.#handle = 0;
  }
}

/**
 * Deterministic noise. Options (the library's defaults where missing): `type` ('value',
 * 'perlin', 'simplex', 'cellular'), `fractal` ('none', 'fbm', 'ridged', 'billow'), `octaves`,
 * `frequency`, `lacunarity`, `gain`, `seed` (a number or BigInt), `offset` ([x, y, z]),
 * `warpAmplitude` and `warpFrequency` (domain warp; 0 disables), `cellularDistance`,
 * `cellularReturn`, `cellularJitter`, `precision` ('f64' fills Float64Arrays, 'f32' its own
 * noise into Float32Arrays).
 */
export class Noise extends Handle {
  #precision;
  constructor(options = {}) {
    const e = exports();
    const numbers = noiseDefaults.numbers.slice();
    NOISE_NUMBERS.forEach((key, i) => {
      if (key !== null && options[key] !== undefined) numbers[i] = number(key, options[key]);
    });
    if (options.offset !== undefined) {
      if (!Array.isArray(options.offset) || options.offset.length !== 3) {
        throw new StratagenError('offset: [x, y, z]');
      }
      options.offset.forEach((v, i) => { numbers[4 + i] = number('offset', v); });
    }
    const names = NOISE_NAMES.map((key, i) => {
      const v = options[key] ?? noiseDefaults.names[i];
      if (typeof v !== 'string' || v.includes('\0')) throw new StratagenError(`${key} ${v}: a name`);
      return v;
    });
    const seed = seed64(options.seed ?? 0);
    const handle = withBuffer(8 * numbers.length, (p) => {
      new Float64Array(e.memory.buffer, p, numbers.length).set(numbers);
      return withText(names.join('\0'), (t, len) => made(e, e.sg_noise_create(seed, p, t, len)), e);
    }, e);
    super(handle, 'sg_noise_free');
    this.#precision = names[4];
  }

  /** 'f64' or 'f32'. */
  get precision() {
    return this.#precision;
  }

  #fill(count, call) {
    const e = exports();
    const T = this.#precision === 'f32' ? Float32Array : Float64Array;
    const bytes = count * T.BYTES_PER_ELEMENT;
    return withBuffer(bytes, (p) => {
      check(e, call(p));
      return new T(e.memory.buffer, p, count).slice();
    }, e);
  }

  /** A `width` × `height` grid from (x0, y0) with steps (dx, dy), row by row. */
  fill2d(x0, y0, dx, dy, width, height) {
    [x0, y0, dx, dy].forEach((v) => number('grid', v));
    uint32('width', width);
    uint32('height', height);
    const h = this.handle;
    return this.#fill(width * height, (p) => exports().sg_noise_fill_2d(h, x0, y0, dx, dy, width, height, p));
  }

  /** A `width` × `height` × `depth` grid, index `(j * depth + k) * width + i` (y, z, x). */
  fill3d(x0, y0, z0, dx, dy, dz, width, height, depth) {
    [x0, y0, z0, dx, dy, dz].forEach((v) => number('grid', v));
    uint32('width', width);
    uint32('height', height);
    uint32('depth', depth);
    const h = this.handle;
    return this.#fill(width * height * depth,
      (p) => exports().sg_noise_fill_3d(h, x0, y0, z0, dx, dy, dz, width, height, depth, p));
  }

  /** One sample at (x, y). */
  sample2d(x, y) {
    const h = this.handle;
    return withBuffer(8, (p) => {
      const e = exports();
      check(e, e.sg_noise_sample_2d(h, number('x', x), number('y', y), p));
      return new Float64Array(e.memory.buffer, p, 1)[0];
    });
  }

  /** One sample at (x, y, z). */
  sample3d(x, y, z) {
    const h = this.handle;
    return withBuffer(8, (p) => {
      const e = exports();
      check(e, e.sg_noise_sample_3d(h, number('x', x), number('y', y), number('z', z), p));
      return new Float64Array(e.memory.buffer, p, 1)[0];
    });
  }

  /** The `res` × `res` heightmap chunk (cx, cz) as a Float32Array; chunks tile seamlessly. */
  heightmapChunk(cx, cz, res = 16) {
    int32('cx', cx);
    int32('cz', cz);
    uint32('res', res);
    const h = this.handle;
    return withBuffer(4 * res * res, (p) => {
      const e = exports();
      check(e, e.sg_noise_heightmap(h, cx, cz, res, p));
      return new Float32Array(e.memory.buffer, p, res * res).slice();
    });
  }

  /** The noise as GPU shader source ('wgsl', 'glsl' or 'godot'), 2 or 3 dimensions. */
  shader(language = 'wgsl', dims = 2) {
    const h = this.handle;
    const e = exports();
    withText(String(language), (p, len) => check(e, e.sg_noise_shader(h, p, len, uint32('dims', dims))), e);
    return readText(e);
  }
}

/**
 * A world: `seed` (a number or BigInt), `world` (a preset: 'default', 'archipelago',
 * 'caverns'), and `minY`, `height`, `seaLevel` (the library's defaults where missing).
 */
export class World extends Handle {
  #height;
  #minY;
  constructor(options = {}) {
    const e = exports();
    const name = options.world ?? 'default';
    if (!Object.prototype.hasOwnProperty.call(presets, name)) {
      throw new StratagenError(`world ${JSON.stringify(name)}: expected a preset (${PRESETS.join(', ')})`);
    }
    const [minY, height, seaLevel] = settingsDefaults;
    const settings = {
      minY: int32('minY', options.minY ?? minY),
      height: uint32('height', options.height ?? height),
      seaLevel: int32('seaLevel', options.seaLevel ?? seaLevel),
    };
    const seed = seed64(options.seed ?? 0);
    const bytes = presets[name];
    const create = (p, len) => made(e, e.sg_world_create(seed, settings.minY, settings.height, settings.seaLevel, p, len));
    const handle = bytes === null
      ? create(0, 0)
      : withBuffer(bytes.length, (p) => {
        new Uint8Array(e.memory.buffer, p, bytes.length).set(bytes);
        return create(p, bytes.length);
      }, e);
    super(handle, 'sg_world_free');
    this.#height = settings.height;
    this.#minY = settings.minY;
  }

  /** The lowest block y. */
  get minY() {
    return this.#minY;
  }

  /** The height in blocks. */
  get height() {
    return this.#height;
  }

  /** The world definition's digest (a BigInt), part of the world's identity. */
  get definitionDigest() {
    return BigInt.asUintN(64, exports().sg_world_definition_digest(this.handle));
  }

  /** The finished chunk at (cx, cz). */
  chunk(cx, cz) {
    return this.region(cx, cz, cx, cz)[0];
  }

  /** The finished chunks of the rectangle x0..=x1 × z0..=z1, row-major (z, then x). */
  region(x0, z0, x1, z1) {
    [['x0', x0], ['z0', z0], ['x1', x1], ['z1', z1]].forEach(([n, v]) => int32(n, v));
    const e = exports();
    const count = Math.max(0, (x1 - x0 + 1) * (z1 - z0 + 1));
    const h = this.handle;
    const handles = withBuffer(4 * Math.max(count, 1), (p) => {
      check(e, e.sg_world_generate(h, x0, z0, x1, z1, p));
      return Array.from(new Uint32Array(e.memory.buffer, p, count));
    }, e);
    return handles.map((c) => new Chunk(c, this.#minY, this.#height));
  }

  /**
   * The mesh of chunk (cx, cz), its eight neighbours generated around it: per surface
   * ('opaque', 'cutout', 'translucent') `positions`, `normals`, `colours` (linear RGBA with AO
   * and light), `uvs` (Float32Arrays) and `indices` (Uint32Array), ready for a
   * BufferGeometry; and the mesh `digest` (a BigInt).
   */
  mesh(cx, cz, options = {}) {
    int32('cx', cx);
    int32('cz', cz);
    const e = exports();
    const m = made(e, e.sg_world_mesh(this.handle, cx, cz, options.greedy ? 1 : 0));
    try {
      const out = { digest: BigInt.asUintN(64, e.sg_mesh_digest(m)) };
      SURFACES.forEach((name, k) => {
        const [vertices, indices] = withBuffer(8, (p) => {
          check(e, e.sg_mesh_counts(m, k, p));
          return Array.from(new Uint32Array(e.memory.buffer, p, 2));
        }, e);
        const sizes = [3 * vertices, 3 * vertices, 4 * vertices, 2 * vertices, indices];
        const offsets = [];
        let total = 0;
        for (const s of sizes) {
          offsets.push(total);
          total += 4 * s;
        }
        out[name] = withBuffer(total, (p) => {
          check(e, e.sg_mesh_copy(m, k, ...offsets.map((o) => p + o)));
          const f32 = (i) => new Float32Array(e.memory.buffer, p + offsets[i], sizes[i]).slice();
          return {
            positions: f32(0),
            normals: f32(1),
            colours: f32(2),
            uvs: f32(3),
            indices: new Uint32Array(e.memory.buffer, p + offsets[4], sizes[4]).slice(),
          };
        }, e);
      });
      return out;
    } finally {
      e.sg_mesh_free(m);
    }
  }
}

/**
 * A finished chunk: blocks, biomes, heightmaps and light, copied out on each read (each a
 * typed array the caller owns). Block index `((y - minY) * 16 + z) * 16 + x`.
 */
export class Chunk extends Handle {
  #minY;
  #height;
  constructor(handle, minY, height) {
    super(handle, 'sg_chunk_free');
    this.#minY = minY;
    this.#height = height;
  }

  #position() {
    return withBuffer(8, (p) => {
      const e = exports();
      check(e, e.sg_chunk_position(this.handle, p));
      return Array.from(new Int32Array(e.memory.buffer, p, 2));
    });
  }

  /** Chunk x. */
  get x() {
    return this.#position()[0];
  }

  /** Chunk z. */
  get z() {
    return this.#position()[1];
  }

  /** The lowest block y. */
  get minY() {
    return this.#minY;
  }

  /** The chunk digest (a BigInt), as `stratagen digest` prints it. */
  get digest() {
    return BigInt.asUintN(64, exports().sg_chunk_digest(this.handle));
  }

  /** Block ids, a Uint16Array of 16 × 16 × height. */
  get blocks() {
    const n = 256 * this.#height;
    return withBuffer(2 * n, (p) => {
      const e = exports();
      check(e, e.sg_chunk_blocks(this.handle, p, n));
      return new Uint16Array(e.memory.buffer, p, n).slice();
    });
  }

  /** Biome ids per 4 × 4 column cell, a Uint8Array of 16 (index z / 4 * 4 + x / 4). */
  get biomes() {
    return withBuffer(16, (p) => {
      const e = exports();
      check(e, e.sg_chunk_biomes(this.handle, p));
      return new Uint8Array(e.memory.buffer, p, 16).slice();
    });
  }

  /**
   * A heightmap, an Int32Array of 256 (index z * 16 + x): per column y + 1 of the top block
   * of the kind ('world_surface', 'ocean_floor', 'motion_blocking',
   * 'motion_blocking_no_leaves').
   */
  heightmap(kind = 'world_surface') {
    const k = HEIGHTMAPS.indexOf(kind);
    if (k < 0) throw new StratagenError(`heightmap ${kind}: expected one of ${HEIGHTMAPS.join(', ')}`);
    return withBuffer(4 * 256, (p) => {
      const e = exports();
      check(e, e.sg_chunk_heightmap(this.handle, k, p));
      return new Int32Array(e.memory.buffer, p, 256).slice();
    });
  }

  #light(sky) {
    const n = 256 * this.#height;
    return withBuffer(n, (p) => {
      const e = exports();
      check(e, e.sg_chunk_light(this.handle, sky, p, n));
      return new Uint8Array(e.memory.buffer, p, n).slice();
    });
  }

  /** Sky light 0..15 per block, a Uint8Array in block order. */
  get skyLight() {
    return this.#light(1);
  }

  /** Block light 0..15 per block, a Uint8Array in block order. */
  get blockLight() {
    return this.#light(0);
  }
}

/** Live objects in the module (noises, chunks), for leak checks. */
export function liveObjects() {
  const e = exports();
  return { noises: e.sg_noise_count(), chunks: e.sg_chunk_count(), memoryBytes: e.memory.buffer.byteLength };
}

/** Which build `init()` loaded: 'simd128', 'baseline', or 'given' (`options.wasm`). */
export function moduleKind() {
  exports();
  return kind;
}
