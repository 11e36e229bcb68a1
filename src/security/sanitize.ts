/**
 * Streaming terminal output sanitizer: turns raw terminal output (a pty's byte stream decoded as
 * UTF-16 text) into plain text that is safe to hand to an agent. Browser-safe: no Node built-ins.
 *
 * It is a small state machine after the VT500 parser model (not a CSI-only regex), so it also
 * removes OSC/DCS/SOS/PM/APC strings, 8-bit C1 controls and two-byte ESC sequences, and it keeps its
 * state between `write` calls: a sequence split across chunks gives the same output as unsplit input.
 *
 * Its fast path is a WebAssembly kernel (sanitize-kernel.wat) that copies plain text eight code
 * units at a time and drops the common sequences on the way; it hands everything else (suspicious or
 * 8-bit sequences, controls inside a sequence, a sequence cut by the chunk's end) to the state
 * machine, which gives it back when it is in ground state again. Where WebAssembly SIMD is missing,
 * the state machine does it all, with the same result.
 *
 * What is kept: printable characters and the four C0 controls the line assembler needs
 * (`\t`, `\n`, `\r`, `\b`). Everything else below 0x20, DEL (0x7F) and C1 (0x80–0x9F) is removed.
 *
 * Rules where terminals differ, chosen here:
 * - Inside CSI and ESC-intermediate sequences, `\t \n \r \b` are executed (passed through) as a VT
 *   parser does; other C0 controls are ignored; CAN (0x18) and SUB (0x1A) abort the sequence; ESC
 *   aborts it and starts a new one; a C1 control aborts it and is handled as in ground state; any
 *   other character outside the sequence's byte range aborts it and is then treated as text.
 * - Strings (OSC, DCS, SOS, PM, APC) end at BEL, ESC \ or 0x9C, all of them for every string type.
 *   CAN/SUB abort a string; ESC followed by anything but `\` aborts the string and starts a new escape
 *   sequence. A string still unterminated after 64 Ki characters is given up: its content so far is
 *   dropped and what follows is treated as text again (so one stray OSC cannot swallow all output).
 * - DEL is ignored in every state except inside strings, where it is part of the string.
 */

import { SANITIZE_KERNEL_BASE64 } from './sanitize-kernel.js';

/** Unterminated OSC/DCS/SOS/PM/APC strings are abandoned after this many characters. */
export const MAX_STRING_LENGTH = 64 * 1024;

/** The kernel takes a chunk at most this long (its memory holds one); longer ones go in pieces. */
const KERNEL_CHUNK = MAX_STRING_LENGTH;
/** Where the kernel writes its output: after the room for a chunk (the kernel's memory layout). */
const OUTPUT = 2 * KERNEL_CHUNK;

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
  // Printable (0x20–0x7E, ≥ 0xA0) or one of \b \t \n \r (0x08, 0x09, 0x0A, 0x0D).
  if (c >= 0x20) return c < 0x7f || c >= 0xa0;
  return c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08;
}

/** The WebAssembly fast path. Positions are code-unit indices into the chunk last loaded. */
export interface SanitizerKernel {
  /** Copies a chunk (at most KERNEL_CHUNK units) into the kernel's memory. */
  load(chunk: string): void;
  /**
   * Cleans the loaded chunk from `from`, in ground state, up to `stop()`; returns its plain text
   * (the chunk itself when there was nothing to remove).
   */
  clean(from: number): string;
  /** Where the last `clean` stopped: the chunk's length, or the first unit it left to the state machine. */
  stop(): number;
}

/** What this needs of WebAssembly and Node, looked up so that it runs where they are missing. */
const { WebAssembly: wasm, Buffer: nodeBuffer, process: nodeProcess } = globalThis as unknown as {
  WebAssembly?: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: Record<string, unknown> } };
  Buffer?: { from(memory: ArrayBuffer): { write(text: string, offset: number, encoding: 'utf16le'): number; toString(encoding: 'utf16le', start: number, end: number): string } };
  process?: { versions?: { node?: string } };
};
/** Node's own Buffer copies UTF-16 natively; a browser's Buffer, if a bundler adds one, in JavaScript. */
const inNode = nodeBuffer !== undefined && nodeProcess?.versions?.node !== undefined;

/**
 * A kernel instance, or undefined where WebAssembly (with SIMD) is not available. `node` copies
 * text in and out with Node's Buffer; `portable` with typed arrays and TextDecoder, as in a browser.
 */
