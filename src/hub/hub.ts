import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type PrimitiveSchemaDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import { failure, parseArguments, within, type CallContext, type Failure, type ToolResult, type ToolSuccess } from '../contract/index.js';
import { TOOLS_ENABLE, TOOLS_BY_NAME } from '../families/index.js';
import { redactArguments, type AuditSink } from '../security/audit-log.js';
import { BridgeRegistry, executeWithTimeout, NO_BRIDGE } from './bridge.js';
import { SessionResources, type CleanupReport } from './session-resources.js';
import { HubState } from './state.js';
import { serveLiveResources } from './live-resources.js';
import { SessionCatalog } from './catalog.js';

export const HUB_VERSION = '0.1.0';

/** OPENSPACE_LOG=debug logs every tool call (name, arguments, code, duration) to stderr (NFR-3.4.4). */
const debug = typeof process !== 'undefined' && process.env.OPENSPACE_LOG === 'debug';

export interface HubOptions {
  /** How the instructions name the IDE, e.g. "a simulated OpenSpace IDE". */
  ideName?: string;
  /** How long the hub waits for the IDE to answer one command. */
  callTimeoutMs?: number;
  /** Tool calls one session may have waiting or running at once (NFR-3.1.4); more answer RATE_LIMITED. */
  maxConcurrentCalls?: number;
  /** Where each tool call is logged (the workspace's .openspace/audit.ndjson). */
  audit?: AuditSink;
  /** Tool calls one session may make in one agent turn (NFR-3.7.2); 0 turns the limit off. Default 50. */
  maxCallsPerTurn?: number;
  /** A pause between calls this long starts a new turn. Default 30 s. */
  turnIdleMs?: number;
}

/** Per session: its agent-turn count, and the client's name for the calls the hub makes on its behalf. */
interface SessionCalls {
  turnCalls: number;
  lastCallAt: number;
  clientName?: string;
}

/** An MCP session that completed initialize and has not ended: what an IDE shows as "agent connected". */
export interface ConnectedSession {
  sessionId: string;
  clientName?: string;
  connectedAt: string;
  /** What the client's launcher named it (the X-OpenSpace-Label header): the chat panel's OpenCode, say. */
  label?: string;
}

/** Calls waiting across all sessions at which the hub logs a warning (NFR-3.1.4). */
export const QUEUE_WARNING_DEPTH = 50;

/** How long openspace.tools.enable waits for the client to list the tools again before it answers. */
export const RELIST_WAIT_MS = 2000;
/** How long it waits after that (10 ms was enough for OpenCode here; this leaves margin). */
const RELIST_GRACE_MS = 100;

/** How long a question to the person at the agent's side (elicitation) may wait for an answer. */
export const ASK_TIMEOUT_MS = 25_000;

/** The SDK validates elicitation answers with Ajv; build it on first use instead of once per session. */
let ajv: AjvJsonSchemaValidator | undefined;
const lazyValidator: jsonSchemaValidator = { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };

function toCallToolResult(result: ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result,
    isError: !result.success,
  };
}

/**
 * The hub: validates agent tool calls and routes them to whichever IDE serves, keeps the IDE's
 * published state and renders the instructions from it. Transport-free: the router and the stdio
 * entry point put MCP sessions in front of it.
 */
export class Hub {
  readonly bridges = new BridgeRegistry();
  readonly state: HubState;
  private readonly callTimeoutMs: number;
  private readonly maxConcurrentCalls: number;
  private readonly audit: AuditSink | undefined;
  /** Tool calls one session may make in one agent turn; 0: no limit. */
  readonly maxCallsPerTurn: number;
  private readonly turnIdleMs: number;
  private readonly sessions = new Map<string, SessionCalls>();
  private readonly resources = new SessionResources();
  private readonly cleanups = new Set<Promise<unknown>>();
  private readonly connected = new Map<string, ConnectedSession>();
  private readonly sessionListeners = new Set<(sessions: ConnectedSession[]) => void>();
  private inFlight = 0;

  /** Tool calls waiting or running, all sessions together. */
  get pendingCalls(): number {
    return this.inFlight;
  }

