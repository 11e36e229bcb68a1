/**
 * Preload for running @modelcontextprotocol/conformance on Node 20: it imports `globSync` from
 * `fs`, which Node adds in 22. A resolve hook hands that package (only) a copy of `fs` that also
 * exports globSync, implemented with tinyglobby (installed with vitest). Node 22+ needs nothing.
 *   node --import ./conformance/mcp/node20-fs-glob.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js …
 */
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register(
    'data:text/javascript,' +
      encodeURIComponent(`
        const shim = ${JSON.stringify(new URL('./fs-with-glob.mjs', import.meta.url).href)};
        export async function resolve(specifier, context, next) {
          if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
            return { url: shim, shortCircuit: true };
          }
          return next(specifier, context);
        }`),
  );
}
