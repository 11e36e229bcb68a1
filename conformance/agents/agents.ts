/**
 * Running the real agent CLIs (installed by `npm ci --prefix ci/agents`) headless, the way CI can:
 * no terminal, no stdin, a throwaway HOME with their update checks and telemetry off, a model
 * server of ours, and the project `openspace init` wrote. Each run has a time limit; past it the
 * agent's whole process tree (the stdio hubs it spawned included) is killed and the run fails with
 * the tail of what it printed.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { OPENAI_MODEL_ID } from './openai-model.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const AGENT_BIN = join(ROOT, 'ci/agents/node_modules/.bin');
const OPENSPACE_CLI = join(ROOT, 'dist/openspace.mjs');

/** An agent CLI's path; a missing one fails the test (never a silent skip). */
/**
 * What Claude Code (and Zed's claude-agent-acp over it) needs to run offline against a scripted
 * model: the model's URL and a key, IS_SANDBOX=1 (as root it starts only with that; this machine
 * sets "yes"), and nothing that reaches out.
 */
export function claudeOfflineEnv(modelUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'scripted-model-key',
    IS_SANDBOX: '1',
    ENABLE_TOOL_SEARCH: 'false',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

export function agentBin(name: 'claude' | 'opencode'): string {
  const bin = join(AGENT_BIN, name);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm ci --prefix ci/agents (npm run test:agents does)`);
  return bin;
}

/** `openspace init --yes` into `dir`, through the built CLI, as a person would run it. */
export async function openspaceInit(dir: string, args: string[]): Promise<string> {
  if (!existsSync(OPENSPACE_CLI)) throw new Error(`${OPENSPACE_CLI} is missing: run npm run build`);
  const { stdout } = await promisify(execFile)(process.execPath, [OPENSPACE_CLI, 'init', '--yes', '--dir', dir, ...args]);
  return stdout;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

const tail = (text: string, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** The environment a run starts from: only what a process needs, none of this machine's keys or settings. */
function baseEnv(home: string): NodeJS.ProcessEnv {
  const keep = ['PATH', 'LANG', 'TMPDIR', 'CI', 'OPENSPACE_LOCK_DIR'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), HOME: home };
}

/** Run an agent in `cwd` with no stdin; past `timeoutMs` its process tree is killed and the run fails. */
export async function runAgent(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<AgentRun> {
  const started = Date.now();
  const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const killTree = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree();
  }, timeoutMs);
  const closed = new Promise<void>((done) => child.on('close', () => done()));
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('exit', done);
  }).finally(() => clearTimeout(timer));
  // What the agent left behind (a stdio hub it spawned) goes with it, and lets go of its output.
  killTree();
  await Promise.race([closed, new Promise((done) => setTimeout(done, 5000))]);
  const run = { code, stdout, stderr, durationMs: Date.now() - started };
  if (timedOut) {
    throw new Error(`${bin} ${args[0]} did not finish in ${timeoutMs} ms; killed. stderr:\n${tail(stderr)}\nstdout:\n${tail(stdout)}`);
  }
  return run;
}

/** What a run adds to an agent's own arguments (before them) and environment: the agent pane's launch, say. */
export interface Extra {
  args?: string[];
  env?: Record<string, string>;
}

/** What a failed expectation should show of a run. */
export const describeRun = (run: AgentRun) =>
  `exit ${run.code} after ${run.durationMs} ms\nstderr:\n${tail(run.stderr)}\nstdout:\n${tail(run.stdout)}`;

/**
 * Claude Code, `claude -p`, against the Anthropic-API model at `modelUrl`. Its MCP tools need
 * tool search off (with it on, claude offers the model a search tool instead of them) and their
 * server allowed by name (else each call is denied, there being nobody to ask). In -p mode the
 * project's .mcp.json servers need no approval.
 */
export function claudeCode(home: string, modelUrl: string, token: string, extra: Extra = {}) {
  const env = {
    ...baseEnv(home),
    OPENSPACE_TOKEN: token,
    ...extra.env,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'scripted-model-key',
    ENABLE_TOOL_SEARCH: 'false',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return (cwd: string, prompt: string) =>
    runAgent(
      agentBin('claude'),
      [...(extra.args ?? []), '-p', prompt, '--allowedTools', 'mcp__openspace', '--output-format', 'json'],
      cwd,
      env,
    );
}

/** An OpenCode provider (`@ai-sdk/openai-compatible`) for the scripted model at `modelUrl`. */
export function scriptedProvider(modelUrl: string, name = 'Scripted model') {
  return {
    npm: '@ai-sdk/openai-compatible',
    name,
    options: { baseURL: `${modelUrl}/v1`, apiKey: 'scripted-model-key' },
    models: { [OPENAI_MODEL_ID]: { name, tool_call: true } },
  };
}

/**
 * A throwaway HOME for OpenCode against the OpenAI-compatible model at `modelUrl`: a provider of its
 * own in the home's global config (plus `config`, e.g. permission rules), and the environment that
 * makes OpenCode use that home and stay off the network (no updates, model lists or LSP downloads).
 */
export async function scriptedOpencodeHome(
  home: string,
  modelUrl: string,
  config: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const dir = join(home, '.config');
  await mkdir(join(dir, 'opencode'), { recursive: true });
  await writeFile(
    join(dir, 'opencode/opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: `scripted/${OPENAI_MODEL_ID}`,
      provider: { scripted: scriptedProvider(modelUrl) },
      ...config,
    }),
  );
  return {
    XDG_CONFIG_HOME: dir,
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  };
}

/**
 * OpenCode, `opencode run`, against the OpenAI-compatible model at `modelUrl` (its provider in the
 * throwaway HOME's global config: the project's opencode.json stays init's alone).
 */
export async function opencode(home: string, modelUrl: string, token: string, extra: Extra = {}) {
  const env = {
    ...baseEnv(home),
    OPENSPACE_TOKEN: token,
    ...(await scriptedOpencodeHome(home, modelUrl)),
    ...extra.env,
  };
  return (cwd: string, prompt: string) =>
    runAgent(agentBin('opencode'), ['run', '--model', `scripted/${OPENAI_MODEL_ID}`, prompt], resolve(cwd), env);
}