  constructor(options: HubOptions = {}) {
    this.state = new HubState(this.bridges, options.ideName ?? 'Theia OpenSpace IDE');
    this.callTimeoutMs = options.callTimeoutMs ?? 30_000;
    this.maxConcurrentCalls = options.maxConcurrentCalls ?? 10;
    this.audit = options.audit;
    this.maxCallsPerTurn = options.maxCallsPerTurn ?? 50;
    this.turnIdleMs = options.turnIdleMs ?? 30_000;
  }

  /**
   * The chat layer's signal that a new agent turn begins (POST /openspace/turn): resets the turn's
   * call count of one session, or of all. Returns how many sessions it reset.
   */
  newTurn(sessionId?: string): number {
    const targets = sessionId === undefined ? [...this.sessions.values()] : [this.sessions.get(sessionId)].filter((s) => s !== undefined);
    for (const calls of targets) calls.turnCalls = 0;
    return targets.length;
  }

  /**
   * An MCP session ended (DELETE, connection closed, idle): close the terminals, highlights and
   * tabs it created, except tabs a person pinned (or has unsaved changes in).
   */
  endSession(sessionId: string): Promise<CleanupReport> {
    const clientName = this.sessions.get(sessionId)?.clientName;
    this.sessions.delete(sessionId);
    if (this.connected.delete(sessionId)) this.sessionsChanged();
    if (!this.resources.has(sessionId) || !this.bridges.current) {
      return this.resources.release(sessionId, async () => NO_BRIDGE);
    }
    const context: CallContext = { sessionId, clientName, cleanup: true };
    const done = this.resources.release(sessionId, (tool, args) => this.callTool(tool, args, context));
    this.cleanups.add(done);
    void done.finally(() => this.cleanups.delete(done));
    return done;
  }

  /**
   * End the sessions of a client whose launcher knows it is gone (the chat panel's OpenCode when it
   * stops: a killed process does not end its MCP session), as if each had closed.
   */
  async endLabelledSessions(label: string): Promise<void> {
    const ended = [...this.connected.values()].filter((s) => s.label === label);
    await Promise.all(ended.map((s) => this.endSession(s.sessionId)));
  }

  /** The agents connected now, oldest first. */
  connectedSessions(): ConnectedSession[] {
    return [...this.connected.values()];
  }

  /** Fires with the connected sessions whenever one connects or ends. */
  onSessionsChanged(listener: (sessions: ConnectedSession[]) => void): () => void {
    this.sessionListeners.add(listener);
    return () => this.sessionListeners.delete(listener);
  }

  private sessionsChanged(): void {
    const sessions = this.connectedSessions();
    for (const listener of this.sessionListeners) listener(sessions);
  }

  /** Resolves when the cleanups of ended sessions have finished. */
  async settled(): Promise<void> {
    while (this.cleanups.size > 0) await Promise.allSettled([...this.cleanups]);
  }

  /** Tier 2 (namespace), tier 1 (schema), then the IDE; always a structured result. */
  async callTool(name: string, args: unknown, context: CallContext): Promise<ToolResult> {
    const started = performance.now();
    const result = await this.route(name, args, context);
    const tool = TOOLS_BY_NAME.get(name);
    if (tool) this.resources.note(context.sessionId, tool, result);
    this.recordCall(name, args, context, result, Math.round((performance.now() - started) * 100) / 100);
    return result;
  }

  /** The audit line of a call, and its debug line with OPENSPACE_LOG=debug. */
  private recordCall(name: string, args: unknown, context: CallContext, result: ToolResult, durationMs: number): void {
    const code = result.success ? 'OK' : result.code;
    this.audit?.record({
      type: 'call',
      time: new Date().toISOString(),
      session: context.sessionId,
      client: context.clientName,
      tool: name,
      args: redactArguments(args),
      code,
      durationMs,
      ...(context.cleanup && { cleanup: true as const }),
    });
    if (debug) process.stderr.write(`openspace: ${name} ${JSON.stringify(args)} → ${code} in ${durationMs} ms\n`);
  }

