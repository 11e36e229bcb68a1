// @vitest-environment jsdom
import * as React from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import type {
  AssistantMessage,
  ChatAbilities,
  ChatConnection,
  MessageEntry,
  Part,
  PermissionRequest,
  Session,
  ToolPart,
} from '../../common/chat-protocol.js';
import { ChatView, type ChatActions, type ChatViewProps } from './chat-view.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SESSION = 'ses_1';
const connected: ChatConnection = { state: 'connected', url: 'http://127.0.0.1:4096', started: true };

function session(id: string, title: string, extra: Partial<Session> = {}): Session {
  return {
    id,
    slug: id,
    projectID: 'prj',
    directory: '/w',
    title,
    version: '1.18.33',
    time: { created: 1, updated: Date.now() - 5 * 60_000 },
    ...extra,
  };
}

function user(id: string, text: string): MessageEntry {
  return {
    info: { id, sessionID: SESSION, role: 'user', time: { created: 1 }, agent: 'build', model: { providerID: 'scripted', modelID: 'm' } },
    parts: [{ id: `${id}_p`, sessionID: SESSION, messageID: id, type: 'text', text }],
  };
}

let partCount = 0;
function assistant(
  id: string,
  parts: Array<Omit<Part, 'id' | 'sessionID' | 'messageID'>>,
  extra: Partial<AssistantMessage> = {},
): MessageEntry {
  const info: AssistantMessage = {
    id,
    sessionID: SESSION,
    role: 'assistant',
    time: { created: 2 },
    parentID: 'msg_0',
    modelID: 'm',
    providerID: 'scripted',
    mode: 'build',
    agent: 'build',
    path: { cwd: '/w', root: '/w' },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    ...extra,
  };
  return { info, parts: parts.map((p) => ({ ...p, id: `prt_${++partCount}`, sessionID: SESSION, messageID: id }) as Part) };
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const tokens = { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } };
const stepStart = { type: 'step-start' as const };
const stepFinish = { type: 'step-finish' as const, reason: 'stop', cost: 0, tokens };
const time = { start: 1, end: 2 };
function tool(
  name: string,
  input: Record<string, unknown>,
  state: 'running' | 'completed' | 'error',
  error = '',
): Omit<ToolPart, 'id' | 'sessionID' | 'messageID'> {
  const states = {
    running: { status: 'running' as const, input, time },
    completed: { status: 'completed' as const, input, output: '{"success":true}', title: '', metadata: {}, time },
    error: { status: 'error' as const, input, error, time },
  };
  return { type: 'tool', tool: name, callID: 'call_1', state: states[state] };
}

type FakeActions = { [K in keyof ChatActions]: Mock<ChatActions[K]> };

function fakeActions(): FakeActions {
  const names: Array<keyof ChatActions> = [
    'retry',
    'newSession',
    'selectSession',
    'deleteSession',
    'fork',
    'revert',
    'unrevert',
    'abort',
    'compact',
    'send',
    'selectModel',
    'selectAgent',
    'selectChatAgent',
    'reply',
    'answer',
    'dismiss',
    'openFile',
    'reviewChanges',
    'openCode',
    'copy',
  ];
  return Object.fromEntries(names.map((n) => [n, vi.fn()])) as unknown as FakeActions;
}

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = host = undefined;
});

/** The panel rendered with `props` over a connected, idle session; `rerender` changes props as the widget would. */
function render(props: Partial<ChatViewProps> = {}) {
  const actions = fakeActions();
  host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
  let current: ChatViewProps = {
    connection: connected,
    sessions: [session(SESSION, 'Fix the login')],
    activeSession: session(SESSION, 'Fix the login'),
    messages: [],
    busy: false,
    permissions: [],
    models: [],
    showSessions: false,
    actions,
    ...props,
  };
  act(() => root!.render(<ChatView {...current} />));
  const panel = host;
  return {
    actions,
    panel,
    rerender(more: Partial<ChatViewProps>) {
      current = { ...current, ...more };
      act(() => root!.render(<ChatView {...current} />));
    },
  };
}

