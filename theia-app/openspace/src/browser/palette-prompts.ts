import type { z } from 'zod';
import type { IdePort } from '../../../../src/browser.js';
import { inputJsonSchema, MAX_LIST_ENTRIES, type JsonSchemaNode as JsonSchema, type ToolDefinition } from '../../../../src/browser.js';

/**
 * AC-3.2.1: a command run from the palette asks for its arguments, derived from its tool's input
 * schema: what the IDE knows (terminals, panes, tabs, editors, files, highlights, snapshots) is
 * offered in a list, enums as their values, text and numbers in an input box checked against the
 * schema. Escape at any prompt cancels the command. Nothing here knows Theia: the prompts go
 * through a PromptUi (Theia's QuickInputService in the IDE, a script in tests).
 */

/** One row of a list; a separator heads a group of rows. */
export type PickEntry<V> = { label: string; description?: string; detail?: string; value: V } | { separator: string };

export interface PickRequest<V> {
  title: string;
  placeholder: string;
  entries: PickEntry<V>[];
  /** Turns what the person typed into a row of its own (a path of a file not listed); absent: only the rows. */
  typed?: (text: string) => V;
}

export interface InputRequest {
  title: string;
  prompt: string;
  value?: string;
  /** The problem with the text, shown under the box while it stands; undefined when it is fine. */
  validate: (text: string) => string | undefined;
}

/** What a person sees: lists and input boxes answer undefined when they press Escape. */
export interface PromptUi {
  pick<V>(request: PickRequest<V>): Promise<V | undefined>;
  input(request: InputRequest): Promise<string | undefined>;
  info(message: string): void;
}

type Args = Record<string, unknown>;

/** One question: the argument(s) it sets and how it asks. */
export type Prompt =
  | { kind: 'pick'; field: string; required: boolean; source: SourceName }
  | { kind: 'choice'; field: string; required: boolean; values: unknown[] }
  | { kind: 'input'; field: string; required: boolean; parse: Parse; preset?: PresetName; placeholder?: string }
  /** A tool that takes one of several references (pane.close: a pane or a tab), none required by the schema. */
  | { kind: 'reference'; fields: string[] };

type Parse = 'text' | 'number' | 'ranges' | 'json';

/** Rows of a list and what one row is called, for the placeholder. */
interface Source {
  noun: string;
  rows: (ide: IdePort, args: Args) => Promise<PickEntry<string>[]>;
}

const terminals: Source = {
  noun: 'terminal',
  rows: async (ide) =>
    ide.terminals.list().map((t) => ({
      label: t.title,
      description: t.terminalId === t.title ? undefined : t.terminalId,
      detail: t.running ? undefined : `exited${t.exitCode === undefined ? '' : ` with code ${t.exitCode}`}`,
      value: t.terminalId,
    })),
};

/** The open editors first, then the workspace's files as file.list lists them (.gitignore honoured). */
const files: Source = {
  noun: 'file',
  rows: async (ide) => {
    const open = ide.editors.list().map((e) => e.path);
    const { files: all } = await ide.workspace.list('', { recursive: true, limit: MAX_LIST_ENTRIES });
    const rest = all.filter((f) => f.type === 'file' && !open.includes(f.path)).map((f) => fileEntry(f.path));
    return [
      ...(open.length > 0 ? [{ separator: 'open editors' }, ...open.map(fileEntry)] : []),
      ...(rest.length > 0 ? [{ separator: 'workspace files' }, ...rest] : []),
    ];
  },
};

const SOURCES = {
  terminals,
  files,
  panes: {
    noun: 'pane',
    rows: async (ide) =>
      ide.shell
        .layout()
        .panes.map((p) => ({ label: p.id, description: p.area, detail: p.tabs.map((t) => t.title).join(', ') || 'no tabs', value: p.id })),
  },
  tabs: {
    noun: 'tab',
    rows: async (ide) =>
      ide.shell
        .layout()
        .panes.flatMap((p) => p.tabs.map((t) => ({ label: t.title, description: `${t.contentId} · ${p.id}`, value: t.contentId }))),
  },
  highlights: {
    noun: 'highlight',
    rows: async (ide) =>
      ide.editors.highlights().map((h) => ({
        label: h.highlightId,
        description: `${h.path}: ${h.ranges.map((r) => (r.startLine === r.endLine ? r.startLine : `${r.startLine}-${r.endLine}`)).join(', ')}`,
        value: h.highlightId,
      })),
  },
  /** Files that hold highlights (clear_highlight by path clears them all). */
  highlightedFiles: {
    noun: 'file with highlights',
    rows: async (ide) => [...new Set(ide.editors.highlights().map((h) => h.path))].map(fileEntry),
  },
  /** The kept versions of the file chosen before, newest first. */
  snapshots: {
    noun: 'snapshot',
    rows: async (ide, args) =>
      (await ide.workspace.snapshots(String(args.path))).snapshots.map((s) => ({
        label: s.time,
        description: `${s.source} · ${s.bytes} bytes`,
        detail: s.version,
        value: s.version,
      })),
  },
} satisfies Record<string, Source>;

