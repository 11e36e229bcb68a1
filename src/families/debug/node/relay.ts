/**
 * The relay between a debugged Node program and the debug adapter (./session.ts). The program runs in
 * the agent sandbox, in its own network namespace, so the adapter cannot reach the inspector's TCP
 * port; the relay starts inside the sandbox with the program, connects to the inspector's WebSocket
 * and carries the Chrome DevTools Protocol over its stdio as newline-delimited JSON.
 *
 * Run as `node --experimental-websocket openspace-node-relay.mjs <node options…> <program> <args…>`
 * (Node 20 has a global WebSocket only with that flag). Its stdout carries, one JSON object a line:
 * `{"type":"ready"}` once connected, `{"type":"cdp","message":…}` for each inspector message,
 * `{"type":"output","category":"stdout"|"stderr","text":…}` for the program's output and
 * `{"type":"exit","code":…,"signal":…}` last. Each line of its stdin is a CDP message to send; when
 * its stdin closes, the program is killed. Node's built-ins only: it runs wherever `node` does.
 *
 * `… openspace-node-relay.mjs --attach <ws://…>` connects to a running program's inspector instead
 * (debug.attach): it starts nothing, and its exit line (no code: the program is not its child) comes
 * when the inspector lets go; closing its stdin leaves the program running.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RELAY_FILE_NAME = 'openspace-node-relay.mjs';

export const RELAY_SOURCE = `import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// The inspector's own lines on stderr, not the program's.
const INSPECTOR_LINES = [
  /^Debugger listening on ws:\\/\\//,
  /^Debugger ending on ws:\\/\\//,
  /^For help, see: https:\\/\\/nodejs\\.org\\/en\\/docs\\/inspector/,
  /^Debugger attached\\./,
  /^Waiting for the debugger to disconnect\\.\\.\\./,
];

function emit(message, then) {
  process.stdout.write(JSON.stringify(message) + '\\n', then);
}

let socket;
let open = false;
const waiting = [];
const attachTo = process.argv[2] === '--attach' ? process.argv[3] : undefined;

function connect(url) {
  socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    open = true;
    emit({ type: 'ready' });
    for (const line of waiting.splice(0)) socket.send(line);
  });
  socket.addEventListener('message', (event) => {
    try {
      emit({ type: 'cdp', message: JSON.parse(String(event.data)) });
    } catch {
      // Not JSON: the inspector sends nothing else, so there is nothing to carry.
    }
  });
}

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (!line.trim()) return;
  if (open) socket.send(line);
  else waiting.push(line);
});

if (attachTo) {
  // A running program: the inspector letting go (or never answering) ends the session, not the program.
  connect(attachTo);
  let ended = false;
  const done = () => !ended && (ended = true) && emit({ type: 'exit' }, () => process.exit(0));
  socket.addEventListener('close', done);
  socket.addEventListener('error', () => {
    if (!open) emit({ type: 'output', category: 'stderr', text: 'Nothing answers at ' + attachTo + '\\n' });
    done();
  });
  input.on('close', () => {
    socket.close();
    setTimeout(() => process.exit(0), 1000).unref();
  });
} else {
  const child = spawn(process.execPath, ['--inspect-brk=127.0.0.1:0', ...process.argv.slice(2)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => emit({ type: 'output', category: 'stdout', text }));

  // Line by line, to tell the inspector's lines from the program's.
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    const lines = (partial + text).split('\\n');
    partial = lines.pop();
    for (const line of lines) stderrLine(line);
  });
  child.stderr.on('end', () => {
    if (partial) emit({ type: 'output', category: 'stderr', text: partial });
    partial = '';
  });
  child.on('error', (error) => {
    emit({ type: 'output', category: 'stderr', text: 'The relay could not start node: ' + error.message + '\\n' });
    emit({ type: 'exit', code: 1, signal: null }, () => process.exit(0));
  });
  // 'close' comes after the program's output has all been read.
  child.on('close', (code, signal) => {
    socket?.close();
    emit({ type: 'exit', code, signal }, () => process.exit(0));
  });
  input.on('close', () => {
    child.kill('SIGKILL');
    process.exit(0);
  });
}

function stderrLine(line) {
  const clean = line.replace(/\\r$/, '');
  const url = /^Debugger listening on (ws:\\/\\/\\S+)/.exec(clean);
  if (url && !socket) connect(url[1]);
  // The program has ended and the inspector waits for us to let go: let go, so it exits.
  if (clean.startsWith('Waiting for the debugger to disconnect')) socket?.close();
  if (!INSPECTOR_LINES.some((pattern) => pattern.test(clean))) emit({ type: 'output', category: 'stderr', text: line + '\\n' });
}

`;

/** Writes the relay into `dir` and answers its path. */
export function writeRelay(dir: string): string {
  const path = join(dir, RELAY_FILE_NAME);
  writeFileSync(path, RELAY_SOURCE);
  return path;
}
