import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectAgent } from '../conformance/client.js';
import { eventually } from '../conformance/setup.js';

/** The bundle `npm start` runs (built by `npm run build`, which `npm test` runs first). */
const CLI = fileURLToPath(new URL('../dist/openspace-sim.mjs', import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Start the CLI and wait for its banner; returns the printed text and the MCP URL. */
async function startCli(args: string[]): Promise<{ output: string; mcpUrl: string; instructionsUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await eventually(() => expect(output).toContain('Press Ctrl+C to stop.'), 10_000);
  const mcpUrl = /MCP endpoint:\s+(\S+)/.exec(output)![1]!;
  const instructionsUrl = /Instructions:\s+(\S+)/.exec(output)![1]!;
  return { output, mcpUrl, instructionsUrl, child };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm start (the simulated IDE CLI)', () => {
  it('prints the MCP URL, the instructions URL and ready-to-paste client config, and serves the 20 tools', async () => {
    const { output, mcpUrl, instructionsUrl } = await startCli(['--port', '0']);
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(output).toContain(`claude mcp add --transport http openspace ${mcpUrl}`);
    expect(output).toContain('"mcpServers"');
    expect(output).toContain('"type": "remote"');
    expect(output).toContain(`"${instructionsUrl}"`);
    expect(output).toContain('Workspace:     demo (in memory)');

    const agent = await connectAgent(mcpUrl);
    try {
      expect((await agent.client.listTools()).tools).toHaveLength(20);
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
        const t = await (await fetch(instructionsUrl)).text();
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
      const { output, mcpUrl } = await startCli(['--port', '0', '--workspace', dir]);
      expect(output).toContain('Terminals:     process');
      const agent = await connectAgent(mcpUrl);
      try {
        expect((await agent.ok('openspace.file.read', { path: 'hello.txt' })).content).toBe('from disk\n');
        await agent.ok('openspace.terminal.create', { title: 'sh' });
        const sent = await agent.ok('openspace.terminal.send', { terminalId: 'sh', text: 'cat hello.txt; echo $((6*7))' });
        await eventually(async () => {
          const read = await agent.ok('openspace.terminal.read_output', { terminalId: 'sh', since: sent.cursor });
          expect(read.output).toContain('from disk');
          expect(read.output).toContain('42');
        }, 5000);
      } finally {
        await agent.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('speaks MCP over stdio with --stdio', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, '--stdio'], stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools).toHaveLength(20);
      const result = await client.callTool({ name: 'openspace.file.read', arguments: { path: 'README.md' } });
      expect(result.structuredContent).toMatchObject({ success: true, path: 'README.md' });
    } finally {
      await client.close();
    }
  });

  it('explains bad options and exits with status 2', async () => {
    for (const args of [['--terminal', 'process'], ['--port', 'abc'], ['--nope'], ['--workspace', '/definitely/not/here']]) {
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
