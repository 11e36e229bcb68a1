/**
 * The target a conformance or parity test runs against, chosen by OPENSPACE_TARGET:
 *   sim (default)  a hub on the simulated IDE, started in process, on a fresh copy of the fixture workspace:
 *                  in memory with the scripted shell, or with OPENSPACE_SIM_WORKSPACE=disk in a temporary
 *                  directory with real shells (node-pty) and ripgrep;
 *   theia          the built Theia app on a fresh copy of the fixture, shown in headless Chromium;
 *   <URL>          a running hub (its MCP URL), whatever IDE it serves.
 * Tests talk to every target only through MCP and HTTP; a `probe` gives sim-only views for
 * effects no tool shows (what a person at the keyboard does).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimHub } from '../sim/start.js';
import type { SimIde } from '../sim/ide.js';
import type { SimIdeOptions } from '../sim/ide.js';

export const FIXTURE_WORKSPACE = fileURLToPath(new URL('./fixtures/workspace', import.meta.url));

export interface Target {
  name: string;
  /** e.g. http://127.0.0.1:3100 */
  origin: string;
  mcpUrl: string;
  /** The simulated IDE itself, when the target is one. */
  sim?: SimIde;
  /** The browser page showing the IDE, when the target is Theia. */
  page?: import('playwright-core').Page;
  close(): Promise<void>;
}

export interface TargetOptions extends Pick<SimIdeOptions, 'scriptedResponses' | 'terminal' | 'workspace'> {
  publishIntervalMs?: number;
}

export async function startTarget(options: TargetOptions = {}): Promise<Target> {
  const target = process.env.OPENSPACE_TARGET ?? 'sim';
  if (target === 'sim') {
    const onDisk = process.env.OPENSPACE_SIM_WORKSPACE === 'disk' && !options.workspace;
    const dir = onDisk ? await mkdtemp(join(tmpdir(), 'openspace-fixture-')) : undefined;
    if (dir) await cp(FIXTURE_WORKSPACE, dir, { recursive: true });
    const sim = await startSimHub({
      workspace: options.workspace ?? (dir ? { kind: 'disk', root: dir } : { kind: 'memory', seedDir: FIXTURE_WORKSPACE }),
      terminal: options.terminal,
      scriptedResponses: options.scriptedResponses,
      publishIntervalMs: options.publishIntervalMs,
    });
    return {
      name: dir ? 'sim (disk)' : 'sim',
      origin: sim.server.origin,
      mcpUrl: sim.server.mcpUrl,
      sim: sim.ide,
      async close() {
        await sim.close();
        if (dir) await rm(dir, { recursive: true, force: true });
      },
    };
  }
  if (target === 'theia') {
    const { startTheiaTarget } = await import('./theia-target.js');
    const theia = await startTheiaTarget(FIXTURE_WORKSPACE);
    return { name: 'theia', origin: theia.origin, mcpUrl: theia.mcpUrl, page: theia.page, close: () => theia.close() };
  }
  if (/^https?:\/\//.test(target)) {
    const url = new URL(target);
    return { name: target, origin: url.origin, mcpUrl: url.href, close: async () => {} };
  }
  throw new Error(`OPENSPACE_TARGET must be "sim" or a hub's MCP URL, not "${target}"`);
}
