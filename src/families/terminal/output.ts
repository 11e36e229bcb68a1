import { statePart } from '../../commands/ide-state.js';
import type { Disposable } from '../../contract/port.js';
import type { IdePort } from '../index.js';
import type { TerminalPort } from './port.js';
import { TerminalRingBuffer, type ScreenRead, type TerminalRingBufferOptions } from './ring-buffer.js';
import { SecretRedactor } from '../../security/redact.js';
import { TerminalSanitizer } from '../../security/sanitize.js';
import { ShellMarkScanner, ShellState } from './shell-marks.js';

const MARKER = /\[REDACTED:[a-z_]+\]/;

/** Whether a line read from a terminal had a secret replaced by a [REDACTED:…] marker. */
export const isRedacted = (line: string): boolean => MARKER.test(line);

export interface TerminalRead extends ScreenRead {
  /** Whether any of the text returned had a secret replaced by a [REDACTED:…] marker. */
  redacted: boolean;
}

export interface TerminalOutputOptions extends TerminalRingBufferOptions {
  /** Where warnings about suspicious sequences go (default: console.warn). */
  warn?: (message: string) => void;
}

/** Told after a shell-integration mark changed a terminal's ShellState. */
type MarkListener = (terminalId: string) => void;

/**
 * A terminal's output as an agent reads it: escape sequences removed (sanitizer), secrets replaced
 * (redactor, which holds back the current line until it is complete), then assembled into screen
 * lines (ring buffer). Browser-safe: the simulated IDE and Theia use the same pipeline.
 *
 * Shell-integration marks are found in the raw output first (src/families/terminal/shell-marks.ts): the
 * output up to a mark's end goes through the pipeline, then the mark updates `shell` with the cursor
 * it came at. A command's end (D) also releases the line the redactor holds back, so its last,
 * unfinished line counts as its output and not as part of the prompt that follows.
 */
export class TerminalOutput {
  /** What the shell reported through its integration marks. */
  readonly shell = new ShellState();
  private readonly marks = new ShellMarkScanner();
  private readonly onMark: (() => void) | undefined;
  private readonly sanitizer = new TerminalSanitizer();
  private readonly redactor = new SecretRedactor();
  private readonly screen: TerminalRingBuffer;
  private readonly label: string;
  private readonly warn: (message: string) => void;
  private warnedAt = 0;

  constructor(
    options: TerminalOutputOptions & {
      /** Names the terminal in warnings. */ label?: string;
      /** Called after each shell-integration mark. */ onMark?: () => void;
    } = {},
  ) {
    this.screen = new TerminalRingBuffer(options);
    this.label = options.label ?? 'a terminal';
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.onMark = options.onMark;
  }

  /** Raw output as the terminal received it. */
  write(chunk: string): void {
    const found = this.marks.scan(chunk);
    let from = 0;
    for (const { mark, end } of found) {
      this.feed(chunk.slice(from, end));
      from = end;
      if (mark.kind === 'D' && this.shell.running) this.screen.append(this.redactor.flush().text);
      this.shell.mark(mark, { cursor: this.screen.cursor(), partial: () => this.screen.preview(''), now: Date.now() });
    }
    this.feed(from === 0 ? chunk : chunk.slice(from));
    if (found.length > 0) this.onMark?.();
    const seen = this.sanitizer.suspicious;
    if (seen > this.warnedAt) {
      this.warn(
        `openspace: warning: ${this.label} printed ${seen - this.warnedAt} suspicious escape sequence(s) ` +
          `(clipboard write, device control or application string); removed from what agents read (${seen} so far)`,
      );
      this.warnedAt = seen;
    }
  }

  private feed(raw: string): void {
    if (raw !== '') this.screen.append(this.redactor.write(this.sanitizer.write(raw)).text);
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
  /** Terminals opened with shell integration, and when: their first prompt will report. */
  private readonly integrated = new Map<string, number>();
  private readonly markListeners = new Set<MarkListener>();
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

  /** What the terminal's shell reported through shell-integration marks (nothing before its first output). */
  shell(terminalId: string): ShellState {
    return this.screens.get(terminalId)?.shell ?? new ShellState();
  }

  /** Note that a terminal was opened with shell integration, so its marks are worth waiting for. */
  expectIntegration(terminalId: string): void {
    this.integrated.set(terminalId, Date.now());
  }

  /** When the terminal was opened with shell integration; undefined if it was not (a person's terminal). */
  integrationSince(terminalId: string): number | undefined {
    return this.integrated.get(terminalId);
  }

  /** Called with a terminal's ID after each shell-integration mark it printed. */
  onMark(listener: MarkListener): Disposable {
    this.markListeners.add(listener);
    return { dispose: () => this.markListeners.delete(listener) };
  }

  /** Drop a terminal's output: it was closed, or its ID is about to name a new terminal. */
  forget(terminalId: string): void {
    this.screens.delete(terminalId);
    this.lastOutput.delete(terminalId);
    this.integrated.delete(terminalId);
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
      const onMark = () => {
        for (const listener of this.markListeners) listener(terminalId);
      };
      screen = new TerminalOutput({ ...this.options, label: `terminal "${terminalId}"`, onMark });
      this.screens.set(terminalId, screen);
    }
    return screen;
  }
}

const screens = statePart((ide, options) => new TerminalScreens(ide.terminals, options.terminalOutput));

/** The screens of an IDE's terminals. An IDE calls this once it has its port, so that output is kept from its first terminal on. */
export function terminalScreens(ide: IdePort): TerminalScreens {
  return screens.of(ide);
}
