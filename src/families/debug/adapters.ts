/**
 * The debug adapters OpenSpace starts, by language, and the launch request each takes. Python:
 * debugpy (Debian's python3-debugpy); C, C++, Rust: LLDB's DAP server (lldb-dap, or lldb-vscode
 * before LLVM 18) — programs that speak the Debug Adapter Protocol on stdio. JavaScript and
 * TypeScript: OpenSpace's adapter over Node's inspector (src/families/debug/node/), which runs in
 * this process and starts the program itself. Node only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import type { DebugSession } from '@vscode/debugadapter';
import { ToolError } from '../../contract/index.js';
import { NodeDebugSession } from './node/session.js';
import { writeRelay } from './node/relay.js';
import type { DebugLanguageName, LaunchTarget } from './port.js';
import { attachRefusal, type AttachTarget } from './tools.js';

interface AdapterParts {
  /** adapterID for initialize. */
  id: string;
  /**
   * The launch request's arguments for a program (absolute paths); `hooks`, the directory of
   * debuggerHooks() as the program sees it (inside the sandbox: where it is bound).
   */
  launch(target: LaunchTarget, cwd: string, stopOnEntry: boolean, hooks: string): Record<string, unknown>;
  /** The attach request's arguments for a running program, or INVALID_ARGUMENT saying how this debugger attaches. */
  attach(target: AttachTarget): Record<string, unknown>;
  /**
   * Where an adapter already serves this attach, on 127.0.0.1: `python3 -m debugpy --listen <port>`
   * runs debugpy's adapter inside the program, so the client speaks to that port itself.
   */
  attachServer?(target: AttachTarget): number | undefined;
}

export type { AttachTarget } from './tools.js';

/** An adapter that is a program: its command line (run in the sandbox, with the program it starts). */
export interface ProcessAdapter extends AdapterParts {
  argv: string[];
}

/** Runs a command line (in the sandbox, where there is one) in `cwd`, with stdio piped. */
export type RunCommand = (argv: string[], cwd: string) => Promise<ChildProcess>;

/**
 * An adapter that runs in this process; the program it debugs goes through `run`, and may use the
 * files it writes in the session's hooks directory (`host` here, `inside` as the program sees it).
 */
export interface InProcessAdapter extends AdapterParts {
  create(run: RunCommand, hooks: { host: string; inside: string }): DebugSession;
}

export type Adapter = ProcessAdapter | InProcessAdapter;

/** Where the agent sandbox is, for what an adapter runs: `command` wraps a command line in it. */
export interface DebugSandbox {
  /** The command line running `argv` in the agent sandbox, starting in `cwd`. */
  command(argv: string[], cwd: string, env: NodeJS.ProcessEnv, exchange: string): Promise<string[] | { unavailable: string }>;
}

/**
 * Run command lines in the sandbox (or, without one, here) with `hooks` as the exchange directory,
 * in a process group of their own (stopping a session stops everything it started).
 */
