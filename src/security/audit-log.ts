/**
 * The audit log (GAP-11): one NDJSON line per agent tool call and per file write, appended to
 * `.openspace/audit.ndjson` in the workspace. Secrets in arguments are redacted; long strings are
 * shortened so a 5 MB file.write does not copy itself into the log.
 */
import { redact } from './redact.js';

/** Where the audit log lives, relative to the workspace root. */
export const AUDIT_LOG_FILE = '.openspace/audit.ndjson';

/** Strings in logged arguments longer than this keep their start and say how long they were. */
export const MAX_LOGGED_STRING = 4096;

/** One tool call, written by the hub when the call is answered. */
export interface CallAuditEntry {
  type: 'call';
  time: string;
  session: string;
  client?: string;
  tool: string;
  args: unknown;
  /** 'OK' or the error code. */
  code: string;
  durationMs: number;
  /** The hub's own call, cleaning up after the session ended (not the agent's). */
  cleanup?: true;
}

/** One file write, written by the artifact store after the file was replaced. */
export interface WriteAuditEntry {
  type: 'write';
  time: string;
  path: string;
  version: string | number;
  bytes: number;
  sha256: string;
  session?: string;
  client?: string;
  tool: string;
}

export type AuditEntry = CallAuditEntry | WriteAuditEntry;

export interface AuditSink {
  record(entry: AuditEntry): void;
}

/** The append-only file operations an audit log needs; node:fs/promises and memfs's promises both have them. */
export interface AppendFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  appendFile(path: string, data: string): Promise<void>;
}

/** Secrets in string values replaced by [REDACTED:<kind>], long strings shortened, at any depth. */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    const { text } = redact(value.length > MAX_LOGGED_STRING ? value.slice(0, MAX_LOGGED_STRING) : value);
    return value.length > MAX_LOGGED_STRING ? `${text}… [${value.length} characters]` : text;
  }
  if (depth > 8 || value === null || typeof value !== 'object') return depth > 8 ? '[nested too deep]' : value;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => redactArguments(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, 100)) out[key] = redactArguments(item, depth + 1);
  return out;
}

/**
 * Appends entries in order, one line each, without making the caller wait: the lines recorded in one
 * turn of the event loop are appended together once it is over, so a call's answer goes out before
 * its lines are written. A failed append is reported once on stderr and the log goes on trying (a
 * tool call never fails for its audit line).
 */
export class NdjsonAuditLog implements AuditSink {
  private pending: string[] = [];
  private tail: Promise<void> = Promise.resolve();
  private warned = false;
  private dirReady: Promise<unknown> | undefined;

  constructor(
    private readonly fs: AppendFs,
    /** Absolute path of the log file. */
    readonly file: string,
  ) {}

  record(entry: AuditEntry): void {
    if (this.pending.push(`${JSON.stringify(entry)}\n`) === 1) setImmediate(() => this.write());
  }

  /** Resolves once every entry recorded so far is in the file. */
  flush(): Promise<void> {
    this.write();
    return this.tail;
  }

  private write(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.tail = this.tail.then(() => this.append(lines));
  }

  private async append(lines: string): Promise<void> {
    try {
      this.dirReady ??= this.fs.mkdir(this.file.slice(0, this.file.lastIndexOf('/')) || '/', { recursive: true });
      await this.dirReady;
      await this.fs.appendFile(this.file, lines);
    } catch (err) {
      this.dirReady = undefined;
      if (!this.warned) process.stderr.write(`openspace: cannot write the audit log ${this.file}: ${(err as Error).message}\n`);
      this.warned = true;
    }
  }
}
