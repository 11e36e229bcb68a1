/**
 * What debug.start runs: a program, or the command line a person would type to run it (`pytest -k
 * total`, `python3 -m app serve`, `node --enable-source-maps dist/main.js`, `npx tsx src/cli.ts`,
 * `./build/app input.txt`), read as the debugger that runs it needs it. The line is parsed as the
 * shell would (unbash) and must be one simple command of words known before it runs: no pipes,
 * redirections, variables or globs, since no shell runs it. Its first word names the interpreter or
 * the executable: Python and Node by name, else the file it is (found as the shell would: a path
 * from the working directory, the workspace's node_modules/.bin as npx does, then PATH) by its
 * first bytes — an ELF executable is LLDB's, a `#!` script Python's or Node's as its interpreter
 * says. Node only.
 */
import { constants } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parse, type Command } from 'unbash';
import { ToolError } from '../../contract/index.js';
import { commandArgs } from '../../security/dangerous-commands/words.js';
import type { DebugLanguageName, DebugLaunch, LaunchTarget } from './port.js';

const PYTHON = /^python(\d+(\.\d+)?)?$/;
/** Python options that take a value as the next word. */
const PYTHON_VALUED = new Set(['-W', '-X', '--check-hash-based-pycs']);
/** Node options that take a value as the next word (the `--opt=value` form needs nothing). */
const NODE_VALUED = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--env-file',
  '--input-type',
  '--stack-size',
  '--title',
  '--max-old-space-size',
]);
const PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
/** Python tools whose command is their module's (`pytest …` is `python3 -m pytest …`): the debugger's Python runs them, whatever wrapper is on PATH. */
const PYTHON_MODULES = new Set(['pytest', 'py.test', 'unittest', 'pip']);

const refuse = (message: string): never => {
  throw new ToolError('INVALID_ARGUMENT', message, { field: 'command' });
};

/** The launch a debug.start means: its program (workspace-relative, checked by the path guard) or its command line. */
export async function launchTarget(launch: DebugLaunch, root: string): Promise<LaunchTarget> {
  const cwd = resolve(root, launch.cwd);
  if (launch.command !== undefined) return commandLaunch(launch.command, cwd, root, launch.language);
  const program = resolve(root, launch.program ?? '');
  return { language: launch.language ?? languageOf(program), program, args: launch.args, runtimeArgs: [] };
}

/** A program's debugger by its name: .py Python's, .js and .ts Node's, else an executable's (LLDB). */
export function languageOf(program: string): DebugLanguageName {
  if (/\.py$/.test(program)) return 'python';
  if (/\.[cm]?[jt]s$/.test(program)) return 'node';
  return 'c';
}

/** The words of a command line, when it is one simple command the debugger can run without a shell. */
export function commandWords(line: string): string[] {
  const statements = parse(line).commands;
  const command = statements.length === 1 ? statements[0]!.command : undefined;
  if (!command || command.type !== 'Command' || !command.name)
    return refuse('Give one command (no pipes, `;`, `&&` or subshells): the debugger runs one program.');
  const simple = command as Command;
  if (simple.prefix.length > 0)
    return refuse('Variables set before the command are not passed to the debugged program: set them in the program or its config.');
  if (simple.suffix.some((part) => part.type !== 'Word'))
    return refuse('Redirections need a shell: the debugger runs the program itself and shows its output (openspace.debug.wait).');
  const args = commandArgs(simple);
  const unknown = args.find((arg) => !arg.literal);
  if (unknown) return refuse(`"${unknown.word?.text ?? unknown.value}" needs a shell to expand: write the value itself.`);
  return args.map((arg) => arg.value);
}

/**
 * The launch a command line means, run in `cwd` (absolute) of the workspace at `root`: the
 * interpreter's options, the program or module, and its arguments; `language` when the person or
 * agent says which debugger. INVALID_ARGUMENT says what the debugger cannot run and how to.
 */
export async function commandLaunch(line: string, cwd: string, root: string, language?: DebugLanguageName): Promise<LaunchTarget> {
  let words = commandWords(line);
  if (words[0] === 'npx') {
    words = words.slice(1);
    while (words[0]?.startsWith('-')) words.shift();
  }
  const [name = '', ...rest] = words;
  if (PACKAGE_MANAGERS.has(name))
    return refuse(
      `${name} runs a script in processes of its own, which the debugger does not follow: debug the command the script runs ` +
        '(package.json\'s "scripts"), e.g. `node test/cart.test.js` or `npx tsx src/main.ts`.',
    );
  const target =
    name === 'tsx' || name === 'node'
      ? node(rest, cwd, name)
      : PYTHON.test(name)
        ? python(rest, cwd)
        : PYTHON_MODULES.has(name)
          ? python(['-m', name === 'py.test' ? 'pytest' : name, ...rest], cwd)
          : await executable(name, cwd, root).then(async (file) => ({
              language: language ?? (await kindOf(file, name)),
              program: file,
              args: rest,
              runtimeArgs: [],
            }));
  if (target.program && !(await stat(target.program).catch(() => undefined))?.isFile())
    throw new ToolError('FILE_NOT_FOUND', `There is no file ${relative(root, target.program)} to run.`, {
      path: relative(root, target.program),
    });
  return target;
}