  private async route(name: string, args: unknown, context: CallContext): Promise<ToolResult> {
    const tool = TOOLS_BY_NAME.get(name);
    if (!tool) {
      const why = name.startsWith('openspace.') ? `is not a tool this hub serves` : `is outside the openspace.* namespace this hub serves`;
      return failure('UNKNOWN_TOOL', `"${name}" ${why}. Call tools/list for the available tools.`);
    }
    const parsed = parseArguments(tool, args);
    if (!parsed.ok) return parsed.failure;
    const bridge = this.bridges.current;
    if (!bridge) return NO_BRIDGE;
    return executeWithTimeout(bridge, name, parsed.args, context, this.callTimeoutMs + (tool.waitsUpTo?.(parsed.args) ?? 0));
  }

  /** One MCP server per session; calls within a session run one at a time, in order (NFR-3.3.2). */
  createMcpServer(label?: string): Server {
    const server = new Server(
      { name: 'openspace-hub', title: 'OpenSpace', version: HUB_VERSION },
      {
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false } },
        instructions: this.state.instructions,
        jsonSchemaValidator: lazyValidator,
      },
    );
    let queue: Promise<unknown> = Promise.resolve();
    let pending = 0;
    let sessionId: string | undefined;
    const stopResources = serveLiveResources(
      server,
      this.state,
      (tool, args, context) => this.callTool(tool, args, context),
      (id) => this.callContext(server, id),
    );
    server.oninitialized = () => {
      sessionId ??= server.transport?.sessionId ?? 'stdio';
      this.connected.set(sessionId, {
        sessionId,
        clientName: server.getClientVersion()?.name,
        connectedAt: new Date().toISOString(),
        ...(label && { label }),
      });
      this.sessionsChanged();
    };
    server.onclose = () => {
      stopResources();
      if (sessionId !== undefined) void this.endSession(sessionId);
    };
    const catalog = new SessionCatalog();
    // Sent on the call's own stream, ahead of its answer: the client fetches tools/list again.
    const listChanged = (requestId: string | number) =>
      server.notification({ method: 'notifications/tools/list_changed' }, { relatedRequestId: requestId }).catch(() => undefined);
    let listed: (() => void) | undefined;
    server.setRequestHandler(ListToolsRequestSchema, () => {
      listed?.();
      return { tools: catalog.list() };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      sessionId = extra.sessionId ?? 'stdio';
      const { name, arguments: args } = request.params;
      // Listing more tools changes nothing in the IDE: it counts against no limit.
      if (name === TOOLS_ENABLE.name) {
        const enabled = this.enableTools(catalog, args, { sessionId, clientName: server.getClientVersion()?.name });
        if (enabled.success && enabled.added.length > 0) {
          // Answered once the client has listed again (at most RELIST_WAIT_MS), and a moment more for
          // it to take the list in, so the agent's next step can use what it enabled: OpenCode builds
          // the model's next request as soon as this answer comes, and offered the old list 1 time in 2.
          const listedAgain = new Promise<void>((resolve) => (listed = resolve));
          await listChanged(extra.requestId);
          await within(listedAgain, RELIST_WAIT_MS);
          listed = undefined;
          await new Promise((r) => setTimeout(r, RELIST_GRACE_MS));
        }
        return toCallToolResult(enabled);
      }
      if (pending >= this.maxConcurrentCalls) {
        return toCallToolResult(
          failure(
            'RATE_LIMITED',
            `${pending} tool calls of this session are still waiting or running (at most ${this.maxConcurrentCalls}); wait for their answers, then retry.`,
          ),
        );
      }
      const overTurn = this.countTurnCall(sessionId, server);
      if (overTurn) return toCallToolResult(overTurn);
      pending++;
      if (++this.inFlight === QUEUE_WARNING_DEPTH) {
        process.stderr.write(`openspace: warning: ${this.inFlight} tool calls are waiting for the IDE across all sessions\n`);
      }
      const context = { ...this.callContext(server, extra.sessionId, extra.requestId), signal: extra.signal };
      const call = async (): Promise<ToolResult> => {
        const result = await this.callTool(name, args, context);
        if (result.success && catalog.used(name)) await listChanged(extra.requestId);
        return result;
      };
      const run = queue.then(call).then(toCallToolResult);
      const settled = run.finally(() => {
        pending--;
        this.inFlight--;
      });
      queue = settled.catch(() => undefined);
      return settled;
    });
    return server;
  }

  /** openspace.tools.enable: lists more of the catalog in this session (src/hub/catalog.ts). */
  private enableTools(catalog: SessionCatalog, args: unknown, context: CallContext): ToolSuccess<typeof TOOLS_ENABLE> | Failure {
    const parsed = parseArguments(TOOLS_ENABLE, args);
    const result: ToolSuccess<typeof TOOLS_ENABLE> | Failure = parsed.ok
      ? { success: true, ...catalog.enable(parsed.args.families) }
      : parsed.failure;
    this.recordCall(TOOLS_ENABLE.name, args, context, result, 0);
    return result;
  }

  /** Count a call against the session's turn; the failure to answer when the turn has used up its calls. */
  private countTurnCall(sessionId: string, server: Server): Failure | undefined {
    let calls = this.sessions.get(sessionId);
    if (!calls) {
      calls = { turnCalls: 0, lastCallAt: 0, clientName: server.getClientVersion()?.name };
      this.sessions.set(sessionId, calls);
    }
    const now = Date.now();
    if (now - calls.lastCallAt >= this.turnIdleMs) calls.turnCalls = 0;
    if (this.maxCallsPerTurn > 0 && calls.turnCalls >= this.maxCallsPerTurn) {
      const wait = Math.ceil((this.turnIdleMs - (now - calls.lastCallAt)) / 1000);
      return failure(
        'RATE_LIMITED',
        `This agent turn has made ${calls.turnCalls} tool calls, the most one turn may make (${this.maxCallsPerTurn}). ` +
          `Stop and report to the person; a new turn starts with their next message, or after ${wait} s without calls.`,
        { limit: 'turn', retryAfterSeconds: wait },
      );
    }
    calls.turnCalls++;
    calls.lastCallAt = now;
    return undefined;
  }

  /** Who calls, and a way to ask the person at the agent's side when the client supports elicitation. */
  private callContext(server: Server, sessionId = 'stdio', requestId?: string | number): CallContext {
    const clientName = server.getClientVersion()?.name;
    if (!server.getClientCapabilities()?.elicitation) return { sessionId, clientName };
    // Sent on the tool call's own stream; no answer within the time limit counts as none.
    const elicit = async (message: string, properties: Record<string, PrimitiveSchemaDefinition>, timeoutMs = ASK_TIMEOUT_MS) => {
      try {
        const answer = await server.elicitInput(
          { message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } },
          { relatedRequestId: requestId, timeout: timeoutMs },
        );
        return answer.action === 'cancel' ? undefined : { accepted: answer.action === 'accept', content: answer.content ?? {} };
      } catch {
        return undefined;
      }
    };
    const ask = async (message: string, timeoutMs?: number): Promise<boolean | undefined> => {
      const answer = await elicit(message, { allow: { type: 'boolean', title: 'Allow', description: message, default: false } }, timeoutMs);
      return answer && answer.accepted && answer.content.allow === true;
    };
    const choose = async <T extends string>(message: string, options: readonly T[], timeoutMs?: number): Promise<T | undefined> => {
      const answer = await elicit(
        message,
        { answer: { type: 'string', title: 'Answer', description: message, enum: [...options] } },
        timeoutMs,
      );
      return answer?.accepted ? options.find((o) => o === answer.content.answer) : undefined;
    };
    const askEach = async <K extends string>(message: string, items: readonly { key: K; title: string }[], timeoutMs?: number) => {
      const properties = Object.fromEntries(items.map(({ key, title }) => [key, { type: 'boolean' as const, title, default: true }]));
      const answer = await elicit(message, properties, timeoutMs);
      if (!answer) return undefined;
      return Object.fromEntries(items.map(({ key }) => [key, answer.accepted && answer.content[key] === true])) as Record<K, boolean>;
    };
    return { sessionId, clientName, ask, choose, askEach };
  }
}
