// What the browser tests share: the built site served on 127.0.0.1, and Debian's Chromium
// driven by playwright-core (no browser download), headless with SwiftShader for WebGL2 and,
// where asked, WebGPU. Every page's console errors and unhandled rejections are collected, and
// a test fails on any.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { serve } from '../serve.mjs';

/** The native command line's path, or undefined (the test skipped; it fails under CI). */
export { cliPath as nativeCli } from '../../js/test/setup.mjs';

/** Where Chromium is: CHROMIUM names another build; Debian's package puts it here. */
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags for headless Chromium on a machine without a GPU or network: SwiftShader draws WebGL2
 * (and WebGPU with `webgpu`), and nothing reaches out to Google's services.
 */
function flags(webgpu) {
  const args = [
    '--no-sandbox', '--headless=new', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
    '--disable-quic',
  ];
  if (webgpu) args.push('--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader');
  return args;
}

/**
 * A browser on the built site (or on `root`, served with `headers`): `open(path)` gives a page
 * whose console errors and uncaught errors land in `problems`; `close()` ends both. Skips the
 * test (fails under CI) without Chromium or a built site.
 */
export async function startBrowser(t, { webgpu = false, root = null, headers = {} } = {}) {
  const site = root ?? fileURLToPath(new URL('../site/', import.meta.url));
  for (const [path, why] of [[CHROMIUM, 'no Chromium (apt-get install chromium)'], [site, 'no built site (npm run build)']]) {
    if (!existsSync(path)) {
      if (process.env.CI) throw new Error(why);
      t.skip(why);
      return null;
    }
  }
  const server = await serve(site, 0, headers);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: flags(webgpu), headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const problems = [];
  const open = async (path, onConsole = () => {}) => {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${path}: console: ${m.text()}`);
      onConsole(m.text());
    });
    page.on('pageerror', (e) => problems.push(`${path}: ${e.message}`));
    await page.goto(`${server.url}${path}`);
    return page;
  };
  return {
    url: server.url,
    open,
    problems,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
