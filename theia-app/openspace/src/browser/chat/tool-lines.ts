/**
 * A tool call as one line a person reads in the chat: "opened src/auth.ts:42", "ran npm test". The
 * hub's tools come through OpenCode as `<server>_<tool with dots as underscores>`; the underscore form
 * is ambiguous (`editor_read_file`), so they are found by a table of the hub's tool names, under any
 * server prefix. A call that names a file gives its path (and line) so the panel can open it.
 */
import {
  fixed,
  named,
  onFile,
  PHRASES,
  quoted,
  shorten,
  str,
  type Describe,
  type Phrase,
  type PhraseInput,
} from '../../../../../src/browser.js';
import type { FileChange, ToolPart, TurnChange } from '../../common/chat-protocol.js';

export type ToolCallStatus = ToolPart['state']['status'];

export interface ToolLine {
  text: string;
  path?: string;
  line?: number;
  status: ToolCallStatus;
  error?: string;
}

export interface DescribeOptions {
  /** The workspace root OpenCode ran in: a path under it is shown (and returned) relative to it. */
  root?: string;
}

type Input = PhraseInput;

/** OpenCode's own tools. */
const OPENCODE: Record<string, Describe> = {
  bash: (input) => ({ verb: 'run', rest: shorten(str(input, 'command') ?? 'a command') }),
  edit: onFile('edit', { key: 'filePath' }),
  multiedit: onFile('edit', { key: 'filePath' }),
  write: onFile('write', { key: 'filePath' }),
  read: onFile('read', { key: 'filePath' }),
  list: (input) => ({ verb: 'list', rest: `files in ${str(input, 'path') ?? 'the workspace'}` }),
  glob: (input) => ({ verb: 'find', rest: `files matching ${quoted(str(input, 'pattern')) || 'a pattern'}` }),
  grep: (input) => ({ verb: 'search', rest: `for ${quoted(str(input, 'pattern')) || 'text'}` }),
  webfetch: (input) => ({ verb: 'fetch', rest: shorten(str(input, 'url') ?? 'a web page') }),
  websearch: (input) => ({ verb: 'search', rest: `the web for ${quoted(str(input, 'query')) || 'something'}` }),
  codesearch: (input) => ({ verb: 'search', rest: `code for ${quoted(str(input, 'query')) || 'something'}` }),
  task: (input) => ({ verb: 'start', rest: `a task${str(input, 'description') ? `: ${shorten(str(input, 'description')!)}` : ''}` }),
  todowrite: fixed('update', 'the to-do list'),
  todoread: fixed('read', 'the to-do list'),
  patch: fixed('apply', 'a patch'),
  apply_patch: fixed('apply', 'a patch'),
  skill: named('load', 'the skill', 'name'),
  question: fixed('ask', 'a question'),
};

const IRREGULAR: Record<string, [past: string, progressive: string]> = {
  read: ['read', 'reading'],
  write: ['wrote', 'writing'],
  run: ['ran', 'running'],
  send: ['sent', 'sending'],
  find: ['found', 'finding'],
  fit: ['fitted', 'fitting'],
  go: ['went', 'going'],
  stop: ['stopped', 'stopping'],
  'lay out': ['laid out', 'laying out'],
  'scroll to': ['scrolled to', 'scrolling to'],
  'look up': ['looked up', 'looking up'],
};

function past(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb][0];
  return verb.endsWith('e') ? `${verb}d` : `${verb}ed`;
}

function progressive(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb][1];
  return verb.endsWith('e') && !verb.endsWith('ee') ? `${verb.slice(0, -1)}ing` : `${verb}ing`;
}

/** The hub's tools, each family's phrases (src/families), by any name: a name outside the catalog finds nothing. */
const OPENSPACE: Readonly<Record<string, Describe | undefined>> = PHRASES;

/** The longest catalog name whose underscore form ends `tool` after a server prefix (or is all of it). */
const BY_UNDERSCORE = new Map(Object.keys(OPENSPACE).map((name) => [name.replace(/\./g, '_'), name]));

function catalogName(tool: string): string | undefined {
  if (Object.hasOwn(OPENSPACE, tool)) return tool;
  let found: string | undefined;
  for (const [underscored, name] of BY_UNDERSCORE) {
    if ((tool === underscored || tool.endsWith(`_${underscored}`)) && (!found || name.length > found.length)) found = name;
  }
  return found;
}

/**
 * A tool's name as a person reads it: the hub's in dotted form (`openspace_openspace_file_write` →
 * `openspace.file.write`), OpenCode's own as they are, another MCP server's with a dot after the server.
 */
export function toolDisplayName(tool: string): string {
  const known = catalogName(tool);
  if (known) return known;
  const at = tool.lastIndexOf('openspace_');
  if (at === 0 || tool[at - 1] === '_') return tool.slice(at).replace(/_/g, '.');
  return tool;
}

function humanize(tool: string): string {
  return toolDisplayName(tool)
    .replace(/^openspace\./, '')
    .replace(/[._-]+/g, ' ')
    .trim();
}

/** A short summary of unknown arguments: the first few plain values. */
function summarize(input: Input): string {
  const values = Object.entries(input)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .slice(0, 2)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? quoted(v) : String(v)}`);
  return values.join(', ');
}

function phrase(tool: string, input: Input): Phrase | undefined {
  const name = catalogName(tool);
  const describe = name ? OPENSPACE[name] : Object.hasOwn(OPENCODE, tool) ? OPENCODE[tool] : undefined;
  return describe?.(input);
}

function relative(path: string | undefined, root: string | undefined): string | undefined {
  if (!path || !root) return path;
  const base = root.endsWith('/') ? root : `${root}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function withRoot(p: Phrase, root: string | undefined): Phrase {
  const shown = relative(p.path, root);
  if (!p.path || shown === p.path) return p;
  return { ...p, rest: p.rest.replace(p.path, shown!), path: shown };
}

