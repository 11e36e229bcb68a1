import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planInit, type HubConnection } from './agent-files.js';

const HUB: HubConnection = { kind: 'http', mcpUrl: 'http://127.0.0.1:3100/mcp' };
/** The bundle `npx openspace` runs (built by `npm run build`, which `npm test` runs first). */
const CLI = fileURLToPath(new URL('../../dist/openspace.mjs', import.meta.url));

const files = (existing: Record<string, string>) => (path: string) => existing[path];

describe('planInit', () => {
  it('creates the four files in an empty project, with the token as a variable, never a value', () => {
    const plan = planInit(HUB, files({}));
    expect(plan.map((f) => [f.path, f.action])).toEqual([
      ['.mcp.json', 'create'],
      ['opencode.json', 'create'],
      ['CLAUDE.md', 'create'],
      ['AGENTS.md', 'create'],
    ]);
    expect(JSON.parse(plan[0]!.content)).toEqual({
      mcpServers: { openspace: { type: 'http', url: HUB.mcpUrl, headers: { Authorization: 'Bearer ${OPENSPACE_TOKEN}' } } },
    });
    expect(JSON.parse(plan[1]!.content)).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: { openspace: { type: 'remote', url: HUB.mcpUrl, enabled: true, headers: { Authorization: 'Bearer {env:OPENSPACE_TOKEN}' } } },
    });
    expect(plan[2]!.content).toContain('| running the compiler | `openspace.diagnostics.list` |');
  });

  it("merges into a person's configs, keeping their servers, settings, instructions and indentation; a tokened instructions URL goes", () => {
    const mcp = '{\n    "mcpServers": {\n        "github": { "command": "gh-mcp" }\n    }\n}\n';
    const opencode = JSON.stringify({
      model: 'anthropic/claude',
      instructions: ['docs/rules.md', 'http://127.0.0.1:3100/openspace/instructions?access_token=q3V9'],
      mcp: { db: { type: 'local', command: ['db'] } },
    });
    const plan = planInit(HUB, files({ '.mcp.json': mcp, 'opencode.json': opencode }));
    expect(plan[0]!.action).toBe('update');
    expect(plan[0]!.content).toContain('\n        "github": {');
    expect(Object.keys(JSON.parse(plan[0]!.content).mcpServers)).toEqual(['github', 'openspace']);
    const merged = JSON.parse(plan[1]!.content);
    expect(merged.model).toBe('anthropic/claude');
    expect(Object.keys(merged.mcp)).toEqual(['db', 'openspace']);
    // The hub's instructions come through MCP; an instructions URL with a token in it goes.
    expect(merged.instructions).toEqual(['docs/rules.md']);
  });

  it("appends the section after a person's text, and a second plan over the result changes nothing", () => {
    const person = '# My project\n\nUse pnpm, never npm.';
    const first = planInit(HUB, files({ 'CLAUDE.md': person }));
    expect(first[2]!.action).toBe('append');
    expect(first[2]!.content.startsWith(`${person}\n\n<!-- openspace:begin -->\n## OpenSpace IDE integration\n`)).toBe(true);
    const written = Object.fromEntries(first.map((f) => [f.path, f.content]));
    expect(planInit(HUB, files(written)).map((f) => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('replaces only its own section when it changed, leaving the text around it', () => {
    const old = 'Before.\n\n<!-- openspace:begin -->\nan older section\n<!-- openspace:end -->\n\nAfter.\n';
    const plan = planInit(HUB, files({ 'AGENTS.md': old }));
    expect(plan[3]!.action).toBe('update');
    expect(plan[3]!.content).toMatch(
      /^Before\.\n\n<!-- openspace:begin -->\n## OpenSpace IDE integration\n[\s\S]*<!-- openspace:end -->\n\nAfter\.\n$/,
    );
    expect(plan[3]!.content).not.toContain('an older section');
  });

  it('over stdio, the agents start the hub themselves: a command, no URL and no token', () => {
    const stdio: HubConnection = { kind: 'stdio', command: 'node', args: ['/x/openspace-sim.mjs', '--stdio', '--workspace', '.'] };
    const plan = planInit(stdio, files({}));
    expect(JSON.parse(plan[0]!.content).mcpServers.openspace).toEqual({ type: 'stdio', command: 'node', args: stdio.args });
    const opencode = JSON.parse(plan[1]!.content);
    expect(opencode.mcp.openspace).toEqual({ type: 'local', command: ['node', ...stdio.args], enabled: true });
  });

  it('refuses, naming the file, a config that is not JSON or has a server list that is not an object', () => {
    expect(() => planInit(HUB, files({ '.mcp.json': '{ "mcpServers": ' }))).toThrow(/\.mcp\.json is not valid JSON.*nothing was written/i);
    expect(() => planInit(HUB, files({ 'opencode.json': '{"mcp": []}' }))).toThrow(/opencode\.json: "mcp" is not an object/);
    expect(() => planInit(HUB, files({ 'opencode.jsonc': '{}' }))).toThrow(
      /opencode\.jsonc exists: add the openspace server to it by hand/,
    );
  });
});

describe('openspace init, the command', () => {
  let dir: string;
  beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'openspace-init-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, [CLI, ...args, ...(args[0] === 'init' ? ['--dir', dir] : [])]).then(
      (r) => ({ code: 0, ...r }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );

  it('writes with --yes, and a second run changes nothing', async () => {
    await writeFile(join(dir, 'CLAUDE.md'), 'Keep me.\n');
    const first = await run('init', '--yes');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/create\s+\.mcp\.json/);
    expect(first.stdout).toMatch(/append\s+CLAUDE\.md/);
    expect((await readdir(dir)).sort()).toEqual(['.mcp.json', 'AGENTS.md', 'CLAUDE.md', 'opencode.json']);
    expect(await readFile(join(dir, 'CLAUDE.md'), 'utf8')).toMatch(/^Keep me\.\n\n<!-- openspace:begin -->/);
    const before = await Promise.all(['.mcp.json', 'opencode.json', 'CLAUDE.md', 'AGENTS.md'].map((f) => readFile(join(dir, f), 'utf8')));
    const second = await run('init', '--yes');
    expect(second.stdout).toContain('Nothing to change.');
    const after = await Promise.all(['.mcp.json', 'opencode.json', 'CLAUDE.md', 'AGENTS.md'].map((f) => readFile(join(dir, f), 'utf8')));
    expect(after).toEqual(before);
  });

  it('asks first: with no terminal to ask on and no --yes, it writes nothing', async () => {
    const result = await run('init');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --yes');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a broken config stops it before any file is written; a bad option is named', async () => {
    await writeFile(join(dir, 'opencode.json'), '{ broken');
    const result = await run('init', '--yes');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('opencode.json is not valid JSON');
    expect(await readdir(dir)).toEqual(['opencode.json']);
    const bad = await run('init', '--url', 'localhost:3100');
    expect(bad.stderr).toContain('--url must be an http URL');
    expect((await run('init', '--bogus')).stderr).toContain("Unknown option '--bogus'");
  });
});

describe('openspace token', () => {
  const token = (...args: string[]) =>
    promisify(execFile)(process.execPath, [CLI, 'token', ...args]).then(
      (r) => ({ code: 0, ...r }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );

  it("prints a running hub's token, for export OPENSPACE_TOKEN=$(openspace token); no hub on the port is an error", async () => {
    const { startSimHub } = await import('../../sim/start.js');
    const hub = await startSimHub({ workspace: { kind: 'memory' }, port: 0, lockFile: true });
    try {
      const port = new URL(hub.server.origin).port;
      expect(await token('--port', port)).toMatchObject({ code: 0, stdout: `${hub.server.token}\n` });
    } finally {
      await hub.close();
    }
    const none = await token('--port', '1');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no OpenSpace hub is running on port 1');
  });

  it("a lock file left by a hub that was killed is not taken for a running hub's", async () => {
    const { writeLockFile } = await import('../security/lock-file.js');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const remove = await writeLockFile(2, {
      pid: dead,
      ideName: 'killed',
      url: 'http://127.0.0.1:2',
      mcpUrl: 'http://127.0.0.1:2/mcp',
      authToken: 'x'.repeat(43),
      workspaceFolders: [],
      startedAt: new Date().toISOString(),
    });
    try {
      const stale = await token('--port', '2');
      expect(stale.code).toBe(2);
      expect(stale.stderr).toContain('no OpenSpace hub is running on port 2');
    } finally {
      remove();
    }
  });

  it("a reader waiting for a hub's lock file waits past a killed hub's on the same port", async () => {
    const { readLockFile, writeLockFile } = await import('../security/lock-file.js');
    const lock = (pid: number) => ({
      pid,
      ideName: 'hub',
      url: 'http://127.0.0.1:3',
      mcpUrl: 'http://127.0.0.1:3/mcp',
      workspaceFolders: [],
      startedAt: new Date().toISOString(),
    });
    await writeLockFile(3, { ...lock(spawnSync(process.execPath, ['-e', '']).pid!), authToken: 'old' });
    const reading = readLockFile(3, 5000);
    await new Promise((r) => setTimeout(r, 200));
    const remove = await writeLockFile(3, { ...lock(process.pid), authToken: 'new' });
    try {
      expect((await reading)?.authToken).toBe('new');
    } finally {
      remove();
    }
  });
});
