// Stratagen in Node beside the noise packages JavaScript projects use, in the same run:
// `node js/bench.mjs [baseline]` (after `bash js/build.sh`; `npm install` in js/ fetches the
// peers; `baseline` loads the build without SIMD128).
// Prints the CPU and Node, then per workload the best of several batches and the ratio to
// `simplex-noise` (below 1 is faster), the timing study's burst, a full voxel chunk against
// the native command's inline time (built with `cargo build --release`), and the module's
// size. Speed claims come from here, never from the tests.
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { init, moduleKind, Noise, World, WorldPool } from './index.js';

const SIDE = 128;
const FREQUENCY = 0.01;

/** Microseconds per call of `f`: the best of `batches` batches of about 50 ms each. */
function bench(f, batches = 7) {
  f();
  let per = 1;
  for (let t = 0; t < 0.05; per *= 2) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) f();
    t = (performance.now() - t0) / 1000;
  }
  let best = Infinity;
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) f();
    best = Math.min(best, ((performance.now() - t0) * 1000) / per);
  }
  return best;
}

/** A 128² fBm fill of `octaves` from a point sampler (how the JavaScript packages are used). */
function fbm(sample, octaves, x0 = 0, y0 = 0) {
  const out = new Float32Array(SIDE * SIDE);
  for (let j = 0; j < SIDE; j++) {
    for (let i = 0; i < SIDE; i++) {
      let f = FREQUENCY;
      let a = 1;
      let sum = 0;
      for (let o = 0; o < octaves; o++) {
        sum += a * sample((x0 + i) * f, (y0 + j) * f);
        f *= 2;
        a *= 0.5;
      }
      out[j * SIDE + i] = sum;
    }
  }
  return out;
}

async function peers() {
  const found = {};
  try {
    const { createNoise2D } = await import('simplex-noise');
    found['simplex-noise'] = createNoise2D(() => 0.5);
  } catch { /* not installed */ }
  try {
    const { makeNoise2D } = await import('open-simplex-noise');
    found['open-simplex-noise'] = makeNoise2D(7);
  } catch { /* not installed */ }
  try {
    const { default: FastNoiseLite } = await import('fastnoise-lite');
    found['fastnoise-lite'] = FastNoiseLite;
  } catch { /* not installed */ }
  return found;
}

function fastNoiseFill(FastNoiseLite, type, octaves) {
  const n = new FastNoiseLite(7);
  n.SetNoiseType(type);
  n.SetFractalType(FastNoiseLite.FractalType.FBm);
  n.SetFractalOctaves(octaves);
  n.SetFrequency(FREQUENCY);
  return () => {
    const out = new Float32Array(SIDE * SIDE);
    for (let j = 0; j < SIDE; j++) for (let i = 0; i < SIDE; i++) out[j * SIDE + i] = n.GetNoise(i, j);
    return out;
  };
}

