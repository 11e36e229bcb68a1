import type { Disposable } from '../../contract/port.js';
import type { TerminalInfo } from '../../contract/index.js';

/**
 * Terminals. A port never answers with output itself: it hands every terminal's raw output to
 * `onOutput`, and shared code (src/families/terminal/output.ts) sanitizes, redacts and keeps it, so
 * no IDE can give an agent output that skipped either.
 */
export interface TerminalPort {
  /** Create a terminal with a caller-chosen ID; `cwd` is workspace-relative ("" = root). */
  create(options: { terminalId: string; title: string; cwd: string; shellPath?: string }): Promise<TerminalInfo>;
  /** Every terminal, the person's too; one whose process exited stays listed (running: false) until closed. */
  list(): TerminalInfo[];
  activeTerminalId(): string | undefined;
  /** Write to the terminal's input as if typed. Throws TERMINAL_EXITED when its process ended. */
  send(terminalId: string, data: string): Promise<void>;
  close(terminalId: string): Promise<void>;
  /**
   * Fires with what a terminal's process printed, exactly as printed (escape sequences, secrets and
   * all), for every terminal from its first output on, whoever created it.
   */
  onOutput(listener: (terminalId: string, data: string) => void): Disposable;
}
