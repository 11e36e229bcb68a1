import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsFromVolume, Volume } from 'memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { TerminalRingBuffer } from '../src/families/terminal/ring-buffer.js';
import { TerminalSanitizer } from '../src/security/sanitize.js';
import { spawnPty } from './pty-shell.js';
import { createScriptedShell, type ScriptedResponse, type ShellFs } from './scripted-shell.js';
import type { ShellBackend } from './shell-backend.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The scripted shell's shell-integration marks: prompt start and end, command start, command end. */
const [A, B, C] = ['\x1b]133;A\x07', '\x1b]133;B\x07', '\x1b]133;C\x07'];
const D = (status: number) => `\x1b]133;D;${status}\x07`;
const esc = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** A shell with its raw output, and its output as screen lines. */
function attach(shell: ShellBackend) {
  let raw = '';
  const sanitizer = new TerminalSanitizer();
  const buffer = new TerminalRingBuffer();
  const exits: number[] = [];
  shell.onData((chunk) => {
    raw += chunk;
    buffer.append(sanitizer.write(chunk));
  });
  shell.onExit((code) => exits.push(code));
  return {
    shell,
    get raw() {
      return raw;
    },
    lines: () => buffer.read({ lines: 10_000 }).lines,
    partial: () => buffer.read({ lines: 1 }).partial,
    /** Lines printed from `since` on. */
    after: (since: number) => buffer.read({ lines: 10_000, since }).lines,
    cursor: () => buffer.cursor(),
    exits,
    sanitizer,
  };
}

function workspace(): ShellFs {
  const vol = Volume.fromJSON({
    '/ws/README.md': '# Demo\nsecond line\n',
    '/ws/src/index.ts': 'export const x = 1;\n',
    '/ws/src/util.ts': '',
    '/ws/.hidden': 'h',
    '/ws/b.txt': 'bee',
    '/outside/secret.txt': 'nope',
  });
  return createFsFromVolume(vol);
}

function scripted(responses?: ScriptedResponse[], cwd = '/ws') {
  return attach(createScriptedShell({ fs: workspace(), root: '/ws', cwd, ...(responses ? { responses } : {}) }));
}

/** Type a line, let the shell run it, and return the lines it printed after the echoed command. */
async function run(t: ReturnType<typeof scripted>, line: string): Promise<string[]> {
  const before = t.cursor();
  t.shell.write(line + '\n');
  await tick();
  const printed = t.after(before);
  expect(printed[0]).toBe('$ ' + line);
  return printed.slice(1);
}

