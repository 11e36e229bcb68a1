/**
 * ArtifactStore (TECHSPEC §6.9): every write an agent makes to a workspace file goes through here.
 *
 * - One queue per file (concurrency 1): writes, patches and restores of a file never interleave, and
 *   a patch's version check and its write happen with nothing in between from this process.
 * - Atomic replacement (FileAccess.replace): an exclusive temporary file with a random name in the
 *   same directory, written and fsynced, renamed over the target, the directory fsynced; reached
 *   without following links. Directories that held temporary files are noted in
 *   `.openspace/write-dirs` first, so leftovers of a crash are removed at the next start.
 * - Versions are content hashes (16 hex digits of SHA-256): any change of the bytes changes the
 *   version, whoever made it, and a patch compares the base version with a hash of the file read
 *   inside the queue, right before writing.
 * - Snapshots: the last 20 versions per file under `.openspace/snapshots/<key>/` (one file per
 *   version, named by it, and index.json, newest first). Before a write, content on disk that the
 *   ring does not have as its newest entry (the original, or an edit made outside) is kept too.
 *   They are kept once the write has answered, in a queue of their own per file (in write order);
 *   listing and restoring wait for it, the next write does not; close() lets it finish.
 * - Audit: one `{type:'write'}` line per write (path, version, bytes, sha256, session, client, tool).
 * - Outside edits: with `watchRoot`, a chokidar watcher follows the files the store has read or
 *   written (up to MAX_WATCHED); when one changes on disk and its hash differs from the version the
 *   store last saw, the new content goes into the ring as an "outside" version and listeners hear
 *   of it (the simulated IDE's editors reload). The hash check before each patch does not depend on
 *   the watcher: a change it has not reported yet still makes a stale patch conflict.
 */
import { createHash } from 'node:crypto';
import nodePath from 'node:path';
import type { FSWatcher } from 'chokidar';
import { MAX_SNAPSHOTS, type SnapshotInfo } from '../families/file/tools.js';
import { ToolError } from '../contract/index.js';
import type { AuditSink } from '../security/audit-log.js';
import { TEMP_FILE, type DirHandle, type ExistingFile, type FileAccess } from './file-access.js';

export const SNAPSHOT_DIR = '.openspace/snapshots';
/** Directories the store has made temporary files in, one per line; cleaned at start. */
export const WRITE_DIRS_FILE = '.openspace/write-dirs';
/** Queue keys of a file's snapshot work: apart from its writes, so a write does not wait for the last one's snapshots. */
const SNAPSHOT_QUEUE = '\0snapshots:';

/** Largest file the store reads whole (for a version, a patch, a snapshot). */
export const MAX_STORE_BYTES = 50 * 1024 * 1024;
/** At most this many files are watched for outside edits (the first seen). */
export const MAX_WATCHED = 2000;

export interface ArtifactStoreOptions {
  audit?: AuditSink;
  caseInsensitive?: boolean;
  /** The real root on disk: watch the files the store has seen for edits made outside it. */
  watchRoot?: string;
}

/** A change to a watched file made outside the store. */
export type OutsideChange = { rel: string; display: string; data: Uint8Array; version: string };

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function versionOf(data: Uint8Array): string {
  return sha256(data).slice(0, 16);
}

/** Who writes: for the audit line and the snapshot entry. */
export interface Writer {
  tool: string;
  session?: string;
  client?: string;
}

export interface WriteRequest {
  /** Physical path relative to the real root ('/'-separated). */
  rel: string;
  /** The path as the agent knows it (workspace-relative), for the audit line. */
  display: string;
  writer: Writer;
  /** Refuse with CONFLICT unless the file's current version is this. */
  baseVersion?: string;
  /** The file must exist already (a patch): missing directories are not created. */
  mustExist?: boolean;
  /** The new content from the current one (undefined when the file does not exist). */
  produce(current: ExistingFile | undefined): Uint8Array | Promise<Uint8Array>;
}

export interface WriteResult {
  version: string;
  bytes: number;
  created: boolean;
  data: Uint8Array;
}

interface SnapshotIndex {
  path: string;
  entries: SnapshotInfo[];
}

const split = (rel: string) => {
  const i = rel.lastIndexOf('/');
  return i < 0 ? { dir: '', name: rel } : { dir: rel.slice(0, i), name: rel.slice(i + 1) };
};

