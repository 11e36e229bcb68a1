import { describe, expect, it } from 'vitest';
import { useTarget } from '../setup.js';

const ctx = useTarget();

describe('CONTRACT-3.5 file commands', () => {
  it('T1 reads a file in the workspace, whole or as a line range', async () => {
    const whole = await ctx.agent.ok('openspace.file.read', { path: 'src/lib/math.ts' });
    expect(whole).toMatchObject({
      path: 'src/lib/math.ts',
      content: 'export const add = (a: number, b: number) => a + b;\n// TODO: subtract\nexport const PI = 3.14159;\n',
      startLine: 1,
      endLine: 3,
      totalLines: 3,
    });
    expect(whole.size).toBe(Buffer.byteLength(whole.content));
    const range = await ctx.agent.ok('openspace.file.read', { path: 'src/index.ts', startLine: 99, endLine: 200 });
    expect(range).toMatchObject({ startLine: 99, endLine: 100, totalLines: 100 });
    expect(range.content.split('\n')).toHaveLength(2);
    await ctx.agent.fails('openspace.file.read', { path: 'src/index.ts', startLine: 101 }, 'RANGE_INVALID');
    await ctx.agent.fails('openspace.file.read', { path: 'src/index.ts', startLine: 5, endLine: 4 }, 'RANGE_INVALID');
  });

  it('T2 creates a file (and its directories); reading it back gives the same content', async () => {
    const written = await ctx.agent.ok('openspace.file.write', { path: 'new.txt', content: 'hello' });
    expect(written).toMatchObject({ path: 'new.txt', bytes: 5, created: true });
    expect((await ctx.agent.ok('openspace.file.read', { path: 'new.txt' })).content).toBe('hello');
    const nested = await ctx.agent.ok('openspace.file.write', { path: 'deep/er/file.md', content: 'héllo ✓\n' });
    expect(nested).toMatchObject({ created: true, bytes: Buffer.byteLength('héllo ✓\n') });
    const again = await ctx.agent.ok('openspace.file.write', { path: 'new.txt', content: 'hello again' });
    expect(again.created).toBe(false);
    expect((await ctx.agent.ok('openspace.file.read', { path: 'new.txt' })).content).toBe('hello again');
  });

  it('writes and reads back a file of several hundred kilobytes', async () => {
    const content = Array.from({ length: 6000 }, (_, i) => `line ${i + 1}: ${'x'.repeat(40)}`).join('\n') + '\n';
    const written = await ctx.agent.ok('openspace.file.write', { path: 'big/large.txt', content });
    expect(written.bytes).toBe(Buffer.byteLength(content));
    expect(written.bytes).toBeGreaterThan(250_000);
    const read = await ctx.agent.ok('openspace.file.read', { path: 'big/large.txt', startLine: 5999, endLine: 6000 });
    expect(read.content).toBe(`line 5999: ${'x'.repeat(40)}\nline 6000: ${'x'.repeat(40)}`);
    expect(read.totalLines).toBe(6000);
  });

  it('T3 lists a directory, and recursively without .gitignored files', async () => {
    const src = await ctx.agent.ok('openspace.file.list', { path: 'src' });
    expect(src.files).toEqual([
      { path: 'src/lib', name: 'lib', type: 'directory' },
      expect.objectContaining({ path: 'src/auth.ts', name: 'auth.ts', type: 'file' }),
      expect.objectContaining({ path: 'src/index.ts', name: 'index.ts', type: 'file' }),
    ]);
    const root = await ctx.agent.ok('openspace.file.list', {});
    expect(root.path).toBe('');
    expect(root.files.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['src', 'docs', 'README.md', 'notes.txt']));
    const all = await ctx.agent.ok('openspace.file.list', { recursive: true });
    const paths = all.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['src/lib/math.ts', 'docs/guide.md', 'src/index.ts']));
    expect(paths).not.toContain('build/out.js');
    expect(paths).not.toContain('debug.log');
    expect(all.truncated).toBe(false);
    await ctx.agent.fails('openspace.file.list', { path: 'README.md' }, 'NOT_A_DIRECTORY');
    await ctx.agent.fails('openspace.file.list', { path: 'nowhere' }, 'FILE_NOT_FOUND');
  });

  it('T4 searches contents for TODO, honouring .gitignore, with path, line, column and text', async () => {
    const { matches, truncated } = await ctx.agent.ok('openspace.file.search', { query: 'TODO' });
    expect(truncated).toBe(false);
    expect(matches).toContainEqual({ path: 'src/lib/math.ts', line: 2, column: 4, text: '// TODO: subtract' });
    expect(matches).toContainEqual({ path: 'src/auth.ts', line: 41, column: 4, text: '// TODO: rotate tokens' });
    const paths = matches.map((m: { path: string }) => m.path);
    expect(paths).not.toContain('build/out.js');
    expect(paths).not.toContain('debug.log');
  });

  it('narrows a search by directory and globs, and supports regex and case', async () => {
    const inLib = await ctx.agent.ok('openspace.file.search', { query: 'todo', path: 'src/lib' });
    expect(inLib.matches.map((m: { path: string }) => m.path)).toEqual(['src/lib/math.ts']);
    const onlyMd = await ctx.agent.ok('openspace.file.search', { query: 'TODO', includePattern: '**/*.md' });
    expect(onlyMd.matches.map((m: { path: string }) => m.path)).toEqual(['README.md']);
    const noTs = await ctx.agent.ok('openspace.file.search', { query: 'TODO', excludePattern: '**/*.ts' });
    expect(noTs.matches.every((m: { path: string }) => !m.path.endsWith('.ts'))).toBe(true);
    const regex = await ctx.agent.ok('openspace.file.search', { query: 'step4[2-3]\\(', isRegex: true });
    expect(regex.matches.map((m: { line: number }) => m.line)).toEqual([42, 43]);
    const cased = await ctx.agent.ok('openspace.file.search', { query: 'todo', caseSensitive: true });
    expect(cased.matches).toEqual([]);
    const limited = await ctx.agent.ok('openspace.file.search', { query: 'step', maxResults: 5 });
    expect(limited.matches).toHaveLength(5);
    expect(limited.truncated).toBe(true);
    await ctx.agent.fails('openspace.file.search', { query: '(unclosed', isRegex: true }, 'INVALID_ARGUMENT');
  });

  it('T5 refuses paths outside the workspace with PATH_OUTSIDE_WORKSPACE (AC-3.5.2)', async () => {
    await ctx.agent.fails('openspace.file.read', { path: '../etc/passwd' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.read', { path: '/etc/passwd' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.read', { path: 'src/../../x' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.write', { path: '../escape.txt', content: 'x' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.list', { path: '..' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.search', { query: 'root', path: '../..' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.editor.open', { path: '../../etc/passwd' }, 'PATH_OUTSIDE_WORKSPACE');
  });

  it('answers missing files, directories and NUL bytes with clear codes', async () => {
    await ctx.agent.fails('openspace.file.read', { path: 'missing.txt' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.file.read', { path: 'src' }, 'NOT_A_FILE');
    await ctx.agent.fails('openspace.file.write', { path: 'src', content: 'x' }, 'NOT_A_FILE');
    const nul = await ctx.agent.fails('openspace.file.read', { path: 'a\u0000b' }, 'INVALID_ARGUMENT');
    expect(nul.error).toMatch(/path/);
  });

  it('an open editor shows what file.write wrote', async () => {
    await ctx.agent.ok('openspace.file.write', { path: 'shown.txt', content: 'one\n' });
    await ctx.agent.ok('openspace.editor.open', { path: 'shown.txt' });
    await ctx.agent.ok('openspace.file.write', { path: 'shown.txt', content: 'one\ntwo\n' });
    const read = await ctx.agent.ok('openspace.editor.read_file', { path: 'shown.txt' });
    expect(read).toMatchObject({ content: 'one\ntwo\n', isOpen: true, isDirty: false, totalLines: 2 });
  });

  it('T6 refuses to read sensitive files (.env, credentials.json), never searches them, and marks them in listings', async () => {
    const env = await ctx.agent.fails('openspace.file.read', { path: '.env' }, 'SENSITIVE_FILE');
    expect(env.error).toMatch(/\.env/);
    expect(env.error).not.toMatch(/fixture-value/);
    await ctx.agent.fails('openspace.file.read', { path: 'config/credentials.json' }, 'SENSITIVE_FILE');
    await ctx.agent.fails('openspace.file.read', { path: './CONFIG/../.ENV' }, 'SENSITIVE_FILE');
    await ctx.agent.fails('openspace.editor.read_file', { path: '.env' }, 'SENSITIVE_FILE');
    const search = await ctx.agent.ok('openspace.file.search', { query: 'fixture-value' });
    expect(search.matches).toEqual([]);
    const root = await ctx.agent.ok('openspace.file.list', {});
    expect(root.files).toContainEqual(expect.objectContaining({ path: '.env', sensitive: true }));
    expect(root.files.find((f: { path: string }) => f.path === 'README.md').sensitive).toBeUndefined();
  });

  it('T7 refuses to write protected paths (.git, node_modules, .openspace) with PROTECTED_PATH, creating nothing', async () => {
    await ctx.agent.fails('openspace.file.write', { path: '.git/config', content: 'x' }, 'PROTECTED_PATH');
    await ctx.agent.fails('openspace.file.write', { path: 'node_modules/evil/index.js', content: 'x' }, 'PROTECTED_PATH');
    await ctx.agent.fails('openspace.file.write', { path: 'sub/.openspace/settings.json', content: '{}' }, 'PROTECTED_PATH');
    await ctx.agent.fails('openspace.file.list', { path: 'node_modules' }, 'FILE_NOT_FOUND');
  });
});