/** `python3 [options] (-m module | script) args…` */
function python(words: string[], cwd: string): LaunchTarget {
  const runtimeArgs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-m') {
      const module = words[i + 1] ?? refuse('`-m` needs a module: python3 -m pytest …');
      return { language: 'python', program: '', module, args: words.slice(i + 2), runtimeArgs };
    }
    if (word === '-c' || word === '-') return refuse('The debugger runs a script or a module (-m), not code given on the command line.');
    if (!word.startsWith('-')) return { language: 'python', program: resolve(cwd, word), args: words.slice(i + 1), runtimeArgs };
    runtimeArgs.push(word);
    if (PYTHON_VALUED.has(word)) runtimeArgs.push(words[++i] ?? refuse(`${word} needs a value.`));
  }
  return refuse('Name the script or module (-m) for Python to run: the debugger does not run an interactive Python.');
}

/** `node [options] script args…`, and `tsx script args…` (TypeScript goes through tsx anyway). */
function node(words: string[], cwd: string, name: string): LaunchTarget {
  const runtimeArgs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (['-e', '--eval', '-p', '--print', '-'].includes(word))
      return refuse('The debugger runs a script, not code given on the command line.');
    if (word === '--test' || word.startsWith('--test='))
      return refuse(
        "node --test runs each test file in a process of its own, which the debugger does not follow: run the file itself (node:test runs a file's tests when the file is the program), e.g. `node test/cart.test.js`.",
      );
    if (word.startsWith('--inspect')) return refuse(`${word}: the debugger turns Node's inspector on itself.`);
    if (!word.startsWith('-')) return { language: 'node', program: resolve(cwd, word), args: words.slice(i + 1), runtimeArgs };
    if (name !== 'node') return refuse(`${name}'s options are not taken here: name the script, e.g. \`${name} src/main.ts\`.`);
    runtimeArgs.push(word);
    if (NODE_VALUED.has(word)) runtimeArgs.push(words[++i] ?? refuse(`${word} needs a value.`));
  }
  return refuse(`Name the script for ${name} to run: the debugger does not run a REPL.`);
}

async function isExecutable(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return (
    !!info?.isFile() &&
    (await access(path, constants.X_OK).then(
      () => true,
      () => false,
    ))
  );
}

/** The file a command's first word runs: a path from `cwd`, else the workspace's node_modules/.bin (from `cwd` up to `root`), else PATH. */
async function executable(name: string, cwd: string, root: string): Promise<string> {
  if (name.includes('/')) {
    const path = resolve(cwd, name);
    if (await isExecutable(path)) return path;
    return refuse(`There is no executable program at ${name} (from ${relative(root, cwd) || 'the workspace root'}).`);
  }
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(join(dir, 'node_modules', '.bin'));
    if (dir === root || !dir.startsWith(root + sep) || dir === dirname(dir)) break;
  }
  dirs.push(...(process.env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir)));
  for (const dir of dirs) if (await isExecutable(join(dir, name))) return join(dir, name);
  return refuse(`No program named ${name} here (not in the workspace's node_modules/.bin nor on PATH).`);
}

/** Which debugger runs a file: an ELF executable is LLDB's; a script is its `#!` interpreter's. */
async function kindOf(file: string, name: string): Promise<DebugLanguageName> {
  const handle = await open(file, 'r');
  const head = Buffer.alloc(256);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  if (head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'c';
  const shebang = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(head.toString('utf8').split('\n')[0] ?? '');
  const interpreter = shebang && (/\/env$/.test(shebang[1]!) ? shebang[2] : shebang[1])?.split('/').pop();
  if (interpreter && PYTHON.test(interpreter)) return 'python';
  if (interpreter === 'node') return 'node';
  return refuse(
    `Which debugger runs ${name} is not clear (${interpreter ? `a ${interpreter} script` : 'not an executable or a Python or Node script'}): ` +
      'name the interpreter (python3 …, node …), or pass language.',
  );
}
