#!/usr/bin/env node
/**
 * The `openspace` command: `init` writes a project's agent configs (see agent-files.ts); `token`
 * prints a running hub's access token, for `export OPENSPACE_TOKEN=$(openspace token)`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readLockFile } from '../security/lock-file.js';
import { InitError, planInit, type HubConnection, type PlannedFile } from './agent-files.js';

const USAGE = `Usage: openspace init [options]     write the agent configs of a project
       openspace token [--port N]     print the access token of the hub running on port N

init writes or merges .mcp.json (Claude Code), opencode.json (OpenCode) and an "OpenSpace IDE
integration" section in CLAUDE.md and AGENTS.md, never touching the rest of them; a second run
changes nothing. The configs name the token as the environment variable OPENSPACE_TOKEN, never
its value: start the hub and the agent with the same OPENSPACE_TOKEN.

  --dir DIR     the project (default: the current directory)
  --url URL     the hub's MCP endpoint (default http://127.0.0.1:3100/mcp, npm start's;
                Theia's is http://127.0.0.1:<its port>/mcp)
  --stdio       have the agents start a hub of their own on the simulated IDE, over stdio,
                working in the project (instead of reaching a running hub over HTTP)
  --consent     with --stdio: that hub lets agents work in the project without asking first
  -y, --yes     write without asking (for scripts)
  -h, --help    show this help`;

function fail(message: string): never {
  process.stderr.write(`openspace: ${message}\n`);
  process.exit(2);
}

/** The simulated IDE's hub: beside this file once bundled (dist/), or the checkout's build. */
function simHubPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'openspace-sim.mjs');
  return existsSync(bundled) ? bundled : resolve(here, '../../dist/openspace-sim.mjs');
}

function readIn(dir: string): (path: string) => string | undefined {
  return (path) => {
    try {
      return readFileSync(join(dir, path), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function describe(plan: PlannedFile[]): string {
  return plan.map((file) => `  ${file.action.padEnd(9)} ${file.path.padEnd(14)} ${file.what}`).join('\n');
}

async function init(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      dir: { type: 'string', default: '.' },
      url: { type: 'string', default: 'http://127.0.0.1:3100/mcp' },
      stdio: { type: 'boolean', default: false },
      consent: { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const dir = resolve(values.dir);
  if (!existsSync(dir)) fail(`--dir ${values.dir}: no such directory`);
  if (values.consent && !values.stdio) fail('--consent goes with --stdio (a running hub has its own --consent)');
  let hub: HubConnection;
  if (values.stdio) {
    const simHub = simHubPath();
    if (!existsSync(simHub)) fail(`the simulated IDE's hub is not built (${simHub}): run npm run build in the OpenSpace checkout`);
    hub = { kind: 'stdio', command: 'node', args: [simHub, '--stdio', '--workspace', '.', ...(values.consent ? ['--consent'] : [])] };
  } else {
    if (!/^https?:\/\/[^/\s]+\/\S*$/.test(values.url))
      fail(`--url must be an http URL such as http://127.0.0.1:3100/mcp, not "${values.url}"`);
    hub = { kind: 'http', mcpUrl: values.url };
  }

  let plan: PlannedFile[];
  try {
    plan = planInit(hub, readIn(dir));
  } catch (err) {
    if (err instanceof InitError) fail(err.message);
    throw err;
  }
  const where = hub.kind === 'http' ? `the hub at ${hub.mcpUrl}` : 'a hub of their own over stdio';
  process.stdout.write(`OpenSpace init in ${dir}, for agents reaching ${where}:\n${describe(plan)}\n`);
  const changes = plan.filter((file) => file.action !== 'unchanged');
  if (changes.length === 0) return void process.stdout.write('Nothing to change.\n');
  if (!values.yes) {
    if (!process.stdin.isTTY) fail('nothing written: pass --yes to write these files without a question');
    if (!(await confirm('Write these files? [y/N] '))) return void process.stdout.write('Nothing written.\n');
  }
  for (const file of changes) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.content);
  }
  const askFirst =
    hub.kind === 'stdio' && !values.consent
      ? '\nThat hub asks the agent for consent before working in the project (MCP elicitation); a headless\n' +
        'agent (claude -p, opencode run) cannot answer and gets CONSENT_REQUIRED: run init again with --consent.\n'
      : '';
  process.stdout.write(
    `Written: ${changes.map((file) => file.path).join(', ')}.\n${askFirst}` +
      (hub.kind === 'http'
        ? '\nThe agents send the token from OPENSPACE_TOKEN. Give the hub and the agent the same one, e.g.\n' +
          '  export OPENSPACE_TOKEN=$(openssl rand -hex 32)   # then start the hub (npm start), and the agent, from this shell\n' +
          'or, with a hub already running on port 3100:\n' +
          '  export OPENSPACE_TOKEN=$(openspace token)\n'
        : ''),
  );
}

async function token(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string', default: '3100' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`--port must be a port number, not "${values.port}"`);
  const lock = await readLockFile(port);
  if (!lock) fail(`no OpenSpace hub is running on port ${port} (start one with npm start, or npm run theia)`);
  if (lock.authToken === undefined) fail(`the hub on port ${port} runs without an access token (--no-auth)`);
  process.stdout.write(`${lock.authToken}\n`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'init') await init(rest);
  else if (command === 'token') await token(rest);
  else if (command === undefined || command === '-h' || command === '--help') process.stdout.write(`${USAGE}\n`);
  else fail(`unknown command "${command}"\n\n${USAGE}`);
} catch (err) {
  // parseArgs' own errors (an unknown option, a missing value) are the person's to fix.
  if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) fail(`${(err as Error).message}\n\n${USAGE}`);
  throw err;
}
