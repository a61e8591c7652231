// What the test files share: the module they test, and the parity corpus snapshot.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';

import { init } from '../index.js';

/**
 * Load the module under test: the engine's choice, or the baseline build when
 * STRATAGEN_TEST_BUILD=baseline (`npm test` runs the corpus, noise and world tests both ways).
 */
export function start() {
  return init(process.env.STRATAGEN_TEST_BUILD === 'baseline' ? { simd: false } : {});
}

/** The parity corpus snapshot (the lines every platform must print), from the repository. */
export async function corpusLines() {
  const text = await readFile(new URL('../../tests/snapshots/parity__parity_corpus.snap', import.meta.url), 'utf8');
  // insta's header ends at the second `---` line.
  return text.split('---\n').slice(2).join('---\n').split('\n').filter((l) => l.length > 0);
}

/**
 * The path of the native CLI (`cargo build` puts it in target/; STRATAGEN_CLI names
 * another), or undefined when there is none: the test then skips, or fails when CI is set,
 * so CI always compares against it.
 */
export function cliPath(t) {
  const found = [process.env.STRATAGEN_CLI, '../../target/release/stratagen', '../../target/debug/stratagen']
    .filter((p) => p)
    .map((p) => (p.startsWith('../') ? new URL(p, import.meta.url).pathname : p))
    .find((p) => existsSync(p));
  if (found === undefined) {
    if (process.env.CI) throw new Error('no stratagen CLI in target/: run `cargo build` first');
    t.skip('no stratagen CLI in target/ (`cargo build` makes one)');
  }
  return found;
}

/** The output of the native CLI run with `args`, or null when there is none (see `cliPath`). */
export function nativeCli(t, args) {
  const found = cliPath(t);
  return found === undefined ? null : String(execFileSync(found, args));
}

// Raw exports: modules compared call for call, without the package.

/** The raw exports of the module `name` in dist/, a fresh instance. */
export async function instance(name) {
  const bytes = await readFile(new URL(`../dist/${name}`, import.meta.url));
  return (await WebAssembly.instantiate(bytes, {})).instance.exports;
}

/** A noise of module `e` from the ten numbers and five names `sg_noise_create` reads. */
export function create(e, seed, numbers, names) {
  const enc = new TextEncoder().encode(names.join('\0'));
  const nums = e.sg_alloc(80);
  new Float64Array(e.memory.buffer, nums, 10).set(numbers);
  const text = e.sg_alloc(enc.length);
  new Uint8Array(e.memory.buffer, text, enc.length).set(enc);
  const h = e.sg_noise_create(seed, nums, text, enc.length);
  e.sg_free(nums, 80);
  e.sg_free(text, enc.length);
  assert.notEqual(h, 0);
  return h;
}

/** The bytes of module `e`'s 2D fill of noise `h` over `grid` ([x0, y0, dx, dy, w, h]). */
export function fill2d(e, h, grid) {
  const bytes = 8 * grid[4] * grid[5];
  const out = e.sg_alloc(bytes);
  // Zeroed: an f32 fill writes half the buffer, and the rest must not be the allocator's.
  new Uint8Array(e.memory.buffer, out, bytes).fill(0);
  assert.equal(e.sg_noise_fill_2d(h, ...grid, out), 0);
  const a = new Uint8Array(e.memory.buffer, out, bytes).slice();
  e.sg_free(out, bytes);
  return a;
}

/** Bytes of a 2D and a 3D fill of a (warped) noise made by module `e`. */
export function fills(e, names) {
  const h = create(e, -42n, [4, 0.031, 2, 0.5, 0.25, -1, 3, 0.65, 6, 0.02], names);
  const a = fill2d(e, h, [-1e6 - 0.5, 12.25, 0.75, 1.25, 33, 17]);
  const out = e.sg_alloc(8 * 11 * 17 * 9);
  new Uint8Array(e.memory.buffer, out, 8 * 11 * 17 * 9).fill(0);
  assert.equal(e.sg_noise_fill_3d(h, 5, -64, -9, 1, 2, 1, 11, 17, 9, out), 0);
  const b = new Uint8Array(e.memory.buffer, out, 8 * 11 * 17 * 9).slice();
  e.sg_free(out, 8 * 11 * 17 * 9);
  e.sg_noise_free(h);
  return [a, b];
}

// XXH64 (seed 0), the library's digest, written from the xxHash specification: the corpus's
// noise lines digest fills' little-endian bytes with it.
const MASK = (1n << 64n) - 1n;
const P1 = 0x9E3779B185EBCA87n;
const P2 = 0xC2B2AE3D27D4EB4Fn;
const P3 = 0x165667B19E3779F9n;
const P4 = 0x85EBCA77C2B2AE63n;
const P5 = 0x27D4EB2F165667C5n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & MASK;
const mul = (a, b) => (a * b) & MASK;
const round = (acc, input) => mul(rotl((acc + mul(input, P2)) & MASK, 31), P1);
const merge = (acc, v) => (mul(acc ^ round(0n, v), P1) + P4) & MASK;

/** The XXH64 digest (seed 0) of `bytes`, a BigInt. */
export function xxh64(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.byteLength;
  let i = 0;
  let h;
  if (len >= 32) {
    const v = [(P1 + P2) & MASK, P2, 0n, (MASK + 1n - P1) & MASK];
    for (; i + 32 <= len; i += 32) {
      for (let k = 0; k < 4; k++) v[k] = round(v[k], view.getBigUint64(i + 8 * k, true));
    }
    h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & MASK;
    for (const x of v) h = merge(h, x);
  } else {
    h = P5;
  }
  h = (h + BigInt(len)) & MASK;
  for (; i + 8 <= len; i += 8) {
    h ^= round(0n, view.getBigUint64(i, true));
    h = (mul(rotl(h, 27), P1) + P4) & MASK;
  }
  if (i + 4 <= len) {
    h ^= mul(BigInt(view.getUint32(i, true)), P1);
    h = (mul(rotl(h, 23), P2) + P3) & MASK;
    i += 4;
  }
  for (; i < len; i++) {
    h ^= mul(BigInt(view.getUint8(i)), P5);
    h = mul(rotl(h, 11), P1);
  }
  h ^= h >> 33n;
  h = mul(h, P2);
  h ^= h >> 29n;
  h = mul(h, P3);
  return h ^ (h >> 32n);
}
