/**
 * The chat panel's rendering: a conversation with OpenCode as the widget holds it (ChatModel), and
 * every action the person can take handed back through `actions`. No state of its own beyond the
 * text being typed, so it renders the same from the same props (and is tested that way, in jsdom).
 */
import * as React from 'react';
import type {
  AcpUsage,
  AgentChoice,
  ChatAgentChoice,
  ChatAbilities,
  ChatConnection,
  MessageEntry,
  ModelChoice,
  PermissionReply,
  PermissionRequest,
  PromptImage,
  QuestionRequest,
  Session,
  ToolPart,
  TurnChange,
} from '../../common/chat-protocol.js';
import { OPENCODE_ABILITIES } from '../../common/chat-protocol.js';
import { codeBlocks } from './chat-markdown.js';
import { summarizeTurn } from './tool-lines.js';
import { ChatInput } from './chat-input.js';
import { MessageView, messageRoot, PermissionCard } from './chat-parts.js';
import { QuestionCard } from './question-card.js';

export interface ChatActions {
  retry(): void;
  newSession(): void;
  selectSession(id: string): void;
  deleteSession(id: string): void;
  fork(messageID?: string): void;
  revert(messageID: string): void;
  unrevert(): void;
  abort(): void;
  compact(): void;
  send(text: string, images?: PromptImage[]): void;
  selectModel(model: { providerID: string; modelID: string }): void;
  selectAgent(name: string): void;
  /** Talk to another agent: OpenCode, or one over ACP. */
  selectChatAgent(name: string): void;
  reply(requestID: string, reply: PermissionReply): void;
  answer(requestID: string, answers: string[][]): void;
  dismiss(requestID: string): void;
  openFile(path: string, line?: number): void;
  /** Show what a turn changed, each file against what it held before, to keep or undo hunk by hunk. */
  reviewChanges(changes: TurnChange[]): void;
  openCode(code: string, lang: string): void;
  copy(text: string): void;
}

export interface ChatViewProps {
  connection: ChatConnection;
  sessions: Session[];
  activeSession?: Session;
  messages: MessageEntry[];
  busy: boolean;
  error?: string;
  permissions: PermissionRequest[];
  /** Questions the agent waits on in this session. */
  questions?: QuestionRequest[];
  models: ModelChoice[];
  model?: { providerID: string; modelID: string };
  /** OpenCode's primary agents, and the one prompts go to (none: OpenCode's default). */
  agents?: AgentChoice[];
  agent?: string;
  /** The agents the panel can talk to, and the one it talks to (default OpenCode). */
  chatAgents?: ChatAgentChoice[];
  chatAgent?: string;
  /** Text to add to the draft (a new object each time: the editor's selection as an @ mention). */
  insertion?: { text: string };
  showSessions: boolean;
  actions: ChatActions;
}

export function ChatView(props: ChatViewProps) {
  const { connection, actions } = props;
  const who = props.chatAgent ?? 'OpenCode';
  switch (connection.state) {
    case 'starting':
      return (
        <div className="os-chat os-chat-status">
          <ChatAgentPicker {...props} />
          <p role="status">
            <span className="os-chat-spinner" aria-hidden="true" /> Starting {who}…
          </p>
        </div>
      );
    case 'stopped':
      return (
        <div className="os-chat os-chat-status">
          <ChatAgentPicker {...props} />
          <p>{who} is not running.</p>
          <button type="button" className="os-chat-primary" onClick={() => actions.retry()}>
            Start {who}
          </button>
        </div>
      );
    case 'failed':
      return (
        <div className="os-chat os-chat-status os-chat-failed">
          <ChatAgentPicker {...props} />
          <p className="os-chat-error">{connection.message}</p>
          <button type="button" className="os-chat-primary" onClick={() => actions.retry()}>
            Retry
          </button>
        </div>
      );
    default:
      return <Conversation {...props} />;
  }
}

/** Which agent the panel talks to, when there is a choice. */
function ChatAgentPicker({ chatAgents, chatAgent, actions }: ChatViewProps) {
  if (!chatAgents || chatAgents.length < 2) return null;
  return (
    <select
      className="os-chat-with"
      aria-label="Chat with"
      title="The agent this panel talks to"
      value={chatAgent ?? 'OpenCode'}
      onChange={(e) => actions.selectChatAgent(e.target.value)}
    >
      {chatAgents.map((a) => (
        <option key={a.name} value={a.name} title={a.detail}>
          {a.name}
        </option>
      ))}
    </select>
  );
}