export function conflict(display: string, baseVersion: string, currentVersion: string | null): ToolError {
  const now = currentVersion === null ? 'no longer exists' : `is now at version ${currentVersion}`;
  return new ToolError(
    'CONFLICT',
    `${display} changed since version ${baseVersion}: it ${now}. Read it again (openspace.file.read), then redo your change against the new content.`,
    { currentVersion },
  );
}

export class ArtifactStore {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly journaled = new Set<string>();
  private readonly indexes = new Map<string, Promise<SnapshotIndex>>();
  private warned = false;
  /** Watched files by folded physical path: the version the store last saw. */
  private readonly tracked = new Map<string, { rel: string; display: string; version: string | null }>();
  private watcher: Promise<FSWatcher> | undefined;
  private closed = false;
  private readonly outsideListeners = new Set<(change: OutsideChange) => void>();

  private constructor(
    private readonly access: FileAccess,
    private readonly audit: AuditSink | undefined,
    private readonly fold: (rel: string) => string,
    private readonly watchRoot: string | undefined,
  ) {}

  /** Open the store and remove temporary files a crashed writer left behind. */
  static async open(access: FileAccess, options: ArtifactStoreOptions = {}): Promise<ArtifactStore> {
    const store = new ArtifactStore(access, options.audit, options.caseInsensitive ? (s) => s.toLowerCase() : (s) => s, options.watchRoot);
    await store.cleanLeftovers();
    return store;
  }

  /** Hear of edits made outside the store to files it watches. */
  onOutsideChange(listener: (change: OutsideChange) => void): () => void {
    this.outsideListeners.add(listener);
    return () => void this.outsideListeners.delete(listener);
  }

  /** Watch a file the store has seen at `version`, when watching is on. */
  track(rel: string, display: string, version: string | null): void {
    if (this.watchRoot === undefined || this.closed) return;
    const key = this.fold(rel);
    const known = this.tracked.get(key);
    if (known) {
      known.version = version;
      known.display = display;
      return;
    }
    if (this.tracked.size >= MAX_WATCHED) return;
    this.tracked.set(key, { rel, display, version });
    const abs = nodePath.join(this.watchRoot, ...rel.split('/'));
    void this.startWatcher().then(
      (w) => w.add(abs),
      () => undefined,
    );
  }

  /** Stop watching, and let the writes and snapshots under way finish. */
  async close(): Promise<void> {
    this.closed = true;
    const watcher = this.watcher;
    this.watcher = undefined;
    if (watcher) await (await watcher).close();
    await this.idle();
  }

  /** Read a file (undefined when it does not exist), following no link. */
  async read(rel: string, maxBytes = MAX_STORE_BYTES): Promise<(ExistingFile & { version: string }) | undefined> {
    const { dir, name } = split(rel);
    let handle: DirHandle;
    try {
      handle = await this.access.openDir(dir, { create: false });
    } catch (err) {
      if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') return undefined;
      throw err;
    }
    try {
      const file = await this.access.read(handle, name, maxBytes);
      return file && { ...file, version: versionOf(file.data) };
    } finally {
      await handle.close();
    }
  }

  /**
   * Write through the file's queue: check the base version, produce, replace atomically, audit. The
   * answer comes once the file is replaced; its snapshots are kept afterwards in the file's snapshot
   * queue (in write order), which listings and restores wait for, so the next write does not.
   */
  async write(request: WriteRequest): Promise<WriteResult> {
    const written = await this.enqueue(request.rel, async () => {
      const done = await this.writeNow(request);
      // Queued before the next write of the file can run, so snapshots keep the order of the writes;
      // begun once the answer is on its way.
      void this.enqueue(`${SNAPSHOT_QUEUE}${request.rel}`, () => new Promise((resolve) => setImmediate(resolve)).then(done.keep));
      return done;
    });
    return written.result;
  }

