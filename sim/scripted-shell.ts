/**
 * The scripted shell: a deterministic shell over the workspace's files (memfs or disk) for tests,
 * scenarios and the demo, with canned responses checked before its builtins (echo, printf, pwd, cd,
 * ls, cat, true, false, clear, exit). It reads command lines with sim/shell-parse.ts.
 */
import { posix as path } from 'node:path';
import { parseLine, ShellSyntaxError, type Segment, type ShellWord } from './shell-parse.js';
import { DataChannel, ExitSignal, type ShellBackend } from './shell-backend.js';
import { echo, printf, type Io } from './scripted-builtins.js';

const toTerminal = (s: string): string => s.replace(/\r?\n/g, '\r\n');

/** Shell-integration marks (OSC 133). */
const mark = (payload: string): string => `\x1b]133;${payload}\x07`;

export interface ShellFs {
  statSync(path: string): { isDirectory(): boolean; isFile(): boolean; size: number | bigint };
  readdirSync(path: string): unknown[];
  readFileSync(path: string, encoding: 'utf8'): string | { toString(): string };
}

/** A canned answer for a command line, checked before the builtins. */
export interface ScriptedResponse {
  /**
   * A string matches a whole command line, or one command of a `&&` `||` `;` list, exactly (after
   * trimming). A RegExp is tested against each command of a list (the whole line when it has one
   * command, or when the simulator cannot parse it, e.g. pipes).
   */
  match: string | RegExp;
  /** Printed as is, with `\n` turned into `\r\n`. */
  output: string;
  exitCode?: number;
  /** Wait this long before printing (Ctrl-C interrupts the wait). */
  delayMs?: number;
}

export interface ScriptedShellOptions {
  fs: ShellFs;
  /** Absolute workspace root inside the volume; `cd` cannot leave it; it is also $HOME. */
  root: string;
  /** Absolute starting directory. */
  cwd: string;
  responses?: ScriptedResponse[];
  /** Default '$ '. */
  prompt?: string;
  /** Extra variables for $VAR expansion (HOME, PWD, USER are predefined). */
  env?: Record<string, string>;
}

/**
 * A deterministic shell: prompt, echo of typed input, builtins (echo, printf, pwd, cd, ls, cat, true,
 * false, exit, clear), `&&` `||` `;`, quoting and $VAR. Output is delivered in microtasks, so it is
 * there once the caller yields to the event loop (e.g. one setImmediate). It has shell integration
 * as bash has it in OpenSpace's terminals (src/families/terminal/shell-integration.ts): OSC 133 A and B around
 * its prompt, C once a command line is read, D;<status> when it has run (empty lines: D only).
 */
export function createScriptedShell(opts: ScriptedShellOptions): ShellBackend {
  return new ScriptedShell(opts);
}

class ScriptedShell implements ShellBackend {
  /** It reaches nothing but its workspace volume, and runs no programs: no sandbox needed. */
  readonly sandboxed = false;
  private readonly data = new DataChannel();
  private readonly exit = new ExitSignal();
  private readonly fs: ShellFs;
  private readonly root: string;
  private readonly prompt: string;
  private readonly responses: ScriptedResponse[];
  private readonly env: Record<string, string>;
  private cwd: string;
  private status = 0;

  private input = '';
  private lineBuffer = '';
  private busy = false;
  private exited = false;
  private pumpScheduled = false;
  private pendingOutput = '';
  private outputScheduled = false;
  /** The running delayed response, if any: interrupting resolves it early. */
  private waiting: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;
  /** Set when Ctrl-C ended the running command: the rest of the command list is skipped. */
  private interrupted = false;

  constructor(opts: ScriptedShellOptions) {
    this.fs = opts.fs;
    this.root = path.resolve('/', opts.root);
    this.cwd = path.resolve(this.root, opts.cwd);
    this.prompt = opts.prompt ?? '$ ';
    this.responses = opts.responses ?? [];
    this.env = { HOME: this.root, USER: 'user', SHELL: '/bin/sh', ...opts.env, PWD: this.cwd };
    this.emitPrompt();
  }

