import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectAgent } from '../conformance/client.js';
import { eventually } from '../conformance/setup.js';
import { TOOLS } from '../src/families/index.js';
import { probeBwrap } from '../src/security/sandbox-host.js';

/** The bundle `npm start` runs (built by `npm run build`, which `npm test` runs first). */
const CLI = fileURLToPath(new URL('../dist/openspace-sim.mjs', import.meta.url));

const children: ChildProcess[] = [];
/** Where the CLIs started here write their lock files. */
const lockDir = join(tmpdir(), `openspace-cli-locks-${process.pid}`);
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Start the CLI and wait for its banner; returns the printed text and the MCP URL. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ output: string; mcpUrl: string; instructionsUrl: string; token?: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OPENSPACE_LOCK_DIR: lockDir, ...env },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await eventually(() => expect(output).toContain('Press Ctrl+C to stop.'), 10_000);
  const mcpUrl = /MCP endpoint:\s+(\S+)/.exec(output)![1]!;
  const instructionsUrl = /Instructions:\s+(\S+)/.exec(output)![1]!;
  const token = /Access token:\s+([\w-]{40,})/.exec(output)?.[1];
  return { output, mcpUrl, instructionsUrl, token, child };
}

/** What `sh` makes of a printed line: the arguments it passes to `claude` (echoed instead), or the value it exports. */
function inShell(line: string, env: Record<string, string> = {}): string {
  const script = line.startsWith('export ') ? `${line}; printf %s "$OPENSPACE_TOKEN"` : `claude() { printf '%s|' "$@"; }; ${line}`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
}

