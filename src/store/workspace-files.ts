/**
 * The workspace's files, Node side: WorkspacePort over node:fs (a real directory) or a memfs volume
 * (the simulated IDE). Every path goes through the PathGuard; every path returned is
 * workspace-relative with '/' separators. Search is in workspace-search.ts: ripgrep for a real
 * directory, a scan of this walk for a memfs volume.
 */
import nodePath from 'node:path';
import type { Disposable } from '../contract/port.js';
import type { FileStat, SearchOptions, WorkspacePort, WriteOptions, WriteTextOptions } from '../families/file/port.js';
import type { PatchOperation, SnapshotInfo } from '../families/file/tools.js';
import { ToolError, type FileInfo, type SearchMatch } from '../contract/index.js';
import type { AuditSink } from '../security/audit-log.js';
import { createFilePolicy, type FilePolicy } from '../security/file-policy.js';
import { NAMING_CALLS, PathGuard, type FsLike, type ResolvedPath } from '../security/path-guard.js';
import { ArtifactStore, conflict, versionOf, type Writer } from './artifact-store.js';
import { FdFileAccess, PathFileAccess, readWhereItIs, tooLarge, type PathFs, type StatsLike } from './file-access.js';
import { applyPatch } from './patch-engine.js';
import { compareExplorer, WorkspaceWalk, type Entry } from './workspace-walk.js';
import { firstMatches, matchesIn, planSearch, searchEntries, searchRipgrep } from './workspace-search.js';

/** Files larger than this are never read whole. */
export const MAX_TEXT_FILE_BYTES = 50 * 1024 * 1024;
/** Search results' files checked again (synchronously, on Linux) before the event loop gets a turn. */
const CHECKS_PER_TURN = 32;
/** A NUL byte in this many leading bytes marks a file as binary for readText. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** The part of `fs.promises` WorkspaceFiles needs; node:fs and memfs both provide it. */
export interface WorkspaceFs extends FsLike {
  lstat(path: string): Promise<StatsLike>;
  stat(path: string): Promise<StatsLike>;
  readdir(path: string): Promise<unknown[]>;
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: string, options: { flag: string }): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

export interface WorkspaceFilesOptions {
  /** `fs.promises`, or an fs module that has it (node:fs, `createFsFromVolume(vol)`). */
  fs: WorkspaceFs | { promises: WorkspaceFs };
  /** Absolute path of the workspace root (POSIX for a memfs volume). */
  root: string;
  /** 'disk': a real directory, searched with ripgrep. 'memory': a memfs volume, searched in process. */
  kind: 'disk' | 'memory';
  /** Defaults to true on macOS and Windows disks, false otherwise. */
  caseInsensitive?: boolean;
  /** Which paths agents may not read (sensitive) or write (protected); defaults to the built-in lists. */
  policy?: FilePolicy;
  /** Where each write is logged (the workspace's .openspace/audit.ndjson). */
  audit?: AuditSink;
  /** Reach files by path (lstat checks) even where the /proc/self/fd walk is available; for tests. */
  byPath?: boolean;
  /**
   * Watch the files read or written for edits made outside (a real directory only): their new
   * content is kept as a snapshot and onFileWritten fires. Stop with dispose().
   */
  watch?: boolean;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Lines as editors count them (and file.read's totalLines): a final line break does not start another line. */
function countLines(text: string): number {
  let breaks = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) breaks++;
  return text === '' || text.endsWith('\n') ? breaks : breaks + 1;
}

function writerOf(options: WriteOptions, tool: string): Writer {
  return { tool: options.tool ?? tool, session: options.context?.sessionId, client: options.context?.clientName };
}

const describe = (path: string) => (path === '' || path === '.' ? 'the workspace root' : JSON.stringify(path));

function notFound(path: string): ToolError {
  return new ToolError(
    'FILE_NOT_FOUND',
    `No file or directory exists at ${describe(path)}. Use openspace.file.list to see what the workspace holds.`,
  );
}

export class WorkspaceFiles implements WorkspacePort {
  private readonly listeners = new Set<(path: string, text: string) => void>();
  private readonly p: nodePath.PlatformPath;
  private readonly walker: WorkspaceWalk;
  /** A real directory on Linux: search results are checked by the files' kernel paths (readWhereItIs). */
  private readonly fdAccess: boolean;

