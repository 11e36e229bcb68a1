/**
 * Streaming secret redaction of terminal output returned to an agent. Browser-safe: no Node
 * built-ins. Apply it AFTER the sanitizer (src/security/sanitize.ts): its input is plain text with
 * `\t \n \r \b`.
 *
 * Every secret found is replaced by `[REDACTED:<kind>]`; for `key = value` style assignments only the
 * value is replaced (`password="[REDACTED:password]"`). What is detected:
 *
 * | kind                    | what                                                                        |
 * | ----------------------- | --------------------------------------------------------------------------- |
 * | `aws_access_key_id`     | `AKIA…` / `ASIA…` + 16 upper-case letters or digits                         |
 * | `aws_secret_access_key` | the value of `aws_secret_access_key = …` (any case, `_` optional)           |
 * | `github_token`          | `ghp_ gho_ ghu_ ghs_ ghr_` + 36 or more, `github_pat_` + 22 or more         |
 * | `private_key`           | a PEM / OpenSSH / PGP / PuTTY private key block, BEGIN through END          |
 * | `slack_token`           | `xoxb- xoxp- xoxa- xoxr- xoxs-` tokens                                      |
 * | `slack_webhook`         | `https://hooks.slack.com/services/…` (also `workflows/`, `triggers/`)       |
 * | `npm_token`             | `npm_` + 36 or more letters and digits                                      |
 * | `anthropic_key`         | `sk-ant-…`                                                                  |
 * | `openai_key`            | `sk-…`, `sk-proj-…` (20 or more characters with a letter and a digit)       |
 * | `jwt`                   | `eyJ….….…` (three base64url parts; the signature may be empty)              |
 * | `authorization`         | the credentials of `Authorization: Bearer|Basic|Token … <value>`            |
 * | `bearer_token`          | `Bearer <20 or more token characters>` anywhere else                        |
 * | `url_credentials`       | the password in `scheme://user:password@host`                               |
 * | `password`              | the value after a key ending in password / passwd / passphrase             |
 * | `secret`                | … ending in secret (`client_secret`, `SECRET`)                              |
 * | `token`                 | … ending in token (`GITHUB_TOKEN`, `accessToken`, `--token`)                |
 * | `api_key`               | … ending in api_key / apikey / access_key / secret_key / private_key        |
 * | `truncated`             | the rest of an over-long line that is one long secret candidate (see below) |
 *
 * Assignments: the key is any identifier ENDING in one of the keywords (case-insensitive; `tokens`,
 * `password_hash`, `tokenizer` are not keys), optionally closed by a quote (JSON), then `=`, `:`,
 * `:=` or `=>` (not ` == `, not `::`), then the value: a quoted string (redacted inside the quotes; an
 * unclosed quote runs to the end of the line) or an unquoted run of non-space characters without
 * trailing `, ; ) ] } >`. Not redacted, as they are not secrets: empty values, masks (`********`,
 * `••••`), `[REDACTED…]`, variable references (`$TOKEN`, `${TOKEN}`, `$(cmd)`, `${{ secrets.X }}`,
 * `%TOKEN%`), templates (`{{ x }}`, `<your-token>`), and — for unquoted values only — code and
 * type words (`string`, `null`, `true`, `undefined`, `required` …, the keywords themselves, so
 * `passwd: password updated successfully` stays), calls without arguments (`getToken()`,
 * `os.getenv("X")`: the value ends at the parenthesis) and references like `process.env.TOKEN`,
 * `config.secret`, `os.environ[…]`. Code with arguments (`token = sign(payload)`) is redacted.
 *
 * Streaming and what is held back. Terminal output is consumed line-wise (the ring buffer commits a
 * line on `\n`), so the redactor holds back the current incomplete line: text is released when a
 * line boundary (`\n` or `\r`) arrives, or at flush(). No secret this module detects contains a
 * `\r` or `\n`, except private key blocks, which are handled separately. Consequences:
 * - The ring buffer's uncommitted `partial` line lags until its line ends (a `\r`-driven progress
 *   bar still advances, since `\r` is a boundary).
 * - A line held back beyond 16 KiB (`MAX_HELD_LINE`) is released in part: everything except the last
 *   4 KiB (`CUT_TAIL`), moved back to before any secret candidate (a match, or an unfinished JWT)
 *   that crosses the cut, and preferably to just after a space. Only when one candidate reaches from
 *   the start of what is held past the cut (a single secret-like run of 12 KiB or more) is the held
 *   text released up to the cut with its matches redacted, the rest marked `[REDACTED:truncated]`,
 *   and the line dropped up to its end.
 * - A private key block is held from its BEGIN marker (what precedes it on the line is released)
 *   until its END marker, up to 16 KiB (`MAX_PEM_BLOCK`), and replaced by one
 *   `[REDACTED:private_key]`; everything between the markers, whatever it is, is dropped. A block
 *   still open after 16 KiB is marked redacted at once, the lines within those 16 KiB are dropped,
 *   and from there on the rest is dropped conservatively line by line: until the END marker, or until
 *   a complete line that does not look like key material (see isKeyMaterialLine), which is output
 *   again. A block still open at flush() is redacted whole. So a lone BEGIN marker (say, grep output
 *   over source code) costs up to 16 KiB of following output.
 * - Over-redaction is preferred to a leak: overlapping matches are replaced as their union (for
 *   example `https://x-access-token:<token>@github.com/…` reads as a `token:` assignment whose value
 *   runs to the next space).
 *
 * Splitting the input into chunks does not change the output, except at the over-long-line and
 * over-long-block bounds above (and then only towards redacting more).
 *
 * Limit: redaction works on the character stream, not on the rendered screen. A program that
 * composes a secret on screen by overwriting (`\r`, `\b`) from pieces that are never contiguous in
 * the stream is not caught; running redact() over the ring buffer's committed lines catches that too.
 */

