// Preloaded into the Theia backend by scripts/smoke.mjs (NODE_OPTIONS=--require): reports every
// outgoing TCP connection and DNS lookup to a host that is not loopback, so the smoke test can
// prove that the app does not reach for the network at start. Prints one line per attempt:
//   [openspace-netlog] connect example.com:443 (pid 123)
'use strict';
const net = require('node:net');
const dns = require('node:dns');

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/i;

function report(kind, host, port) {
  if (host === undefined || host === null || LOOPBACK.test(String(host))) return;
  process.stderr.write(`[openspace-netlog] ${kind} ${host}${port !== undefined ? `:${port}` : ''} (pid ${process.pid})\n`);
}

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    if (first.path === undefined) report('connect', first.host ?? 'localhost', first.port);
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    report('connect', typeof args[1] === 'string' ? args[1] : 'localhost', first);
  }
  return originalConnect.apply(this, args);
};

for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6']) {
  const original = dns[name];
  dns[name] = function (hostname, ...rest) {
    report(`dns.${name}`, hostname);
    return original.call(this, hostname, ...rest);
  };
  const originalPromise = dns.promises[name];
  dns.promises[name] = function (hostname, ...rest) {
    report(`dns.promises.${name}`, hostname);
    return originalPromise.call(this, hostname, ...rest);
  };
}