const all = (selector: string) => [...host!.querySelectorAll<HTMLElement>(selector)];
const one = (selector: string) => {
  const found = host!.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`nothing matches ${selector} in ${host!.innerHTML}`);
  return found;
};
/** A button by its accessible name: its text, or its title when it has none. */
const button = (name: string) => {
  const found = all('button').filter((b) => (b.textContent?.trim() || b.getAttribute('aria-label') || b.title) === name);
  if (found.length !== 1) throw new Error(`${found.length} buttons named "${name}"`);
  return found[0] as HTMLButtonElement;
};
const hasButton = (name: string) => all('button').some((b) => b.textContent?.trim() === name);
const click = (element: Element) => act(() => void element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })));

function type(value: string) {
  const area = one('textarea') as HTMLTextAreaElement;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    setValue.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
  return area;
}
const press = (element: Element, key: string, shiftKey = false) =>
  act(() => void element.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true })));

describe("OpenCode's answer in the timeline", () => {
  it('renders a streamed text part as markdown as it grows', () => {
    const { rerender } = render({ messages: [user('msg_1', 'open a.ts'), assistant('msg_2', [stepStart, text('Opened **a.t')])] });
    expect(one('.os-chat-user .os-chat-bubble').textContent).toBe('open a.ts');
    expect(one('.os-chat-assistant .os-chat-text').textContent).toBe('Opened **a.t\n');
    rerender({ messages: [user('msg_1', 'open a.ts'), assistant('msg_2', [stepStart, text('Opened **a.ts** at line 2.'), stepFinish])] });
    expect(one('.os-chat-assistant .os-chat-text').innerHTML).toBe('<p>Opened <strong>a.ts</strong> at line 2.</p>\n');
    expect(one('.os-chat-assistant').textContent).toBe('Opened a.ts at line 2.\n');
  });

  it('opens a file reference at its line, and hands a code block to Copy and Open', () => {
    const answer = 'The check is in `src/auth.ts:42`:\n\n```ts\nif (!token) throw new Error();\n```\n\nand:\n\n```sh\nnpm test\n```';
    const { actions } = render({ messages: [assistant('msg_2', [text(answer)])] });
    click(one('a.os-file-ref code'));
    expect(actions.openFile).toHaveBeenCalledWith('src/auth.ts', 42);
    const [first, second] = all('.os-chat-code');
    click(first!.querySelector('button[data-action=copy]')!);
    expect(actions.copy).toHaveBeenCalledWith('if (!token) throw new Error();\n');
    click(second!.querySelector('button[data-action=open]')!);
    expect(actions.openCode).toHaveBeenCalledWith('npm test\n', 'sh');
    expect(first!.querySelector('.os-chat-code-lang')!.textContent).toBe('ts');
  });

  it('shows a finished hub call as a line whose path opens the file', () => {
    const { actions } = render({
      messages: [
        assistant('msg_2', [stepStart, tool('openspace_openspace_editor_open', { path: 'a.ts', line: 2 }, 'completed'), stepFinish]),
      ],
    });
    const line = one('.os-chat-tool');
    expect(line.textContent).toBe('✓opened a.ts:2');
    expect(line.dataset.status).toBe('completed');
    click(one('.os-chat-tool a.os-file-ref'));
    expect(actions.openFile).toHaveBeenCalledWith('a.ts', 2);
    expect(one('.os-chat-tool a.os-file-ref').textContent).toBe('a.ts:2');
  });

  it('shows a running call as running, and a failed one with its error', () => {
    const { rerender } = render({
      messages: [assistant('msg_2', [tool('openspace_openspace_editor_open', { path: 'a.ts', line: 2 }, 'running')])],
    });
    expect(one('.os-chat-tool').dataset.status).toBe('running');
    expect(one('.os-chat-tool .os-chat-spinner').getAttribute('aria-label')).toBe('running');
    expect(one('.os-chat-tool-text').textContent).toBe('opening a.ts:2…');
    rerender({ messages: [assistant('msg_2', [tool('bash', { command: 'npm test' }, 'error', 'Command exited with code 1')])] });
    expect(one('.os-chat-tool').classList).toContain('os-chat-tool-error');
    expect(one('.os-chat-tool').textContent).toBe("✗couldn't run npm testCommand exited with code 1");
    expect(one('.os-chat-tool-reason').textContent).toBe('Command exited with code 1');
  });

  it('folds reasoning away, leaves out the step markers, and shows an error in the answer', () => {
    const steps = [stepStart, { type: 'reasoning' as const, text: 'Let me look.', time }, text('Done.'), stepFinish];
    render({
      messages: [assistant('msg_2', steps, { error: { name: 'APIError', data: { message: 'Rate limited', isRetryable: true } } })],
    });
    expect(one('details.os-chat-reasoning').hasAttribute('open')).toBe(false);
    expect(one('details.os-chat-reasoning').textContent).toBe('ThoughtLet me look.');
    expect(one('.os-chat-assistant .os-chat-error').textContent).toBe('Rate limited');
    expect(one('.os-chat-assistant').children).toHaveLength(3);
  });
});

