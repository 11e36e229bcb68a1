import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { localhostHostValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PaneStateSnapshot, TOOLS } from '../contract/index.js';
import type { Hub } from './hub.js';

export interface HubRouterOptions {
  /** Reject requests whose Host header is not a loopback name (DNS rebinding). Default true. */
  localhostOnly?: boolean;
}

const RegisterBridgeBody = z.object({ bridgeId: z.string().min(1) });

function jsonRpcError(res: Response, status: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * The hub's HTTP surface as an Express router, to mount in any Express app (the standalone server,
 * Theia's backend): /mcp (Streamable HTTP, one MCP server per session) and /openspace/*.
 */
export function createHubRouter(hub: Hub, options: HubRouterOptions = {}): Router & { closeSessions(): Promise<void> } {
  const router = express.Router();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const startedAt = Date.now();

  if (options.localhostOnly ?? true) router.use(['/mcp', '/openspace'], localhostHostValidation());
  router.use(['/mcp', '/openspace'], express.json({ limit: '16mb' }));

  router.post('/mcp', async (req: Request, res: Response) => {
    const sessionId = req.header('mcp-session-id');
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) return jsonRpcError(res, 404, `Unknown MCP session ${sessionId}; initialize a new one.`);
      if (!isInitializeRequest(req.body)) return jsonRpcError(res, 400, 'No MCP session: send initialize first (without an mcp-session-id header).');
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await hub.createMcpServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.body);
  });

  const sessionRequest = async (req: Request, res: Response) => {
    const sessionId = req.header('mcp-session-id');
    const transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) return jsonRpcError(res, sessionId ? 404 : 400, sessionId ? `Unknown MCP session ${sessionId}.` : 'Missing mcp-session-id header.');
    await transport.handleRequest(req, res);
  };
  router.get('/mcp', sessionRequest);
  router.delete('/mcp', sessionRequest);

  router.get('/openspace/instructions', (_req, res) => {
    res.type('text/markdown; charset=utf-8').send(hub.state.instructions);
  });

  router.post('/openspace/state', (req, res) => {
    const parsed = PaneStateSnapshot.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ success: false, code: 'INVALID_ARGUMENT', error: `Not a PaneStateSnapshot: ${z.prettifyError(parsed.error)}` });
      return;
    }
    res.json({ success: true, accepted: hub.state.update(parsed.data) });
  });

  router.post('/openspace/register-bridge', (req, res) => {
    const parsed = RegisterBridgeBody.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ success: false, code: 'INVALID_ARGUMENT', error: 'Body must be {"bridgeId": "<id the IDE connected with>"}.' });
      return;
    }
    if (!hub.bridges.register(parsed.data.bridgeId)) {
      res.status(404).json({
        success: false,
        code: 'BRIDGE_UNAVAILABLE',
        error: `No IDE connection "${parsed.data.bridgeId}" is open to this hub; connect the IDE first, then register it.`,
      });
      return;
    }
    res.json({ success: true, bridgeId: parsed.data.bridgeId });
  });

  router.get('/openspace/health', (_req, res) => {
    res.json({
      status: 'ok',
      bridge: { connected: hub.bridges.current !== undefined, bridgeId: hub.bridges.currentId },
      sessions: sessions.size,
      tools: TOOLS.length,
      uptimeMs: Date.now() - startedAt,
    });
  });

  return Object.assign(router, {
    async closeSessions() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      sessions.clear();
    },
  });
}
