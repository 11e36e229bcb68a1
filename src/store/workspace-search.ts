/**
 * file.search over the workspace's files, for WorkspaceFiles: two engines behind one contract,
 * ripgrep for a real directory and a scan of an in-process walk for a memfs volume.
 *
 * They are kept equivalent: the same ignore rules (.gitignore files inside the workspace only; .git
 * always skipped), the same glob semantics (include/exclude are filtered here with picomatch for
 * both; ripgrep is handed them too where its globs mean the same, so that it does not read the files
 * they leave out), symlinks never followed, a file with a NUL byte anywhere skipped as binary, and
 * results ordered by path (component by component) then line. What either engine finds is checked
 * again by WorkspaceFiles (the file's real path, its sensitivity, its lines read without following
 * links), so a directory swapped for a symlink while ripgrep walks it leaks nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { createInterface } from 'node:readline';
import picomatch from 'picomatch/posix.js';
import type { SearchOptions } from '../families/file/port.js';
import type { SearchMatch } from '../contract/index.js';
import { ToolError } from '../contract/result.js';

type RipgrepText = { text?: string; bytes?: string };

/** A line of `rg --json`: begin, match, end or summary, with what this search reads of it. */
interface RipgrepMessage {
  type: string;
  data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number; submatches?: { start: number }[]; binary_offset?: number | null };
}

/** Search match lines are cut to this many characters. */
export const MAX_MATCH_TEXT = 500;

/** A .gitignore's text and the workspace-relative directory it sits in. */
export interface GitignoreText {
  base: string;
  text: string;
}

/** A search's arguments, checked and compiled once for either engine. */
export interface SearchPlan {
  /** The query as a JavaScript matcher: the memory engine's; for ripgrep it validates the regex. */
  regex: RegExp;
  /** The include and exclude globs, workspace-relative ('/'-separated, no leading './'). */
  include?: string;
  exclude?: string;
  /** Whether a workspace-relative file path passes the include and exclude globs. */
  matchesGlobs: (path: string) => boolean;
  maxResults: number;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Code-point order (UTF-8 byte order), what ripgrep sorts by. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(utf8(a), utf8(b));
}

/** Path order component by component, so `a/b.ts` comes before `a.ts` like a tree walk gives it. */
export function comparePaths(a: string, b: string): number {
  return compareNames(a.replaceAll('/', '\0'), b.replaceAll('/', '\0'));
}

/** Normalise a user glob: workspace-relative, '/'-separated, no leading './' or '/', no trailing '/'. */
function normaliseGlob(glob: string | undefined): string | undefined {
  if (glob === undefined) return undefined;
  let g = glob.trim().replaceAll('\\', '/');
  while (g.startsWith('./')) g = g.slice(2);
  g = g.replace(/^\/+/, '').replace(/\/+$/, '');
  return g === '' || g === '.' ? undefined : g;
}

/**
 * Include/exclude filter on workspace-relative file paths. A glob matches a file when it matches the
 * file's path or one of its parent directories (so `src` and `node_modules` name whole folders); a
 * glob without '/' matches names at any depth, like VS Code and ripgrep globs.
 */
function globFilter(include: string | undefined, exclude: string | undefined): (path: string) => boolean {
  const compile = (glob: string | undefined) => {
    if (glob === undefined) return undefined;
    // picomatch's basename option breaks globs with a '/', so only a bare name gets it.
    const match = picomatch(glob, { dot: true, basename: !glob.includes('/') });
    return (path: string) => {
      if (match(path)) return true;
      for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
        if (match(path.slice(0, i))) return true;
      }
      return false;
    };
  };
  const inc = compile(include);
  const exc = compile(exclude);
  return (path) => (inc === undefined || inc(path)) && (exc === undefined || !exc(path));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The JS matcher for a query; also validates a regex for both engines. */
function compileQuery(options: SearchOptions): RegExp {
  const flags = options.caseSensitive ? '' : 'i';
  if (!options.isRegex) return new RegExp(escapeRegExp(options.query), `u${flags}`);
  try {
    return new RegExp(options.query, `u${flags}`);
  } catch {
    try {
      return new RegExp(options.query, flags);
    } catch (err) {
      throw new ToolError(
        'INVALID_ARGUMENT',
        `query is not a valid regular expression: ${(err as Error).message}. Fix it, or pass isRegex:false to search for the text literally.`,
      );
    }
  }
}

