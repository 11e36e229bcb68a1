/**
 * A conformance run against a hub given by URL that would fail every tool for the hub's settings —
 * a per-turn call limit, consent not given — stops at once and says how to start the hub.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSimHub } from '../sim/start.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function runAgainst(mcpUrl: string, token: string | undefined): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'OPENSPACE_TARGET'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'conformance/run.ts', '--target', mcpUrl, '--out', join(tmpdir(), 'openspace-preflight')],
    {
      cwd: ROOT,
      env: { ...env, ...(token && { OPENSPACE_TOKEN: token }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, output };
}

describe('npm run conformance -- --target <URL>, against a hub that is not set up for it', () => {
  it('stops at once when the hub limits the calls per agent turn, saying how to start it', async () => {
    const sim = await startSimHub({ workspace: { kind: 'memory' }, lockFile: false });
    try {
      const { code, output } = await runAgainst(sim.server.mcpUrl, sim.server.token);
      expect(code, output).toBe(2);
      expect(output).toContain('allows 50 tool calls per agent turn');
      expect(output).toContain('--max-calls-per-turn 0');
      expect(output).not.toMatch(/✗|passed/);
    } finally {
      await sim.close();
    }
  }, 60_000);

  it('stops at once when the hub waits for consent, saying how to start it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-preflight-'));
    const sim = await startSimHub({ workspace: { kind: 'disk', root: dir }, terminal: 'scripted', maxCallsPerTurn: 0, lockFile: false });
    try {
      const { code, output } = await runAgainst(sim.server.mcpUrl, sim.server.token);
      expect(code, output).toBe(2);
      expect(output).toContain("waits for a person's consent");
      expect(output).toContain('--consent');
    } finally {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
