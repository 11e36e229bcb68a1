/**
 * What box-check.ts needs to know of the disk (Node only): the files git tracks in the workspace, or
 * outside a repository what exists; which paths the sandbox keeps read-only; which hosts it lets through.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { BoxView } from './box-check.js';

/** Outside a repository, what a build makes again: the agent's to delete. */
const BUILD_OUTPUTS = picomatch(
  [
    '**/node_modules/**',
    '**/dist/**',
    '**/build/**',
    '**/out/**',
    '**/target/**',
    '**/coverage/**',
    '**/.next/**',
    '**/.turbo/**',
    '**/.cache/**',
    '**/__pycache__/**',
    '**/.pytest_cache/**',
    '**/.mypy_cache/**',
    '**/.venv/**',
    '**/venv/**',
    '**/*.{o,pyc,class}',
  ],
  { dot: true },
);
/** A directory is looked into this far for a file that is not a build output. */
const MAX_ENTRIES = 20_000;

/**
 * The files git tracks in `workspace` (relative), or undefined outside a repository. git runs with
 * no fsmonitor and no hooks: the workspace's own config must not run anything here.
 */
export function trackedFiles(workspace: string): string[] | undefined {
  try {
    const out = execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', 'ls-files', '-z'], {
      cwd: workspace,
      encoding: 'utf8',
      maxBuffer: 256 * 2 ** 20,
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: join(workspace, '..') },
    });
    return out.split('\0').filter((p) => p !== '');
  } catch {
    return undefined;
  }
}

/**
 * Outside a repository, the files (relative) that were there before any agent: what the person could
 * lose. Build outputs are left out; undefined past MAX_ENTRIES (then every existing file counts).
 */
export function personFiles(workspace: string): Set<string> | undefined {
  const found = new Set<string>();
  let seen = 0;
  const walk = (rel: string): boolean => {
    let names: string[];
    try {
      names = readdirSync(join(workspace, rel));
    } catch {
      return true;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) return false;
      const path = rel ? `${rel}/${name}` : name;
      let stat;
      try {
        stat = lstatSync(join(workspace, path));
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!BUILD_OUTPUTS(`${path}/x`) && !walk(path)) return false;
      } else if (!BUILD_OUTPUTS(path)) found.add(path);
    }
    return true;
  };
  return walk('') ? found : undefined;
}

export interface BoxViewOptions {
  /** Outside a repository: the files the person had before any agent (personFiles), or undefined to count every existing file. */
  baseline?: Set<string>;
  workspace: string;
  cwd: string;
  home: string;
  isReadOnly: (relPath: string) => string | undefined;
  hostAllowed: (host: string, port: number | undefined) => boolean;
}

/**
 * A BoxView of the workspace as it is now. What the person could lose is looked up only for a command
 * that deletes or overwrites something: most commands never ask, and git runs for none of them.
 */
export function boxView(options: BoxViewOptions): BoxView {
  let judge: PersonFiles | undefined;
  const files = () => (judge ??= personFilesOf(options.workspace, options.baseline));
  return {
    ...options,
    isDirectory: (rel) => {
      try {
        return lstatSync(join(options.workspace, rel)).isDirectory();
      } catch {
        return false;
      }
    },
    holdsPersonFiles: (rel) => rel === '' || rel === '.git' || rel.startsWith('.git/') || files().holds(rel),
    globHoldsPersonFiles: (glob) => files().globHolds(glob),
  };
}

interface PersonFiles {
  holds(rel: string): boolean;
  globHolds(glob: string): boolean;
}

/** The files git tracks; outside a repository the baseline's that still exist, or without one every file but build outputs. */
function personFilesOf(workspace: string, baseline: Set<string> | undefined): PersonFiles {
  const tracked = trackedFiles(workspace);
  if (tracked) {
    return {
      holds: (rel) => tracked.some((p) => p === rel || p.startsWith(`${rel}/`)),
      globHolds: (glob) => {
        const match = picomatch(glob, { dot: false });
        return tracked.some((p) => prefixes(p).some((q) => match(q)));
      },
    };
  }
  if (baseline) {
    return {
      holds: (rel) => [...baseline].some((p) => (p === rel || p.startsWith(`${rel}/`)) && exists(workspace, p)),
      globHolds: (glob) => {
        const match = picomatch(glob, { dot: false });
        return [...baseline].some((p) => prefixes(p).some((q) => match(q)) && exists(workspace, p));
      },
    };
  }
  return {
    holds: (rel) => holdsFiles(workspace, rel),
    // Without git's list, a glob is judged by what it starts in.
    globHolds: (glob) => holdsFiles(workspace, picomatch.scan(glob).base),
  };
}

function exists(workspace: string, rel: string): boolean {
  try {
    lstatSync(join(workspace, rel));
    return true;
  } catch {
    return false;
  }
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`: a glob may name a directory holding the file. */
function prefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Whether `rel` is, or holds, a file that is not a build output. */
function holdsFiles(workspace: string, rel: string): boolean {
  let seen = 0;
  const walk = (path: string): boolean => {
    if (++seen > MAX_ENTRIES) return true;
    let stat;
    try {
      stat = lstatSync(join(workspace, path));
    } catch {
      return false;
    }
    if (!stat.isDirectory()) return !BUILD_OUTPUTS(path);
    if (BUILD_OUTPUTS(`${path}/x`)) return false;
    return readdirSync(join(workspace, path)).some((name) => walk(path ? `${path}/${name}` : name));
  };
  return walk(rel);
}
