/**
 * A terminal's output as screen lines, for openspace.terminal.read_output. Browser-safe.
 *
 * `append` takes sanitized text (printable characters plus `\t \n \r \b`, `\v` and `\f`, see
 * src/security/sanitize.ts) and assembles lines the way a terminal does: the current line has a cursor
 * column; `\r` moves it to column 0 so what follows overwrites (progress bars), `\b` moves it one left,
 * `\f` one right (text written past the end of the line leaves blanks before it, as a screen shows
 * them), `\v` erases from the cursor to the end of the line, `\n` commits the line. Committed lines go into a ring bounded by line count and by size; the oldest
 * are evicted first.
 *
 * Every committed line has an index in the all-time sequence (0, 1, 2, …); `cursor()` is the number of
 * lines ever committed. Reading with `since` and then again with the returned cursor yields every
 * committed line exactly once, in order; lines evicted before they could be read are counted in
 * `dropped` instead.
 *
 * Choices: `\t` is kept as a character (no tab stops); columns and maxLineLength count code points (no
 * wide-character widths), so chunk boundaries never change a line; text past maxLineLength is discarded
 * (lines are truncated, not wrapped); a line longer than maxBytes on its own is evicted at once.
 */
/** A read of the screen lines: what an agent gets of a terminal's output. */
export interface ScreenRead {
  lines: string[];
  partial: string;
  cursor: number;
  dropped: number;
  more: boolean;
}

export interface TerminalRingBufferOptions {
  /** Most committed lines kept (default 10 000). */
  maxLines?: number;
  /** Most UTF-16 code units kept, counting each line as its length + 1 (default 4 Mi). */
  maxBytes?: number;
  /** Longer lines are truncated to this many characters (code points; default 10 000). */
  maxLineLength?: number;
}

export class TerminalRingBuffer {
  readonly maxLines: number;
  readonly maxBytes: number;
  readonly maxLineLength: number;

  /** Circular storage: the line with all-time index k lives at ring[k % capacity]. */
  private ring: (string | undefined)[] = [];
  private readonly capacity: number;
  /** Lines ever committed; the line with index total - 1 is the newest. */
  private total = 0;
  /** Lines currently stored: indices [total - count, total). */
  private count = 0;
  private bytes = 0;

  /** The current uncommitted line and the cursor column in it. */
  private line = '';
  private column = 0;
  /** Length of the current line in code points. */
  private lineLength = 0;
  /** A high surrogate that ended the previous chunk, waiting for its other half. */
  private pendingHigh = '';

  constructor(options: TerminalRingBufferOptions = {}) {
    this.maxLines = Math.max(1, Math.floor(options.maxLines ?? 10_000));
    this.maxBytes = Math.max(1, Math.floor(options.maxBytes ?? 4 * 1024 * 1024));
    this.maxLineLength = Math.max(1, Math.floor(options.maxLineLength ?? 10_000));
    this.capacity = this.maxLines;
  }

  /** Add sanitized output. */
  append(chunk: string): void {
    let text = this.pendingHigh + chunk;
    this.pendingHigh = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.pendingHigh = text.slice(-1);
      text = text.slice(0, -1);
    }
    const n = text.length;
    let i = 0;
    while (i < n) {
      // A run of ordinary characters is written in one go.
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c >= 0x08 && c <= 0x0d && c !== 0x09) break;
        j++;
      }
      if (j > i) {
        this.put(i === 0 && j === n ? text : text.slice(i, j));
        i = j;
        if (i >= n) break;
      }
      const c = text.charCodeAt(i);
      i++;
      if (c === 0x0a) {
        this.commit(this.line);
        this.line = '';
        this.lineLength = 0;
        this.column = 0;
      } else if (c === 0x0d) {
        this.column = 0;
      } else if (c === 0x0b) {
        // Erase to the end of the line (the sanitizer's stand-in for CSI K): spinners clear what they drew.
        if (this.column < this.lineLength) {
          this.line = Array.from(this.line).slice(0, this.column).join('');
          this.lineLength = this.column;
        }
      } else if (c === 0x0c) {
        this.column = Math.min(this.column + 1, this.maxLineLength);
      } else if (this.column > 0) {
        this.column--;
      }
    }
  }

  /**
   * The current line as it would read after `extra` (text without newlines) were appended, without
   * appending it: for showing output that is still held back elsewhere.
   */
  preview(extra: string): string {
    if (extra === '') return this.line;
    const saved = { line: this.line, lineLength: this.lineLength, column: this.column, pendingHigh: this.pendingHigh, total: this.total };
    this.append(extra.replace(/[\r\n]/g, ''));
    const line = this.line;
    Object.assign(this, saved);
    return line;
  }

  /** The output cursor: the number of lines ever committed. */
  cursor(): number {
    return this.total;
  }

  /**
   * Without since: the last `lines` committed lines. With since: the committed lines with index ≥
   * since, oldest first, at most `lines`; `cursor` is where to continue, `dropped` how many lines
   * after since were evicted before this read (the returned cursor is past them), `more` whether
   * further committed lines follow the cursor. A since beyond the cursor reads from the cursor.
   */
  read(options: { lines: number; since?: number }): ScreenRead {
    const limit = Math.max(0, Math.floor(options.lines));
    const first = this.total - this.count;
    if (options.since === undefined) {
      const n = Math.min(limit, this.count);
      return { lines: this.slice(this.total - n, this.total), partial: this.line, cursor: this.total, dropped: 0, more: false };
    }
    const since = Math.min(Math.max(0, Math.floor(options.since)), this.total);
    const start = Math.max(since, first);
    const end = Math.min(this.total, start + limit);
    return {
      lines: this.slice(start, end),
      partial: this.line,
      cursor: end,
      dropped: start - since,
      more: end < this.total,
    };
  }

  /**
   * Write a run of ordinary characters at the cursor column, overwriting what is there. Columns count
   * code points, so a character outside the BMP is one column however the text was chunked.
   */
  private put(run: string): void {
    const room = this.maxLineLength - this.column;
    if (room <= 0) return; // past the truncation point: discarded
    let chars = SURROGATE.test(run) ? Array.from(run) : undefined;
    let count = chars ? chars.length : run.length;
    if (count > room) {
      chars = (chars ?? Array.from(run)).slice(0, room);
      run = chars.join('');
      count = room;
    }
    if (this.column > this.lineLength) {
      // Past the end of the line (cursor forward): blanks up to the cursor.
      this.line += ' '.repeat(this.column - this.lineLength);
      this.lineLength = this.column;
    }
    if (this.column === this.lineLength) {
      this.line += run;
      this.lineLength += count;
    } else {
      const line = Array.from(this.line);
      const replacement = chars ?? Array.from(run);
      for (let k = 0; k < count; k++) line[this.column + k] = replacement[k]!;
      this.line = line.join('');
      this.lineLength = line.length;
    }
    this.column += count;
  }

  private commit(line: string): void {
    if (this.count === this.capacity) this.evictOldest();
    this.ring[this.total % this.capacity] = line;
    this.total++;
    this.count++;
    this.bytes += line.length + 1;
    while (this.bytes > this.maxBytes && this.count > 0) this.evictOldest();
  }

  private evictOldest(): void {
    const slot = (this.total - this.count) % this.capacity;
    this.bytes -= this.ring[slot]!.length + 1;
    this.ring[slot] = undefined;
    this.count--;
  }

  /** Lines with all-time indices [from, to), which must be stored. */
  private slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let k = from; k < to; k++) out.push(this.ring[k % this.capacity]!);
    return out;
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;
