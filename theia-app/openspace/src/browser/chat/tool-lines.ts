/**
 * A tool call as one line a person reads in the chat: "opened src/auth.ts:42", "ran npm test". The
 * hub's tools come through OpenCode as `<server>_<tool with dots as underscores>`; the underscore form
 * is ambiguous (`editor_read_file`), so they are found by a table of the hub's tool names, under any
 * server prefix. A call that names a file gives its path (and line) so the panel can open it.
 */
import type { TOOLS_ENABLE, ToolName } from '../../../../../src/browser.js';
import type { ToolPart } from '../../common/chat-protocol.js';

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

/** What a call does, as a verb (base form) and the rest of the sentence. */
interface Phrase {
  verb: string;
  rest: string;
  path?: string;
  line?: number;
}

type Input = Record<string, unknown>;
type Describe = (input: Input) => Phrase;

const MAX_ARGUMENT = 60;

/** One line, at most `max` characters. */
export function shorten(value: string, max = MAX_ARGUMENT): string {
  const flat = value.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const str = (input: Input, key: string): string | undefined => {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const num = (input: Input, key: string): number | undefined => {
  const value = input[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};
const quoted = (value: string | undefined) => (value === undefined ? '' : `"${shorten(value)}"`);

/** `verb path[:line[-end]] suffix`, the path clickable. */
const onFile =
  (verb: string, options: { before?: string; after?: string; key?: string; line?: string; end?: string } = {}): Describe =>
  (input) => {
    const path = str(input, options.key ?? 'path');
    const before = options.before ? `${options.before} ` : '';
    const after = options.after ? ` ${options.after}` : '';
    if (!path) return { verb, rest: `${before}a file${after}`.trim() };
    const line = options.line ? num(input, options.line) : undefined;
    const end = options.end ? num(input, options.end) : undefined;
    return { verb, rest: `${before}${path}${lineSuffix(line, end)}${after}`, path, line };
  };

const lineSuffix = (line?: number, end?: number) =>
  line === undefined ? '' : end !== undefined && end !== line ? `:${line}-${end}` : `:${line}`;

const fixed =
  (verb: string, rest: string): Describe =>
  () => ({ verb, rest });

const named =
  (verb: string, what: string, key: string): Describe =>
  (input) => ({ verb, rest: str(input, key) ? `${what} ${quoted(str(input, key))}` : what });

const article = (noun: string) => (noun ? `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}` : 'a');

const highlight: Describe = (input) => {
  const path = str(input, 'path');
  const ranges = Array.isArray(input.ranges) ? (input.ranges as Input[]) : [];
  const first = ranges[0] ?? input;
  const line = num(first, 'startLine');
  const more = ranges.length > 1 ? ` (+${ranges.length - 1} more)` : '';
  if (!path) return { verb: 'highlight', rest: 'lines in an editor' };
  return { verb: 'highlight', rest: `${path}${lineSuffix(line, num(first, 'endLine'))}${more}`, path, line };
};

const codeLookup =
  (what: string): Describe =>
  (input) => {
    const symbol = str(input, 'symbol');
    const path = str(input, 'path');
    const line = num(input, 'line');
    if (symbol) return { verb: 'look up', rest: `${what} ${quoted(symbol)}`, path, line };
    if (path) return { verb: 'look up', rest: `${what} at ${path}${lineSuffix(line)}`, path, line };
    return { verb: 'look up', rest: what };
  };

/** The hub's tools, by their names in the catalog (src/contract); one missing does not compile. */
const OPENSPACE: Record<ToolName | (typeof TOOLS_ENABLE)['name'], Describe> = {
  'openspace.pane.open': (input) => ({ verb: 'open', rest: `${article(str(input, 'type') ?? '')} pane`.trim() }),
  'openspace.pane.close': fixed('close', 'a pane'),
  'openspace.pane.focus': fixed('focus', 'a pane'),
  'openspace.pane.list': fixed('list', 'the open panes'),
  'openspace.pane.resize': fixed('resize', 'a pane'),
  'openspace.editor.open': onFile('open', { line: 'line', end: 'endLine' }),
  'openspace.editor.read_file': onFile('read', { line: 'startLine', end: 'endLine' }),
  'openspace.editor.close': onFile('close'),
  'openspace.editor.scroll_to': onFile('scroll to', { line: 'line' }),
  'openspace.editor.highlight': highlight,
  'openspace.editor.clear_highlight': (input) =>
    str(input, 'path') ? onFile('clear', { before: 'highlights in' })(input) : { verb: 'clear', rest: 'a highlight' },
  'openspace.editor.replace_range': onFile('replace', { before: 'lines of', line: 'startLine', end: 'endLine' }),
  'openspace.editor.propose_edit': onFile('propose', { before: 'an edit to' }),
  'openspace.terminal.create': named('open', 'a terminal', 'title'),
  'openspace.terminal.send': (input) => ({ verb: 'send', rest: `${quoted(str(input, 'text')) || 'text'} to a terminal` }),
  'openspace.terminal.read_output': fixed('read', 'terminal output'),
  'openspace.terminal.list': fixed('list', 'the terminals'),
  'openspace.terminal.close': fixed('close', 'a terminal'),
  'openspace.terminal.run': (input) => ({ verb: 'run', rest: shorten(str(input, 'command') ?? 'a command') }),
  'openspace.file.read': onFile('read', { line: 'startLine', end: 'endLine' }),
  'openspace.file.write': onFile('write'),
  'openspace.file.list': (input) => ({ verb: 'list', rest: `files in ${str(input, 'path') ?? 'the workspace'}` }),
  'openspace.file.search': (input) => ({ verb: 'search', rest: `for ${quoted(str(input, 'query')) || 'text'}` }),
  'openspace.file.patch': onFile('patch'),
  'openspace.file.snapshots': onFile('list', { before: 'the versions of' }),
  'openspace.file.restore': onFile('restore'),
  'openspace.presentation.list': fixed('list', 'the presentations'),
  'openspace.presentation.read': onFile('read', { before: 'the presentation', key: 'deckPath' }),
  'openspace.presentation.create': onFile('create', { before: 'the presentation', key: 'deckPath' }),
  'openspace.presentation.update_slide': (input) => ({
    ...onFile('update', { key: 'deckPath' })(input),
    rest: `slide ${(num(input, 'slideIndex') ?? 0) + 1} of ${str(input, 'deckPath') ?? 'a presentation'}`,
  }),
  'openspace.presentation.open': onFile('open', { before: 'the presentation', key: 'deckPath' }),
  'openspace.presentation.navigate': (input) => ({
    verb: 'go',
    rest: num(input, 'slideIndex') === undefined ? 'to a slide' : `to slide ${num(input, 'slideIndex')! + 1}`,
  }),
  'openspace.presentation.play': fixed('play', 'a presentation'),
  'openspace.presentation.pause': fixed('pause', 'a presentation'),
  'openspace.presentation.stop': fixed('stop', 'a presentation'),
  'openspace.whiteboard.list': fixed('list', 'the whiteboards'),
  'openspace.whiteboard.read': named('read', 'the whiteboard', 'whiteboardId'),
  'openspace.whiteboard.create': (input) => ({
    verb: 'create',
    rest: `a whiteboard${str(input, 'title') ? ` ${quoted(str(input, 'title'))}` : ''}`,
  }),
  'openspace.whiteboard.add_shape': fixed('draw', 'on a whiteboard'),
  'openspace.whiteboard.update_shape': fixed('change', 'a shape on a whiteboard'),
  'openspace.whiteboard.delete_shape': fixed('delete', 'a shape from a whiteboard'),
  'openspace.whiteboard.open': fixed('open', 'a whiteboard'),
  'openspace.whiteboard.camera.set': fixed('move', 'the whiteboard view'),
  'openspace.whiteboard.camera.fit': fixed('fit', 'the whiteboard view'),
  'openspace.whiteboard.camera.get': fixed('check', 'the whiteboard view'),
  'openspace.whiteboard.layout': fixed('lay out', 'a whiteboard'),
  'openspace.modality.list': fixed('list', 'what the IDE can show'),
  'openspace.modality.focus': (input) => ({ verb: 'focus', rest: `the ${str(input, 'modalityId') ?? 'view'}` }),
  'openspace.diagnostics.list': (input) => ({
    verb: 'check',
    rest: `problems${str(input, 'path') ? ` in ${str(input, 'path')}` : ''}`,
    path: str(input, 'path'),
  }),
  'openspace.symbols.search': named('search', 'symbols for', 'query'),
  'openspace.symbols.outline': onFile('outline'),
  'openspace.code.definition': codeLookup('the definition of'),
  'openspace.code.references': codeLookup('references to'),
  'openspace.code.hover': codeLookup('the type of'),
  'openspace.context.get': fixed('check', 'what is open in the IDE'),
  'openspace.events.query': fixed('check', 'recent IDE events'),
  'openspace.events.configure': fixed('configure', 'IDE events'),
  'openspace.tools.enable': (input) => ({
    verb: 'enable',
    rest: `${Array.isArray(input.families) ? input.families.join(', ') : 'more'} tools`,
  }),
};

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

/** The table by any name: a name outside the catalog finds nothing. */
const BY_NAME: Readonly<Record<string, Describe | undefined>> = OPENSPACE;

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
  const describe = name ? BY_NAME[name] : Object.hasOwn(OPENCODE, tool) ? OPENCODE[tool] : undefined;
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
