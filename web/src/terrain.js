// The heightmap mode: one grid around the camera displaced on the GPU by the noise's own
// shader: under WebGPU the WGSL `Noise.shader` prints, as a TSL node (`noiseNode`); under
// WebGL2 the GLSL it prints, in a ShaderMaterial. The GPU draws the heights the CPU computes;
// `gpuSamples` runs the WebGPU node in a compute pass and reads the samples back, to check
// them against `Noise.heightmapChunk`.

import * as THREE from 'three';
import { Noise } from 'stratagen';
import { noiseNode } from 'stratagen/three';

/** The grid's side in blocks and in quads. */
const SIZE = 768;
const SEGMENTS = 192;
/** Heights: HEIGHT_OFFSET + HEIGHT_SCALE · sample blocks (the heightmap mesh's defaults). */
const HEIGHT_SCALE = 64;
const HEIGHT_OFFSET = 64;
/** The grid moves in steps of this many blocks, so its vertices keep their world positions. */
const SNAP = 16;

/** The terrain noise of a seed: f32, the precision shaders compute in. */
export function terrainNoise(seed) {
  return { type: 'simplex', fractal: 'fbm', octaves: 5, frequency: 1 / 256, seed, precision: 'f32' };
}

// Both materials: the height from the noise, the normal from the heights one block east and
// south, colour bands by height lit by a fixed sun. One table of bands serves both languages.
/** The colour below every band (the sea floor). */
const WATER = [0.12, 0.28, 0.5];
/** Each band: its colour, blended in from `from` to `to` blocks above HEIGHT_OFFSET. */
const BANDS = [
  { colour: [0.76, 0.7, 0.5], from: -2, to: 0 }, // sand
  { colour: [0.3, 0.52, 0.24], from: 1, to: 4 }, // grass
  { colour: [0.45, 0.43, 0.4], from: 30, to: 40 }, // rock
  { colour: [0.93, 0.94, 0.96], from: 48, to: 54 }, // snow
];
/** The sun's direction, and the light's share that follows it (the rest is ambient). */
const SUN = [0.4, 1, 0.3];
const DIRECT = 0.75;

/** A number as a GLSL float literal. */
const glslFloat = (v) => (Number.isInteger(v) ? v.toFixed(1) : String(v));
const glslVec3 = (v) => `vec3(${v.map(glslFloat).join(', ')})`;

const GLSL_VERTEX = `
uniform vec2 centre;
out float vHeight;
out vec3 vNormal;
float terrainHeight(vec2 p) { return ${glslFloat(HEIGHT_OFFSET)} + ${glslFloat(HEIGHT_SCALE)} * sg_noise_2d(p); }
void main() {
  vec2 p = position.xz + centre;
  float h = terrainHeight(p);
  vNormal = normalize(cross(vec3(0.0, terrainHeight(p + vec2(0.0, 1.0)) - h, 1.0), vec3(1.0, terrainHeight(p + vec2(1.0, 0.0)) - h, 0.0)));
  vHeight = h;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position.x, h, position.z, 1.0);
}`;
const GLSL_FRAGMENT = `
in float vHeight;
in vec3 vNormal;
out vec4 colour;
void main() {
  vec3 c = ${glslVec3(WATER)};
${BANDS.map((b) => `  c = mix(c, ${glslVec3(b.colour)}, smoothstep(${glslFloat(HEIGHT_OFFSET + b.from)}, ${glslFloat(HEIGHT_OFFSET + b.to)}, vHeight));`).join('\n')}
  float light = max(dot(vNormal, normalize(${glslVec3(SUN)})), 0.0) * ${glslFloat(DIRECT)} + ${glslFloat(1 - DIRECT)};
  colour = vec4(c * light, 1.0);
}`;

/** The WebGL2 material: the GLSL function in the vertex shader. */
function glslMaterial(noise, centre) {
  return new THREE.ShaderMaterial({
    glslVersion: THREE.GLSL3,
    uniforms: { centre },
    vertexShader: `precision highp float;\nprecision highp int;\n${noise.shader('glsl', 2)}\n${GLSL_VERTEX}`,
    fragmentShader: GLSL_FRAGMENT,
  });
}

