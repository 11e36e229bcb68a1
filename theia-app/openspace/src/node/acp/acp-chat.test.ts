/**
 * The chat's ACP client against a scripted ACP agent (ci/acp-scripted-agent.mjs) over real stdio,
 * whose sessions use a real hub (the simulated IDE) as their MCP server: what the agent streams
 * becomes the panel's messages and parts, its tool calls reach the IDE with the hub's token, a
 * permission card answers the agent, a turn can be stopped, and a crash or a missing agent is a
 * message the person reads.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent, type Agent } from '../../../../../conformance/client.js';
import { eventually } from '../../../../../conformance/setup.js';
import { startTarget, type Target } from '../../../../../conformance/target.js';
import type { Event, Part, ToolPart } from '../../common/chat-protocol.js';
import { AcpChat, type AcpAgentSetting } from './acp-chat.js';
import { SignInNeeded } from './acp-sign-in.js';

const SCRIPTED = fileURLToPath(new URL('../../../../../ci/acp-scripted-agent.mjs', import.meta.url));
const scripted = (env: Record<string, string> = {}): AcpAgentSetting => ({
  name: 'Scripted',
  command: process.execPath,
  args: [SCRIPTED],
  env,
});

let target: Target;
let person: Agent;
const chats: AcpChat[] = [];

beforeAll(async () => {
  target = await startTarget({ workspace: { kind: 'memory' } });
  person = await connectAgent(target, 'person');
});
afterAll(async () => {
  await person?.close();
  await target?.close();
});
afterEach(() => Promise.all(chats.splice(0).map((chat) => chat.dispose())));

function chatWith(agent: AcpAgentSetting, hub = () => ({ mcpUrl: target.mcpUrl, token: target.token }), directory = '/var/tmp') {
  const events: Event[] = [];
  const chat = new AcpChat({ agent, directory, hub, label: 'chat-acp-test' });
  chat.addClient({ onEvent: ({ event }) => events.push(event), onConnection: () => {} });
  chats.push(chat);
  const parts = (sessionID: string): Part[] => chat.conversation(sessionID).flatMap((m) => m.parts);
  const idle = (sessionID: string) =>
    eventually(
      () => expect(events.filter((e) => e.type === 'session.idle' && e.properties.sessionID === sessionID)).not.toHaveLength(0),
      10_000,
    );
  return { chat, events, parts, idle };
}

describe('an ACP agent in the chat', { timeout: 30_000 }, () => {
  it("streams its thoughts, words, plan and tool call into the panel's parts, and its call reaches the IDE through the hub", async () => {
    const { chat, events, parts, idle } = chatWith(scripted());
    expect(await chat.connect()).toMatchObject({ state: 'connected', version: '1.0.0' });
    const session = await chat.createSession();
    await chat.prompt(session.id, 'open src/index.ts:3');
    expect(chat.statuses()[session.id]).toEqual({ type: 'busy' });
    await idle(session.id);

    const [user, answer] = chat.conversation(session.id);
    expect(user!.info.role).toBe('user');
    expect(user!.parts).toEqual([expect.objectContaining({ type: 'text', text: 'open src/index.ts:3' })]);
    expect(answer!.info).toMatchObject({ role: 'assistant', finish: 'end_turn', time: { completed: expect.any(Number) } });
    expect(
      parts(session.id)
        .slice(1)
        .map((p) => p.type),
    ).toEqual(['reasoning', 'text', 'text', 'tool', 'text']);
    const [thought, plan, words, tool, done] = answer!.parts as [Part, Part, Part, ToolPart, Part];
    expect(thought).toMatchObject({ type: 'reasoning', text: 'The person wants a file open.' });
    expect(plan).toMatchObject({ type: 'text', text: '**Plan**\n\n- ✓ Open the file' });
    expect(words).toMatchObject({ type: 'text', text: 'Opening src/index.ts at line 3.' });
    expect(tool).toMatchObject({
      type: 'tool',
      tool: 'openspace.editor.open',
      state: {
        status: 'completed',
        title: 'openspace.editor.open',
        input: { path: 'src/index.ts', line: 3, filePath: '/var/tmp/src/index.ts' },
      },
    });
    expect(done).toMatchObject({ type: 'text', text: ' Done.' });
    // The agent's call went to the IDE with the token the session carried.
    const { panes } = await person.ok('openspace.pane.list');
    expect(JSON.stringify(panes)).toContain('src/index.ts');
    // The panel heard it all as it happened, and the session took the title the agent gave it.
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['session.created', 'message.updated', 'message.part.updated', 'session.status']),
    );
    expect((await chat.sessions())[0]!.title).toBe('Open src/index.ts');
    // Its usage, for the panel's header.
    expect((await chat.sessions())[0]!.metadata).toMatchObject({
      usage: { used: 1234, size: 200000, cost: { amount: 0.012, currency: 'USD' } },
    });
  });

  it('a permission card answers the agent: once lets the write through the hub, reject stops it', async () => {
    const { chat, events, idle } = chatWith(scripted());
    const session = await chat.createSession();
    await chat.prompt(session.id, 'write notes/acp.txt hello from ACP');
    await eventually(() => expect(chat.permissions()).toHaveLength(1), 10_000);
    const [asked] = chat.permissions();
    expect(asked).toMatchObject({
      sessionID: session.id,
      permission: 'openspace.file.write',
      patterns: ['Write notes/acp.txt'],
      always: ['Write notes/acp.txt'],
    });
    expect(events.some((e) => e.type === 'permission.asked')).toBe(true);
    expect(chat.replyPermission(asked!.id, 'once')).toBe(true);
    await idle(session.id);
    expect((await person.ok('openspace.file.read', { path: 'notes/acp.txt' })).content).toBe('hello from ACP');
    expect(chat.conversation(session.id)[1]!.parts.at(-1)).toMatchObject({ type: 'text', text: 'Wrote notes/acp.txt (yes).' });

    events.length = 0;
    await chat.prompt(session.id, 'write notes/acp.txt overwritten');
    await eventually(() => expect(chat.permissions()).toHaveLength(1), 10_000);
    chat.replyPermission(chat.permissions()[0]!.id, 'reject');
    await idle(session.id);
    expect((await person.ok('openspace.file.read', { path: 'notes/acp.txt' })).content).toBe('hello from ACP');
    expect(chat.conversation(session.id)[3]!.parts[0]).toMatchObject({
      type: 'tool',
      state: { status: 'error', error: 'The person said no.' },
    });
    expect(chat.replyPermission('per_nothing', 'once')).toBe(false);
  });

  it('stop cancels the turn (session/cancel): the answer ends as stopped, and a card waiting is withdrawn', async () => {
    const { chat, parts, idle } = chatWith(scripted());
    const session = await chat.createSession();
    await chat.prompt(session.id, 'wait');
    await eventually(() => expect(parts(session.id).at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('2 ') }), 10_000);
    await expect(chat.prompt(session.id, 'again')).rejects.toThrow('still answering');
    expect(await chat.abort(session.id)).toBe(true);
    await idle(session.id);
    expect(chat.conversation(session.id)[1]!.info).toMatchObject({ finish: 'cancelled', error: { name: 'MessageAbortedError' } });

    await chat.prompt(session.id, 'write notes/never.txt x');
    await eventually(() => expect(chat.permissions()).toHaveLength(1), 10_000);
    await chat.abort(session.id);
    await idle(session.id);
    expect(chat.permissions()).toEqual([]);
    await person.fails('openspace.file.read', { path: 'notes/never.txt' }, 'FILE_NOT_FOUND');
  });

  it('an agent that crashes mid-turn is a message, its turn ends with the error, and the next prompt starts it again', async () => {
    const { chat, idle } = chatWith(scripted());
    const session = await chat.createSession();
    await chat.prompt(session.id, 'crash');
    await idle(session.id);
    expect(chat.connection()).toMatchObject({ state: 'failed', message: expect.stringContaining('exited with code 3') });
    expect(chat.conversation(session.id)[1]!.info).toMatchObject({
      error: { data: { message: 'Scripted stopped: it exited with code 3' } },
    });
    expect(await chat.connect()).toMatchObject({ state: 'connected' });
  });

  it('closing the chat ends the agent and what it started, and returns once they have exited', async () => {
    const written = `/var/tmp/openspace-acp-child-${process.pid}`;
    rmSync(written, { force: true });
    const { chat } = chatWith(scripted({ SCRIPTED_AGENT_CHILD: written }));
    expect(await chat.connect()).toMatchObject({ state: 'connected' });
    await eventually(() => expect(readFileSync(written, 'utf8')).toBe('running'));
    await chat.dispose();
    // The helper wrote as it exited, 300 ms after SIGTERM; the close waited for it.
    expect(readFileSync(written, 'utf8')).toBe('settings');
    rmSync(written);
  });

  it("keeps what the agent's own edits changed, with each file as it was before, for the person's review", async () => {
    const dir = '/var/tmp/openspace-acp-changes';
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(`${dir}/src`, { recursive: true });
    writeFileSync(`${dir}/src/a.ts`, 'const red = 1;\nexport { red };\n');
    const { chat, parts } = chatWith(scripted(), undefined, dir);
    const session = await chat.createSession();
    const changesOf = async (prompt: string) => {
      const tools = parts(session.id).filter((p) => p.type === 'tool').length;
      await chat.prompt(session.id, prompt);
      if (prompt.startsWith('create')) {
        await eventually(() => expect(chat.permissions()).toHaveLength(1));
        chat.replyPermission(chat.permissions()[0]!.id, 'once');
      }
      await eventually(() => expect(parts(session.id).filter((p) => p.type === 'tool')).toHaveLength(tools + 1));
      const tool = () => parts(session.id).findLast((p): p is ToolPart => p.type === 'tool')!;
      await eventually(() => expect(tool().state).toMatchObject({ status: 'completed', metadata: { changes: expect.any(Array) } }));
      // The turn ends after the call (the agent still says what it did): the next prompt waits for that.
      await eventually(() => expect(chat.statuses()[session.id]).toEqual({ type: 'idle' }));
      return (tool().state as { metadata?: { changes?: unknown } }).metadata?.changes;
    };
    expect(await changesOf('edit src/a.ts red blue')).toEqual([{ path: 'src/a.ts', before: 'const red = 1;\nexport { red };\n' }]);
    expect(readFileSync(`${dir}/src/a.ts`, 'utf8')).toBe('const blue = 1;\nexport { blue };\n');
    expect(await changesOf('create notes/new.md hello')).toEqual([{ path: 'notes/new.md', before: null }]);
  });

  it('sends pasted images to an agent that takes them, and says so to one that does not', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const image = { name: 'screenshot.png', mime: 'image/png', dataUrl: `data:image/png;base64,${png.toString('base64')}` };
    const { chat, parts, idle } = chatWith(scripted());
    const session = await chat.createSession();
    await chat.prompt(session.id, 'what is wrong here?', undefined, [image]);
    await idle(session.id);
    const [user] = chat.conversation(session.id);
    expect(user!.parts.map((p) => p.type)).toEqual(['text', 'file']);
    expect(user!.parts[1]).toMatchObject({ type: 'file', filename: 'screenshot.png', mime: 'image/png' });
    expect(parts(session.id).at(-1)).toMatchObject({ text: expect.stringContaining('Images: image/png, 16 bytes.') });

    const blind = chatWith(scripted({ SCRIPTED_AGENT_NO_IMAGES: '1' }));
    const other = await blind.chat.createSession();
    await expect(blind.chat.prompt(other.id, 'look', undefined, [image])).rejects.toThrow('Scripted does not take images in a prompt');
    expect(blind.chat.conversation(other.id)).toEqual([]);
  });

  it("offers the agent's slash commands with the session, and links the files a prompt mentions", async () => {
    const { chat } = chatWith(scripted());
    const session = await chat.createSession();
    await eventually(async () =>
      expect((await chat.sessions()).find((s) => s.id === session.id)!.metadata).toMatchObject({
        commands: [
          { name: 'review', description: 'Review the changes in the workspace' },
          { name: 'explain', description: 'Explain a file', hint: 'the file to explain' },
        ],
      }),
    );
    mkdirSync('/var/tmp/openspace-acp-mention/src', { recursive: true });
    writeFileSync('/var/tmp/openspace-acp-mention/src/a.ts', 'export {};\n');
    const mentioning = chatWith(scripted(), undefined, '/var/tmp/openspace-acp-mention');
    const other = await mentioning.chat.createSession();
    await mentioning.chat.prompt(other.id, 'look at @src/a.ts#L10-20 and @src/a.ts, not @missing.ts or @../etc/passwd.');
    await mentioning.idle(other.id);
    expect(mentioning.parts(other.id).at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Linked: src/a.ts#L10-20 <file:///var/tmp/openspace-acp-mention/src/a.ts> (lines 10-20), src/a.ts <'),
    });
    expect(JSON.stringify(mentioning.parts(other.id))).not.toContain('missing.ts <');
    expect(JSON.stringify(mentioning.parts(other.id))).not.toContain('passwd <');
  });

  it('an agent that asks for a sign-in signs in its own way (authenticate), or says what the person must do', async () => {
    const { chat } = chatWith(scripted({ SCRIPTED_AGENT_AUTH: 'agent' }));
    expect(await chat.createSession()).toMatchObject({ id: 'scripted-1' });
    // A terminal sign-in: the command for the person to run (the panel runs it in a terminal); after it, sessions start.
    const loginFile = `/var/tmp/openspace-acp-login-${process.pid}`;
    rmSync(loginFile, { force: true });
    const terminal = chatWith(scripted({ SCRIPTED_AGENT_AUTH: 'terminal', SCRIPTED_AGENT_LOGIN_FILE: loginFile }));
    const refused = await terminal.chat.createSession().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignInNeeded);
    expect((refused as SignInNeeded).message).toBe(
      'Scripted needs you to sign in first (Log in in a terminal): run it in a terminal, then send again.',
    );
    const { command, args, env } = (refused as SignInNeeded).signIn;
    expect(execFileSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' })).toContain(
      'signed in as scripted@example.com',
    );
    expect(await terminal.chat.createSession()).toMatchObject({ id: 'scripted-1' });
    rmSync(loginFile);
  });

  it("offers the agent's modes once a session says them, and a prompt in another mode sets it first (session/set_mode)", async () => {
    const { chat, idle } = chatWith(scripted());
    expect(chat.agentModes()).toEqual([]);
    const session = await chat.createSession();
    expect(chat.agentModes()).toEqual([
      { name: 'ask', label: 'Ask first' },
      { name: 'plan', label: 'Plan only', description: 'Plans, changes nothing' },
    ]);
    expect(session.metadata).toEqual({ mode: 'ask' });
    await chat.prompt(session.id, 'mode?', 'plan');
    await idle(session.id);
    expect(chat.conversation(session.id)[1]!.parts.at(-1)).toMatchObject({ type: 'text', text: 'Mode: plan' });
    expect((await chat.sessions()).find((s) => s.id === session.id)!.metadata).toMatchObject({ mode: 'plan' });
  });

  it("lists the agent's sessions from before, and opening one loads its conversation (session/load), which goes on", async () => {
    const { chat, idle } = chatWith(scripted({ SCRIPTED_AGENT_HISTORY: '1' }));
    const listed = await chat.sessions();
    expect(listed).toEqual([expect.objectContaining({ id: 'old-1', title: 'Earlier: fix the parser', metadata: { stored: true } })]);
    expect(listed[0]!.time.updated).toBe(Date.parse('2026-11-28T10:00:00Z'));
    const conversation = await chat.messages('old-1');
    expect(conversation.map((m) => `${m.info.role}: ${m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join(' | ')}`)).toEqual([
      'user: Fix the parser',
      'assistant: Looking. | tool | Fixed.',
      'user: Thanks',
      'assistant: You are welcome.',
    ]);
    expect(conversation[1]!.parts[1]).toMatchObject({ type: 'tool', tool: 'openspace.file.read', state: { status: 'completed' } });
    expect((await chat.sessions()).find((s) => s.id === 'old-1')!.metadata).toEqual({});
    await chat.prompt('old-1', 'hello again');
    await idle('old-1');
    expect(chat.conversation('old-1')).toHaveLength(6);
  });

  it('forks a whole session (session/fork): the copy shows the conversation and goes on from it apart; a session is deleted (session/delete)', async () => {
    const { chat, events, idle } = chatWith(scripted());
    expect(await chat.connect()).toMatchObject({ can: { fork: 'session', deleteSession: true, revert: false, compact: false } });
    const session = await chat.createSession('Colors');
    await chat.prompt(session.id, 'pick red');
    await idle(session.id);
    await expect(chat.forkSession(session.id, chat.conversation(session.id)[0]!.info.id)).rejects.toThrow('forks a whole session only');

    const fork = await chat.forkSession(session.id);
    expect(fork).toMatchObject({ title: 'Colors (fork)' });
    expect(fork.id).not.toBe(session.id);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'session.created', properties: expect.objectContaining({ sessionID: fork.id }) }),
    );
    const copied = chat.conversation(fork.id);
    expect(copied.map((m) => m.info.role)).toEqual(['user', 'assistant']);
    expect(copied[0]!.parts[0]).toMatchObject({ type: 'text', text: 'pick red', sessionID: fork.id, messageID: copied[0]!.info.id });
    expect(copied[1]!.info).toMatchObject({ sessionID: fork.id, parentID: copied[0]!.info.id });
    expect(copied[0]!.info.id).not.toBe(chat.conversation(session.id)[0]!.info.id);
    // The agent carried the conversation into the fork; each goes on apart.
    await chat.prompt(fork.id, 'pick blue');
    await idle(fork.id);
    await chat.prompt(fork.id, 'said?');
    await eventually(() =>
      expect(chat.conversation(fork.id).at(-1)!.parts.at(-1)).toMatchObject({ text: 'Said before: pick red | pick blue' }),
    );
    await chat.prompt(session.id, 'said?');
    await eventually(() => expect(chat.conversation(session.id).at(-1)!.parts.at(-1)).toMatchObject({ text: 'Said before: pick red' }));

    expect(await chat.deleteSession(fork.id)).toBe(true);
    expect((await chat.sessions()).map((s) => s.id)).toEqual([session.id]);
    expect(events.at(-1)).toMatchObject({ type: 'session.deleted', properties: { sessionID: fork.id } });
  });

  it('an agent that resumes but does not replay takes up a session from before without its conversation, marked so (session/resume)', async () => {
    const { chat, idle } = chatWith(scripted({ SCRIPTED_AGENT_HISTORY: 'resume' }));
    expect((await chat.sessions()).map((s) => s.id)).toEqual(['old-1']);
    expect(await chat.messages('old-1')).toEqual([]);
    expect((await chat.sessions()).find((s) => s.id === 'old-1')!.metadata).toEqual({ resumed: true });
    await chat.prompt('old-1', 'said?');
    await idle('old-1');
    expect(chat.conversation('old-1').at(-1)!.parts.at(-1)).toMatchObject({ text: 'Said before: Fix the parser | Thanks' });
  });

  it('an agent that is not installed, or takes no MCP server over HTTP, says so', async () => {
    const missing = chatWith({ name: 'Gemini CLI', command: 'gemini-not-installed-here', args: ['--acp'] });
    expect(await missing.chat.connect()).toMatchObject({
      state: 'failed',
      message: expect.stringContaining('gemini-not-installed-here was not found: install Gemini CLI'),
    });
    const noMcp = chatWith(scripted({ SCRIPTED_AGENT_NO_MCP: '1' }));
    await expect(noMcp.chat.createSession()).rejects.toThrow("does not take MCP servers over HTTP, so it cannot use OpenSpace's tools");
    const failing = chatWith(scripted());
    const session = await failing.chat.createSession();
    await failing.chat.prompt(session.id, 'fail');
    await failing.idle(session.id);
    expect(failing.chat.conversation(session.id)[1]!.info).toMatchObject({
      error: { data: { message: expect.stringContaining('out of tokens') } },
    });
    expect(failing.events.some((e) => e.type === 'session.error')).toBe(true);
  });
});
