import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchOptions } from '../families/file/port.js';
import { codeOf } from '../contract/test-helpers.js';
import { buildFixture, diskEnv, errorOf, freshEnvEachTest, kinds, memoryEnv, type Env } from './test-helpers.js';
import type { WorkspaceFiles } from './workspace-files.js';
import { planSearch, rebaseGitignore, RIPGREP_FILE_ARGS, ripgrepGlob, ripgrepIgnoreFile } from './workspace-search.js';

const search = (files: WorkspaceFiles, query: string, options: Partial<SearchOptions> = {}) =>
  files.search({ query, path: '', isRegex: false, caseSensitive: false, maxResults: 200, ...options });

for (const [kind, makeEnv] of kinds) {
  describe(`WorkspaceFiles (${kind})`, () => {
    let env: Env;
    freshEnvEachTest(makeEnv, (made) => (env = made));

    describe('search', () => {
      beforeEach(() => buildFixture(env));
      const where = (r: { matches: { path: string; line: number }[] }) => r.matches.map((m) => `${m.path}:${m.line}`);

      it('finds text case-insensitively by default, honouring .gitignore, skipping binaries and symlinks', async () => {
        const result = await search(env.files, 'needle');
        expect(result.truncated).toBe(false);
        expect(where(result)).toEqual([
          '.config/settings.json:1',
          'a/b.ts:1',
          'a.ts:1',
          'a.ts:2',
          'crlf.txt:1',
          'docs/secret.txt:1',
          'keep.log:1',
          'long.txt:1',
          'src/index.ts:1',
          'src/index.ts:2',
          'src/sub/deep.ts:3',
          'src/sub/important.log:1',
          'src/sub/local.ts:1',
          'src/util.test.ts:1',
          'unicode.txt:1',
          'vendor/lib.js:1',
        ]);
      });

      it('gives 1-based columns in characters and the line without its line break, cut to 500', async () => {
        const { matches } = await search(env.files, 'needle');
        const at = (path: string) => matches.find((m) => m.path === path)!;
        expect(at('a.ts')).toEqual({ path: 'a.ts', line: 1, column: 7, text: 'const needle = 1;' });
        expect(at('unicode.txt').column).toBe(13);
        expect(at('crlf.txt').text).toBe('needle crlf');
        expect(at('long.txt')).toEqual({ path: 'long.txt', line: 1, column: 601, text: 'x'.repeat(500) });
      });

      it('matches case-sensitively when asked', async () => {
        expect(where(await search(env.files, 'NEEDLE', { caseSensitive: true }))).toEqual(['src/index.ts:2']);
      });

      it('searches literally unless isRegex, and reports invalid regexes as INVALID_ARGUMENT', async () => {
        expect(where(await search(env.files, 'a.b'))).toEqual(['a.b:1']);
        expect(where(await search(env.files, 'a.b', { isRegex: true }))).toEqual(['a.b:1', 'a.b:2']);
        expect(where(await search(env.files, 'ne{2,3}dle', { isRegex: true, path: '' }))).toContain('regex.txt:1');
        expect(where(await search(env.files, 'ne{3}dle', { isRegex: true }))).toEqual(['regex.txt:1']);
        expect(await search(env.files, 'ne{3}dle')).toEqual({ matches: [], truncated: false });
        const err = await errorOf(search(env.files, 'needle(', { isRegex: true }));
        expect(err.code).toBe('INVALID_ARGUMENT');
        expect(err.message).toMatch(/regular expression/);
      });

      it('filters with include and exclude globs relative to the root', async () => {
        const ts = [
          'a/b.ts:1',
          'a.ts:1',
          'a.ts:2',
          'src/index.ts:1',
          'src/index.ts:2',
          'src/sub/deep.ts:3',
          'src/sub/local.ts:1',
          'src/util.test.ts:1',
        ];
        expect(where(await search(env.files, 'needle', { includePattern: '**/*.ts' }))).toEqual(ts);
        expect(where(await search(env.files, 'needle', { includePattern: '*.ts' }))).toEqual(ts);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/**' }))).toEqual([
          'src/index.ts:1',
          'src/index.ts:2',
          'src/sub/deep.ts:3',
          'src/sub/important.log:1',
          'src/sub/local.ts:1',
          'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/*.ts' }))).toEqual([
          'src/index.ts:1',
          'src/index.ts:2',
          'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: '**/*.ts', excludePattern: '**/*.test.ts' }))).toEqual(
          ts.filter((m) => !m.startsWith('src/util.test.ts')),
        );
        expect(where(await search(env.files, 'needle', { excludePattern: 'src' }))).not.toContain('src/index.ts:1');
        expect(where(await search(env.files, 'needle', { excludePattern: 'vendor' }))).not.toContain('vendor/lib.js:1');
        expect(where(await search(env.files, 'needle', { excludePattern: 'vendor' }))).toContain('a.ts:1');
      });

      it('takes from includePattern only what .gitignore leaves in, names at any depth, brace lists, with excludePattern', async () => {
        // *.log files are ignored but for the two a .gitignore takes back.
        expect(where(await search(env.files, 'needle', { includePattern: '*.log' }))).toEqual(['keep.log:1', 'src/sub/important.log:1']);
        expect(where(await search(env.files, 'needle', { includePattern: '**/*.log' }))).toEqual(['keep.log:1', 'src/sub/important.log:1']);
        // Ignored directories and files stay out however the glob names them.
        expect(where(await search(env.files, 'needle', { includePattern: 'gen' }))).toEqual([]);
        expect(where(await search(env.files, 'needle', { includePattern: 'build/**' }))).toEqual([]);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/local.ts' }))).toEqual([]);
        expect(where(await search(env.files, 'needle', { includePattern: 'secret.txt' }))).toEqual(['docs/secret.txt:1']);
        // A bare name is a file or folder at any depth; a glob with '/' is anchored at the root.
        expect(where(await search(env.files, 'needle', { includePattern: 'sub' }))).toEqual([
          'src/sub/deep.ts:3',
          'src/sub/important.log:1',
          'src/sub/local.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/*/*.ts' }))).toEqual([
          'src/sub/deep.ts:3',
          'src/sub/local.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: 'sub/*.ts' }))).toEqual([]);
        expect(where(await search(env.files, 'needle', { includePattern: '{a,vendor}/**' }))).toEqual(['a/b.ts:1', 'vendor/lib.js:1']);
        expect(where(await search(env.files, 'needle', { includePattern: '*.{json,js}' }))).toEqual([
          '.config/settings.json:1',
          'vendor/lib.js:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/**', excludePattern: '{sub,*.test.ts}' }))).toEqual([
          'src/index.ts:1',
          'src/index.ts:2',
        ]);
        // Globs ripgrep cannot be given as they are filter all the same.
        expect(where(await search(env.files, 'needle', { includePattern: 'src/s[u]b/*.ts' }))).toEqual([
          'src/sub/deep.ts:3',
          'src/sub/local.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: '*.@(log|json)' }))).toEqual([
          '.config/settings.json:1',
          'keep.log:1',
          'src/sub/important.log:1',
        ]);
        expect(where(await search(env.files, 'a.b', { includePattern: 'a.{b}' }))).toEqual([]);
        expect(where(await search(env.files, 'a.b', { excludePattern: 'a.{b}' }))).toEqual(['a.b:1']);
      });

      it('combines a directory with includePattern, which stays relative to the workspace root', async () => {
        expect(where(await search(env.files, 'needle', { path: 'src', includePattern: 'src/sub/*.ts' }))).toEqual([
          'src/sub/deep.ts:3',
          'src/sub/local.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { path: 'src', includePattern: 'sub/**' }))).toEqual([]);
        expect(where(await search(env.files, 'needle', { path: 'src', includePattern: '*.log' }))).toEqual(['src/sub/important.log:1']);
        expect(where(await search(env.files, 'needle', { path: 'src/sub', includePattern: '*.ts', excludePattern: 'deep.ts' }))).toEqual([
          'src/sub/local.ts:1',
        ]);
      });

      it('finds nothing through includePattern outside the workspace, behind symlinks or in .git', async () => {
        env.write('../outside/found.txt', 'needle outside\n');
        for (const includePattern of ['../outside/**', '../**', 'link-dir/**', 'link-to-a.ts', '.git/**', '.git']) {
          expect(where(await search(env.files, 'needle', { includePattern }))).toEqual([]);
        }
      });

      it('restricts to a directory, applying .gitignore files above it', async () => {
        expect(where(await search(env.files, 'needle', { path: 'src' }))).toEqual([
          'src/index.ts:1',
          'src/index.ts:2',
          'src/sub/deep.ts:3',
          'src/sub/important.log:1',
          'src/sub/local.ts:1',
          'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { path: 'src/sub' }))).toEqual([
          'src/sub/deep.ts:3',
          'src/sub/important.log:1',
          'src/sub/local.ts:1',
        ]);
        expect(await search(env.files, 'needle', { path: 'build' })).toEqual({ matches: [], truncated: false });
        expect(await codeOf(search(env.files, 'needle', { path: 'nope' }))).toBe('FILE_NOT_FOUND');
        expect(await codeOf(search(env.files, 'needle', { path: 'a.ts' }))).toBe('NOT_A_DIRECTORY');
        expect(await codeOf(search(env.files, 'needle', { path: '../outside' }))).toBe('PATH_OUTSIDE_WORKSPACE');
      });

      it('stops at maxResults and says truncated, keeping the first matches in path order', async () => {
        const all = await search(env.files, 'needle');
        for (const max of [1, 2, 3, 7]) {
          const some = await search(env.files, 'needle', { maxResults: max });
          expect(some.truncated).toBe(true);
          expect(some.matches).toEqual(all.matches.slice(0, max));
        }
        const exact = await search(env.files, 'needle', { maxResults: all.matches.length });
        expect(exact).toEqual({ matches: all.matches, truncated: false });
      });

      // Valid for JavaScript, not for PCRE2: only the disk engine finds out, from ripgrep.
      if (kind === 'disk') {
        it('reports ripgrep’s own regex errors as INVALID_ARGUMENT', async () => {
          const err = await errorOf(search(env.files, 'needle[^]', { isRegex: true }));
          expect(err.code).toBe('INVALID_ARGUMENT');
        });
      }

      it('rejects queries with line breaks', async () => {
        expect(await codeOf(search(env.files, 'a\nb'))).toBe('INVALID_ARGUMENT');
      });

      it('reads bytes as they are: a UTF-8 BOM stays in the first line, UTF-16 (NUL bytes) is binary', async () => {
        env.write('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('haystack bom\n')]));
        env.write('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('haystack utf16\n', 'utf16le')]));
        const { matches } = await search(env.files, 'haystack');
        expect(matches).toEqual([{ path: 'bom.txt', line: 1, column: 2, text: '\ufeffhaystack bom' }]);
      });
    });
  });
}

describe('disk (ripgrep) and memory (walk) search agree', () => {
  let disk: Env;
  let memory: Env;
  beforeAll(async () => {
    disk = await diskEnv();
    memory = await memoryEnv();
    buildFixture(disk);
    buildFixture(memory);
  });
  afterAll(async () => disk.cleanup());

  const cases: [string, Partial<SearchOptions>][] = [
    ['needle', {}],
    ['NEEDLE', { caseSensitive: true }],
    ['Needle', { caseSensitive: true }],
    ['a.b', {}],
    ['a.b', { isRegex: true }],
    ['ne+dle', { isRegex: true }],
    ['^\\s*(const|export)\\b', { isRegex: true }],
    ['needle', { includePattern: '**/*.ts' }],
    ['needle', { includePattern: '*.ts' }],
    ['needle', { includePattern: 'src/**' }],
    ['needle', { includePattern: 'src' }],
    ['needle', { includePattern: '*.{log,txt}' }],
    ['needle', { excludePattern: '**/*.test.ts' }],
    ['needle', { excludePattern: 'vendor' }],
    ['needle', { excludePattern: 'src/sub/**' }],
    ['needle', { excludePattern: '*.txt', includePattern: 'src/**' }],
    ['needle', { path: 'src' }],
    ['needle', { path: 'src/sub' }],
    ['needle', { path: 'src/sub', includePattern: '*.log' }],
    ['needle', { path: 'src', includePattern: '**/*.ts', excludePattern: 'sub' }],
    ['needle', { includePattern: 'sub' }],
    ['needle', { includePattern: 'src/*/*.ts' }],
    ['needle', { includePattern: '{a,vendor}/**' }],
    ['needle', { includePattern: '**/*.{json,js}', excludePattern: 'vendor' }],
    ['needle', { includePattern: 'src/s[u]b/**' }],
    ['needle', { includePattern: '*.+(log|txt)' }],
    ['a.b', { includePattern: 'a.{b}' }],
    ['a.b', { excludePattern: 'a.{b}' }],
    ['needle', { includePattern: 'gen/**' }],
    ['needle', { path: 'a' }],
    ['needle', { path: 'build' }],
    ['needle', { path: 'link-dir' }],
    ['needle', { maxResults: 1 }],
    ['needle', { maxResults: 2 }],
    ['needle', { maxResults: 4 }],
    ['e', { maxResults: 10 }],
    ['x', {}],
    ['nothing-matches-this', {}],
    ['--hidden', {}],
    ['= 1;', { isRegex: false }],
  ];

  it.each(cases)('%j %j', async (query, options) => {
    const [d, m] = await Promise.all([search(disk.files, query, options), search(memory.files, query, options)]);
    expect(d).toEqual(m);
  });

  it('is not vacuous: the broad query finds matches in both', async () => {
    const d = await search(disk.files, 'needle');
    expect(d.matches.length).toBeGreaterThan(10);
    expect(d.matches.map((x) => x.path)).toContain('src/sub/important.log');
  });

  it('lists the same tree recursively', async () => {
    const [d, m] = await Promise.all([
      disk.files.list('', { recursive: true, limit: 1000 }),
      memory.files.list('', { recursive: true, limit: 1000 }),
    ]);
    expect(d).toEqual(m);
  });
});

describe('rebaseGitignore', () => {
  it('anchors patterns of a nested .gitignore at its directory', () => {
    expect(rebaseGitignore('# c\n\n*.log\n/local.ts\ngen/\n!keep.log\na/b\n', 'src/sub')).toBe(
      '/src/sub/**/*.log\n/src/sub/local.ts\n/src/sub/**/gen/\n!/src/sub/**/keep.log\n/src/sub/a/b\n',
    );
    expect(rebaseGitignore('x\n', '')).toBe('x\n');
    expect(rebaseGitignore('x\n', 'we*rd')).toBe('/we\\*rd/**/x\n');
  });
});

describe('ripgrepGlob', () => {
  it('passes the globs ripgrep reads as picomatch does', () => {
    for (const glob of [
      '*.ts',
      '**/router-*.ts',
      'src/**',
      'src',
      'a/**/b',
      '*.{log,txt}',
      '{src,lib}/**',
      'file?.ts',
      '.config',
      'dir with space/*.md',
      'résumé/*.txt',
    ]) {
      expect(ripgrepGlob(glob)).toBe(glob);
    }
  });

  it('refuses what ripgrep would read otherwise: classes, extglobs, negation, odd braces and stars, dot components', () => {
    for (const glob of [
      'src/[ab]*.ts',
      '*.@(ts|js)',
      '!(*.ts)',
      '!*.ts',
      'a.{b}',
      'f{1..3}',
      '{,x}a',
      '{a,{b,c}}',
      '{a/b,c}',
      '{a',
      'a}',
      'a**b',
      '***',
      '**.ts',
      'a//b',
      '../x',
      'a/./b',
      '#x',
      'a\\b',
    ]) {
      expect(ripgrepGlob(glob)).toBeUndefined();
    }
  });
});

describe('ripgrepIgnoreFile', () => {
  let env: Env;
  let temp: string;
  beforeAll(async () => {
    env = await diskEnv();
    buildFixture(env);
    env.write('src/app/router-1.ts', 'x\n');
    env.write('src/app/router-2.js', 'x\n');
    env.write('src/gen/router-3.ts', 'x\n');
    temp = mkdtempSync(nodePath.join(os.tmpdir(), 'openspace-rg-rules-'));
  });
  afterAll(async () => {
    rmSync(temp, { recursive: true, force: true });
    await env.cleanup();
  });

  /** The files ripgrep would search under `start` with this ignore file and the workspace's own .gitignore files. */
  const rgFiles = (start: string, ignoreFile: string) => {
    const file = nodePath.join(temp, 'ignore');
    writeFileSync(file, ignoreFile);
    const args = ['--files', ...RIPGREP_FILE_ARGS, `--ignore-file=${file}`, start === '' ? '.' : start];
    const out = execFileSync(rgPath, args, { cwd: env.root, encoding: 'utf8' });
    return out
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^\.\//, ''))
      .sort();
  };
  const gitignoreRoot = { base: '', text: 'build/\n*.log\n/secret.txt\n!keep.log' };
  const gitignoreSrc = { base: 'src', text: 'gen/\n/local.ts\n' };

  it.each([
    ['**/router-*.ts', ''],
    ['*.ts', ''],
    ['*.log', ''],
    ['src/**', ''],
    ['sub', ''],
    ['*.{json,js}', ''],
    ['{a,vendor}/**', ''],
    ['src/*/*.ts', 'src'],
    ['*.ts', 'src/sub'],
    ['*.log', 'src/sub'],
  ])('leaves ripgrep the files %j takes and those .gitignore takes back, under %j', (include, start) => {
    const above = start === '' ? [] : start === 'src' ? [gitignoreRoot] : [gitignoreRoot, gitignoreSrc];
    const all = rgFiles(start, ripgrepIgnoreFile(undefined, above));
    const { matchesGlobs } = planSearch({
      query: 'x',
      path: start,
      includePattern: include,
      isRegex: false,
      caseSensitive: false,
      maxResults: 1,
    });
    const wanted = all.filter(matchesGlobs);
    const given = rgFiles(start, ripgrepIgnoreFile(include, above));
    expect(wanted.length).toBeGreaterThan(0);
    expect(given).toEqual(expect.arrayContaining(wanted));
    // Beyond them only what a .gitignore un-ignores by name.
    expect(given.filter((p) => !wanted.includes(p)).every((p) => ['keep.log', 'src/sub/important.log'].includes(p))).toBe(true);
    expect(given.length).toBeLessThan(all.length);
  });

  it('keeps an ignore file without a final line break apart from the next', () => {
    expect(
      ripgrepIgnoreFile(undefined, [
        { base: '', text: 'build/' },
        { base: 'src', text: 'gen/' },
      ]),
    ).toBe('build/\n/src/**/gen/\n\n');
  });
});