function Conversation(props: ChatViewProps) {
  const { connection, activeSession, messages, busy, error, permissions, actions } = props;
  const can = abilities(connection);
  const who = props.chatAgent ?? 'OpenCode';
  return (
    <div className="os-chat">
      <Toolbar {...props} />
      {props.showSessions && (
        <SessionList sessions={props.sessions} active={activeSession?.id} canDelete={can.deleteSession} actions={actions} />
      )}
      {connection.state === 'reconnecting' && <div className="os-chat-notice os-chat-reconnecting">{connection.message}</div>}
      <Timeline messages={messages} session={activeSession} busy={busy} can={can} who={who} actions={actions} />
      {error && <div className="os-chat-notice os-chat-error">{error}</div>}
      {(props.questions ?? []).map((request) => (
        <QuestionCard
          key={request.id}
          request={request}
          onAnswer={(id, answers) => actions.answer(id, answers)}
          onDismiss={(id) => actions.dismiss(id)}
        />
      ))}
      {permissions.map((request) => (
        <PermissionCard
          key={request.id}
          request={request}
          messages={messages}
          agent={props.chatAgent}
          onReply={(id, reply) => actions.reply(id, reply)}
        />
      ))}
      <ChatInput {...props} />
    </div>
  );
}

function Toolbar(props: ChatViewProps) {
  const { activeSession, messages, busy, actions } = props;
  const can = abilities(props.connection);
  return (
    <div className="os-chat-toolbar">
      <div className="os-chat-heading">
        <ChatAgentPicker {...props} />
        <span className="os-chat-title" title={activeSession?.title}>
          {activeSession?.title ?? props.chatAgent ?? 'OpenCode'}
        </span>
        <TokenUsage messages={messages} usage={activeSession?.metadata?.usage as AcpUsage | undefined} />
      </div>
      <div className="os-chat-toolbar-buttons">
        <button type="button" onClick={() => actions.newSession()} title="Start a new session">
          New session
        </button>
        {can.fork && (
          <button
            type="button"
            // An ACP agent forks a session once its turn has ended (the agent copies what it holds).
            disabled={!activeSession || (can.fork === 'session' && busy)}
            onClick={() => actions.fork()}
            title="Copy this session into a new one"
          >
            Fork
          </button>
        )}
        {can.compact && (
          <button
            type="button"
            disabled={!activeSession || busy || messages.length === 0}
            onClick={() => actions.compact()}
            title="Summarize the conversation so far to free the model's context"
          >
            Compact
          </button>
        )}
      </div>
    </div>
  );
}

/** The tokens OpenCode's answers used in this session: 1234 → "1.2k". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

function TokenUsage({ messages, usage }: { messages: MessageEntry[]; usage?: AcpUsage }) {
  if (usage) {
    // An ACP agent says how full the model's context is, and the cost so far.
    const money = usage.cost && usage.cost.amount > 0 ? ` · ${formatMoney(usage.cost)}` : '';
    return (
      <span className="os-chat-tokens" title="How much of the model's context this session fills, and what it has cost">
        {`${formatTokens(usage.used)} of ${formatTokens(usage.size)} context${money}`}
      </span>
    );
  }
  let input = 0;
  let output = 0;
  let cost = 0;
  for (const { info } of messages) {
    if (info.role !== 'assistant') continue;
    input += info.tokens?.input ?? 0;
    output += info.tokens?.output ?? 0;
    cost += info.cost ?? 0;
  }
  if (input + output === 0) return null;
  const dollars = cost > 0 ? ` · ${formatMoney({ amount: cost, currency: 'USD' })}` : '';
  return (
    <span className="os-chat-tokens" title="Tokens the model read and wrote in this session">
      {`${formatTokens(input)} in · ${formatTokens(output)} out${dollars}`}
    </span>
  );
}

const formatMoney = ({ amount, currency }: { amount: number; currency: string }) =>
  `${currency === 'USD' ? '$' : `${currency} `}${amount.toFixed(amount < 0.1 ? 3 : 2)}`;

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function relativeTime(time: number, now = Date.now()): string {
  const minutes = Math.floor((now - time) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ago`;
  if (minutes < 7 * 24 * 60) return `${Math.floor(minutes / (24 * 60))} d ago`;
  return new Date(time).toLocaleDateString();
}

/** What the panel offers with the agent it talks to (see ChatAbilities). */
export function abilities(connection: ChatConnection): ChatAbilities {
  return (connection.state === 'connected' && connection.can) || OPENCODE_ABILITIES;
}

interface SessionListProps {
  sessions: Session[];
  active?: string;
  canDelete: boolean;
  actions: ChatActions;
}

