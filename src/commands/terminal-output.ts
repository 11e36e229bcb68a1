import type { Disposable, IdePort, TerminalPort } from '../contract/port.js';
import { TerminalRingBuffer, type ScreenRead, type TerminalRingBufferOptions } from './ring-buffer.js';
import { SecretRedactor } from '../security/redact.js';
import { TerminalSanitizer } from '../security/sanitize.js';

const MARKER = /\[REDACTED:[a-z_]+\]/;

export interface TerminalRead extends ScreenRead {
  /** Whether any of the text returned had a secret replaced by a [REDACTED:…] marker. */
  redacted: boolean;
}

export interface TerminalOutputOptions extends TerminalRingBufferOptions {
  /** Where warnings about suspicious sequences go (default: console.warn). */
  warn?: (message: string) => void;
}

/**
 * A terminal's output as an agent reads it: escape sequences removed (sanitizer), secrets replaced
 * (redactor, which holds back the current line until it is complete), then assembled into screen
 * lines (ring buffer). Browser-safe: the simulated IDE and Theia use the same pipeline.
 */
export class TerminalOutput {
  private readonly sanitizer = new TerminalSanitizer();
  private readonly redactor = new SecretRedactor();
  private readonly screen: TerminalRingBuffer;
  private readonly label: string;
  private readonly warn: (message: string) => void;
  private warnedAt = 0;

  constructor(options: TerminalOutputOptions & { /** Names the terminal in warnings. */ label?: string } = {}) {
    this.screen = new TerminalRingBuffer(options);
    this.label = options.label ?? 'a terminal';
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /** Raw output as the terminal received it. */
  write(chunk: string): void {
    this.screen.append(this.redactor.write(this.sanitizer.write(chunk)).text);
    const seen = this.sanitizer.suspicious;
    if (seen > this.warnedAt) {
      this.warn(
        `openspace: warning: ${this.label} printed ${seen - this.warnedAt} suspicious escape sequence(s) ` +
          `(clipboard write, device control or application string); removed from what agents read (${seen} so far)`,
      );
      this.warnedAt = seen;
    }
  }

  /** Sequences that try to do more than colour text (clipboard writes, screen clears …) seen so far. */
  get suspicious(): number {
    return this.sanitizer.suspicious;
  }

  cursor(): number {
    return this.screen.cursor();
  }

  read(options: { lines: number; since?: number }): TerminalRead {
    const read = this.screen.read(options);
    // The line still held back for redaction is shown, redacted, as part of the unfinished line.
    const partial = this.screen.preview(this.redactor.peek().text);
    return { ...read, partial, redacted: read.lines.some((l) => MARKER.test(l)) || MARKER.test(partial) };
  }
}

/**
 * The output of every terminal of one IDE, kept here rather than by the IDE: its port hands over raw
 * output only (TerminalPort.onOutput), so what agents read is sanitized and redacted whatever the IDE.
 */
export class TerminalScreens implements Disposable {
  private readonly screens = new Map<string, TerminalOutput>();
  private readonly lastOutput = new Map<string, number>();
  private readonly subscription: Disposable;

  constructor(
    private readonly port: TerminalPort,
    private readonly options: TerminalOutputOptions = {},
  ) {
    this.subscription = port.onOutput((terminalId, data) => {
      this.lastOutput.set(terminalId, Date.now());
      this.screen(terminalId).write(data);
    });
  }

  /** Total complete lines the terminal has printed (0 before its first output). */
  cursor(terminalId: string): number {
    return this.screens.get(terminalId)?.cursor() ?? 0;
  }

  /** When the terminal last printed, as an ISO time; undefined before its first output. */
  lastActivity(terminalId: string): string | undefined {
    const at = this.lastOutput.get(terminalId);
    return at === undefined ? undefined : new Date(at).toISOString();
  }

  read(terminalId: string, options: { lines: number; since?: number }): TerminalRead {
    return this.screen(terminalId).read(options);
  }

  /** Drop a terminal's output: it was closed, or its ID is about to name a new terminal. */
  forget(terminalId: string): void {
    this.screens.delete(terminalId);
    this.lastOutput.delete(terminalId);
  }

  dispose(): void {
    this.subscription.dispose();
    this.screens.clear();
  }

  private screen(terminalId: string): TerminalOutput {
    let screen = this.screens.get(terminalId);
    if (!screen) {
      // A terminal's first output: let go of terminals closed since (a person may close one in the IDE).
      const listed = new Set(this.port.list().map((t) => t.terminalId));
      for (const id of this.screens.keys()) if (!listed.has(id)) this.screens.delete(id);
      screen = new TerminalOutput({ ...this.options, label: `terminal "${terminalId}"` });
      this.screens.set(terminalId, screen);
    }
    return screen;
  }
}

const attached = new WeakMap<TerminalPort, TerminalScreens>();

/**
 * The screens of an IDE's terminals. An IDE calls this once it has its port, so that output is kept
 * from its first terminal on; the options apply from that first call.
 */
export function terminalScreens(ide: IdePort, options?: TerminalOutputOptions): TerminalScreens {
  let screens = attached.get(ide.terminals);
  if (!screens) {
    screens = new TerminalScreens(ide.terminals, options);
    attached.set(ide.terminals, screens);
  }
  return screens;
}
