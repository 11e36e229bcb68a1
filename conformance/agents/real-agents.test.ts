/**
 * Real Claude Code (`claude -p`) and real OpenCode (`opencode run`) drive a hub on the simulated IDE
 * through exactly what `openspace init` wrote into the project, against a scripted model of ours
 * that makes them call openspace tools in order, one of them failing on purpose. What counts is
 * what happened in the IDE and what the agent sent back to the model, not the agent's exit code
 * (both exit 0 when no tool ran). Then each connects over stdio to a hub it spawns itself, as
 * `openspace init --stdio` configures. Needs `npm run build` and `npm ci --prefix ci/agents`
 * (`npm run test:agents` runs both); no network.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimHub, type SimHub } from '../../sim/start.js';
import { FIXTURE_WORKSPACE } from '../target.js';
import { claudeCode, describeRun, opencode, openspaceInit, type AgentRun } from './agents.js';
import { anthropicToolResults, startAnthropicModel } from './anthropic-model.js';
import { openaiSystemPrompt, openaiToolResults, startOpenaiModel } from './openai-model.js';
import type { Script, ScriptedModel, ScriptStep } from './script.js';
import { agentLaunch } from '../../src/init/agent-launch.js';
import { AGENT_BIN } from './agents.js';

const claudeName = (tool: string) => `mcp__openspace__${tool.replaceAll('.', '_')}`;
const opencodeName = (tool: string) => `openspace_${tool.replaceAll('.', '_')}`;
const PROMPT = 'Show me the code, then write down what you found.';
/** The first line of the hub's instructions (GET /openspace/instructions, and MCP's initialize). */
const HUB_INSTRUCTIONS = '# System Instructions: Theia OpenSpace IDE Control';
/** The heading of the section init appends to CLAUDE.md and AGENTS.md. */
const INIT_SECTION = '## OpenSpace IDE integration';

const temporary: string[] = [];
const models: ScriptedModel[] = [];

async function tempDir(prefix: string, fixture = false): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temporary.push(dir);
  if (fixture) await cp(FIXTURE_WORKSPACE, dir, { recursive: true });
  return dir;
}

const home = () => tempDir('openspace-agent-home-');

async function model(start: (script: Script) => Promise<ScriptedModel>, script: Script): Promise<ScriptedModel> {
  const started = await start(script);
  models.push(started);
  return started;
}

/** The scripted conversation happened: the agent offered the scripted tools and sent back every result. */
function expectConversation(model: ScriptedModel, run: AgentRun, steps: ScriptStep[]): void {
  expect(model.problems, describeRun(run)).toEqual([]);
  const offered = new Set(model.requests.flatMap((r) => r.body?.tools ?? []).map((t) => t.name ?? t.function?.name));
  const why = `the agent never offered the model an openspace tool; it offered ${[...offered].join(', ') || 'no tools'}\n${describeRun(run)}`;
  // One request per step, and one more after the last result.
  expect(model.conversation().length, why).toBe(steps.length + 1);
}

/** The agent offered `tool` to the model only after openspace.tools.enable: not at the session's start, then from the next request on. */
function expectListedOnlyAfterEnable(model: ScriptedModel, tool: string): void {
  const offers = model
    .conversation()
    .map((r) =>
      ((r.body?.tools ?? []) as { name?: string; function?: { name?: string } }[]).some((t) => (t.name ?? t.function?.name) === tool),
    );
  expect(offers[0], `${tool} was offered at the session's start`).toBe(false);
  expect(offers.at(-1), `${tool} was never offered`).toBe(true);
}

afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('over HTTP, with the configs `openspace init --url` wrote', () => {
  let hub: SimHub;
  let workspace: string;
  const token = randomBytes(32).toString('hex');

  beforeAll(async () => {
    workspace = await tempDir('openspace-agents-http-', true);
    hub = await startSimHub({ workspace: { kind: 'disk', root: workspace }, consent: 'granted', token, lockFile: false });
    await openspaceInit(workspace, ['--url', hub.server.mcpUrl]);
  });
  afterAll(() => hub?.close());

  const cursorLine = (path: string) => hub.ide.editors.list().find((e) => e.path === path)?.cursor.line;

  it('Claude Code opens a file at a line, sees a failing read, enables the presentation tools and creates a deck', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/index.ts', line: 42 } },
      { tool: 'openspace.file.read', arguments: { path: 'missing/claude.md' } },
      // Not listed at the session's start: the model can call it only once Claude Code listed it again.
      { tool: 'openspace.tools.enable', arguments: { families: ['presentation'] } },
      {
        tool: 'openspace.presentation.create',
        arguments: { deckPath: 'docs/claude.deck.md', title: 'From Claude Code', slides: ['# From Claude Code', '## It works'] },
      },
    ];
    const anthropic = await model(startAnthropicModel, { steps, finalText: 'Done.', agentToolName: claudeName });
    const run = await claudeCode(await home(), anthropic.url, token)(workspace, PROMPT);

    expectConversation(anthropic, run, steps);
    expect(cursorLine('src/index.ts'), describeRun(run)).toBe(42);
    expect(await readFile(join(workspace, 'docs/claude.deck.md'), 'utf8')).toContain('From Claude Code');
    const last = anthropic.conversation().at(-1)!;
    const results = anthropicToolResults(last);
    expect(results.map((r) => r.isError)).toEqual([false, true, false, false]);
    expect(results[1]!.text).toContain('FILE_NOT_FOUND');
    expectListedOnlyAfterEnable(anthropic, claudeName('openspace.presentation.create'));
    // CLAUDE.md's section, and the hub's instructions from MCP's initialize, reached the model.
    const sent = JSON.stringify(last.body);
    expect(sent).toContain(INIT_SECTION);
    expect(sent).toContain(HUB_INSTRUCTIONS);
    expect(JSON.stringify(anthropic.requests), 'the access token reached the model').not.toContain(token);
  });

  it('OpenCode opens a file at a line, writes a file, sees a failing read, enables the whiteboard tools and creates a board', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/auth.ts', line: 10 } },
      { tool: 'openspace.file.write', arguments: { path: 'notes/opencode.md', content: 'Written by OpenCode.\n' } },
      { tool: 'openspace.file.read', arguments: { path: 'missing/opencode.md' } },
      { tool: 'openspace.tools.enable', arguments: { families: ['whiteboard'] } },
      { tool: 'openspace.whiteboard.create', arguments: { whiteboardId: 'notes/opencode.whiteboard.json', title: 'From OpenCode' } },
    ];
    const openai = await model(startOpenaiModel, { steps, finalText: 'Done.', agentToolName: opencodeName });
    const run = await (await opencode(await home(), openai.url, token))(workspace, PROMPT);

    expectConversation(openai, run, steps);
    expect(cursorLine('src/auth.ts'), describeRun(run)).toBe(10);
    expect(await readFile(join(workspace, 'notes/opencode.md'), 'utf8')).toBe('Written by OpenCode.\n');
    const last = openai.conversation().at(-1)!;
    const results = openaiToolResults(last);
    expect(results).toHaveLength(5);
    expect(results[2]).toContain('FILE_NOT_FOUND');
    expect(JSON.parse(await readFile(join(workspace, 'notes/opencode.whiteboard.json'), 'utf8'))).toMatchObject({ type: 'excalidraw' });
    expectListedOnlyAfterEnable(openai, opencodeName('openspace.whiteboard.create'));
    // AGENTS.md's section, and the hub's instructions from MCP's initialize, are in the system prompt.
    const system = openaiSystemPrompt(last);
    expect(system).toContain(INIT_SECTION);
    expect(system).toContain(HUB_INSTRUCTIONS);
    expect(JSON.stringify(openai.requests), 'the access token reached the model').not.toContain(token);
  });
});