describe('scripted shell', () => {
  it('prints a prompt, echoes input and prints output after it', async () => {
    const t = scripted();
    await tick();
    expect(t.raw).toBe(`${A}$ ${B}`);
    t.shell.write('echo hello\n');
    await tick();
    expect(t.raw).toBe(`${A}$ ${B}echo hello\r\n${C}hello\r\n${D(0)}${A}$ ${B}`);
    expect(t.lines()).toEqual(['$ echo hello', 'hello']);
    expect(t.partial()).toBe('$ ');
  });

  it('handles input typed in pieces and \\r as Enter', async () => {
    const t = scripted();
    t.shell.write('ec');
    await tick();
    expect(t.partial()).toBe('$ ec');
    t.shell.write('ho  a   "b  c" \'$HOME\'\r');
    await tick();
    expect(t.lines()).toEqual(['$ echo  a   "b  c" \'$HOME\'', 'a b  c $HOME']);
  });

  it('echo -n, -e and variables', async () => {
    const t = scripted();
    expect(await run(t, 'echo -e "a\\tb\\nc"')).toEqual(['a\tb', 'c']);
    expect(await run(t, 'echo $HOME ${USER} "$PWD" $NOPE end')).toEqual(['/ws user /ws end']);
    t.shell.write('echo -n no-newline\n');
    await tick();
    expect(t.partial()).toBe('no-newline$ ');
  });

  it('printf', async () => {
    const t = scripted();
    expect(await run(t, 'printf "%s=%d %%\\n" a 42 b 7')).toEqual(['a=42 %', 'b=7 %']);
    expect(await run(t, 'printf "%d\\n" x; echo $?')).toEqual(['printf: x: invalid number', '0', '1']);
  });

  it('pwd and cd within the workspace', async () => {
    const t = scripted();
    expect(await run(t, 'pwd')).toEqual(['/ws']);
    expect(await run(t, 'cd src && pwd')).toEqual(['/ws/src']);
    expect(await run(t, 'cd .. && pwd')).toEqual(['/ws']);
    expect(await run(t, 'cd ../outside; echo $?; pwd')).toEqual(['cd: ../outside: Outside the workspace', '1', '/ws']);
    expect(await run(t, 'cd nope')).toEqual(['cd: nope: No such file or directory']);
    expect(await run(t, 'cd b.txt')).toEqual(['cd: b.txt: Not a directory']);
    expect(await run(t, 'cd src; cd; pwd')).toEqual(['/ws']);
  });

  it('starts in the given cwd', async () => {
    const t = scripted(undefined, '/ws/src');
    expect(await run(t, 'pwd')).toEqual(['/ws/src']);
  });

  it('ls lists sorted names, -a shows hidden ones, -l long form', async () => {
    const t = scripted();
    expect(await run(t, 'ls')).toEqual(['README.md', 'b.txt', 'src']);
    expect(await run(t, 'ls -a')).toEqual(['.', '..', '.hidden', 'README.md', 'b.txt', 'src']);
    expect(await run(t, 'ls src')).toEqual(['index.ts', 'util.ts']);
    expect(await run(t, 'ls -l src')).toEqual(['-rw-r--r-- 1 user user 20 index.ts', '-rw-r--r-- 1 user user  0 util.ts']);
    expect(await run(t, 'ls missing; echo $?')).toEqual(["ls: cannot access 'missing': No such file or directory", '2']);
  });

  it('cat prints files and reports missing ones', async () => {
    const t = scripted();
    expect(await run(t, 'cat README.md')).toEqual(['# Demo', 'second line']);
    expect(await run(t, 'cat missing.txt; echo $?')).toEqual(['cat: missing.txt: No such file or directory', '1']);
    expect(await run(t, 'cat src')).toEqual(['cat: src: Is a directory']);
  });

  it('&&, || and ; follow exit status', async () => {
    const t = scripted();
    expect(await run(t, 'true && echo yes || echo no')).toEqual(['yes']);
    expect(await run(t, 'false && echo yes || echo no')).toEqual(['no']);
    expect(await run(t, 'false; echo $?')).toEqual(['1']);
    expect(await run(t, 'true; echo $?')).toEqual(['0']);
    expect(await run(t, 'cat nope && echo unreachable')).toEqual(['cat: nope: No such file or directory']);
    expect(await run(t, 'false || false || echo third')).toEqual(['third']);
  });

  it('unknown commands and syntax errors', async () => {
    const t = scripted();
    expect(await run(t, 'frobnicate --now; echo $?')).toEqual(['frobnicate: command not found', '127']);
    expect(await run(t, 'echo "unterminated')).toEqual(['sh: unexpected EOF while looking for matching `"\'']);
    expect(await run(t, '&& echo x')).toEqual(["sh: syntax error near unexpected token `&&'"]);
    expect(await run(t, 'echo x &&')).toEqual(["sh: syntax error near unexpected token `newline'"]);
  });

  it('says what it cannot run, and runs nothing of that line', async () => {
    const t = scripted();
    const unsupported = {
      'echo $(pwd)': '$(',
      'echo `pwd`': '`',
      'echo hi > out.txt': '>',
      'sleep 1 &': '&',
      '(cd src)': '(',
      'GREETING=hi echo $GREETING': 'GREETING=hi',
      'if true; then echo yes; fi': 'if',
      'echo ${HOME:-x}': '${HOME:-x}',
    };
    for (const [line, what] of Object.entries(unsupported)) {
      expect(await run(t, `echo before; ${line}`), line).toEqual([`sh: '${what}' is not supported by the simulated shell`]);
    }
    expect(await run(t, 'echo ~ ~/x a~ \'q~\' \\$HOME "${HOME}"/y # comment')).toEqual(['/ws /ws/x a~ q~ $HOME /ws/y']);
  });

  it('scenario responses come before builtins', async () => {
    const t = scripted([
      { match: 'npm test', output: 'PASS  all\n3 tests\n', exitCode: 0 },
      { match: /^make( .*)?$/, output: 'make: *** No rule\n', exitCode: 2 },
      { match: 'ls', output: 'scripted-ls\n' },
      { match: 'npm run build | tee log', output: 'built\n' },
      { match: /^grep .* \| wc -l$/, output: '7\n' },
    ]);
    expect(await run(t, 'npm test')).toEqual(['PASS  all', '3 tests']);
    expect(await run(t, 'make all; echo $?')).toEqual(['make: *** No rule', '2']);
    expect(await run(t, 'ls')).toEqual(['scripted-ls']);
    expect(await run(t, 'cd src && npm test && pwd')).toEqual(['PASS  all', '3 tests', '/ws/src']);
    expect(await run(t, 'npm run build | tee log')).toEqual(['built']);
    expect(await run(t, 'grep -r foo . | wc -l')).toEqual(['7']);
    expect(await run(t, 'cat a | wc')).toEqual(["sh: '|' is not supported by the simulated shell"]);
    expect(await run(t, 'npm  test')).toEqual(['npm: command not found']); // string matches exactly
  });

  it('a delayed response arrives after its delay; Ctrl-C interrupts it', async () => {
    const t = scripted([{ match: 'sleepy', output: 'woke\n', delayMs: 30 }]);
    t.shell.write('sleepy; echo after\n');
    await tick();
    expect(t.lines()).toEqual(['$ sleepy; echo after']);
    await new Promise((r) => setTimeout(r, 60));
    expect(t.lines()).toEqual(['$ sleepy; echo after', 'woke', 'after']);

    const before = t.cursor();
    t.shell.write('sleepy && echo not-printed\n');
    await tick();
    t.shell.write('\u0003');
    await tick();
    expect(t.after(before)).toEqual(['$ sleepy && echo not-printed', '^C']);
    expect(t.partial()).toBe('$ ');
    expect(await run(t, 'echo $?')).toEqual(['130']);
    await new Promise((r) => setTimeout(r, 60));
    expect(t.lines().filter((l) => l === 'woke')).toHaveLength(1);
  });

  it('marks each command with C after its line and D with its status; an empty line with D only', async () => {
    const t = scripted([{ match: 'sleepy', output: 'woke\n', delayMs: 1000 }]);
    const marksAfter = async (line: string) => {
      const from = t.raw.length;
      t.shell.write(line);
      await tick();
      return t.raw.slice(from).match(/\x1b\]133;[^\x07]*\x07/g) ?? [];
    };
    await tick();
    expect(await marksAfter('false\r')).toEqual([C, D(1), A, B]);
    expect(await marksAfter('nope\r')).toEqual([C, D(127), A, B]);
    expect(await marksAfter('\r')).toEqual([D(127), A, B]);
    expect(await marksAfter('sleepy\r')).toEqual([C]);
    expect(await marksAfter('\u0003')).toEqual([D(130), A, B]);
  });

  it('Ctrl-C at the prompt discards the typed line', async () => {
    const t = scripted();
    t.shell.write('echo never');
    t.shell.write('\u0003');
    await tick();
    expect(t.lines()).toEqual(['$ echo never^C']);
    expect(t.partial()).toBe('$ ');
    expect(await run(t, 'echo $?')).toEqual(['130']);
  });

  it('backspace edits the typed line', async () => {
    const t = scripted();
    t.shell.write('echo abX\x7fc\n');
    await tick();
    expect(t.lines()).toEqual(['$ echo abc', 'abc']);
  });

  it('exit ends the shell with its code; later input is ignored', async () => {
    const t = scripted();
    t.shell.write('echo bye && exit 3\n');
    await tick();
    expect(t.exits).toEqual([3]);
    expect(t.lines()).toEqual(['$ echo bye && exit 3', 'bye', 'exit']);
    expect(t.partial()).toBe('');
    t.shell.write('echo more\n');
    await tick();
    expect(t.raw).not.toContain('more');
    const late: number[] = [];
    t.shell.onExit((code) => late.push(code));
    await tick();
    expect(late).toEqual([3]);
  });

  it('exit without a code uses the last status; kill exits with 129', async () => {
    const t = scripted();
    t.shell.write('false; exit\n');
    await tick();
    expect(t.exits).toEqual([1]);
    const k = scripted();
    k.shell.kill();
    await tick();
    expect(k.exits).toEqual([129]);
  });

  it('clear emits a screen clear the sanitizer counts', async () => {
    const t = scripted();
    t.shell.write('clear\n');
    await tick();
    expect(t.raw).toContain('\x1b[2J');
    expect(t.sanitizer.suspicious).toBeGreaterThan(0);
  });

  it('keeps output produced before a listener attaches', async () => {
    const shell = createScriptedShell({ fs: workspace(), root: '/ws', cwd: '/ws' });
    shell.write('echo early\n');
    await tick();
    await tick();
    const t = attach(shell);
    await tick();
    expect(t.raw).toBe(`${A}$ ${B}echo early\r\n${C}early\r\n${D(0)}${A}$ ${B}`);
  });
});

