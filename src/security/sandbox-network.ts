/**
 * The sandbox's network (Node only). A sandboxed shell runs with `--unshare-net`: it has a loopback
 * of its own and nothing else. What it may reach goes through a proxy outside, on a unix socket
 * bound into the sandbox, that checks each host and port against the person's allowlist
 * (openspace.security.sandbox.allowedHosts), as Claude Code's sandbox-runtime does:
 *
 *   program inside ──TCP──▶ forwarder inside (127.0.0.1:3128, and the allowed local ports)
 *                  ──unix socket──▶ proxy outside (startNetworkProxy) ──TCP──▶ allowed host
 *
 * The proxy resolves names outside (the sandbox has no DNS), speaks CONNECT (HTTPS, any TLS) and
 * plain HTTP with absolute URLs, which is what HTTP_PROXY means to curl, npm, pip, git and Go.
 *
 * A known limit: inside a CONNECT tunnel the proxy sees only encrypted bytes, so a client may name
 * an allowed host to the proxy and another in its TLS handshake (domain fronting on a shared CDN).
 * Plain HTTP cannot: the proxy sets the Host header from the URL it checked.
 */
import { promises as dns } from 'node:dns';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { NETWORK_DIRECTORY_INSIDE, SANDBOX_ALLOWED_HOSTS_SETTING } from './sandbox.js';

/**
 * The package registries a developer's everyday installs need (kept in sandbox.ts, which the
 * settings and Theia's window read too). Deliberately not github.com nor any host an agent could
 * push to: that is where an attacker's pushes land, and what leaves through an allowed host leaves
 * for good. Nor deb.debian.org: apt needs root and a writable system, which the sandbox has not.
 */
export { DEFAULT_ALLOWED_HOSTS } from './sandbox.js';

/** The ports a pattern without one allows: HTTP and HTTPS, what registries and their CDNs serve on. */
const DEFAULT_PORTS: readonly number[] = [80, 443];

/** The names of the host's own loopback: one host, whichever a program or a person writes. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * A host as the allowlist compares it: lower case, without a trailing dot or IPv6 brackets, IPv6
 * in its short form; `loopback` for any of the loopback names. Undefined for anything that is not
 * a plain name or IP literal: userinfo (`a@b`), paths, spaces, empty labels, and numbers that
 * resolvers read as addresses although they are not written as one (`2130706433`, `127.1`,
 * `0x7f000001`: a name's last label is never numeric).
 */
function canonicalHost(host: string): { kind: 'loopback' | 'ip' | 'name'; name: string } | undefined {
  let name = host.toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  else if (name.endsWith('.')) name = name.slice(0, -1);
  if (isIP(name) === 6) name = new URL(`http://[${name}]`).hostname.slice(1, -1);
  if (LOOPBACK_NAMES.has(name)) return { kind: 'loopback', name: 'localhost' };
  if (isIP(name)) return { kind: 'ip', name };
  const labels = name.split('.');
  if (name.length > 253 || labels.some((label) => !/^[a-z0-9_-]{1,63}$/.test(label))) return undefined;
  if (/^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) return undefined;
  return { kind: 'name', name };
}

interface Pattern {
  hosts: 'any' | 'subdomains' | 'exact';
  name: string;
  kind: 'loopback' | 'ip' | 'name';
  /** Absent: 80 and 443. */
  port?: number;
}

/** A pattern as written in the settings, or undefined when it cannot match anything. */
function parsePattern(pattern: string): Pattern | undefined {
  // `[::1]:3000`, `host:port`, `host`, or an IPv6 literal without a port (more than one colon).
  const split = /^(\[[^\]]*\])(?::(\d+))?$/.exec(pattern) ?? /^([^:]*)(?::(\d+))?$/.exec(pattern) ?? [pattern, pattern, undefined];
  const [, host = '', portText] = split;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !validPort(port)) return undefined;
  if (host === '*') return { hosts: 'any', name: '*', kind: 'name', port };
  const wildcard = host.startsWith('*.');
  const canonical = canonicalHost(wildcard ? host.slice(2) : host);
  if (!canonical || (wildcard && canonical.kind !== 'name')) return undefined;
  return { hosts: wildcard ? 'subdomains' : 'exact', ...canonical, port };
}

export function validPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/**
 * Whether `patterns` (openspace.security.sandbox.allowedHosts) let the sandbox reach `host:port`.
 *
 * - `registry.npmjs.org`: that host on ports 80 and 443 (a pattern without a port means those two);
 * - `example.com:8443`: that host on that port only;
 * - `*.pythonhosted.org`: any subdomain (`files.pythonhosted.org`, `a.b.pythonhosted.org`), not the
 *   bare domain, which a person allows by naming it too: a wildcard says "the hosts under", and
 *   the bare domain is often a different service;
 * - `localhost:3000` (or `127.0.0.1:3000`, `[::1]:3000`: one host): that port on the host's own
 *   loopback; `localhost` without a port means 80 and 443 there, like any other host;
 * - `*`: any host name on 80 and 443, never an IP literal nor the loopback.
 *
 * Names compare case-insensitively, a trailing dot ignored; IP literals match only the same
 * literal. A host that is not a plain name or IP literal (`registry.npmjs.org@evil.com`) matches
 * nothing.
 */