  /** Run `task` when every earlier task on the same key has finished. */
  private enqueue<T>(rel: string, task: () => Promise<T>): Promise<T> {
    const key = this.fold(rel);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  /** Resolves when every write and snapshot queued so far has finished. */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  /** The kept versions of a file, newest first. */
  async snapshots(rel: string): Promise<SnapshotInfo[]> {
    return this.enqueue(`${SNAPSHOT_QUEUE}${rel}`, async () => (await this.index(rel)).entries.map((e) => ({ ...e })));
  }

  /** The bytes of a kept version; SNAPSHOT_NOT_FOUND when the ring does not have it. */
  snapshotContent(rel: string, display: string, version: string): Promise<Uint8Array> {
    return this.enqueue(`${SNAPSHOT_QUEUE}${rel}`, () => this.snapshotContentNow(rel, display, version));
  }

  private async snapshotContentNow(rel: string, display: string, version: string): Promise<Uint8Array> {
    const index = await this.index(rel);
    const missing = () =>
      new ToolError(
        'SNAPSHOT_NOT_FOUND',
        `${display} has no kept version ${version}. Kept versions: ${index.entries.map((e) => e.version).join(', ') || 'none'} (openspace.file.snapshots lists them).`,
      );
    if (!index.entries.some((e) => e.version === version)) throw missing();
    const dir = await this.access.openDir(this.snapshotDir(rel), { create: false });
    try {
      const file = await this.access.read(dir, version, MAX_STORE_BYTES);
      // A snapshot is named by its content's hash: anything else is not that version.
      if (!file || versionOf(file.data) !== version) throw missing();
      return file.data;
    } finally {
      await dir.close();
    }
  }

  // ---------------------------------------------------------------------------------------------

  private async writeNow(request: WriteRequest): Promise<{ result: WriteResult; keep: () => Promise<void> }> {
    const { dir: dirRel, name } = split(request.rel);
    const dir = await this.access.openDir(dirRel, { create: !request.mustExist });
    let current: ExistingFile | undefined;
    let data: Uint8Array;
    try {
      current = await this.access.read(dir, name, MAX_STORE_BYTES);
      const currentVersion = current ? versionOf(current.data) : null;
      if (request.baseVersion !== undefined && request.baseVersion !== currentVersion) {
        throw conflict(request.display, request.baseVersion, currentVersion);
      }
      data = await request.produce(current);
      await this.journal(dirRel);
      await this.access.replace(dir, name, data, { mode: current?.mode, durable: true });
    } finally {
      await dir.close();
    }
    const hash = sha256(data);
    const version = hash.slice(0, 16);
    const time = new Date().toISOString();
    const { tool, session, client } = request.writer;
    this.track(request.rel, request.display, version);
    this.audit?.record({ type: 'write', time, path: request.display, version, bytes: data.length, sha256: hash, session, client, tool });
    const keep = () =>
      this.keepSnapshots(request, current, { version, time, bytes: data.length, source: tool, session, client }, data).catch(
        (err: unknown) => {
          // The write itself succeeded; a snapshot that could not be kept must not turn it into a failure.
          if (!this.warned) process.stderr.write(`openspace: could not keep a snapshot of ${request.display}: ${(err as Error).message}\n`);
          this.warned = true;
        },
      );
    return { result: { version, bytes: data.length, created: current === undefined, data }, keep };
  }

  private startWatcher(): Promise<FSWatcher> {
    this.watcher ??= import('chokidar').then(({ watch }) => {
      const watcher = watch([], { ignoreInitial: true, persistent: false });
      watcher.on('change', (abs: string) => void this.seenOutside(abs));
      watcher.on('add', (abs: string) => void this.seenOutside(abs));
      watcher.on('error', () => undefined);
      return watcher;
    });
    return this.watcher;
  }

  /** A watched file changed on disk: if not by the store, keep the new content as an outside version. */
  private async seenOutside(abs: string): Promise<void> {
    const rel = nodePath.relative(this.watchRoot!, abs).split(nodePath.sep).join('/');
    const entry = this.tracked.get(this.fold(rel));
    if (!entry || this.closed) return;
    const file = await this.enqueue(rel, async () => {
      const seen = await this.read(rel).catch(() => undefined);
      if (!seen || seen.version === entry.version) return undefined;
      entry.version = seen.version;
      return seen;
    }).catch(() => undefined);
    if (!file) return;
    const time = new Date().toISOString();
    await this.enqueue(`${SNAPSHOT_QUEUE}${rel}`, () =>
      this.keepSnapshots(
        { rel, display: entry.display, writer: { tool: 'outside' }, produce: () => file.data },
        undefined,
        { version: file.version, time, bytes: file.data.length, source: 'outside' },
        file.data,
      ),
    ).catch(() => undefined);
    const change = { rel, display: entry.display, data: file.data, version: file.version };
    for (const listener of [...this.outsideListeners]) {
      try {
        listener(change);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  private snapshotDir(rel: string): string {
    return `${SNAPSHOT_DIR}/${sha256(Buffer.from(this.fold(rel))).slice(0, 24)}`;
  }

  private index(rel: string): Promise<SnapshotIndex> {
    const dir = this.snapshotDir(rel);
    let index = this.indexes.get(dir);
    if (!index) {
      index = this.loadIndex(dir, rel);
      this.indexes.set(dir, index);
      index.catch(() => this.indexes.delete(dir));
    }
    return index;
  }

  private async loadIndex(dirRel: string, rel: string): Promise<SnapshotIndex> {
    let dir: DirHandle;
    try {
      dir = await this.access.openDir(dirRel, { create: false });
    } catch (err) {
      if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') return { path: rel, entries: [] };
      throw err;
    }
    try {
      const file = await this.access.read(dir, 'index.json', 1024 * 1024);
      if (!file) return { path: rel, entries: [] };
      const parsed = JSON.parse(Buffer.from(file.data).toString('utf8')) as SnapshotIndex;
      return { path: rel, entries: Array.isArray(parsed.entries) ? parsed.entries : [] };
    } catch {
      return { path: rel, entries: [] }; // a damaged index starts the ring afresh
    } finally {
      await dir.close();
    }
  }

  private async keepSnapshots(
    request: WriteRequest,
    before: ExistingFile | undefined,
    entry: SnapshotInfo,
    data: Uint8Array,
  ): Promise<void> {
    const index = await this.index(request.rel);
    const dirRel = this.snapshotDir(request.rel);
    await this.journal(dirRel);
    const dir = await this.access.openDir(dirRel, { create: true });
    try {
      const add = async (e: SnapshotInfo, bytes: Uint8Array) => {
        const had = index.entries.some((x) => x.version === e.version);
        index.entries = [e, ...index.entries.filter((x) => x.version !== e.version)];
        if (!had) await this.access.replace(dir, e.version, bytes, { durable: false });
      };
      if (before) {
        const beforeVersion = versionOf(before.data);
        if (index.entries[0]?.version !== beforeVersion) {
          await add({ version: beforeVersion, time: entry.time, bytes: before.data.length, source: 'outside' }, before.data);
        }
      }
      await add(withoutUndefined(entry), data);
      const dropped = index.entries.slice(MAX_SNAPSHOTS);
      index.entries = index.entries.slice(0, MAX_SNAPSHOTS);
      await this.access.replace(dir, 'index.json', Buffer.from(JSON.stringify({ path: request.display, entries: index.entries })), {
        durable: false,
      });
      for (const e of dropped) await this.access.remove(dir, e.version);
    } finally {
      await dir.close();
    }
  }

  /** Note a directory before making a temporary file in it, so a crash's leftovers are found at the next start. */
  private async journal(dirRel: string): Promise<void> {
    if (this.journaled.has(dirRel)) return;
    const { dir, name } = split(WRITE_DIRS_FILE);
    const handle = await this.access.openDir(dir, { create: true });
    try {
      await this.access.append(handle, name, `${JSON.stringify(dirRel)}\n`);
    } finally {
      await handle.close();
    }
    this.journaled.add(dirRel);
  }

  private async cleanLeftovers(): Promise<void> {
    const { dir, name } = split(WRITE_DIRS_FILE);
    let handle: DirHandle;
    try {
      handle = await this.access.openDir(dir, { create: false });
    } catch {
      return; // no .openspace yet: nothing was ever written
    }
    try {
      const journal = await this.access.read(handle, name, 16 * 1024 * 1024).catch(() => undefined);
      if (!journal) return;
      const dirs = new Set<string>([dir]);
      for (const line of Buffer.from(journal.data).toString('utf8').split('\n')) {
        try {
          const rel = JSON.parse(line) as unknown;
          if (typeof rel === 'string') dirs.add(rel);
        } catch {
          // a line cut short by a crash
        }
      }
      for (const rel of dirs) {
        const target = await this.access.openDir(rel, { create: false }).catch(() => undefined);
        if (!target) continue;
        try {
          for (const entry of await this.access.list(target)) if (TEMP_FILE.test(entry)) await this.access.remove(target, entry);
        } finally {
          await target.close();
        }
      }
      await this.access.replace(handle, name, new Uint8Array(), { durable: false });
    } finally {
      await handle.close();
    }
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
