/**
 * What `openspace init` writes into a project so the agents started there find the hub (Oxide §5–§6):
 * the openspace server merged into `.mcp.json` (Claude Code) and `opencode.json` (OpenCode), and a
 * tool-preference section appended to `CLAUDE.md` and `AGENTS.md`. Pure: it plans from the files'
 * current text; the command writes. The access token is never written: the configs name the
 * `OPENSPACE_TOKEN` environment variable, which both clients expand and the hub reads.
 */
import { PREFERENCES } from '../families/index.js';

/** How the agents reach the hub: over HTTP at a running hub, or by spawning one over stdio. */
export type HubConnection = { kind: 'http'; mcpUrl: string } | { kind: 'stdio'; command: string; args: string[] };

export interface PlannedFile {
  /** Relative to the project. */
  path: string;
  action: 'create' | 'update' | 'append' | 'unchanged';
  /** What the file holds afterwards. */
  content: string;
  what: string;
}

export class InitError extends Error {}

export const SERVER_NAME = 'openspace';
const SECTION_BEGIN = '<!-- openspace:begin -->';
const SECTION_END = '<!-- openspace:end -->';

function section(): string {
  return [
    SECTION_BEGIN,
    '## OpenSpace IDE integration',
    '',
    'This project is worked on in an OpenSpace IDE: a person watches the IDE while you work, and its MCP server',
    `"${SERVER_NAME}" gives you tools named \`openspace.*\` to operate it (the live state of the IDE comes with`,
    'its instructions). When that server is connected, prefer its tools to your built-in ones:',
    '',
    '| Instead of | Use | Why |',
    '| --- | --- | --- |',
    ...PREFERENCES.map(({ use, insteadOf, why }) => `| ${insteadOf} | ${use.replace(/openspace\.[\w.*]+/g, '`$&`')} | ${why} |`),
    '',
    'A session starts with the core tools listed; when one named here is not in your list, list its family first with',
    '`openspace.tools.enable` (for example `{"families": ["symbols", "code"]}`).',
    'Your work through these tools shows in the IDE as it happens, so the person can follow and review it.',
    'If the server is not connected, or a task needs what no tool offers, use your built-in tools as usual.',
    SECTION_END,
  ].join('\n');
}

/** Claude Code's entry in `.mcp.json` (it expands `${VAR}` in url, headers, command and args). */
export function claudeServer(hub: HubConnection): Record<string, unknown> {
  if (hub.kind === 'stdio') return { type: 'stdio', command: hub.command, args: hub.args };
  return { type: 'http', url: hub.mcpUrl, headers: { Authorization: 'Bearer ${OPENSPACE_TOKEN}' } };
}

/** OpenCode's entry in `opencode.json` (it expands `{env:VAR}` anywhere in its config). */
export function opencodeServer(hub: HubConnection): Record<string, unknown> {
  if (hub.kind === 'stdio') return { type: 'local', command: [hub.command, ...hub.args], enabled: true };
  return { type: 'remote', url: hub.mcpUrl, enabled: true, headers: { Authorization: 'Bearer {env:OPENSPACE_TOKEN}' } };
}

function parseObject(path: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InitError(
      `${path} is not valid JSON (${(err as Error).message}); fix it or move it away, then run init again. Nothing was written.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InitError(`${path} does not hold a JSON object; nothing was written.`);
  }
  return value as Record<string, unknown>;
}

function objectAt(path: string, parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InitError(`${path}: "${key}" is not an object; nothing was written.`);
  }
  return value as Record<string, unknown>;
}

/** The file's own indentation (a tab, or its first indent's spaces), so a merge keeps its look. */
function indentOf(text: string): string | number {
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0];
  return indent?.startsWith('\t') ? '\t' : (indent?.length ?? 2);
}

function planJson(
  path: string,
  current: string | undefined,
  what: string,
  merge: (config: Record<string, unknown>) => Record<string, unknown>,
): PlannedFile {
  const config = merge(current === undefined ? {} : parseObject(path, current));
  const content = `${JSON.stringify(config, null, current === undefined ? 2 : indentOf(current))}\n`;
  if (current === undefined) return { path, action: 'create', content, what };
  const same = JSON.stringify(parseObject(path, current)) === JSON.stringify(config);
  return { path, action: same ? 'unchanged' : 'update', content: same ? current : content, what };
}

function planSection(path: string, current: string | undefined, agent: string): PlannedFile {
  const ours = section();
  const what = `${agent}: the "OpenSpace IDE integration" section`;
  if (current === undefined) return { path, action: 'create', content: `${ours}\n`, what };
  const begin = current.indexOf(SECTION_BEGIN);
  const end = current.indexOf(SECTION_END, begin);
  if (begin >= 0 && end >= 0) {
    const content = current.slice(0, begin) + ours + current.slice(end + SECTION_END.length);
    return { path, action: content === current ? 'unchanged' : 'update', content, what };
  }
  const separator = current === '' ? '' : current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  return { path, action: 'append', content: `${current}${separator}${ours}\n`, what };
}

/**
 * The files to write for `hub`, given each file's current text (undefined: it does not exist).
 * Throws InitError, before anything is written, for a config it cannot merge into.
 */
export function planInit(hub: HubConnection, read: (path: string) => string | undefined): PlannedFile[] {
  if (read('opencode.jsonc') !== undefined && read('opencode.json') === undefined) {
    throw new InitError(
      `opencode.jsonc exists: add the openspace server to it by hand, as ${JSON.stringify({ mcp: { [SERVER_NAME]: opencodeServer(hub) } })}; nothing was written.`,
    );
  }
  const mcpJson = planJson('.mcp.json', read('.mcp.json'), 'Claude Code: the openspace MCP server', (config) => ({
    ...config,
    mcpServers: { ...objectAt('.mcp.json', config, 'mcpServers'), [SERVER_NAME]: claudeServer(hub) },
  }));
  const opencodeJson = planJson('opencode.json', read('opencode.json'), 'OpenCode: the openspace MCP server', (config) => {
    const merged: Record<string, unknown> = {
      $schema: 'https://opencode.ai/config.json',
      ...config,
      mcp: { ...objectAt('opencode.json', config, 'mcp'), [SERVER_NAME]: opencodeServer(hub) },
    };
    // OpenCode takes the hub's instructions from MCP's initialize. An instructions URL (from a
    // pasted config) would repeat them, and hand the access token in it to the model's provider.
    if (Array.isArray(config.instructions)) {
      merged.instructions = config.instructions.filter((i) => !String(i).includes('/openspace/instructions'));
    }
    return merged;
  });
  return [
    mcpJson,
    opencodeJson,
    planSection('CLAUDE.md', read('CLAUDE.md'), 'Claude Code'),
    planSection('AGENTS.md', read('AGENTS.md'), 'OpenCode and other agents'),
  ];
}