function SessionList({ sessions, active, canDelete, actions }: SessionListProps) {
  return (
    <div className="os-chat-sessions" role="list" aria-label="Sessions">
      {sessions.length === 0 && <div className="os-chat-empty">No sessions yet.</div>}
      {sessions.map((s) => (
        <div key={s.id} role="listitem" className={`os-chat-session${s.id === active ? ' os-chat-session-active' : ''}`}>
          <button type="button" className="os-chat-session-open" onClick={() => actions.selectSession(s.id)}>
            <span className="os-chat-session-title">{s.title}</span>
            <span className="os-chat-session-time">{relativeTime(s.time.updated)}</span>
          </button>
          {canDelete && (
            <button
              type="button"
              className="os-chat-session-delete"
              title="Delete session"
              aria-label="Delete session"
              onClick={() => actions.deleteSession(s.id)}
            >
              ×
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

interface TimelineProps {
  messages: MessageEntry[];
  session?: Session;
  busy: boolean;
  can: ChatAbilities;
  /** The agent's name, as the empty timeline speaks of it. */
  who: string;
  actions: ChatActions;
}

function Timeline({ messages, session, busy, can, who, actions }: TimelineProps) {
  const ref = React.useRef<HTMLDivElement>(null);
  const following = React.useRef(true);
  React.useLayoutEffect(() => {
    following.current = true;
  }, [session?.id]);
  React.useLayoutEffect(() => {
    if (following.current && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [messages]);
  const onScroll = () => {
    const el = ref.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  /** One handler for every file reference and code button, in the markdown and in the tool lines. */
  const onClick = (event: React.MouseEvent<HTMLDivElement>) => {
    const target = event.target as Element;
    const fileRef = target.closest?.<HTMLElement>('a.os-file-ref');
    if (fileRef?.dataset.path) {
      event.preventDefault();
      const line = Number(fileRef.dataset.line);
      actions.openFile(fileRef.dataset.path, Number.isInteger(line) && line > 0 ? line : undefined);
      return;
    }
    const review = target.closest?.<HTMLElement>('button[data-review]');
    if (review) {
      event.preventDefault();
      const entry = messages.find((m) => m.info.id === review.dataset.review);
      const tools = (entry?.parts ?? []).filter((p): p is ToolPart => p.type === 'tool');
      actions.reviewChanges(summarizeTurn(tools, { root: entry && messageRoot(entry.info) }).review);
      return;
    }
    const button = target.closest?.<HTMLElement>('button[data-action]');
    const block = button?.closest<HTMLElement>('[data-code-index]');
    const partID = button?.closest<HTMLElement>('[data-part-id]')?.dataset.partId;
    if (!button || !block || !partID) return;
    const code = codeOf(messages, partID, Number(block.dataset.codeIndex));
    if (!code) return;
    if (button.dataset.action === 'copy') actions.copy(code.code);
    if (button.dataset.action === 'open') actions.openCode(code.code, code.lang);
  };

  const revertAt = session?.revert ? messages.findIndex((m) => m.info.id >= session.revert!.messageID) : -1;
  const reverted = revertAt >= 0 ? messages.slice(revertAt).filter((m) => m.info.role === 'user').length : 0;
  return (
    <div className="os-chat-timeline" ref={ref} onScroll={onScroll} onClick={onClick}>
      {!session && <div className="os-chat-empty">Type a message below to start a new session.</div>}
      {session && messages.length === 0 && (
        <div className="os-chat-empty">
          {session.metadata?.resumed
            ? `${who} goes on with this session from before; it keeps the conversation so far but does not show it again.`
            : `Ask ${who} about this workspace.`}
        </div>
      )}
      {messages.map((entry, i) => (
        <React.Fragment key={entry.info.id}>
          {i === revertAt && (
            <div className="os-chat-banner" role="status">
              <span>
                {reverted} {reverted === 1 ? 'message' : 'messages'} reverted
              </span>
              <button type="button" onClick={() => actions.unrevert()} title="Bring the reverted messages and their changes back">
                Restore
              </button>
            </div>
          )}
          <MessageView
            entry={entry}
            reverted={revertAt >= 0 && i >= revertAt}
            busy={busy}
            onRevert={(id) => actions.revert(id)}
            onFork={(id) => actions.fork(id)}
            can={{ revert: can.revert, fork: can.fork === 'message' }}
          />
        </React.Fragment>
      ))}
    </div>
  );
}

function codeOf(messages: MessageEntry[], partID: string, index: number) {
  for (const { parts } of messages) {
    const part = parts.find((p) => p.id === partID);
    if (part?.type === 'text') return codeBlocks(part.text)[index];
  }
  return undefined;
}
