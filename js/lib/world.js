// Worlds, their finished chunks and chunk meshes, generated on the calling thread.

import {
  StratagenError, Handle, exports, defaults, check, made, withBuffer, readText,
  int32, uint32, seed64, requireWorlds,
} from './module.js';
import { definitionBytes } from './definition.js';

const HEIGHTMAPS = ['world_surface', 'ocean_floor', 'motion_blocking', 'motion_blocking_no_leaves'];
const SURFACES = ['opaque', 'cutout', 'translucent'];

/**
 * A world: `seed` (a number or BigInt), `world` (a preset: 'default', 'archipelago',
 * 'caverns'; a definition as TOML text, which may start from a preset with `base = "name"`;
 * or a definition's canonical bytes as a Uint8Array, from `compileDefinition` or `stratagen
 * world compile`), and `minY`, `height`, `seaLevel` (the library's defaults where missing).
 * It keeps the last `cache` finished chunks asked for (128 unless given; 0 keeps none), so
 * nearby chunks asked for one by one share the neighbours they stand on; what it keeps
 * changes how long a call takes, never its result.
 */
export class World extends Handle {
  #height;
  #minY;
  #palettes = null;
  constructor(options = {}) {
    requireWorlds('World');
    const e = exports();
    const bytes = definitionBytes(options.world);
    const [minY, height, seaLevel] = defaults().settings;
    const settings = {
      minY: int32('minY', options.minY ?? minY),
      height: uint32('height', options.height ?? height),
      seaLevel: int32('seaLevel', options.seaLevel ?? seaLevel),
    };
    const seed = seed64(options.seed ?? 0);
    const cache = options.cache === undefined ? null : uint32('cache', options.cache);
    const create = (p, len) => made(e, e.sg_world_create(seed, settings.minY, settings.height, settings.seaLevel, p, len));
    const handle = bytes === null
      ? create(0, 0)
      : withBuffer(bytes.length, (p) => {
        new Uint8Array(e.memory.buffer, p, bytes.length).set(bytes);
        return create(p, bytes.length);
      }, e);
    super(handle, 'sg_world_free');
    if (cache !== null) check(e, e.sg_world_set_cache(handle, cache));
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

  #palettesOnce() {
    if (this.#palettes === null) {
      const e = exports();
      check(e, e.sg_world_palettes(this.handle));
      this.#palettes = JSON.parse(readText(e));
    }
    return this.#palettes;
  }

  /**
   * The blocks in id order: `name`, `shape` ('none', 'cube', 'cross', 'fluid', 'layer'),
   * `surface` ('opaque', 'cutout', 'translucent'), `solid`, `liquid`, `replaceable`,
   * `leaves`, `tinted`, `emission` and `opacity` (0..15), `colour` (sRGB and alpha, 0..255).
   */
  get blocks() {
    return this.#palettesOnce().blocks;
  }

  /** The biomes in id order: `name`, `colour` (sRGB, 0..255). */
  get biomes() {
    return this.#palettesOnce().biomes;
  }

  /** The scatter layers in order: `name`, `radius` (blocks between instances), `kinds` (names). */
  get scatterLayers() {
    return this.#palettesOnce().scatter;
  }

  /**
   * The scatter instances of finished chunk (cx, cz): per layer its `name`, `kinds` (names),
   * and per instance `kind` (Uint32Array, an index into `kinds`), `matrices` (16 floats,
   * the world transform column-major, as THREE.InstancedMesh's instanceMatrix takes it),
   * `positions` (3, relative to the chunk's corner), `yaws`, `scales` and `ups` (3); and the
   * chunk's scatter `digest` (a BigInt) as `stratagen scatter` prints it.
   */
  scatter(cx, cz) {
    int32('cx', cx);
    int32('cz', cz);
    const e = exports();
    const h = this.handle;
    const digest = withBuffer(8, (p) => {
      check(e, e.sg_world_scatter_digest(h, cx, cz, p));
      return new BigUint64Array(e.memory.buffer, p, 1)[0];
    }, e);
    const layers = this.scatterLayers.map((layer, k) => {
      const s = made(e, e.sg_world_scatter(h, k, cx, cz));
      try {
        const n = withBuffer(4, (p) => {
          check(e, e.sg_scatter_count(s, p));
          return new Uint32Array(e.memory.buffer, p, 1)[0];
        }, e);
        return withBuffer(4 * (n + 8 * n + 16 * n), (p) => {
          const [kinds, fields, matrices] = [p, p + 4 * n, p + 36 * n];
          check(e, e.sg_scatter_copy(s, kinds, fields, matrices));
          const f = new Float32Array(e.memory.buffer, fields, 8 * n);
          const pick = (from, width) => {
            const out = new Float32Array(width * n);
            for (let i = 0; i < n; i++) out.set(f.subarray(8 * i + from, 8 * i + from + width), width * i);
            return out;
          };
          return {
            name: layer.name,
            kinds: layer.kinds,
            kind: new Uint32Array(e.memory.buffer, kinds, n).slice(),
            matrices: new Float32Array(e.memory.buffer, matrices, 16 * n).slice(),
            positions: pick(0, 3),
            yaws: pick(3, 1),
            scales: pick(4, 1),
            ups: pick(5, 3),
          };
        }, e);
      } finally {
        e.sg_scatter_free(s);
      }
    });
    return { digest, layers };
  }

  /**
   * Put block `block` (an id of `blocks`) at world block (x, y, z). Chunks, meshes and
   * scatter made afterwards show it, relit; objects made before keep what they held. Edits
   * stay when the chunks they change leave the cache. A refused edit changes nothing.
   */
  setBlock(x, y, z, block) {
    [['x', x], ['y', y], ['z', z]].forEach(([n, v]) => int32(n, v));
    const e = exports();
    check(e, e.sg_world_set_block(this.handle, x, y, z, uint32('block', block)));
  }

  /**
   * The world's edits as bytes to keep (a file, IndexedDB): the C library's edit records
   * (`sg_world_save_edits`), one per edited chunk, one after another.
   */
  saveEdits() {
    const e = exports();
    check(e, e.sg_world_save_edits(this.handle));
    return new Uint8Array(e.memory.buffer, e.sg_bytes_ptr(), e.sg_bytes_len()).slice();
  }

  /**
   * Apply saved edits (`saveEdits`'s bytes, or the C library's edit records one after
   * another) after the edits the world has. Every record is checked first: a damaged one,
   * or one of another world, refuses them all and changes nothing. Returns the number of
   * records.
   */
  loadEdits(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new StratagenError('loadEdits: a Uint8Array of edit records');
    const h = this.handle;
    return withBuffer(bytes.length, (p) => {
      const e = exports();
      new Uint8Array(e.memory.buffer, p, bytes.length).set(bytes);
      return withBuffer(4, (q) => {
        check(e, e.sg_world_load_edits(h, p, bytes.length, q));
        return new Uint32Array(e.memory.buffer, q, 1)[0];
      }, e);
    });
  }

  /** The block id at world block (x, y, z), edits included. */
  getBlock(x, y, z) {
    [['x', x], ['y', y], ['z', z]].forEach(([n, v]) => int32(n, v));
    const h = this.handle;
    return withBuffer(4, (p) => {
      const e = exports();
      check(e, e.sg_world_block(h, x, y, z, p));
      return new Uint32Array(e.memory.buffer, p, 1)[0];
    });
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

