// The parity corpus snapshot (the lines every platform must print), read from the repository.
import { readFile } from 'node:fs/promises';

export async function corpusLines() {
  const text = await readFile(new URL('../../tests/snapshots/parity__parity_corpus.snap', import.meta.url), 'utf8');
  // insta's header ends at the second `---` line.
  return text.split('---\n').slice(2).join('---\n').split('\n').filter((l) => l.length > 0);
}
