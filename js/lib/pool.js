// WorldPool: the package's calls run on workers (Web Workers in a browser, worker_threads in
// Node), each with a module and a World of its own. Workers share no memory: a request
// crosses as its arguments, an answer as typed arrays whose buffers are transferred.
//
// Requests wait in one queue. Each worker holds up to two: the one it runs and the next,
// already posted, so it starts that one without waiting for the main thread to read its
// answer and post again (a fill of a millisecond would otherwise leave the worker idle a
// fifth of the time). A worker with room takes the waiting request nearest the viewer
// (re-read at that moment, so moving the viewer reorders what waits), preferring chunks of
// the 4 × 4-chunk tiles it already worked on, whose neighbours its World keeps: a chunk's
// neighbours are generated once per worker that needs them, not once per request. Every
// worker gets one request before any gets a second. A request whose AbortSignal fires while
// it waits is dropped and its promise rejected; a posted one runs.
//
// Edits go to every worker at once, each applying them to its World in the order they were
// made: a worker takes its messages one at a time in the order they were posted, so a request
// sent to a worker after an edit sees it, and every worker holds the same edits. (A request
// already posted when the edit is made may or may not show it, as with a World the request
// had finished with.) `saveEdits` asks the first worker, which has applied every edit
// made before the call.
// Every method returns a promise; bad arguments reject it with a StratagenError.

import {
  StratagenError, compiledModule, isNode, int32, uint32, number, requireWorlds,
} from './module.js';
import { definitionBytes } from './definition.js';

/** Chunks per side of a tile: the unit a worker keeps working on. */
const TILE_CHUNKS = 4;

/** Requests posted to one worker at a time: the one it runs and the next. */
const POSTED_PER_WORKER = 2;

/** The most chunks one `region` call asks for (as `World.region`). */
const MAX_REGION_CHUNKS = 4096;

/** How many workers a pool has unless told: one per core. */
async function coreCount() {
  if (isNode) {
    const os = await import('node:os');
    return os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency ?? 2;
}

/** A worker of this package, with `send(message)` and `listen(onMessage, onError)`. */
async function spawn() {
  const url = new URL('./worker.js', import.meta.url);
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(url);
    return {
      send: (m) => w.postMessage(m),
      listen: (onMessage, onError) => {
        w.on('message', onMessage);
        w.on('error', onError);
      },
      // An idle worker does not keep Node running.
      idle: (yes) => (yes ? w.unref() : w.ref()),
      terminate: () => w.terminate(),
    };
  }
  const w = new Worker(url, { type: 'module' });
  return {
    send: (m) => w.postMessage(m),
    listen: (onMessage, onError) => {
      w.onmessage = (event) => onMessage(event.data);
      w.onerror = (event) => onError(new StratagenError(event.message ?? 'a worker failed'));
    },
    idle: () => {},
    terminate: () => w.terminate(),
  };
}

function tileOf(x, z) {
  return `${Math.floor(x / TILE_CHUNKS)},${Math.floor(z / TILE_CHUNKS)}`;
}

export class WorldPool {
  #workers = [];
  #queue = [];
  #owners = new Map();
  #viewer = [0, 0];
  #sequence = 0;
  #messages = 0;
  #freed = false;

