/**
 * This file can be edited to adjust the ESBuild build process.
 * To reset, delete this file and rerun theia build again.
 */
import { browserOptions, watch } from './gen-esbuild.browser.mjs';
import { nodeOptions } from './gen-esbuild.node.mjs';

import esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Assets the frontend loads at run time, served by the app because this IDE runs offline:
 * Excalidraw's fonts (window.EXCALIDRAW_ASSET_PATH points at them) and reveal.js's themes, less
 * the @import of web fonts some of them make (those themes fall back to local fonts).
 */
function copyAssets() {
  cpSync('node_modules/@excalidraw/excalidraw/dist/prod/fonts', 'lib/frontend/excalidraw-assets/fonts', { recursive: true });
  mkdirSync('lib/frontend/reveal-themes', { recursive: true });
  for (const name of readdirSync('node_modules/reveal.js/dist/theme').filter((n) => n.endsWith('.css'))) {
    const css = readFileSync(`node_modules/reveal.js/dist/theme/${name}`, 'utf8').replace(/@import url\([^)]*\);?/g, '');
    writeFileSync(`lib/frontend/reveal-themes/${name}`, css);
  }
}

// Excalidraw exports its stylesheet under the development and production conditions only.
// React, Excalidraw and the rest as they ship, not their development builds (esbuild picks those
// unless it minifies): a whiteboard repaint 3× slower, warnings checked on every render.
const browserContext = await esbuild.context({
  ...browserOptions,
  define: { ...browserOptions.define, 'process.env.NODE_ENV': '"production"' },
  alias: { ...browserOptions.alias, '@excalidraw/excalidraw/index.css': './node_modules/@excalidraw/excalidraw/dist/prod/index.css' },
});
const nodeContext = await esbuild.context(nodeOptions);

if (watch) {
  copyAssets();
  await Promise.all([browserContext.watch(), nodeContext.watch()]);
} else {
  try {
    await browserContext.rebuild();
    await browserContext.dispose();
    copyAssets();
    await nodeContext.rebuild();
    await nodeContext.dispose();
  } catch {
    process.exit(1);
  }
}
