/**
 * Workspace containment, Node side: the single place every path an agent gives goes through before
 * anything touches the file system.
 *
 * A path is accepted when
 *  1. it holds no NUL byte,
 *  2. resolved lexically against the root it stays inside the root (compared by path components,
 *     so `/ws-evil` is not inside `/ws`), and
 *  3. its physical location stays inside realpath(root): the longest existing prefix is realpath'ed,
 *     and the missing rest is walked component by component, so a dangling symlink counts as the
 *     place it points to.
 *
 * Works over node:fs/promises and over a memfs volume (`createFsFromVolume(vol).promises`, with
 * `path: path.posix`).
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import nodePath from 'node:path';
import { ToolError } from '../contract/result.js';

/** The part of `fs.promises` the guard needs; node:fs and memfs both provide it. */
export interface FsLike {
  realpath(path: string): Promise<string | Buffer>;
  lstat(path: string): Promise<{ isSymbolicLink(): boolean }>;
  readlink(path: string): Promise<string | Buffer>;
}

export interface PathGuardOptions {
  /** Compare path components case-insensitively (macOS and Windows file systems). Default false. */
  caseInsensitive?: boolean;
  /** The path flavour of the file system; defaults to node:path. A memfs volume wants path.posix. */
  path?: nodePath.PlatformPath;
}

export interface ResolvedPath {
  /** Lexically normalised, workspace-relative, '/'-separated; "" is the root. */
  relative: string;
  /** The root joined with `relative` (no `..`, symlinks not resolved). */
  absolute: string;
  /** The physical path with every symlink resolved, when the path exists; undefined when it does not. */
  real: string | undefined;
  /** Where the path physically lands, existing or not (symlinks followed, dangling ones too). */
  physical: string;
}

/**
 * For a real directory: the guard's calls made synchronously, as the store's FdFileAccess opens
 * files (each takes some microseconds, where a trip to the thread pool and back takes tens).
 */
export const NAMING_CALLS: FsLike = {
  realpath: async (path) => realpathSync.native(path),
  lstat: async (path) => lstatSync(path),
  readlink: async (path) => readlinkSync(path),
};

