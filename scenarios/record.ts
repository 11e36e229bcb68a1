/**
 * `--record`: turn a live session's audit log (`.openspace/audit.ndjson`, one JSON line per tool
 * call; see src/security/audit-log.ts) into a scenario that replays the session's calls in order
 * and expects each to answer as it did then (success, or the same error code).
 */
import { Document } from 'yaml';
import type { CallAuditEntry } from '../src/security/audit-log.js';
import { parseScenario } from './format.js';

export interface SessionSummary {
  session: string;
  client?: string;
  calls: number;
  first: string;
  last: string;
}

export interface Recording {
  yaml: string;
  session: SessionSummary;
  sessions: SessionSummary[];
  /** Things a reader should know about the replay (redacted or shortened arguments). */
  warnings: string[];
}

/**
 * The agents' call lines of an audit log, in order; write lines, the hub's own cleanup calls after a
 * session ended, and blank lines are skipped.
 */
export function readAuditCalls(ndjson: string, file = 'audit log'): CallAuditEntry[] {
  const calls: CallAuditEntry[] = [];
  for (const [i, line] of ndjson.split('\n').entries()) {
    if (line.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not a JSON line: ${line.slice(0, 80)}`);
    }
    const e = entry as Partial<CallAuditEntry>;
    if (e.type !== 'call' || e.cleanup) continue;
    if (typeof e.tool !== 'string' || typeof e.session !== 'string' || typeof e.code !== 'string') {
      throw new Error(`${file}:${i + 1}: a call line needs tool, session and code`);
    }
    calls.push(e as CallAuditEntry);
  }
  return calls;
}

export function summarizeSessions(calls: CallAuditEntry[]): SessionSummary[] {
  const sessions = new Map<string, SessionSummary>();
  for (const call of calls) {
    const s = sessions.get(call.session);
    if (s) {
      s.calls++;
      s.last = call.time;
    } else sessions.set(call.session, { session: call.session, client: call.client, calls: 1, first: call.time, last: call.time });
  }
  return [...sessions.values()];
}

function findRedactions(value: unknown, path: string, out: string[]): void {
  if (typeof value === 'string') {
    if (/\[REDACTED:[\w-]+\]/.test(value)) out.push(`${path} was redacted in the log; the replay sends the redacted text`);
    if (/… \[\d+ characters\]$/.test(value)) out.push(`${path} was shortened in the log; the replay sends the shortened text`);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) findRedactions(v, `${path}.${k}`, out);
  }
}

/** Logged arguments are literal: `$` would start a variable in a scenario, so it is written `$$`. */
function escapeDollars(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('$', '$$$$');
  if (Array.isArray(value)) return value.map(escapeDollars);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeDollars(v)]));
  return value;
}

export interface RecordOptions {
  /** A session ID or a unique prefix of one; default the session of the last call in the log. */
  session?: string;
  /** Where the log came from, for the header comment. */
  source?: string;
  name?: string;
}

/** A scenario file (YAML text) replaying one session of an audit log. */
export function recordScenario(ndjson: string, options: RecordOptions = {}): Recording {
  const calls = readAuditCalls(ndjson, options.source);
  const sessions = summarizeSessions(calls);
  if (sessions.length === 0) throw new Error(`${options.source ?? 'the audit log'} has no tool calls to record`);
  let chosen: SessionSummary | undefined;
  if (options.session) {
    const matching = sessions.filter((s) => s.session === options.session || s.session.startsWith(options.session!));
    if (matching.length !== 1) {
      const list = sessions.map((s) => `${s.session} (${s.client ?? 'unknown client'}, ${s.calls} calls)`).join(', ');
      throw new Error(`${matching.length === 0 ? 'no' : 'more than one'} session matches "${options.session}"; the log has: ${list}`);
    }
    chosen = matching[0];
  } else {
    const lastSession = calls.at(-1)!.session;
    chosen = sessions.find((s) => s.session === lastSession);
  }
  const session = chosen!;
  const warnings: string[] = [];
  const steps = calls
    .filter((c) => c.session === session.session)
    .map((c, i) => {
      findRedactions(c.args, `step ${i + 1} (${c.tool}) args`, warnings);
      const args = c.args && typeof c.args === 'object' && !Array.isArray(c.args) ? escapeDollars(c.args) : {};
      return { tool: c.tool, args, expect: c.code === 'OK' ? { success: true } : { success: false, code: c.code } };
    });
  const doc = new Document({
    name: options.name ?? `Recorded session ${session.session.slice(0, 8)}${session.client ? ` of ${session.client}` : ''}`,
    description: `Replays the ${session.calls} tool call(s) of one MCP session, expecting each to answer as it did when recorded.`,
    steps,
  });
  doc.commentBefore = [
    ` Recorded by \`npm run play -- --record${options.source ? ` ${options.source}` : ''}\` from session ${session.session}`,
    ` (client ${session.client ?? 'unknown'}, ${session.calls} calls, ${session.first} – ${session.last}).`,
    ' Each step expects the outcome logged then: success, or the same error code. Add capture/waitFor',
    ' where a later call depends on an earlier answer or on timing (see scenarios/README.md).',
    ...warnings.map((w) => ` Note: ${w}.`),
  ].join('\n');
  const yaml = doc.toString({ lineWidth: 0 });
  // What we write must load: a recording the player refuses would be no use.
  parseScenario(yaml, 'recording');
  return { yaml, session, sessions, warnings };
}