/** A list by name; "content" (pane.open's) is a terminal for type "terminal", a file otherwise. */
type SourceName = keyof typeof SOURCES | 'content';

function sourceOf(name: SourceName, args: Args): Source {
  if (name === 'content') return args.type === 'terminal' ? terminals : files;
  return SOURCES[name];
}

/** Values an input box starts with: the file's current version for a baseVersion. */
const PRESETS = {
  currentVersion: async (ide: IdePort, args: Args) => (await ide.workspace.snapshots(String(args.path))).currentVersion ?? undefined,
};
type PresetName = keyof typeof PRESETS;

/** Arguments whose name says what the IDE knows to choose from. */
const PICKED_BY_NAME: Record<string, SourceName> = {
  terminalId: 'terminals',
  paneId: 'panes',
  targetPaneId: 'panes',
  contentId: 'content',
  path: 'files',
  deckPath: 'files',
  whiteboardId: 'files',
  highlightId: 'highlights',
  version: 'snapshots',
};
/** Rows of a reference prompt, per field. */
const REFERENCE_SOURCES: Record<string, keyof typeof SOURCES> = {
  paneId: 'panes',
  contentId: 'tabs',
  highlightId: 'highlights',
  path: 'highlightedFiles',
};
/** Fields that make a tool with no required field take one of its references. */
const REFERENCES = ['paneId', 'contentId', 'highlightId'];
/** Optional arguments a person running the command means to give (a line to go to, a size); the others keep their defaults. */
const ASKED_WHEN_OPTIONAL = new Set(['line', 'width', 'height']);

/** The questions the palette asks for a tool, in the order of its input schema. */
export function planPrompts(tool: ToolDefinition): Prompt[] {
  const schema = inputJsonSchema(tool) as JsonSchema;
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(properties);
  if (required.size === 0 && names.some((n) => REFERENCES.includes(n))) {
    return [{ kind: 'reference', fields: names.filter((n) => n in REFERENCE_SOURCES) }];
  }
  return names.filter((n) => required.has(n) || ASKED_WHEN_OPTIONAL.has(n)).map((n) => promptFor(n, properties[n]!, required.has(n)));
}

function promptFor(field: string, schema: JsonSchema, required: boolean): Prompt {
  const source = PICKED_BY_NAME[field];
  if (source) return { kind: 'pick', field, required, source };
  if (schema.enum) return { kind: 'choice', field, required, values: schema.enum };
  if (schema.type === 'boolean') return { kind: 'choice', field, required, values: [true, false] };
  if (schema.type === 'number' || schema.type === 'integer') return { kind: 'input', field, required, parse: 'number' };
  if (field === 'baseVersion') return { kind: 'input', field, required, parse: 'text', preset: 'currentVersion' };
  if (schema.type === 'string') return { kind: 'input', field, required, parse: 'text' };
  const item = schema.items;
  if (schema.type === 'array' && item?.properties?.startLine && item.properties.endLine) {
    return { kind: 'input', field, required, parse: 'ranges', placeholder: 'e.g. 42-50, 60' };
  }
  return { kind: 'input', field, required, parse: 'json', placeholder: `JSON, e.g. ${JSON.stringify(example(schema))}` };
}

/**
 * Ask a person for a tool's arguments: undefined when they pressed Escape at a prompt (nothing is
 * to run), else the arguments, without the optional ones they skipped.
 */
export async function askArguments(tool: ToolDefinition, ide: IdePort, ui: PromptUi): Promise<Args | undefined> {
  const title = `OpenSpace: ${tool.title}`;
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const args: Args = {};
  for (const prompt of planPrompts(tool)) {
    const answer = await ask(prompt, { title, ide, ui, args, shape });
    if (answer === undefined) return undefined;
    Object.assign(args, answer);
  }
  return args;
}

interface Asking {
  title: string;
  ide: IdePort;
  ui: PromptUi;
  args: Args;
  shape: Record<string, z.ZodType>;
}

