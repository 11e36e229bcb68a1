/**
 * The real Theia IDE as a conformance target: the built Theia backend on a fresh copy of the
 * fixture workspace, and a headless Chromium window showing it (agent tools need a window: the
 * CommandBridge lives in the frontend). Build it first with `npm run theia:build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { debianPythonFirst } from './python-path.js';
import { startTheia } from './theia-launch.js';
import { lockDir, readLockFile } from '../src/security/lock-file.js';
import type { LanguageServerConfig } from '../src/lsp/language-server.js';
import { LANGUAGE_SERVERS_ENV, READY_WAIT_ENV } from '../src/lsp/servers.js';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../src/security/consent.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TheiaTarget {
  origin: string;
  mcpUrl: string;
  /** The hub's access token, from the lock file Theia's backend wrote. */
  token: string | undefined;
  workspace: string;
  /** The window's browser context: `context.newPage()` opens another window on the same Chromium. */
  context: BrowserContext;
  page: Page;
  /** The process id of a process Theia's backend started whose command line holds `match`. */
  childPid(match: string): Promise<number | undefined>;
  /** The lines the backend logged as errors so far (Theia's "root ERROR …"), the last 200. */
  backendErrors(): string[];
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

const VIEWPORT = { width: 1440, height: 900 };

/**
 * One Chromium profile per test process, kept from one Theia to the next, and the port its Theias
 * listen on: Chromium keeps the frontend's compiled code in the profile by URL, so the third and
 * later loads of the same Theia take ~4.6 s instead of ~8 (a fresh profile compiles its 40 MB
 * again). What a window stores (local storage, IndexedDB, cookies) is cleared before each start,
 * so each spec file still meets a Theia as a new person would. A second Theia at once in the same
 * process gets a fresh profile.
 */
const kept: { profile?: string; port: number; inUse: boolean } = { port: 0, inUse: false };

interface ChromiumWindow {
  context: BrowserContext;
  page: Page;
  /** In the kept profile. */
  kept: boolean;
  close(): Promise<void>;
}

/** A Chromium window: in the kept profile when it is free (see `kept`), else in a fresh one. */
async function openWindow(): Promise<ChromiumWindow> {
  if (kept.inUse) {
    const browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORT });
    return { context, page: await context.newPage(), kept: false, close: () => browser.close() };
  }
  kept.inUse = true;
  if (!kept.profile) {
    const profile = mkdtempSync(join(tmpdir(), 'openspace-chromium-'));
    process.once('exit', () => rmSync(profile, { recursive: true, force: true }));
    kept.profile = profile;
  }
  try {
    const context = await chromium.launchPersistentContext(kept.profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const close = async () => {
      await context.close();
      kept.inUse = false;
    };
    return { context, page, kept: true, close };
  } catch (err) {
    kept.inUse = false;
    throw err;
  }
}

/** What earlier windows at `origin` stored (local storage, IndexedDB, cookies …), cleared; the cache stays. */
async function forgetStored(window: ChromiumWindow, origin: string): Promise<void> {
  if (!window.kept) return;
  const cdp = await window.context.newCDPSession(window.page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin,
    storageTypes: 'cookies,file_systems,indexeddb,local_storage,websql,service_workers,cache_storage',
  });
  await cdp.detach();
}

/** Wait until the hub reports a connected IDE window. */
export async function waitForBridge(origin: string, token?: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/openspace/health`, { headers });
    if (!res.ok) throw new Error(`GET ${origin}/openspace/health answered ${res.status}: ${await res.text()}`);
    if (((await res.json()) as { bridge: { connected: boolean } }).bridge.connected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No Theia window connected to the hub at ${origin} within ${timeoutMs} ms`);
}

export interface TheiaTargetOptions {
  /**
   * The user settings Theia starts with (THEIA_CONFIG_DIR/settings.json), added to TEST_PERSON_SETTINGS.
   * By default the agent-consent notice counts as accepted for good, as a person's "Don't show this
   * again" stores it.
   */
  userSettings?: Record<string, unknown>;
  /** Tool calls per agent turn (default 0: no limit, as for every target the suite starts). */
  maxCallsPerTurn?: number;
  /** How long an idle MCP session lives (default: the hub's 30 min). */
  sessionIdleMs?: number;
  /** Start Theia with no folder open (the fixture is still copied, and `workspace` names the copy). */
  noFolder?: boolean;
  /** Language servers beside TypeScript's (as `npm run theia -- --language-server` gives them). */
  languageServers?: LanguageServerConfig[];
  /** How long a code call waits for a starting server before LSP_NOT_READY (default 3 s). */
  languageServerReadyWaitMs?: number;
  /** The IDE's home directory (HOME of the backend and its shells); default: an empty one of its own. */
  home?: string;
  /** Where the fresh copy of the fixture goes (default: the system's temporary directory). */
  workspaceParent?: string;
  /** The copy's .theia/settings.json, written before Theia starts (what a cloned repository brings). */
  workspaceSettings?: Record<string, unknown>;
  /** Environment variables of Theia's backend besides the test's own (e.g. a PATH without bwrap). */
  env?: Record<string, string>;
}