/** Check a search's query and compile its query and globs; INVALID_ARGUMENT for a query no engine can run. */
export function planSearch(options: SearchOptions): SearchPlan {
  if (options.query.includes('\n') || options.query.includes('\r')) {
    throw new ToolError('INVALID_ARGUMENT', 'query must not contain line breaks: search matches within single lines.');
  }
  const regex = compileQuery(options);
  const include = normaliseGlob(options.includePattern);
  const exclude = normaliseGlob(options.excludePattern);
  return { regex, include, exclude, matchesGlobs: globFilter(include, exclude), maxResults: Math.max(0, options.maxResults) };
}

/** The matches in path order then line, the first maxResults of them, and whether there were more. */
export function firstMatches(matches: SearchMatch[], maxResults: number): { matches: SearchMatch[]; truncated: boolean } {
  matches.sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  return { matches: matches.slice(0, maxResults), truncated: matches.length > maxResults };
}

/**
 * The memory engine: every line of every file the walk yields (already pruned by .gitignore) that
 * `accept` takes, until there are more than maxResults matches.
 */
export async function searchEntries(
  entries: AsyncIterable<{ rel: string; abs: string; type: string }>,
  readFile: (abs: string) => Promise<Uint8Array>,
  plan: SearchPlan,
  accept: (path: string) => boolean,
): Promise<SearchMatch[]> {
  const matches: SearchMatch[] = [];
  for await (const e of entries) {
    if (e.type !== 'file' || !accept(e.rel)) continue;
    let data: Buffer;
    try {
      data = Buffer.from(await readFile(e.abs));
    } catch {
      continue;
    }
    if (data.includes(0)) continue; // binary
    const text = data.toString('utf8');
    let line = 0;
    for (let from = 0; from < text.length;) {
      const end = text.indexOf('\n', from);
      const content = end < 0 ? text.slice(from) : text.slice(from, end);
      from = end < 0 ? text.length : end + 1;
      line++;
      const m = plan.regex.exec(content);
      if (m) {
        matches.push({ path: e.rel, line, column: m.index + 1, text: content.replace(/\r$/, '').slice(0, MAX_MATCH_TEXT) });
        if (matches.length > plan.maxResults) return matches;
      }
    }
  }
  return matches;
}

/**
 * A contract glob (normalised) in ripgrep's gitignore-style syntax, when the two mean the same: name
 * characters, '*' and '?', '**' as a whole path component, and '{a,b}' lists of such names (no
 * nesting, ranges or '/'). Undefined for anything else (character classes, extglobs, '!' negation,
 * '{a}', which picomatch reads literally): ripgrep then reads every file and the exact check alone
 * applies the glob.
 */
