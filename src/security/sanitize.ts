/**
 * Streaming terminal output sanitizer: turns raw terminal output (a pty's byte stream decoded as
 * UTF-16 text) into plain text that is safe to hand to an agent. Browser-safe: no Node built-ins.
 *
 * It is a small state machine after the VT500 parser model (not a CSI-only regex), so it also
 * removes OSC/DCS/SOS/PM/APC strings, 8-bit C1 controls and two-byte ESC sequences, and it keeps its
 * state between `write` calls: a sequence split across chunks gives the same output as unsplit input.
 *
 * What is kept: printable characters and the six C0 controls the line assembler needs
 * (`\t`, `\n`, `\r`, `\b`, `\v`, which it reads as erase to the end of the line, and `\f`, which it
 * reads as one column right). Everything else below 0x20, DEL (0x7F) and C1 (0x80–0x9F) is removed.
 * Three cursor sequences that spinners, progress lines and a shell redrawing its prompt use become
 * those controls: CSI G to column 1 (`CSI G`, `CSI 1 G`) is `\r`, erase to the end of the line
 * (`CSI K`, `CSI 0 K`) is `\v`, cursor forward (`CSI n C`) is n × `\f` (at most MAX_FORWARD). A `\v`
 * or `\f` the program printed itself does the same: nothing it could not do with CSI K or CSI C,
 * and the sanitizer stays idempotent.
 *
 * Rules where terminals differ, chosen here:
 * - Inside CSI and ESC-intermediate sequences, `\t \n \v \f \r \b` are executed (passed through) as a VT
 *   parser does; other C0 controls are ignored; CAN (0x18) and SUB (0x1A) abort the sequence; ESC
 *   aborts it and starts a new one; a C1 control aborts it and is handled as in ground state; any
 *   other character outside the sequence's byte range aborts it and is then treated as text.
 * - Strings (OSC, DCS, SOS, PM, APC) end at BEL, ESC \ or 0x9C, all of them for every string type.
 *   CAN/SUB abort a string; ESC followed by anything but `\` aborts the string and starts a new escape
 *   sequence. A string still unterminated after 64 Ki characters is given up: its content so far is
 *   dropped and what follows is treated as text again (so one stray OSC cannot swallow all output).
 * - DEL is ignored in every state except inside strings, where it is part of the string.
 */

/** A cursor-forward moves at most this many columns (its `\f`s are characters of the output). */
export const MAX_FORWARD = 256;

/** Unterminated OSC/DCS/SOS/PM/APC strings are abandoned after this many characters. */
export const MAX_STRING_LENGTH = 64 * 1024;

const GROUND = 0;
const ESCAPE = 1; // after ESC
const ESCAPE_INTERMEDIATE = 2; // after ESC and one or more bytes 0x20–0x2F, waiting for the final byte
const CSI = 3; // after ESC [ or 0x9B
const STRING = 4; // inside OSC / DCS / SOS / PM / APC
const STRING_ESCAPE = 5; // ESC seen inside a string: ST if `\` follows

const STRING_OSC = 0;
const STRING_OTHER = 1;

/** Parameter/intermediate bytes of a CSI kept for classification (screen clears, cursor save). */
const MAX_CSI_PARAMS = 16;

function isPlain(c: number): boolean {
  // Printable (0x20–0x7E, ≥ 0xA0) or one of \b \t \n \v \f \r (0x08–0x0D).
  if (c >= 0x20) return c < 0x7f || c >= 0xa0;
  return c >= 0x08 && c <= 0x0d;
}

export class TerminalSanitizer {
  private state = GROUND;
  private stringKind = STRING_OSC;
  private stringLength = 0;
  /** First characters of the current OSC payload (up to 3), to recognise OSC 52. */
  private oscHead = '';
  private csiParams = '';
  private suspiciousCount = 0;

