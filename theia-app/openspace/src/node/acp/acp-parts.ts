/**
 * An ACP agent's turn in the chat panel's terms. The panel renders OpenCode's sessions, messages
 * and parts (src/common/chat-protocol.ts); an agent over the Agent Client Protocol streams
 * `session/update` notifications instead. This keeps one turn's parts and turns each update into
 * the part it adds or changes: message and thought chunks append to the current text or reasoning
 * part, a tool call is a tool part whose state follows the call's status, a plan is a text part
 * the panel shows as a list. Pure: no process, no RPC.
 */
import type { ContentBlock, SessionUpdate, ToolCall, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { FileChange, Part, ReasoningPart, TextPart, ToolPart } from '../../common/chat-protocol.js';

/** Part IDs sort in the order the parts came, as OpenCode's do (the panel sorts by ID). */
export function partIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}_${String(++n).padStart(6, '0')}`;
}

/** What a content block reads as in the panel: its text, or what it names. */
export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `(${block.resource.uri})`;
    case 'image':
      return '(an image)';
    case 'audio':
      return '(a recording)';
  }
}

function toolContentText(content: ToolCallContent[] | null | undefined): string {
  return (content ?? [])
    .map((c) => (c.type === 'content' ? contentText(c.content) : c.type === 'diff' ? `Edited ${c.path}` : `(terminal ${c.terminalId})`))
    .join('\n');
}

/**
 * A call's input fields: its `rawInput`, or where that is an MCP call as Codex tells it
 * (`{server, tool, arguments}`), the tool's arguments.
 */
export function callArguments(rawInput: unknown): Record<string, unknown> {
  const raw = rawInput && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>) : {};
  const mcp = typeof raw.server === 'string' && typeof raw.tool === 'string' && raw.arguments && typeof raw.arguments === 'object';
  return mcp ? (raw.arguments as Record<string, unknown>) : raw;
}

/** A tool call's input as the panel's tool lines read it (their file path, command, pattern). */
function toolInput(call: Pick<ToolCall, 'rawInput' | 'locations'>): Record<string, unknown> {
  const raw = callArguments(call.rawInput);
  const path = call.locations?.[0]?.path;
  return path && raw.filePath === undefined ? { ...raw, filePath: path } : raw;
}

/**
 * The tool's name, as the panel's tool lines and permission cards know tools: its `name`, else a
 * title that is an identifier (Claude's is the MCP tool's, `mcp__openspace__openspace_editor_open`)
 * or one followed by its MCP server (Gemini CLI's `openspace.editor.open (openspace MCP Server)`),
 * or Codex's `Tool: openspace/openspace.editor.open`; undefined when the call does not say.
 */
export function namedTool(call: { name?: string | null; title?: string | null }): string | undefined {
  if (call.name) return call.name;
  const identifier =
    call.title && (/^([\w.-]+)(?: \([^()]* MCP Server\))?$/.exec(call.title) ?? /^Tool: [\w.-]+\/([\w.-]+)$/.exec(call.title));
  return identifier ? identifier[1] : undefined;
}

/** The tool's name (see namedTool), else its kind (read, edit, execute…). */
export function toolName(call: { name?: string | null; kind?: string | null; title?: string | null }): string {
  return namedTool(call) ?? call.kind ?? 'tool';
}

/**
 * The parts of one assistant message of an ACP turn. `apply` takes a session update and answers the
 * part it made or changed (for `message.part.updated`), or undefined when the update is not a part
 * (commands, modes, usage: the session keeps those).
 */
export class TurnParts {
  readonly parts: Part[] = [];
  private readonly nextId: () => string;
  private readonly tools = new Map<string, ToolPart>();
  private readonly raw = new Map<string, ToolCall>();
  private planPart: TextPart | undefined;
  /** The files each completed call changed (see acp-changes.ts), kept in its part's metadata. */
  private readonly changes = new Map<string, FileChange[]>();

  constructor(
    private readonly sessionID: string,
    private readonly messageID: string,
    private readonly now: () => number = Date.now,
  ) {
    this.nextId = partIds(`prt_${messageID}`);
  }

  apply(update: SessionUpdate): Part | undefined {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.append('text', contentText(update.content));
      case 'agent_thought_chunk':
        return this.append('reasoning', contentText(update.content));
      case 'tool_call':
        return this.tool(update);
      case 'tool_call_update':
        return this.tool(update);
      case 'plan':
        return this.plan(update.entries);
      default:
        return undefined;
    }
  }

  /** The turn ended: open text and running tools end with it (a cancelled turn's calls as errors). */
  finish(cancelled: boolean): Part[] {
    const changed: Part[] = [];
    const end = this.now();
    for (const part of this.parts) {
      if ((part.type === 'text' || part.type === 'reasoning') && part.time && part.time.end === undefined) {
        part.time = { ...part.time, end };
        changed.push(part);
      }
      if (part.type === 'tool' && (part.state.status === 'pending' || part.state.status === 'running')) {
        const start = part.state.status === 'running' ? part.state.time.start : end;
        part.state = {
          status: 'error',
          input: part.state.input,
          error: cancelled ? 'Cancelled' : 'The agent ended its turn before the call finished',
          time: { start, end },
        };
        changed.push(part);
      }
    }
    return changed;
  }

  /** Append a chunk to the last part when it is of that kind, else start one. */
  private append(type: 'text' | 'reasoning', text: string): Part {
    const last = this.parts[this.parts.length - 1];
    if (last && last.type === type && last !== this.planPart) {
      last.text += text;
      return last;
    }
    const part = { id: this.nextId(), sessionID: this.sessionID, messageID: this.messageID, type, text, time: { start: this.now() } } as
      | TextPart
      | ReasoningPart;
    this.parts.push(part);
    return part;
  }

  private tool(update: ToolCall | ToolCallUpdate): ToolPart {
    const previous = this.raw.get(update.toolCallId);
    const merged: ToolCall = {
      ...previous,
      ...Object.fromEntries(Object.entries(update).filter(([, v]) => v !== null && v !== undefined)),
      title: update.title ?? previous?.title ?? '',
    } as ToolCall;
    this.raw.set(update.toolCallId, merged);
    let part = this.tools.get(update.toolCallId);
    if (!part) {
      part = {
        id: this.nextId(),
        sessionID: this.sessionID,
        messageID: this.messageID,
        type: 'tool',
        callID: update.toolCallId,
        tool: toolName(merged),
        state: { status: 'pending', input: {}, raw: '' },
      };
      this.tools.set(update.toolCallId, part);
      this.parts.push(part);
    }
    part.tool = toolName(merged);
    const input = toolInput(merged);
    const started = part.state.status === 'running' ? part.state.time.start : this.now();
    const output = toolContentText(merged.content) || (typeof merged.rawOutput === 'string' ? merged.rawOutput : '');
    switch (merged.status) {
      case 'in_progress':
        part.state = { status: 'running', input, title: merged.title, time: { start: started } };
        break;
      case 'completed':
        {
          const changes = this.changes.get(update.toolCallId);
          const metadata = changes ? { changes } : {};
          part.state = { status: 'completed', input, output, title: merged.title, metadata, time: { start: started, end: this.now() } };
          break;
        }
        break;
      case 'failed':
        part.state = { status: 'error', input, error: output || 'The call failed', time: { start: started, end: this.now() } };
        break;
      default:
        part.state = { status: 'pending', input, raw: JSON.stringify(merged.rawInput ?? {}) };
    }
    return part;
  }

  /** The call as told so far (its updates merged). */
  call(toolCallId: string): ToolCall | undefined {
    return this.raw.get(toolCallId);
  }

  /** Keep the files a completed call changed on its part; answers the part when that changed it. */
  recordChanges(toolCallId: string, changes: FileChange[]): ToolPart | undefined {
    const part = this.tools.get(toolCallId);
    if (changes.length === 0 || !part || part.state.status !== 'completed') return undefined;
    this.changes.set(toolCallId, changes);
    part.state = { ...part.state, metadata: { ...part.state.metadata, changes } };
    return part;
  }

  /** The plan, as one text part kept current: ✓ done, → in progress, ○ to do. */
  private plan(entries: { content: string; status: string }[]): TextPart {
    const mark = (status: string) => (status === 'completed' ? '✓' : status === 'in_progress' ? '→' : '○');
    const text = '**Plan**\n\n' + entries.map((e) => `- ${mark(e.status)} ${e.content}`).join('\n');
    if (this.planPart) {
      this.planPart.text = text;
      return this.planPart;
    }
    this.planPart = {
      id: this.nextId(),
      sessionID: this.sessionID,
      messageID: this.messageID,
      type: 'text',
      text,
      time: { start: this.now() },
    };
    this.parts.push(this.planPart);
    return this.planPart;
  }
}
