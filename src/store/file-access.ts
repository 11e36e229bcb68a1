/**
 * Open what was validated (issue 4): after the PathGuard accepted a path, the file is reached without
 * following any symbolic link, so a link swapped in between the check and the use cannot redirect a
 * read or a write.
 *
 * Paths here are *physical* paths relative to realpath(root): the guard's answer with every symlink
 * already resolved, so none of their components should be a link. Two implementations:
 *
 * - FdFileAccess (Linux, a real directory): walks the path from the root one directory at a time with
 *   open(O_DIRECTORY | O_NOFOLLOW) through `/proc/self/fd/<fd>/<name>` (Node has no openat), so each
 *   step is relative to the directory opened before it; files are opened with O_NOFOLLOW in the
 *   directory reached, temporary files created there with O_EXCL | O_NOFOLLOW and renamed within it.
 *   A link met anywhere fails the call. Before a rename, and after opening a file to read, the
 *   directory's identity is checked (its kernel path must still be the expected one inside the root),
 *   so a directory moved out of the workspace meanwhile is not written into or read from.
 * - PathFileAccess (a memfs volume; other platforms): the same walk by lstat on paths. Check and use
 *   are separate there; an in-memory volume has no one else to race with.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants as FS,
  existsSync,
  fchmodSync,
  fstatSync,
  fsync as fsyncCallback,
  lstatSync,
  mkdirSync,
  openSync,
  read as readCallback,
  readlinkSync,
  readSync,
  renameSync,
  unlinkSync,
  write as writeCallback,
  writeSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import nodePath from 'node:path';
import { promisify } from 'node:util';
import { ToolError } from '../contract/result.js';

/** Suffix of the store's temporary files: `.<name>.<12 hex>.openspace-tmp` next to the file they replace. */
export const TEMP_SUFFIX = '.openspace-tmp';
export const TEMP_FILE = /^\..*\.[0-9a-f]{12}\.openspace-tmp$/s;