/** The WebGPU material: the WGSL function as a TSL node. */
function tslMaterial(webgpu, tsl, sample, centre) {
  const { vec2, vec3, float, mix, smoothstep, normalize, cross, dot, max, varying, positionLocal } = tsl;
  const height = (p) => sample(p).mul(HEIGHT_SCALE).add(HEIGHT_OFFSET);
  const p = positionLocal.xz.add(centre);
  const h = height(p);
  const normal = varying(normalize(cross(vec3(0, height(p.add(vec2(0, 1))).sub(h), 1), vec3(1, height(p.add(vec2(1, 0))).sub(h), 0))));
  const y = varying(h);
  const material = new webgpu.MeshBasicNodeMaterial();
  material.positionNode = vec3(positionLocal.x, h, positionLocal.z);
  let c = vec3(...WATER);
  for (const b of BANDS) c = mix(c, vec3(...b.colour), smoothstep(HEIGHT_OFFSET + b.from, HEIGHT_OFFSET + b.to, y));
  material.colorNode = c.mul(max(dot(normal, normalize(vec3(...SUN))), float(0)).mul(DIRECT).add(1 - DIRECT));
  return material;
}

export class Terrain {
  /** The terrain of `seed` in `scene`, drawn by `view` (render.js). */
  static async create(scene, view, seed) {
    const t = new Terrain();
    t.noise = new Noise(terrainNoise(seed));
    t.view = view;
    if (view.webgpu !== null) {
      t.tsl = await import('three/tsl');
      t.sample = noiseNode(t.noise, 2);
      t.centre = t.tsl.uniform(new THREE.Vector2());
      t.material = tslMaterial(view.webgpu, t.tsl, t.sample, t.centre);
    } else {
      t.centre = { value: new THREE.Vector2() };
      t.material = glslMaterial(t.noise, t.centre);
    }
    const geometry = new THREE.PlaneGeometry(SIZE, SIZE, SEGMENTS, SEGMENTS).rotateX(-Math.PI / 2);
    t.mesh = new THREE.Mesh(geometry, t.material);
    t.mesh.frustumCulled = false;
    t.mesh.visible = false;
    scene.add(t.mesh);
    return t;
  }

  /** Remove the grid from `scene` and free its noise. */
  dispose(scene) {
    scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.noise.free();
  }

  setVisible(on) {
    this.mesh.visible = on;
  }

  /** Keep the grid centred under the camera, in whole steps. */
  follow(camera) {
    const x = Math.round(camera.position.x / SNAP) * SNAP;
    const z = Math.round(camera.position.z / SNAP) * SNAP;
    this.centre.value.set(x, z);
    this.mesh.position.set(x, 0, z);
  }

  /**
   * The noise samples of heightmap chunk (cx, cz) at `res` per side, computed by the WebGPU
   * node that displaces the grid and read back: `Noise.heightmapChunk`'s grid (WebGPU only).
   */
  async gpuSamples(cx, cz, res) {
    if (this.view.webgpu === null) throw new Error('GPU read-back needs WebGPU');
    const { Fn, float, instanceIndex, storage, vec2 } = this.tsl;
    const count = res * res;
    const out = new this.view.webgpu.StorageBufferAttribute(new Float32Array(count), 1);
    const buffer = storage(out, 'float', count);
    const step = 16 / res;
    const compute = Fn(() => {
      const x = float(instanceIndex.mod(res)).mul(step).add(16 * cx);
      const z = float(instanceIndex.div(res)).mul(step).add(16 * cz);
      buffer.element(instanceIndex).assign(this.sample(vec2(x, z)));
    })().compute(count);
    await this.view.renderer.computeAsync(compute);
    return new Float32Array(await this.view.renderer.getArrayBufferAsync(out));
  }
}
