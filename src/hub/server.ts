import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lockFilePath, writeLockFile } from '../security/lock-file.js';
import { generateToken } from './auth.js';
import type { Hub } from './hub.js';
import { createHubRouter, type HubRouterOptions } from './router.js';

export interface HubServer {
  /** e.g. http://127.0.0.1:3100 */
  origin: string;
  mcpUrl: string;
  instructionsUrl: string;
  /** The bearer token clients must send; undefined with auth off. */
  token: string | undefined;
  /** Where the hub announced itself (URL and token, owner-readable only); undefined when not written. */
  lockFile: string | undefined;
  close(): Promise<void>;
}

export interface HubServerOptions extends Pick<HubRouterOptions, 'allowedOrigins' | 'sessionIdleMs'> {
  port?: number;
  host?: string;
  /** Require the access token (default true); false is `--no-auth`. */
  auth?: boolean;
  /** The token to require instead of a generated one (OPENSPACE_TOKEN); at least 32 characters. */
  token?: string;
  /** Write the lock file clients discover the hub by (default true). */
  lockFile?: boolean;
  ideName?: string;
  workspaceFolders?: string[];
}

/** The standalone hub: the router on a bare HTTP server, bound to loopback only. */
export async function startHubServer(hub: Hub, options: HubServerOptions = {}): Promise<HubServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.token !== undefined && options.token.length < 32) throw new Error('An access token must have at least 32 characters.');
  const token = options.auth === false ? undefined : (options.token ?? generateToken());
  const router = createHubRouter(hub, { token, allowedOrigins: options.allowedOrigins, sessionIdleMs: options.sessionIdleMs });
  const server: Server = createServer((req, res) => router(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  const mcpUrl = `${origin}/mcp`;
  const removeLock =
    options.lockFile === false
      ? undefined
      : await writeLockFile(port, {
          pid: process.pid,
          ideName: options.ideName ?? 'OpenSpace',
          url: origin,
          mcpUrl,
          authToken: token,
          workspaceFolders: options.workspaceFolders ?? [],
          startedAt: new Date().toISOString(),
        });
  return {
    origin,
    mcpUrl,
    instructionsUrl: `${origin}/openspace/instructions`,
    token,
    lockFile: removeLock ? lockFilePath(port) : undefined,
    async close() {
      await removeLock?.();
      await router.closeSessions();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
