// The noise studio: the controls of params.js, images drawn on a WorldPool's workers (the
// page never blocks while one renders), the URL holding every parameter, and the noise as
// code. The pixels are `stratagen noise`'s: both call the library's noise image.

import { init, moduleKind, WorldPool, StratagenError } from 'stratagen';
import { CONTROLS, PALETTES, MIN_STOPS, MAX_STOPS, defaults, fromQuery, toQuery, tileableAllowed, noiseOptions, imageOptions, validPalette } from './params.js';
import { LANGUAGES, codeFor } from './code.js';

/** Stops a new custom palette starts from (the library's "terrain" ends). */
const FIRST_STOPS = ['1f3a6e', 'e8e0b0'];

const $ = (id) => document.getElementById(id);
const form = $('controls');
const canvas = $('image');
const status = $('status');
let params = fromQuery(location.search);
let language = 'js';
/** Inputs of each control, to show a value set from elsewhere (the URL, defaults). */
const inputs = new Map();

function showStatus(text, error = false) {
  status.textContent = text;
  status.classList.toggle('error', error);
}

/** A number control: a slider and a box holding the same value. */
function numberControl(c) {
  const label = document.createElement('label');
  label.dataset.key = c.key;
  const name = document.createElement('span');
  name.textContent = c.label;
  const range = Object.assign(document.createElement('input'), { type: 'range', min: c.min, max: c.max, step: c.step, name: c.key });
  const box = Object.assign(document.createElement('input'), { type: 'number', min: c.min, max: c.max, step: c.step });
  const set = (text, from) => {
    const v = Number(text);
    if (text === '' || !Number.isFinite(v) || v < c.min || v > c.max) return;
    params[c.key] = c.step >= 1 ? Math.round(v) : v;
    if (from !== range) range.value = params[c.key];
    if (from !== box) box.value = params[c.key];
    changed();
  };
  range.addEventListener('input', () => set(range.value, range));
  box.addEventListener('input', () => set(box.value, box));
  label.append(name, range, box);
  inputs.set(c.key, (v) => { range.value = v; box.value = v; });
  return label;
}

/** A choice control. */
function choiceControl(c, options) {
  const label = document.createElement('label');
  label.dataset.key = c.key;
  const name = document.createElement('span');
  name.textContent = c.label;
  const select = Object.assign(document.createElement('select'), { name: c.key });
  for (const [value, text] of options) select.append(new Option(text, value));
  select.addEventListener('input', () => {
    params[c.key] = select.value;
    changed();
  });
  label.append(name, select);
  inputs.set(c.key, (v) => { select.value = v; });
  return label;
}

/** The palette: a named one, or 2 to 6 colour stops to pick. */
function paletteControl(c) {
  const label = choiceControl(c, [...PALETTES.map((p) => [p, p]), ['custom', 'custom stops']]);
  const select = label.querySelector('select');
  const stops = document.createElement('div');
  stops.className = 'stops';
  const drawStops = () => {
    stops.replaceChildren();
    if (PALETTES.includes(params.palette)) return;
    const colours = params.palette.split(',');
    colours.forEach((hex, i) => {
      const pick = Object.assign(document.createElement('input'), { type: 'color', value: `#${hex}`, title: `stop ${i + 1}` });
      pick.addEventListener('input', () => {
        colours[i] = pick.value.slice(1);
        params.palette = colours.join(',');
        changed();
      });
      stops.append(pick);
    });
    const add = Object.assign(document.createElement('button'), { type: 'button', textContent: '+', title: 'add a stop', disabled: colours.length >= MAX_STOPS });
    add.addEventListener('click', () => { params.palette = [...colours, colours[colours.length - 1]].join(','); drawStops(); changed(); });
    const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: '−', title: 'remove the last stop', disabled: colours.length <= MIN_STOPS });
    remove.addEventListener('click', () => { params.palette = colours.slice(0, -1).join(','); drawStops(); changed(); });
    stops.append(add, remove);
  };
  select.addEventListener('input', () => {
    if (select.value === 'custom') params.palette = FIRST_STOPS.join(',');
    drawStops();
    changed();
  });
  inputs.set(c.key, (v) => { select.value = PALETTES.includes(v) ? v : 'custom'; drawStops(); });
  const group = document.createElement('div');
  group.append(label, stops);
  return group;
}