/** One prompt's answer: the arguments it sets ({} when an optional one was skipped), undefined on Escape. */
async function ask(prompt: Prompt, { title, ide, ui, args, shape }: Asking): Promise<Args | undefined> {
  if (prompt.kind === 'reference') {
    const sources = prompt.fields.map((field) => ({ field, source: SOURCES[REFERENCE_SOURCES[field]!] as Source }));
    const groups = await Promise.all(sources.map(async ({ field, source }) => ({ field, source, rows: await source.rows(ide, args) })));
    const entries = groups.flatMap(({ field, source, rows }) =>
      rows.length === 0
        ? []
        : [{ separator: `${source.noun}s` }, ...rows.map((row) => ('value' in row ? { ...row, value: { [field]: row.value } } : row))],
    );
    const nouns = sources.map(({ source }) => article(source.noun)).join(' or ');
    if (entries.length === 0)
      return nothingToChoose(
        ui,
        title,
        sources.map(({ source }) => source.noun),
      );
    return ui.pick<Args>({ title, placeholder: `Choose ${nouns}`, entries });
  }
  const field = prompt.field;
  const skip = prompt.required ? '' : ' (optional: press Enter to skip)';
  if (prompt.kind === 'pick') {
    const source = sourceOf(prompt.source, args);
    const entries = await source.rows(ide, args);
    // A file may be one no list shows yet (file.write creates it): its path can be typed.
    const typed = source === files ? (text: string) => text : undefined;
    if (entries.length === 0 && !typed) return nothingToChoose(ui, title, [source.noun]);
    const placeholder = `Choose ${article(source.noun)}${typed ? ' or type its path' : ''}${skip}`;
    const value = await ui.pick({ title, placeholder, entries, typed });
    return value === undefined ? undefined : { [field]: value };
  }
  if (prompt.kind === 'choice') {
    const entries = prompt.values.map((value) => ({ label: String(value), value }));
    const value = await ui.pick({ title, placeholder: `Choose the ${words(field)}`, entries });
    return value === undefined ? undefined : { [field]: value };
  }
  const schema = shape[field]!;
  const value = prompt.preset ? await PRESETS[prompt.preset](ide, args) : undefined;
  const text = await ui.input({
    title,
    prompt: `${schema.description ?? capitalize(words(field))}${prompt.placeholder ? ` (${prompt.placeholder})` : ''}${skip}`,
    value,
    validate: (input) => (input === '' && !prompt.required ? undefined : check(schema, prompt.parse, input)),
  });
  if (text === undefined) return undefined;
  if (text === '' && !prompt.required) return {};
  return { [field]: parse(prompt.parse, text) };
}

function nothingToChoose(ui: PromptUi, title: string, nouns: string[]): undefined {
  ui.info(`${title}: there is no ${nouns.join(' or ')} to choose.`);
  return undefined;
}

/** The text as the argument's value; throws when it cannot be one (check says why). */
function parse(kind: Parse, text: string): unknown {
  if (kind === 'text') return text;
  if (kind === 'json') return JSON.parse(text);
  if (kind === 'number') {
    if (text.trim() === '' || !Number.isFinite(Number(text))) throw new Error('Enter a number.');
    return Number(text);
  }
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not a line or a range of lines such as 42-50.`);
    return { startLine: Number(match[1]), endLine: Number(match[2] ?? match[1]) };
  });
}

/** Why the text is not a valid value for the field, or undefined: the schema's own words. */
function check(schema: z.ZodType, kind: Parse, text: string): string | undefined {
  let value: unknown;
  try {
    value = parse(kind, text);
  } catch (err) {
    return err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : (err as Error).message;
  }
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  return result.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

function fileEntry(path: string): PickEntry<string> {
  const slash = path.lastIndexOf('/');
  return { label: path.slice(slash + 1), description: slash < 0 ? undefined : path.slice(0, slash), value: path };
}

/** "terminalId" → "terminal ID", "baseVersion" → "base version". */
function words(field: string): string {
  return field.replace(/Id$/, ' ID').replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);
}

function article(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value of the schema's shape, for a placeholder: the first alternative, required fields only. */
function example(schema: JsonSchema): unknown {
  const first = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (first) return example(first);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'array') return schema.items ? [example(schema.items)] : [];
  if (schema.type === 'object') {
    return Object.fromEntries((schema.required ?? []).map((name) => [name, example(schema.properties?.[name] ?? {})]));
  }
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  return '…';
}
