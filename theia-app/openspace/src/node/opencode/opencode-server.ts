/**
 * Starts `opencode serve` for the chat panel: on 127.0.0.1, in the workspace, with the hub as its
 * `openspace` MCP server (the token by the variable's name, as `openspace init` writes it), on top of
 * the person's own OpenCode config (their providers and models). The binary is the one installed
 * with the app (the `opencode-ai` package), or the person's, or `opencode` on PATH.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { opencodeServer, SERVER_NAME, findExecutable } from '../../../../../src/node.js';
import type { StartedServer } from './opencode-proxy.js';

export interface ServeOptions {
  bin: string;
  cwd: string;
  hub: { mcpUrl: string; token: string | undefined };
  /** Sent as X-OpenSpace-Label with its MCP requests, so the hub can end its session once it is gone. */
  label?: string;
  /** How long OpenCode may take to say it listens. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** The app's own opencode (node_modules/.bin beside the backend bundle's folders), else `command` on PATH. */
export function findOpenCode(command: string, from: string = __dirname): string | undefined {
  if (command) return findExecutable(command);
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const bin = join(dir, 'node_modules/.bin/opencode');
    if (existsSync(bin)) return bin;
  }
  return findExecutable('opencode');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const LISTENING = /listening on (http:\/\/\S+)/;
const STOP_GRACE_MS = 3000;

/** `opencode serve`, resolved once it listens; rejected with what it said if it exits or stays silent. */
export async function serveOpenCode(options: ServeOptions): Promise<StartedServer> {
  const port = await freePort();
  const mcp = opencodeServer({ kind: 'http', mcpUrl: options.hub.mcpUrl });
  const headers: Record<string, string> = {
    ...(mcp.headers as Record<string, string>),
    ...(options.label && { 'X-OpenSpace-Label': options.label }),
  };
  if (options.hub.token === undefined) delete headers.Authorization;
  mcp.headers = headers;
  const env = {
    ...(options.env ?? process.env),
    ...(options.hub.token !== undefined && { OPENSPACE_TOKEN: options.hub.token }),
    OPENCODE_CONFIG_CONTENT: JSON.stringify({ mcp: { [SERVER_NAME]: mcp } }),
  };
  const child = spawn(options.bin, ['serve', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const said = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000));
  child.stdout.on('data', said);
  child.stderr.on('data', said);
  const lastWords = () =>
    output
      .trim()
      .split('\n')
      .filter((line) => !line.includes('OPENCODE_SERVER_PASSWORD'))
      .slice(-5)
      .join('\n');
  const exited = new Promise<string>((resolve) => {
    child.on('error', (err) => resolve(err.message));
    child.on('exit', (code, signal) => resolve(`${lastWords()}${lastWords() ? '\n' : ''}(exit ${signal ?? code})`));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`OpenCode did not start listening in ${(options.timeoutMs ?? 30_000) / 1000} s. It said: ${lastWords()}`));
    }, options.timeoutMs ?? 30_000);
    const check = () => {
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    void exited.then((words) => {
      clearTimeout(timer);
      reject(new Error(`OpenCode (${options.bin}) could not start: ${words}`));
    });
  });
  // The backend going away takes its OpenCode with it.
  const kill = () => void child.kill('SIGKILL');
  process.once('exit', kill);
  void exited.then(() => process.off('exit', kill));
  return {
    url,
    exited,
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      // OpenCode can hang in its shutdown (seen after an instance dispose): a few seconds, then for good.
      setTimeout(kill, STOP_GRACE_MS).unref();
    },
  };
}
