import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PaneStateSnapshot } from '../contract/index.js';
import { TOOLS } from '../families/index.js';
import { clientKey, TokenBucket, TokenBuckets } from '../security/rate-limit.js';
import { checkAccess } from './auth.js';
import { BodyError, readJson, sendJson, sendText, type HubRequest } from './http.js';
import type { Hub } from './hub.js';

export interface HubRouterOptions {
  /** Reject requests whose Host header is not a loopback name (DNS rebinding). Default true. */
  localhostOnly?: boolean;
  /** The access token every request must bear; undefined turns access control off (--no-auth). */
  token?: string;
  /** Browser origins allowed besides the hub's own. */
  allowedOrigins?: string[];
  /** An MCP session without requests this long is closed (and what it created cleaned up). Default 30 min. */
  sessionIdleMs?: number;
  /** Requests per second /openspace/* serves (bursts of 4× that); more answer 429. Default 50. */
  openspaceRequestsPerSecond?: number;
  /**
   * MCP sessions open at once with one access token (the hub has one; with auth off, all sessions);
   * another initialize answers 429 until one is closed or expires. Default MAX_SESSIONS_PER_TOKEN.
   */
  maxSessions?: number;
  /**
   * Requests a client address may make per second that fail the access check (Host, Origin, token),
   * in bursts of FAILED_ACCESS_BURST; more answer 429 instead of 401/403. Default 10.
   */
  failedAccessPerSecond?: number;
}

/** MCP sessions one access token may hold open at once (an agent with subagents needs a few). */
export const MAX_SESSIONS_PER_TOKEN = 32;
/** Requests failing the access check a client address may send at once before it is slowed to failedAccessPerSecond. */
export const FAILED_ACCESS_BURST = 120;

/**
 * The hub's HTTP surface as connect-style middleware: mount it in any Express app
 * (`app.use(router)`, as Theia's backend does) or call it from a bare node:http server.
 */
export interface HubRouter {
  (req: HubRequest, res: ServerResponse, next?: (err?: unknown) => void): void;
  closeSessions(): Promise<void>;
}

const BODY_LIMIT = 16 * 1024 * 1024;
const RegisterBridgeBody = z.object({ bridgeId: z.string().min(1) });
const TurnBody = z.strictObject({ sessionId: z.string().min(1).optional() }).optional();

function jsonRpcError(res: ServerResponse, status: number, message: string, data?: Record<string, unknown>): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message, ...(data && { data }) }, id: null });
}

/**
 * /mcp (Streamable HTTP, one MCP server per session) and /openspace/* (instructions, state,
 * register-bridge, health). Everything else is passed to `next`.
 */
