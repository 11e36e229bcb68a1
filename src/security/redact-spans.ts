/**
 * The single-line secrets redact.ts finds (src/security/redact.ts says what and why): the detectors,
 * where they match in a text, and the text with those spans replaced by their markers.
 */

export type SecretKind =
  | 'aws_access_key_id'
  | 'aws_secret_access_key'
  | 'github_token'
  | 'private_key'
  | 'slack_token'
  | 'slack_webhook'
  | 'npm_token'
  | 'anthropic_key'
  | 'openai_key'
  | 'jwt'
  | 'authorization'
  | 'bearer_token'
  | 'url_credentials'
  | 'password'
  | 'secret'
  | 'token'
  | 'api_key'
  | 'truncated';

export function marker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

// ---------------------------------------------------------------------------------------------
// Detectors (single-line secrets)

interface Detector {
  kind: SecretKind;
  /** Global, with indices (`d`). The secret is the first defined group named v…, else the match. */
  re: RegExp;
  /** Rejects a found value (quoted: whether it was inside quotes). */
  accept?: (value: string, quoted: boolean) => boolean;
}

export interface Span {
  /** The replaced range. */
  start: number;
  end: number;
  /** The whole match (key and separator included), to know which cuts would break it. */
  matchStart: number;
  matchEnd: number;
  kind: SecretKind;
}

/** Horizontal white space. */
const H = '[^\\S\\r\\n]*';
/** Closing quote, or the end of the line for an unclosed one. */
const CLOSE = (q: string) => `(?:${q}|(?=[\\r\\n]|$))`;
/** An assignment value: "double", 'single' (possibly unclosed) or unquoted. */
const VALUE =
  `(?:"(?<v1>(?:[^"\\\\\\r\\n]|\\\\.)*)${CLOSE('"')}` + `|'(?<v2>[^'\\r\\n]*)${CLOSE("'")}` + `|(?<v3>[^\\s"'\`]*[^\\s"'\`,;)\\]}>]))`;
/**
 * `=`, `:`, `:=`, `=>`; not `==` after white space (`token == null`) nor `::` (`token::value`). Right
 * after the key, `==` is `=` and a value starting with `=` (`PASSWORD==x`).
 */
const SEPARATOR = `${H}(?::=|=>|=(?!=)|(?<![\\s=])=(?==)|:(?!:))${H}`;

