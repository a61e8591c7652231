// Chunks streamed around the camera: every chunk within the view distance that the camera
// sees is asked of the pool, nearest first; one that leaves the view before its turn is
// abandoned (its request aborted), one that falls behind the view distance is dropped from
// the scene. A mesh goes into the scene when it arrives, or in a task of its own when others
// already took this task's few milliseconds: no task grows long.

import * as THREE from 'three';
import { chunkGeometry } from 'stratagen/three';

/** Blocks per chunk side. */
const CHUNK = 16;
/** Milliseconds a frame spends adding finished meshes to the scene, at most (one at least). */
const ADD_BUDGET_MS = 4;
/** Chunks beyond the view distance by this many are removed. */
const KEEP_MARGIN = 2;
/** How far outside the frustum a chunk still counts as seen, in blocks (its corners' slack). */
const FRUSTUM_SLACK = 12;

/** A chunk's key in the maps below. */
const key = (x, z) => `${x},${z}`;

export class ChunkStream {
  /** `pool` makes meshes; `group` holds them; `materials` per surface; `props` draws scatter. */
  constructor({ pool, group, materials, props }) {
    this.pool = pool;
    this.group = group;
    this.materials = materials;
    this.props = props;
    /** key → { x, z, object, digest } of chunks in the scene. */
    this.shown = new Map();
    /** key → { controller, since } of chunks asked for. */
    this.asked = new Map();
    /** Finished meshes waiting for a frame to add them. */
    this.ready = [];
    /** Milliseconds from a chunk entering the view to its mesh in the scene, once measuring. */
    this.latencies = [];
    this.measuring = false;
    this.abandoned = 0;
    this.viewDistance = 6;
    /** Chunks whose edits need a new mesh, by key. */
    this.stale = new Set();
    this.stopped = false;
    // A task of its own for the meshes one task's budget left over.
    this.addPosted = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      this.addPosted = false;
      this.addReady();
    };
    this.addTask = channel.port2;
    /** Counts changes to the chunks in the scene (a frame is drawn when it moves). */
    this.version = 0;
    this.frustum = new THREE.Frustum();
    this.box = new THREE.Box3();
  }

  /** The chunks within the view distance of the camera that it sees, nearest first. */
  visible(camera) {
    camera.updateMatrixWorld();
    this.frustum.setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
    const cx = Math.floor(camera.position.x / CHUNK);
    const cz = Math.floor(camera.position.z / CHUNK);
    const r = this.viewDistance;
    const out = [];
    for (let z = cz - r; z <= cz + r; z++) {
      for (let x = cx - r; x <= cx + r; x++) {
        const d2 = (x - cx) ** 2 + (z - cz) ** 2;
        if (d2 > r * r) continue;
        this.box.min.set(x * CHUNK - FRUSTUM_SLACK, -64, z * CHUNK - FRUSTUM_SLACK);
        this.box.max.set((x + 1) * CHUNK + FRUSTUM_SLACK, 320, (z + 1) * CHUNK + FRUSTUM_SLACK);
        if (d2 <= 2 || this.frustum.intersectsBox(this.box)) out.push({ x, z, d2 });
      }
    }
    return out.sort((a, b) => a.d2 - b.d2);
  }

  /** Abandon every request and leave the scene: the stream's world is being replaced. */
  stop() {
    this.stopped = true;
    for (const a of this.asked.values()) a.controller.abort();
    this.asked.clear();
    this.ready = [];
    for (const k of [...this.shown.keys()]) this.remove(k);
  }

  /** Ask for what the camera sees, abandon what it no longer does, drop what is far. */
  update(camera, now) {
    if (this.stopped) return [];
    const seen = this.visible(camera);
    const cx = Math.floor(camera.position.x / CHUNK);
    const cz = Math.floor(camera.position.z / CHUNK);
    this.pool.setViewer(cx, cz);
    const wanted = new Set(seen.map((c) => key(c.x, c.z)));
    for (const [k, a] of this.asked) {
      if (!wanted.has(k)) {
        a.controller.abort();
        this.asked.delete(k);
        if (a.edit) this.stale.add(k);
        this.abandoned += 1;
      }
    }
    for (const c of seen) {
      const k = key(c.x, c.z);
      if (this.asked.has(k) || (this.shown.has(k) && !this.stale.has(k))) continue;
      this.ask(c.x, c.z, now);
    }
    const far = (this.viewDistance + KEEP_MARGIN) ** 2;
    for (const [k, s] of this.shown) {
      if ((s.x - cx) ** 2 + (s.z - cz) ** 2 > far) {
        this.remove(k);
      }
    }
    return seen;
  }

  ask(x, z, now) {
    const k = key(x, z);
    const controller = new AbortController();
    const asked = { controller, since: now, edit: this.stale.has(k), measured: this.measuring };
    this.stale.delete(k);
    this.asked.set(k, asked);
    Promise.all([
      this.pool.mesh(x, z, { greedy: true, signal: controller.signal }),
      this.pool.scatter(x, z, { signal: controller.signal }),
    ]).then(([mesh, scatter]) => {
      if (this.asked.get(k) !== asked) return;
      this.ready.push({ x, z, k, mesh, scatter, asked });
      // Into the scene at once (within the budget): the next frame draws it.
      this.addReady();
    }, (e) => {
      if (!controller.signal.aborted) throw e;
    });
  }

  /**
   * Add finished meshes for up to ADD_BUDGET_MS, and leave the rest to a task of their own
   * (never to a frame's: a frame already renders); the number added.
   */
  addReady() {
    if (this.stopped) return 0;
    let added = 0;
    const start = performance.now();
    while (this.ready.length > 0 && (added === 0 || performance.now() - start < ADD_BUDGET_MS)) {
      const r = this.ready.shift();
      if (this.asked.get(r.k) !== r.asked) continue;
      this.asked.delete(r.k);
      if (this.shown.has(r.k)) this.remove(r.k);
      const object = new THREE.Group();
      object.position.set(r.x * CHUNK, 0, r.z * CHUNK);
      object.userData.chunk = [r.x, r.z];
      for (const surface of ['opaque', 'cutout', 'translucent']) {
        if (r.mesh[surface].indices.length === 0) continue;
        const m = new THREE.Mesh(chunkGeometry(r.mesh[surface]), this.materials[surface]);
        m.userData.surface = surface;
        object.add(m);
      }
      object.updateMatrixWorld(true);
      const props = this.props(r.scatter);
      this.group.add(object);
      if (props !== null) this.group.add(props);
      this.shown.set(r.k, { x: r.x, z: r.z, object, props, digest: r.mesh.digest });
      if (r.asked.measured && !r.asked.edit) this.latencies.push(performance.now() - r.asked.since);
      added += 1;
      this.version += 1;
    }
    if (this.ready.length > 0 && !this.addPosted) {
      this.addPosted = true;
      this.addTask.postMessage(null);
    }
    return added;
  }

  remove(k) {
    const s = this.shown.get(k);
    this.shown.delete(k);
    this.version += 1;
    for (const o of [s.object, s.props]) {
      if (o === null) continue;
      this.group.remove(o);
      o.traverse((m) => m.geometry?.dispose());
    }
  }

  /** Chunk (x, z) and its neighbours get new meshes (an edit there; light crosses borders). */
  remesh(x, z) {
    for (let dz = -1; dz <= 1; dz++) {
      for (let dx = -1; dx <= 1; dx++) {
        const k = key(x + dx, z + dz);
        if (this.shown.has(k)) this.stale.add(k);
      }
    }
  }

  /**
   * Of the chunks the camera sees within the view distance (`seen`, as `update` returned it),
   * how many are in the scene.
   */
  coverage(camera, seen = this.visible(camera)) {
    const shown = seen.filter((c) => this.shown.has(key(c.x, c.z))).length;
    return { seen: seen.length, shown };
  }

  /** The meshes in the scene, for picking. */
  pickable() {
    const out = [];
    for (const s of this.shown.values()) for (const m of s.object.children) if (m.userData.surface !== 'translucent') out.push(m);
    return out;
  }
}

/** The p-quantile (0..1) of `values`. */
export function quantile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
