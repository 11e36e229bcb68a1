/**
 * What one test runner (Vitest, Jest, `node --test`, pytest) is to the test family: how to tell that a
 * workspace uses it, the command lines that list and run its tests with a reporter of ours, and how
 * to read that reporter's file back. Each runner is a file beside this one; src/families/test/
 * service.ts runs their command lines (in the agent sandbox) and does the rest. Node only.
 */
import { constants, promises } from 'node:fs';
import { join } from 'node:path';

export type RunnerName = 'vitest' | 'jest' | 'node' | 'pytest';

/** One test, as its runner names and places it. */
export interface TestCase {
  /** Stable across runs: `<path>::<suite…>::<name>` (pytest: its node ID). */
  id: string;
  name: string;
  /** The enclosing describe blocks (or pytest classes), outermost first. */
  suite: string[];
  /** Workspace-relative, with `/`. */
  path: string;
  /** 1-based line of the test's declaration, when the runner tells. */
  line?: number;
  runner: RunnerName;
}

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'todo';

export interface TestFailure {
  /** What the assertion or the error said (first lines; ANSI removed, secrets redacted later). */
  message: string;
  expected?: string;
  actual?: string;
  /** Where the failing assertion is, when it is in a workspace file: workspace-relative path, 1-based line. */
  path?: string;
  line?: number;
}

export interface TestOutcome extends TestCase {
  status: TestStatus;
  durationMs?: number;
  failure?: TestFailure;
}

/** A test file that could not be loaded or collected (a syntax error, a failing import): no test of it ran. */
export interface FileError {
  path: string;
  message: string;
  line?: number;
}

/** A command line to run in the workspace root: a program (absolute, or found on PATH) and its arguments, and variables to add. */
export interface Invocation {
  argv: string[];
  env?: Record<string, string>;
}

/** Where the reporter's files are: the same directory, seen by the runner's process (maybe inside the sandbox) and by OpenSpace. */
export interface Exchange {
  /** The directory as the runner's process sees it (absolute). The reporter writes here; the reporter's own files are here too. */
  inside: string;
  /** The same directory as OpenSpace reads it. */
  host: string;
}