export function createKernel(io: 'node' | 'portable' = inNode ? 'node' : 'portable'): SanitizerKernel | undefined {
  if (!wasm) return undefined;
  let exports: Record<string, unknown>;
  try {
    const bytes = Uint8Array.from(atob(SANITIZE_KERNEL_BASE64), (c) => c.charCodeAt(0));
    exports = new wasm.Instance(new wasm.Module(bytes)).exports;
  } catch {
    return undefined; // WebAssembly without SIMD, or forbidden by a content security policy
  }
  const memory = (exports.memory as { buffer: ArrayBuffer }).buffer;
  const kernelClean = exports.clean as (p: number, e: number, o: number) => number;
  const stopGlobal = exports.stop as { value: number };
  // Byte addresses from here on: code unit i of the chunk is at 2 i, of the output at OUTPUT + 2 i.
  const { copyIn, copyOut } = io === 'node' && nodeBuffer ? nodeCopies(memory, nodeBuffer) : portableCopies(memory);
  let chunk = '';
  let end = 0;
  return {
    load(text) {
      chunk = text;
      end = copyIn(text);
    },
    clean(from) {
      const q = kernelClean(from * 2, end, OUTPUT);
      if (from === 0 && q - OUTPUT === end) return chunk;
      return q > OUTPUT ? copyOut(OUTPUT, q) : '';
    },
    stop: () => stopGlobal.value / 2,
  };
}

interface Copies {
  /** Copies text into memory from address 0; returns the address of its end. */
  copyIn(text: string): number;
  /** The text at [p, q). */
  copyOut(p: number, q: number): string;
}

function nodeCopies(memory: ArrayBuffer, buffer: NonNullable<typeof nodeBuffer>): Copies {
  const bytes = buffer.from(memory);
  return { copyIn: (text) => bytes.write(text, 0, 'utf16le'), copyOut: (p, q) => bytes.toString('utf16le', p, q) };
}

function portableCopies(memory: ArrayBuffer): Copies {
  const units = new Uint16Array(memory);
  // TextDecoder is fast but turns a lone surrogate into U+FFFD, so it reads only output that holds
  // none: output of a well-formed chunk that does not start or end within a pair (where the state
  // machine handed over); fromCharCode reads any code units as they are.
  const decoder = new TextDecoder('utf-16le', { ignoreBOM: true }); // keep a leading U+FEFF: it is text
  let wellFormed = false;
  return {
    copyIn(text) {
      for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
      wellFormed = (text as { isWellFormed?(): boolean }).isWellFormed?.() ?? false;
      return text.length * 2;
    },
    copyOut(p, q) {
      const from = p / 2;
      const to = q / 2;
      const cutPair = (units[from]! & 0xfc00) === 0xdc00 || (units[to - 1]! & 0xfc00) === 0xd800;
      if (wellFormed && !cutPair) return decoder.decode(units.subarray(from, to));
      let text = '';
      for (let i = from; i < to; i += 4096) text += String.fromCharCode.apply(null, units.subarray(i, Math.min(i + 4096, to)) as unknown as number[]);
      return text;
    },
  };
}

/** The kernel every sanitizer shares (one `write` runs at a time). */
const sharedKernel = createKernel();

export interface SanitizerOptions {
  /** The fast path; null for the state machine alone. Default: a shared instance, where available. */
  kernel?: SanitizerKernel | null;
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

  private readonly kernel: SanitizerKernel | null;
  /** Where the last `run` stopped. */
  private index = 0;

  constructor(options: SanitizerOptions = {}) {
    this.kernel = options.kernel === undefined ? (sharedKernel ?? null) : options.kernel;
  }

  /** Feed a chunk of raw output; returns its plain text (possibly empty while inside a sequence). */
  write(chunk: string): string {
    const kernel = this.kernel;
    if (kernel === null) return this.run(chunk);
    if (chunk.length > KERNEL_CHUNK) {
      let out = '';
      for (let i = 0; i < chunk.length; i += KERNEL_CHUNK) out += this.write(chunk.slice(i, i + KERNEL_CHUNK));
      return out;
    }
    // The state machine finishes a sequence the previous chunk left open; then the kernel and the
    // state machine take turns: the kernel up to what it leaves, the state machine through that.
    let out = '';
    let i = 0;
    if (this.state !== GROUND) {
      out = this.run(chunk, 0, true);
      if (this.state !== GROUND) return out; // the sequence goes on past this chunk
      i = this.index;
    }
    kernel.load(chunk);
    while (i < chunk.length) {
      out += kernel.clean(i);
      i = kernel.stop();
      if (i < chunk.length) {
        out += this.run(chunk, i, true);
        i = this.index;
      }
    }
    return out;
  }

  /**
   * The state machine, over chunk from `from`. With `untilGround` it stops once it is back in ground
   * state (having taken at least one unit), for the kernel to go on. Sets `index` to where it stopped.
   */
  private run(chunk: string, from = 0, untilGround = false): string {
    let out = '';
    const n = chunk.length;
    let i = from;
    while (i < n) {
      if (untilGround && this.state === GROUND && i > from) break;
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
    this.index = i;
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
      } else if (c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08) {
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