/** Unquoted values that are words of code or prose, not secrets. */
const CODE_WORDS = new Set([
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'string',
  'number',
  'boolean',
  'bool',
  'any',
  'unknown',
  'object',
  'never',
  'void',
  'str',
  'int',
  'bytes',
  'required',
  'optional',
  'empty',
  'hidden',
  'masked',
  'redacted',
  'not',
  'set',
  'unset',
  'await',
  'new',
  'this',
  'self',
  'typeof',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'api_key',
  'apikey',
]);
const MASK = /^(?:[*•●·]+|\.{3,}|…)$/;
/** Variable references and templates; the unquoted value ends at a space or `>`, hence the open ends. */
const VARIABLE = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[({].*|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*|<[^<>]*>?|\[REDACTED.*)$/s;
/** `getToken(` of `getToken();`, `os.getenv(` of `os.getenv("X")`: a call, cut where the value ends. */
const CALL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\($/;
const CODE_REFERENCE =
  /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env|config|conf|settings|options|opts|args|argv|params|props|self|this|req|request|res|ctx|context|secrets|vars|window|globalThis)[.[]/i;

function acceptValue(value: string, quoted: boolean): boolean {
  if (value === '' || MASK.test(value) || VARIABLE.test(value)) return false;
  if (quoted) return true;
  if (CODE_WORDS.has(value.replace(/^=+/, '').toLowerCase())) return false;
  if (CALL.test(value)) return false;
  if (CODE_REFERENCE.test(value)) return false;
  return true;
}

/** `<identifier ending in key>["']? <separator> <value>`. */
function assignment(key: string, kind: SecretKind): Detector {
  return { kind, re: new RegExp(`(?:${key})(?![A-Za-z0-9_])["']?${SEPARATOR}${VALUE}`, 'gid'), accept: acceptValue };
}

/** Letters and digits both: tells random keys from words joined by hyphens. */
function letterAndDigit(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

const AUTH_SCHEMES = new Set(['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm']);

/**
 * In priority order: where two matches start at the same place, the first one names the kind.
 * Tokens with a distinctive prefix (gh*_, github_pat_, xox*-, npm_, sk-ant-) are found even glued
 * to a letter or digit before them: removed escape sequences can join a token to the text before it
 * on screen (`label\x1b[1mghp_…` shows as `labelghp_…`). AWS key IDs, OpenAI keys and JWTs keep
 * their left boundary, or they would be found inside longer identifiers (`task-…` holds `sk-`).
 */
const DETECTORS: Detector[] = [
  { kind: 'aws_access_key_id', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/dg },
  assignment('aws_?secret_?access_?key', 'aws_secret_access_key'),
  { kind: 'github_token', re: /(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/dg },
  { kind: 'slack_webhook', re: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/dgi },
  { kind: 'slack_token', re: /xox[abprs]-[A-Za-z0-9-]{10,}/dg },
  { kind: 'npm_token', re: /npm_[A-Za-z0-9]{36,}/dg },
  { kind: 'anthropic_key', re: /sk-ant-[A-Za-z0-9_-]{20,}/dg },
  {
    kind: 'openai_key',
    re: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/dg,
    accept: (v) => letterAndDigit(v.slice(3)),
  },
  { kind: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/dg },
  {
    kind: 'authorization',
    re: new RegExp(
      `(?:proxy-)?authorization["']?${SEPARATOR}["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm)[^\\S\\r\\n]+)?` +
        `(?<v3>[^\\s"'\`]*[^\\s"'\`,;)\\]}>])`,
      'gid',
    ),
    accept: (v) => !AUTH_SCHEMES.has(v.toLowerCase()) && acceptValue(v, true),
  },
  {
    kind: 'bearer_token',
    re: /(?<![A-Za-z0-9])bearer[^\S\r\n]+(?<v3>[A-Za-z0-9._~+/-]{20,}=*)/dgi,
    accept: (v) => acceptValue(v, true),
  },
  {
    kind: 'url_credentials',
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/:@]*:(?<v3>[^\s/@]+)@/dg,
    accept: (v) => acceptValue(v, true),
  },
  assignment('password|passwd|passphrase', 'password'),
  assignment('secret', 'secret'),
  assignment('token', 'token'),
  assignment('api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key', 'api_key'),
];

export function findSpans(text: string): Span[] {
  const found: (Span & { priority: number })[] = [];
  DETECTORS.forEach((d, priority) => {
    for (const m of text.matchAll(d.re)) {
      let range: [number, number] | undefined;
      let quoted = false;
      for (const [name, r] of Object.entries(m.indices?.groups ?? {})) {
        if (r && name.startsWith('v')) {
          range = r;
          quoted = name !== 'v3';
          break;
        }
      }
      const matchStart = m.index;
      const matchEnd = matchStart + m[0].length;
      const [start, end] = range ?? [matchStart, matchEnd];
      if (end <= start) continue;
      if (d.accept && !d.accept(text.slice(start, end), quoted)) continue;
      found.push({ start, end, matchStart, matchEnd, kind: d.kind, priority });
    }
  });
  found.sort((a, b) => a.start - b.start || a.priority - b.priority);
  // Overlapping spans are merged: the union is replaced, named after the first.
  const merged: Span[] = [];
  for (const s of found) {
    const last = merged[merged.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      last.matchStart = Math.min(last.matchStart, s.matchStart);
      last.matchEnd = Math.max(last.matchEnd, s.matchEnd);
    } else {
      merged.push({ start: s.start, end: s.end, matchStart: s.matchStart, matchEnd: s.matchEnd, kind: s.kind });
    }
  }
  return merged;
}

/** The text with its spans replaced. */
export function render(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + marker(s.kind);
    at = s.end;
  }
  return out + text.slice(at);
}
