import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Hub } from './hub.js';
import { createHubRouter } from './router.js';

export interface HubServer {
  /** e.g. http://127.0.0.1:3100 */
  origin: string;
  mcpUrl: string;
  instructionsUrl: string;
  close(): Promise<void>;
}

/** The standalone hub: the router on its own Express app, bound to loopback only. */
export async function startHubServer(hub: Hub, options: { port?: number; host?: string } = {}): Promise<HubServer> {
  const host = options.host ?? '127.0.0.1';
  const app = express();
  app.disable('x-powered-by');
  const router = createHubRouter(hub);
  app.use(router);
  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const s = app.listen(options.port ?? 0, host);
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    instructionsUrl: `${origin}/openspace/instructions`,
    async close() {
      await router.closeSessions();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
