/** node:fs plus globSync (Node 22's fs.globSync, for Node 20), for @modelcontextprotocol/conformance only. */
import fs from 'node:fs';
import { globSync as tinyGlobSync } from 'tinyglobby';

export * from 'node:fs';
export default fs;

/** fs.globSync(pattern, { cwd }) → paths relative to cwd, as Node 22 returns them. */
export function globSync(pattern, options = {}) {
  return tinyGlobSync(pattern, { cwd: options.cwd ?? process.cwd(), onlyFiles: false, expandDirectories: false, dot: true });
}