  /**
   * How many suspicious sequences were seen so far: OSC 52 (clipboard write), DCS, SOS, PM, APC
   * strings, screen clears (CSI 2 J, CSI 3 J, ESC c) and cursor save/restore (ESC 7, ESC 8, CSI s, CSI u).
   */
  get suspicious(): number {
    return this.suspiciousCount;
  }

  /** Feed a chunk of raw output; returns its plain text (possibly empty while inside a sequence). */
  write(chunk: string): string {
    let out = '';
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case GROUND: {
          // Copy the run of plain characters in one slice.
          let j = i;
          while (j < n && isPlain(chunk.charCodeAt(j))) j++;
          if (j > i) {
            out += i === 0 && j === n ? chunk : chunk.slice(i, j);
            i = j;
            if (i >= n) break;
          }
          this.ground(chunk.charCodeAt(i));
          i++;
          break;
        }
        case ESCAPE: {
          const c = chunk.charCodeAt(i);
          i++;
          this.escape(c, chunk, i - 1, (s) => (out += s));
          break;
        }
        case ESCAPE_INTERMEDIATE: {
          const c = chunk.charCodeAt(i);
          if (c >= 0x20 && c <= 0x2f) {
            i++; // more intermediates
          } else if (c >= 0x30 && c <= 0x7e) {
            i++;
            this.state = GROUND; // final byte: sequence done
          } else {
            i = this.abortSequence(c, chunk, i, (s) => (out += s));
          }
          break;
        }
        case CSI: {
          // Parameter and intermediate bytes 0x20–0x3F continue the sequence.
          let j = i;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c < 0x20 || c > 0x3f) break;
            j++;
          }
          if (j > i) {
            if (this.csiParams.length < MAX_CSI_PARAMS) {
              this.csiParams += chunk.slice(i, Math.min(j, i + MAX_CSI_PARAMS - this.csiParams.length));
            }
            i = j;
            if (i >= n) break;
          }
          const c = chunk.charCodeAt(i);
          if (c >= 0x40 && c <= 0x7e) {
            i++;
            // Spinners and progress lines go back to column 1 and erase what they drew, a shell redraws
            // its prompt by stepping over it: kept as `\r`, `\v` and `\f`s.
            if (c === 0x47 /* G */ && (this.csiParams === '' || this.csiParams === '1')) out += '\r';
            else if (c === 0x4b /* K */ && (this.csiParams === '' || this.csiParams === '0')) out += '\v';
            else if (c === 0x43 /* C */ && /^\d*$/.test(this.csiParams))
              out += '\f'.repeat(Math.min(Math.max(Number(this.csiParams), 1), MAX_FORWARD));
            this.finishCsi(c);
          } else {
            i = this.abortSequence(c, chunk, i, (s) => (out += s));
          }
          break;
        }
        case STRING: {
          // Swallow until a terminator, CAN/SUB, ESC, or the length bound.
          const limit = Math.min(n, i + (MAX_STRING_LENGTH - this.stringLength));
          let j = i;
          while (j < limit) {
            const c = chunk.charCodeAt(j);
            if (c === 0x07 || c === 0x1b || c === 0x9c || c === 0x18 || c === 0x1a) break;
            j++;
          }
          if (this.stringKind === STRING_OSC && this.oscHead.length < 3 && j > i) {
            this.oscHead += chunk.slice(i, Math.min(j, i + 3 - this.oscHead.length));
            if (this.oscHead === '52;') this.suspiciousCount++;
          }
          this.stringLength += j - i;
          i = j;
          if (i < limit) {
            const c = chunk.charCodeAt(i);
            i++;
            this.state = c === 0x1b ? STRING_ESCAPE : GROUND;
          } else if (this.stringLength >= MAX_STRING_LENGTH) {
            this.state = GROUND; // give up on an unterminated string; drop it
          }
          break;
        }
        case STRING_ESCAPE: {
          const c = chunk.charCodeAt(i);
          if (c === 0x5c) {
            i++;
            this.state = GROUND; // ESC \ = ST
          } else {
            // ESC inside a string aborts it; the ESC starts a new sequence with this character.
            this.state = ESCAPE;
          }
          break;
        }
      }
    }
    return out;
  }

  /** A non-plain character in ground state. */
  private ground(c: number): void {
    if (c === 0x1b) {
      this.state = ESCAPE;
    } else if (c >= 0x80 && c <= 0x9f) {
      this.c1(c);
    }
    // Other C0 controls and DEL: dropped.
  }

  private c1(c: number): void {
    switch (c) {
      case 0x9b:
        this.startCsi();
        break;
      case 0x9d:
        this.startString(STRING_OSC);
        break;
      case 0x90: // DCS
      case 0x98: // SOS
      case 0x9e: // PM
      case 0x9f: // APC
        this.suspiciousCount++;
        this.startString(STRING_OTHER);
        break;
      default:
        this.state = GROUND; // other C1 controls (and a stray ST) are dropped
    }
  }

  /** The character after ESC, at chunk[index]. */
  private escape(c: number, chunk: string, index: number, emit: (s: string) => void): void {
    switch (c) {
      case 0x5b: // [
        this.startCsi();
        return;
      case 0x5d: // ]
        this.startString(STRING_OSC);
        return;
      case 0x50: // P  DCS
      case 0x58: // X  SOS
      case 0x5e: // ^  PM
      case 0x5f: // _  APC
        this.suspiciousCount++;
        this.startString(STRING_OTHER);
        return;
      case 0x63: // c  RIS (full reset, clears the screen)
      case 0x37: // 7  DECSC (save cursor)
      case 0x38: // 8  DECRC (restore cursor)
        this.suspiciousCount++;
        this.state = GROUND;
        return;
      case 0x1b: // ESC ESC: the first one is a lone ESC
        return;
      case 0x7f: // DEL is ignored
        return;
    }
    if (c >= 0x20 && c <= 0x2f) {
      this.state = ESCAPE_INTERMEDIATE; // e.g. ESC ( B: one more byte follows
    } else if (c >= 0x30 && c <= 0x7e) {
      this.state = GROUND; // two-byte sequence (ESC =, ESC >, ESC M, ESC \ …)
    } else {
      // A lone ESC followed by something that cannot continue it: drop the ESC only.
      this.state = GROUND;
      this.reprocess(c, chunk, index, emit);
    }
  }

  /**
   * A character that cannot continue the current CSI / ESC-intermediate sequence, at chunk[index].
   * Returns the index to continue from.
   */
  private abortSequence(c: number, chunk: string, index: number, emit: (s: string) => void): number {
    if (c === 0x7f) return index + 1; // DEL is ignored
    if (c < 0x20) {
      if (c === 0x1b) {
        this.state = ESCAPE;
      } else if (c === 0x18 || c === 0x1a) {
        this.state = GROUND;
      } else if (c >= 0x08 && c <= 0x0d) {
        emit(chunk[index]!); // executed inside the sequence; the sequence continues
      }
      return index + 1;
    }
    this.state = GROUND;
    this.reprocess(c, chunk, index, emit);
    return index + 1;
  }

  /** Handle chunk[index] as if in ground state (state is GROUND already). */
  private reprocess(c: number, chunk: string, index: number, emit: (s: string) => void): void {
    if (isPlain(c)) emit(chunk[index]!);
    else this.ground(c);
  }

  private startCsi(): void {
    this.state = CSI;
    this.csiParams = '';
  }

  private finishCsi(finalByte: number): void {
    this.state = GROUND;
    const p = this.csiParams;
    if (finalByte === 0x4a /* J */ && (p === '2' || p === '3')) this.suspiciousCount++;
    else if ((finalByte === 0x73 /* s */ || finalByte === 0x75) /* u */ && p === '') this.suspiciousCount++;
  }

  private startString(kind: number): void {
    this.state = STRING;
    this.stringKind = kind;
    this.stringLength = 0;
    this.oscHead = '';
  }
}
