// What the test files share: the module they test, and the parity corpus snapshot.
import { readFile } from 'node:fs/promises';

import { init } from '../index.js';

/**
 * Load the module under test: the engine's choice, or the baseline build when
 * STRATAGEN_TEST_BUILD=baseline (`npm test` runs every file both ways).
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