/** What a call asks to do, in the base form ("write notes.md"), e.g. for a permission request. */
export function describeToolRequest(
  tool: string,
  input: Input,
  options: DescribeOptions = {},
): { text: string; path?: string; line?: number } {
  const p = phrase(tool, input);
  if (!p) {
    const args = summarize(input);
    return { text: `call ${toolDisplayName(tool)}${args ? ` (${args})` : ''}` };
  }
  const { verb, rest, path, line } = withRoot(p, options.root);
  return { text: `${verb} ${rest}`, path, line };
}

export function describeToolCall(part: ToolPart, options: DescribeOptions = {}): ToolLine {
  const { state } = part;
  const input = (state.input ?? {}) as Input;
  const error = state.status === 'error' ? state.error : undefined;
  if (state.status === 'pending' && Object.keys(input).length === 0) {
    return { text: `calling ${toolDisplayName(part.tool)}…`, status: state.status };
  }
  const p = phrase(part.tool, input);
  if (!p) {
    const args = summarize(input);
    const text = `${humanize(part.tool)}${args ? ` (${args})` : ''}`;
    const line: ToolLine = { text: state.status === 'running' || state.status === 'pending' ? `${text}…` : text, status: state.status };
    if (error !== undefined) line.error = error;
    return line;
  }
  const { verb, rest, path, line } = withRoot(p, options.root);
  const text =
    state.status === 'completed'
      ? `${past(verb)} ${rest}`
      : state.status === 'error'
        ? `couldn't ${verb} ${rest}`
        : `${progressive(verb)} ${rest}…`;
  const result: ToolLine = { text, status: state.status };
  if (path) result.path = path;
  if (line !== undefined) result.line = line;
  if (error !== undefined) result.error = error;
  return result;
}

/** OpenCode's own permissions, as what they let the agent do. */
const PERMISSION_VERBS: Record<string, string> = {
  bash: 'run a command',
  edit: 'change files',
  read: 'read files',
  webfetch: 'fetch a web page',
  external_directory: 'reach outside the workspace',
  doom_loop: 'keep repeating the same call',
};

export function permissionVerb(permission: string): string | undefined {
  return Object.hasOwn(PERMISSION_VERBS, permission) ? PERMISSION_VERBS[permission] : undefined;
}

/** A permission request in words, as the card's title and the notification say it: "use openspace.file.write", "run a command: git push". */
export function describePermission(request: { permission: string; patterns: string[] }): string {
  const patterns = request.patterns.filter((p) => p !== '*');
  const action = permissionVerb(request.permission) ?? `use ${toolDisplayName(request.permission)}`;
  return `${action}${patterns.length > 0 ? `: ${patterns.join(', ')}` : ''}`;
}

/** Verbs of calls that read a file, change one, or run a command (the turn's summary sorts its calls by them). */
const READS = new Set(['read', 'open', 'outline', 'look up', 'search', 'list', 'diff']);
const CHANGES = new Set(['write', 'edit', 'patch', 'apply', 'create', 'update', 'replace', 'remove', 'restore', 'set', 'delete', 'rename']);
const RUNS = new Set(['run', 'send']);

/** What one turn of the agent did, at a glance: the files it read and changed, the commands it ran (finished calls only). */
export interface TurnSummary {
  read: { path: string; line?: number }[];
  changed: { path: string; line?: number }[];
  ran: string[];
  /** The files the turn's calls said they changed, with what they held before or the diffs made: what "Review changes" shows. */
  review: TurnChange[];
}

export function summarizeTurn(tools: ToolPart[], options: DescribeOptions = {}): TurnSummary {
  const summary: TurnSummary = { read: [], changed: [], ran: [], review: [] };
  const add = (list: { path: string; line?: number }[], path: string, line?: number) => {
    if (!list.some((f) => f.path === path)) list.push(line === undefined ? { path } : { path, line });
  };
  for (const part of tools) {
    if (part.state.status !== 'completed') continue;
    const changes = (part.state.metadata?.changes ?? []) as FileChange[];
    for (const change of changes) {
      if (!summary.review.some((r) => r.path === change.path)) summary.review.push(change);
      add(summary.changed, change.path);
    }
    const opencode = part.state.metadata?.filediff as { file?: unknown; patch?: unknown } | undefined;
    if (typeof opencode?.file === 'string' && typeof opencode.patch === 'string') {
      const path = relative(opencode.file, options.root)!;
      const earlier = summary.review.find((r) => r.path === path);
      if (!earlier) summary.review.push({ path, patches: [opencode.patch] });
      else if ('patches' in earlier) earlier.patches.push(opencode.patch);
    }
    const found = phrase(part.tool, (part.state.input ?? {}) as Input);
    if (!found) continue;
    const { verb, rest, path, line } = withRoot(found, options.root);
    if (path && CHANGES.has(verb)) add(summary.changed, path, line);
    else if (path && READS.has(verb)) add(summary.read, path, line);
    else if (RUNS.has(verb)) summary.ran.push(rest);
  }
  // A file both read and changed counts as changed.
  summary.read = summary.read.filter((r) => !summary.changed.some((c) => c.path === r.path));
  return summary;
}
