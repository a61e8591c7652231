// World definitions as TOML text: the same canonical bytes as the command line compiles, the
// same problems at the same line:column as it reports, and refusals that never trap.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { World, WorldPool, StratagenError, compileDefinition } from '../index.js';
import { start, cliPath } from './setup.mjs';

before(() => start());

const presetText = (name) => readFileSync(new URL(`../../worldfile/presets/${name}.toml`, import.meta.url), 'utf8');

/** Documents without problems, written every way the reader has to place values in. */
const GOOD = {
  'default preset': () => presetText('default'),
  'archipelago preset': () => presetText('archipelago'),
  'caverns preset': () => presetText('caverns'),
  'a change on a preset': () => 'base = "archipelago"\nname = "isles"\n\n[terrain]\ninland = { from = 0.4, width = 0.25 }\n',
  'dotted keys, quoted keys, a byte order mark, CRLF and wide characters': () =>
    '\uFEFFbase = "caverns"\r\n"name" = "grottes — 😀"\r\nterrain.inland = { from = 0.35, width = 0.3 }\r\n',
  'a header before its parent\'s': () =>
    'base = "default"\nname = "x"\n[climate.temperature]\nfrequency = 0.0011\n[climate]\n[terrain.river]\n',
};

/** Documents with problems of the definition (not of TOML syntax). */
const BAD = {
  'unknown keys and a wrong type': () =>
    'base = "archipelago"\nname = 3\n\n[terrain]\nsea_levell = 3\ncontinent_scale = -5\n',
  'a new biome missing what it needs': () =>
    'base = "default"\nname = "b"\n[[biomes]]\nname = "x"\nsurface = "nope"\n',
  'columns after wide characters': () =>
    'base = "default"\nname = "é😀"\n[terrain]\ninland = { from = "é😀", width = "😀" }\n',
  'an unknown base': () => 'base = "atlantis"\nname = "x"\n',
  'a document that is not complete without a base': () => 'name = "alone"\n',
  'a byte order mark before a problem': () => '\uFEFFbase = "default"\nformat = 2\n',
};

/** `stratagen world check` and `compile` of `text` in a file: exit status, stderr, bytes. */
function cli(t, text) {
  const path = cliPath(t);
  if (path === undefined) return null;
  const dir = mkdtempSync(join(tmpdir(), 'stratagen-definition-'));
  try {
    const file = join(dir, 'world.toml');
    writeFileSync(file, text);
    const check = spawnSync(path, ['world', 'check', file], { encoding: 'utf8' });
    const out = join(dir, 'world.bin');
    const compiled = spawnSync(path, ['world', 'compile', file, '--out', out]);
    return {
      ok: check.status === 0,
      stdout: check.stdout,
      // The problems: stderr between the file's name and the command's own last line.
      problems: check.stderr.split('\n').filter((l) => l && !l.endsWith('world.toml:') && !l.startsWith('stratagen: ')),
      bytes: compiled.status === 0 ? new Uint8Array(readFileSync(out)) : null,
    };
  } finally {
    rmSync(dir, { recursive: true });
  }
}

/** The StratagenError compiling `text` throws. */
function refusal(text) {
  try {
    compileDefinition(text);
  } catch (e) {
    assert.ok(e instanceof StratagenError, String(e));
    return e;
  }
  assert.fail('the document was accepted');
}

for (const [name, doc] of Object.entries(GOOD)) {
  test(`${name}: the command line's canonical bytes and digest`, (t) => {
    const text = doc();
    const native = cli(t, text);
    if (native === null) return;
    assert.ok(native.ok, native.problems.join('\n'));
    const { bytes, digest } = compileDefinition(text);
    assert.deepEqual(bytes, native.bytes);
    assert.match(native.stdout, new RegExp(`digest ${digest.toString(16).padStart(16, '0')}`));
  });
}

for (const [name, doc] of Object.entries(BAD)) {
  test(`${name}: the command line's problems at its line:column`, (t) => {
    const text = doc();
    const native = cli(t, text);
    if (native === null) return;
    assert.ok(!native.ok);
    const e = refusal(text);
    assert.ok(e.problems.length > 0);
    const lines = e.problems.map((p) => `${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
    assert.deepEqual(lines, native.problems);
    assert.equal(e.message, `the definition has problems:\n${native.problems.join('\n')}`);
  });
}

test('syntax errors and values no definition holds are placed where they were written', () => {
  const cases = [
    ['name = "a"\nx = = 2\n', 2],
    ['name = "a"\n[t]\nk = "unclosed\n', 3],
    ['a = 1\na = 2\n', 2],
    ['base = "default"\nseed = 9223372036854775808\n', 2, 'does not fit in 64 bits'],
    ['base = "default"\nwhen = 1979-05-27\n', 2, 'dates are not used'],
    ['base = "default"\r\nname = """\r\nx\r\ny"""\r\n', 2, 'CRLF'],
  ];
  for (const [text, line, words] of cases) {
    const e = refusal(text);
    assert.equal(e.problems.length, 1, e.message);
    assert.equal(e.problems[0].line, line, e.message);
    assert.ok(e.problems[0].column >= 1);
    if (words) assert.match(e.problems[0].message, new RegExp(words));
  }
});

test('a World and a WorldPool take TOML text and make the world its bytes make', async () => {
  const text = GOOD['a change on a preset']();
  const { bytes, digest } = compileDefinition(text);
  const fromText = new World({ seed: 3, world: text });
  const fromBytes = new World({ seed: 3, world: bytes });
  assert.equal(fromText.definitionDigest, digest);
  const chunk = fromText.chunk(1, -1);
  assert.equal(chunk.digest, fromBytes.chunk(1, -1).digest);
  const pool = await WorldPool.create({ seed: 3, world: text, workers: 1 });
  try {
    const [pooled] = await pool.region(1, -1, 1, -1);
    assert.equal(pooled.digest, chunk.digest);
  } finally {
    pool.free();
    fromText.free();
    fromBytes.free();
  }
});

test('one word is a preset\'s name, and what is not a document is refused', () => {
  assert.throws(() => new World({ world: 'atlantis' }), /expected a preset/);
  assert.throws(() => compileDefinition(42), StratagenError);
  assert.throws(() => new World({ world: 'name = "x"\n' }), (e) => e instanceof StratagenError && e.problems.length > 0);
});
