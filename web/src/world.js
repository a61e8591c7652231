// The world view: a Stratagen world streamed around a flying camera, generated and meshed on
// a WorldPool's workers, drawn by three.js (WebGPU where the browser has it, WebGL2
// otherwise); click to dig or place blocks, edits kept in IndexedDB or a file. The world is a
// preset, a definition typed or pasted as TOML (checked as it is typed), or a file. The URL
// holds the seed, the preset, the view distance, the mode and the camera.

import * as THREE from 'three';
import { init, World, WorldPool, StratagenError } from 'stratagen';
import { scatterMesh } from 'stratagen/three';
import { ChunkStream, quantile } from './stream.js';
import { Flight } from './camera.js';
import * as edits from './edits.js';
import { Terrain } from './terrain.js';
import { createView } from './render.js';
import { propParts } from './props.js';
import { DefinitionEditor, EXAMPLE } from './definition.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const form = $('settings');
const PRESETS = ['default', 'archipelago', 'caverns'];
/** How often the URL follows the camera, in milliseconds. */
const URL_EVERY = 1000;
/** Tasks longer than this block a frame (the Long Tasks API's own threshold). */
const LONG_TASK_MS = 50;

/** The page's settings from its URL. */
function settingsFromUrl() {
  const q = new URLSearchParams(location.search);
  const n = (name, fallback, min = -Infinity, max = Infinity) => {
    const v = Number(q.get(name));
    return q.has(name) && Number.isFinite(v) && v >= min && v <= max ? v : fallback;
  };
  return {
    seed: Math.trunc(n('seed', 0, -(2 ** 53), 2 ** 53)),
    world: PRESETS.includes(q.get('world')) ? q.get('world') : 'default',
    view: Math.round(n('view', 6, 2, 12)),
    mode: q.get('mode') === 'terrain' ? 'terrain' : 'voxel',
    camera: { x: n('x', 8), y: n('y', 130), z: n('z', 8), yaw: n('yaw', 0.6), pitch: n('pitch', -0.35, -1.5, 1.5) },
    autopilot: q.get('autopilot') === '1',
  };
}

const settings = settingsFromUrl();
const problems = $('problems');
const showProblem = (text) => { problems.textContent = text; };

