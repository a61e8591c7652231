// World definition documents as TOML text. The text is parsed here (`toml-eslint-parser`,
// which keeps every value's place) into the tree the module reads (`worldfile/src/tree.rs`);
// the module checks it with the code every other host's documents go through, so a
// document's problems, their paths and their line:column are the command line's.

import {
  StratagenError, exports, withBuffer, readText, tomlParser, presetText, presetBytes, PRESETS,
  requireWorlds,
} from './module.js';

const STRING = 0;
const INTEGER = 1;
const FLOAT = 2;
const BOOLEAN = 3;
const ARRAY = 4;
const TABLE = 5;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** How the message of a document with problems starts (the module's words). */
const PROBLEMS = 'the definition has problems:';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A problem the document has before the module sees it (its syntax, a value of no kind). */
class TextProblem extends Error {
  constructor(at, message) {
    super(message);
    this.at = at;
  }
}

/**
 * A document's text: what the parser reads (without a byte order mark, which the Rust reader
 * takes as a character of the first line), and its offsets (UTF-16 units) to line:column, both
 * from 1, columns in characters as the Rust reader counts them.
 */
class Source {
  constructor(text) {
    this.full = text;
    this.bom = text.startsWith('\uFEFF') ? 1 : 0;
    this.text = text.slice(this.bom);
    this.starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The place of `offset` in the parsed text. */
  at(offset) {
    const full = offset + this.bom;
    let lo = 0;
    let hi = this.starts.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= full) lo = mid;
      else hi = mid;
    }
    const start = this.starts[lo];
    let column = 1;
    for (let i = start; i < full; i++) {
      const c = this.full.charCodeAt(i);
      // The second half of a surrogate pair is the same character.
      if (c < 0xdc00 || c > 0xdfff || i === start) column++;
    }
    return { line: lo + 1, column };
  }

  /** The text a parsed node spans. */
  written(node) {
    return this.text.slice(node.range[0], node.range[1]);
  }
}

/** A table node: its place and its entries in the order written. */
function table(at) {
  return { kind: TABLE, at, value: new Map() };
}

/** The table at `key` in `t`, made (at `at`) when missing. */
function tableIn(t, key, at) {
  let n = t.value.get(key);
  if (n === undefined) {
    n = table(at);
    t.value.set(key, n);
  }
  // The parser refuses a key that is already a value; past an array of tables, its last one.
  return n.kind === ARRAY ? n.value[n.value.length - 1] : n;
}

/** The node of a parsed value. */
function valueNode(v, source) {
  const at = source.at(v.range[0]);
  switch (v.type) {
    case 'TOMLArray':
      return { kind: ARRAY, at, value: v.elements.map((e) => valueNode(e, source)) };
    case 'TOMLInlineTable': {
      const t = table(at);
      for (const kv of v.body) keyValue(t, kv, source);
      return t;
    }
    default:
      break;
  }
  switch (v.kind) {
    case 'string':
      // The Rust reader keeps a multiline string's line breaks as written, this parser
      // writes \n for each: where that could differ, the document is refused, never read
      // two ways.
      if (v.multiline && v.value.includes('\n') && source.written(v).includes('\r\n')) {
        throw new TextProblem(at, 'a multiline string with CRLF line breaks: write it with LF line breaks or escapes');
      }
      return { kind: STRING, at, value: v.value };
    case 'integer':
      if (v.bigint < I64_MIN || v.bigint > I64_MAX) {
        throw new TextProblem(at, `integer ${source.written(v)} does not fit in 64 bits`);
      }
      return { kind: INTEGER, at, value: v.bigint };
    case 'float':
      return { kind: FLOAT, at, value: v.value };
    case 'boolean':
      return { kind: BOOLEAN, at, value: v.value };
    default:
      throw new TextProblem(at, `dates are not used in world definitions (${source.written(v)})`);
  }
}

/** `a.b.c = value` in table `t`: the tables `a` and `a.b` made where missing. */
function keyValue(t, kv, source) {
  const keys = kv.key.keys;
  let into = t;
  for (const k of keys.slice(0, -1)) into = tableIn(into, keyName(k), source.at(k.range[0]));
  into.value.set(keyName(keys[keys.length - 1]), valueNode(kv.value, source));
}

function keyName(k) {
  return k.type === 'TOMLBare' ? k.name : k.value;
}

/** The document tree of TOML `text`, or a TextProblem. */
function documentTree(text, parse) {
  const source = new Source(text);
  let ast;
  try {
    ast = parse(source.text);
  } catch (e) {
    // The parser's errors carry the offset they were found at.
    const offset = typeof e.index === 'number' ? e.index : source.text.length;
    throw new TextProblem(source.at(Math.min(offset, source.text.length)), String(e.message));
  }
  const top = ast.body[0];
  // The root is placed at the start of the text, before a byte order mark.
  const root = table(source.at(-source.bom));
  for (const item of top.body) {
    if (item.type === 'TOMLKeyValue') {
      keyValue(root, item, source);
      continue;
    }
    // A [table] or [[array]] header: `resolvedKey` is its full path, array indices included.
    const at = source.at(item.range[0]);
    const path = item.resolvedKey;
    let into = root;
    const last = item.kind === 'array' ? path.length - 2 : path.length - 1;
    for (let i = 0; i < last; i++) {
      if (typeof path[i] === 'string') into = tableIn(into, path[i], source.at(item.key.keys[Math.min(i, item.key.keys.length - 1)].range[0]));
    }
    const name = path[last];
    let t;
    if (item.kind === 'array') {
      let list = into.value.get(name);
      if (list === undefined) {
        list = { kind: ARRAY, at, value: [] };
        into.value.set(name, list);
      }
      t = table(at);
      list.value.push(t);
    } else {
      // A table made implicitly by an earlier header (`[a.b]` before `[a]`) is placed where
      // its own header is, and moves after its siblings, as the Rust TOML reader orders it.
      t = into.value.get(name) ?? table(at);
      t.at = at;
      into.value.delete(name);
      into.value.set(name, t);
    }
    for (const kv of item.body) keyValue(t, kv, source);
  }
  return root;
}

