/**
 * A real shell for the simulated IDE's terminals, through node-pty. node-pty is a native module:
 * it is imported on the first spawnPty call, so loading this file stays cheap.
 */
import { posix as path } from 'node:path';
import type { IPty } from 'node-pty';
import { shellIntegrationEnv } from '../src/families/terminal/shell-integration.js';
import { endSandboxSession } from '../src/security/sandbox-host.js';
import { DataChannel, ExitSignal, type ShellBackend } from './shell-backend.js';

type NodePty = typeof import('node-pty');
let nodePty: Promise<NodePty> | undefined;

function loadNodePty(): Promise<NodePty> {
  // node-pty is CommonJS: depending on the loader its API is the namespace or its default export.
  nodePty ??= import('node-pty').then((m: NodePty & { default?: NodePty }) => m.default ?? m);
  return nodePty;
}

export interface SpawnPtyOptions {
  /**
   * Shell executable; default $SHELL or /bin/bash. bash is started with --norc --noprofile and
   * with shell integration (src/families/terminal/shell-integration.ts).
   */
  shell?: string;
  cwd: string;
  cols?: number;
  rows?: number;
  /** Added to (and overriding) the inherited environment, TERM=xterm-256color and PS1='$ '. */
  env?: Record<string, string>;
  /**
   * The command line that runs the shell's command line, with the environment it would have, in the
   * sandbox (src/security/sandbox-runtime.ts); absent: unsandboxed.
   */
  sandbox?: (command: string[], env: Record<string, string>) => Promise<string[]>;
  /** An agent's shell: bash without history (no key recalls a line the person allowed once). */
  agent?: boolean;
}

/** Start a real shell in a pseudo-terminal. Async because node-pty is loaded on first use. */
export async function spawnPty(opts: SpawnPtyOptions): Promise<ShellBackend> {
  const pty = await loadNodePty();
  const shell = opts.shell ?? process.env['SHELL'] ?? '/bin/bash';
  const bash = path.basename(shell) === 'bash';
  const args = bash ? ['--norc', '--noprofile'] : [];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env['PROMPT_COMMAND'];
  Object.assign(env, { TERM: 'xterm-256color', PS1: '$ ' }, bash && shellIntegrationEnv({ agent: opts.agent }), opts.env);
  const [file, ...argv] = opts.sandbox ? await opts.sandbox([shell, ...args], env) : [shell, ...args];
  const proc = pty.spawn(file!, argv, {
    name: 'xterm-256color',
    cwd: opts.cwd,
    cols: opts.cols ?? 120,
    rows: opts.rows ?? 30,
    env,
  });
  return new PtyShell(proc, opts.sandbox !== undefined);
}

class PtyShell implements ShellBackend {
  private readonly data = new DataChannel();
  private readonly exit = new ExitSignal();

  constructor(
    private readonly proc: IPty,
    readonly sandboxed: boolean,
  ) {
    proc.onData((chunk) => this.data.emit(chunk));
    proc.onExit(({ exitCode, signal }) => this.exit.fire(signal ? 128 + signal : exitCode));
  }

  get pid(): number {
    return this.proc.pid;
  }

  write(data: string): void {
    if (this.exit.fired) return;
    this.proc.write(data);
  }

  kill(): void {
    if (this.exit.fired) return;
    // The sandbox, bwrap and all (node-pty made bwrap a session leader): a hangup can miss a sandbox still being set up.
    if (this.sandboxed) return endSandboxSession(this.proc.pid);
    try {
      this.proc.kill();
    } catch {
      // already gone; onExit reports it
    }
  }

  onData(cb: (chunk: string) => void): void {
    this.data.on(cb);
  }

  onExit(cb: (code: number) => void): void {
    this.exit.on(cb);
  }
}

// ---------------------------------------------------------------------------------------------
// Scripted shell

/** The synchronous part of the fs API the scripted shell uses; memfs's IFs and node:fs fit. */