describe('over stdio, with the configs `openspace init --stdio --consent` wrote', () => {
  const steps = (agent: string) => [
    { tool: 'openspace.file.write', arguments: { path: `stdio/${agent}.txt`, content: `Written by ${agent} over stdio.\n` } },
    { tool: 'openspace.editor.open', arguments: { path: `stdio/${agent}.txt`, line: 1 } },
    { tool: 'openspace.file.read', arguments: { path: `missing/${agent}.txt` } },
  ];

  it('Claude Code spawns its hub, which writes into the project', async () => {
    const project = await tempDir('openspace-agents-stdio-', true);
    await openspaceInit(project, ['--stdio', '--consent']);
    const script = steps('claude');
    const anthropic = await model(startAnthropicModel, { steps: script, finalText: 'Done.', agentToolName: claudeName });
    const run = await claudeCode(await home(), anthropic.url, '')(project, PROMPT);

    expectConversation(anthropic, run, script);
    expect(await readFile(join(project, 'stdio/claude.txt'), 'utf8')).toBe('Written by claude over stdio.\n');
    const results = anthropicToolResults(anthropic.conversation().at(-1)!);
    expect(results.map((r) => r.isError)).toEqual([false, false, true]);
    expect(results[2]!.text).toContain('FILE_NOT_FOUND');
  });

  it('OpenCode spawns its hub, which writes into the project', async () => {
    const project = await tempDir('openspace-agents-stdio-', true);
    await openspaceInit(project, ['--stdio', '--consent']);
    const script = steps('opencode');
    const openai = await model(startOpenaiModel, { steps: script, finalText: 'Done.', agentToolName: opencodeName });
    const run = await (await opencode(await home(), openai.url, ''))(project, PROMPT);

    expectConversation(openai, run, script);
    expect(await readFile(join(project, 'stdio/opencode.txt'), 'utf8')).toBe('Written by opencode over stdio.\n');
    expect(openaiToolResults(openai.conversation().at(-1)!)[2]).toContain('FILE_NOT_FOUND');
  });
});

// Theia's agent pane starts the person's CLI with the hub's config in its environment and arguments
// (theia-app/openspace/src/node/agent-launch.ts); in a project with no config of its own, the real
// CLIs started that way drive the hub.
describe("with the agent pane's launch: no config in the project, the hub's in the CLI's environment", () => {
  let hub: SimHub;
  let workspace: string;
  const token = randomBytes(32).toString('hex');

  beforeAll(async () => {
    workspace = await tempDir('openspace-agents-pane-', true);
    hub = await startSimHub({ workspace: { kind: 'disk', root: workspace }, consent: 'granted', token, lockFile: false });
  });
  afterAll(() => hub?.close());

  const launch = (cli: string) => {
    const started = agentLaunch(cli, [], { mcpUrl: hub.server.mcpUrl, token }, AGENT_BIN);
    if (!started.ok) throw new Error(started.message);
    return started;
  };
  const steps = (agent: string) => [
    { tool: 'openspace.file.write', arguments: { path: `pane/${agent}.txt`, content: `Written by ${agent} from the pane.\n` } },
    { tool: 'openspace.editor.open', arguments: { path: `pane/${agent}.txt`, line: 1 } },
    { tool: 'openspace.file.read', arguments: { path: `missing/${agent}.txt` } },
  ];

  it('Claude Code, given --mcp-config', async () => {
    const { shellArgs, env } = launch('claude');
    expect(JSON.stringify(shellArgs)).not.toContain(token);
    const script = steps('claude');
    const anthropic = await model(startAnthropicModel, { steps: script, finalText: 'Done.', agentToolName: claudeName });
    const run = await claudeCode(await home(), anthropic.url, '', { args: shellArgs, env })(workspace, PROMPT);

    expectConversation(anthropic, run, script);
    expect(await readFile(join(workspace, 'pane/claude.txt'), 'utf8')).toBe('Written by claude from the pane.\n');
    expect(anthropicToolResults(anthropic.conversation().at(-1)!)[2]!.text).toContain('FILE_NOT_FOUND');
  });

  it('OpenCode, given OPENCODE_CONFIG_CONTENT', async () => {
    const { shellArgs, env } = launch('opencode');
    expect(shellArgs).toEqual([]);
    const script = steps('opencode');
    const openai = await model(startOpenaiModel, { steps: script, finalText: 'Done.', agentToolName: opencodeName });
    const run = await (await opencode(await home(), openai.url, '', { env }))(workspace, PROMPT);

    expectConversation(openai, run, script);
    expect(await readFile(join(workspace, 'pane/opencode.txt'), 'utf8')).toBe('Written by opencode from the pane.\n');
    expect(JSON.stringify(openai.requests), 'the access token reached the model').not.toContain(token);
  });
});