describe('real pty', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs bash in a temp dir, prints output, and exits when killed', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'openspace-pty-')));
    const t = attach(await spawnPty({ shell: '/bin/bash', cwd: dir }));
    expect(t.shell.pid).toBeGreaterThan(0);
    t.shell.write('echo hello; pwd\r');
    const deadline = Date.now() + 5000;
    while (!t.lines().includes('hello') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(t.lines()).toContain('hello');
    await new Promise((r) => setTimeout(r, 100));
    expect(t.lines()).toContain(dir);
    expect(t.lines().join('\n')).not.toContain('\x1b');
    const exited = new Promise<number>((resolve) => t.shell.onExit(resolve));
    t.shell.kill();
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('timeout'), 5000))]);
    expect(typeof code).toBe('number');
    expect(t.exits).toHaveLength(1);
  });

  it('gives bash shell integration: prompt, start and end marks with the exit status, nothing left in the environment', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'openspace-pty-')));
    const t = attach(await spawnPty({ shell: '/bin/bash', cwd: dir }));
    const until = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`no ${what} in ${JSON.stringify(t.raw)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // bash's C and D carry its clock in microseconds (t=), so durations do not depend on when the IDE reads them.
    const bashC = '\\x1b\\]133;C;t=(\\d{16})\\x07';
    const bashD = (status: number) => `\\x1b\\]133;D;${status};t=(\\d{16})\\x07`;
    await until('prompt', () => t.raw.includes(B));
    t.shell.write('false\r');
    await until('D;1', () => t.raw.includes('\x1b]133;D;1;'));
    t.shell.write('no-such-command-here\r');
    await until('D;127', () => t.raw.includes('\x1b]133;D;127;'));
    t.shell.write('env | grep -c -e OPENSPACE_SHELL -e PROMPT_COMMAND; bash -c \'echo "[$PROMPT_COMMAND]"\'\r');
    await until('D;0', () => t.raw.includes('\x1b]133;D;0;'));
    expect(t.lines()).toContain('0');
    expect(t.lines()).toContain('[]');
    // Every command: C after its echoed line, D after its output, then a prompt in A … B.
    expect(t.raw).toMatch(new RegExp(`false\\r\\n.*${bashC}${bashD(1)}.*${esc(A)}\\$ ${esc(B)}`, 's'));
    expect(t.raw).toMatch(new RegExp(`${bashC}[^\\x1b]*command not found\\r\\n${bashD(127)}`, 's'));
    const before = Date.now() * 1000;
    t.shell.write('sleep 0.3; exit_here=1\r');
    const slept = new RegExp(`exit_here=1\\r\\n.*?${bashC}${bashD(0)}`, 's');
    await until('sleep ends', () => slept.test(t.raw));
    const [started, finished] = slept.exec(t.raw)!.slice(1).map(Number) as [number, number];
    expect(started).toBeGreaterThanOrEqual(before);
    expect(finished - started).toBeGreaterThanOrEqual(300_000);
    expect(finished - started).toBeLessThan(5_000_000);
    t.shell.kill();
  });
});
