// The world view's definition editor: a world definition written or pasted as TOML, checked
// as it is typed (every problem with its line:column beside the text, a click on one puts
// the cursor there) and applied as the world on request.

import { compileDefinition, StratagenError } from 'stratagen';

/** How long typing pauses before the text is checked, in milliseconds. */
const CHECK_AFTER_MS = 200;

/** A document to start from: a preset, changed. */
export const EXAMPLE = `# A world definition: a preset to start from, and what differs.
base = "archipelago"
name = "my islands"

[terrain]
inland = { from = 0.4, width = 0.25 }
`;

export class DefinitionEditor {
  #text;
  #list;
  #timer = 0;
  /** The last check: the definition's bytes, or null when it has problems. */
  #bytes = null;

  /**
   * `text`: the textarea; `list`: the element that lists the problems; `apply`: the button
   * that hands the checked definition's bytes to `onApply`.
   */
  constructor({ text, list, apply, onApply }) {
    this.#text = text;
    this.#list = list;
    text.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.check(), CHECK_AFTER_MS);
    });
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply.click();
    });
    apply.addEventListener('click', () => {
      clearTimeout(this.#timer);
      if (this.check() !== null) onApply(this.#bytes);
    });
  }

  /** The text being edited. */
  get value() {
    return this.#text.value;
  }

  set value(v) {
    this.#text.value = v;
    this.check();
  }

  /** Check the text now: its problems listed (none: the list empty); its bytes, or null. */
  check() {
    this.#list.replaceChildren();
    try {
      this.#bytes = compileDefinition(this.#text.value).bytes;
    } catch (e) {
      if (!(e instanceof StratagenError)) throw e;
      this.#bytes = null;
      this.#show(e);
    }
    return this.#bytes;
  }

  /** Every problem of `e` as an item of the list; one with a place selects it when clicked. */
  #show(e) {
    const problems = e.problems ?? [{ line: 0, column: 0, path: '', message: e.message }];
    for (const p of problems) {
      const item = document.createElement('li');
      const place = p.line > 0 ? `${p.line}:${p.column}` : '';
      // As `stratagen world check` prints it.
      item.textContent = `${place ? `${place}: ` : ''}${p.path ? `${p.path}: ` : ''}${p.message}`;
      item.dataset.line = p.line;
      item.dataset.column = p.column;
      if (p.line > 0) item.addEventListener('click', () => this.#select(p.line, p.column));
      this.#list.append(item);
    }
    if (e.more > 0) {
      const item = document.createElement('li');
      item.textContent = `… and ${e.more} more`;
      this.#list.append(item);
    }
  }

  /** Put the cursor at `line`:`column` (characters, from 1) of the text. */
  #select(line, column) {
    const lines = this.#text.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    // Columns count characters; the textarea counts UTF-16 units.
    const chars = Array.from(lines[line - 1] ?? '').slice(0, column - 1).join('');
    offset += chars.length;
    this.#text.focus();
    this.#text.setSelectionRange(offset, offset);
  }
}
