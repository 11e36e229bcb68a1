/**
 * What OpenCode sends, as the chat panel shows it: a message of the timeline (the person's as a
 * bubble, OpenCode's as its parts in order: text as markdown, tool calls as one line each, reasoning
 * folded away) and a permission request as a card. Clicks on file references and code buttons are not
 * handled here: the timeline has one handler for all of them (chat-view.tsx).
 */
import * as React from 'react';
import type { Message, MessageEntry, Part, PermissionReply, PermissionRequest, ToolPart } from '../../common/chat-protocol.js';
import { renderMarkdown } from './chat-markdown.js';
import { shorten } from '../../../../../src/browser.js';
import { describeToolCall, describeToolRequest, permissionVerb, summarizeTurn, toolDisplayName } from './tool-lines.js';

export interface MessageViewProps {
  entry: MessageEntry;
  reverted: boolean;
  busy: boolean;
  onRevert(messageID: string): void;
  onFork(messageID: string): void;
  /** What the agent can do from a message of the person's (OpenCode: both). */
  can?: { revert: boolean; fork: boolean };
}

export function MessageView({ entry, reverted, busy, onRevert, onFork, can = { revert: true, fork: true } }: MessageViewProps) {
  const { info, parts } = entry;
  const classes = `os-chat-message os-chat-${info.role}${reverted ? ' os-chat-reverted' : ''}`;
  if (info.role === 'user') {
    const text = parts
      .filter((p) => p.type === 'text' && !p.synthetic && !p.ignored)
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('\n\n');
    return (
      <div className={classes} data-message-id={info.id}>
        {text && <div className="os-chat-bubble">{text}</div>}
        {parts.map((p) =>
          p.type !== 'file' ? null : p.mime.startsWith('image/') && p.url.startsWith('data:') ? (
            <img key={p.id} className="os-chat-image" src={p.url} alt={p.filename ?? 'image'} title={p.filename} />
          ) : (
            <FileChip key={p.id} name={p.filename ?? p.url} />
          ),
        )}
        {!reverted && (can.revert || can.fork) && (
          <div className="os-chat-message-actions">
            {can.revert && (
              <button type="button" disabled={busy} title="Undo this message and everything after it" onClick={() => onRevert(info.id)}>
                Revert to here
              </button>
            )}
            {can.fork && (
              <button type="button" title="Start a new session with the conversation up to this message" onClick={() => onFork(info.id)}>
                Fork from here
              </button>
            )}
          </div>
        )}
      </div>
    );
  }
  const root = messageRoot(info);
  const error = messageError(info);
  return (
    <div className={classes} data-message-id={info.id} title={info.modelID ? `${info.providerID}/${info.modelID}` : undefined}>
      {parts.map((part) => (
        <PartView key={part.id} part={part} root={root} />
      ))}
      {error && <div className={error.aborted ? 'os-chat-stopped' : 'os-chat-error'}>{error.text}</div>}
      {info.time.completed !== undefined && (
        <TurnSummaryView messageID={info.id} tools={parts.filter((p): p is ToolPart => p.type === 'tool')} root={root} />
      )}
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A finished turn's files read and changed and commands run, folded into one line; each file opens.
 * Where the agent's calls said what the files held before, "Review changes" shows them hunk by hunk.
 */
function TurnSummaryView({ messageID, tools, root }: { messageID: string; tools: ToolPart[]; root?: string }) {
  const { read, changed, ran, review } = summarizeTurn(tools, { root });
  const said = [
    changed.length && `changed ${plural(changed.length, 'file', 'files')}`,
    read.length && `read ${plural(read.length, 'file', 'files')}`,
    ran.length && `ran ${plural(ran.length, 'command', 'commands')}`,
  ].filter(Boolean);
  if (said.length === 0) return null;
  const files = (label: string, list: { path: string; line?: number }[]) =>
    list.length > 0 && (
      <li>
        {label}{' '}
        {list.map((f, i) => (
          <React.Fragment key={f.path}>
            {i > 0 && ', '}
            <FileLink path={f.path} line={f.line} />
          </React.Fragment>
        ))}
      </li>
    );
  return (
    <details className="os-chat-turn-summary">
      <summary>
        This turn {said.join(', ')}
        {review.length > 0 && (
          <button
            type="button"
            className="os-chat-review"
            data-review={messageID}
            title="Keep or undo each change the agent made, hunk by hunk"
          >
            Review changes
          </button>
        )}
      </summary>
      <ul>
        {files('Changed', changed)}
        {files('Read', read)}
        {ran.length > 0 && (
          <li>
            Ran{' '}
            {ran.map((command, i) => (
              <React.Fragment key={i}>
                {i > 0 && ', '}
                <code>{command}</code>
              </React.Fragment>
            ))}
          </li>
        )}
      </ul>
    </details>
  );
}

function PartView({ part, root }: { part: Part; root?: string }) {
  switch (part.type) {
    case 'text':
      return part.ignored || !part.text ? null : <TextView id={part.id} text={part.text} />;
    case 'reasoning':
      return part.text.trim() ? (
        <details className="os-chat-reasoning">
          <summary>{part.time?.end ? 'Thought' : 'Thinking…'}</summary>
          <div className="os-chat-reasoning-text">{part.text}</div>
        </details>
      ) : null;
    case 'tool':
      return <ToolLineView part={part} root={root} />;
    case 'file':
      return <FileChip name={part.filename ?? part.url} />;
    case 'patch':
      return part.files.length ? (
        <div className="os-chat-patch">
          changed{' '}
          {part.files.map((file, i) => (
            <React.Fragment key={file}>
              {i > 0 && ', '}
              <FileLink path={relativeTo(file, root)} />
            </React.Fragment>
          ))}
        </div>
      ) : null;
    case 'subtask':
      return <div className="os-chat-note">started a task: {part.description}</div>;
    case 'retry':
      return (
        <div className="os-chat-note os-chat-retry">
          retrying (attempt {part.attempt}): {part.error?.data?.message ?? part.error?.name}
        </div>
      );
    case 'compaction':
      return <div className="os-chat-note os-chat-compaction">The conversation was compacted to a summary.</div>;
    default:
      // step-start, step-finish, snapshot, agent: bookkeeping a person does not read.
      return null;
  }
}

const TextView = React.memo(function TextView({ id, text }: { id: string; text: string }) {
  const html = React.useMemo(() => renderMarkdown(text), [text]);
  return <div className="os-chat-text" data-part-id={id} dangerouslySetInnerHTML={{ __html: html }} />;
});

const GLYPHS = { completed: '✓', error: '✗' } as const;
const STATUS_NAMES = { pending: 'waiting', running: 'running', completed: 'done', error: 'failed' } as const;

export function ToolLineView({ part, root }: { part: ToolPart; root?: string }) {
  const line = describeToolCall(part, { root });
  const { status } = line;
  const glyph =
    status === 'completed' || status === 'error' ? (
      <span className="os-chat-tool-glyph" role="img" aria-label={STATUS_NAMES[status]}>
        {GLYPHS[status]}
      </span>
    ) : (
      <span className="os-chat-tool-glyph os-chat-spinner" role="img" aria-label={STATUS_NAMES[status]} />
    );
  return (
    <div className={`os-chat-tool os-chat-tool-${status}`} data-status={status} title={toolDisplayName(part.tool)}>
      {glyph}
      <span className="os-chat-tool-text">{linkPath(line.text, line.path, line.line)}</span>
      {line.error && <div className="os-chat-tool-reason">{shorten(line.error, 500)}</div>}
    </div>
  );
}

/** The text with the path in it (and its `:line` or `:start-end`) as a file link. */
function linkPath(text: string, path?: string, line?: number): React.ReactNode {
  const at = path ? text.indexOf(path) : -1;
  if (!path || at < 0) return text;
  const end = at + path.length + (/^:\d+(?:-\d+)?/.exec(text.slice(at + path.length))?.[0].length ?? 0);
  return (
    <>
      {text.slice(0, at)}
      <FileLink path={path} line={line} label={text.slice(at, end)} />
      {text.slice(end)}
    </>
  );
}

/** A file reference the timeline's click handler opens, the same markup as the markdown's. */
export function FileLink({ path, line, label }: { path: string; line?: number; label?: string }) {
  return (
    <a
      className="os-file-ref"
      href="#"
      data-path={path}
      data-line={line}
      title={`Open ${path}${line === undefined ? '' : ` at line ${line}`}`}
    >
      {label ?? path}
    </a>
  );
}

function FileChip({ name }: { name: string }) {
  return <div className="os-chat-file">📎 {shorten(name, 80)}</div>;
}

function relativeTo(path: string, root?: string): string {
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/**
 * What an answer's paths are shown relative to: the directory the agent works in (the workspace);
 * OpenCode's `root` is the git worktree, "/" outside one.
 */
export function messageRoot(info: Message): string | undefined {
  return info.role === 'assistant' ? (info.path?.cwd ?? info.path?.root) : undefined;
}

/** What went wrong with an answer, in words; a stop the person asked for is not an error. */
export function messageError(info: Message): { text: string; aborted: boolean } | undefined {
  if (info.role !== 'assistant' || !info.error) return undefined;
  const { name } = info.error;
  const data = info.error.data as { message?: string } | undefined;
  if (name === 'MessageAbortedError') return { text: 'Stopped.', aborted: true };
  return { text: data?.message || name, aborted: false };
}

/** What the person reads for OpenCode's permission names that are not tools. */
export interface PermissionCardProps {
  request: PermissionRequest;
  messages: MessageEntry[];
  onReply(requestID: string, reply: PermissionReply): void;
  /** Who asks: the agent the panel talks to. */
  agent?: string;
}

export function PermissionCard({ request, messages, onReply, agent = 'OpenCode' }: PermissionCardProps) {
  const call = messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.callID === request.tool?.callID);
  const input = call?.type === 'tool' ? call.state.input : undefined;
  const asked = call?.type === 'tool' && input && Object.keys(input).length ? describeToolRequest(call.tool, input) : undefined;
  const name = toolDisplayName(request.permission);
  const details = Object.entries(request.metadata ?? {}).filter(
    ([key, value]) => key !== 'diff' && (typeof value === 'string' || typeof value === 'number') && value !== '',
  );
  const diff = typeof request.metadata?.diff === 'string' ? request.metadata.diff : undefined;
  const patterns = request.patterns.filter((p) => p !== '*');
  return (
    <div className="os-chat-permission" role="group" aria-label="Permission request">
      <div className="os-chat-permission-title">
        {agent} asks to{' '}
        {permissionVerb(request.permission) ?? (
          <>
            use <code>{name}</code>
          </>
        )}
      </div>
      {asked && <div className="os-chat-permission-action">to {asked.text}</div>}
      {details.map(([key, value]) => (
        <div key={key} className="os-chat-permission-detail">
          <span>{key}</span> <code>{shorten(String(value), 300)}</code>
        </div>
      ))}
      {patterns.length > 0 && (
        <div className="os-chat-permission-patterns">
          {patterns.map((p) => (
            <code key={p}>{p}</code>
          ))}
        </div>
      )}
      {diff && (
        <details className="os-chat-permission-diff">
          <summary>Show the change</summary>
          <pre>{diff}</pre>
        </details>
      )}
      <div className="os-chat-permission-buttons">
        <button type="button" className="os-chat-primary" onClick={() => onReply(request.id, 'once')}>
          Allow once
        </button>
        <button
          type="button"
          onClick={() => onReply(request.id, 'always')}
          title={request.always.length ? `Allow ${request.always.join(', ')} from now on` : undefined}
        >
          Always allow
        </button>
        <button type="button" onClick={() => onReply(request.id, 'reject')}>
          Reject
        </button>
      </div>
    </div>
  );
}
