/**
 * The sandbox's end of its network (Node only for the launch; the forwarder runs inside): a
 * listener on 127.0.0.1:PROXY_PORT_INSIDE that passes connections to the proxy's socket, and one per
 * allowed local port that tunnels to the host's port, started before the shell.
 */
import { PROXY_PORT_INSIDE, SOCKET_PATH_INSIDE, validPort } from './sandbox-network.js';

/**
 * The forwarder, run inside the sandbox as `node -e FORWARDER_SOURCE <socketPath> <proxyPort>
 * [localPort ...]`: it listens on 127.0.0.1:<proxyPort> and passes each connection to the proxy's
 * socket as it is (the client speaks HTTP proxy itself); on each 127.0.0.1:<localPort> (and
 * [::1]:<localPort>) it asks the proxy for a tunnel to the host's own port first, so a program that
 * connects to localhost:3000 reaches the person's dev server.
 *
 * It prints nothing; once every port listens it closes its standard output, which is how
 * networkLaunch knows it is ready. It cannot listen: one line on stderr, and it exits. Ctrl-C in
 * the terminal must not take the network from the commands after it, so it ignores the terminal's
 * signals; the sandbox's process namespace ends it with the shell.
 */
export const FORWARDER_SOURCE = String.raw`'use strict';
const net = require('net');
const fs = require('fs');
const [socketPath, proxyPort, ...localPorts] = process.argv.slice(1);
for (const signal of ['SIGINT', 'SIGQUIT', 'SIGHUP']) process.on(signal, () => {});

function join(a, b) {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

function toProxy() {
  return net.connect({ path: socketPath, allowHalfOpen: true });
}

/** A tunnel to the host's 127.0.0.1:port; the client's first bytes wait until it is up. */
function tunnel(client, port) {
  client.pause();
  const proxy = toProxy();
  let header = Buffer.alloc(0);
  const fail = () => {
    client.resetAndDestroy();
    proxy.destroy();
  };
  const onData = (chunk) => {
    header = Buffer.concat([header, chunk]);
    const end = header.indexOf('\r\n\r\n');
    if (end === -1) return header.length > 8192 && fail();
    proxy.off('data', onData).off('end', fail).off('error', fail);
    if (!/^HTTP\/1\.[01] 200 /.test(header.toString('latin1', 0, end))) return fail();
    client.write(header.subarray(end + 4));
    join(client, proxy);
  };
  proxy.on('data', onData).on('end', fail).on('error', fail);
  client.on('error', () => proxy.destroy());
  proxy.write('CONNECT 127.0.0.1:' + port + ' HTTP/1.1\r\nHost: 127.0.0.1:' + port + '\r\n\r\n');
}

function listen(port, host, onConnection) {
  return new Promise((listening, failed) => {
    const server = net.createServer({ allowHalfOpen: true }, onConnection);
    server.on('error', failed);
    server.listen(Number(port), host, listening);
  });
}

function cannotListen(port) {
  return (error) => {
    process.stderr.write('openspace sandbox: no network, cannot listen on 127.0.0.1:' + port + ': ' + error.message + '\n');
    process.exit(1);
  };
}

Promise.all([
  listen(proxyPort, '127.0.0.1', (client) => join(client, toProxy())).catch(cannotListen(proxyPort)),
  ...localPorts.flatMap((port) => [
    listen(port, '127.0.0.1', (client) => tunnel(client, port)).catch(cannotListen(port)),
    // Many systems resolve localhost to ::1 first; where the sandbox has no IPv6, 127.0.0.1 serves alone.
    listen(port, '::1', (client) => tunnel(client, port)).catch(() => {}),
  ]),
]).then(() => {
  // Ready: the end of the launcher's pipe. /dev/null takes its place (the lowest free descriptor),
  // as Node looks at process.stdout now and then and must not find a socket there.
  fs.closeSync(1);
  fs.openSync('/dev/null', 'w');
});
`;

