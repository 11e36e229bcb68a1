/**
 * Real agents in the chat over the Agent Client Protocol (issue 33): Claude Code through Zed's
 * `claude-agent-acp` and OpenCode through `opencode acp`, started by the chat's ACP client
 * (theia-app/openspace/src/node/acp/acp-chat.ts) exactly as the panel starts them, against a
 * scripted model of ours. Each is given OpenSpace as its MCP server in `session/new` (the token in
 * a header), asked to open a file at a line and to write a file; the write waits on a permission
 * card the test answers as the person would. What counts is what happened in the IDE, what the
 * chat showed, and that the token never reached the model. Needs `npm ci --prefix ci/agents`.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimHub, type SimHub } from '../../../../../sim/start.js';
import { AcpChat, type AcpAgentSetting } from './acp-chat.js';
import type { Event, PromptImage, ToolPart } from '../../common/chat-protocol.js';
import { eventually } from '../../../../../conformance/setup.js';
import { FIXTURE_WORKSPACE } from '../../../../../conformance/target.js';
import { AGENT_BIN, claudeOfflineEnv, scriptedOpencodeHome } from '../../../../../conformance/agents/agents.js';
import { startAnthropicModel } from '../../../../../conformance/agents/anthropic-model.js';
import { startOpenaiModel } from '../../../../../conformance/agents/openai-model.js';
import { startGeminiModel } from '../../../../../conformance/agents/gemini-model.js';
import { startResponsesModel } from '../../../../../conformance/agents/responses-model.js';
import type { Script, ScriptedModel } from '../../../../../conformance/agents/script.js';

const temporary: string[] = [];
const closing: (() => unknown)[] = [];
let hub: SimHub;
let workspace: string;
const token = randomBytes(32).toString('hex');

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

beforeAll(async () => {
  workspace = await tempDir('openspace-acp-agents-');
  await cp(FIXTURE_WORKSPACE, workspace, { recursive: true });
  hub = await startSimHub({ workspace: { kind: 'disk', root: workspace }, consent: 'granted', token, lockFile: false });
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await hub?.close();
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Only what a process needs, none of this machine's keys or settings. */
function baseEnv(home: string): Record<string, string> {
  const keep = ['PATH', 'LANG', 'TMPDIR', 'CI'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])), HOME: home };
}

/** A prompt's turn, the person answering every permission card with `reply`; resolves with the chat's events when the turn ends. */
async function turn(agent: AcpAgentSetting, prompt: string, reply: 'once' | 'always', images: PromptImage[] = []) {
  const events: Event[] = [];
  const chat = new AcpChat({
    agent,
    directory: workspace,
    hub: () => ({ mcpUrl: hub.server.mcpUrl, token }),
    label: `chat-acp-${agent.name}`,
  });
  chat.addClient({
    onEvent: ({ event }) => {
      events.push(event);
      if (event.type === 'permission.asked') setTimeout(() => chat.replyPermission(event.properties.id, reply), 50);
    },
    onConnection: () => {},
  });
  closing.push(() => chat.dispose());
  const connected = await chat.connect();
  expect(connected, JSON.stringify(connected)).toMatchObject({ state: 'connected' });
  const session = await chat.createSession();
  await chat.prompt(session.id, prompt, undefined, images);
  await eventually(() => expect(events.some((e) => e.type === 'session.idle')).toBe(true), 90_000, 200);
  const answer = chat.conversation(session.id)[1]!;
  return { chat, session, events, answer, tools: answer.parts.filter((p): p is ToolPart => p.type === 'tool') };
}

