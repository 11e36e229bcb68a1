import { execFile, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { AllowedHostSetting, NETWORK_DIRECTORY_INSIDE } from './sandbox.js';
import { FORWARDER_SOURCE, networkLaunch } from './sandbox-forwarder.js';
import { probeBwrap, systemSocat } from './sandbox-host.js';
import {
  allowedLocalPorts,
  DEFAULT_ALLOWED_HOSTS,
  hostAllowed,
  PROXY_PORT_INSIDE,
  proxyEnvironment,
  SOCKET_PATH_INSIDE,
  startNetworkProxy,
} from './sandbox-network.js';

describe('which hosts the sandbox may reach', () => {
  const patterns = ['registry.npmjs.org', '*.pythonhosted.org', 'example.com:8443', 'localhost:3000', '10.1.2.3'];
  const cases: [host: string, port: number, allowed: boolean][] = [
    ['registry.npmjs.org', 443, true],
    ['registry.npmjs.org', 80, true],
    ['registry.npmjs.org', 8080, false],
    ['REGISTRY.NPMJS.ORG', 443, true],
    ['registry.npmjs.org.', 443, true],
    ['registry.npmjs.org..', 443, false],
    ['npmjs.org', 443, false],
    ['evil.registry.npmjs.org', 443, false],
    ['registry.npmjs.org.evil.com', 443, false],
    ['evil.com.registry.npmjs.org.attacker', 443, false],
    ['registry-npmjs.org', 443, false],
    ['registry.npmjs.org@evil.com', 443, false],
    ['evil.com@registry.npmjs.org', 443, false],
    ['registry.npmjs.org:443', 443, false],
    ['registry.npmjs.org/x', 443, false],
    ['registry.npmjs.org ', 443, false],
    ['', 443, false],
    ['files.pythonhosted.org', 443, true],
    ['a.b.pythonhosted.org', 443, true],
    ['pythonhosted.org', 443, false],
    ['evilpythonhosted.org', 443, false],
    ['files.pythonhosted.org', 22, false],
    ['example.com', 8443, true],
    ['example.com', 443, false],
    ['localhost', 3000, true],
    ['LOCALHOST.', 3000, true],
    ['127.0.0.1', 3000, true],
    ['::1', 3000, true],
    ['[::1]', 3000, true],
    ['0:0:0:0:0:0:0:1', 3000, true],
    ['localhost', 3001, false],
    ['127.0.0.2', 3000, false],
    ['0.0.0.0', 3000, false],
    ['2130706433', 3000, false],
    ['127.1', 3000, false],
    ['0x7f000001', 3000, false],
    ['app.localhost', 3000, false],
    ['10.1.2.3', 443, true],
    ['10.1.2.3', 3000, false],
    ['010.1.2.3', 443, false],
    ['registry.npmjs.org', 0, false],
    ['registry.npmjs.org', 443.5, false],
    ['registry.npmjs.org', 70000, false],
  ];

  it.each(cases)('%s:%d → %s', (host, port, allowed) => {
    expect(hostAllowed(patterns, host, port)).toBe(allowed);
  });

  it('lets `*` reach any host name on 80 and 443, never an IP literal nor the loopback', () => {
    expect(hostAllowed(['*'], 'anything.example', 443)).toBe(true);
    expect(hostAllowed(['*'], 'anything.example', 22)).toBe(false);
    expect(hostAllowed(['*'], '203.0.113.7', 443)).toBe(false);
    expect(hostAllowed(['*'], 'localhost', 443)).toBe(false);
    expect(hostAllowed(['*.example.com'], 'localhost', 443)).toBe(false);
  });

  it('takes the loopback in any of its names, and IPv6 literals in brackets', () => {
    expect(hostAllowed(['127.0.0.1:5173'], 'localhost', 5173)).toBe(true);
    expect(hostAllowed(['[::1]:5173'], '127.0.0.1', 5173)).toBe(true);
    expect(hostAllowed(['[2001:db8::1]:8080'], '2001:db8:0::1', 8080)).toBe(true);
    expect(hostAllowed(['localhost'], 'localhost', 80)).toBe(true);
  });

  it('matches nothing with a pattern it cannot read', () => {
    for (const bad of ['', 'example.com:0', 'example.com:99999', 'example.com:http', '*.', '*.10.0.0.1', 'a@b.com', '**.example.com'])
      expect(hostAllowed([bad], 'example.com', 443), bad).toBe(false);
    expect(hostAllowed([], 'registry.npmjs.org', 443)).toBe(false);
  });

  it('allows the package registries by default, and no host where an agent could push', () => {
    expect(DEFAULT_ALLOWED_HOSTS).toEqual(
      expect.arrayContaining(['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org', 'crates.io']),
    );
    expect(DEFAULT_ALLOWED_HOSTS.filter((host) => /github|gitlab|bitbucket/.test(host))).toEqual([]);
    for (const host of DEFAULT_ALLOWED_HOSTS) {
      expect(AllowedHostSetting.safeParse(host).success, host).toBe(true);
      expect(hostAllowed(DEFAULT_ALLOWED_HOSTS, host, 443), host).toBe(true);
    }
  });

  it("serves inside the loopback ports the forwarder can listen on (1024 and up, not the proxy's)", () => {
    expect(
      allowedLocalPorts([
        'localhost:3000',
        '127.0.0.1:5173',
        '[::1]:3000',
        'localhost:80',
        'localhost',
        'localhost:3128',
        'example.com:4000',
      ]),
    ).toEqual([3000, 5173]);
  });
});

describe('what a sandboxed program is told about the proxy', () => {
  it('sends every usual client to the forwarder, and the loopback direct', () => {
    const env = proxyEnvironment();
    const proxy = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'npm_config_proxy', 'npm_config_https_proxy'])
      expect(env[name], name).toBe(proxy);
    expect(env.NO_PROXY!.split(',')).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '::1']));
    expect(env.no_proxy).toBe(env.NO_PROXY);
    expect(SOCKET_PATH_INSIDE.startsWith(`${NETWORK_DIRECTORY_INSIDE}/`)).toBe(true);
  });

  it('launches the forwarder only with ports it can serve, and something to run after it', () => {
    const nodePath = process.execPath;
    expect(() => networkLaunch({ nodePath, localPorts: [] }, [])).toThrow(/command/);
    for (const port of [0, 80, PROXY_PORT_INSIDE, 70000, 3000.5])
      expect(() => networkLaunch({ nodePath, localPorts: [port] }, ['/bin/sh']), String(port)).toThrow(/cannot serve/);
    const launch = networkLaunch({ nodePath: '/opt/my node/bin/node', localPorts: [3000] }, ['/bin/bash', '-c', 'echo "$HOME"']);
    expect(launch.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(launch.slice(3)).toEqual(['/opt/my node/bin/node', FORWARDER_SOURCE, SOCKET_PATH_INSIDE, '/bin/bash', '-c', 'echo "$HOME"']);
  });

  it('says in one line when the forwarder cannot listen, and exits', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const run = spawnSync(process.execPath, ['-e', FORWARDER_SOURCE, '/nonexistent.sock', String(port)], {
      encoding: 'utf8',
      timeout: 5000,
    });
    taken.close();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^openspace sandbox: no network, cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*\\n$`));
  });
});

// Outside /tmp, which the sandbox replaces with a private one.
const base = mkdtempSync('/var/tmp/openspace-sandbox-network-');
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A web server that answers with what it received, on 127.0.0.1 or `host`. */
async function webServer(host = '127.0.0.1') {
  const received: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    res.end(`hello ${req.url}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

/** A listener that must never be reached: it counts the connections it gets. */
async function canaryServer() {
  const canary = { connections: 0, server: undefined as unknown as Server, port: 0 };
  canary.server = createServer((socket) => {
    canary.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.server.listen(0, '127.0.0.1', resolve));
  canary.port = (canary.server.address() as AddressInfo).port;
  return canary;
}

/** An HTTP request through the proxy's socket, as the forwarder passes a client's on. */
function viaProxy(socketPath: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

/** `CONNECT authority` on the proxy's socket; the reply's head, and what the tunnel answers to `send`. */
async function tunnelThrough(socketPath: string, authority: string, send = ''): Promise<{ head: string; answer: string }> {
  const socket = connect(socketPath);
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n${send}`);
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  await once(socket, 'end');
  socket.destroy();
  const split = text.indexOf('\r\n\r\n');
  return { head: text.slice(0, split), answer: text.slice(split + 4) };
}

describe('the proxy outside the sandbox', () => {
  const denied: string[] = [];
  let allowed: Awaited<ReturnType<typeof webServer>>;
  let canary: Awaited<ReturnType<typeof canaryServer>>;
  let socketPath: string;
  let proxy: { close(): Promise<void> };
  const names: Record<string, string[]> = {};

  beforeAll(async () => {
    allowed = await webServer();
    canary = await canaryServer();
    const patterns = [
      `localhost:${allowed.port}`,
      `rebound.test:${canary.port}`,
      `rebound.test:${allowed.port}`,
      'metadata.test',
      'missing.test',
    ];
    names['rebound.test'] = ['127.0.0.1'];
    names['metadata.test'] = ['169.254.169.254'];
    socketPath = join(mkdtempSync(join(base, 'proxy-')), 'proxy.sock');
    proxy = await startNetworkProxy({
      socketPath,
      allow: (host, port) => hostAllowed(patterns, host, port),
      onDenied: (host, port) => denied.push(`${host}:${port}`),
      resolve: async (host) => {
        if (names[host]) return names[host];
        throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      },
    });
  });
  afterAll(async () => {
    allowed.server.close();
    canary.server.close();
    await proxy.close();
  });

  it('tunnels CONNECT to an allowed host', async () => {
    const { head, answer } = await tunnelThrough(
      socketPath,
      `localhost:${allowed.port}`,
      'GET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(head).toBe('HTTP/1.1 200 Connection Established');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*hello \/tunnelled\n$/);
  });

  it('forwards a plain HTTP request with its absolute URL, without hop-by-hop headers, to the host it checked', async () => {
    const reply = await viaProxy(socketPath, `http://127.0.0.1:${allowed.port}/plain?q=1`, {
      host: 'other.example',
      'proxy-authorization': 'Basic c2VjcmV0',
      connection: 'keep-alive, x-hop',
      'x-hop': 'hop',
      'x-end': 'end',
    });
    expect(reply).toEqual({ status: 200, body: 'hello /plain?q=1\n' });
    const { url, headers } = allowed.received.at(-1)!;
    expect(url).toBe('/plain?q=1');
    expect(headers).toMatchObject({ host: `127.0.0.1:${allowed.port}`, 'x-end': 'end' });
    expect(headers).not.toHaveProperty('proxy-authorization');
    expect(headers).not.toHaveProperty('x-hop');
  });

  it('refuses hosts not allowed with 403 and a reason an agent can act on, and never connects', async () => {
    const tunnel = await tunnelThrough(socketPath, `127.0.0.1:${canary.port}`);
    expect(tunnel.head).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(tunnel.answer).toBe(
      `openspace sandbox: localhost:${canary.port} is not an allowed host (the person allows hosts in openspace.security.sandbox.allowedHosts)\n`,
    );
    expect(await viaProxy(socketPath, 'http://example.com/')).toEqual({
      status: 403,
      body: 'openspace sandbox: example.com:80 is not an allowed host (the person allows hosts in openspace.security.sandbox.allowedHosts)\n',
    });
    // Userinfo names a host the request does not go to: the URL's host is checked, a CONNECT with it is no authority.
    expect((await viaProxy(socketPath, `http://localhost:${allowed.port}@example.com/`)).status).toBe(403);
    expect((await tunnelThrough(socketPath, `localhost:${allowed.port}@example.com:443`)).head).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(denied).toEqual(expect.arrayContaining([`localhost:${canary.port}`, 'example.com:80']));
    expect(canary.connections).toBe(0);
  });

  it('refuses a name that resolves to the loopback unless that port is allowed as localhost, and link-local names', async () => {
    const rebound = await viaProxy(socketPath, `http://rebound.test:${canary.port}/`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/resolves to 127\.0\.0\.1, this machine's own address; only localhost:\d+ reaches it/);
    expect(canary.connections).toBe(0);
    expect(await viaProxy(socketPath, `http://rebound.test:${allowed.port}/rebound`)).toEqual({ status: 200, body: 'hello /rebound\n' });
    const metadata = await viaProxy(socketPath, 'http://metadata.test/latest/meta-data/');
    expect(metadata.status).toBe(403);
    expect(metadata.body).toMatch(/link-local address 169\.254\.169\.254/);
  });

  it('answers 502 with the reason when an allowed host cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const allowAll = join(mkdtempSync(join(base, 'proxy-')), 'proxy.sock');
    const other = await startNetworkProxy({ socketPath: allowAll, allow: () => true });
    try {
      const refused = await viaProxy(allowAll, `http://localhost:${port}/`);
      expect(refused.status).toBe(502);
      expect(refused.body).toMatch(new RegExp(`^openspace sandbox: cannot reach localhost:${port}: connect ECONNREFUSED`));
      expect((await tunnelThrough(allowAll, `localhost:${port}`)).head).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    } finally {
      await other.close();
    }
    const unknown = await viaProxy(socketPath, 'http://missing.test/');
    expect(unknown).toEqual({ status: 502, body: 'openspace sandbox: cannot resolve missing.test: getaddrinfo ENOTFOUND missing.test\n' });
  });

  it('tells a client that is not speaking to a proxy what to send', async () => {
    const reply = await viaProxy(socketPath, '/relative');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/send an absolute http:\/\/ URL, or CONNECT host:port/);
  });

  it('reaches the address an allowed name resolves to', async (t) => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!address) return t.skip('this machine has no address besides the loopback to stand in for a registry');
    const registry = await webServer(address);
    const path = join(mkdtempSync(join(base, 'proxy-')), 'proxy.sock');
    const other = await startNetworkProxy({
      socketPath: path,
      allow: (host, port) => hostAllowed([`registry.test:${registry.port}`], host, port),
      resolve: async () => [address],
    });
    try {
      expect(await viaProxy(path, `http://REGISTRY.test.:${registry.port}/pkg`)).toEqual({ status: 200, body: 'hello /pkg\n' });
    } finally {
      await other.close();
      registry.server.close();
    }
  });

  it('ends its connections and removes its socket when closed', async () => {
    const path = join(mkdtempSync(join(base, 'proxy-')), 'proxy.sock');
    const other = await startNetworkProxy({ socketPath: path, allow: () => true });
    const held = connect(path);
    held.write(`CONNECT localhost:${allowed.port} HTTP/1.1\r\n\r\n`);
    await once(held, 'data');
    const ended = once(held, 'close');
    await other.close();
    await ended;
    expect(existsSync(path)).toBe(false);
  });
});