export function commandRunner(sandbox: DebugSandbox | undefined, hooks: string): RunCommand {
  return async (argv, cwd) => {
    let line = argv;
    if (sandbox) {
      const wrapped = await sandbox.command(argv, cwd, process.env, hooks);
      if ('unavailable' in wrapped) throw new ToolError('NO_DEBUGGER', `The agent sandbox cannot start here: ${wrapped.unavailable}`);
      line = wrapped;
    }
    return spawn(line[0]!, line.slice(1), { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  };
}

/**
 * The debugged program's startup hook, for two things debugpy does late:
 * - Its side in the program leaves Nagle's algorithm on (microsoft/debugpy#2054), so each message it
 *   sends waits about 40 ms for a delayed ACK: a step and the stack, scopes and variables after it
 *   took ~200 ms instead of ~20. The hook turns TCP_NODELAY on for the sockets debugpy's own modules
 *   connect and leaves every other socket alone.
 * - Its launcher relays what the program prints, from another process (the program's stdout and
 *   stderr are pipes to it), while the program itself tells where it stopped: on a busy machine the
 *   stop came first, and its answer lacked the lines printed just before it. A thread that stops
 *   now first waits, at most a second, until the launcher has read those pipes (FIONREAD 0), then
 *   as long again (at most 200 ms) for it to pass the lines on: a launcher late to read is late to
 *   send too. The lines then reach the IDE before the stop does (state.ts waits for stragglers).
 * Then it runs the system's sitecustomize as Python would have.
 */
const DEBUGPY_SITECUSTOMIZE = `import os as _os, socket as _socket, sys as _sys

_connect = _socket.socket.connect


def _openspace_connect(self, address):
    result = _connect(self, address)
    caller = _sys._getframe(1).f_globals.get("__name__", "")
    if caller.startswith(("_pydev", "pydevd", "debugpy")) and self.family in (_socket.AF_INET, _socket.AF_INET6):
        self.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
    return result


_socket.socket.connect = _openspace_connect


def _openspace_pipes():
    import stat

    pipes = []
    for fd in (1, 2):
        try:
            if stat.S_ISFIFO(_os.fstat(fd).st_mode):
                pipes.append(fd)
        except OSError:
            pass
    return pipes


def _openspace_printed_relayed(limit=1.0, grace=0.2):
    import fcntl, struct, termios, time

    def unread(fd):
        try:
            return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, bytes(4)))[0]
        except OSError:
            return 0

    pipes = _openspace_pipes()
    start = time.monotonic()
    deadline = start + limit
    while any(unread(fd) for fd in pipes) and time.monotonic() < deadline:
        time.sleep(0.002)
    # The launcher has read the lines but has yet to pass them on: as late as it was reading them.
    lag = time.monotonic() - start
    time.sleep(max(0.0, min(grace, lag, deadline - time.monotonic())))


class _OpenSpacePydevd:
    """Wraps pydevd's PyDB.do_wait_suspend, where a thread stops, once debugpy imports pydevd."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "pydevd":
            return None
        _sys.meta_path.remove(cls)
        import importlib.util as _util

        spec = _util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def _exec_module(module):
            exec_module(module)
            original = getattr(getattr(module, "PyDB", None), "do_wait_suspend", None)
            if original is None:
                return

            def do_wait_suspend(self, *args, **kwargs):
                _openspace_printed_relayed()
                return original(self, *args, **kwargs)

            module.PyDB.do_wait_suspend = do_wait_suspend

        spec.loader.exec_module = _exec_module
        return spec


_sys.meta_path.insert(0, _OpenSpacePydevd)

_here = _os.path.dirname(_os.path.abspath(__file__))
for _dir in _sys.path:
    _candidate = _os.path.join(_dir or ".", "sitecustomize.py")
    if _os.path.abspath(_dir or ".") != _here and _os.path.isfile(_candidate):
        import importlib.util as _util

        _spec = _util.spec_from_file_location("_system_sitecustomize", _candidate)
        _spec.loader.exec_module(_util.module_from_spec(_spec))
        break
`;

/**
 * A new private directory with the debugged program's startup hook, one per session: bound into
 * the sandbox writable, a directory could carry a program's changes into the next session, which
 * might run outside it. `remove` when the session ends (at the latest, this process's exit does).
 */
export function debuggerHooks(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'openspace-debug-'));
  writeFileSync(join(dir, 'sitecustomize.py'), DEBUGPY_SITECUSTOMIZE);
  if (!removedAtExit) process.once('exit', () => hookDirectories.forEach((d) => rmSync(d, { recursive: true, force: true })));
  removedAtExit = true;
  hookDirectories.add(dir);
  return {
    dir,
    remove() {
      hookDirectories.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const hookDirectories = new Set<string>();
let removedAtExit = false;

const found = new Map<string, string | undefined>();

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The first Python that has debugpy: Debian's (/usr/bin/python3) before another python3 on PATH. */
function debugpyPython(): string | undefined {
  if (!found.has('python')) {
    const candidates = [...new Set(['/usr/bin/python3', onPath('python3')].filter((p): p is string => !!p && existsSync(p)))];
    found.set(
      'python',
      candidates.find((python) => {
        try {
          execFileSync(python, ['-c', 'import debugpy'], { stdio: 'ignore', timeout: 10_000 });
          return true;
        } catch {
          return false;
        }
      }),
    );
  }
  return found.get('python');
}

function lldbDap(): string | undefined {
  if (!found.has('lldb')) {
    const names = [
      'lldb-dap',
      ...[20, 19, 18].map((v) => `lldb-dap-${v}`),
      'lldb-vscode',
      ...[17, 16, 15, 14].map((v) => `lldb-vscode-${v}`),
    ];
    found.set(
      'lldb',
      names.map(onPath).find((p) => p !== undefined),
    );
  }
  return found.get('lldb');
}

function refuseAttach(language: DebugLanguageName, target: AttachTarget): void {
  const refusal = attachRefusal(language, target);
  if (refusal) throw new ToolError('INVALID_ARGUMENT', refusal, { field: target.pid === undefined ? 'port' : 'pid' });
}

/**
 * The language of a running program to attach to, once something is there to attach to: a process's
 * from its executable (node, python, else C); a port's is Node's when a Node inspector answers HTTP
 * there, else Python's (debugpy). No such process, or no inspector where Node's is asked for, is a
 * clear error before any debugger starts.
 */
export async function attachLanguage(target: AttachTarget, language?: DebugLanguageName): Promise<DebugLanguageName> {
  if (target.pid !== undefined) {
    const exe = await readlink(`/proc/${target.pid}/exe`).catch(() => {
      throw new ToolError('INVALID_ARGUMENT', `There is no process ${target.pid} here.`, { field: 'pid' });
    });
    if (language) return language;
    const name = basename(exe);
    return /^node/.test(name) ? 'node' : /^python/.test(name) ? 'python' : 'c';
  }
  const inspector = await fetch(`http://127.0.0.1:${target.port}/json/version`, { signal: AbortSignal.timeout(2000) })
    .then((r) => r.ok)
    .catch(() => false);
  if (inspector && language !== 'python') return 'node';
  if (language === 'node') throw new ToolError('DEBUG_FAILED', `No Node inspector answers on 127.0.0.1:${target.port}.`);
  // Not probed further: debugpy takes the first connection to its port as its client.
  return language ?? 'python';
}

/** The adapter for a language, or NO_DEBUGGER saying what to install. */
export function adapterFor(language: DebugLanguageName): Adapter {
  if (language === 'python') {
    const python = debugpyPython();
    if (!python)
      throw new ToolError(
        'NO_DEBUGGER',
        'No Python here has debugpy: install it (Debian: apt-get install python3-debugpy; else pip install debugpy).',
      );
    return {
      argv: [python, '-m', 'debugpy.adapter'],
      id: 'debugpy',
      launch: ({ program, module, args, runtimeArgs }, cwd, stopOnEntry, hooks) => ({
        type: 'python',
        request: 'launch',
        ...(module ? { module } : { program }),
        args,
        cwd,
        stopOnEntry,
        python: [python],
        pythonArgs: runtimeArgs,
        console: 'internalConsole',
        redirectOutput: true,
        justMyCode: true,
        env: { PYTHONPATH: hooks },
      }),
      attach: (target) => {
        refuseAttach('python', target);
        return { type: 'python', request: 'attach', connect: { host: '127.0.0.1', port: target.port }, justMyCode: true };
      },
      attachServer: (target) => target.port,
    };
  }
  if (language === 'c') {
    const lldb = lldbDap();
    if (!lldb)
      throw new ToolError('NO_DEBUGGER', 'No LLDB DAP server here (lldb-dap or lldb-vscode): install LLDB (Debian: apt-get install lldb).');
    return {
      argv: [lldb],
      id: 'lldb',
      launch: ({ program, args }, cwd, stopOnEntry) => ({ type: 'lldb', request: 'launch', program, args, cwd, stopOnEntry }),
      attach: (target) => {
        refuseAttach('c', target);
        return { type: 'lldb', request: 'attach', pid: target.pid };
      },
    };
  }
  return {
    id: 'openspace-node',
    // The relay the program runs under is written beside the startup hooks, where the sandbox binds them.
    create: (run, hooks) =>
      new NodeDebugSession({
        startRelay: (argv, cwd) => {
          const relay = join(hooks.inside, basename(writeRelay(hooks.host)));
          return run([process.execPath, '--experimental-websocket', relay, ...argv], cwd);
        },
      }),
    launch: ({ program, args, runtimeArgs }, cwd, stopOnEntry) => ({
      type: 'node',
      request: 'launch',
      program,
      args,
      runtimeArgs,
      cwd,
      stopOnEntry,
    }),
    attach: (target) => ({ type: 'node', request: 'attach', ...target }),
  };
}