  /**
   * A pool of `options.workers` workers (one per core unless given), each with a World of
   * `options` (`seed`, `world`, `minY`, `height`, `seaLevel`, `cache`, as `new World` takes).
   * `init()` must have run: the workers instantiate the module it loaded.
   */
  static async create(options = {}) {
    requireWorlds('WorldPool');
    const { workers, ...world } = options;
    // A document is checked here, once; the workers get its canonical bytes (none: the
    // built-in world).
    world.world = definitionBytes(world.world) ?? 'default';
    const count = workers === undefined ? await coreCount() : uint32('workers', workers);
    if (count < 1) throw new StratagenError('workers 0: a pool needs at least one');
    const module = compiledModule();
    const pool = new WorldPool();
    try {
      await Promise.all(Array.from({ length: count }, () => pool.#start(module, world)));
    } catch (e) {
      pool.free();
      throw e;
    }
    return pool;
  }

  async #start(module, world) {
    // `posted`: the requests posted to it, in the order it answers them; `direct`: messages
    // sent to it alone or to every worker (init, edits), by message id.
    const w = { io: await spawn(), posted: [], direct: new Map(), index: this.#workers.length };
    this.#workers.push(w);
    w.io.listen((m) => this.#answered(w, m), (e) => this.#failed(w, e));
    await this.#direct(w, 'init', { module, world });
  }

  /** How many workers the pool has. */
  get size() {
    return this.#workers.length;
  }

  /** Requests waiting for a worker. */
  get waiting() {
    return this.#queue.length;
  }

  /** Waiting chunks are taken nearest (cx, cz) first, from now on. */
  setViewer(cx, cz) {
    this.#viewer = [number('cx', cx), number('cz', cz)];
  }

  /** The finished chunk (cx, cz): x, z, minY, digest, blocks, biomes, heightmaps, skyLight, blockLight. */
  async chunk(cx, cz, options = {}) {
    return this.#submit('chunk', { x: int32('cx', cx), z: int32('cz', cz) }, options);
  }

  /** The mesh of chunk (cx, cz), as `World.mesh` gives it. */
  async mesh(cx, cz, options = {}) {
    const args = { x: int32('cx', cx), z: int32('cz', cz), greedy: Boolean(options.greedy) };
    return this.#submit('mesh', args, options);
  }

  /** The scatter instances of chunk (cx, cz), as `World.scatter` gives them. */
  async scatter(cx, cz, options = {}) {
    return this.#submit('scatter', { x: int32('cx', cx), z: int32('cz', cz) }, options);
  }

  /** The finished chunks of x0..=x1 × z0..=z1, row-major (z, then x); nearest the viewer generated first. */
  async region(x0, z0, x1, z1, options = {}) {
    [['x0', x0], ['z0', z0], ['x1', x1], ['z1', z1]].forEach(([n, v]) => int32(n, v));
    if (x1 < x0 || z1 < z0) throw new StratagenError(`region (${x0}, ${z0})..=(${x1}, ${z1}) holds no chunk`);
    const count = (x1 - x0 + 1) * (z1 - z0 + 1);
    if (count > MAX_REGION_CHUNKS) {
      throw new StratagenError(`region of ${count} chunks: at most ${MAX_REGION_CHUNKS} per call`);
    }
    const chunks = [];
    for (let z = z0; z <= z1; z++) for (let x = x0; x <= x1; x++) chunks.push(this.chunk(x, z, options));
    return Promise.all(chunks);
  }

  /** `new Noise(noise).fill2d(...args)` on a worker. */
  async fill2d(noise, x0, y0, dx, dy, width, height, options = {}) {
    return this.#submit('fill2d', { noise, args: [x0, y0, dx, dy, width, height] }, options);
  }

  /** `new Noise(noise).image(width, height, image)` on a worker: RGBA for `ImageData`. */
  async image(noise, width, height, image = {}, options = {}) {
    return this.#submit('image', { noise, args: [width, height, image] }, options);
  }

  /** `new Noise(noise).fill3d(...args)` on a worker. */
  async fill3d(noise, x0, y0, z0, dx, dy, dz, width, height, depth, options = {}) {
    return this.#submit('fill3d', { noise, args: [x0, y0, z0, dx, dy, dz, width, height, depth] }, options);
  }

  /**
   * Put block `block` at world block (x, y, z) in every worker's World (`World.setBlock`):
   * chunks and meshes asked for afterwards show it, relit. A refused edit changes nothing.
   */
  async setBlock(x, y, z, block) {
    const args = { x: int32('x', x), y: int32('y', y), z: int32('z', z), block: uint32('block', block) };
    await this.#everyWorker('setBlock', args);
  }

  /** The block id at world block (x, y, z), edits included (`World.getBlock`). */
  async getBlock(x, y, z, options = {}) {
    const args = { bx: int32('x', x), y: int32('y', y), bz: int32('z', z) };
    return this.#submit('getBlock', args, options);
  }

  /** The edits made so far as bytes to keep (`World.saveEdits`). */
  async saveEdits() {
    if (this.#freed) throw new StratagenError('the pool was freed');
    return this.#direct(this.#workers[0], 'saveEdits', {});
  }

  /** Apply saved edits in every worker (`World.loadEdits`); the number of records. */
  async loadEdits(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new StratagenError('loadEdits: a Uint8Array of edit records');
    return this.#everyWorker('loadEdits', { bytes });
  }

  /** Stop the workers; what waits or runs is rejected. Later calls reject. */
  free() {
    if (this.#freed) return;
    this.#freed = true;
    const gone = new StratagenError('the pool was freed');
    for (const t of this.#queue.splice(0)) t.reject(gone);
    for (const w of this.#workers) {
      for (const t of w.posted.splice(0)) t.reject(gone);
      for (const d of w.direct.values()) d.reject(gone);
      w.direct.clear();
      w.io.terminate();
    }
  }

  /** Send `op` to worker `w` now, ahead of what waits in the queue; its answer. */
  #direct(w, op, args) {
    return new Promise((resolve, reject) => {
      const id = ++this.#messages;
      w.direct.set(id, { resolve, reject });
      w.io.idle(false);
      w.io.send({ id, op, ...args });
    });
  }

  /** Send `op` to every worker; the first worker's answer once every worker has answered. */
  async #everyWorker(op, args) {
    if (this.#freed) throw new StratagenError('the pool was freed');
    const answers = await Promise.all(this.#workers.map((w) => this.#direct(w, op, args)));
    return answers[0];
  }

  #submit(op, args, { signal } = {}) {
    if (this.#freed) return Promise.reject(new StratagenError('the pool was freed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const task = { op, args, resolve, reject, sequence: this.#sequence++ };
      if (signal) {
        const drop = () => {
          const i = this.#queue.indexOf(task);
          if (i >= 0) {
            this.#queue.splice(i, 1);
            reject(signal.reason);
          }
        };
        signal.addEventListener('abort', drop, { once: true });
        task.done = () => signal.removeEventListener('abort', drop);
      }
      this.#queue.push(task);
      this.#dispatch();
    });
  }

  /** The waiting task worker `w` runs next: the nearest of its tiles or of no one's, else the nearest. */
  #next(w) {
    const [vx, vz] = this.#viewer;
    let best = -1;
    let bestKey = null;
    this.#queue.forEach((t, i) => {
      const positioned = t.args.x !== undefined;
      const owner = positioned ? this.#owners.get(tileOf(t.args.x, t.args.z)) : undefined;
      const foreign = owner !== undefined && owner !== w.index ? 1 : 0;
      const distance = positioned ? Math.hypot(t.args.x - vx, t.args.z - vz) : 0;
      const key = [foreign, distance, t.sequence];
      if (bestKey === null || key[0] < bestKey[0] || (key[0] === bestKey[0]
        && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
        best = i;
        bestKey = key;
      }
    });
    return this.#queue.splice(best, 1)[0];
  }

  #dispatch() {
    // Depth by depth: every worker with room gets one request before any gets another.
    for (let depth = 1; depth <= POSTED_PER_WORKER; depth++) {
      for (const w of this.#workers) {
        if (this.#queue.length === 0) return;
        if (w.posted.length >= depth) continue;
        const t = this.#next(w);
        t.done?.();
        if (t.args.x !== undefined) {
          const tile = tileOf(t.args.x, t.args.z);
          if (!this.#owners.has(tile)) this.#owners.set(tile, w.index);
        }
        t.id = ++this.#messages;
        w.posted.push(t);
        w.io.idle(false);
        w.io.send({ id: t.id, op: t.op, ...t.args });
      }
    }
  }

  #answered(w, m) {
    let t = w.direct.get(m.id);
    if (t !== undefined) {
      w.direct.delete(m.id);
    } else {
      const i = w.posted.findIndex((p) => p.id === m.id);
      if (i >= 0) t = w.posted.splice(i, 1)[0];
    }
    if (t !== undefined) {
      if (m.ok) t.resolve(m.value);
      else t.reject(new StratagenError(m.message));
    }
    if (this.#freed) return;
    if (w.posted.length === 0 && w.direct.size === 0) w.io.idle(true);
    this.#dispatch();
  }

  #failed(w, error) {
    const why = new StratagenError(`a worker failed: ${error?.message ?? error}`);
    for (const t of w.posted.splice(0)) t.reject(why);
    for (const d of w.direct.values()) d.reject(why);
    w.direct.clear();
    // A worker that failed outside a request (it could not load) leaves the pool unusable.
    this.free();
  }
}