// The renderer, scene and camera.
const view = await createView(canvas);
const { renderer, backend } = view;
const scene = new THREE.Scene();
const sky = new THREE.Color(0x9cc4e8);
scene.background = sky;
// Fog thickens towards the view distance (measured from the camera, which flies above the
// ground: hence the slack), so chunks appear out of it rather than at an edge.
const FOG_NEAR = 0.5;
const FOG_FAR = 1.3;
scene.fog = new THREE.Fog(sky);
const setFog = () => {
  scene.fog.near = FOG_NEAR * 16 * settings.view;
  scene.fog.far = FOG_FAR * 16 * settings.view;
};
setFog();
const camera = new THREE.PerspectiveCamera(70, 1, 0.1, 2000);
const flight = new Flight(camera, canvas, settings.camera);
flight.autopilot = settings.autopilot;
// Chunk colours carry the library's ambient occlusion and light; the sun only shades faces.
scene.add(new THREE.AmbientLight(0xffffff, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.2);
sun.position.set(0.4, 1, 0.3);
scene.add(sun);

function resize() {
  const { clientWidth: w, clientHeight: h } = canvas;
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}
addEventListener('resize', resize);
resize();

const materials = {
  opaque: view.material({ vertexColors: true }),
  cutout: view.material({ vertexColors: true, alphaTest: 0.5, side: THREE.DoubleSide }),
  translucent: view.material({ vertexColors: true, transparent: true, depthWrite: false, side: THREE.DoubleSide }),
};

/** A kind's parts, made once: each part one InstancedMesh per chunk. */
const partsByKind = new Map();
function props(scatter) {
  const group = new THREE.Group();
  for (const layer of scatter.layers) {
    layer.kinds.forEach((name, kind) => {
      if (!layer.kind.includes(kind)) return;
      let parts = partsByKind.get(name);
      if (parts === undefined) {
        parts = propParts(name).map(({ geometry, colour }) => ({ geometry, material: view.material({ color: colour }) }));
        partsByKind.set(name, parts);
      }
      for (const part of parts) group.add(scatterMesh(layer, part.geometry, part.material, kind));
    });
  }
  return group.children.length === 0 ? null : group;
}

// The world: a World on this thread for its palettes and definition digest, a pool for work.
await init();
let world = new World({ seed: settings.seed, world: settings.world, cache: 0 });
let pool = await WorldPool.create({ seed: settings.seed, world: settings.world, workers: Math.max(2, Math.min(4, navigator.hardwareConcurrency ?? 2)) });
const chunks = new THREE.Group();
scene.add(chunks);
let stream = new ChunkStream({ pool, group: chunks, materials, props });
stream.viewDistance = settings.view;
let terrain = await Terrain.create(scene, view, settings.seed);
/** Edits made on this page, and edit records restored from IndexedDB. */
let editCount = 0;
let restored = 0;
/** The last edit: x, y, z and the block. */
let lastEdit = null;
/** Counts restarts (a new world to draw). */
let epoch = 0;
const worldKey = () => `${world.definitionDigest.toString(16)}:${settings.seed}`;

// The controls.
form.seed.value = settings.seed;
form.world.value = settings.world;
form.view.value = settings.view;
form.mode.value = settings.mode;
world.blocks.forEach((b, id) => { if (b.solid && b.shape === 'cube') form.block.append(new Option(b.name, id)); });
form.block.value = String(world.blocks.findIndex((b) => b.name === 'stone'));
const air = world.blocks.findIndex((b) => b.name === 'air');

function setUrl() {
  const q = new URLSearchParams();
  q.set('seed', settings.seed);
  if (settings.world !== 'default') q.set('world', settings.world);
  if (settings.view !== 6) q.set('view', settings.view);
  if (settings.mode !== 'voxel') q.set('mode', settings.mode);
  for (const [k, v] of Object.entries(flight.state())) q.set(k, v);
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

/** Start over with the form's seed and world (a preset, or a definition's bytes). */
async function restart(definition) {
  const options = { seed: settings.seed, world: definition ?? settings.world };
  let next;
  try {
    next = new World({ ...options, cache: 0 });
  } catch (e) {
    if (!(e instanceof StratagenError)) throw e;
    showProblem(e.message);
    return;
  }
  showProblem('');
  // The old stream lets go of its requests before its pool goes.
  stream.stop();
  const oldPool = pool;
  pool = await WorldPool.create({ ...options, workers: oldPool.size });
  oldPool.free();
  world.free();
  world = next;
  epoch += 1;
  terrain.dispose(scene);
  terrain = await Terrain.create(scene, view, settings.seed);
  stream = new ChunkStream({ pool, group: chunks, materials, props });
  stream.viewDistance = settings.view;
  stream.measuring = started;
  editCount = 0;
  await restoreEdits();
  setUrl();
}

async function restoreEdits() {
  const saved = await edits.loadSaved(worldKey());
  restored = saved === null ? 0 : await pool.loadEdits(saved);
}

const editor = new DefinitionEditor({
  text: $('toml-text'),
  list: $('toml-problems'),
  apply: $('toml-apply'),
  onApply: (bytes) => restart(bytes),
});

/** Show the controls of the world chosen: a file's, or the definition editor. */
function showWorldControls() {
  form.querySelector('.definition').classList.toggle('hidden', form.world.value !== 'file');
  $('toml').classList.toggle('hidden', form.world.value !== 'text');
  if (form.world.value === 'text' && editor.value === '') editor.value = EXAMPLE;
}

form.addEventListener('change', async (e) => {
  const name = e.target.name;
  if (name === 'view') {
    stream.viewDistance = settings.view = Number(form.view.value);
    setFog();
  }
  if (name === 'mode') settings.mode = form.mode.value;
  if (name === 'seed' || (name === 'world' && PRESETS.includes(form.world.value))) {
    settings.seed = Math.trunc(Number(form.seed.value)) || 0;
    settings.world = form.world.value;
    await restart();
  }
  showWorldControls();
  if (name === 'definition' && form.definition.files.length > 0) {
    const file = form.definition.files[0];
    if (file.name.endsWith('.toml')) {
      // A document goes to the editor, which lists its problems or applies it.
      form.world.value = 'text';
      showWorldControls();
      editor.value = await file.text();
      $('toml-apply').click();
    } else {
      await restart(new Uint8Array(await file.arrayBuffer()));
    }
  }
  setUrl();
});

/** Put `block` at world block (x, y, z) and redraw the chunks it touches. */
async function edit(x, y, z, block) {
  await pool.setBlock(x, y, z, block);
  editCount += 1;
  lastEdit = [x, y, z, block];
  stream.remesh(Math.floor(x / 16), Math.floor(z / 16));
}

const raycaster = new THREE.Raycaster();
flight.onClick = async (e) => {
  if (settings.mode !== 'voxel') return;
  const rect = canvas.getBoundingClientRect();
  const pointer = new THREE.Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  const hit = raycaster.intersectObjects(stream.pickable(), false)[0];
  if (hit === undefined) return;
  // Half a block into the face dug, or out of it for a placed block.
  const toward = e.shiftKey ? 0.5 : -0.5;
  const p = hit.point.clone().addScaledVector(hit.face.normal, toward);
  try {
    await edit(Math.floor(p.x), Math.floor(p.y), Math.floor(p.z), e.shiftKey ? Number(form.block.value) : air);
  } catch (err) {
    if (!(err instanceof StratagenError)) throw err;
    showProblem(err.message);
  }
};

$('save').addEventListener('click', async () => edits.save(worldKey(), await pool.saveEdits()));
$('export').addEventListener('click', async () => edits.download(await pool.saveEdits(), `stratagen-edits-${settings.seed}.bin`));
$('forget').addEventListener('click', async () => { await edits.forget(worldKey()); await restart(); });
$('import').addEventListener('click', () => $('import-file').click());
$('import-file').addEventListener('change', async () => {
  const file = $('import-file').files[0];
  if (file === undefined) return;
  try {
    await pool.loadEdits(new Uint8Array(await file.arrayBuffer()));
    for (const k of stream.shown.keys()) stream.stale.add(k);
  } catch (e) {
    if (!(e instanceof StratagenError)) throw e;
    showProblem(e.message);
  }
});

// Measures: long tasks once the first chunks are on screen, frame times.
const longTasks = [];
let started = false;
new PerformanceObserver((list) => {
  if (started) for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask' });

await restoreEdits();
let last = performance.now();
let lastUrl = 0;
let frames = 0;
let fps = 0;
let fpsSince = last;
// A frame is drawn only when something changed: the camera, the chunks, the mode or the
// canvas. A still view leaves the GPU (a software one in particular) to the workers.
let drawn = null;
let framesDrawn = 0;
renderer.setAnimationLoop((now) => {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  const moved = flight.step(dt);
  const voxel = settings.mode === 'voxel';
  chunks.visible = voxel;
  terrain.setVisible(!voxel);
  let seen = null;
  if (voxel) {
    seen = stream.update(camera, now);
  } else {
    terrain.follow(camera);
  }
  const state = `${settings.mode} ${epoch} ${stream.version} ${canvas.width}x${canvas.height}`;
  if (moved || state !== drawn) {
    drawn = state;
    renderer.render(scene, camera);
    frames += 1;
    framesDrawn += 1;
  }
  if (now - fpsSince > 1000) {
    fps = (frames * 1000) / (now - fpsSince);
    frames = 0;
    fpsSince = now;
  }
  if (!started && voxel) {
    // Measures start once the first view is complete: loading it is the page's start-up.
    const inView = stream.coverage(camera, seen);
    started = inView.seen > 0 && inView.shown === inView.seen;
    stream.measuring = started;
    if (started) showStats();
  }
  if (now - lastUrl > URL_EVERY) {
    lastUrl = now;
    setUrl();
    showStats();
  }
});

function stats() {
  const { seen, shown } = stream.coverage(camera);
  return {
    backend,
    seen,
    shown,
    loaded: stream.shown.size,
    waiting: pool.waiting,
    abandoned: stream.abandoned,
    latencyP95: quantile(stream.latencies, 0.95),
    latencies: stream.latencies.length,
    longTasks: [...longTasks],
    fps,
    frames: framesDrawn,
    started,
    edits: editCount,
    lastEdit,
    restored,
  };
}

function showStats() {
  const s = stats();
  $('stats').textContent = [
    `${s.backend} · ${s.fps > 0 ? `${s.fps.toFixed(0)} fps` : 'still'}`,
    `chunks ${s.shown}/${s.seen} in view · ${s.loaded} loaded`,
    `waiting ${s.waiting} · abandoned ${s.abandoned}`,
    `view → mesh p95 ${Number.isNaN(s.latencyP95) ? '–' : `${s.latencyP95.toFixed(0)} ms`}`,
    `long tasks ${s.longTasks.filter((d) => d > LONG_TASK_MS).length}`,
  ].join('\n');
}

/** What tests and the console use: measures, edits and mesh digests. */
window.worldView = {
  stats,
  edit,
  air,
  setAutopilot: (on) => { flight.autopilot = on; },
  meshDigest: (cx, cz) => stream.shown.get(`${cx},${cz}`)?.digest ?? null,
  stale: (cx, cz) => stream.stale.has(`${cx},${cz}`) || stream.asked.has(`${cx},${cz}`),
  getBlock: (x, y, z) => pool.getBlock(x, y, z),
  saveEdits: async () => edits.save(worldKey(), await pool.saveEdits()),
  /** Heightmap chunk (cx, cz)'s noise samples from the GPU node and from the CPU. */
  gpuSamples: async (cx, cz, res) => Array.from(await terrain.gpuSamples(cx, cz, res)),
  cpuSamples: (cx, cz, res) => Array.from(terrain.noise.heightmapChunk(cx, cz, res)),
};
document.body.dataset.state = 'ready';