export function createHubRouter(hub: Hub, options: HubRouterOptions = {}): HubRouter {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const startedAt = Date.now();
  const access = { localhostOnly: options.localhostOnly ?? true, token: options.token, allowedOrigins: options.allowedOrigins ?? [] };
  const rate = options.openspaceRequestsPerSecond ?? 50;
  const openspaceBucket = new TokenBucket(rate, rate * 4);
  const maxSessions = options.maxSessions ?? MAX_SESSIONS_PER_TOKEN;
  /** Initializes under way, counted with the sessions so that many at once cannot pass the cap together. */
  let opening = 0;
  const failedAccess = new TokenBuckets(options.failedAccessPerSecond ?? 10, FAILED_ACCESS_BURST);
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const idleText = idleMs >= 60_000 ? `${Math.round(idleMs / 60_000)} min` : `${Math.ceil(idleMs / 1000)} s`;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, seen] of lastSeen) if (now - seen >= idleMs) void sessions.get(id)?.close();
    },
    Math.min(60_000, Math.max(10, idleMs / 4)),
  );
  sweeper.unref?.();

  async function mcp(req: HubRequest, res: ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    const transport = sessionId ? sessions.get(sessionId) : undefined;
    if (transport && sessionId) lastSeen.set(sessionId, Date.now());
    if (req.method !== 'POST') {
      if (!transport)
        return jsonRpcError(res, sessionId ? 404 : 400, sessionId ? `Unknown MCP session ${sessionId}.` : 'Missing mcp-session-id header.');
      return transport.handleRequest(req, res);
    }
    const body = await readJson(req, BODY_LIMIT);
    if (!transport) {
      if (sessionId) return jsonRpcError(res, 404, `Unknown MCP session ${sessionId}; initialize a new one.`);
      if (!isInitializeRequest(body))
        return jsonRpcError(res, 400, 'No MCP session: send initialize first (without an mcp-session-id header).');
      if (sessions.size + opening >= maxSessions) {
        return jsonRpcError(
          res,
          429,
          `This access token has ${sessions.size + opening} MCP sessions open, the most it may have at once (${maxSessions}). ` +
            'Close the sessions you no longer use (an HTTP DELETE to /mcp with their mcp-session-id header, which an MCP client ' +
            `sends when it closes), or wait: a session without requests for ${idleText} is closed.`,
          { limit: 'sessions', maxSessions },
        );
      }
      opening++;
      try {
        await initialize(req, res, body);
      } finally {
        opening--;
      }
      return;
    }
    await transport.handleRequest(req, res, body);
  }

  /** A new session: its transport and MCP server, then the initialize request handled by them. */
  async function initialize(req: HubRequest, res: ServerResponse, body: unknown): Promise<void> {
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, created);
        lastSeen.set(id, Date.now());
      },
    });
    created.onclose = () => {
      if (!created.sessionId) return;
      sessions.delete(created.sessionId);
      lastSeen.delete(created.sessionId);
    };
    const label = req.headers['x-openspace-label'];
    await hub.createMcpServer(typeof label === 'string' ? label.slice(0, 100) : undefined).connect(created);
    await created.handleRequest(req, res, body);
  }

  async function postState(req: HubRequest, res: ServerResponse): Promise<void> {
    const parsed = PaneStateSnapshot.safeParse(await readJson(req, BODY_LIMIT));
    if (!parsed.success) {
      return sendJson(res, 400, {
        success: false,
        code: 'INVALID_ARGUMENT',
        error: `Not a PaneStateSnapshot: ${z.prettifyError(parsed.error)}`,
      });
    }
    sendJson(res, 200, { success: true, accepted: hub.state.update(parsed.data) });
  }

  async function registerBridge(req: HubRequest, res: ServerResponse): Promise<void> {
    const parsed = RegisterBridgeBody.safeParse(await readJson(req, BODY_LIMIT));
    if (!parsed.success) {
      return sendJson(res, 400, {
        success: false,
        code: 'INVALID_ARGUMENT',
        error: 'Body must be {"bridgeId": "<id the IDE connected with>"}.',
      });
    }
    if (!hub.bridges.register(parsed.data.bridgeId)) {
      return sendJson(res, 404, {
        success: false,
        code: 'BRIDGE_UNAVAILABLE',
        error: `No IDE connection "${parsed.data.bridgeId}" is open to this hub; connect the IDE first, then register it.`,
      });
    }
    sendJson(res, 200, { success: true, bridgeId: parsed.data.bridgeId });
  }

  async function turn(req: HubRequest, res: ServerResponse): Promise<void> {
    const parsed = TurnBody.safeParse(await readJson(req, BODY_LIMIT));
    if (!parsed.success) {
      return sendJson(res, 400, {
        success: false,
        code: 'INVALID_ARGUMENT',
        error: 'Body must be empty (every session) or {"sessionId": "<MCP session ID>"}.',
      });
    }
    sendJson(res, 200, { success: true, sessions: hub.newTurn(parsed.data?.sessionId) });
  }

  function health(res: ServerResponse): void {
    sendJson(res, 200, {
      status: 'ok',
      bridge: { connected: hub.bridges.current !== undefined, bridgeId: hub.bridges.currentId },
      sessions: sessions.size,
      pendingCalls: hub.pendingCalls,
      tools: TOOLS.length,
      limits: { maxCallsPerTurn: hub.maxCallsPerTurn, maxSessions },
      uptimeMs: Date.now() - startedAt,
    });
  }

  async function route(req: HubRequest, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    if (path === undefined || (path !== '/mcp' && !path.startsWith('/openspace/'))) return false;
    const verdict = checkAccess(req, path, access);
    if (!verdict.ok) {
      // Per address, before anything else: a local process guessing tokens or flooding the port is slowed
      // down; clients with the token are not (they share the loopback address with it).
      const wait = failedAccess.take(clientKey(req.socket?.remoteAddress));
      if (wait > 0) {
        res.setHeader('retry-after', String(Math.ceil(wait)));
        jsonRpcError(res, 429, `Too many requests without a valid access token from this address; retry after ${wait.toFixed(2)} s.`, {
          limit: 'failedAccess',
        });
        return true;
      }
      if (verdict.status === 401) res.setHeader('www-authenticate', 'Bearer realm="openspace"');
      jsonRpcError(res, verdict.status, verdict.message);
      return true;
    }
    if (path !== '/mcp') {
      const wait = openspaceBucket.take();
      if (wait > 0) {
        res.setHeader('retry-after', String(Math.ceil(wait)));
        sendJson(res, 429, {
          success: false,
          code: 'RATE_LIMITED',
          error: `More than ${rate} requests a second to /openspace/*; retry after ${wait.toFixed(2)} s.`,
        });
        return true;
      }
    }
    if (path === '/mcp' && ['POST', 'GET', 'DELETE'].includes(method)) await mcp(req, res);
    else if (path === '/openspace/instructions' && method === 'GET')
      sendText(res, 200, 'text/markdown; charset=utf-8', hub.state.instructions);
    else if (path === '/openspace/state' && method === 'POST') await postState(req, res);
    else if (path === '/openspace/register-bridge' && method === 'POST') await registerBridge(req, res);
    else if (path === '/openspace/health' && method === 'GET') health(res);
    else if (path === '/openspace/turn' && method === 'POST') await turn(req, res);
    else return false;
    return true;
  }

  const router = ((req, res, next) => {
    route(req, res).then(
      (handled) => {
        if (handled) return;
        if (next) next();
        else sendJson(res, 404, { success: false, error: `No route ${req.method} ${req.url}` });
      },
      (err: unknown) => {
        if (res.headersSent) return res.end();
        if (err instanceof BodyError) return jsonRpcError(res, err.status, err.message);
        jsonRpcError(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }) as HubRouter;
  router.closeSessions = async () => {
    clearInterval(sweeper);
    await Promise.all([...sessions.values()].map((t) => t.close()));
    sessions.clear();
    await hub.settled();
  };
  return router;
}
