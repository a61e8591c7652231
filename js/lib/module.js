// The module and what every class shares: loading the WebAssembly build, buffers in its
// memory, the checks on arguments, errors, and handles freed once.

/** Every error this package throws. */
export class StratagenError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StratagenError';
  }
}

/** The module's exports, once `init()` has run. */
let wasm = null;
/** The compiled module, which a pool's workers instantiate without fetching it again. */
let compiled = null;
/** Which module was loaded: 'world' (everything) or 'noise' (`stratagen/noise`). */
let scope = null;
/** Which build was loaded: 'simd128', 'baseline', or 'given' (the caller's bytes). */
let kind = null;
/** Preset name → canonical definition bytes (`default` is the built-in world: none). */
let presets = null;
/** Preset name → its TOML text, which documents with `base = "name"` stand on. */
let presetTexts = null;
/** `parseTOML` of toml-eslint-parser, or why it did not load. */
let toml = null;
/** The library's noise defaults: the numbers and names the module reports. */
let noiseDefaults = null;
/** The library's default world settings: min_y, height, sea_level. */
let settingsDefaults = null;

/** How many numbers a noise's settings have (`sg_noise_defaults`). */
export const NOISE_NUMBER_COUNT = 10;
/** The presets the package ships: `default` is the built-in world. */
export const PRESETS = ['default', 'archipelago', 'caverns'];
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