export function ripgrepGlob(glob: string): string | undefined {
  if (!/^[\p{L}\p{N}\p{M} ._~%=:,+@'&*?{}/-]+$/u.test(glob)) return undefined;
  for (const part of glob.split('/')) {
    if (part === '' || part === '.' || part === '..' || (part.includes('**') && part !== '**')) return undefined;
  }
  const lists = glob.replace(/\{([^{}]*)\}/g, (_, body: string) => {
    const names = body.split(',');
    return names.length > 1 && names.every((n) => n !== '' && !n.includes('/') && !n.includes('..')) ? 'x' : '{';
  });
  return /[{}]/.test(lists) ? undefined : glob;
}

/**
 * Ignore-file rules that leave ripgrep only what an include glob can take: every file ignored, every
 * directory taken back (the walk goes on everywhere), then the files the glob matches and those inside
 * directories it matches, as the exact check reads it. ripgrep's own .gitignore files outrank an
 * ignore file, and the workspace's rules above the search follow these in it, so what .gitignore
 * ignores stays ignored; what it un-ignores ('!keep.log') is searched whatever the glob, and the exact
 * check drops it.
 */
function includeRules(glob: string): string[] {
  const rules = ['*', '!*/', `!${glob}`, glob.includes('/') ? `!${glob}/**` : `!**/${glob}/**`];
  // picomatch's 'src/**' also takes a file named 'src'.
  if (glob.endsWith('/**')) rules.push(`!${glob.slice(0, -3)}`);
  return rules;
}

/**
 * The text of ripgrep's --ignore-file for a search ('' when it needs none): the include glob's rules,
 * then the workspace's .gitignore files above the searched directory rebased to the root, ripgrep's
 * cwd (it finds those at and below the directory itself). In one ignore file the last rule that
 * matches decides, so .gitignore outranks the include glob.
 */
export function ripgrepIgnoreFile(include: string | undefined, gitignoresAbove: GitignoreText[]): string {
  const glob = include === undefined ? undefined : ripgrepGlob(include);
  const parts = [...(glob === undefined ? [] : includeRules(glob)), ...gitignoresAbove.map((l) => rebaseGitignore(l.text, l.base))];
  // Joined by line breaks: a .gitignore need not end with one.
  return parts.length === 0 ? '' : parts.join('\n') + '\n';
}

/**
 * Rewrite a .gitignore that sits in directory `base` so its patterns mean the same when matched
 * relative to the workspace root (for ripgrep's --ignore-file, which matches relative to its cwd).
 */
export function rebaseGitignore(text: string, base: string): string {
  if (base === '') return text;
  const prefix = base.replace(/[\\*?[\]!#]/g, '\\$&');
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw;
    while (line.endsWith(' ') && !line.endsWith('\\ ')) line = line.slice(0, -1);
    if (line === '' || line.startsWith('#')) continue;
    let negate = '';
    if (line.startsWith('!')) {
      negate = '!';
      line = line.slice(1);
    }
    let dirOnly = '';
    if (line.endsWith('/')) {
      dirOnly = '/';
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.replace(/^\/+/, '');
    out.push(`${negate}/${prefix}/${anchored ? '' : '**/'}${line}${dirOnly}`);
  }
  return out.join('\n') + '\n';
}

export interface RipgrepSearch {
  /** The workspace root, absolute: ripgrep's cwd, so the paths it prints are workspace-relative. */
  root: string;
  /** The directory searched, workspace-relative ('' for the root). */
  start: string;
  /** The workspace's .gitignore files above `start` (ripgrep finds those at and below it itself). */
  gitignoresAbove: GitignoreText[];
  /** Larger files are not read (their matches could not be checked again). */
  maxFileBytes: number;
  options: SearchOptions;
  plan: SearchPlan;
  /** The exact check on each file ripgrep found (globs, sensitive files). */
  accept: (path: string) => boolean;
}

/**
 * Which files ripgrep reads: hidden ones too, the workspace's own .gitignore files whether or not it
 * is a git repository (as for list and the in-memory search: not those of parent directories, nor
 * .ignore, global or git-exclude rules), never .git.
 */
export const RIPGREP_FILE_ARGS = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--no-ignore-parent',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--glob=!.git',
] as const;

/** The disk engine: ripgrep over `start`, with the workspace's ignore rules and the plan's filters. */
export async function searchRipgrep(search: RipgrepSearch): Promise<SearchMatch[]> {
  const { rgPath } = await import('@vscode/ripgrep');
  const { options, plan } = search;
  const args = [
    '--json',
    '--line-number',
    '--column',
    ...RIPGREP_FILE_ARGS,
    // One thread, files in path order: truncation keeps the same first matches every time.
    '--sort=path',
    // The raw bytes, as the check afterwards reads them: no BOM sniffing or UTF-16 transcoding (such
    // a file has NUL bytes, and is binary for both engines).
    '--encoding=none',
    `--max-filesize=${search.maxFileBytes}`,
    options.caseSensitive ? '--case-sensitive' : '--ignore-case',
    options.isRegex ? '--pcre2' : '--fixed-strings',
  ];
  // An exclude glob prunes as an override (it outranks .gitignore, as exclusion should). An include
  // glob must not be one: ripgrep's include globs override .gitignore, so it goes into the ignore file.
  const exclude = plan.exclude === undefined ? undefined : ripgrepGlob(plan.exclude);
  if (exclude !== undefined) args.push(`--glob=!${exclude}`);
  const ignoreFile = ripgrepIgnoreFile(plan.include, search.gitignoresAbove);
  let tempDir: string | undefined;
  if (ignoreFile !== '') {
    tempDir = await mkdtemp(nodePath.join(os.tmpdir(), 'openspace-rg-'));
    const file = nodePath.join(tempDir, 'ignore');
    await writeFile(file, ignoreFile);
    args.push(`--ignore-file=${file}`);
  }
  args.push('--regexp', options.query, '--', search.start === '' ? '.' : search.start);

  try {
    return await runRipgrep(rgPath, search.root, args, search.accept, plan.maxResults, options.isRegex);
  } finally {
    if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Run ripgrep with --json and collect the matches of the files `accept` takes, stopping after maxResults. */
function runRipgrep(
  rgPath: string,
  cwd: string,
  args: string[],
  accept: (path: string) => boolean,
  maxResults: number,
  isRegex: boolean,
): Promise<SearchMatch[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const matches: SearchMatch[] = [];
    let pending: SearchMatch[] = [];
    let currentPath: string | undefined;
    let done = false;
    let sawSummary = false;
    let stderr = '';
    const decode = (v: { text?: string; bytes?: string } | undefined) =>
      v?.text ?? (v?.bytes !== undefined ? Buffer.from(v.bytes, 'base64').toString('utf8') : '');
    const toRel = (p: string) => p.replaceAll('\\', '/').replace(/^(\.\/)+/, '');

    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (json) => {
      if (done || json === '') return;
      // The lines of a file the exact check turned down are not worth parsing.
      if (currentPath === undefined && json.startsWith('{"type":"match"')) return;
      let msg: RipgrepMessage;
      try {
        msg = JSON.parse(json);
      } catch {
        return;
      }
      const data = msg.data;
      if (msg.type === 'begin') {
        const rel = toRel(decode(data.path));
        currentPath = accept(rel) ? rel : undefined;
        pending = [];
      } else if (msg.type === 'match' && currentPath !== undefined) {
        const line = decode(data.lines).replace(/\r?\n$/, '');
        const start = data.submatches?.[0]?.start ?? 0;
        const column = utf8(line).subarray(0, start).toString('utf8').length + 1;
        pending.push({
          path: currentPath,
          line: data.line_number ?? 0,
          column,
          text: line.replace(/\r$/, '').slice(0, MAX_MATCH_TEXT),
        });
      } else if (msg.type === 'end') {
        // A NUL byte anywhere makes the file binary: drop whatever matched before it.
        if (currentPath !== undefined && data.binary_offset == null) matches.push(...pending);
        pending = [];
        currentPath = undefined;
        if (matches.length > maxResults) {
          done = true;
          child.kill();
        }
      } else if (msg.type === 'summary') {
        sawSummary = true;
      }
    });
    child.on('error', (err) => {
      done = true;
      reject(new ToolError('INTERNAL', `Could not run ripgrep: ${err.message}`));
    });
    child.on('close', (code) => {
      if (done && matches.length > maxResults) return resolve(matches);
      if (code === 2 && !sawSummary) {
        const message = stderr.trim() || 'ripgrep failed';
        if (isRegex && /regex|pcre2|pattern/i.test(message)) {
          return reject(
            new ToolError(
              'INVALID_ARGUMENT',
              `query is not a valid regular expression: ${message}. Fix it, or pass isRegex:false to search for the text literally.`,
            ),
          );
        }
        return reject(new ToolError('INTERNAL', `Search failed: ${message}`));
      }
      resolve(matches);
    });
  });
}

/** Those of one file's matches whose line `text` holds as the search engine reported it. */
export function matchesIn(text: string, matches: SearchMatch[]): SearchMatch[] {
  const held: SearchMatch[] = [];
  let line = 1;
  let from = 0; // where `line` starts in text; -1 past its end
  for (const m of [...matches].sort((a, b) => a.line - b.line)) {
    for (; line < m.line && from >= 0; line++) from = text.indexOf('\n', from) + 1 || -1;
    if (from < 0) break;
    const end = text.indexOf('\n', from);
    const shown = text
      .slice(from, end < 0 ? undefined : end)
      .replace(/\r$/, '')
      .slice(0, MAX_MATCH_TEXT);
    if (shown === m.text) held.push(m);
  }
  return held;
}