export function hostAllowed(patterns: readonly string[], host: string, port: number): boolean {
  const target = canonicalHost(host);
  if (!target || !validPort(port)) return false;
  return patterns.some((text) => {
    const pattern = parsePattern(text);
    if (!pattern || !(pattern.port === undefined ? DEFAULT_PORTS.includes(port) : pattern.port === port)) return false;
    if (pattern.hosts === 'any') return target.kind === 'name';
    if (pattern.hosts === 'subdomains') return target.kind === 'name' && target.name.endsWith(`.${pattern.name}`);
    return target.kind === pattern.kind && target.name === pattern.name;
  });
}

/**
 * The host's loopback ports `patterns` allow that the forwarder can serve inside: 1024 and up
 * (binding a lower port needs a capability the sandbox has not; those stay reachable through the
 * proxy, `curl --proxy http://127.0.0.1:3128 http://localhost:80`), and not the proxy's own port.
 */
export function allowedLocalPorts(patterns: readonly string[]): number[] {
  const ports = patterns
    .map(parsePattern)
    .filter((pattern) => pattern?.hosts === 'exact' && pattern.kind === 'loopback')
    .flatMap((pattern) => (pattern?.port === undefined ? [] : [pattern.port]));
  return [...new Set(ports)].filter((port) => port >= 1024 && port !== PROXY_PORT_INSIDE).sort((a, b) => a - b);
}

/** Where the proxy listens inside the sandbox (the forwarder's port; squid's, so tools' docs apply). */
export const PROXY_PORT_INSIDE = 3128;

/** The proxy's socket inside: in the directory bwrap binds at NETWORK_DIRECTORY_INSIDE (sandbox.ts). */
export const SOCKET_PATH_INSIDE = `${NETWORK_DIRECTORY_INSIDE}/proxy.sock`;

/**
 * The variables that send a sandboxed program's traffic to the proxy (add them to the sandbox's
 * environment). What honours what:
 * - curl and git (libcurl): `http_proxy` in lower case only (the upper case one is ignored against
 *   CGI's httpoxy), `HTTPS_PROXY` in either case, `no_proxy`;
 * - pip (requests), Go, cargo, Bun, Deno, Python's urllib: either case;
 * - npm 11 reads `https_proxy`, `http_proxy` and `no_proxy` in any case, but a project's .npmrc
 *   setting `proxy` would win over them; `npm_config_*` variables win over every .npmrc;
 * - Yarn 2+ reads only its own `YARN_HTTP(S)_PROXY`;
 * - Node's own http and fetch only with NODE_USE_ENV_PROXY=1 (Node 22.21 and 24.5 on; ignored before).
 * Java tools read proxies from their own settings, not the environment.
 *
 * NO_PROXY holds the loopback names: inside, they are the sandbox's own loopback, where an agent's
 * test servers listen and where the forwarder serves the host's allowed local ports, so traffic
 * there must go direct. Sent to the proxy, it would reach the host's loopback instead.
 */
export function proxyEnvironment(): Record<string, string> {
  const proxy = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
  const direct = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: direct,
    no_proxy: direct,
    npm_config_proxy: proxy,
    npm_config_https_proxy: proxy,
    npm_config_noproxy: direct,
    YARN_HTTP_PROXY: proxy,
    YARN_HTTPS_PROXY: proxy,
    NODE_USE_ENV_PROXY: '1',
  };
}

export interface NetworkProxyOptions {
  /** Where the proxy listens: a fresh path in a directory only this user can enter. */
  socketPath: string;
  /**
   * Whether the sandbox may reach `host:port` (usually hostAllowed with the person's patterns). A
   * name that resolves to the host's own loopback is reached only when `allow('localhost', port)`.
   */
  allow: (host: string, port: number) => boolean;
  /** Told of every refused host, to show the person what to allow. */
  onDenied?: (host: string, port: number) => void;
  /** How names resolve (default: the system's resolver, as other programs outside). */
  resolve?: (host: string) => Promise<string[]>;
}

/** How long the proxy tries to reach a host before answering 502. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Addresses that are the host itself (loopback, and the unspecified ones, which Linux connects to
 * the loopback): a name that resolves there reaches the person's local services, so it must be
 * allowed as localhost. IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
const HOST_ITSELF = new BlockList();
HOST_ITSELF.addSubnet('127.0.0.0', 8, 'ipv4');
HOST_ITSELF.addSubnet('0.0.0.0', 8, 'ipv4');
HOST_ITSELF.addAddress('::1', 'ipv6');
HOST_ITSELF.addAddress('::', 'ipv6');

/** Link-local addresses (the cloud's metadata service at 169.254.169.254): only as an IP literal the person allowed. */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

