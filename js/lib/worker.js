// A WorldPool worker: a module of its own (the pool's compiled module, instantiated here),
// one World, and the Noise settings it was asked to fill with, answering one request at a
// time. Results cross back as typed arrays whose buffers are transferred, not copied.

import { init, isNode } from './module.js';
import { World } from './world.js';
import { Noise } from './noise.js';

/** Noise settings filled with recently, by their JSON text: at most this many are kept. */
const NOISES_KEPT = 8;

const port = isNode ? (await import('node:worker_threads')).parentPort : globalThis;
let world = null;
const noises = new Map();

/** The Noise of `options`, made once while it is among the last few used. */
function noiseOf(options) {
  const key = JSON.stringify(options, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  let n = noises.get(key);
  if (n === undefined) {
    n = new Noise(options);
    if (noises.size >= NOISES_KEPT) {
      const [oldest, old] = noises.entries().next().value;
      old.free();
      noises.delete(oldest);
    }
  } else {
    noises.delete(key);
  }
  noises.set(key, n);
  return n;
}

/** A finished chunk's arrays, the chunk freed. */
function chunkOf(x, z) {
  const c = world.chunk(x, z);
  try {
    return {
      x,
      z,
      minY: c.minY,
      digest: c.digest,
      blocks: c.blocks,
      biomes: c.biomes,
      heightmaps: {
        world_surface: c.heightmap('world_surface'),
        ocean_floor: c.heightmap('ocean_floor'),
        motion_blocking: c.heightmap('motion_blocking'),
        motion_blocking_no_leaves: c.heightmap('motion_blocking_no_leaves'),
      },
      skyLight: c.skyLight,
      blockLight: c.blockLight,
    };
  } finally {
    c.free();
  }
}

/** What each request does: its answer from its arguments. */
const OPS = {
  async init({ module, world: options }) {
    // The pool compiled any document: the worker needs no TOML parser or preset texts.
    await init({ wasm: module, definitions: false });
    world = new World(options);
    return null;
  },
  chunk: ({ x, z }) => chunkOf(x, z),
  mesh: ({ x, z, greedy }) => world.mesh(x, z, { greedy }),
  scatter: ({ x, z }) => world.scatter(x, z),
  setBlock: ({ x, y, z, block }) => world.setBlock(x, y, z, block),
  getBlock: ({ bx, y, bz }) => world.getBlock(bx, y, bz),
  saveEdits: () => world.saveEdits(),
  loadEdits: ({ bytes }) => world.loadEdits(bytes),
  fill2d: ({ noise, args }) => noiseOf(noise).fill2d(...args),
  fill3d: ({ noise, args }) => noiseOf(noise).fill3d(...args),
  image: ({ noise, args }) => noiseOf(noise).image(...args),
};

/** The buffers of every typed array in `value`, to transfer. */
function buffers(value, out = []) {
  if (ArrayBuffer.isView(value)) out.push(value.buffer);
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => buffers(v, out));
  return out;
}

async function answer(message) {
  const { id, op } = message;
  try {
    const value = await OPS[op](message);
    port.postMessage({ id, ok: true, value }, buffers(value));
  } catch (e) {
    port.postMessage({ id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
}

if (isNode) port.on('message', answer);
else port.onmessage = (event) => answer(event.data);