/** The CPU as `stratagen bench` prints it: model name, family and model (Linux), else Node's. */
function cpu() {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (k) => info.match(new RegExp(`^${k}\\s*: (.*)$`, 'm'))?.[1];
    return `${field('model name')} (family ${field('cpu family')} model ${field('model')})`;
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

await init(process.argv[2] === 'baseline' ? { simd: false } : {});
const p = await peers();
console.log(`cpu ${cpu()}; node ${process.version}; module ${moduleKind()}`);
if (!p['simplex-noise']) console.log('(peers missing: `npm install` in js/ fetches them)');

// 128² fBm, 4 octaves.
const rows = [];
for (const [type, precision] of [['value', 'f64'], ['perlin', 'f64'], ['simplex', 'f64'], ['value', 'f32'], ['perlin', 'f32'], ['simplex', 'f32']]) {
  const noise = new Noise({ type, octaves: 4, frequency: FREQUENCY, precision });
  rows.push([`stratagen ${type} ${precision}`, bench(() => noise.fill2d(0, 0, 1, 1, SIDE, SIDE))]);
  noise.free();
}
if (p['simplex-noise']) rows.push(['simplex-noise 2D', bench(() => fbm(p['simplex-noise'], 4))]);
if (p['open-simplex-noise']) rows.push(['open-simplex-noise 2D', bench(() => fbm(p['open-simplex-noise'], 4))]);
if (p['fastnoise-lite']) {
  const F = p['fastnoise-lite'];
  rows.push(['fastnoise-lite OpenSimplex2', bench(fastNoiseFill(F, F.NoiseType.OpenSimplex2, 4))]);
  rows.push(['fastnoise-lite Perlin', bench(fastNoiseFill(F, F.NoiseType.Perlin, 4))]);
  rows.push(['fastnoise-lite Value', bench(fastNoiseFill(F, F.NoiseType.Value, 4))]);
}
const reference = rows.find(([n]) => n === 'simplex-noise 2D')?.[1];
console.log(`\n128² fBm, 4 octaves (per fill; ratio to simplex-noise's fBm)`);
for (const [name, us] of rows) {
  const ratio = reference ? `${(us / reference).toFixed(3)}×` : '';
  console.log(`  ${name.padEnd(30)} ${fmt(us).padStart(10)}  ${ratio}`);
}

// The timing study's burst: 17 chunks of 128² fBm, 8 octaves, one thread.
console.log('\nburst: 17 chunks of 128² fBm, 8 octaves, one thread');
const burst = [];
for (const [type, precision] of [['perlin', 'f64'], ['simplex', 'f64'], ['perlin', 'f32'], ['simplex', 'f32']]) {
  const noise = new Noise({ type, octaves: 8, frequency: FREQUENCY, precision });
  burst.push([`stratagen ${type} ${precision}`, bench(() => {
    for (let c = 0; c < 17; c++) noise.fill2d(c * SIDE, 0, 1, 1, SIDE, SIDE);
  }, 3)]);
  noise.free();
}
if (p['simplex-noise']) {
  burst.push(['simplex-noise', bench(() => {
    for (let c = 0; c < 17; c++) fbm(p['simplex-noise'], 8, c * SIDE, 0);
  }, 3)]);
}
const burstRef = burst.find(([n]) => n === 'simplex-noise')?.[1];
for (const [name, us] of burst) {
  console.log(`  ${name.padEnd(30)} ${fmt(us).padStart(10)}  ${burstRef ? `${(us / burstRef).toFixed(3)}×` : ''}`);
}

/** Milliseconds of the best of `rounds` runs of the async `f(round)`. */
async function bestOf(rounds, f) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await f(r);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

// The burst and a region on a worker pool: 2 workers against 1, each a pool of its own. The
// two pools take turns, round by round, so a busy neighbour slows both alike; the best round
// of each counts.
const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
console.log(`\nworker pool (${cores} cores): the burst and 6 × 6 chunks, 1 worker against 2`);
/** Bursts run on each pool in turn. */
const POOL_ROUNDS = 30;
for (const type of ['perlin', 'simplex']) {
  const noise = { type, octaves: 8, frequency: FREQUENCY };
  const pools = [await WorldPool.create({ workers: 1 }), await WorldPool.create({ workers: 2 })];
  const fills = (pool) => Promise.all(Array.from({ length: 17 }, (_, c) => pool.fill2d(noise, c * SIDE, 0, 1, 1, SIDE, SIDE)));
  const times = [Infinity, Infinity];
  for (let r = 0; r < POOL_ROUNDS; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      await fills(pools[i]);
      times[i] = Math.min(times[i], performance.now() - t0);
    }
  }
  pools.forEach((p) => p.free());
  console.log(`  burst ${type.padEnd(24)} ${fmt(times[0] * 1000).padStart(10)} → ${fmt(times[1] * 1000).padStart(10)}  ${(times[0] / times[1]).toFixed(2)}× with 2 workers`);
}
{
  const times = [];
  for (const workers of [1, 2]) {
    const pool = await WorldPool.create({ seed: 0, workers });
    await pool.chunk(-100, -100);
    // A fresh square each round: nothing of it is kept from the round before.
    times.push(await bestOf(3, (r) => pool.region(20 * r, 0, 20 * r + 5, 5)));
    pool.free();
  }
  console.log(`  region 6 × 6 (seed 0)          ${fmt(times[0] * 1000).padStart(10)} → ${fmt(times[1] * 1000).padStart(10)}  ${(times[0] / times[1]).toFixed(2)}× with 2 workers`);
}

// A full voxel chunk: 7 × 7 chunks generated inline through the package, against the
// native command's inline run of the same square in the same run. The world keeps nothing
// between rounds, so every round generates the whole square.
const RADIUS = 3;
const world = new World({ seed: 0, cache: 0 });
const n = (2 * RADIUS + 1) ** 2;
let best = Infinity;
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  world.region(-RADIUS, -RADIUS, RADIUS, RADIUS).forEach((c) => c.free());
  best = Math.min(best, (performance.now() - t0) / n);
}
world.free();
const native = new URL('../target/release/stratagen', import.meta.url);
let nativeMs = null;
if (existsSync(native)) {
  const o = spawnSync(native.pathname, ['bench', '--radius', String(RADIUS), '--threads', '1', '--rounds', '3'], { encoding: 'utf8' });
  const line = o.stdout.split('\n').find((l) => l.startsWith('inline '));
  if (line) nativeMs = Number(line.split(/\s+/)[1]);
}
console.log(`\nfull chunks, ${n} (radius ${RADIUS}, seed 0), inline`);
console.log(`  stratagen (wasm)               ${best.toFixed(3)} ms/chunk`);
if (nativeMs !== null) {
  console.log(`  stratagen bench (native)       ${nativeMs.toFixed(3)} ms/chunk   wasm ${(best / nativeMs).toFixed(2)}× native`);
} else {
  console.log('  (build the native command with `cargo build --release` for the comparison)');
}

// Budgets (gzipped): the whole module 700 KiB, the noise-only module (stratagen/noise) 150 KiB.
console.log('\nmodule sizes');
for (const [name, budget] of [['stratagen.wasm', 700], ['stratagen-simd.wasm', 700],
  ['stratagen-noise.wasm', 150], ['stratagen-noise-simd.wasm', 150]]) {
  const wasm = readFileSync(new URL(`./dist/${name}`, import.meta.url));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  console.log(`  ${name.padEnd(28)} ${wasm.length} bytes, ${gzipped} gzipped = ${(gzipped / 1024).toFixed(1)} KiB (budget ${budget} KiB)`);
}