import { findSpans, marker, render, type SecretKind } from './redact-spans.js';

export { marker, type SecretKind } from './redact-spans.js';

export interface RedactResult {
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
  text: string;
  /** Whether anything was replaced in this piece of output. */
  redacted: boolean;
}

/** The incomplete line is released in part once longer than this (UTF-16 code units). */
export const MAX_HELD_LINE = 16 * 1024;
/** How much of an over-long incomplete line stays held back when the rest is released. */
export const CUT_TAIL = 4 * 1024;
/** A private key block is held back up to this size, counted from the BEGIN marker. */
export const MAX_PEM_BLOCK = 16 * 1024;

// ---------------------------------------------------------------------------------------------
// Private key blocks

/** `-----BEGIN RSA PRIVATE KEY-----`, `-----BEGIN PGP PRIVATE KEY BLOCK-----`, PuTTY's `---- BEGIN SSH2 … ----`. */
const PEM_LABEL = '(?: [A-Z0-9]{1,16}){0,4} PRIVATE KEY(?: BLOCK)?';
const pemMarker = (word: string) => new RegExp(`-----${word}${PEM_LABEL}-----|---- ${word}${PEM_LABEL} ----`, 'g');
const BEGIN_RE = pemMarker('BEGIN');
const END_RE = pemMarker('END');
/** Longer than any BEGIN / END marker: how far back a search resumes to find a marker split across writes. */
const MARKER_OVERLAP = 128;

/**
 * Whether a line may belong to a private key block: blank, only base64 characters, ending in a
 * 16+ character base64 run after a space, tab or colon (`cat -n`, `grep` prefixes), or an armor
 * header (`Proc-Type:`, `DEK-Info:`, `Comment:`, `Version:`, `Hash:`, `Charset:`).
 */
export function isKeyMaterialLine(line: string): boolean {
  const t = line.trim();
  return (
    t === '' ||
    /^[A-Za-z0-9+/=]+$/.test(t) ||
    /(?:^|[\s:])[A-Za-z0-9+/]{16,}={0,2}$/.test(t) ||
    /^(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):/i.test(t)
  );
}

// ---------------------------------------------------------------------------------------------
// The streaming redactor