describe('the permission card', () => {
  const request: PermissionRequest = {
    id: 'per_1',
    sessionID: SESSION,
    permission: 'openspace_openspace_file_write',
    patterns: ['notes.md'],
    metadata: { filePath: 'notes.md' },
    always: ['notes.md'],
    tool: { messageID: 'msg_2', callID: 'call_1' },
  };

  it('says what is asked, and each button replies with its answer', () => {
    const writing = tool('openspace_openspace_file_write', { path: 'notes.md', content: '# Notes' }, 'running');
    const { actions } = render({ permissions: [request], messages: [assistant('msg_2', [writing])] });
    const card = one('.os-chat-permission');
    expect(card.querySelector('.os-chat-permission-title')!.textContent).toBe('OpenCode asks to use openspace.file.write');
    expect(card.querySelector('.os-chat-permission-action')!.textContent).toBe('to write notes.md');
    expect(card.querySelector('.os-chat-permission-detail')!.textContent).toBe('filePath notes.md');
    expect(card.querySelector('.os-chat-permission-patterns')!.textContent).toBe('notes.md');
    click(button('Allow once'));
    click(button('Always allow'));
    click(button('Reject'));
    expect(actions.reply.mock.calls).toEqual([
      ['per_1', 'once'],
      ['per_1', 'always'],
      ['per_1', 'reject'],
    ]);
  });

  it("reads OpenCode's own permissions in words, with the command asked for", () => {
    render({
      permissions: [{ ...request, permission: 'bash', patterns: ['rm -rf build'], metadata: { command: 'rm -rf build' }, tool: undefined }],
    });
    expect(one('.os-chat-permission-title').textContent).toBe('OpenCode asks to run a command');
    expect(one('.os-chat-permission-detail').textContent).toBe('command rm -rf build');
  });
});

