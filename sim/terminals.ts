import { ToolError, type TerminalInfo } from '../src/contract/index.js';
import type { Disposable } from '../src/contract/port.js';
import type { TerminalPort } from '../src/families/index.js';
import { terminalExited } from '../src/families/terminal/commands.js';
import type { SimLayout } from './layout.js';
import type { ShellBackend } from './shell-backend.js';

export type TerminalBackendKind = 'process' | 'scripted';

export interface SimTerminalsOptions {
  /** Start a backend for a terminal: cwd is workspace-relative; a person's own terminal is not sandboxed. */
  spawn(options: { cwd: string; shellPath?: string; personal: boolean }): Promise<ShellBackend>;
}

interface SimTerminal {
  info: TerminalInfo;
  backend: ShellBackend;
}

type OutputListener = (terminalId: string, data: string) => void;

/**
 * Terminals of the simulated IDE: each a shell backend (a real shell through node-pty, or the
 * scripted shell) shown as a tab in the bottom panel; their output goes to onOutput's listeners.
 */
export class SimTerminals implements TerminalPort, Disposable {
  private readonly terminals = new Map<string, SimTerminal>();
  private readonly outputListeners = new Set<OutputListener>();
  private lastActive: string | undefined;

  constructor(
    private readonly layout: SimLayout,
    private readonly options: SimTerminalsOptions,
  ) {}

  async create(options: { terminalId: string; title: string; cwd: string; shellPath?: string }, personal = false): Promise<TerminalInfo> {
    const backend = await this.options.spawn({ cwd: options.cwd, shellPath: options.shellPath, personal });
    const terminal: SimTerminal = {
      info: {
        terminalId: options.terminalId,
        title: options.title,
        cwd: options.cwd,
        running: true,
        sandboxed: backend.sandboxed,
        ...(personal && { personal }),
      },
      backend,
    };
    backend.onData((chunk) => {
      for (const listener of this.outputListeners) listener(options.terminalId, chunk);
    });
    backend.onExit((code) => {
      terminal.info.running = false;
      terminal.info.exitCode = code;
    });
    this.terminals.set(options.terminalId, terminal);
    this.lastActive = options.terminalId;
    await this.layout.openContent({ type: 'terminal', contentId: options.terminalId, title: options.title });
    return { ...terminal.info };
  }

  /** A person opens a terminal of their own (Terminal → New Terminal): agents read it only with their permission. */
  personOpens(terminalId: string): Promise<TerminalInfo> {
    return this.create({ terminalId, title: terminalId, cwd: '' }, true);
  }

  /** The terminal's process (a sandboxed one's bwrap), if it has one. */
  pid(terminalId: string): number | undefined {
    return this.terminals.get(terminalId)?.backend.pid;
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((t) => ({ ...t.info }));
  }

  activeTerminalId(): string | undefined {
    const shown = this.layout.activeContentOf('bottom');
    return shown !== undefined && this.terminals.has(shown) ? shown : this.lastActive;
  }

  async send(terminalId: string, data: string): Promise<void> {
    const terminal = this.require(terminalId);
    if (!terminal.info.running) throw terminalExited(terminal.info);
    this.lastActive = terminalId;
    terminal.backend.write(data);
  }

  onOutput(listener: OutputListener): Disposable {
    this.outputListeners.add(listener);
    return { dispose: () => this.outputListeners.delete(listener) };
  }

  async close(terminalId: string): Promise<void> {
    const terminal = this.require(terminalId);
    this.terminals.delete(terminalId);
    if (this.lastActive === terminalId) this.lastActive = undefined;
    if (terminal.info.running) terminal.backend.kill();
    if (this.layout.isOpen(terminalId)) await this.layout.closeContent(terminalId);
  }

  dispose(): void {
    for (const t of this.terminals.values()) if (t.info.running) t.backend.kill();
    this.terminals.clear();
  }

  private require(terminalId: string): SimTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new ToolError('TERMINAL_NOT_FOUND', `No terminal "${terminalId}".`);
    return terminal;
  }
}