export function tempName(name: string): string {
  // Keep within NAME_MAX (255 bytes) whatever the target's name.
  const base = Buffer.byteLength(name) > 200 ? name.slice(0, 60) : name;
  return `.${base}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

export interface DirHandle {
  /** The directory's physical path relative to the root ('' is the root). */
  readonly rel: string;
  close(): Promise<void>;
}

export interface ExistingFile {
  data: Buffer;
  /** Permission bits. */
  mode: number;
}

export interface FileAccess {
  /** Open directory `rel`, following no link; with create, make missing directories on the way. Throws FILE_NOT_FOUND, NOT_A_DIRECTORY. */
  openDir(rel: string, options: { create: boolean }): Promise<DirHandle>;
  /** A regular file's bytes and mode, the name not followed if it is a link; undefined when there is none. Throws NOT_A_FILE, FILE_TOO_LARGE. */
  read(dir: DirHandle, name: string, maxBytes: number): Promise<ExistingFile | undefined>;
  /** Replace (or create) `name` atomically: temporary file, written (and fsynced when durable), renamed over it, directory fsynced. */
  replace(dir: DirHandle, name: string, data: Uint8Array, options: { mode?: number; durable: boolean }): Promise<void>;
  append(dir: DirHandle, name: string, data: string): Promise<void>;
  list(dir: DirHandle): Promise<string[]>;
  /** Remove a file; no error when it is gone. */
  remove(dir: DirHandle, name: string): Promise<void>;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const shown = (rel: string) => (rel === '' ? 'the workspace root' : JSON.stringify(rel));

export function swappedLink(rel: string): ToolError {
  return new ToolError(
    'PATH_OUTSIDE_WORKSPACE',
    `${shown(rel)} changed while it was being used: a symbolic link or a moved directory appeared where the checked path was. ` +
      'Nothing was read or written; retry once the workspace is still.',
  );
}

function notADirectory(rel: string): ToolError {
  return new ToolError('NOT_A_DIRECTORY', `Cannot use ${shown(rel)} as a directory: it is a file.`);
}

function notAFile(rel: string): ToolError {
  return new ToolError('NOT_A_FILE', `${shown(rel)} is not a regular file.`);
}

export function tooLarge(rel: string, size: number, max: number): ToolError {
  return new ToolError('FILE_TOO_LARGE', `${shown(rel)} is ${size} bytes, over the ${max}-byte limit for text files.`);
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

const DIR_FLAGS = FS.O_RDONLY | FS.O_DIRECTORY | FS.O_NOFOLLOW;
/** Files up to this size are read and written in one synchronous call; larger ones in the thread pool. */
const SYNC_BYTES = 256 * 1024;

const fsyncFd = promisify(fsyncCallback);
const readFd = promisify(readCallback);
const writeFd = promisify(writeCallback);

class FdDir implements DirHandle {
  constructor(
    readonly rel: string,
    readonly fd: number,
  ) {}
  /** A path the kernel resolves to this very directory, whatever happens to its name. */
  get at(): string {
    return `/proc/self/fd/${this.fd}`;
  }
  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

/** The first `size` bytes of an open file (fewer if it shrank meanwhile; a file that grew is cut there), read at once. */
function readSyncUpTo(fd: number, size: number): Buffer {
  const data = Buffer.allocUnsafe(size);
  let length = 0;
  for (let n = -1; n !== 0 && length < size; length += n) n = readSync(fd, data, length, size - length, length);
  return data.subarray(0, length);
}

/** The same, in the thread pool when the file is over SYNC_BYTES. */
async function readUpTo(fd: number, size: number): Promise<Buffer> {
  if (size <= SYNC_BYTES) return readSyncUpTo(fd, size);
  const data = Buffer.allocUnsafe(size);
  let length = 0;
  for (let n = -1; n !== 0 && length < size; length += n) n = (await readFd(fd, data, length, size - length, length)).bytesRead;
  return data.subarray(0, length);
}

async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  for (let done = 0; done < data.length;) {
    done += data.length <= SYNC_BYTES ? writeSync(fd, data, done) : (await writeFd(fd, data, done)).bytesWritten;
  }
}

let fdAccessAvailable: boolean | undefined;

/**
 * Linux: every step relative to a directory already opened, nothing followed. The system calls that
 * only name things (open, stat, readlink, close) are made synchronously: each takes some
 * microseconds, where a trip to the thread pool and back takes tens, and a write makes some twenty
 * of them. The fsyncs, the renames of files not synced, and the bytes of files over 256 KiB go to
 * the thread pool.
 */
export class FdFileAccess implements FileAccess {
  constructor(private readonly rootReal: string) {}

  static available(): boolean {
    fdAccessAvailable ??= process.platform === 'linux' && existsSync('/proc/self/fd');
    return fdAccessAvailable;
  }

  async openDir(rel: string, options: { create: boolean }): Promise<DirHandle> {
    let dir = new FdDir('', openSync(this.rootReal, DIR_FLAGS));
    try {
      for (const part of rel.split('/').filter(Boolean)) {
        const at = `${dir.at}/${part}`;
        const next = join(dir.rel, part);
        let fd: number;
        try {
          fd = openSync(at, DIR_FLAGS);
        } catch (err) {
          if (errorCode(err) !== 'ENOENT' || !options.create) throw this.explain(err, at, next);
          try {
            mkdirSync(at);
          } catch (e) {
            if (errorCode(e) !== 'EEXIST') throw e;
          }
          try {
            fd = openSync(at, DIR_FLAGS);
          } catch (e) {
            throw this.explain(e, at, next);
          }
        }
        closeSync(dir.fd);
        dir = new FdDir(next, fd);
      }
      return dir;
    } catch (err) {
      closeSync(dir.fd);
      throw err;
    }
  }

  async read(dir: DirHandle, name: string, maxBytes: number): Promise<ExistingFile | undefined> {
    const d = dir as FdDir;
    const rel = join(d.rel, name);
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO put there must not hang the call; it is refused below as not a regular file.
      fd = openSync(`${d.at}/${name}`, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return undefined;
      throw this.explain(err, `${d.at}/${name}`, rel);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw notAFile(rel);
      if (st.size > maxBytes) throw tooLarge(rel, st.size, maxBytes);
      this.verify(d);
      return { data: await readUpTo(fd, st.size), mode: st.mode & 0o7777 };
    } finally {
      closeSync(fd);
    }
  }

  async replace(dir: DirHandle, name: string, data: Uint8Array, options: { mode?: number; durable: boolean }): Promise<void> {
    const d = dir as FdDir;
    const temp = `${d.at}/${tempName(name)}`;
    const fd = openSync(temp, FS.O_WRONLY | FS.O_CREAT | FS.O_EXCL | FS.O_NOFOLLOW, options.mode ?? 0o666);
    try {
      try {
        await writeAll(fd, data);
        if (options.mode !== undefined) fchmodSync(fd, options.mode);
        if (options.durable) await fsyncFd(fd);
      } finally {
        closeSync(fd);
      }
      this.verify(d);
      // A durable file's data is on disk already: its rename only names it, and is made at once. Any
      // other rename is made in the thread pool: replacing a file makes ext4 start writing the new
      // one's data out.
      if (options.durable) renameSync(temp, `${d.at}/${name}`);
      else await fsp.rename(temp, `${d.at}/${name}`);
    } catch (err) {
      try {
        unlinkSync(temp);
      } catch {
        // not made, or gone already
      }
      if (errorCode(err) === 'EISDIR' || errorCode(err) === 'ENOTEMPTY') throw notAFile(join(d.rel, name));
      throw err;
    }
    if (options.durable) await fsyncFd(d.fd);
  }

  async append(dir: DirHandle, name: string, data: string): Promise<void> {
    const fd = openSync(`${(dir as FdDir).at}/${name}`, FS.O_WRONLY | FS.O_APPEND | FS.O_CREAT | FS.O_NOFOLLOW, 0o644);
    try {
      await writeAll(fd, Buffer.from(data));
    } finally {
      closeSync(fd);
    }
  }

  async list(dir: DirHandle): Promise<string[]> {
    return fsp.readdir((dir as FdDir).at);
  }

  async remove(dir: DirHandle, name: string): Promise<void> {
    try {
      unlinkSync(`${(dir as FdDir).at}/${name}`);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') throw err;
    }
  }

  /** The directory is still where the walk found it: inside the root, at its physical path. */
  private verify(dir: FdDir): void {
    const actual = readlinkSync(dir.at);
    const expected = dir.rel === '' ? this.rootReal : nodePath.join(this.rootReal, ...dir.rel.split('/'));
    if (actual !== expected) throw swappedLink(dir.rel);
  }

  private explain(err: unknown, at: string, rel: string): unknown {
    const code = errorCode(err);
    if (code === 'ENOENT') return new ToolError('FILE_NOT_FOUND', `No file or directory exists at ${shown(rel)}.`);
    // A socket cannot be opened (ENXIO): it is not a regular file either.
    if (code === 'ENXIO') return notAFile(rel);
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      let link = false;
      try {
        link = lstatSync(at).isSymbolicLink();
      } catch {
        // gone meanwhile
      }
      if (code === 'ELOOP' || link) return swappedLink(rel);
      return notADirectory(rel);
    }
    return err;
  }
}

/**
 * Linux: the bytes of the file `abs` names now, and where it really is, when that is a regular file
 * of at most maxBytes; undefined otherwise (gone, a link as its last name, not regular, too large).
 * What is read is the file opened, and `real` is that file's kernel path (/proc/self/fd), so links
 * swapped in on the way cannot make the bytes come from elsewhere than `real`. Synchronous: a few
 * system calls, cheaper than as many trips to the thread pool when checking thousands of search
 * results (the caller yields between batches).
 */
export function readWhereItIs(abs: string, maxBytes: number): { data: Buffer; real: string } | undefined {
  let fd: number;
  try {
    fd = openSync(abs, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    return { data: readSyncUpTo(fd, st.size), real };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** What the store reads of a file's stats (node:fs and memfs alike). */
export interface StatsLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  size: number | bigint;
  mode: number | bigint;
}

/** What PathFileAccess needs of `fs.promises`; memfs and node:fs both have it. */
export interface PathFs {
  lstat(path: string): Promise<StatsLike>;
  readFile(path: string): Promise<Buffer | Uint8Array | string>;
  writeFile(path: string, data: Uint8Array, options: { flag: string; mode?: number }): Promise<void>;
  appendFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  readdir(path: string): Promise<unknown[]>;
}

class PathDir implements DirHandle {
  constructor(
    readonly rel: string,
    readonly abs: string,
  ) {}
  async close(): Promise<void> {}
}

/** By path, each component checked with lstat (a memfs volume; platforms without /proc/self/fd). */
export class PathFileAccess implements FileAccess {
  constructor(
    private readonly fs: PathFs,
    private readonly rootReal: string,
    private readonly p: nodePath.PlatformPath,
  ) {}

  async openDir(rel: string, options: { create: boolean }): Promise<DirHandle> {
    let abs = this.rootReal;
    let at = '';
    for (const part of rel.split('/').filter(Boolean)) {
      abs = this.p.join(abs, part);
      at = join(at, part);
      let st: StatsLike | undefined;
      try {
        st = await this.fs.lstat(abs);
      } catch (err) {
        if (errorCode(err) !== 'ENOENT') throw err;
      }
      if (st === undefined) {
        if (!options.create) throw new ToolError('FILE_NOT_FOUND', `No file or directory exists at ${shown(at)}.`);
        await this.fs.mkdir(abs).catch((e: unknown) => {
          if (errorCode(e) !== 'EEXIST') throw e;
        });
        continue;
      }
      if (st.isSymbolicLink()) throw swappedLink(at);
      if (!st.isDirectory()) throw notADirectory(at);
    }
    return new PathDir(at, abs);
  }

  async read(dir: DirHandle, name: string, maxBytes: number): Promise<ExistingFile | undefined> {
    const abs = this.p.join((dir as PathDir).abs, name);
    const rel = join(dir.rel, name);
    let st: StatsLike;
    try {
      st = await this.fs.lstat(abs);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    if (st.isSymbolicLink()) throw swappedLink(rel);
    if (!st.isFile()) throw notAFile(rel);
    if (Number(st.size) > maxBytes) throw tooLarge(rel, Number(st.size), maxBytes);
    const data = await this.fs.readFile(abs);
    return { data: Buffer.isBuffer(data) ? data : Buffer.from(data as Uint8Array), mode: Number(st.mode) & 0o7777 };
  }

  async replace(dir: DirHandle, name: string, data: Uint8Array, options: { mode?: number; durable: boolean }): Promise<void> {
    const d = dir as PathDir;
    const temp = this.p.join(d.abs, tempName(name));
    try {
      await this.fs.writeFile(temp, data, { flag: 'wx' });
      if (options.mode !== undefined) await this.fs.chmod(temp, options.mode);
      await this.fs.rename(temp, this.p.join(d.abs, name));
    } catch (err) {
      await this.fs.unlink(temp).catch(() => {});
      if (errorCode(err) === 'EISDIR' || errorCode(err) === 'ENOTEMPTY') throw notAFile(join(d.rel, name));
      throw err;
    }
  }

  async append(dir: DirHandle, name: string, data: string): Promise<void> {
    await this.fs.appendFile(this.p.join((dir as PathDir).abs, name), data);
  }

  async list(dir: DirHandle): Promise<string[]> {
    return (await this.fs.readdir((dir as PathDir).abs)).map(String);
  }

  async remove(dir: DirHandle, name: string): Promise<void> {
    await this.fs.unlink(this.p.join((dir as PathDir).abs, name)).catch((err: unknown) => {
      if (errorCode(err) !== 'ENOENT') throw err;
    });
  }
}
