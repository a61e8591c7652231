// Noise: fills, samples, heightmap chunks and shaders of one noise setting.

import {
  StratagenError, Handle, exports, defaults, check, made, withBuffer, withText, readText,
  number, uint32, int32, seed64, NOISE_NUMBER_COUNT, requireWorlds,
} from './module.js';

/** The settings' numbers in the module's order (null: the offset, given as an array). */
const NOISE_NUMBERS = [
  'octaves', 'frequency', 'lacunarity', 'gain', null, null, null,
  'cellularJitter', 'warpAmplitude', 'warpFrequency',
];
/** The library's heightmap mesh defaults: res, heightScale, heightOffset, skirtDepth. */
let terrain = null;
function terrainDefaults() {
  if (terrain === null) {
    terrain = withBuffer(32, (p) => {
      const e = exports();
      check(e, e.sg_heightmap_mesh_defaults(p));
      return Array.from(new Float64Array(e.memory.buffer, p, 4));
    });
  }
  return terrain;
}

/** The settings' names in the module's order. */
const NOISE_NAMES = ['type', 'fractal', 'cellularDistance', 'cellularReturn', 'precision'];

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
    const noiseDefaults = defaults().noise;
    const numbers = noiseDefaults.numbers.slice(0, NOISE_NUMBER_COUNT);
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

  /**
   * The heightmap chunk (cx, cz) as a terrain mesh: `res` samples per side (64 unless
   * given), vertex heights `heightOffset + heightScale * sample` blocks (64 and 64), skirts
   * `skirtDepth` blocks deep (0: none). Positions and normals (3 floats per vertex), uvs
   * (2), indices (Uint32Array) and the mesh `digest`; neighbouring chunks' edges meet bit
   * for bit.
   */
  heightmapMesh(cx, cz, options = {}) {
    requireWorlds('heightmapMesh (a mesh)');
    int32('cx', cx);
    int32('cz', cz);
    const d = terrainDefaults();
    const res = uint32('res', options.res ?? d[0]);
    const [scale, offset, skirt] = [['heightScale', 1], ['heightOffset', 2], ['skirtDepth', 3]]
      .map(([k, i]) => number(k, options[k] ?? d[i]));
    const e = exports();
    const m = made(e, e.sg_noise_heightmap_mesh(this.handle, cx, cz, res, scale, offset, skirt));
    try {
      const [vertices, indices] = withBuffer(8, (p) => {
        check(e, e.sg_heightmap_mesh_counts(m, p));
        return Array.from(new Uint32Array(e.memory.buffer, p, 2));
      }, e);
      const sizes = [3 * vertices, 3 * vertices, 2 * vertices, indices];
      const offsets = sizes.map((_, i) => 4 * sizes.slice(0, i).reduce((a, b) => a + b, 0));
      return withBuffer(4 * sizes.reduce((a, b) => a + b, 0), (p) => {
        check(e, e.sg_heightmap_mesh_copy(m, ...offsets.map((o) => p + o)));
        const f32 = (i) => new Float32Array(e.memory.buffer, p + offsets[i], sizes[i]).slice();
        return {
          positions: f32(0),
          normals: f32(1),
          uvs: f32(2),
          indices: new Uint32Array(e.memory.buffer, p + offsets[3], sizes[3]).slice(),
          digest: BigInt.asUintN(64, e.sg_heightmap_mesh_digest(m)),
        };
      }, e);
    } finally {
      e.sg_heightmap_mesh_free(m);
    }
  }

  /**
   * The `width` × `height` image of the noise, pixel (x, y) sampled at (x, y) (so `frequency`
   * is one over the feature size in pixels), as RGBA bytes for `new ImageData(rgba, width,
   * height)`: each sample v in [-1, 1] becomes t = (v + 1) / 2, then
   * clamp((t − 0.5) · contrast + 0.5 + brightness, 0, 1), then a colour of `palette` (a name:
   * 'gray', 'terrain', 'fire', 'ice', 'magma', or 2 to 6 colours 'rrggbb,rrggbb,...').
   * `tileable` wraps both axes (value and Perlin, f64). The pixels of `stratagen noise`.
   */
  image(width, height, options = {}) {
    uint32('width', width);
    uint32('height', height);
    const contrast = number('contrast', options.contrast ?? 1);
    const brightness = number('brightness', options.brightness ?? 0);
    const palette = String(options.palette ?? 'gray');
    const tileable = options.tileable ? 1 : 0;
    const h = this.handle;
    const e = exports();
    const bytes = 4 * width * height;
    return withBuffer(bytes, (out) => {
      withText(palette, (p, len) => check(e, e.sg_noise_image(h, width, height, contrast, brightness, p, len, tileable, out)), e);
      return new Uint8ClampedArray(e.memory.buffer, out, bytes).slice();
    }, e);
  }

  /** The noise as GPU shader source ('wgsl', 'glsl' or 'godot'), 2 or 3 dimensions. */
  shader(language = 'wgsl', dims = 2) {
    const h = this.handle;
    const e = exports();
    withText(String(language), (p, len) => check(e, e.sg_noise_shader(h, p, len, uint32('dims', dims))), e);
    return readText(e);
  }
}