  private constructor(
    private readonly fs: WorkspaceFs,
    readonly guard: PathGuard,
    readonly kind: 'disk' | 'memory',
    readonly policy: FilePolicy,
    /** The ArtifactStore every read and write of a file's content goes through. */
    readonly store: ArtifactStore,
  ) {
    this.p = kind === 'memory' ? nodePath.posix : nodePath;
    this.walker = new WorkspaceWalk(fs, this.p, () => this.root);
    this.fdAccess = kind === 'disk' && FdFileAccess.available();
  }

  static async create(options: WorkspaceFilesOptions): Promise<WorkspaceFiles> {
    const fs = 'promises' in options.fs ? options.fs.promises : options.fs;
    const p = options.kind === 'memory' ? nodePath.posix : nodePath;
    const caseInsensitive =
      options.caseInsensitive ?? (options.kind === 'disk' && (process.platform === 'darwin' || process.platform === 'win32'));
    const guard = await PathGuard.create(options.kind === 'disk' ? NAMING_CALLS : fs, options.root, { path: p, caseInsensitive });
    const rootReal = await guard.realRoot();
    const access =
      options.kind === 'disk' && !options.byPath && FdFileAccess.available()
        ? new FdFileAccess(rootReal)
        : new PathFileAccess(fs as unknown as PathFs, rootReal, p);
    const watchRoot = options.watch && options.kind === 'disk' ? rootReal : undefined;
    const store = await ArtifactStore.open(access, { audit: options.audit, caseInsensitive, watchRoot });
    const files = new WorkspaceFiles(fs, guard, options.kind, options.policy ?? createFilePolicy(), store);
    store.onOutsideChange(({ display, data }) => files.fireWritten(display, Buffer.from(data).toString('utf8')));
    return files;
  }

  /** Stop watching files (see the watch option). */
  async dispose(): Promise<void> {
    await this.store.close();
  }

  /** The workspace root, absolute. */
  get root(): string {
    return this.guard.root;
  }

  rootPath(): string {
    return this.root;
  }

  async resolve(path: string): Promise<string> {
    return (await this.guard.resolve(path)).relative;
  }

  async stat(path: string): Promise<FileStat> {
    const { real } = await this.guard.resolve(path);
    const st = await this.statOrNotFound(real, path);
    return {
      type: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other',
      size: Number(st.size),
    };
  }

  async readText(path: string): Promise<{ text: string; size: number; version: string }> {
    const resolved = await this.guard.resolve(path);
    await this.refuseSensitive(resolved, path);
    const file = await this.readExisting(resolved, path);
    this.store.track(await this.physicalRel(resolved, path), resolved.relative, file.version);
    const data = Buffer.from(file.data);
    if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      throw new ToolError('BINARY_FILE', `${describe(path)} holds binary data, not text.`);
    }
    return { text: data.toString('utf8'), size: data.length, version: file.version };
  }

  async writeText(
    path: string,
    text: string,
    options: WriteTextOptions = {},
  ): Promise<{ bytes: number; created: boolean; version: string }> {
    const resolved = await this.guard.resolve(path);
    await this.refuseProtected(resolved, path);
    const result = await this.store
      .write({
        rel: await this.physicalRel(resolved, path),
        display: resolved.relative,
        writer: writerOf(options, 'openspace.file.write'),
        baseVersion: options.baseVersion,
        produce: () => Buffer.from(text, 'utf8'),
      })
      .catch((err: unknown) => {
        throw this.writeError(err, path);
      });
    this.fireWritten(resolved.relative, text);
    return { bytes: result.bytes, created: result.created, version: result.version };
  }

