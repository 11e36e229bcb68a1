/**
 * The panel's messages of an ACP agent's session: the person's and the agent's, made alike for a
 * live turn and for a conversation the agent replays (session/load); the files a prompt mentions,
 * as resource links; what an agent's error says.
 */
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock, McpServer, RequestPermissionRequest, SessionUpdate, ToolCall } from '@agentclientprotocol/sdk';
import type {
  AcpUsage,
  AssistantMessage,
  ChatCommand,
  MessageEntry,
  PermissionRequest,
  PromptImage,
  Session,
} from '../../common/chat-protocol.js';
import { callArguments, contentText, namedTool, toolName, TurnParts } from './acp-parts.js';

/** Who the messages are of: the agent's name, the workspace, and the next message ID. */
export interface MessageMaker {
  agent: string;
  directory: string;
  nextId(): string;
}

/** OpenSpace as an agent's MCP server: the hub's URL, the token in a header, the label that ends its hub sessions with the agent. */
export function openspaceServer(hub: { mcpUrl: string | undefined; token: string | undefined }, label: string): McpServer {
  if (!hub.mcpUrl) throw new Error('The OpenSpace hub is not listening yet; try again in a moment.');
  const headers = [
    { name: 'X-OpenSpace-Label', value: label },
    ...(hub.token !== undefined ? [{ name: 'Authorization', value: `Bearer ${hub.token}` }] : []),
  ];
  return { type: 'http', name: 'openspace', url: hub.mcpUrl, headers };
}

/** A session of the agent in the workspace, as the panel lists it. */
export function sessionOf(make: MessageMaker, id: string, title: string, time: number): Session {
  return { id, slug: id, projectID: make.agent, directory: make.directory, title, version: '', time: { created: time, updated: time } };
}

/**
 * The agent's permission request as the panel's card: the tool, what it is called on, and the call it
 * is for (in `messageID`). Where the request does not name its tool (Codex asks "Approve Write
 * File" for its call `call_2`), the call the turn already showed (`known`) names it and its input.
 */
export function permissionRequest(
  params: RequestPermissionRequest,
  id: string,
  messageID: string | undefined,
  known?: ToolCall,
): PermissionRequest {
  const call = params.toolCall;
  const input = { ...callArguments(known?.rawInput), ...callArguments(call.rawInput) };
  return {
    id,
    sessionID: params.sessionId,
    // The request's own call first: its name, else what it does (Claude's "Edit src/a.ts" is an edit),
    // and only then the streamed call's name, which may predate its input (a bare "Edit").
    permission: namedTool(call) ?? wordedKind(call.kind) ?? (known && namedTool(known)) ?? toolName(call),
    patterns: [call.title ?? call.name ?? call.toolCallId],
    metadata: { ...input, title: call.title ?? '' },
    always: params.options.some((o) => o.kind === 'allow_always') ? [call.title ?? call.toolCallId] : [],
    ...(messageID && { tool: { messageID, callID: call.toolCallId } }),
  };
}

/** A kind that says what the call does (edit, read, execute…); "other" says nothing. */
function wordedKind(kind: string | null | undefined): string | undefined {
  return kind && kind !== 'other' ? kind : undefined;
}

/** The person's message, its text as one part. */
export function userEntry(make: MessageMaker, sessionID: string, text: string, time: number, images: PromptImage[] = []): MessageEntry {
  const id = make.nextId();
  const part = (n: number) => `prt_${id}_${String(n).padStart(6, '0')}`;
  return {
    info: { id, sessionID, role: 'user', time: { created: time }, agent: make.agent, model: { providerID: 'acp', modelID: make.agent } },
    parts: [
      { id: part(1), sessionID, messageID: id, type: 'text', text, time: { start: time, end: time } },
      ...images.map((image, i) => ({
        id: part(i + 2),
        sessionID,
        messageID: id,
        type: 'file' as const,
        mime: image.mime,
        filename: image.name,
        url: image.dataUrl,
      })),
    ],
  };
}

/** A pasted image as ACP's image content block (the data URL's base64). */
export function imageBlock(image: PromptImage): ContentBlock {
  return { type: 'image', mimeType: image.mime, data: image.dataUrl.slice(image.dataUrl.indexOf(',') + 1) };
}

export function assistantMessage(make: MessageMaker, sessionID: string, parentID: string, now: number): AssistantMessage {
  return {
    id: make.nextId(),
    sessionID,
    role: 'assistant',
    time: { created: now },
    parentID,
    modelID: make.agent,
    providerID: 'acp',
    mode: 'acp',
    agent: make.agent,
    path: { cwd: make.directory, root: make.directory },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  };
}

/** A conversation the agent replays (session/load): the person's words and the agent's, as messages. */
export class Replay {
  readonly entries: MessageEntry[] = [];
  private parts: TurnParts | undefined;

  constructor(
    private readonly make: MessageMaker,
    private readonly sessionID: string,
  ) {}

