// `npm run build`: the static site in web/site/: the pages (src/), the package's ES modules,
// WebAssembly builds and presets (vendor/stratagen/), and three.js's ES modules
// (vendor/three/). The pages' import maps name these folders, so no bundler is involved.
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const site = join(here, 'site');
/** An installed package's folder (`npm install` links the package in ../js). */
const packageDir = (name) => join(here, 'node_modules', name);

/** What the site takes from each package, relative to its folder. */
const VENDOR = {
  stratagen: ['index.js', 'three.js', 'lib', 'dist/stratagen.wasm', 'dist/stratagen-simd.wasm', 'dist/presets'],
  three: ['build/three.core.js', 'build/three.module.js', 'build/three.webgpu.js', 'build/three.tsl.js', 'LICENSE'],
};

rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const name of readdirSync(join(here, 'src'))) cpSync(join(here, 'src', name), join(site, name), { recursive: true });
for (const [name, paths] of Object.entries(VENDOR)) {
  const from = packageDir(name);
  for (const path of paths) {
    // three's build/ files sit side by side in vendor/three/, as their relative imports expect.
    const to = join(site, 'vendor', name, name === 'three' ? path.replace(/^build\//, '') : path);
    cpSync(join(from, path), to, { recursive: true, dereference: true });
  }
}
console.log(`built ${site}`);