/** As many links as Linux follows before ELOOP. */
const MAX_SYMLINKS = 40;

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export class PathGuard {
  private readonly p: nodePath.PlatformPath;
  private readonly caseInsensitive: boolean;
  /** The root as given, made absolute and normalised. */
  readonly root: string;
  private rootRealPromise: Promise<string> | undefined;

  constructor(
    private readonly fs: FsLike,
    root: string,
    options: PathGuardOptions = {},
  ) {
    this.p = options.path ?? nodePath;
    this.caseInsensitive = options.caseInsensitive ?? false;
    this.root = this.p.resolve(root);
  }

  /** Construct and realpath the root at once, so a missing root fails here rather than on first use. */
  static async create(fs: FsLike, root: string, options: PathGuardOptions = {}): Promise<PathGuard> {
    const guard = new PathGuard(fs, root, options);
    await guard.realRoot();
    return guard;
  }

  /** realpath(root), computed once. */
  realRoot(): Promise<string> {
    this.rootRealPromise ??= this.fs.realpath(this.root).then(
      (real) => String(real),
      (err: unknown) => {
        this.rootRealPromise = undefined;
        throw new Error(`Workspace root ${this.root} cannot be resolved: ${(err as Error).message}`);
      },
    );
    return this.rootRealPromise;
  }

  /**
   * Check a workspace-relative or absolute path. Throws ToolError INVALID_ARGUMENT (NUL byte, symlink
   * loop) or PATH_OUTSIDE_WORKSPACE.
   */
  async resolve(input: string): Promise<ResolvedPath> {
    if (typeof input !== 'string') throw new ToolError('INVALID_ARGUMENT', 'A path must be a string.');
    if (input.includes('\0')) {
      throw new ToolError('INVALID_ARGUMENT', `Path ${JSON.stringify(input)} contains a NUL byte.`);
    }
    const rootReal = await this.realRoot();
    const lexical = this.p.resolve(this.root, input);
    // An absolute path may name the workspace by its real location (e.g. /private/tmp on macOS).
    const relative = this.within(this.root, lexical) ?? this.within(rootReal, lexical);
    if (relative === undefined) throw this.outside(input);
    const absolute = relative === '' ? this.root : this.p.join(this.root, ...relative.split('/'));

    const { physical, exists } = await this.physical(absolute, input);
    if (this.within(rootReal, physical) === undefined) throw this.outside(input, true);
    return { relative, absolute, real: exists ? physical : undefined, physical };
  }

  /** `target` relative to `base` with '/' separators when it lies inside it (component-wise), else undefined. */
  within(base: string, target: string): string | undefined {
    const fold = (s: string) => (this.caseInsensitive ? s.toLowerCase() : s);
    const b = fold(base);
    const t = fold(target);
    if (t === b) return '';
    const prefix = b.endsWith(this.p.sep) ? b : b + this.p.sep;
    if (!t.startsWith(prefix)) return undefined;
    return target.slice(prefix.length).split(this.p.sep).filter(Boolean).join('/');
  }

  private outside(input: string, throughLink = false): ToolError {
    const how = throughLink ? ' through a symbolic link' : '';
    return new ToolError(
      'PATH_OUTSIDE_WORKSPACE',
      `Path ${JSON.stringify(input)} leads outside the workspace${how}; paths must stay inside the workspace ` +
        '(give them relative to its root, e.g. "src/index.ts").',
    );
  }

  /**
   * Where `absolute` (normalised, no `..`) physically lands: realpath of the longest existing prefix,
   * then the missing rest walked one component at a time so that dangling symlinks are followed.
   */
  private async physical(absolute: string, input: string): Promise<{ physical: string; exists: boolean }> {
    const rest: string[] = [];
    let prefix = absolute;
    let base: string;
    for (;;) {
      try {
        base = String(await this.fs.realpath(prefix));
        break;
      } catch (err) {
        if (!MISSING.has(errorCode(err) ?? '')) throw err;
        const parent = this.p.dirname(prefix);
        if (parent === prefix) return { physical: absolute, exists: false };
        rest.unshift(this.p.basename(prefix));
        prefix = parent;
      }
    }
    if (rest.length === 0) return { physical: base, exists: true };

    // Walk the rest like the kernel would: follow symlinks, apply `..` physically.
    let current = base;
    let missing = false;
    let links = 0;
    const queue = [...rest];
    while (queue.length > 0) {
      const part = queue.shift()!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        current = this.p.dirname(current);
        continue;
      }
      const next = this.p.join(current, part);
      if (missing) {
        current = next;
        continue;
      }
      let isLink: boolean;
      try {
        isLink = (await this.fs.lstat(next)).isSymbolicLink();
      } catch (err) {
        if (!MISSING.has(errorCode(err) ?? '')) throw err;
        missing = true;
        current = next;
        continue;
      }
      if (!isLink) {
        current = next;
        continue;
      }
      if (++links > MAX_SYMLINKS) {
        throw new ToolError('INVALID_ARGUMENT', `Path ${JSON.stringify(input)} has too many levels of symbolic links.`);
      }
      let target: string;
      try {
        target = String(await this.fs.readlink(next));
      } catch (err) {
        // The link was replaced or removed since lstat (a race): look at this component again. Each
        // retry counts as a link followed, so a path swapped without end ends as "too many levels".
        if (errorCode(err) === 'EINVAL' || MISSING.has(errorCode(err) ?? '')) {
          queue.unshift(part);
          continue;
        }
        throw err;
      }
      const targetRoot = this.p.isAbsolute(target) ? this.p.parse(target).root : '';
      if (targetRoot) current = targetRoot;
      const separators = this.p.sep === '\\' ? /[\\/]+/ : /\/+/;
      queue.unshift(...target.slice(targetRoot.length).split(separators).filter(Boolean));
    }
    // Existing all the way means realpath raced with a change; report it as existing only if it now resolves.
    return { physical: current, exists: !missing && (await this.exists(current)) };
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await this.fs.realpath(path);
      return true;
    } catch {
      return false;
    }
  }
}
