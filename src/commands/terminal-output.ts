import type { TerminalRead } from './port.js';
import { TerminalRingBuffer, type TerminalRingBufferOptions } from './ring-buffer.js';
import { SecretRedactor } from '../security/redact.js';
import { TerminalSanitizer } from '../security/sanitize.js';

const MARKER = /\[REDACTED:[a-z_]+\]/;

/**
 * A terminal's output as an agent reads it: escape sequences removed (sanitizer), secrets replaced
 * (redactor, which holds back the current line until it is complete), then assembled into screen
 * lines (ring buffer). Browser-safe: the simulated IDE and Theia use the same pipeline.
 */
export class TerminalOutput {
  private readonly sanitizer = new TerminalSanitizer();
  private readonly redactor = new SecretRedactor();
  private readonly screen: TerminalRingBuffer;
  private warnedAt = 0;

  constructor(
    options: TerminalRingBufferOptions & {
      /** Names the terminal in warnings. */
      label?: string;
      /** Where warnings about suspicious sequences go (default: console.warn). */
      warn?: (message: string) => void;
    } = {},
  ) {
    this.screen = new TerminalRingBuffer(options);
    this.label = options.label ?? 'a terminal';
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  private readonly label: string;
  private readonly warn: (message: string) => void;

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