/** Bytes written front to back, growing as needed. */
class Writer {
  constructor() {
    this.bytes = new Uint8Array(1024);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
  }

  room(n) {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }

  u8(v) {
    this.room(1);
    this.bytes[this.length++] = v;
  }

  u32(v) {
    this.room(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  text(s) {
    const b = encoder.encode(s);
    this.u32(b.length);
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }

  node(n) {
    this.u8(n.kind);
    this.u32(n.at.line);
    this.u32(n.at.column);
    switch (n.kind) {
      case STRING:
        this.text(n.value);
        break;
      case INTEGER:
        this.room(8);
        this.view.setBigInt64(this.length, n.value, true);
        this.length += 8;
        break;
      case FLOAT:
        this.room(8);
        this.view.setFloat64(this.length, n.value, true);
        this.length += 8;
        break;
      case BOOLEAN:
        this.u8(n.value ? 1 : 0);
        break;
      case ARRAY:
        this.u32(n.value.length);
        for (const v of n.value) this.node(v);
        break;
      default:
        this.u32(n.value.size);
        for (const [k, v] of n.value) {
          this.text(k);
          this.node(v);
        }
    }
  }

  done() {
    return this.bytes.slice(0, this.length);
  }
}

/** The parser, or a StratagenError saying why TOML text cannot be read here. */
function parser() {
  const p = tomlParser();
  if (typeof p === 'function') return p;
  throw new StratagenError(`a definition as TOML text needs the package toml-eslint-parser, which did not load: ${p}`);
}

/** The tree encoding of TOML `text` (a StratagenError with `problems` when it does not parse). */
export function treeBytes(text) {
  if (typeof text !== 'string') throw new StratagenError(`definition ${text}: TOML text (a string)`);
  const parse = parser();
  try {
    const w = new Writer();
    w.node(documentTree(text, parse));
    return w.done();
  } catch (e) {
    if (!(e instanceof TextProblem)) throw e;
    const problem = { line: e.at.line, column: e.at.column, path: '', message: e.message };
    throw definitionError([problem], 0);
  }
}

/** The presets as the named-tree list documents stand on, made once. */
let bases = null;
function baseTrees() {
  if (bases !== null) return bases;
  const w = new Writer();
  w.u32(PRESETS.length);
  for (const name of PRESETS) {
    w.text(name);
    w.node(documentTree(presetText(name), parser()));
  }
  bases = w.done();
  return bases;
}

function definitionError(problems, more) {
  const lines = problems.map((p) => `${p.line > 0 ? `${p.line}:${p.column}: ` : ''}${p.path ? `${p.path}: ` : ''}${p.message}`);
  if (more > 0) lines.push(`... and ${more} more`);
  const e = new StratagenError(`${PROBLEMS}\n${lines.join('\n')}`);
  e.problems = problems;
  e.more = more;
  return e;
}

/** The problems the module listed in its bytes result (`sg_definition_compile`). */
function readProblems(e) {
  const view = new DataView(e.memory.buffer, e.sg_bytes_ptr(), e.sg_bytes_len());
  let at = 0;
  const u32 = () => {
    at += 4;
    return view.getUint32(at - 4, true);
  };
  const text = () => {
    const len = u32();
    at += len;
    return decoder.decode(new Uint8Array(view.buffer, view.byteOffset + at - len, len));
  };
  const count = u32();
  const more = u32();
  const problems = [];
  for (let i = 0; i < count; i++) {
    const line = u32();
    const column = u32();
    problems.push({ line, column, path: text(), message: text() });
  }
  return { problems, more };
}

/**
 * Check a world definition written as TOML and give its canonical bytes (what
 * `new World({ world })` and a WorldPool take, the same as `stratagen world compile` writes)
 * and its digest. A document with problems is a StratagenError whose `problems` lists every
 * one as `{ line, column, path, message }`.
 */
export function compileDefinition(text) {
  requireWorlds('compileDefinition');
  const e = exports();
  const doc = treeBytes(text);
  const list = baseTrees();
  return withBuffer(doc.length + list.length + 8, (p) => {
    const memory = new Uint8Array(e.memory.buffer);
    memory.set(doc, p + 8);
    memory.set(list, p + 8 + doc.length);
    if (e.sg_definition_compile(p + 8, doc.length, p + 8 + doc.length, list.length, p) !== 0) {
      const message = readText(e, e.sg_error_ptr(), e.sg_error_len());
      if (!message.startsWith(PROBLEMS)) throw new StratagenError(message);
      const { problems, more } = readProblems(e);
      throw Object.assign(new StratagenError(message), { problems, more });
    }
    const digest = new BigUint64Array(e.memory.buffer, p, 1)[0];
    const bytes = new Uint8Array(e.memory.buffer, e.sg_bytes_ptr(), e.sg_bytes_len()).slice();
    return { bytes, digest };
  }, e);
}

/** A preset's name: one word (any other string is a document). */
const PRESET_NAME = /^[\w-]*$/;

/**
 * The canonical bytes a world is made from (null: the built-in world) of what `world` options
 * take: a preset's name, a definition as TOML text, or canonical bytes (passed on as they are:
 * the module checks them).
 */
export function definitionBytes(world = 'default') {
  if (typeof world === 'string' && !PRESET_NAME.test(world)) return compileDefinition(world).bytes;
  return presetBytes(world);
}
