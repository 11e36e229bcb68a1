import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from './agent-launch.js';

const HUB = { mcpUrl: 'http://127.0.0.1:3000/mcp', token: 'k'.repeat(43) };

describe('agentLaunch', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await mkdtemp(join(tmpdir(), 'openspace-bin-'));
    for (const name of ['opencode', 'claude', 'aider']) {
      await writeFile(join(bin, name), '#!/bin/sh\n');
      await chmod(join(bin, name), 0o755);
    }
    await writeFile(join(bin, 'not-executable'), '');
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  it("gives OpenCode the hub in OPENCODE_CONFIG_CONTENT and Claude Code in --mcp-config, the token by the variable's name", () => {
    const opencode = agentLaunch('opencode', ['--port', '0'], HUB, bin);
    expect(opencode).toMatchObject({ ok: true, shellPath: join(bin, 'opencode'), shellArgs: ['--port', '0'] });
    if (!opencode.ok) return;
    expect(opencode.env).toMatchObject({ OPENSPACE_MCP_URL: HUB.mcpUrl, OPENSPACE_TOKEN: HUB.token });
    expect(JSON.parse(opencode.env.OPENCODE_CONFIG_CONTENT!)).toEqual({
      mcp: { openspace: { type: 'remote', url: HUB.mcpUrl, enabled: true, headers: { Authorization: 'Bearer {env:OPENSPACE_TOKEN}' } } },
    });
    const claude = agentLaunch('claude', ['--continue'], HUB, bin);
    if (!claude.ok) throw new Error(claude.message);
    expect(claude.shellArgs[0]).toBe('--mcp-config');
    expect(JSON.parse(claude.shellArgs[1]!).mcpServers.openspace.headers).toEqual({ Authorization: 'Bearer ${OPENSPACE_TOKEN}' });
    expect(claude.shellArgs.slice(2)).toEqual(['--continue']);
    expect(JSON.stringify(claude.shellArgs)).not.toContain(HUB.token);
  });

  it('starts any other CLI with the hub in OPENSPACE_MCP_URL and OPENSPACE_TOKEN; a hub without a token, without headers', () => {
    expect(agentLaunch('aider', [], HUB, bin)).toEqual({
      ok: true,
      shellPath: join(bin, 'aider'),
      shellArgs: [],
      env: { OPENSPACE_MCP_URL: HUB.mcpUrl, OPENSPACE_TOKEN: HUB.token },
    });
    const open = agentLaunch(join(bin, 'opencode'), [], { mcpUrl: HUB.mcpUrl, token: undefined }, '');
    if (!open.ok) throw new Error(open.message);
    expect(open.env.OPENSPACE_TOKEN).toBeUndefined();
    expect(JSON.parse(open.env.OPENCODE_CONFIG_CONTENT!).mcp.openspace.headers).toBeUndefined();
  });

  it('a CLI that is not there, or not executable, or no CLI at all: a message naming it and the setting', () => {
    const missing = agentLaunch('opencodex', [], HUB, bin);
    expect(missing).toEqual({
      ok: false,
      message: 'The agent CLI "opencodex" was not found on PATH. Install it, or choose another in the setting openspace.agent.command.',
    });
    expect(agentLaunch(join(bin, 'not-executable'), [], HUB, bin)).toMatchObject({
      ok: false,
      message: expect.stringContaining('not-executable" was not found.'),
    });
    expect(agentLaunch('  ', [], HUB, bin)).toMatchObject({ ok: false, message: expect.stringContaining('openspace.agent.command') });
  });
});