  apply(update: SessionUpdate): void {
    const last = this.entries.at(-1);
    const time = Date.now();
    if (update.sessionUpdate === 'user_message_chunk') {
      const part = last?.info.role === 'user' ? last.parts[0] : undefined;
      if (part?.type === 'text') return void (part.text += contentText(update.content));
      this.finish();
      this.entries.push(userEntry(this.make, this.sessionID, contentText(update.content), time));
      return;
    }
    if (!this.parts || last?.info.role !== 'assistant') {
      const message = assistantMessage(this.make, this.sessionID, last?.info.id ?? '', time);
      message.time.completed = time;
      this.parts = new TurnParts(this.sessionID, message.id);
      this.entries.push({ info: message, parts: this.parts.parts });
    }
    this.parts.apply(update);
  }

  finish(): void {
    this.parts?.finish(false);
    this.parts = undefined;
  }
}

/** A file mention in a prompt: `@path`, or `@path#L10-20` for lines. */
const MENTION = /(?<![\w@])@([\w./-]+?)(?:#(L\d+(?:-L?\d+)?))?(?=[\s,;:!?)]|\.?$|\.\s)/g;

/**
 * The files the text mentions (`@src/a.ts`, `@src/a.ts#L10-20`) that are in the workspace at
 * `root`, as resource links every ACP agent reads (the text keeps the mention, so the lines stay said).
 */
export async function mentionedFiles(text: string, root: string): Promise<ContentBlock[]> {
  const links: ContentBlock[] = [];
  for (const [, path, range] of text.matchAll(MENTION)) {
    const absolute = resolve(root, path!);
    if (absolute !== root && !absolute.startsWith(root + sep)) continue;
    if (!(await stat(absolute).catch(() => undefined))?.isFile()) continue;
    const name = range ? `${path}#${range}` : path!;
    if (links.some((l) => l.type === 'resource_link' && l.name === name)) continue;
    links.push({
      type: 'resource_link',
      uri: pathToFileURL(absolute).href,
      name,
      ...(range && { description: `lines ${range.replace(/L/g, '')}` }),
    });
  }
  return links;
}

/** What the person reads when an agent did not start or stopped: the reason, and the end of what it said on stderr. */
export function startFailure(agent: { name: string; command: string }, error: unknown, stderr: string): string {
  const reason =
    (error as NodeJS.ErrnoException)?.code === 'ENOENT'
      ? `${agent.command} was not found: install ${agent.name}, or set its command in openspace.chat.agents`
      : error instanceof Error
        ? error.message
        : String(error);
  const said = stderr.trim().split('\n').slice(-5).join('\n');
  return `${agent.name} could not start: ${reason}${said ? `\n${said}` : ''}`;
}

/** What an agent's error says: a JSON-RPC error's data when it carries the reason (the SDK sends "Internal error" with it). */
export function errorText(error: unknown): string {
  const data = (error as { data?: unknown })?.data;
  if (typeof data === 'string' && data) return data;
  const inData =
    data && typeof data === 'object' ? ((data as Record<string, unknown>).message ?? (data as Record<string, unknown>).details) : undefined;
  if (typeof inData === 'string' && inData) return inData;
  return error instanceof Error ? error.message : String(error);
}

/**
 * What an update changes of the session rather than the turn: its title, its mode, its slash
 * commands (the panel offers them as the person types "/"; they are sent as text, as ACP says).
 * Undefined: an update of the turn.
 */
export function sessionChange(update: SessionUpdate): ((session: Session) => Session) | undefined {
  switch (update.sessionUpdate) {
    case 'session_info_update': {
      const { title } = update;
      return (s) => ({ ...s, ...(title && { title }), time: { ...s.time, updated: Date.now() } });
    }
    case 'current_mode_update': {
      const mode = update.currentModeId;
      return (s) => ({ ...s, metadata: { ...s.metadata, mode } });
    }
    case 'available_commands_update': {
      const commands: ChatCommand[] = update.availableCommands.map((c) => ({
        name: c.name,
        description: c.description,
        ...(c.input?.hint && { hint: c.input.hint }),
      }));
      return (s) => ({ ...s, metadata: { ...s.metadata, commands } });
    }
    case 'usage_update': {
      // How much of the model's context the session fills, and what it cost (the panel's header).
      const { used, size, cost } = update;
      const usage: AcpUsage = { used, size, ...(cost && { cost: { amount: cost.amount, currency: cost.currency } }) };
      return (s) => ({ ...s, metadata: { ...s.metadata, usage } });
    }
    default:
      return undefined;
  }
}

/** A conversation copied into another session (a fork): new message and part IDs, the answers still after their questions. */
export function copiedConversation(make: MessageMaker, entries: MessageEntry[], sessionID: string): MessageEntry[] {
  const ids = new Map<string, string>();
  return entries.map(({ info, parts }) => {
    const id = make.nextId();
    ids.set(info.id, id);
    const copy = structuredClone(info);
    Object.assign(copy, { id, sessionID }, copy.role === 'assistant' && { parentID: ids.get(copy.parentID) ?? copy.parentID });
    return {
      info: copy,
      parts: parts.map((part, n) => ({
        ...structuredClone(part),
        id: `prt_${id}_${String(n + 1).padStart(6, '0')}`,
        sessionID,
        messageID: id,
      })),
    };
  });
}
