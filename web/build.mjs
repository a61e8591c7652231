// `npm run build`: the static site in web/site/: the pages (src/), the package's ES modules,
// WebAssembly builds and presets (vendor/stratagen/), its TOML parser's ES modules
// (vendor/toml-eslint-parser/, vendor/eslint-visitor-keys/) and three.js's
// (vendor/three/). The pages' import maps name these folders, so no bundler is involved.
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const site = join(here, 'site');
/**
 * An installed package's folder, found as the package that depends on it would find it
 * (`npm install` links stratagen to ../js, whose own dependencies sit in ../js/node_modules).
 */
function packageDir(name, from = here) {
  for (let dir = realpathSync(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name}: not installed (npm install)`);
  }
}

/** What the site takes from each package, relative to its folder. */
const VENDOR = {
  stratagen: ['index.js', 'three.js', 'lib', 'dist/stratagen.wasm', 'dist/stratagen-simd.wasm', 'dist/presets'],
  three: ['build/three.core.js', 'build/three.module.js', 'build/three.webgpu.js', 'build/three.tsl.js', 'LICENSE'],
  'toml-eslint-parser': ['lib', 'LICENSE'],
  'eslint-visitor-keys': ['lib', 'LICENSE'],
};
/** Who depends on each package: where its folder is looked up from. */
const DEPENDENT = { 'toml-eslint-parser': 'stratagen', 'eslint-visitor-keys': 'toml-eslint-parser' };

/** The folder of the package that depends on `name` (the site's own for the others). */
function dependentDir(name) {
  const chain = [];
  for (let n = DEPENDENT[name]; n !== undefined; n = DEPENDENT[n]) chain.unshift(n);
  return chain.reduce((dir, n) => packageDir(n, dir), here);
}

rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const name of readdirSync(join(here, 'src'))) cpSync(join(here, 'src', name), join(site, name), { recursive: true });
for (const [name, paths] of Object.entries(VENDOR)) {
  const from = packageDir(name, dependentDir(name));
  for (const path of paths) {
    // three's build/ files sit side by side in vendor/three/, as their relative imports expect.
    const to = join(site, 'vendor', name, name === 'three' ? path.replace(/^build\//, '') : path);
    cpSync(join(from, path), to, { recursive: true, dereference: true });
  }
}
console.log(`built ${site}`);