  write(data: string): void {
    if (this.exited || data === '') return;
    if (this.busy && this.waiting) {
      const ctrlC = data.lastIndexOf('\x03');
      if (ctrlC >= 0) {
        // SIGINT: interrupt the running command and flush the typed-ahead input, as a tty does.
        this.input = '';
        data = data.slice(ctrlC + 1);
        this.interrupt();
      }
    }
    this.input += data;
    this.schedulePump();
  }

  kill(): void {
    if (this.exited) return;
    this.finish(129);
  }

  onData(cb: (chunk: string) => void): void {
    this.data.on(cb);
  }

  onExit(cb: (code: number) => void): void {
    this.exit.on(cb);
  }

  // --- terminal side -----------------------------------------------------------------------

  private emit(s: string): void {
    if (s === '') return;
    this.pendingOutput += s;
    if (this.outputScheduled) return;
    this.outputScheduled = true;
    queueMicrotask(() => {
      this.outputScheduled = false;
      const out = this.pendingOutput;
      this.pendingOutput = '';
      this.data.emit(out);
    });
  }

  private emitPrompt(): void {
    this.emit(mark('A') + this.prompt + mark('B'));
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Line discipline: echo and edit typed input; run a line on Enter. */
  private pump(): void {
    while (!this.busy && !this.exited && this.input.length > 0) {
      const input = this.input;
      const c = input.charCodeAt(0);
      let used = 1;
      if (c === 0x0d || c === 0x0a) {
        if (c === 0x0d && input.charCodeAt(1) === 0x0a) used = 2; // \r\n is one Enter
        this.input = input.slice(used);
        const line = this.lineBuffer;
        this.emit(line.trim() === '' ? '\r\n' : '\r\n' + mark('C'));
        this.lineBuffer = '';
        this.busy = true;
        void this.run(line).then(() => {
          this.busy = false;
          if (!this.exited) {
            this.emit(mark(`D;${this.status}`));
            this.emitPrompt();
            this.pump();
          }
        });
        return;
      }
      if (c === 0x03) {
        this.lineBuffer = '';
        this.status = 130;
        this.emit('^C\r\n' + mark('D;130'));
        this.emitPrompt();
      } else if (c === 0x04) {
        if (this.lineBuffer === '') {
          this.emit('exit\r\n');
          this.input = '';
          this.finish(this.status);
          return;
        }
      } else if (c === 0x15) {
        // Ctrl-U: the typed line is erased (back over it, erase to the end, as bash's line editing does).
        if (this.lineBuffer.length > 0) this.emit(`${'\b'.repeat(this.lineBuffer.length)}\x1b[K`);
        this.lineBuffer = '';
      } else if (c === 0x7f || c === 0x08) {
        if (this.lineBuffer.length > 0) {
          this.lineBuffer = this.lineBuffer.slice(0, -1);
          this.emit('\b\x1b[K');
        }
      } else if (c === 0x1b) {
        // A key's escape sequence (arrows and the like): ignored.
        const m = /^\x1b(?:[[O][\x20-\x3f]*[\x40-\x7e]?)?/.exec(input);
        used = m ? m[0].length : 1;
      } else if (c >= 0x20 || c === 0x09) {
        // A run of typed characters: echoed and added to the line.
        const m = /^[^\x00-\x08\x0a-\x1f\x7f]+/.exec(input);
        const run = m ? m[0] : input[0]!;
        used = run.length;
        this.lineBuffer += run;
        this.emit(run);
      }
      this.input = this.input.slice(used);
    }
  }

  private interrupt(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting = undefined;
    this.emit('^C\r\n');
    waiting.resolve();
  }

  private finish(code: number): void {
    this.exited = true;
    if (this.waiting) {
      clearTimeout(this.waiting.timer);
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve();
    }
    // After the output emitted so far has been delivered.
    queueMicrotask(() => this.exit.fire(code));
  }

  // --- shell side -----------------------------------------------------------------------

  private async run(line: string): Promise<void> {
    const io: Io = { out: (s) => this.emit(toTerminal(s)) };
    this.interrupted = false;
    const trimmed = line.trim();
    // A string response for the whole line wins, even for syntax the simulator does not parse (pipes…).
    const whole = this.responses.find((r) => r.match === trimmed);
    if (whole && trimmed !== '') {
      this.status = await this.respond(whole, io);
      return;
    }
    let segments: Segment[];
    try {
      segments = parseLine(line);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      // Unparsable here: a regex response for the whole line may still answer it.
      const byRegex = this.findResponse(trimmed);
      if (byRegex) this.status = await this.respond(byRegex, io);
      else {
        io.out(`sh: ${err.message}\n`);
        this.status = 2;
      }
      return;
    }
    for (const segment of segments) {
      if (segment.op === '&&' && this.status !== 0) continue;
      if (segment.op === '||' && this.status === 0) continue;
      const response = this.findResponse(segment.raw);
      this.status = response ? await this.respond(response, io) : this.builtin(this.expand(segment.words), io);
      if (this.exited || this.interrupted) return;
    }
  }

  private findResponse(command: string): ScriptedResponse | undefined {
    return this.responses.find((r) => (typeof r.match === 'string' ? r.match === command : r.match.test(command)));
  }

  private async respond(response: ScriptedResponse, io: Io): Promise<number> {
    if (response.delayMs !== undefined && response.delayMs > 0) {
      const delay = response.delayMs;
      const interrupted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.waiting = undefined;
          resolve(false);
        }, delay);
        this.waiting = { timer, resolve: () => resolve(true) };
      });
      if (interrupted || this.exited) {
        this.interrupted = true;
        return 130;
      }
    }
    io.out(response.output);
    return response.exitCode ?? 0;
  }

  private expand(words: ShellWord[]): string[] {
    const out: string[] = [];
    for (const word of words) {
      let text = '';
      let hasText = false;
      for (const part of word.parts) {
        if ('text' in part) {
          text += part.text;
          hasText = true;
        } else {
          text += this.variable(part.variable);
        }
      }
      // An unquoted word made only of variables that expand to nothing disappears.
      if (text !== '' || word.quoted || hasText) out.push(text);
    }
    return out;
  }

  private variable(name: string): string {
    if (name === '?') return String(this.status);
    if (name === 'PWD') return this.cwd;
    return this.env[name] ?? '';
  }

  private builtin(argv: string[], io: Io): number {
    const [cmd, ...args] = argv;
    if (cmd === undefined) return this.status;
    switch (cmd) {
      case 'echo':
        return echo(args, io);
      case 'printf':
        return printf(args, io);
      case 'pwd':
        io.out(this.cwd + '\n');
        return 0;
      case 'cd':
        return this.cd(args, io);
      case 'ls':
        return this.ls(args, io);
      case 'cat':
        return this.cat(args, io);
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'clear':
        io.out('\x1b[H\x1b[2J\x1b[3J');
        return 0;
      case 'exit': {
        const arg = args[0];
        let code = this.status;
        if (arg !== undefined) {
          if (/^-?\d+$/.test(arg)) code = ((Number(arg) % 256) + 256) % 256;
          else {
            io.out(`exit: ${arg}: numeric argument required\n`);
            code = 2;
          }
        }
        io.out('exit\n');
        this.finish(code);
        return code;
      }
      default:
        io.out(`${cmd}: command not found\n`);
        return 127;
    }
  }

  private resolve(p: string): string {
    return path.resolve(this.cwd, p);
  }

  private stat(p: string): { isDirectory(): boolean; isFile(): boolean; size: number | bigint } | undefined {
    try {
      return this.fs.statSync(p);
    } catch {
      return undefined;
    }
  }

  private cd(args: string[], io: Io): number {
    let target = args[0] ?? this.env['HOME'] ?? this.root;
    if (target === '-') {
      target = this.env['OLDPWD'] ?? this.cwd;
      io.out(target + '\n');
    }
    const resolved = this.resolve(target);
    if (resolved !== this.root && !resolved.startsWith(this.root === '/' ? '/' : this.root + '/')) {
      io.out(`cd: ${target}: Outside the workspace\n`);
      return 1;
    }
    const stat = this.stat(resolved);
    if (!stat) {
      io.out(`cd: ${target}: No such file or directory\n`);
      return 1;
    }
    if (!stat.isDirectory()) {
      io.out(`cd: ${target}: Not a directory\n`);
      return 1;
    }
    this.env['OLDPWD'] = this.cwd;
    this.cwd = resolved;
    return 0;
  }

  private ls(args: string[], io: Io): number {
    let all = false;
    let long = false;
    const operands: string[] = [];
    for (const arg of args) {
      if (arg.startsWith('-') && arg.length > 1) {
        for (const flag of arg.slice(1)) {
          if (flag === 'a') all = true;
          else if (flag === 'l') long = true;
          else if (flag !== '1') {
            io.out(`ls: invalid option -- '${flag}'\n`);
            return 2;
          }
        }
      } else {
        operands.push(arg);
      }
    }
    if (operands.length === 0) operands.push('.');
    let status = 0;
    const files: { name: string; dir: boolean; size: number }[] = [];
    const dirs: string[] = [];
    for (const operand of operands) {
      const stat = this.stat(this.resolve(operand));
      if (!stat) {
        io.out(`ls: cannot access '${operand}': No such file or directory\n`);
        status = 2;
      } else if (stat.isDirectory()) {
        dirs.push(operand);
      } else {
        files.push({ name: operand, dir: false, size: Number(stat.size) });
      }
    }
    const format = (entries: { name: string; dir: boolean; size: number }[]): string => {
      if (!long) return entries.map((e) => e.name + '\n').join('');
      const width = Math.max(0, ...entries.map((e) => String(e.size).length));
      return entries
        .map((e) => `${e.dir ? 'drwxr-xr-x' : '-rw-r--r--'} 1 user user ${String(e.size).padStart(width)} ${e.name}\n`)
        .join('');
    };
    const blocks: string[] = [];
    if (files.length > 0) blocks.push(format(files.sort((a, b) => compare(a.name, b.name))));
    for (const dir of dirs.sort(compare)) {
      const full = this.resolve(dir);
      let names = this.fs.readdirSync(full).map(String);
      if (!all) names = names.filter((n) => !n.startsWith('.'));
      names.sort(compare);
      if (all) names.unshift('.', '..');
      const entries = names.map((name) => {
        const stat = this.stat(path.join(full, name));
        const isDir = stat?.isDirectory() ?? false;
        return { name, dir: isDir, size: isDir ? 4096 : Number(stat?.size ?? 0) };
      });
      const header = operands.length > 1 ? `${dir}:\n` : '';
      blocks.push(header + format(entries));
    }
    io.out(blocks.join('\n'));
    return status;
  }

  private cat(args: string[], io: Io): number {
    let status = 0;
    for (const arg of args) {
      if (arg === '-') continue; // no stdin in the simulator
      const full = this.resolve(arg);
      const stat = this.stat(full);
      if (!stat) {
        io.out(`cat: ${arg}: No such file or directory\n`);
        status = 1;
      } else if (stat.isDirectory()) {
        io.out(`cat: ${arg}: Is a directory\n`);
        status = 1;
      } else {
        io.out(String(this.fs.readFileSync(full, 'utf8')));
      }
    }
    return status;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