/** The bytes of a file next to this module: read in Node, fetched in a browser. */
async function load(relative) {
  const url = new URL(`../${relative}`, import.meta.url);
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

/** The module files of each scope: [baseline, SIMD128]. */
const MODULE_FILES = {
  world: ['dist/stratagen.wasm', 'dist/stratagen-simd.wasm'],
  noise: ['dist/stratagen-noise.wasm', 'dist/stratagen-noise-simd.wasm'],
};

/** Instantiate the module of `scope` as `options` choose, and read its noise defaults. */
async function instantiate(options, scope) {
  const simd = options.simd ?? simdSupported();
  const source = options.wasm ?? await load(MODULE_FILES[scope][simd ? 1 : 0]);
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  const e = (await WebAssembly.instantiate(module, {})).exports;
  const numbers = withBuffer(8 * NOISE_NUMBER_COUNT, (p) => {
    check(e, e.sg_noise_defaults(p));
    return Array.from(new Float64Array(e.memory.buffer, p, NOISE_NUMBER_COUNT));
  }, e);
  const names = readText(e).split('\0');
  return {
    e, module,
    kind: options.wasm !== undefined ? 'given' : simd ? 'simd128' : 'baseline',
    noise: { numbers, names },
  };
}

/** Make `loaded` the module every class uses. */
function adopt(loaded, what) {
  wasm = loaded.e;
  compiled = loaded.module;
  kind = loaded.kind;
  noiseDefaults = loaded.noise;
  scope = what;
}

/**
 * Load the WebAssembly module (once; later calls return at once): the SIMD128 build where the
 * engine has SIMD128, the other build elsewhere (both give the same bits). `options.simd`
 * forces the choice; `options.wasm` gives a module's bytes or a compiled `WebAssembly.Module`
 * instead of the files beside this one. `options.definitions: false` skips the TOML parser
 * and the presets' text, which only definitions written as TOML need (a pool's workers
 * receive compiled bytes).
 */
export async function init(options = {}) {
  if (scope === 'noise') {
    throw new StratagenError(
      "the noise-only module is loaded (init of 'stratagen/noise'): call init() of 'stratagen' "
      + 'before it to have worlds as well');
  }
  if (wasm !== null) return;
  const loaded = await instantiate(options, 'world');
  const e = loaded.e;
  if (typeof e.sg_world_create !== 'function') {
    throw new StratagenError('this module has no worlds: it is the noise-only module (stratagen/noise)');
  }
  const bytes = { default: null };
  for (const name of PRESETS.slice(1)) bytes[name] = await load(`dist/presets/${name}.bin`);
  const texts = {};
  // Definitions as TOML text need the parser; everything else works without it (a page
  // without an import map entry for it, say).
  let parseTOML = 'definitions as TOML text were not loaded (init with definitions: false)';
  if (options.definitions !== false) {
    for (const name of PRESETS) texts[name] = decoder.decode(await load(`dist/presets/${name}.toml`));
    try {
      ({ parseTOML } = await import('toml-eslint-parser'));
    } catch (err) {
      parseTOML = String(err?.message ?? err);
    }
  }
  const settings = withBuffer(12, (p) => {
    check(e, e.sg_default_settings(p));
    return Array.from(new Int32Array(e.memory.buffer, p, 3));
  }, e);
  adopt(loaded, 'world');
  presets = bytes;
  presetTexts = texts;
  toml = parseTOML;
  settingsDefaults = settings;
}

/**
 * Load the noise-only module (`stratagen/noise`): noises, fills, samples, heightmap chunks,
 * images and shaders, in a third of the whole module's size. Options as `init()`'s; once
 * either module is loaded, later calls return at once.
 */
export async function initNoise(options = {}) {
  if (wasm !== null) return;
  adopt(await instantiate(options, 'noise'), 'noise');
}

/** A StratagenError unless the whole module is loaded: `what` needs worlds. */
export function requireWorlds(what) {
  exports();
  if (scope !== 'world') {
    throw new StratagenError(
      `${what} needs the whole module: the noise-only module (stratagen/noise) is loaded`);
  }
}

/** The module's exports, or a StratagenError before `init()`. */
export function exports() {
  if (wasm === null) throw new StratagenError('call `await init()` before using stratagen');
  return wasm;
}

/** The compiled module `init()` loaded. */
export function compiledModule() {
  exports();
  return compiled;
}

/** The library's defaults: noise numbers and names, and world settings [minY, height, seaLevel]. */
export function defaults() {
  exports();
  return { noise: noiseDefaults, settings: settingsDefaults };
}

/**
 * The canonical definition bytes of a preset (null: the built-in world), or a StratagenError.
 * Bytes given as a Uint8Array (`stratagen world compile`) are returned as they are: the
 * module checks them.
 */
export function presetBytes(name) {
  exports();
  if (name instanceof Uint8Array) return name;
  if (!Object.prototype.hasOwnProperty.call(presets, name)) {
    throw new StratagenError(`world ${JSON.stringify(name)}: expected a preset (${PRESETS.join(', ')})`);
  }
  return presets[name];
}

/** The TOML text of a preset. */
export function presetText(name) {
  exports();
  return presetTexts[name];
}

/** The TOML parser (a function), or the message of why it did not load. */
export function tomlParser() {
  exports();
  return toml;
}

/** Text the module wrote (the last text result, or the bytes at `ptr`). */
export function readText(e, ptr = e.sg_text_ptr(), len = e.sg_text_len()) {
  return decoder.decode(new Uint8Array(e.memory.buffer, ptr, len));
}

/** Throw the module's message when a call failed. */
export function check(e, status) {
  if (status !== 0) throw new StratagenError(readText(e, e.sg_error_ptr(), e.sg_error_len()));
}

/** A handle the module made, or its message. */
export function made(e, handle) {
  if (handle === 0) throw new StratagenError(readText(e, e.sg_error_ptr(), e.sg_error_len()));
  return handle;
}

/** The largest buffer one call asks the module for, in bytes (wasm32 sizes are 32-bit). */
const MAX_BUFFER = 0x7fffffff;

/** Run `f` with a module buffer of `bytes`, released afterwards. */
export function withBuffer(bytes, f, e = exports()) {
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
export function withText(text, f, e = exports()) {
  const bytes = encoder.encode(text);
  return withBuffer(bytes.length, (p) => {
    new Uint8Array(e.memory.buffer, p, bytes.length).set(bytes);
    return f(p, bytes.length);
  }, e);
}

export function int32(name, v) {
  if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) {
    throw new StratagenError(`${name} ${v}: a whole number from -2^31 to 2^31 - 1`);
  }
  return v;
}

export function uint32(name, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new StratagenError(`${name} ${v}: a whole number from 0 to 2^32 - 1`);
  }
  return v;
}

export function number(name, v) {
  if (typeof v !== 'number') throw new StratagenError(`${name} ${v}: a number`);
  return v;
}

export function seed64(v) {
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
export class Handle {
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

/** Live objects in the module (noises, chunks), for leak checks. */
export function liveObjects() {
  const e = exports();
  const chunks = scope === 'world' ? e.sg_chunk_count() : 0;
  return { noises: e.sg_noise_count(), chunks, memoryBytes: e.memory.buffer.byteLength };
}

/** Which build `init()` loaded: 'simd128', 'baseline', or 'given' (`options.wasm`). */
export function moduleKind() {
  exports();
  return kind;
}