/**
 * The command to run inside bwrap (after `--`) that starts the forwarder in the background, waits
 * until it listens, then becomes `shell`. The wait is a command substitution: `$( … & )` returns
 * when the last holder of its pipe closes it, the forwarder, which closes its standard output once
 * every port listens (or exits if it cannot: the shell then starts without network, the reason on
 * its stderr). Everything variable is an argument of `sh -c`, never part of the script, so `shell`
 * may hold anything; the ports are checked integers. `localPorts`: allowedLocalPorts' answer.
 */
export function networkLaunch(options: NetworkLaunchOptions, shell: string[]): string[] {
  if (shell.length === 0) throw new Error('networkLaunch needs the command to run in the sandbox');
  for (const port of options.localPorts) {
    if (!validPort(port) || port < 1024 || port === PROXY_PORT_INSIDE)
      throw new Error(`the forwarder cannot serve port ${port} inside the sandbox (allowedLocalPorts says which it can)`);
  }
  if (options.socat) return socatLaunch(options.socat, options.localPorts, shell);
  const ports = [PROXY_PORT_INSIDE, ...options.localPorts].join(' ');
  const script = `: "$("$0" -e "$1" "$2" ${ports} &)"; shift 2; exec "$@"`;
  return ['/bin/sh', '-c', script, options.nodePath, FORWARDER_SOURCE, SOCKET_PATH_INSIDE, ...shell];
}

export interface NetworkLaunchOptions {
  /** Node, for the forwarder in FORWARDER_SOURCE. */
  nodePath: string;
  localPorts: number[];
  /** socat and setsid, where both are installed: the forwarder then, at a fraction of Node's start. */
  socat?: { socat: string; setsid: string };
}

/**
 * networkLaunch with socat: one listener passes 127.0.0.1:PROXY_PORT_INSIDE to the proxy's socket as
 * it is; one per local port (127.0.0.1 and [::1]) asks the proxy for a tunnel to the host's port
 * (socat's PROXY address, through the first). Node takes some 40 ms of CPU to start, every terminal;
 * socat a few. Each listener runs in a session of its own (setsid): socat resets the signals a shell
 * would have it ignore, and Ctrl-C in the terminal must not take the network away. The shell starts
 * once every IPv4 port listens (/proc/net/tcp of the sandbox's own network namespace), or after
 * about two seconds without them, saying so.
 */
function socatLaunch(tools: { socat: string; setsid: string }, localPorts: number[], shell: string[]): string[] {
  const listen = (port: number, v6 = false) =>
    v6 ? `TCP6-LISTEN:${port},bind=[::1],ipv6only,reuseaddr,fork` : `TCP4-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork`;
  const start = (from: string, to: string) => `"$0" "$1" ${from} ${to} </dev/null >/dev/null 2>&1 &`;
  const tunnel = (port: number) => `PROXY:127.0.0.1:127.0.0.1:${port},proxyport=${PROXY_PORT_INSIDE}`;
  const hex = [PROXY_PORT_INSIDE, ...localPorts].map((port) => port.toString(16).toUpperCase().padStart(4, '0'));
  const script = [
    start(listen(PROXY_PORT_INSIDE), `UNIX-CONNECT:"$2"`),
    ...localPorts.flatMap((port) => [start(listen(port), tunnel(port)), start(listen(port, true), tunnel(port))]),
    `i=0; for p in ${hex.join(' ')}; do`,
    `  while ! grep -q " 0100007F:$p 00000000:0000 0A" /proc/net/tcp; do`,
    `    i=$((i + 1)); if [ $i -gt 400 ]; then echo "openspace: the sandbox's network did not start" >&2; break 2; fi; sleep 0.005`,
    '  done',
    'done',
    'shift 2; exec "$@"',
  ].join('\n');
  return ['/bin/sh', '-c', script, tools.setsid, tools.socat, SOCKET_PATH_INSIDE, ...shell];
}