const PROMPT = 'Open the entry point at line 7, then note what you saw.';
/** A 1×1 PNG, as a person pastes a screenshot into the prompt. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SCREENSHOT: PromptImage = { name: 'image.png', mime: 'image/png', dataUrl: `data:image/png;base64,${PNG}` };

describe('real agents over ACP, with OpenSpace as their MCP server', { timeout: 120_000 }, () => {
  it('Claude Code (claude-agent-acp) opens a file at a line and, after the permission card, writes a file; a fork of the session goes on from all of it', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/index.ts', line: 7 } },
      { tool: 'openspace.file.write', arguments: { path: 'notes/claude-acp.md', content: 'Seen by Claude over ACP' } },
    ];
    const script: Script = {
      steps,
      finalText: 'Done: opened and noted.',
      agentToolName: (t) => `mcp__openspace__${t.replaceAll('.', '_')}`,
    };
    const model: ScriptedModel = await startAnthropicModel(script);
    closing.push(() => model.close());
    const home = await tempDir('openspace-acp-claude-home-');
    const { chat, session, answer, tools, events } = await turn(
      {
        name: 'Claude',
        command: join(AGENT_BIN, 'claude-agent-acp'),
        env: {
          ...baseEnv(home),
          ...claudeOfflineEnv(model.url),
        },
      },
      PROMPT,
      'once',
      [SCREENSHOT],
    );
    expect(model.problems).toEqual([]);
    // The pasted image reached the model as an image block of the person's message.
    expect(JSON.stringify(model.requests)).toContain(
      `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PNG}"}}`,
    );
    expect(hub.ide.editors.list().find((e) => e.path === 'src/index.ts')?.cursor.line).toBe(7);
    expect(await readFile(join(workspace, 'notes/claude-acp.md'), 'utf8')).toBe('Seen by Claude over ACP');
    // Claude's tool calls name the MCP tools, so the panel's lines say what they did.
    expect(tools.map((t) => `${t.tool} ${t.state.status}`)).toEqual([
      'mcp__openspace__openspace_editor_open completed',
      'mcp__openspace__openspace_file_write completed',
    ]);
    expect(events.filter((e) => e.type === 'permission.asked').map((e) => (e.properties as { permission: string }).permission)).toContain(
      'mcp__openspace__openspace_file_write',
    );
    expect(
      answer.parts
        .filter((p) => p.type === 'text')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toContain('Done: opened and noted.');
    expect(JSON.stringify(model.requests), 'the access token reached the model').not.toContain(token);

    // A fork of the session (session/fork) goes on from the whole conversation: the model sees it.
    const fork = await chat.forkSession(session.id);
    expect(chat.conversation(fork.id).map((m) => m.info.role)).toEqual(['user', 'assistant']);
    await chat.prompt(fork.id, 'And in the fork?');
    await eventually(
      () => expect(events.filter((e) => e.type === 'session.idle' && e.properties.sessionID === fork.id)).not.toHaveLength(0),
      60_000,
      200,
    );
    const last = JSON.stringify(model.conversation().at(-1)?.body);
    expect(last).toContain('And in the fork?');
    expect(last).toContain(PROMPT);
    expect(last).toContain('Seen by Claude over ACP');
    expect(chat.conversation(fork.id).at(-1)!.info).toMatchObject({ role: 'assistant', finish: 'end_turn' });
    expect(model.problems).toEqual([]);
  });

  it('OpenCode (opencode acp) opens a file at a line and, after the permission card, writes a file', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/auth.ts', line: 5 } },
      { tool: 'openspace.file.write', arguments: { path: 'notes/opencode-acp.md', content: 'Seen by OpenCode over ACP' } },
    ];
    const script: Script = { steps, finalText: 'Done: opened and noted.', agentToolName: (t) => `openspace_${t.replaceAll('.', '_')}` };
    const model: ScriptedModel = await startOpenaiModel(script);
    closing.push(() => model.close());
    const home = await tempDir('openspace-acp-opencode-home-');
    // OpenCode asks only where its permission config says: here, for the write.
    const env = await scriptedOpencodeHome(home, model.url, { permission: { openspace_openspace_file_write: 'ask' } });
    const { answer, tools, events } = await turn(
      { name: 'OpenCode', command: join(AGENT_BIN, 'opencode'), args: ['acp'], env: { ...baseEnv(home), ...env } },
      PROMPT,
      'once',
    );
    expect(model.problems).toEqual([]);
    expect(hub.ide.editors.list().find((e) => e.path === 'src/auth.ts')?.cursor.line).toBe(5);
    expect(await readFile(join(workspace, 'notes/opencode-acp.md'), 'utf8')).toBe('Seen by OpenCode over ACP');
    expect(tools.map((t) => `${t.tool} ${t.state.status}`)).toEqual([
      'openspace_openspace_editor_open completed',
      'openspace_openspace_file_write completed',
    ]);
    expect(events.filter((e) => e.type === 'permission.asked')).toHaveLength(1);
    expect(
      answer.parts
        .filter((p) => p.type === 'text')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toContain('Done: opened and noted.');
    expect(JSON.stringify(model.requests), 'the access token reached the model').not.toContain(token);
  });

  it('Gemini CLI (gemini --acp) opens a file at a line and, after the permission card, writes a file', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/index.ts', line: 4 } },
      { tool: 'openspace.file.write', arguments: { path: 'notes/gemini-acp.md', content: 'Seen by Gemini CLI over ACP' } },
    ];
    // Gemini CLI names an MCP tool mcp_<server>_<tool>, keeping the dots.
    const script: Script = { steps, finalText: 'Done: opened and noted.', agentToolName: (t) => `mcp_openspace_${t}` };
    const model: ScriptedModel = await startGeminiModel(script);
    closing.push(() => model.close());
    const home = await tempDir('openspace-acp-gemini-home-');
    await mkdir(join(home, '.gemini'));
    // An API key (no sign-in, no keychain), one model (no router's extra call), nothing that reaches out or asks.
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      model: { name: 'gemini-2.5-flash', disableLoopDetection: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
      tools: { sandbox: false },
    };
    await writeFile(join(home, '.gemini/settings.json'), JSON.stringify(settings));
    const { answer, tools, events } = await turn(
      {
        name: 'Gemini CLI',
        command: join(AGENT_BIN, 'gemini'),
        args: ['--acp'],
        env: {
          ...baseEnv(home),
          GEMINI_API_KEY: 'scripted-model-key',
          GOOGLE_GEMINI_BASE_URL: model.url,
          // Else it starts a second node with a larger heap, which outlives a signal to the first.
          GEMINI_CLI_NO_RELAUNCH: 'true',
          GEMINI_SANDBOX: 'false',
        },
      },
      PROMPT,
      'once',
    );
    expect(model.problems).toEqual([]);
    expect(hub.ide.editors.list().find((e) => e.path === 'src/index.ts')?.cursor.line).toBe(4);
    expect(await readFile(join(workspace, 'notes/gemini-acp.md'), 'utf8')).toBe('Seen by Gemini CLI over ACP');
    // Its calls are titled "<tool> (openspace MCP Server)": the panel's lines and cards name the tool.
    expect(tools.map((t) => `${t.tool} ${t.state.status}`)).toEqual(['openspace.editor.open completed', 'openspace.file.write completed']);
    // Gemini CLI asks before every MCP tool.
    expect(events.filter((e) => e.type === 'permission.asked').map((e) => (e.properties as { permission: string }).permission)).toEqual([
      'openspace.editor.open',
      'openspace.file.write',
    ]);
    expect(
      answer.parts
        .filter((p) => p.type === 'text')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toContain('Done: opened and noted.');
    expect(JSON.stringify(model.requests), 'the access token reached the model').not.toContain(token);
  });

  it('Codex (codex-acp) opens a file at a line and, after the permission card, writes a file', async () => {
    const steps = [
      { tool: 'openspace.editor.open', arguments: { path: 'src/index.ts', line: 6 } },
      { tool: 'openspace.file.write', arguments: { path: 'notes/codex-acp.md', content: 'Seen by Codex over ACP' } },
    ];
    // Codex offers an MCP server's tools in a namespace (mcp__openspace holding openspace_editor_open).
    const script: Script = {
      steps,
      finalText: 'Done: opened and noted.',
      agentToolName: (t) => `mcp__openspace__${t.replaceAll('.', '_')}`,
    };
    const model: ScriptedModel = await startResponsesModel(script);
    closing.push(() => model.close());
    const home = await tempDir('openspace-acp-codex-home-');
    await mkdir(join(home, '.codex'));
    // A model provider of its own on the Responses API, the only one Codex speaks; the key from the environment.
    const config = [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${model.url}/v1"`,
      'env_key = "SCRIPTED_API_KEY"',
      'wire_api = "responses"',
    ];
    await writeFile(join(home, '.codex/config.toml'), config.join('\n'));
    const { answer, tools, events } = await turn(
      {
        name: 'Codex',
        command: join(AGENT_BIN, 'codex-acp'),
        env: { ...baseEnv(home), CODEX_HOME: join(home, '.codex'), SCRIPTED_API_KEY: 'scripted-model-key' },
      },
      PROMPT,
      'once',
    );
    expect(model.problems).toEqual([]);
    expect(hub.ide.editors.list().find((e) => e.path === 'src/index.ts')?.cursor.line).toBe(6);
    expect(await readFile(join(workspace, 'notes/codex-acp.md'), 'utf8')).toBe('Seen by Codex over ACP');
    // Its calls are titled "Tool: openspace/<tool>", their input {server, tool, arguments}: the lines name the tool.
    expect(tools.map((t) => `${t.tool} ${t.state.status}`)).toEqual(['openspace.editor.open completed', 'openspace.file.write completed']);
    expect(tools[0]!.state.input).toEqual({ path: 'src/index.ts', line: 6 });
    // Codex asks before the tools the server marks destructive (the write), and the card names the call's tool.
    expect(events.filter((e) => e.type === 'permission.asked').map((e) => (e.properties as { permission: string }).permission)).toEqual([
      'openspace.file.write',
    ]);
    expect(
      answer.parts
        .filter((p) => p.type === 'text')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toContain('Done: opened and noted.');
    expect(JSON.stringify(model.requests), 'the access token reached the model').not.toContain(token);
  });
});
