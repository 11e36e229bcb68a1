/**
 * The target a conformance or parity test runs against, chosen by OPENSPACE_TARGET:
 *   sim (default)  a hub on the simulated IDE, started in process, on a fresh copy of the fixture workspace:
 *                  in memory with the scripted shell, or with OPENSPACE_SIM_WORKSPACE=disk in a temporary
 *                  directory with real shells (node-pty) and ripgrep;
 *   theia          the built Theia app on a fresh copy of the fixture, shown in headless Chromium;
 *   <URL>          a running hub (its MCP URL), whatever IDE it serves; its token comes from
 *                  OPENSPACE_TOKEN or the hub's lock file (~/.openspace/ide/<port>.lock).
 * Tests talk to every target only through MCP and HTTP; a `probe` gives sim-only views for
 * effects no tool shows (what a person at the keyboard does).
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimHub } from '../sim/start.js';
import { readLockFile } from '../src/security/lock-file.js';
import type { SimIde } from '../sim/ide.js';
import type { SimIdeOptions } from '../sim/ide.js';
import { authHeaders } from './client.js';
import { debianPythonFirst } from './python-path.js';
import {
  SANDBOX_ENABLED_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_NETWORK_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
  type SandboxChoices,
} from '../src/security/sandbox.js';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../src/security/consent.js';

export const FIXTURE_WORKSPACE = fileURLToPath(new URL('./fixtures/workspace', import.meta.url));

export interface Target {
  name: string;
  /** e.g. http://127.0.0.1:3100 */
  origin: string;
  mcpUrl: string;
  /** The hub's access token (from the hub we started, or the lock file / OPENSPACE_TOKEN for a URL). */
  token?: string;
  /** The headers a raw HTTP request to the hub needs (the bearer token). */
  headers: Record<string, string>;
  /** The workspace directory, when the target works on one on disk (sim-disk, Theia). */
  workspaceDir?: string;
  /** The simulated IDE itself, when the target is one. */
  sim?: SimIde;
  /** The browser page showing the IDE, when the target is Theia. */
  page?: import('playwright-core').Page;
  /** The TypeScript language server's process, when the suite started the target. */
  typescriptServerPid?(): Promise<number | undefined>;
  close(): Promise<void>;
}

export interface TargetOptions extends Pick<
  SimIdeOptions,
  'scriptedResponses' | 'terminal' | 'workspace' | 'consent' | 'languageServers' | 'languageServerReadyWaitMs' | 'home'
> {
  /** Where the fresh copy of the fixture goes (default: the system's temporary directory). */
  workspaceParent?: string;
  /** The person's own sandbox choices: the simulated IDE's command line, Theia's user settings. */
  sandbox?: SandboxChoices;
  /** Settings a cloned repository brings: the fixture's .openspace/settings.json (simulated IDE) or .theia/settings.json (Theia). */
  workspaceSettings?: Record<string, unknown>;
  /** Whether a simulated IDE's hub writes its lock file (~/.openspace/ide/<port>.lock); Theia's always does. */
  lockFile?: boolean;
  /** Environment variables of an IDE started in a process of its own (Theia); the simulated IDE runs in the test's. */
  ideEnv?: Record<string, string>;
  publishIntervalMs?: number;
  /**
   * Tool calls per agent turn on a target the suite starts. Default 0 (no limit): specs poll and
   * sample far more than an agent turn would; the limit itself has its own spec.
   */
  maxCallsPerTurn?: number;
  /** How long an idle MCP session lives (default 30 min). */
  sessionIdleMs?: number;
  /** false: the person confirms nothing (openspace.security.confirmDangerousCommands off, as they may set it). */
  confirmations?: false;
}