function isIn(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** A refusal or failure the proxy answers with, in words an agent can act on. */
class ProxyError extends Error {
  constructor(
    readonly status: 400 | 403 | 502,
    message: string,
  ) {
    super(message);
  }
}

/** `host:port` as a person writes it, IPv6 in brackets. */
function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * The HTTP proxy the sandbox's forwarder talks to, on a unix socket. It answers `CONNECT host:port`
 * with a tunnel and forwards plain-HTTP requests with absolute URLs; a host not allowed gets 403,
 * one it cannot reach 502, each with a one-line plain-text reason. `close` ends every connection
 * and removes the socket.
 */
export async function startNetworkProxy(options: NetworkProxyOptions): Promise<{ close(): Promise<void> }> {
  const resolve = options.resolve ?? (async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address));
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };

  /** A connection to `host:port` once the rules and the resolved addresses allow it. */
  async function reach(rawHost: string, port: number): Promise<Socket> {
    const target = canonicalHost(rawHost);
    const host = target?.kind === 'loopback' ? 'localhost' : (target?.name ?? rawHost);
    const deny = (message: string) => {
      options.onDenied?.(host, port);
      return new ProxyError(403, `openspace sandbox: ${message} (the person allows hosts in ${SANDBOX_ALLOWED_HOSTS_SETTING})`);
    };
    if (!target || !validPort(port) || !options.allow(host, port)) throw deny(`${hostPort(host, port)} is not an allowed host`);
    let addresses: string[];
    if (target.kind === 'loopback') addresses = ['127.0.0.1', '::1'];
    else if (target.kind === 'ip') addresses = [target.name];
    else {
      try {
        addresses = await resolve(target.name);
      } catch (error) {
        throw new ProxyError(502, `openspace sandbox: cannot resolve ${target.name}: ${(error as Error).message}`);
      }
    }
    const local = addresses.find((address) => isIn(HOST_ITSELF, address));
    if (local && !options.allow('localhost', port))
      throw deny(`${hostPort(host, port)} resolves to ${local}, this machine's own address; only localhost:${port} reaches it`);
    const linkLocal = addresses.find((address) => isIn(LINK_LOCAL, address));
    if (linkLocal && target.kind === 'name') throw deny(`${hostPort(host, port)} resolves to the link-local address ${linkLocal}`);
    let lastError: Error | undefined;
    for (const address of addresses) {
      try {
        return await connectTo(address, port);
      } catch (error) {
        lastError = error as Error;
      }
    }
    throw new ProxyError(502, `openspace sandbox: cannot reach ${hostPort(host, port)}: ${lastError?.message ?? 'it has no address'}`);
  }

  function connectTo(address: string, port: number): Promise<Socket> {
    return new Promise((resolved, rejected) => {
      const socket = connect({ host: address, port, allowHalfOpen: true, timeout: CONNECT_TIMEOUT_MS });
      const fail = (error: Error) => {
        socket.destroy();
        rejected(error);
      };
      socket.once('error', fail);
      socket.once('timeout', () => fail(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)));
      socket.once('connect', () => {
        socket.off('error', fail).setTimeout(0);
        track(socket);
        resolved(socket);
      });
    });
  }

  function refuse(client: Duplex, error: unknown): void {
    const { status, message } =
      error instanceof ProxyError ? error : { status: 502 as const, message: `openspace sandbox: ${String(error)}` };
    const body = `${message}\n`;
    const reason = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' }[status];
    client.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const authority = /^(\[[0-9a-fA-F:.]+\]|[^\s:@/[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    let upstream: Socket;
    try {
      if (!authority) throw new ProxyError(400, `openspace sandbox: CONNECT needs host:port, not ${JSON.stringify(req.url)}`);
      upstream = await reach(authority[1]!, Number(authority[2]));
    } catch (error) {
      return refuse(client, error);
    }
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.pipe(client);
    client.pipe(upstream);
  }

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${message}\n`);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error();
    } catch {
      return reply(400, 'openspace sandbox: this is a proxy: send an absolute http:// URL, or CONNECT host:port for anything else');
    }
    let upstream: Socket;
    try {
      upstream = await reach(url.hostname, Number(url.port || 80));
    } catch (error) {
      const { status, message } = error instanceof ProxyError ? error : { status: 502, message: String(error) };
      return reply(status, message);
    }
    const headers = withoutHopByHop(req.headers);
    // The host checked, not whatever the client wrote: no reaching another site behind the same address.
    headers.host = url.host;
    headers.connection = 'close';
    const outgoing = request({ createConnection: () => upstream, method: req.method, path: `${url.pathname}${url.search}`, headers });
    outgoing.on('response', (incoming) => {
      res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, withoutHopByHop(incoming.headers));
      incoming.pipe(res);
    });
    outgoing.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else reply(502, `openspace sandbox: ${hostPort(url.hostname, Number(url.port || 80))} failed: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(outgoing);
  }

  // Whatever a sandboxed program sends ends its own connection at worst, never the IDE.
  const server = createServer((req, res) => forward(req, res).catch(() => res.destroy()));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => tunnel(req, client, head).catch(() => client.destroy()));
  server.on('connection', track);
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.socketPath, () => {
      server.off('error', failed);
      listening();
    });
  });
  return {
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        for (const socket of open) socket.destroy();
      }),
  };
}

/** Headers that describe one connection, not the message: never passed on by a proxy (RFC 9110 §7.6.1). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !named.includes(name)));
}
