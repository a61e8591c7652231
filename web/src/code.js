// "Copy as code": the studio's noise as each host writes it. Every snippet builds the same
// noise (frequency 1 / scale, offsets and warp in pixels, pixel (x, y) sampled at (x, y)); the
// command line and JavaScript also draw the same image.

import { CONTROLS, noiseOptions, imageOptions } from './params.js';

/** The languages the box offers, in its order. */
export const LANGUAGES = ['js', 'python', 'c', 'toml', 'cli'];

const DEFAULT = Object.fromEntries(CONTROLS.map((c) => [c.key, c.default]));

/** A number as source text: the shortest text that reads back as the same double. */
const num = (v) => String(v);

/** The frequency as source: `1 / scale`, which every language evaluates to the same double. */
function frequency(p) {
  return `1 / ${num(p.scale)}`;
}

/** Settings beyond type, fractal, octaves, frequency and seed that differ from the library's. */
function extras(p) {
  const out = [];
  if (p.lacunarity !== 2) out.push(['lacunarity', p.lacunarity]);
  if (p.persistence !== 0.5) out.push(['gain', p.persistence]);
  if (p.offsetX !== 0 || p.offsetY !== 0) out.push(['offset', [p.offsetX, p.offsetY, 0]]);
  if (p.warpAmplitude !== 0) {
    out.push(['warp_amplitude', p.warpAmplitude]);
    out.push(['warp_frequency', `1 / ${num(p.warpScale)}`]);
  }
  if (p.type === 'cellular') {
    if (p.cellularDistance !== DEFAULT.cellularDistance) out.push(['cellular_distance', `"${p.cellularDistance}"`]);
    if (p.cellularReturn !== DEFAULT.cellularReturn) out.push(['cellular_return', `"${p.cellularReturn}"`]);
    if (p.cellularJitter !== DEFAULT.cellularJitter) out.push(['cellular_jitter', p.cellularJitter]);
  }
  if (p.precision !== 'f64') out.push(['precision', `"${p.precision}"`]);
  return out;
}

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const list = (v, open, close) => (Array.isArray(v) ? `${open}${v.map(num).join(', ')}${close}` : typeof v === 'number' ? num(v) : v);

function js(p) {
  const o = noiseOptions(p);
  const fields = [`type: '${o.type}'`, `fractal: '${o.fractal}'`, `octaves: ${o.octaves}`, `frequency: ${frequency(p)}`, `seed: ${o.seed}`];
  for (const [k, v] of extras(p)) fields.push(`${camel(k)}: ${list(v, '[', ']').replace(/"/g, "'")}`);
  const img = imageOptions(p);
  const image = [`contrast: ${num(img.contrast)}`, `brightness: ${num(img.brightness)}`, `palette: '${img.palette}'`];
  if (img.tileable) image.push('tileable: true');
  return [
    // The noise-only module: a third of the whole one's bytes, the same pixels.
    "import { init, Noise } from 'stratagen/noise';",
    '',
    'await init();',
    `const noise = new Noise({ ${fields.join(', ')} });`,
    `const rgba = noise.image(${p.width}, ${p.height}, { ${image.join(', ')} });`,
    `const samples = noise.fill2d(0, 0, 1, 1, ${p.width}, ${p.height}); // pixel (x, y) at (x, y)`,
  ].join('\n');
}

function python(p) {
  const fields = [`type="${p.type}"`, `fractal="${p.fractal}"`, `octaves=${p.octaves}`, `frequency=${frequency(p)}`, `seed=${p.seed}`];
  for (const [k, v] of extras(p)) fields.push(`${k}=${list(v, '(', ')')}`);
  return [
    'import stratagen',
    '',
    `noise = stratagen.Noise(${fields.join(', ')})`,
    `samples = noise.fill_2d(${p.width}, ${p.height})  # pixel (x, y) at (x, y), row by row`,
  ].join('\n');
}

