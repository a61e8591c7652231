// What the test files share: the module they test, and the parity corpus snapshot.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

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
