// The noise studio's parameters: every control with its range and default, the URL that
// holds them, and the package's options they give. Plain functions, no page: the tests and
// the page read the same table.

/** Named palettes of the library (`stratagen noise --palette NAME`). */
export const PALETTES = ['gray', 'terrain', 'fire', 'ice', 'magma'];

/** Fewest and most colour stops of a custom palette. */
export const MIN_STOPS = 2;
export const MAX_STOPS = 6;

/**
 * Every control: `key` (its URL name), a label, and either `options` (a choice) or
 * `min`/`max`/`step` (a number); `default` is the value a URL without the key means.
 * `cli` names the `stratagen noise` flag where the command line has one.
 */
export const CONTROLS = [
  { key: 'type', label: 'noise', options: [['value', 'value'], ['perlin', 'Perlin'], ['simplex', 'simplex'], ['cellular', 'cellular']], default: 'perlin', cli: 'type' },
  { key: 'fractal', label: 'fractal', options: [['none', 'none'], ['fbm', 'fBm (standard)'], ['ridged', 'ridged'], ['billow', 'billow (turbulence)']], default: 'fbm', cli: 'fractal' },
  { key: 'seed', label: 'seed', min: 0, max: 65535, step: 1, default: 0, cli: 'seed' },
  { key: 'scale', label: 'scale (px)', min: 1, max: 500, step: 1, default: 80, cli: 'scale' },
  { key: 'octaves', label: 'octaves', min: 1, max: 10, step: 1, default: 6, cli: 'octaves' },
  { key: 'lacunarity', label: 'lacunarity', min: 1, max: 4, step: 0.05, default: 2, cli: 'lacunarity' },
  { key: 'persistence', label: 'persistence', min: 0.1, max: 1, step: 0.01, default: 0.5, cli: 'persistence' },
  { key: 'offsetX', label: 'offset x (px)', min: -1000, max: 1000, step: 1, default: 0 },
  { key: 'offsetY', label: 'offset y (px)', min: -1000, max: 1000, step: 1, default: 0 },
  { key: 'contrast', label: 'contrast', min: 0.5, max: 3, step: 0.05, default: 1, cli: 'contrast' },
  { key: 'brightness', label: 'brightness', min: -0.5, max: 0.5, step: 0.01, default: 0, cli: 'brightness' },
  { key: 'width', label: 'width (px)', min: 256, max: 2048, step: 1, default: 800 },
  { key: 'height', label: 'height (px)', min: 256, max: 2048, step: 1, default: 600 },
  { key: 'precision', label: 'precision', options: [['f64', 'f64'], ['f32', 'f32']], default: 'f64', cli: 'precision' },
  { key: 'tileable', label: 'tileable', options: [['0', 'no'], ['1', 'yes (value, Perlin; f64)']], default: '0' },
  { key: 'warpAmplitude', label: 'warp (px)', min: 0, max: 200, step: 1, default: 0 },
  { key: 'warpScale', label: 'warp scale (px)', min: 1, max: 1000, step: 1, default: 100 },
  { key: 'cellularDistance', label: 'cell distance', options: [['euclidean', 'Euclidean'], ['manhattan', 'Manhattan']], default: 'euclidean' },
  { key: 'cellularReturn', label: 'cell return', options: [['f1', 'F1'], ['f2', 'F2'], ['f2_minus_f1', 'F2 − F1'], ['cell_value', 'cell value']], default: 'f1' },
  { key: 'cellularJitter', label: 'cell jitter', min: 0, max: 1, step: 0.01, default: 0.65 },
  { key: 'palette', label: 'palette', default: 'gray', cli: 'palette' },
];

const BY_KEY = new Map(CONTROLS.map((c) => [c.key, c]));

/** The defaults of every control. */
export function defaults() {
  return Object.fromEntries(CONTROLS.map((c) => [c.key, c.default]));
}

/** A palette as the library reads it: a name, or 2 to 6 `rrggbb` stops joined by commas. */
export function validPalette(text) {
  if (PALETTES.includes(text)) return true;
  const stops = text.split(',');
  return stops.length >= MIN_STOPS && stops.length <= MAX_STOPS && stops.every((s) => /^[0-9a-f]{6}$/i.test(s));
}

/** One control's value from text, or undefined when the text is not one of its values. */
function parse(control, text) {
  if (control.key === 'palette') return validPalette(text) ? text.toLowerCase() : undefined;
  if (control.options) return control.options.some(([v]) => v === text) ? text : undefined;
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v < control.min || v > control.max) return undefined;
  return control.step >= 1 ? Math.round(v) : v;
}

/** The parameters a query string holds (`?type=simplex&seed=3`): defaults where absent or invalid. */
export function fromQuery(search) {
  const params = defaults();
  for (const [key, text] of new URLSearchParams(search)) {
    const control = BY_KEY.get(key);
    if (control === undefined) continue;
    const v = parse(control, text);
    if (v !== undefined) params[key] = v;
  }
  return params;
}

/** The query string of `params`: every value that differs from its default, in table order. */
export function toQuery(params) {
  const q = new URLSearchParams();
  for (const c of CONTROLS) if (params[c.key] !== c.default) q.set(c.key, String(params[c.key]));
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

/** Whether `params` asks for a tileable image the library can draw (value or Perlin, f64). */
export function tileableAllowed(params) {
  return (params.type === 'value' || params.type === 'perlin') && params.precision === 'f64';
}

/** The package's `Noise` options of `params`: frequency 1 / scale, offsets and warp in pixels. */
export function noiseOptions(params) {
  return {
    type: params.type,
    fractal: params.fractal,
    octaves: params.octaves,
    frequency: 1 / params.scale,
    lacunarity: params.lacunarity,
    gain: params.persistence,
    seed: params.seed,
    offset: [params.offsetX, params.offsetY, 0],
    warpAmplitude: params.warpAmplitude,
    warpFrequency: 1 / params.warpScale,
    cellularDistance: params.cellularDistance,
    cellularReturn: params.cellularReturn,
    cellularJitter: params.cellularJitter,
    precision: params.precision,
  };
}

/** The image options of `params` (`Noise.image`'s third argument). */
export function imageOptions(params) {
  return {
    contrast: params.contrast,
    brightness: params.brightness,
    palette: params.palette,
    tileable: params.tileable === '1' && tileableAllowed(params),
  };
}