const NORMAL = 0; // holding the current incomplete line
const PEM = 1; // inside a private key block, holding it all
const PEM_OVERFLOW = 2; // inside a block past MAX_PEM_BLOCK: dropping key-material lines
const SKIP_LINE = 3; // dropping the rest of an over-long line that was one secret candidate

/** Secrets that may still be growing at the end of a held line without matching yet. */
const OPEN_JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}$/;

function lastBoundary(text: string, from: number): number {
  for (let i = text.length - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return -1;
}

export class SecretRedactor {
  private buf = '';
  private mode = NORMAL;
  /** How much of buf has been searched already (for line boundaries, BEGIN and END markers). */
  private scanned = 0;
  /** PEM_OVERFLOW: the start of the held line was dropped, so it cannot be judged any more. */
  private lineTruncated = false;

  private out = '';
  private redacted = false;

  /** Feed a chunk of sanitized output; returns what can be released now, redacted. */
  write(chunk: string): RedactResult {
    this.buf += chunk;
    while (this.step());
    return this.take();
  }

  /** What flush() would release now, without releasing it: the held line, redacted (to show a prompt). */
  peek(): RedactResult {
    const copy = Object.assign(Object.create(SecretRedactor.prototype) as object, this) as SecretRedactor;
    copy.out = '';
    copy.redacted = false;
    return copy.flush();
  }

  /** Release everything held back (an open private key block is redacted whole) and reset. */
  flush(): RedactResult {
    while (this.step());
    switch (this.mode) {
      case NORMAL:
        this.emitText(this.buf);
        break;
      case PEM:
        this.emitMarker('private_key');
        break;
      case PEM_OVERFLOW:
        // The last, unfinished line of an over-long block: judged like a complete one.
        if (!this.lineTruncated && !isKeyMaterialLine(this.buf)) this.emitText(this.buf);
        break;
      // SKIP_LINE: nothing is held.
    }
    this.buf = '';
    this.mode = NORMAL;
    this.scanned = 0;
    this.lineTruncated = false;
    return this.take();
  }

  private take(): RedactResult {
    const result = { text: this.out, redacted: this.redacted };
    this.out = '';
    this.redacted = false;
    return result;
  }

  private emitText(text: string): void {
    if (text === '') return;
    const spans = findSpans(text);
    if (spans.length > 0) this.redacted = true;
    this.out += render(text, spans);
  }

  private emitMarker(kind: SecretKind): void {
    this.out += marker(kind);
    this.redacted = true;
  }

  /** One step of the state machine; true when it should be called again. */
  private step(): boolean {
    switch (this.mode) {
      case NORMAL:
        return this.stepNormal();
      case PEM:
        return this.stepPem();
      case PEM_OVERFLOW:
        return this.stepOverflow();
      default:
        return this.stepSkipLine();
    }
  }

  private stepNormal(): boolean {
    const buf = this.buf;
    if (buf === '') return false;
    BEGIN_RE.lastIndex = Math.max(0, this.scanned - MARKER_OVERLAP);
    const begin = BEGIN_RE.exec(buf);
    if (begin) {
      this.emitText(buf.slice(0, begin.index));
      this.buf = buf.slice(begin.index);
      this.mode = PEM;
      this.scanned = 0;
      return true;
    }
    const b = lastBoundary(buf, this.scanned);
    if (b >= 0) {
      this.emitText(buf.slice(0, b + 1));
      this.buf = buf.slice(b + 1);
    }
    this.scanned = this.buf.length;
    if (this.buf.length > MAX_HELD_LINE) return this.cut();
    return false;
  }

  /** Release part of an over-long incomplete line (see the module comment). */
  private cut(): boolean {
    const buf = this.buf;
    const spans = findSpans(buf);
    const target = buf.length - CUT_TAIL;
    let c = target;
    // Prefer to cut just after white space.
    for (let i = c - 1; i >= Math.max(0, c - 1024); i--) {
      const ch = buf.charCodeAt(i);
      if (ch === 0x20 || ch === 0x09) {
        c = i + 1;
        break;
      }
    }
    const open = OPEN_JWT.exec(buf);
    if (open && open.index < c) c = open.index;
    for (let changed = true; changed;) {
      changed = false;
      for (const s of spans) {
        if (s.matchStart < c && c < s.matchEnd) {
          c = s.matchStart;
          changed = true;
        }
      }
    }
    if (c > 0) {
      this.emitText(buf.slice(0, c));
      this.buf = buf.slice(c);
      this.scanned = this.buf.length;
      // Still too long: one candidate reaches from the new start past the cut.
      return this.buf.length > MAX_HELD_LINE ? this.cut() : false;
    }
    // One candidate covers the held line from its start past the cut: release the line up to the
    // cut with what was found there redacted (a match crossing the cut is redacted up to it), mark
    // the rest redacted and drop it up to the end of the line. The last CUT_TAIL characters are never
    // shown, so no unfinished secret at the end of the held text shows either.
    const end = Math.min(open ? open.index : buf.length, target);
    const kept = spans.filter((s) => s.start < end).map((s) => ({ ...s, end: Math.min(s.end, end) }));
    if (kept.length > 0) this.redacted = true;
    this.out += render(buf.slice(0, end), kept);
    this.emitMarker('truncated');
    this.buf = '';
    this.scanned = 0;
    this.mode = SKIP_LINE;
    return false;
  }

  private stepPem(): boolean {
    const buf = this.buf;
    END_RE.lastIndex = Math.max(1, this.scanned - MARKER_OVERLAP);
    const end = END_RE.exec(buf);
    if (end) {
      this.emitMarker('private_key');
      this.buf = buf.slice(end.index + end[0].length);
      this.mode = NORMAL;
      this.scanned = 0;
      return true;
    }
    if (buf.length > MAX_PEM_BLOCK) {
      // The lines within the first 16 KiB are the block; from the line crossing the bound on, lines
      // are judged one by one.
      this.emitMarker('private_key');
      this.buf = buf.slice(buf.lastIndexOf('\n', MAX_PEM_BLOCK - 1) + 1);
      this.lineTruncated = false;
      this.mode = PEM_OVERFLOW;
      this.scanned = 0;
      return true;
    }
    this.scanned = buf.length;
    return false;
  }

  private stepOverflow(): boolean {
    // buf starts at a line start; its first `scanned` characters hold no '\n' and no END marker.
    const buf = this.buf;
    END_RE.lastIndex = Math.max(0, this.scanned - MARKER_OVERLAP);
    const end = END_RE.exec(buf);
    const stop = end ? end.index : buf.length;
    let start = 0;
    for (let nl = buf.indexOf('\n', this.scanned); nl >= 0 && nl < stop; nl = buf.indexOf('\n', start)) {
      if (!this.lineTruncated && !isKeyMaterialLine(buf.slice(start, nl + 1))) {
        this.buf = buf.slice(start); // the block is over; this line is output again
        this.mode = NORMAL;
        this.scanned = 0;
        return true;
      }
      this.lineTruncated = false;
      start = nl + 1;
    }
    if (end) {
      this.buf = buf.slice(end.index + end[0].length);
      this.mode = NORMAL;
      this.scanned = 0;
      this.lineTruncated = false;
      return true;
    }
    this.buf = buf.slice(start);
    if (this.buf.length > MAX_HELD_LINE) {
      this.buf = this.buf.slice(-MARKER_OVERLAP);
      this.lineTruncated = true;
    }
    this.scanned = this.buf.length;
    return false;
  }

  private stepSkipLine(): boolean {
    const b = this.buf.search(/[\r\n]/);
    if (b < 0) {
      this.buf = '';
      return false;
    }
    this.buf = this.buf.slice(b);
    this.mode = NORMAL;
    this.scanned = 0;
    return true;
  }
}

/** Redact a complete text (an open private key block at its end is redacted whole). */
export function redact(text: string): RedactResult {
  const redactor = new SecretRedactor();
  const a = redactor.write(text);
  const b = redactor.flush();
  return { text: a.text + b.text, redacted: a.redacted || b.redacted };
}