/** Stop a CLI and wait until it has gone: until then it may still write into its workspace (.openspace/), which a test then removes. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm start (the simulated IDE CLI)', () => {
  it('prints the MCP URL, the instructions URL and ready-to-paste client config, and serves every tool', async () => {
    const { output, mcpUrl, instructionsUrl, token } = await startCli(['--port', '0']);
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token).toBeDefined();
    // The configs name OPENSPACE_TOKEN, which Claude Code and OpenCode expand, so no config file holds
    // the token: it is printed only as the access token and in the line that exports it.
    const lines = output.split('\n');
    expect(lines.filter((line) => line.includes(token!))).toEqual([`  Access token:  ${token}`, `  export OPENSPACE_TOKEN=${token}`]);
    expect(inShell(lines.find((line) => line.includes('export OPENSPACE_TOKEN='))!.trim())).toBe(token);
    const claudeAdd = lines.find((line) => line.includes('claude mcp add'))!.trim();
    expect(claudeAdd).toBe(`claude mcp add --transport http openspace ${mcpUrl} --header 'Authorization: Bearer \${OPENSPACE_TOKEN}'`);
    // Run with the variable set, the command still passes the reference, not the token, for Claude Code to store.
    expect(inShell(claudeAdd, { OPENSPACE_TOKEN: token! })).toBe(
      `mcp|add|--transport|http|openspace|${mcpUrl}|--header|Authorization: Bearer \${OPENSPACE_TOKEN}|`,
    );
    expect(output).toContain('"mcpServers"');
    expect(output).toContain('"Authorization": "Bearer ${OPENSPACE_TOKEN}"');
    expect(output).toContain('"type": "remote"');
    expect(output).toContain('"Authorization": "Bearer {env:OPENSPACE_TOKEN}"');
    // Not the instructions URL with the token: OpenCode would send it to the model's provider.
    expect(output).not.toContain('access_token=');
    expect(output).toContain('Workspace:     demo (in memory)');

    // The lock file holds the URL and the token, readable by the owner only.
    const lockFile = join(lockDir, `${new URL(mcpUrl).port}.lock`);
    expect(output).toContain(lockFile);
    expect((await stat(lockFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ mcpUrl, authToken: token, pid: expect.any(Number) });

    // Without the token the hub refuses; with it, it serves.
    expect((await fetch(mcpUrl, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(instructionsUrl)).status).toBe(401);
    const agent = await connectAgent({ mcpUrl, token });
    try {
      expect((await agent.client.listTools()).tools).toHaveLength(TOOLS.length + 1); // every tool, and openspace.tools.enable
      // The demo workspace has TypeScript files long enough to open at line 42.
      const opened = await agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 42 });
      expect(opened.lineCount).toBeGreaterThanOrEqual(50);
      await agent.ok('openspace.terminal.create', { title: 'test-runner' });
      const sent = await agent.ok('openspace.terminal.send', { terminalId: 'test-runner', text: 'echo hello\n' });
      await eventually(async () => {
        const read = await agent.ok('openspace.terminal.read_output', { terminalId: 'test-runner', since: sent.cursor });
        expect(read.output).toContain('hello');
      });
      const text = await eventually(async () => {
        const t = await (await fetch(`${instructionsUrl}?access_token=${token}`)).text();
        expect(t).toMatch(/Main area: editor: src\/index\.ts/);
        expect(t).toMatch(/Terminals: test-runner/);
        return t;
      });
      expect(text).toContain('Active file: src/index.ts');
    } finally {
      await agent.close();
    }
  });

  it('runs real shells in a real directory with --workspace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-cli-'));
    try {
      await writeFile(join(dir, 'hello.txt'), 'from disk\n');
      const { output, mcpUrl, token, child } = await startCli(['--port', '0', '--workspace', dir, '--consent']);
      expect(output).toContain('Terminals:     process');
      const agent = await connectAgent({ mcpUrl, token });
      try {
        expect((await agent.ok('openspace.file.read', { path: 'hello.txt' })).content).toBe('from disk\n');
        // In the sandbox where bubblewrap works (conformance/specs/sandbox.test.ts shows what it keeps out).
        expect(await agent.ok('openspace.terminal.create', { title: 'sh' })).toMatchObject({ sandboxed: probeBwrap().available });
        // One call that waits for the shell and the command (the CLI allows 50 calls per agent turn: polling
        // read_output every 25 ms used them up while a loaded machine started the sandbox).
        const ran = await agent.ok('openspace.terminal.run', {
          terminalId: 'sh',
          command: 'cat hello.txt; echo $((6*7))',
          timeoutMs: 15_000,
        });
        expect(ran).toMatchObject({ exitCode: 0, output: ['from disk', '42'], timedOut: false });
      } finally {
        await agent.close();
        await stop(child);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without bubblewrap, says so once at start and runs agent terminals unsandboxed; --no-sandbox says nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-cli-'));
    try {
      for (const [args, warned] of [
        [[], true],
        [['--no-sandbox'], false],
      ] as const) {
        // A PATH without bwrap on it.
        const { output, mcpUrl, token, child } = await startCli(['--port', '0', '--workspace', dir, '--consent', ...args], { PATH: dir });
        const warnings = output.match(/agent terminals run WITHOUT a sandbox: bubblewrap \(bwrap\) is not installed/g) ?? [];
        expect(warnings, args.join(' ')).toHaveLength(warned ? 1 : 0);
        const agent = await connectAgent({ mcpUrl, token });
        try {
          expect(await agent.ok('openspace.terminal.create', { title: 'plain' })).toMatchObject({ sandboxed: false });
          // Outside a sandbox every command waits for a person, harmless ones too.
          const refused = await agent.fails('openspace.terminal.send', { terminalId: 'plain', text: 'echo hi' }, 'CONFIRMATION_REQUIRED');
          expect(refused.error).toMatch(/^Agent wants to run: echo hi — runs outside any sandbox/);
        } finally {
          await agent.close();
          await stop(child);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('on a real directory, asks for consent first: CONSENT_REQUIRED without --consent, nothing done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-cli-'));
    try {
      const { mcpUrl, token, child } = await startCli(['--port', '0', '--workspace', dir]);
      const agent = await connectAgent({ mcpUrl, token });
      try {
        const refused = await agent.fails('openspace.file.write', { path: 'x.txt', content: 'x' }, 'CONSENT_REQUIRED');
        expect(refused.error).toMatch(/allow/i);
        await expect(stat(join(dir, 'x.txt'))).rejects.toThrow(/ENOENT/);
      } finally {
        await agent.close();
        await stop(child);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--no-auth serves without a token, and says so', async () => {
    const { output, mcpUrl, token } = await startCli(['--port', '0', '--no-auth']);
    expect(token).toBeUndefined();
    expect(output).toMatch(/Access token:\s+none/);
    expect(output).not.toContain('OPENSPACE_TOKEN');
    expect(output).not.toContain('Authorization');
    const agent = await connectAgent(mcpUrl);
    await agent.ok('openspace.pane.list');
    await agent.close();
  });

  it('prints a token from OPENSPACE_TOKEN that the shell would read quoted, so the export line sets it as it is', async () => {
    const chosen = `it's $HOME; \`id\` ${'x'.repeat(32)}`.replaceAll(' ', '_');
    const { output } = await startCli(['--port', '0'], { OPENSPACE_TOKEN: chosen });
    const exportLine = output.split('\n').find((line) => line.includes('export OPENSPACE_TOKEN='))!;
    expect(inShell(exportLine.trim())).toBe(chosen);
  });

  it('speaks MCP over stdio with --stdio', async () => {
    const agent = await connectAgent({ command: process.execPath, args: [CLI, '--stdio'] }, 'stdio-test');
    try {
      expect(agent.tools).toHaveLength(TOOLS.length + 1); // every tool, and openspace.tools.enable
      expect(await agent.call('openspace.file.read', { path: 'README.md' })).toMatchObject({ success: true, path: 'README.md' });
    } finally {
      await agent.close();
    }
  });

  it('over stdio, ends when its client closes stdin, language servers and all', async () => {
    const child = spawn(process.execPath, [CLI, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('MCP over stdio')) resolve();
      }),
    );
    const started = Date.now();
    child.stdin!.end();
    const { code } = await exitOf(child);
    expect(code, stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('explains bad options and exits with status 2', async () => {
    const bad = [
      ['--terminal', 'process'],
      ['--port', 'abc'],
      ['--nope'],
      ['--workspace', '/definitely/not/here'],
      ['--max-calls-per-turn', '-1'],
      ['--allow-origin', 'evil'],
      ['--sandbox-network', 'maybe'],
      ['--sandbox-hide', 'relative/path'],
      // Over stdio the client is answered while the IDE loads; an IDE that cannot start still ends it.
      ['--stdio', '--workspace', '/definitely/not/here'],
      ['--stdio', '--terminal', 'process'],
    ];
    for (const args of bad) {
      const { code, output } = await exitOf(spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
      expect(code, args.join(' ')).toBe(2);
      expect(output).toMatch(/^openspace: /);
      expect(output).toContain('Usage: npm start');
    }
  });

  it('says when the port is taken', async () => {
    const first = await startCli(['--port', '0']);
    const port = new URL(first.mcpUrl).port;
    const { code, output } = await exitOf(spawn(process.execPath, [CLI, '--port', port], { stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(code).toBe(2);
    expect(output).toContain(`port ${port} is in use`);
  });
});
