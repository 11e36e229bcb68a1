/**
 * Shell-integration marks in a terminal's raw output, and what they tell about its shell: whether
 * it is at a prompt, which command runs, how the last one ended. Browser-safe.
 *
 * Marks are OSC 133 (FinalTerm, iTerm2, Theia) or OSC 633 (VS Code) sequences, ended by BEL or ST:
 * A prompt start, B prompt end, C command output start, D[;exit] command end, and 633's P
 * (a property: only says the integration is there). Other payloads (Theia's `133;prompt_started`,
 * 633's E command line …) are not marks. The scanner keeps its state between chunks, so a mark split
 * anywhere gives the same marks at the same places as unsplit output; it only finds marks, the
 * sanitizer still removes them (and everything else) from what agents read.
 */

export type MarkKind = 'A' | 'B' | 'C' | 'D' | 'P';

export interface ShellMark {
  kind: MarkKind;
  /** D's exit status, when the shell gave one. */
  exitCode?: number;
  /** When the shell printed it (ms since the epoch), from OpenSpace's `t=<µs>` parameter on C and D. */
  time?: number;
}

/** A mark found in a chunk; `end` is the offset in the chunk just after its terminator. */
export interface FoundMark {
  mark: ShellMark;
  end: number;
}

const GROUND = 0;
const ESCAPE = 1; // after ESC
const PAYLOAD = 2; // after ESC ], collecting what may be a mark
const PAYLOAD_ESCAPE = 3; // ESC inside the payload: ST if `\` follows

/** Longer payloads are no mark of ours (633;E carries whole command lines): given up. */
const MAX_PAYLOAD = 64;
const MARK = /^[16]33;([ABCDP])(?:;([^;]*).*)?$/;
/** The shell's clock in microseconds (bash's EPOCHREALTIME without its point), as OpenSpace's integration adds it. */
const TIME = /;t=(\d{13,19})(?:;|$)/;

function parse(payload: string): ShellMark | undefined {
  const m = MARK.exec(payload);
  if (!m) return undefined;
  const kind = m[1] as MarkKind;
  if (kind === 'P' && !payload.startsWith('633;')) return undefined;
  const mark: ShellMark = { kind };
  const code = kind === 'D' && m[2] !== undefined && /^-?\d{1,9}$/.test(m[2]) ? Number(m[2]) : undefined;
  if (code !== undefined) mark.exitCode = code;
  const time = kind === 'C' || kind === 'D' ? TIME.exec(payload) : null;
  if (time) mark.time = Number(time[1]) / 1000;
  return mark;
}

export class ShellMarkScanner {
  private state = GROUND;
  private payload = '';

  /** The marks that end in this chunk, in order. */
  scan(chunk: string): FoundMark[] {
    const found: FoundMark[] = [];
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      switch (this.state) {
        case GROUND: {
          const next = chunk.indexOf('\x1b', i);
          if (next < 0) return found;
          i = next;
          this.state = ESCAPE;
          break;
        }
        case ESCAPE:
          if (c === 0x5d) {
            this.state = PAYLOAD;
            this.payload = '';
          } else if (c !== 0x1b) {
            this.state = GROUND;
          }
          break;
        case PAYLOAD:
          if (c === 0x07 || c === 0x9c) {
            this.end(found, i + 1);
          } else if (c === 0x1b) {
            this.state = PAYLOAD_ESCAPE;
          } else if (this.payload.length >= MAX_PAYLOAD || c < 0x20) {
            this.state = GROUND; // too long, or CAN/SUB/another control: not a mark
          } else {
            this.payload += chunk[i];
          }
          break;
        case PAYLOAD_ESCAPE:
          if (c === 0x5c) {
            this.end(found, i + 1);
          } else {
            // ESC that is not ST aborts the string and starts a new sequence (as the sanitizer does).
            this.state = ESCAPE;
            i--;
          }
          break;
      }
    }
    return found;
  }

  private end(found: FoundMark[], end: number): void {
    this.state = GROUND;
    const mark = parse(this.payload);
    if (mark) found.push({ mark, end });
  }
}

/** A command the shell started (C seen). Cursors are output cursors (src/families/terminal/ring-buffer.ts). */
export interface StartedCommand {
  /** Counts the commands started in this terminal, from 1. */
  id: number;
  /** The output cursor at C: the command's first line has this index. */
  startCursor: number;
  startedAt: number;
}

export interface FinishedCommand extends StartedCommand {
  exitCode?: number;
  /** The output cursor at D: the command's complete lines are [startCursor, endCursor). */
  endCursor: number;
  /** Its unfinished last line (output that did not end in a newline), "" if none. */
  partial: string;
  finishedAt: number;
}

/** How far before its reading a mark's own time may lie (a stalled IDE reads late by seconds, not minutes). */
const CLOCK_TRUST_MS = 60_000;

/** Where the output stood when a mark came. */
export interface MarkPosition {
  cursor: number;
  /** The current unfinished line; asked for on D only. */
  partial: () => string;
  now: number;
}

/**
 * What the marks say about a terminal's shell. A D without a C before it (the first prompt, an
 * empty Enter, Ctrl-C at the prompt) ends nothing and is ignored; a second C while a command runs
 * (a nested shell with its own integration) does not start another.
 */
export class ShellState {
  /** Any mark seen: the shell reports its commands. */
  integration = false;
  /** OpenSpace's shell integration script announced itself (633;P): this shell prints C and D for its commands. */
  announced = false;
  /** B seen and no C since: the shell waits for input at its prompt. */
  atPrompt = false;
  running: StartedCommand | undefined;
  /**
   * A line was sent with Enter at the prompt, and the shell has not yet said whether it runs a command
   * (C) or prompts again (A): until it does, what is typed next may reach that command.
   */
  submitted = false;
  last: FinishedCommand | undefined;
  /** Commands started so far. */
  started = 0;

  /** A command runs, or may be starting: text typed now may be a program's input, not the shell's. */
  get busy(): boolean {
    return this.running !== undefined || this.submitted;
  }

  mark(mark: ShellMark, at: MarkPosition): void {
    this.integration = true;
    // The shell's own time of a command's start and end, so that a busy IDE reading the output late
    // does not shorten or lengthen the duration; a time that cannot be right (output can print
    // marks too) is replaced by when the mark was read.
    const when = (after = -Infinity) =>
      mark.time !== undefined && mark.time <= at.now && mark.time > at.now - CLOCK_TRUST_MS && mark.time >= after ? mark.time : at.now;
    switch (mark.kind) {
      case 'A':
        this.atPrompt = false;
        this.submitted = false;
        break;
      case 'B':
        if (!this.running) this.atPrompt = true;
        break;
      case 'C':
        this.atPrompt = false;
        this.submitted = false;
        if (!this.running) this.running = { id: ++this.started, startCursor: at.cursor, startedAt: when() };
        break;
      case 'D': {
        const running = this.running;
        if (!running) break;
        this.running = undefined;
        this.last = {
          ...running,
          exitCode: mark.exitCode,
          endCursor: at.cursor,
          partial: at.partial(),
          finishedAt: when(running.startedAt),
        };
        break;
      }
      case 'P':
        this.announced = true;
        break;
    }
  }
}
