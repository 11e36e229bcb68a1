import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hub } from './hub.js';
import { createHubRouter } from './router.js';

export interface HubServer {
  /** e.g. http://127.0.0.1:3100 */
  origin: string;
  mcpUrl: string;
  instructionsUrl: string;
  close(): Promise<void>;
}

/** The standalone hub: the router on a bare HTTP server, bound to loopback only. */
export async function startHubServer(hub: Hub, options: { port?: number; host?: string } = {}): Promise<HubServer> {
  const host = options.host ?? '127.0.0.1';
  const router = createHubRouter(hub);
  const server: Server = createServer((req, res) => router(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
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
