import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';
import type { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { TerminalExitReason } from '@theia/terminal/lib/common/base-terminal-protocol';
import { Emitter } from '@theia/core/lib/common/event';
import { ToolError, type TerminalInfo, terminalExited, shellIntegrationEnv } from '../../../../src/browser.js';
import type { Disposable, TerminalPort } from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';
import { TheiaShellPort } from './theia-shell-port.js';
import { TheiaSandbox } from './theia-sandbox.js';

interface Captured {
  widget: TerminalWidget;
  cwd: string;
  /** Opened through the port (by an agent, or a person's OpenSpace command); the rest are the person's own. */
  openedByOpenSpace?: boolean;
  /** Its shell runs in the sandbox (only terminals OpenSpace opened): bwrap's process id, asked for once it started. */
  sandbox?: Promise<number | undefined>;
}

/**
 * Terminals over Theia's TerminalService. Every terminal's output stream (what the shell printed,
 * not the keys typed) goes to onOutput's listeners, whoever created the terminal.
 */
@injectable()
export class TheiaTerminalPort implements TerminalPort {
  @inject(TerminalService) protected readonly terminals!: TerminalService;
  @inject(TheiaShellPort) protected readonly shell!: TheiaShellPort;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(TheiaSandbox) protected readonly sandbox!: TheiaSandbox;

  private readonly captured = new Map<string, Captured>();
  /** Terminals whose process exited: Theia closes their widget, the agent can still read how they ended. */
  private readonly exited = new Map<string, TerminalInfo>();
  private readonly output = new Emitter<{ terminalId: string; data: string }>();
  private lastActive: string | undefined;

  @postConstruct()
  protected init(): void {
    this.terminals.onDidCreateTerminal((widget) => this.capture(widget, ''));
  }

  async create(options: { terminalId: string; title: string; cwd: string; shellPath?: string }): Promise<TerminalInfo> {
    const cwd = this.ids.uriOf(options.cwd).toString(); // NO_WORKSPACE first, when no folder is open
    const sandboxed = await this.sandbox.shell(options.cwd, options.shellPath);
    const widget = await this.terminals.newTerminal({
      id: options.terminalId,
      title: options.title,
      cwd,
      // In the sandbox, Theia starts bwrap, which starts the shell.
      shellPath: sandboxed?.shellPath ?? options.shellPath,
      shellArgs: sandboxed?.shellArgs,
      useServerTitle: false,
      destroyTermOnClose: true,
      // bash reports its prompts and commands (OSC 133) for terminal.run; other shells ignore it.
      env: shellIntegrationEnv({ agent: true }),
    });
    const captured = this.capture(widget, options.cwd);
    captured.cwd = options.cwd;
    captured.openedByOpenSpace = true;
    await widget.start();
    if (sandboxed) captured.sandbox = widget.processId.catch(() => undefined);
    // The agent gets the terminal once its shell runs; its tab is added right after the answer,
    // before any other command runs.
    this.shell.placeSoon(widget, 'bottom', { area: 'bottom' });
    this.lastActive = options.terminalId;
    return this.info(this.captured.get(options.terminalId)!);
  }

  /** The process of a terminal OpenSpace sandboxed (its bwrap), once it started. */
  sandboxPid(terminalId: string): Promise<number | undefined> {
    return this.captured.get(terminalId)?.sandbox ?? Promise.resolve(undefined);
  }

  list(): TerminalInfo[] {
    const open = this.terminals.all.filter((w) => !this.shell.isClosing(w));
    return [...open.map((w) => this.info(this.capture(w, ''))), ...[...this.exited.values()].map((info) => ({ ...info }))];
  }

  activeTerminalId(): string | undefined {
    return this.terminals.lastUsedTerminal?.id ?? this.lastActive;
  }

  async send(terminalId: string, data: string): Promise<void> {
    const gone = this.exited.get(terminalId);
    if (gone) throw terminalExited(gone);
    const terminal = this.require(terminalId);
    if (terminal.widget.exitStatus) throw terminalExited(this.info(terminal));
    this.lastActive = terminalId;
    terminal.widget.sendText(data);
  }

  /** What a terminal's screen and scrollback show (xterm's buffer), for tests that check what a person sees. */
  screen(terminalId: string): string[] {
    const widget = this.terminals.getById(terminalId);
    return widget ? widget.buffer.getLines(0, widget.buffer.length, true) : [];
  }

  onOutput(listener: (terminalId: string, data: string) => void): Disposable {
    return this.output.event(({ terminalId, data }) => listener(terminalId, data));
  }

  async close(terminalId: string): Promise<void> {
    if (this.exited.delete(terminalId)) return;
    const terminal = this.require(terminalId);
    this.captured.delete(terminalId);
    // The sandbox ends beside the widget's own hang-up, without keeping the agent waiting.
    void terminal.sandbox?.then((pid) => {
      if (pid !== undefined) void this.sandbox.end(pid);
    });
    this.shell.closeSoon(terminal.widget, () => terminal.widget.dispose());
  }

  private capture(widget: TerminalWidget, cwd: string): Captured {
    let captured = this.captured.get(widget.id);
    if (captured) return captured;
    widget.onOutput((data) => this.output.fire({ terminalId: widget.id, data }));
    widget.onTerminalDidClose(() => this.shell.notify());
    widget.disposed.connect(() => {
      const entry = this.captured.get(widget.id);
      this.captured.delete(widget.id);
      if (entry && widget.exitStatus?.reason === TerminalExitReason.Process) this.exited.set(widget.id, this.info(entry));
    });
    captured = { widget, cwd };
    this.captured.set(widget.id, captured);
    return captured;
  }

  private info(terminal: Captured): TerminalInfo {
    const exit = terminal.widget.exitStatus;
    return {
      terminalId: terminal.widget.id,
      title: terminal.widget.title.label,
      cwd: terminal.cwd,
      running: exit === undefined,
      ...(exit?.code !== undefined ? { exitCode: exit.code } : {}),
      sandboxed: terminal.sandbox !== undefined,
      ...(!terminal.openedByOpenSpace && { personal: true as const }),
    };
  }

  private require(terminalId: string): Captured {
    const widget = this.terminals.getById(terminalId);
    if (!widget || this.shell.isClosing(widget)) throw new ToolError('TERMINAL_NOT_FOUND', `No terminal "${terminalId}".`);
    return this.capture(widget, '');
  }
}