  async patch(
    path: string,
    request: { baseVersion: string; operations: PatchOperation[] },
    options: WriteOptions = {},
  ): Promise<{ version: string; bytes: number; totalLines: number }> {
    const resolved = await this.guard.resolve(path);
    await this.refuseProtected(resolved, path);
    // A patch's outcome (a replace_text anchor found or not) would tell what the file holds.
    await this.refuseSensitive(resolved, path);
    let text = '';
    const result = await this.store
      .write({
        rel: await this.physicalRel(resolved, path),
        display: resolved.relative,
        writer: writerOf(options, 'openspace.file.patch'),
        mustExist: true,
        produce: (current) => {
          if (!current) {
            throw request.baseVersion === undefined ? notFound(path) : conflict(resolved.relative, request.baseVersion, null);
          }
          const version = versionOf(current.data);
          if (version !== request.baseVersion) throw conflict(resolved.relative, request.baseVersion, version);
          const data = Buffer.from(current.data);
          if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
            throw new ToolError('BINARY_FILE', `${describe(path)} holds binary data, not text; it cannot be patched.`);
          }
          text = applyPatch(data.toString('utf8'), request.operations);
          return Buffer.from(text, 'utf8');
        },
      })
      .catch((err: unknown) => {
        if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') throw conflict(resolved.relative, request.baseVersion, null);
        throw this.writeError(err, path);
      });
    this.fireWritten(resolved.relative, text);
    return { version: result.version, bytes: result.bytes, totalLines: countLines(text) };
  }

  async snapshots(path: string): Promise<{ currentVersion: string | null; snapshots: SnapshotInfo[] }> {
    const resolved = await this.guard.resolve(path);
    // Versions are hashes of the content: a sensitive file's would let guesses be confirmed.
    await this.refuseSensitive(resolved, path);
    const rel = await this.physicalRel(resolved, path);
    const current = resolved.real === undefined ? undefined : await this.store.read(rel).catch(() => undefined);
    return { currentVersion: current?.version ?? null, snapshots: await this.store.snapshots(rel) };
  }

  async restore(
    path: string,
    request: { version: string; baseVersion?: string },
    options: WriteOptions = {},
  ): Promise<{ version: string; bytes: number }> {
    const resolved = await this.guard.resolve(path);
    await this.refuseProtected(resolved, path);
    await this.refuseSensitive(resolved, path);
    const rel = await this.physicalRel(resolved, path);
    const data = await this.store.snapshotContent(rel, resolved.relative, request.version);
    const result = await this.store
      .write({
        rel,
        display: resolved.relative,
        writer: writerOf(options, 'openspace.file.restore'),
        baseVersion: request.baseVersion,
        produce: () => data,
      })
      .catch((err: unknown) => {
        throw this.writeError(err, path);
      });
    this.fireWritten(resolved.relative, Buffer.from(data).toString('utf8'));
    return { version: result.version, bytes: result.bytes };
  }

  async list(path: string, options: { recursive: boolean; limit: number }): Promise<{ files: FileInfo[]; truncated: boolean }> {
    const start = await this.directory(path);
    const limit = Math.max(0, options.limit);
    const files: FileInfo[] = [];
    const add = (e: Entry) => {
      files.push({
        path: e.rel,
        name: e.name,
        type: e.type === 'other' ? 'file' : e.type,
        ...(e.type === 'file' ? { size: e.size } : {}),
        ...(this.policy.isSensitive(e.rel) !== undefined ? { sensitive: true } : {}),
      });
      return files.length > limit;
    };
    if (!options.recursive) {
      const entries = (await this.walker.readEntries(start.abs, start.rel)).filter((e) => e.type !== 'other');
      for (const e of entries.sort(compareExplorer)) if (add(e)) break;
    } else {
      const levels = await this.walker.ancestorLevels(start.rel);
      if (levels !== undefined) {
        for await (const e of this.walker.walk(start, levels, 'explorer')) if (add(e)) break;
      }
    }
    const truncated = files.length > limit;
    return { files: files.slice(0, limit), truncated };
  }

  async search(options: SearchOptions): Promise<{ matches: SearchMatch[]; truncated: boolean }> {
    const plan = planSearch(options);
    const start = await this.directory(options.path ?? '');
    // Sensitive files are never searched, so their contents never reach an agent.
    const accept = (rel: string) => plan.matchesGlobs(rel) && this.policy.isSensitive(rel) === undefined;
    const levels = await this.walker.ancestorLevels(start.rel);
    if (levels === undefined) return { matches: [], truncated: false };
    const found =
      this.kind === 'disk'
        ? await searchRipgrep({
            root: this.root,
            start: start.rel,
            gitignoresAbove: levels.filter((l) => l.base !== start.rel),
            maxFileBytes: MAX_TEXT_FILE_BYTES,
            options,
            plan,
            accept,
          })
        : await searchEntries(this.walker.walk(start, levels, 'path'), (abs) => this.fs.readFile(abs), plan, accept);
    const { matches } = firstMatches(await this.confirmedMatches(found), plan.maxResults);
    // The engine stopped early when it found more than asked for, whatever the check dropped.
    return { matches, truncated: found.length > plan.maxResults };
  }

  /**
   * The matches whose file, checked again after the engine read it, is a regular file inside the
   * workspace where it really is, not sensitive there nor by the path shown, and holds each match's
   * line as read now without following a link. A directory swapped for a symlink while ripgrep
   * walked it (ripgrep opens paths, and follows a link given as its start) thus cannot hand an agent
   * the lines of a file outside; swapped back before this check, the lines read outside are not the
   * ones inside, and are dropped too.
   */
  private async confirmedMatches(matches: SearchMatch[]): Promise<SearchMatch[]> {
    const byPath = new Map<string, SearchMatch[]>();
    for (const m of matches) {
      const same = byPath.get(m.path);
      if (same) same.push(m);
      else byPath.set(m.path, [m]);
    }
    const rootReal = await this.guard.realRoot();
    const confirmed: SearchMatch[] = [];
    let checked = 0;
    for (const [path, found] of byPath) {
      // Linux: a few system calls per file, a batch at a time between turns of the event loop.
      if (this.fdAccess && ++checked % CHECKS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const text = this.fdAccess ? this.textWhereItIs(rootReal, path) : await this.textThroughGuard(path);
      if (text !== undefined) confirmed.push(...matchesIn(text, found));
    }
    return confirmed;
  }

  /** A search result's file as it is now (Linux), or undefined when it is not a file inside the workspace that agents may read. */
  private textWhereItIs(rootReal: string, path: string): string | undefined {
    const file = readWhereItIs(this.p.join(this.root, ...path.split('/')), MAX_TEXT_FILE_BYTES);
    const physical = file && this.guard.within(rootReal, file.real);
    if (!file || !physical || this.policy.isSensitive(path) !== undefined) return undefined;
    if (physical !== path && this.policy.isSensitive(physical) !== undefined) return undefined;
    return file.data.toString('utf8');
  }

  /** The same through the path guard and the store (a memfs volume, or a system without /proc/self/fd). */
  private async textThroughGuard(path: string): Promise<string | undefined> {
    try {
      const resolved = await this.guard.resolve(path);
      if ((await this.policyMatch(resolved, (p) => this.policy.isSensitive(p))) !== undefined) return undefined;
      const file = await this.store.read(await this.physicalRel(resolved, path), MAX_TEXT_FILE_BYTES);
      return file && Buffer.from(file.data).toString('utf8');
    } catch {
      // Outside, a link where a directory was, gone, too large: nothing of it is shown.
      return undefined;
    }
  }

  onFileWritten(listener: (path: string, text: string) => void): Disposable {
    const entry = (path: string, text: string) => listener(path, text);
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  }

  // ---------------------------------------------------------------------------------------------

  private fireWritten(path: string, text: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(path, text);
      } catch {
        // A failing listener must not turn a successful write into a failure.
      }
    }
  }

  private async refuseSensitive(resolved: ResolvedPath, path: string): Promise<void> {
    const pattern = await this.policyMatch(resolved, (p) => this.policy.isSensitive(p));
    if (pattern !== undefined) {
      throw new ToolError(
        'SENSITIVE_FILE',
        `${describe(path)} matches the sensitive-file pattern "${pattern}" (keys, credentials, .env, .git); agents may not read it. Ask the person for what you need.`,
        { pattern },
      );
    }
  }

  private async refuseProtected(resolved: ResolvedPath, path: string): Promise<void> {
    const pattern = await this.policyMatch(resolved, (p) => this.policy.isProtected(p));
    if (pattern !== undefined) {
      throw new ToolError(
        'PROTECTED_PATH',
        `${describe(path)} is protected by the pattern "${pattern}" (.git, node_modules, .theia, .openspace, and files that run as code later: .vscode, .husky, .github/workflows, .devcontainer, .envrc, .npmrc); agents may not write there. Ask the person to make this change.`,
        { pattern },
      );
    }
  }

  /** Where a checked path physically is, relative to the real root: what the store opens, link by link refused. */
  private async physicalRel(resolved: ResolvedPath, path: string): Promise<string> {
    const rel = this.guard.within(await this.guard.realRoot(), resolved.real ?? resolved.physical);
    if (rel === undefined) throw new ToolError('PATH_OUTSIDE_WORKSPACE', `Path ${JSON.stringify(path)} leads outside the workspace.`);
    if (rel === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
    return rel;
  }

  private async readExisting(resolved: ResolvedPath, path: string) {
    if (resolved.real === undefined) throw notFound(path);
    const rel = await this.physicalRel(resolved, path).catch((err: unknown) => {
      if (err instanceof ToolError && err.code === 'NOT_A_FILE')
        throw new ToolError('NOT_A_FILE', `${describe(path)} is a directory; use openspace.file.list to see its contents.`);
      throw err;
    });
    let file;
    try {
      file = await this.store.read(rel, MAX_TEXT_FILE_BYTES);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'NOT_A_FILE') {
        const st = await this.fs.stat(resolved.real).catch(() => undefined);
        throw new ToolError(
          'NOT_A_FILE',
          `${describe(path)} is ${st?.isDirectory() ? 'a directory' : 'not a regular file'}; use openspace.file.list to see its contents.`,
        );
      }
      if (err instanceof ToolError && err.code === 'FILE_TOO_LARGE') {
        throw tooLarge(resolved.relative, Number((await this.fs.stat(resolved.real).catch(() => ({ size: 0 }))).size), MAX_TEXT_FILE_BYTES);
      }
      if (err instanceof ToolError && err.code === 'NOT_A_DIRECTORY') throw notFound(path);
      throw err;
    }
    if (!file) throw notFound(path);
    return file;
  }

  private writeError(err: unknown, path: string): unknown {
    if (err instanceof ToolError) {
      if (err.code === 'NOT_A_FILE') {
        return new ToolError('NOT_A_FILE', `${describe(path)} is a directory or not a regular file; only files can be written.`);
      }
      if (err.code === 'NOT_A_DIRECTORY') {
        return new ToolError('NOT_A_DIRECTORY', `Cannot create ${describe(path)}: one of its parent directories is a file.`);
      }
      return err;
    }
    const code = errorCode(err);
    if (code === 'EISDIR') return new ToolError('NOT_A_FILE', `${describe(path)} is a directory.`);
    if (code === 'ENOTDIR')
      return new ToolError('NOT_A_DIRECTORY', `Cannot create ${describe(path)}: one of its parent directories is a file.`);
    return err;
  }

  /**
   * The policy verdict for a path as given and for where it really leads (a symlink named
   * notes.txt pointing at .env is as sensitive as .env).
   */
  private async policyMatch(resolved: { relative: string; physical: string }, match: (rel: string) => string | undefined) {
    const direct = match(resolved.relative);
    if (direct !== undefined) return direct;
    const physical = this.guard.within(await this.guard.realRoot(), resolved.physical);
    return physical === undefined || physical === resolved.relative ? undefined : match(physical);
  }

  private async statOrNotFound(real: string | undefined, path: string): Promise<StatsLike> {
    if (real === undefined) throw notFound(path);
    try {
      return await this.fs.stat(real);
    } catch (err) {
      if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') throw notFound(path);
      throw err;
    }
  }

  /** Resolve a path that must be an existing directory. */
  private async directory(path: string): Promise<{ rel: string; abs: string }> {
    const { relative, real } = await this.guard.resolve(path === '' ? '.' : path);
    const st = await this.statOrNotFound(real, path);
    if (!st.isDirectory()) {
      throw new ToolError('NOT_A_DIRECTORY', `${describe(path)} is a file, not a directory; read it with openspace.file.read.`);
    }
    return { rel: relative, abs: real! };
  }
}
