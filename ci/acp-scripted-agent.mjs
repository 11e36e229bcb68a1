#!/usr/bin/env node
/**
 * A scripted ACP agent for tests of OpenSpace's ACP client (theia-app/openspace/src/node/acp/): it
 * speaks the Agent Client Protocol on stdio with the official SDK, and uses the MCP server each
 * session is given (OpenSpace's hub, over real HTTP with the headers it was handed) as a real
 * agent would. What it does depends on the prompt:
 *
 *   open <path>:<line>   thinks, says so in two chunks, plans, calls openspace.editor.open, and tells its usage
 *   write <path> <text>  asks permission (allow once / always / reject), then calls openspace.file.write
 *   edit <path> <a> <b>  edits the file itself, as Claude's Edit tool does (no OpenSpace tool, no
 *                        permission asked): every <a> becomes <b>; the call carries the diff
 *   create <path> <text> creates the file itself, as Claude's Write tool does, after asking permission
 *   wait                 streams a chunk every 50 ms until the turn is cancelled
 *   fail                 answers the prompt with an error
 *   crash                exits with code 3 mid-turn
 *   anything else        says it does not know how, naming the files the prompt linked
 *
 *   mode?                says the session's mode
 *   said?                says what the person said before in this session (a fork's included)
 *
 * After session/new it offers two slash commands (available_commands_update); its sessions have two
 * modes, "ask" and "plan" (session/set_mode).
 *
 * SCRIPTED_AGENT_NO_MCP=1 makes it say it takes no MCP servers over HTTP, SCRIPTED_AGENT_NO_IMAGES=1 no
 * images in a prompt (it says what images it got, with what it does not know). SCRIPTED_AGENT_AUTH=agent makes
 * session/new need a sign-in first, which `authenticate` with its one method does; =terminal offers
 * only a sign-in the person runs in a terminal (`--login`, which writes SCRIPTED_AGENT_LOGIN_FILE; an
 * agent finds that file there, it is signed in). SCRIPTED_AGENT_HISTORY=1 makes it list one session from
 * before (session/list) and replay its conversation on session/load; =resume makes it take that
 * session up without replaying it (session/resume, no session/load). It forks (session/fork) and
 * deletes (session/delete) sessions. SCRIPTED_AGENT_CHILD=<file> makes it
 * start a helper process (as Claude Code's adapter starts its CLI) that writes "running" to <file>, and
 * sent SIGTERM, "settings" a moment later, and exits.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
// The unstable entry: session/fork and session/resume are unstable in ACP still.
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk/unstable';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

if (process.env.SCRIPTED_AGENT_CHILD) {
  const file = JSON.stringify(process.env.SCRIPTED_AGENT_CHILD);
  const helper = `const fs = require('node:fs');
    process.on('SIGTERM', () => setTimeout(() => { fs.writeFileSync(${file}, 'settings'); process.exit(0); }, 300));
    fs.writeFileSync(${file}, 'running');
    setInterval(() => {}, 1000);`;
  spawn(process.execPath, ['-e', helper], { stdio: 'ignore' });
}

const sessions = new Map();
let count = 0;
const auth = process.env.SCRIPTED_AGENT_AUTH;
const history = process.env.SCRIPTED_AGENT_HISTORY;
const OLD = 'old-1';
// `--login` is the terminal sign-in: it says so, leaves SCRIPTED_AGENT_LOGIN_FILE behind, and exits 0.
const loginFile = process.env.SCRIPTED_AGENT_LOGIN_FILE;
if (process.argv.includes('--login')) {
  process.stdout.write('Scripted sign-in: signed in as scripted@example.com.\n');
  if (loginFile) writeFileSync(loginFile, 'signed in');
  process.exit(0);
}
let signedIn = !auth;
const isSignedIn = () => signedIn || (auth === 'terminal' && !!loginFile && existsSync(loginFile));
const AUTH_METHODS = {
  agent: [{ id: 'scripted-login', name: 'Scripted login', description: 'Signs in with the scripted account' }],
  terminal: [
    {
      id: 'scripted-terminal',
      name: 'Log in in a terminal',
      description: 'Run scripted-agent --login',
      type: 'terminal',
      args: ['--login'],
    },
  ],
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function mcpFor(server) {
  const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
  const mcp = new Client({ name: 'scripted-acp-agent', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return mcp;
}

async function callTool(session, name, args) {
  session.mcp ??= await mcpFor(session.servers.find((s) => s.name === 'openspace'));
  const result = await session.mcp.callTool({ name, arguments: args });
  return { ok: !result.isError, text: result.content?.map((c) => c.text ?? '').join('\n') ?? '' };
}

const app = agent({ name: 'scripted' })
  .onRequest('initialize', () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: history === '1',
      promptCapabilities: { image: !process.env.SCRIPTED_AGENT_NO_IMAGES },
      mcpCapabilities: { http: !process.env.SCRIPTED_AGENT_NO_MCP },
      sessionCapabilities: { fork: {}, delete: {}, ...(history && { list: {} }), ...(history === 'resume' && { resume: {} }) },
    },
    agentInfo: { name: 'scripted-acp-agent', version: '1.0.0' },
    authMethods: AUTH_METHODS[auth] ?? [],
  }))
  .onRequest('authenticate', ({ params }) => {
    if (params.methodId !== 'scripted-login') throw RequestError.invalidParams(undefined, `unknown method ${params.methodId}`);
    signedIn = true;
    return {};
  })
  .onRequest('session/new', ({ params, client }) => {
    if (!isSignedIn()) throw RequestError.authRequired();
    const sessionId = `scripted-${++count}`;
    sessions.set(sessionId, { servers: params.mcpServers, cwd: params.cwd, cancelled: false, mode: 'ask', said: [] });
    setTimeout(() =>
      client.notify('session/update', {
        sessionId,
        update: {
          sessionUpdate: 'available_commands_update',
          availableCommands: [
            { name: 'review', description: 'Review the changes in the workspace' },
            { name: 'explain', description: 'Explain a file', input: { hint: 'the file to explain' } },
          ],
        },
      }),
    );
    return {
      sessionId,
      modes: {
        currentModeId: 'ask',
        availableModes: [
          { id: 'ask', name: 'Ask first' },
          { id: 'plan', name: 'Plan only', description: 'Plans, changes nothing' },
        ],
      },
    };
  })
  .onRequest('session/set_mode', ({ params }) => {
    sessions.get(params.sessionId).mode = params.modeId;
    return {};
  })
  .onRequest('session/list', ({ params }) => ({
    sessions: [{ sessionId: OLD, cwd: params.cwd ?? '/', title: 'Earlier: fix the parser', updatedAt: '2026-11-28T10:00:00Z' }],
  }))
  .onRequest('session/resume', ({ params }) => {
    if (params.sessionId !== OLD) throw RequestError.resourceNotFound(params.sessionId);
    sessions.set(OLD, { servers: params.mcpServers, cwd: params.cwd, cancelled: false, said: ['Fix the parser', 'Thanks'] });
    return {};
  })
  .onRequest('session/fork', ({ params }) => {
    const from = sessions.get(params.sessionId);
    if (!from) throw RequestError.resourceNotFound(params.sessionId);
    const sessionId = `scripted-${++count}`;
    sessions.set(sessionId, { ...from, servers: params.mcpServers, mcp: undefined, cancelled: false, said: [...from.said] });
    return { sessionId };
  })
  .onRequest('session/delete', ({ params }) => {
    sessions.delete(params.sessionId);
    return {};
  })
  .onRequest('session/load', async ({ params, client }) => {
    if (params.sessionId !== OLD) throw RequestError.resourceNotFound(params.sessionId);
    sessions.set(OLD, { servers: params.mcpServers, cwd: params.cwd, cancelled: false, said: ['Fix the parser', 'Thanks'] });
    const update = (u) => client.notify('session/update', { sessionId: OLD, update: u });
    const text = (t) => ({ type: 'text', text: t });
    await update({ sessionUpdate: 'user_message_chunk', content: text('Fix the parser') });
    await update({ sessionUpdate: 'agent_message_chunk', content: text('Looking.') });
    await update({
      sessionUpdate: 'tool_call',
      toolCallId: 'old-read',
      title: 'openspace.file.read',
      kind: 'read',
      status: 'completed',
      rawInput: { path: 'src/parser.ts' },
    });
    await update({ sessionUpdate: 'agent_message_chunk', content: text('Fixed.') });
    await update({ sessionUpdate: 'user_message_chunk', content: text('Thanks') });
    await update({ sessionUpdate: 'agent_message_chunk', content: text('You are welcome.') });
    return {};
  })
  .onNotification('session/cancel', ({ params }) => {
    const session = sessions.get(params.sessionId);
    if (session) session.cancelled = true;
  })
  .onRequest('session/prompt', async ({ params, client }) => {
    const session = sessions.get(params.sessionId);
    session.cancelled = false;
    const text = params.prompt
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join(' ')
      .trim();
    const earlier = session.said ?? [];
    session.said = [...earlier, text];
    const update = (u) => client.notify('session/update', { sessionId: params.sessionId, update: u });
    const say = (t) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });

    const open = /^open (\S+):(\d+)$/.exec(text);
    if (open) {
      await update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The person wants a file open.' } });
      await update({ sessionUpdate: 'plan', entries: [{ content: 'Open the file', priority: 'high', status: 'in_progress' }] });
      await say('Opening ');
      await say(`${open[1]} at line ${open[2]}.`);
      const input = { path: open[1], line: Number(open[2]) };
      await update({
        sessionUpdate: 'tool_call',
        toolCallId: 'open-1',
        title: 'openspace.editor.open',
        kind: 'read',
        status: 'pending',
        rawInput: input,
        locations: [{ path: `${session.cwd}/${open[1]}`, line: input.line }],
      });
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 'open-1', status: 'in_progress' });
      const result = await callTool(session, 'openspace.editor.open', input);
      await update({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'open-1',
        status: result.ok ? 'completed' : 'failed',
        content: [{ type: 'content', content: { type: 'text', text: result.text } }],
      });
      await update({ sessionUpdate: 'plan', entries: [{ content: 'Open the file', priority: 'high', status: 'completed' }] });
      await say(' Done.');
      await update({ sessionUpdate: 'session_info_update', title: `Open ${open[1]}` });
      await update({ sessionUpdate: 'usage_update', used: 1234, size: 200000, cost: { amount: 0.012, currency: 'USD' } });
      return { stopReason: 'end_turn' };
    }

    const write = /^write (\S+) (.+)$/.exec(text);
    if (write) {
      const input = { path: write[1], content: write[2] };
      await update({
        sessionUpdate: 'tool_call',
        toolCallId: 'write-1',
        title: `Write ${write[1]}`,
        name: 'openspace.file.write',
        kind: 'edit',
        status: 'pending',
        rawInput: input,
      });
      const { outcome } = await client.request('session/request_permission', {
        sessionId: params.sessionId,
        toolCall: { toolCallId: 'write-1', title: `Write ${write[1]}`, name: 'openspace.file.write', kind: 'edit', rawInput: input },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      if (outcome.outcome === 'cancelled') return { stopReason: 'cancelled' };
      if (outcome.optionId === 'no') {
        await update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 'write-1',
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: 'The person said no.' } }],
        });
        await say('I did not write it.');
        return { stopReason: 'end_turn' };
      }
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'in_progress' });
      const result = await callTool(session, 'openspace.file.write', input);
      await update({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'write-1',
        status: result.ok ? 'completed' : 'failed',
        content: [{ type: 'content', content: { type: 'text', text: result.text } }],
      });
      await say(`Wrote ${write[1]} (${outcome.optionId}).`);
      return { stopReason: 'end_turn' };
    }

    // The agent's own file tools, outside OpenSpace: the client learns of them only from the calls.
    const edit = /^edit (\S+) (\S+) (\S+)$/.exec(text) ?? /^create (\S+) (.+)$/.exec(text);
    if (edit) {
      const [, path, a, b] = edit;
      const file = join(session.cwd, path);
      const before = b === undefined ? null : readFileSync(file, 'utf8');
      const after = b === undefined ? a : before.replaceAll(a, b);
      const toolCallId = `edit-${++count}`;
      await update({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: `${before === null ? 'Write' : 'Edit'} ${path}`,
        kind: 'edit',
        status: 'in_progress',
        rawInput: before === null ? { file_path: file, content: a } : { file_path: file, old_string: a, new_string: b, replace_all: true },
        locations: [{ path: file }],
        content: [{ type: 'diff', path: file, oldText: before, newText: after }],
      });
      if (before === null) {
        // As Claude's Write does in its default mode, a new file waits for the person's permission.
        const { outcome } = await client.request('session/request_permission', {
          sessionId: params.sessionId,
          toolCall: { toolCallId, title: `Write ${path}`, kind: 'edit' },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        if (outcome.outcome === 'cancelled' || outcome.optionId === 'no') {
          await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
          return { stopReason: outcome.outcome === 'cancelled' ? 'cancelled' : 'end_turn' };
        }
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, after);
      await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
      await say(`${before === null ? 'Created' : 'Edited'} ${path}.`);
      return { stopReason: 'end_turn' };
    }

    if (text === 'wait') {
      for (let i = 0; !session.cancelled && i < 400; i++) {
        await say(`${i} `);
        await sleep(50);
      }
      return { stopReason: session.cancelled ? 'cancelled' : 'end_turn' };
    }
    if (text === 'said?') {
      await say(`Said before: ${earlier.join(' | ') || 'nothing'}`);
      return { stopReason: 'end_turn' };
    }
    if (text === 'mode?') {
      await say(`Mode: ${session.mode}`);
      return { stopReason: 'end_turn' };
    }
    if (text === 'fail') throw new Error('The scripted model is out of tokens.');
    if (text === 'crash') {
      await say('About to crash.');
      setTimeout(() => process.exit(3), 20);
      await sleep(5000);
    }
    const links = params.prompt
      .filter((b) => b.type === 'resource_link')
      .map((b) => `${b.name} <${b.uri}>${b.description ? ` (${b.description})` : ''}`);
    const images = params.prompt
      .filter((b) => b.type === 'image')
      .map((b) => `${b.mimeType}, ${Buffer.from(b.data, 'base64').length} bytes`);
    await say(
      `I do not know how to "${text}".${links.length ? ` Linked: ${links.join(', ')}.` : ''}${images.length ? ` Images: ${images.join('; ')}.` : ''}`,
    );
    return { stopReason: 'end_turn' };
  });

const stream = ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const connection = app.connect(stream);
await connection.closed;
process.exit(0);