export async function startTarget(options: TargetOptions = {}): Promise<Target> {
  const target = process.env.OPENSPACE_TARGET ?? 'sim';
  if (target === 'sim') {
    // The hub runs in this process: its test runs take Python from this PATH.
    process.env.PATH = debianPythonFirst();
    const onDisk = process.env.OPENSPACE_SIM_WORKSPACE === 'disk' && !options.workspace;
    const dir = onDisk ? await mkdtemp(join(options.workspaceParent ?? tmpdir(), 'openspace-fixture-')) : undefined;
    if (dir) await cp(FIXTURE_WORKSPACE, dir, { recursive: true });
    const { SETTINGS_FILE } = await import('../sim/ide.js');
    const settings = options.workspaceSettings ? JSON.stringify(options.workspaceSettings) : undefined;
    if (dir && settings) {
      await mkdir(join(dir, '.openspace'), { recursive: true });
      await writeFile(join(dir, SETTINGS_FILE), settings);
    }
    const sim = await startSimHub({
      workspace:
        options.workspace ??
        (dir
          ? { kind: 'disk', root: dir }
          : { kind: 'memory', seedDir: FIXTURE_WORKSPACE, files: settings === undefined ? undefined : { [SETTINGS_FILE]: settings } }),
      terminal: options.terminal,
      home: options.home,
      sandbox: options.sandbox,
      scriptedResponses: options.scriptedResponses,
      publishIntervalMs: options.publishIntervalMs,
      consent: options.consent ?? 'granted',
      confirmDangerousCommands: options.confirmations ?? true,
      languageServers: options.languageServers,
      languageServerReadyWaitMs: options.languageServerReadyWaitMs,
      maxCallsPerTurn: options.maxCallsPerTurn ?? 0,
      sessionIdleMs: options.sessionIdleMs,
      lockFile: options.lockFile ?? false,
    });
    return {
      name: dir ? 'sim (disk)' : 'sim',
      origin: sim.server.origin,
      mcpUrl: sim.server.mcpUrl,
      token: sim.server.token,
      headers: authHeaders(sim.server.token),
      workspaceDir: options.workspace?.kind === 'disk' ? options.workspace.root : dir,
      sim: sim.ide,
      typescriptServerPid: async () => sim.ide.code.pids().typescript,
      async close() {
        await sim.close();
        if (dir) await rm(dir, { recursive: true, force: true });
      },
    };
  }
  if (target === 'theia') {
    const { startTheiaTarget } = await import('./theia-target.js');
    const theia = await startTheiaTarget(FIXTURE_WORKSPACE, {
      home: options.home,
      workspaceParent: options.workspaceParent,
      workspaceSettings: options.workspaceSettings,
      env: options.ideEnv,
      userSettings:
        options.sandbox || options.confirmations === false
          ? {
              [AGENT_CONSENT_SETTING]: CONSENT_VERSION,
              ...(options.sandbox && sandboxPreferences(options.sandbox)),
              ...(options.confirmations === false && { 'openspace.security.confirmDangerousCommands': false }),
            }
          : undefined,
      maxCallsPerTurn: options.maxCallsPerTurn,
      sessionIdleMs: options.sessionIdleMs,
      languageServers: options.languageServers,
      languageServerReadyWaitMs: options.languageServerReadyWaitMs,
    });
    return {
      name: 'theia',
      origin: theia.origin,
      mcpUrl: theia.mcpUrl,
      token: theia.token,
      headers: authHeaders(theia.token),
      workspaceDir: theia.workspace,
      page: theia.page,
      typescriptServerPid: () => theia.childPid('typescript-language-server'),
      close: () => theia.close(),
    };
  }
  if (/^https?:\/\//.test(target)) {
    const url = new URL(target);
    const token = process.env.OPENSPACE_TOKEN ?? (await readLockFile(Number(url.port)))?.authToken;
    return { name: target, origin: url.origin, mcpUrl: url.href, token, headers: authHeaders(token), close: async () => {} };
  }
  throw new Error(`OPENSPACE_TARGET must be "sim" or a hub's MCP URL, not "${target}"`);
}

/** The person's sandbox choices as Theia's user settings. */
function sandboxPreferences(choices: SandboxChoices): Record<string, unknown> {
  return {
    ...(choices.enabled !== undefined && { [SANDBOX_ENABLED_SETTING]: choices.enabled }),
    ...(choices.network !== undefined && { [SANDBOX_NETWORK_SETTING]: choices.network }),
    ...(choices.hiddenPaths !== undefined && { [SANDBOX_HIDDEN_PATHS_SETTING]: choices.hiddenPaths }),
    ...(choices.allowedHosts !== undefined && { [SANDBOX_ALLOWED_HOSTS_SETTING]: choices.allowedHosts }),
    ...(choices.homeReadable !== undefined && { [SANDBOX_HOME_READABLE_SETTING]: choices.homeReadable }),
  };
}