describe('the input', () => {
  it('sends on Enter and clears; Shift+Enter and empty text do not send', () => {
    const { actions } = render();
    const area = type('   ');
    press(area, 'Enter');
    expect(actions.send).not.toHaveBeenCalled();
    type('explain a.ts');
    press(area, 'Enter', true);
    expect(actions.send).not.toHaveBeenCalled();
    expect(area.value).toBe('explain a.ts');
    press(area, 'Enter');
    expect(actions.send).toHaveBeenCalledWith('explain a.ts', []);
    expect(area.value).toBe('');
    expect(area.placeholder).toBe('Ask OpenCode… (Enter to send, Shift+Enter for a new line)');
  });

  it('takes images pasted into it as chips, sent with the words; one too large is said, not attached', async () => {
    const { actions } = render();
    const area = one('textarea');
    const paste = (files: File[]) =>
      act(() => {
        const event = new Event('paste', { bubbles: true, cancelable: true });
        const items = files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file }));
        Object.defineProperty(event, 'clipboardData', { value: { items, getData: () => '' } });
        area.dispatchEvent(event);
      });
    paste([new File([new Uint8Array([1, 2, 3])], 'image.png', { type: 'image/png' })]);
    await vi.waitFor(() => expect(all('.os-chat-images li')).toHaveLength(1));
    expect(one('.os-chat-images li').textContent).toBe('image.png×');
    paste([new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' })]);
    expect(one('.os-chat-notice').textContent).toBe('Not attached, larger than 5 MB: huge.png');
    type('what is wrong here?');
    click(button('Send'));
    expect(actions.send).toHaveBeenCalledWith('what is wrong here?', [
      { name: 'image.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AQID' },
    ]);
    expect(all('.os-chat-images li')).toHaveLength(0);
  });

  it('sends with the Send button, which waits for text', () => {
    const { actions } = render();
    expect(button('Send').disabled).toBe(true);
    type('hello');
    click(button('Send'));
    expect(actions.send).toHaveBeenCalledWith('hello', []);
  });

  it('offers Stop and says it is working only while busy', () => {
    const { actions, rerender } = render();
    expect(hasButton('Stop')).toBe(false);
    expect(all('.os-chat-working')).toHaveLength(0);
    rerender({ busy: true });
    expect(one('.os-chat-working').textContent).toContain('Working…');
    click(button('Stop'));
    expect(actions.abort).toHaveBeenCalledOnce();
  });

  it('picks a model by provider and model, a model ID with a slash included', () => {
    const models = [
      { providerID: 'scripted', modelID: 'm', name: 'Scripted', providerName: 'Test' },
      { providerID: 'openrouter', modelID: 'anthropic/claude-sonnet', name: 'Claude Sonnet', providerName: 'OpenRouter' },
    ];
    const { actions } = render({ models, model: { providerID: 'scripted', modelID: 'm' } });
    const select = one('select.os-chat-model') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Test · Scripted', 'OpenRouter · Claude Sonnet']);
    expect(select.value).toBe('scripted/m');
    act(() => {
      select.value = 'openrouter/anthropic/claude-sonnet';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(actions.selectModel).toHaveBeenCalledWith({ providerID: 'openrouter', modelID: 'anthropic/claude-sonnet' });
  });

  it("picks one of OpenCode's agents when it has more than one", () => {
    const agents = [{ name: 'build' }, { name: 'plan', description: 'Reads and plans, changes nothing' }];
    const { actions, rerender } = render({ agents, agent: undefined });
    const select = one('select.os-chat-agent') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Default agent', 'build', 'plan']);
    act(() => {
      select.value = 'plan';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(actions.selectAgent).toHaveBeenCalledWith('plan');
    rerender({ agents: [{ name: 'build' }], agent: 'build' });
    expect(document.querySelector('select.os-chat-agent')).toBeNull();
  });
});

describe('the agent the panel talks to', () => {
  const chatAgents = [
    { name: 'OpenCode', detail: 'opencode serve', protocol: 'opencode' as const },
    { name: 'Claude', detail: 'claude-agent-acp', protocol: 'acp' as const },
  ];

  it('picks another agent from the header, and from the failure of one that could not start', () => {
    const { actions, rerender } = render({ chatAgents, chatAgent: 'OpenCode' });
    const select = one('select.os-chat-with') as HTMLSelectElement;
    expect([...select.options].map((o) => `${o.textContent} (${o.title})`)).toEqual([
      'OpenCode (opencode serve)',
      'Claude (claude-agent-acp)',
    ]);
    act(() => {
      select.value = 'Claude';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(actions.selectChatAgent).toHaveBeenCalledWith('Claude');
    rerender({ chatAgent: 'Claude', connection: { state: 'failed', message: 'claude-agent-acp was not found: install Claude' } });
    expect((one('select.os-chat-with') as HTMLSelectElement).value).toBe('Claude');
    expect(host!.textContent).toContain('claude-agent-acp was not found');
    rerender({ chatAgents: chatAgents.slice(0, 1), chatAgent: 'OpenCode', connection: connected });
    expect(document.querySelector('select.os-chat-with')).toBeNull();
  });

  it('names the agent it talks to, and offers only what it can do: fork a whole session (ACP) or from a message, revert, compact, delete', () => {
    const acp = (can: Partial<ChatAbilities>): ChatConnection => ({
      ...connected,
      can: { revert: false, compact: false, fork: false, deleteSession: false, ...can },
    });
    const messages = [user('msg_1', 'Fix it')];
    const { rerender } = render({
      chatAgents,
      chatAgent: 'Claude',
      activeSession: undefined,
      connection: acp({}),
      messages,
      showSessions: true,
    });
    expect(one('.os-chat-title').textContent).toBe('Claude');
    expect((one('textarea') as HTMLTextAreaElement).placeholder).toBe('Ask Claude… (Enter to send, Shift+Enter for a new line)');
    const offered = () => ['Fork', 'Compact', 'Revert to here', 'Fork from here', '×'].filter(hasButton);
    expect(offered()).toEqual([]);
    expect(all('.os-chat-message-actions')).toHaveLength(0);
    expect(all('select.os-chat-model, select.os-chat-agent')).toHaveLength(0);
    expect(hasButton('New session')).toBe(true);
    rerender({ connection: acp({ fork: 'session', deleteSession: true }), activeSession: session(SESSION, 'Fix it') });
    expect(offered()).toEqual(['Fork', '×']);
    // An ACP agent forks once its turn has ended.
    rerender({ busy: true });
    expect(button('Fork').disabled).toBe(true);
    rerender({ busy: false });
    expect(button('Fork').disabled).toBe(false);
    rerender({
      permissions: [
        { id: 'per_1', sessionID: SESSION, permission: 'mcp__openspace__openspace_file_write', patterns: [], metadata: {}, always: [] },
      ],
    });
    expect(one('.os-chat-permission-title').textContent).toBe('Claude asks to use openspace.file.write');
    rerender({ chatAgent: 'OpenCode', permissions: [], connection: connected });
    expect(offered()).toEqual(['Fork', 'Compact', 'Revert to here', 'Fork from here', '×']);
    rerender({ connection: { state: 'starting' }, chatAgent: 'Claude' });
    expect(one('[role=status]').textContent).toBe(' Starting Claude…');
    expect(all('select.os-chat-with')).toHaveLength(1);
  });

  it('says that a session taken up from before goes on without showing its conversation again', () => {
    render({ chatAgent: 'Codex', activeSession: session(SESSION, 'Earlier', { metadata: { resumed: true } }), messages: [] });
    expect(one('.os-chat-empty').textContent).toBe(
      'Codex goes on with this session from before; it keeps the conversation so far but does not show it again.',
    );
  });
});

describe('what a turn did, at a glance', () => {
  it("folds a finished turn's files and commands into one line; each file opens; nothing while it runs", () => {
    const parts = [
      tool('openspace_openspace_editor_open', { path: 'src/a.ts', line: 3 }, 'completed'),
      tool('openspace_openspace_file_write', { path: 'notes/n.md', content: 'x' }, 'completed'),
      tool('bash', { command: 'npm test' }, 'completed'),
    ];
    const { actions, rerender } = render({ messages: [user('msg_1', 'go'), assistant('msg_2', parts)] });
    expect(all('.os-chat-turn-summary')).toHaveLength(0);
    rerender({ messages: [user('msg_1', 'go'), assistant('msg_2', parts, { time: { created: 2, completed: 3 } })] });
    expect(one('.os-chat-turn-summary summary').textContent).toBe('This turn changed 1 file, read 1 file, ran 1 command');
    expect(all('.os-chat-turn-summary li').map((li) => li.textContent)).toEqual(['Changed notes/n.md', 'Read src/a.ts', 'Ran npm test']);
    click(one('.os-chat-turn-summary a.os-file-ref[data-path="src/a.ts"]'));
    expect(actions.openFile).toHaveBeenCalledWith('src/a.ts', 3);
    expect(all('button.os-chat-review')).toHaveLength(0);
  });

  it("offers to review an ACP agent's own edits, each file as it was before the turn", () => {
    const edit = tool('edit', { file_path: '/w/src/a.ts' }, 'completed');
    const changes = [{ path: 'src/a.ts', before: 'let red = 1;\n' }];
    const created = tool('edit', { file_path: '/w/notes/new.md' }, 'completed');
    const later = [
      { path: 'src/a.ts', before: 'let blue = 1;\n' },
      { path: 'notes/new.md', before: null },
    ];
    const parts = [
      { ...edit, state: { ...edit.state, metadata: { changes } } },
      { ...created, callID: 'call_2', state: { ...created.state, metadata: { changes: later } } },
    ] as (typeof edit)[];
    const { actions } = render({ messages: [user('msg_1', 'go'), assistant('msg_2', parts, { time: { created: 2, completed: 3 } })] });
    expect(one('.os-chat-turn-summary summary').textContent).toBe('This turn changed 2 filesReview changes');
    click(one('button.os-chat-review'));
    expect(actions.reviewChanges).toHaveBeenCalledWith([changes[0], later[1]]);
  });
});

describe("an ACP agent's input", () => {
  const commands = [
    { name: 'review', description: 'Review the changes' },
    { name: 'explain', description: 'Explain a file', hint: 'the file to explain' },
  ];
  it('offers the slash commands matching what is typed; a click or Tab puts one in the draft', () => {
    render({ activeSession: session(SESSION, 'Fix', { metadata: { commands } }) });
    type('/');
    expect(all('.os-chat-commands li').map((li) => li.textContent)).toEqual([
      '/review Review the changes',
      '/explain Explain a file (the file to explain)',
    ]);
    const area = type('/ex');
    expect(all('.os-chat-commands li')).toHaveLength(1);
    press(area, 'Tab');
    expect(area.value).toBe('/explain ');
    expect(all('.os-chat-commands')).toHaveLength(0);
    type('/');
    click(all('.os-chat-commands button')[0]!);
    expect((one('textarea') as HTMLTextAreaElement).value).toBe('/review ');
  });

  it('adds an inserted mention at the end of the draft', () => {
    const { rerender } = render();
    type('look at');
    rerender({ insertion: { text: '@src/a.ts#L3-9 ' } });
    expect((one('textarea') as HTMLTextAreaElement).value).toBe('look at @src/a.ts#L3-9 ');
    rerender({ insertion: { text: '@src/b.ts ' } });
    expect((one('textarea') as HTMLTextAreaElement).value).toBe('look at @src/a.ts#L3-9 @src/b.ts ');
  });
});

describe('the connection to OpenCode', () => {
  it('shows why it failed, and Retry tries again', () => {
    const { actions } = render({ connection: { state: 'failed', message: 'opencode was not found on PATH' } });
    expect(host!.textContent).toContain('opencode was not found on PATH');
    expect(all('.os-chat-input')).toHaveLength(0);
    click(button('Retry'));
    expect(actions.retry).toHaveBeenCalledOnce();
  });

  it('says it is starting, offers to start it when stopped, and keeps the conversation while reconnecting', () => {
    const { actions, rerender } = render({ connection: { state: 'starting' }, messages: [user('msg_1', 'hi')] });
    expect(host!.textContent).toBe(' Starting OpenCode…');
    rerender({ connection: { state: 'stopped' } });
    click(button('Start OpenCode'));
    expect(actions.retry).toHaveBeenCalledOnce();
    rerender({ connection: { state: 'reconnecting', url: 'http://127.0.0.1:4096', message: 'Lost OpenCode; reconnecting…' } });
    expect(one('.os-chat-reconnecting').textContent).toBe('Lost OpenCode; reconnecting…');
    expect(one('.os-chat-user').textContent).toContain('hi');
  });

  it("shows a session's error as a notice", () => {
    render({ error: 'Provider refused the key' });
    expect(one('.os-chat-notice.os-chat-error').textContent).toBe('Provider refused the key');
  });
});

describe('sessions', () => {
  const messages = [user('msg_1', 'first'), assistant('msg_2', [text('one')]), user('msg_3', 'second'), assistant('msg_4', [text('two')])];

  it('marks the reverted messages, counts them, and Restore brings them back', () => {
    const { actions } = render({ messages, activeSession: session(SESSION, 'Fix', { revert: { messageID: 'msg_3' } }) });
    const reverted = all('.os-chat-message').map((m) => m.classList.contains('os-chat-reverted'));
    expect(reverted).toEqual([false, false, true, true]);
    expect(one('.os-chat-banner').textContent).toBe('1 message revertedRestore');
    expect(one('.os-chat-banner').nextElementSibling!.getAttribute('data-message-id')).toBe('msg_3');
    click(button('Restore'));
    expect(actions.unrevert).toHaveBeenCalledOnce();
  });

  it('reverts or forks from a message of the person', () => {
    const { actions } = render({ messages });
    click(all('.os-chat-user')[1]!.querySelector('button')!);
    expect(actions.revert).toHaveBeenCalledWith('msg_3');
    click([...all('.os-chat-user')[0]!.querySelectorAll('button')].find((b) => b.textContent === 'Fork from here')!);
    expect(actions.fork).toHaveBeenCalledWith('msg_1');
    expect(all('.os-chat-banner')).toHaveLength(0);
  });

  it("sums the tokens of OpenCode's answers in the header", () => {
    const used = (input: number, output: number, cost = 0) => ({
      cost,
      tokens: { input, output, reasoning: 0, cache: { read: 0, write: 0 } },
    });
    const { rerender } = render({
      messages: [user('msg_1', 'a'), assistant('msg_2', [], used(1000, 200)), assistant('msg_3', [], used(234, 140))],
    });
    expect(one('.os-chat-tokens').textContent).toBe('1.2k in · 340 out');
    rerender({ messages: [assistant('msg_2', [], used(1000, 200, 0.0123))] });
    expect(one('.os-chat-tokens').textContent).toBe('1k in · 200 out · $0.012');
    rerender({ messages: [] });
    expect(all('.os-chat-tokens')).toHaveLength(0);
  });

  it("shows how full an ACP agent's context is, and its cost", () => {
    const usage = { used: 12_345, size: 200_000, cost: { amount: 0.0123, currency: 'USD' } };
    render({ chatAgent: 'Claude', activeSession: session(SESSION, 'Fix', { metadata: { usage } }) });
    expect(one('.os-chat-tokens').textContent).toBe('12.3k of 200k context · $0.012');
  });

  it('lists the sessions to choose or delete, and starts, forks and compacts from the toolbar', () => {
    const sessions = [session(SESSION, 'Fix the login'), session('ses_2', 'Write the README')];
    const { actions } = render({ sessions, showSessions: true, messages });
    const rows = all('.os-chat-session');
    expect(rows.map((r) => r.querySelector('.os-chat-session-title')!.textContent)).toEqual(['Fix the login', 'Write the README']);
    expect(rows[0]!.querySelector('.os-chat-session-time')!.textContent).toBe('5 min ago');
    expect(rows[0]!.classList).toContain('os-chat-session-active');
    click(rows[1]!.querySelector('.os-chat-session-open')!);
    expect(actions.selectSession).toHaveBeenCalledWith('ses_2');
    click(rows[1]!.querySelector('button[title="Delete session"]')!);
    expect(actions.deleteSession).toHaveBeenCalledWith('ses_2');
    click(button('New session'));
    click(button('Fork'));
    click(button('Compact'));
    expect(actions.newSession).toHaveBeenCalledOnce();
    expect(actions.fork).toHaveBeenCalledWith();
    expect(actions.compact).toHaveBeenCalledOnce();
  });

  it('invites typing when there is no session yet, and still sends', () => {
    const { actions } = render({ activeSession: undefined, sessions: [] });
    expect(one('.os-chat-empty').textContent).toBe('Type a message below to start a new session.');
    expect(button('Fork').disabled).toBe(true);
    press(type('start'), 'Enter');
    expect(actions.send).toHaveBeenCalledWith('start', []);
  });
});

describe('a question the agent waits on', () => {
  const question = (multiple = false, custom?: boolean) => ({
    id: 'que_1',
    sessionID: SESSION,
    questions: [
      {
        header: 'Database',
        question: 'Which database should the tests use?',
        options: [
          { label: 'SQLite', description: 'in memory, fast' },
          { label: 'Postgres', description: 'as in production' },
        ],
        multiple,
        custom,
      },
    ],
  });
  const choose = (label: string) => {
    const input = all('.os-chat-question-option')
      .find((l) => l.textContent?.includes(label))!
      .querySelector('input')!;
    click(input);
  };

  it('shows the question and its options; Answer sends the one chosen, and waits until one is', () => {
    const { actions } = render({ questions: [question()] });
    expect(one('.os-chat-question').textContent).toContain('Which database should the tests use?');
    expect(all('.os-chat-question-option').map((o) => o.textContent)).toEqual([
      ' SQLite — in memory, fast',
      ' Postgres — as in production',
    ]);
    expect(button('Answer').disabled).toBe(true);
    choose('SQLite');
    choose('Postgres');
    click(button('Answer'));
    expect(actions.answer).toHaveBeenCalledWith('que_1', [['Postgres']]);
  });

  it("takes several options when the question allows, or the person's own words", () => {
    const { actions, rerender } = render({ questions: [question(true)] });
    choose('SQLite');
    choose('Postgres');
    click(button('Answer'));
    expect(actions.answer).toHaveBeenLastCalledWith('que_1', [['SQLite', 'Postgres']]);

    rerender({ questions: [] });
    rerender({ questions: [question()] });
    const own = one('input.os-chat-question-own') as HTMLInputElement;
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(own, 'MySQL, please');
      own.dispatchEvent(new Event('input', { bubbles: true }));
    });
    click(button('Answer'));
    expect(actions.answer).toHaveBeenLastCalledWith('que_1', [['MySQL, please']]);
  });

  it('offers no text of its own when the question forbids it; Dismiss refuses', () => {
    const { actions } = render({ questions: [question(false, false)] });
    expect(all('input.os-chat-question-own')).toHaveLength(0);
    click(button('Dismiss'));
    expect(actions.dismiss).toHaveBeenCalledWith('que_1');
  });
});