/** How a runner's process ended, and what it printed (raw: not yet sanitized). */
export interface ProcessEnd {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** What a runner's reporter file says, read back. */
export interface RunnerReport {
  tests: TestOutcome[];
  errors: FileError[];
}

export interface Runner {
  name: RunnerName;
  /** Whether the workspace uses this runner (package.json, config files, test files); `root` absolute. */
  detect(root: string): Promise<boolean>;
  /** Why it cannot run here (not installed), or undefined when it can. */
  missing(root: string): Promise<string | undefined>;
  /** Whether a workspace-relative file is one of this runner's test files (by its name). */
  owns(path: string): boolean;
  /**
   * The files the runner writes into the exchange directory before a run (its reporter or plugin),
   * by file name: OpenSpace writes them first.
   */
  files(): Record<string, string>;
  /** List the tests of these files (workspace-relative; none: all) without running them. */
  discover(options: { root: string; paths: string[]; exchange: Exchange }): Invocation;
  /**
   * Run tests: `tests`, when given, exactly these (all found by discovery); else every test of
   * `paths` (none: all). `timeoutMs` is also each test's own limit where the runner has one.
   */
  run(options: { root: string; paths: string[]; tests?: TestCase[]; exchange: Exchange; timeoutMs: number }): Invocation;
  /** Read what the reporter wrote (the exchange's host directory) and the process's end into tests and file errors. */
  read(options: { root: string; exchange: Exchange; end: ProcessEnd; tests?: TestCase[] }): Promise<RunnerReport>;
}

/** The most of a reporter's file OpenSpace reads. */
const MAX_REPORT_BYTES = 64 * 2 ** 20;

/**
 * A file the reporter wrote into the exchange directory (undefined: none). The runner's process may
 * write anything there, a link to the person's files among it: only a regular file is read, not
 * through a symbolic link, and at most MAX_REPORT_BYTES of it.
 */
export async function readReport(exchange: Exchange, name: string): Promise<string | undefined> {
  let file;
  try {
    file = await promises.open(`${exchange.host}/${name}`, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`the test runner's report ${name} is not a file OpenSpace reads (${(err as NodeJS.ErrnoException).code})`, {
      cause: err,
    });
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new Error(`the test runner's report ${name} is not a regular file`);
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_REPORT_BYTES));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/** What the runners read of a package.json. */
export interface PackageJson {
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  scripts?: Record<string, unknown>;
  /** Jest's configuration, when it is kept there. */
  jest?: unknown;
}

/** The workspace's package.json, read once (undefined: none, or not a JSON object). */
export async function readPackageJson(root: string): Promise<PackageJson | undefined> {
  try {
    const pkg: unknown = JSON.parse(await promises.readFile(join(root, 'package.json'), 'utf8'));
    return pkg && typeof pkg === 'object' && !Array.isArray(pkg) ? (pkg as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** A test's ID: its file, its suites and its name, `::`-joined. */
export const testId = (path: string, suite: readonly string[], name: string): string => [path, ...suite, name].join('::');

/** The escape of a text for a regular expression that matches it exactly. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The first frame of a stack that is in the workspace (and not in node_modules): `file:line`, made
 * workspace-relative. Frames look like `at f (/ws/a.test.ts:12:5)`, `at /ws/a.test.ts:12:5` or
 * `file:///ws/a.test.mjs:12:5`; Python's `path:line:` lines are read by the pytest runner itself.
 */
export function workspaceFrame(stack: string | undefined, root: string, prefer?: string): { path: string; line: number } | undefined {
  if (!stack) return undefined;
  const frames: { path: string; line: number }[] = [];
  for (const match of stack.matchAll(/(?:\(|\bat |\s)(?:file:\/\/)?(\/[^\s():]+):(\d+)(?::\d+)?\)?/g)) {
    const file = decodeURIComponent(match[1]!);
    if (!file.startsWith(`${root}/`) || file.includes('/node_modules/')) continue;
    frames.push({ path: file.slice(root.length + 1), line: Number(match[2]) });
  }
  return (prefer && frames.find((f) => f.path === prefer)) || frames[0];
}

/** A workspace-relative path of an absolute one under the root (undefined outside it). */
export function relativeTo(root: string, file: string): string | undefined {
  const absolute = file.startsWith('file://') ? decodeURIComponent(new URL(file).pathname) : file;
  return absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : undefined;
}

/** A -t pattern no test name matches: the runner loads the files and runs no test. */
export const MATCH_NOTHING = '(?!)';

/** Escape sequences in what a runner printed. */
export const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * Vitest's and Jest's --testNamePattern for exactly these tests (both match it against the suites'
 * and the test's names joined by a space); none for no selection.
 */
export function exactNamesPattern(tests: readonly TestCase[] | undefined): string[] {
  if (!tests) return [];
  const names = [...new Set(tests.map((t) => escapeRegExp([...t.suite, t.name].join(' '))))];
  return [`--testNamePattern=${names.length ? `^(?:${names.join('|')})$` : MATCH_NOTHING}`];
}

/** A reporter's JSON lines that match its schema; lines that do not (cut short, foreign) are skipped. */
export function reportLines<T>(text: string, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }): T[] {
  return text.split('\n').flatMap((line) => {
    if (!line) return [];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return [];
    }
    const parsed = schema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Why a runner whose reporter never started failed: the end of what it printed, or how it ended. */
export function didNotReport(runner: string, end: ProcessEnd): Error {
  const said = `${end.stderr}\n${end.stdout}`.replace(ANSI, '').trim().split('\n').slice(-20).join('\n');
  return new Error(`${runner} did not report: ${said || `it ended with ${end.code ?? end.signal}`}`);
}

export const exists = (file: string): Promise<boolean> =>
  promises.access(file).then(
    () => true,
    () => false,
  );
