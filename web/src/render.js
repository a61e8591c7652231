// The renderer: three.js's WebGPURenderer where the browser gives a WebGPU adapter, its
// WebGLRenderer elsewhere (WebGL2). WebGPURenderer's own WebGL2 fallback draws the same
// scene at about half the frame rate of WebGLRenderer on a software rasteriser, so the WebGL2
// path uses the classic renderer and materials; both share three's core classes.

import * as THREE from 'three';

/** Whether this browser gives a WebGPU adapter. */
async function hasWebGpu() {
  try {
    return (await navigator.gpu?.requestAdapter()) != null;
  } catch {
    return false;
  }
}

/**
 * A renderer on `canvas` with what the page draws with: `backend` ('WebGPU' or 'WebGL2'),
 * `webgpu` (three's WebGPU module, or null), `material(options)` (a Lambert material of the
 * renderer's kind) and `render(scene, camera)`.
 */
export async function createView(canvas) {
  if (await hasWebGpu()) {
    const webgpu = await import('three/webgpu');
    const renderer = new webgpu.WebGPURenderer({ canvas, antialias: false });
    await renderer.init();
    if (renderer.backend.isWebGPUBackend) {
      return { renderer, backend: 'WebGPU', webgpu, material: (o) => new webgpu.MeshLambertNodeMaterial(o) };
    }
    renderer.dispose();
  }
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
  return { renderer, backend: 'WebGL2', webgpu: null, material: (o) => new THREE.MeshLambertMaterial(o) };
}