const C_ENUM = {
  type: { value: 'SG_NOISE_TYPE_VALUE', perlin: 'SG_NOISE_TYPE_PERLIN', simplex: 'SG_NOISE_TYPE_SIMPLEX', cellular: 'SG_NOISE_TYPE_CELLULAR' },
  fractal: { none: 'SG_FRACTAL_NONE', fbm: 'SG_FRACTAL_FBM', ridged: 'SG_FRACTAL_RIDGED', billow: 'SG_FRACTAL_BILLOW' },
  cellular_distance: { '"euclidean"': 'SG_CELLULAR_DISTANCE_EUCLIDEAN', '"manhattan"': 'SG_CELLULAR_DISTANCE_MANHATTAN' },
  cellular_return: { '"f1"': 'SG_CELLULAR_RETURN_F1', '"f2"': 'SG_CELLULAR_RETURN_F2', '"f2_minus_f1"': 'SG_CELLULAR_RETURN_F2_MINUS_F1', '"cell_value"': 'SG_CELLULAR_RETURN_CELL_VALUE' },
  precision: { '"f32"': 'SG_PRECISION_F32' },
};

function c(p) {
  const lines = [
    '#include <stratagen.h>',
    '',
    'sg_noise_def def = sg_noise_def_default();',
    `def.noise_type = ${C_ENUM.type[p.type]};`,
    `def.fractal = ${C_ENUM.fractal[p.fractal]};`,
    `def.octaves = ${p.octaves};`,
    `def.frequency = 1.0 / ${num(p.scale)};`,
    `def.seed = ${p.seed};`,
  ];
  for (const [k, v] of extras(p)) {
    if (Array.isArray(v)) v.forEach((x, i) => lines.push(`def.${k}[${i}] = ${num(x)};`));
    else if (C_ENUM[k]) lines.push(`def.${k} = ${C_ENUM[k][v]};`);
    else if (typeof v === 'string') lines.push(`def.${k} = ${v.replace('1 / ', '1.0 / ')};`);
    else lines.push(`def.${k} = ${num(v)};`);
  }
  lines.push(
    'sg_noise *noise = NULL;',
    'sg_result r = sg_noise_create(&def, &noise); /* sg_result_message(r) says why when not SG_RESULT_OK */',
    `sg_grid2 grid = { 0, 0, 1, 1, ${p.width}, ${p.height} }; /* pixel (x, y) at (x, y) */`,
    `static float samples[${p.width} * ${p.height}];`,
    'sg_noise_fill_grid_2d(noise, &grid, samples, sizeof samples / sizeof samples[0]);',
    'sg_noise_destroy(noise);',
  );
  return lines.join('\n');
}

function toml(p) {
  const lines = [
    '# A noise table of a world definition (a [climate] axis, a scatter density_noise):',
    '# `salt` is XORed with the world seed.',
    '[climate.continentalness]',
    `salt = ${p.seed}`,
    `type = "${p.type}"`,
    `fractal = "${p.fractal}"`,
    `octaves = ${p.octaves}`,
    `frequency = ${num(1 / p.scale)}`,
  ];
  for (const [k, v] of extras(p)) {
    const value = typeof v === 'string' && v.startsWith('1 / ') ? num(1 / Number(v.slice(4))) : list(v, '[', ']');
    lines.push(`${k} = ${value}`);
  }
  return lines.join('\n');
}

/** Flags whose command-line default differs from the studio's, so always written. */
const CLI_ALWAYS = new Set(['type', 'fractal', 'octaves', 'scale', 'seed']);

function cli(p) {
  const args = ['stratagen noise'];
  for (const control of CONTROLS) {
    if (control.cli && (CLI_ALWAYS.has(control.key) || p[control.key] !== control.default)) {
      args.push(`--${control.cli} ${p[control.key]}`);
    }
  }
  if (p.offsetX !== 0 || p.offsetY !== 0) args.push(`--offset=${p.offsetX},${p.offsetY}`);
  if (imageOptions(p).tileable) args.push('--tileable');
  args.push(`--size ${p.width}x${p.height}`, '--out noise.png');
  const unsupported = p.warpAmplitude !== 0 || (p.type === 'cellular' && (p.cellularDistance !== DEFAULT.cellularDistance
    || p.cellularReturn !== DEFAULT.cellularReturn || p.cellularJitter !== DEFAULT.cellularJitter));
  const note = unsupported ? '\n# the command line has no warp or cellular flags: this draws the noise without them' : '';
  return `${args.join(' \\\n  ')}${note}`;
}

const WRITERS = { js, python, c, toml, cli };

/** The studio's noise in `language` (one of LANGUAGES). */
export function codeFor(language, params) {
  return WRITERS[language](params);
}