function buildControls() {
  for (const c of CONTROLS) {
    if (c.key === 'palette') form.append(paletteControl(c));
    else if (c.options) form.append(choiceControl(c, c.options));
    else form.append(numberControl(c));
  }
  for (const lang of LANGUAGES) {
    const tab = Object.assign(document.createElement('button'), { type: 'button', textContent: lang === 'cli' ? 'command line' : lang === 'js' ? 'JavaScript' : lang === 'c' ? 'C' : lang === 'toml' ? 'TOML' : 'Python' });
    tab.setAttribute('role', 'tab');
    tab.dataset.language = lang;
    tab.addEventListener('click', () => { language = lang; showCode(); });
    $('tabs').append(tab);
  }
}

/** Show `params` in every control. */
function showParams() {
  for (const c of CONTROLS) inputs.get(c.key)(params[c.key]);
}

/** Controls that do nothing for the current noise are hidden or disabled. */
function showRelevant() {
  const cellular = params.type === 'cellular';
  for (const key of ['cellularDistance', 'cellularReturn', 'cellularJitter']) {
    form.querySelector(`[data-key=${key}]`).classList.toggle('hidden', !cellular);
  }
  form.querySelector('[data-key=warpScale]').classList.toggle('hidden', params.warpAmplitude === 0);
  form.querySelector('[name=tileable]').disabled = !tileableAllowed(params);
}

function showCode() {
  $('code').textContent = codeFor(language, params);
  for (const tab of $('tabs').children) tab.setAttribute('aria-selected', String(tab.dataset.language === language));
}

// Rendering: one image at a time on the pool; a change while one renders asks for the
// newest parameters once it is done (the slider's intermediate values are skipped).
let pool = null;
let rendering = false;
let again = false;

function changed() {
  history.replaceState(null, '', `${location.pathname}${toQuery(params)}`);
  showRelevant();
  showCode();
  render();
}

async function render() {
  if (rendering) {
    again = true;
    return;
  }
  rendering = true;
  document.body.dataset.state = 'rendering';
  const asked = { ...params };
  const started = performance.now();
  try {
    const rgba = await pool.image(noiseOptions(asked), asked.width, asked.height, imageOptions(asked));
    if (canvas.width !== asked.width) canvas.width = asked.width;
    if (canvas.height !== asked.height) canvas.height = asked.height;
    canvas.getContext('2d').putImageData(new ImageData(rgba, asked.width, asked.height), 0, 0);
    const ms = performance.now() - started;
    showStatus(`${asked.width} × ${asked.height} in ${ms.toFixed(1)} ms on a worker (${moduleKind()} module)`);
    document.body.dataset.rendered = toQuery(asked);
  } catch (e) {
    if (!(e instanceof StratagenError)) throw e;
    showStatus(e.message, true);
    document.body.dataset.rendered = `refused:${toQuery(asked)}`;
  } finally {
    rendering = false;
  }
  if (again) {
    again = false;
    render();
  } else {
    document.body.dataset.state = 'idle';
  }
}

function download() {
  canvas.toBlob((blob) => {
    const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `stratagen-noise-${params.type}-${params.seed}.png` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }, 'image/png');
}

buildControls();
if (!validPalette(params.palette)) params.palette = defaults().palette;
showParams();
showRelevant();
showCode();
$('download').addEventListener('click', download);
$('reset').addEventListener('click', () => { params = defaults(); showParams(); changed(); });
$('copy').addEventListener('click', () => navigator.clipboard?.writeText($('code').textContent));
await init();
// One worker: the studio draws one image at a time, the newest parameters next.
pool = await WorldPool.create({ workers: 1 });
render();
