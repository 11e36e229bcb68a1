/**
 * An ACP agent's process and the first words with it: started in the workspace in its own process
 * group (so ending the chat ends what the agent started too, as Claude Code's CLI under its
 * adapter), its stderr's tail kept to explain a failure, and `initialize` with a time limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, PROTOCOL_VERSION, type ClientConnection, type InitializeResponse } from '@agentclientprotocol/sdk';
import type { AcpAgentSetting } from '../../common/chat-protocol.js';

/** How long an agent may take to start and answer `initialize`. */
const START_TIMEOUT_MS = 30_000;

export interface AgentProcess {
  child: ChildProcess;
  /** Resolves once the process runs; rejects if it cannot start (not installed). */
  spawned: Promise<void>;
  /** The last 4,000 characters the agent wrote to stderr. */
  stderr(): string;
}

export function spawnAgent(agent: AcpAgentSetting, directory: string): AgentProcess {
  const child = spawn(agent.command, agent.args ?? [], {
    cwd: directory,
    env: { ...process.env, ...agent.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  // A pipe to an agent that died (EPIPE) is its exit, handled by the exit listener; never an error that ends this process.
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  return { child, spawned, stderr: () => stderr };
}

/** The agent's stdio as ACP's stream of JSON lines. */
export function agentStream(child: ChildProcess) {
  return ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
}

/** `initialize`: what the client takes, and the agent's answer within START_TIMEOUT_MS. */
export async function initialize(acp: ClientConnection): Promise<InitializeResponse> {
  const initialized = acp.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    // The agent reads and writes files and runs commands through OpenSpace's MCP tools, not the client.
    // A sign-in that needs a terminal is run in one for the person (auth.terminal).
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: true } },
    clientInfo: { name: 'openspace', title: 'OpenSpace', version: '0.1.0' },
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  return Promise.race([initialized, late]).finally(() => clearTimeout(timer));
}
