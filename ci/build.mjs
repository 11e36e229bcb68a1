// Bundles the simulated-IDE hub into one file so it starts fast (NFR-3.2.2: ready < 200 ms).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: { 'openspace-sim': 'sim/cli.ts', openspace: 'src/init/cli.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // node-pty is native and only loaded for process terminals; ripgrep ships its own binary.
  external: ['node-pty', '@vscode/ripgrep'],
  banner: { js: "import { createRequire as __osCreateRequire } from 'node:module'; const require = __osCreateRequire(import.meta.url);" },
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
});