describe.for([
  { forwarder: 'Node', socat: undefined },
  { forwarder: 'socat', socat: systemSocat() },
])('a sandbox with the network through the proxy (real bubblewrap, the $forwarder forwarder)', ({ forwarder, socat }) => {
  const bwrap = probeBwrap();
  const skipWithout = (t: TestContext) => {
    if (!bwrap.available) t.skip(`no sandbox on this machine: ${bwrap.reason}`);
    if (forwarder === 'socat' && !socat) t.skip('socat or setsid is not installed: terminals use the Node forwarder');
  };
  const curl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
  const denied: string[] = [];
  /** Reached through the forwarder's local port. */
  let forwarded: Awaited<ReturnType<typeof webServer>>;
  /** Allowed, but no local port inside: only through the proxy. */
  let proxiedOnly: Awaited<ReturnType<typeof webServer>>;
  let canary: Awaited<ReturnType<typeof canaryServer>>;
  let socketDirectory: string;
  let proxy: { close(): Promise<void> };

  beforeAll(async () => {
    forwarded = await webServer();
    proxiedOnly = await webServer();
    canary = await canaryServer();
    socketDirectory = mkdtempSync(join(base, 'network-'));
    const patterns = [`localhost:${forwarded.port}`, `127.0.0.1:${proxiedOnly.port}`];
    proxy = await startNetworkProxy({
      socketPath: join(socketDirectory, 'proxy.sock'),
      allow: (host, port) => hostAllowed(patterns, host, port),
      onDenied: (host, port) => denied.push(`${host}:${port}`),
    });
  });
  afterAll(async () => {
    forwarded.server.close();
    proxiedOnly.server.close();
    canary.server.close();
    await proxy?.close();
  });

  /** Run `shell` in bwrap with the network launcher first (asynchronously: the proxy is in this process). */
  function inSandbox(shell: string[], options: string[] = []): Promise<{ status: number; stdout: string; stderr: string }> {
    const launch = networkLaunch({ nodePath: process.execPath, localPorts: [forwarded.port], socat }, shell);
    const args = [
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
      ...['--bind', socketDirectory, NETWORK_DIRECTORY_INSIDE],
      ...['--unshare-net', '--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL', ...options, '--'],
      ...launch,
    ];
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...proxyEnvironment() };
    return new Promise((resolve) => {
      execFile((bwrap as { path: string }).path, args, { env, encoding: 'utf8', timeout: 10_000 }, (error, stdout, stderr) =>
        resolve({ status: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout, stderr }),
      );
    });
  }

  it('reaches the allowed host through the proxy and the local port, nothing else, from its first command on', async (t) => {
    skipWithout(t);
    // Each check prints one line: what it got. Node is the client, as npm would be.
    const checks = join(base, 'checks.cjs');
    writeFileSync(
      checks,
      String.raw`const http = require('http');
const net = require('net');
const [forwarded, proxiedOnly, canary, proxyPort] = process.argv.slice(2).map(Number);
const get = (options) => new Promise((done) => {
  http.get(options, (res) => {
    let body = '';
    res.on('data', (c) => (body += c)).on('end', () => done(res.statusCode + ' ' + body.trim()));
  }).on('error', (e) => done(e.code));
});
const connectTo = (port, host = '127.0.0.1') => new Promise((done) => {
  const s = net.connect(port, host, () => { s.destroy(); done('connected'); }).on('error', (e) => done(e.code));
});
const connectThrough = (authority) => new Promise((done) => {
  const s = net.connect(proxyPort, '127.0.0.1', () => s.write('CONNECT ' + authority + ' HTTP/1.1\r\n\r\n'));
  s.once('data', (d) => { s.destroy(); done(String(d).split('\r\n')[0]); }).on('error', (e) => done(e.code));
});
(async () => {
  const lines = [
    'local port: ' + (await get({ host: '127.0.0.1', port: forwarded, path: '/first' })),
    'local port as localhost: ' + (await get({ host: 'localhost', port: forwarded, path: '/localhost' })),
    'proxy: ' + (await get({ host: '127.0.0.1', port: proxyPort, path: 'http://127.0.0.1:' + proxiedOnly + '/proxied' })),
    'proxy tunnel: ' + (await connectThrough('localhost:' + proxiedOnly)),
    'direct, allowed but not forwarded: ' + (await connectTo(proxiedOnly)),
    'canary direct: ' + (await connectTo(canary)),
    'canary through the proxy: ' + (await get({ host: '127.0.0.1', port: proxyPort, path: 'http://127.0.0.1:' + canary + '/' })),
    'canary tunnel: ' + (await connectThrough('127.0.0.1:' + canary)),
    'outside world: ' + (await connectTo(80, '192.0.2.1')),
  ];
  console.log(lines.join('\n'));
})();
`,
    );
    const ports = [forwarded.port, proxiedOnly.port, canary.port, PROXY_PORT_INSIDE];
    const run = await inSandbox([process.execPath, checks, ...ports.map(String)]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual([
      'local port: 200 hello /first',
      'local port as localhost: 200 hello /localhost',
      `proxy: 200 hello /proxied`,
      'proxy tunnel: HTTP/1.1 200 Connection Established',
      'direct, allowed but not forwarded: ECONNREFUSED',
      'canary direct: ECONNREFUSED',
      expect.stringMatching(
        new RegExp(`^canary through the proxy: 403 openspace sandbox: localhost:${canary.port} is not an allowed host`),
      ),
      'canary tunnel: HTTP/1.1 403 Forbidden',
      'outside world: ENETUNREACH',
    ]);
    expect(run.status).toBe(0);
    expect(canary.connections).toBe(0);
    expect(denied).toContain(`localhost:${canary.port}`);
  });

  it('works for curl through the proxy variables', async (t) => {
    skipWithout(t);
    if (!curl) return t.skip('curl is not installed: the Node client above covers the proxy');
    const script = [
      `curl -sS http://localhost:${forwarded.port}/curl-local`,
      `curl -sS http://example.test/`,
      `curl -sS --noproxy '' http://127.0.0.1:${proxiedOnly.port}/curl-proxied`,
      `curl -sS --noproxy '' -p http://127.0.0.1:${proxiedOnly.port}/curl-tunnelled`,
      `curl -sS https://example.test/ 2>&1 | sed 's/^curl: ([0-9]*) //'`,
    ].join('; ');
    const run = await inSandbox(['/bin/sh', '-c', script]);
    expect(run.stdout.split('\n')).toEqual([
      'hello /curl-local',
      'openspace sandbox: example.test:80 is not an allowed host (the person allows hosts in openspace.security.sandbox.allowedHosts)',
      'hello /curl-proxied',
      'hello /curl-tunnelled',
      expect.stringMatching(/CONNECT tunnel failed, response 403/),
      '',
    ]);
    expect(canary.connections).toBe(0);
  });

  it('keeps the network when the terminal interrupts its process group (Ctrl-C)', async (t) => {
    skipWithout(t);
    const get = `require('http').get('http://127.0.0.1:${forwarded.port}/after-interrupt', (r) => r.pipe(process.stdout))`;
    // A session of its own, as a terminal has: the interrupt stays inside.
    const run = await inSandbox(
      ['/bin/sh', '-c', `trap '' INT; kill -INT 0; sleep 0.2; "$0" -e "$1"`, process.execPath, get],
      ['--new-session'],
    );
    expect(run).toEqual({ status: 0, stdout: 'hello /after-interrupt\n', stderr: '' });
  });

  it('runs the command after it exactly as given, and ends with it', async (t) => {
    skipWithout(t);
    const tricky = ['a b', '"$0"', '$(echo no)', '', "it's", '--', '*', '\\n'];
    const started = Date.now();
    const run = await inSandbox(['/bin/sh', '-c', `printf '%s|' "$@"; exit 3`, 'zero', ...tricky]);
    expect(run).toEqual({ status: 3, stdout: `${tricky.join('|')}|`, stderr: '' });
    // The forwarder in the background keeps nothing alive: bwrap is done when the command is.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
