import * as nodeFs from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFsFromVolume, Volume } from 'memfs';

/** The demo workspace shipped in the repo (a small TypeScript project). */
export const DEMO_WORKSPACE = fileURLToPath(new URL('../sim/demo-workspace', import.meta.url));

/** Where an in-memory workspace lives inside its memfs volume. */
export const MEMORY_ROOT = '/workspace';

export type WorkspaceSpec =
  /** A memfs volume seeded from a directory (default: the demo workspace) and/or files given inline. */
  | { kind: 'memory'; seedDir?: string; files?: Record<string, string> }
  /** A real directory, used in place. */
  | { kind: 'disk'; root: string };

export interface LoadedWorkspace {
  kind: 'memory' | 'disk';
  // The two file systems share the promises/sync API the workspace code uses.
  fs: typeof nodeFs;
  root: string;
  /** For display: the directory given, or "demo (in memory)". */
  label: string;
}

/** Copy a directory tree into a memfs volume (regular files and directories; links are skipped). */
function seedVolume(vol: InstanceType<typeof Volume>, from: string, to: string): void {
  vol.mkdirSync(to, { recursive: true });
  for (const entry of nodeFs.readdirSync(from, { withFileTypes: true, recursive: true })) {
    const source = join(entry.parentPath, entry.name);
    const target = join(to, relative(from, source));
    if (entry.isDirectory()) vol.mkdirSync(target, { recursive: true });
    else if (entry.isFile()) {
      vol.mkdirSync(join(target, '..'), { recursive: true });
      vol.writeFileSync(target, nodeFs.readFileSync(source));
    }
  }
}

export function loadWorkspace(spec: WorkspaceSpec): LoadedWorkspace {
  if (spec.kind === 'disk') {
    const root = nodeFs.realpathSync(spec.root);
    if (!nodeFs.statSync(root).isDirectory()) throw new Error(`--workspace ${spec.root} is not a directory`);
    return { kind: 'disk', fs: nodeFs, root, label: root };
  }
  const vol = new Volume();
  const seedDir = spec.seedDir ?? (spec.files ? undefined : DEMO_WORKSPACE);
  if (seedDir) seedVolume(vol, seedDir, MEMORY_ROOT);
  vol.mkdirSync(MEMORY_ROOT, { recursive: true });
  for (const [path, content] of Object.entries(spec.files ?? {})) {
    const target = join(MEMORY_ROOT, path);
    vol.mkdirSync(join(target, '..'), { recursive: true });
    vol.writeFileSync(target, content);
  }
  const label = seedDir === DEMO_WORKSPACE ? 'demo (in memory)' : `${seedDir ?? 'inline files'} (copied into memory)`;
  return { kind: 'memory', fs: createFsFromVolume(vol) as unknown as typeof nodeFs, root: MEMORY_ROOT, label };
}