/**
 * Settings of the person a test plays at the keyboard. Enter inserts a line break instead of
 * accepting a suggestion: Monaco offers words from open documents 10 ms into a word, so whether a
 * typed "\n" became a line break depended on how fast the keys came.
 */
export const TEST_PERSON_SETTINGS = { 'editor.acceptSuggestionOnEnter': 'off' };

export async function startTheiaTarget(fixture: string, options: TheiaTargetOptions = {}): Promise<TheiaTarget> {
  const workspace = await mkdtemp(join(options.workspaceParent ?? tmpdir(), 'openspace-theia-'));
  const config = await mkdtemp(join(tmpdir(), 'openspace-theia-config-'));
  await cp(fixture, workspace, { recursive: true });
  if (options.workspaceSettings) {
    await mkdir(join(workspace, '.theia'));
    await writeFile(join(workspace, '.theia', 'settings.json'), JSON.stringify(options.workspaceSettings, null, 2));
  }
  await writeFile(
    join(config, 'settings.json'),
    JSON.stringify({ ...TEST_PERSON_SETTINGS, ...(options.userSettings ?? { [AGENT_CONSENT_SETTING]: CONSENT_VERSION }) }, null, 2),
  );
  // The IDE's shells start in a home of their own: this machine's ~/.bashrc (pyenv init, say) would
  // make every terminal's start depend on it, and a shell killed mid-start can leave its locks behind.
  const home = options.home ?? join(config, 'home');
  if (!options.home) await mkdir(home);
  const env = {
    HOME: home,
    PATH: debianPythonFirst(),
    OPENSPACE_LOCK_DIR: lockDir(),
    THEIA_CONFIG_DIR: config,
    OPENSPACE_MAX_CALLS_PER_TURN: String(options.maxCallsPerTurn ?? 0),
    ...(options.sessionIdleMs !== undefined && { OPENSPACE_SESSION_IDLE_MS: String(options.sessionIdleMs) }),
    ...(options.languageServers && { [LANGUAGE_SERVERS_ENV]: JSON.stringify(options.languageServers) }),
    ...(options.languageServerReadyWaitMs !== undefined && { [READY_WAIT_ENV]: String(options.languageServerReadyWaitMs) }),
    ...options.env,
  };
  const folder = options.noFolder ? undefined : workspace;
  // Chromium starts while the backend does (a second or so of each spec file's start).
  const port = kept.inUse ? 0 : kept.port;
  const opening = openWindow();
  // Drain the backend's stderr (a full pipe would block it); keep its tail for a failure's message.
  let stderr = '';
  const errors: string[] = [];
  const start = (port: number) => {
    const started = startTheia(folder, port, 'pipe', env);
    started.child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    for (const stream of [started.child.stdout, started.child.stderr])
      stream?.on('data', (chunk: Buffer) => {
        errors.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line) => / ERROR /.test(line)),
        );
        errors.splice(0, Math.max(0, errors.length - 200));
      });
    return started;
  };
  // The port of this process's last Theia, for the kept profile's cache; any free one if it is taken.
  let { child, origin: listening } = start(port);
  if (
    port !== 0 &&
    (await listening.then(
      () => false,
      () => true,
    ))
  ) {
    stderr = '';
    errors.length = 0;
    ({ child, origin: listening } = start(0));
  }
  let origin: string;
  let token: string | undefined;
  try {
    origin = await listening.catch((err: Error) => {
      throw new Error(`${err.message}\n${stderr}`);
    });
    token = (await readLockFile(Number(new URL(origin).port), 10_000))?.authToken;
  } catch (err) {
    child.kill('SIGTERM');
    await opening.then((window) => window.close()).catch(() => undefined);
    throw err;
  }
  const window = await opening;
  if (window.kept) kept.port = Number(new URL(origin).port);
  await forgetStored(window, origin);
  const { context, page } = window;
  await page.goto(origin);
  await waitForBridge(origin, token);
  // The bridge registers as the layout is made; Theia takes keys only once its loading screen has gone.
  await page.locator('.theia-preload').waitFor({ state: 'detached', timeout: 60_000 });
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    token,
    workspace,
    context,
    page,
    childPid: (match) => descendantPid(child.pid!, match),
    backendErrors: () => [...errors],
    async close() {
      await window.close();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(workspace, { recursive: true, force: true });
      await rm(config, { recursive: true, force: true });
    },
  };
}

/** The first process under `root` (children, theirs, …) whose command line holds `match`; Linux's /proc. */
async function descendantPid(root: number, match: string): Promise<number | undefined> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(entry), ppid);
  }
  const under = (pid: number): boolean => {
    for (let p = parents.get(pid); p; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  for (const pid of parents.keys()) {
    if (!under(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(match)) return pid;
  }
  return undefined;
}
