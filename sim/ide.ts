import { join } from 'node:path';
import type { FullIde, GitPort, TestPort, TestRunInfo } from '../src/families/index.js';
import { ToolError, type CallContext, type TerminalInfo } from '../src/contract/index.js';
import { GitRepository } from '../src/families/git/repository.js';
import { GitSummary } from '../src/families/git/summary.js';
import { testSandbox, WorkspaceTests } from '../src/families/test/service.js';
import { AdapterDebugger } from '../src/families/debug/service.js';
import { TEST_RUNNERS_SETTING, TestRunner } from '../src/families/test/tools.js';
import type { BoxVerdict } from '../src/contract/port.js';
import type { CommandBridge } from '../src/hub/bridge.js';
import { z } from 'zod';
import { AUDIT_LOG_FILE, NdjsonAuditLog } from '../src/security/audit-log.js';
import { ConsentGate, consentMessage } from '../src/security/consent.js';
import { createFilePolicy, type FilePolicy } from '../src/security/file-policy.js';
import {
  HiddenPathSetting,
  sandboxSettings,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_NETWORK_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  AllowedHostSetting,
  type SandboxChoices,
  type SandboxSettings,
} from '../src/security/sandbox.js';
import { probeBwrap } from '../src/security/sandbox-host.js';
import { SandboxRuntime } from '../src/security/sandbox-runtime.js';
import { assessInBox } from '../src/security/box-check.js';
import { CODE_RUNNING_PATTERNS } from '../src/security/code-running-paths.js';
import picomatch from 'picomatch';
import { terminalScreens } from '../src/families/terminal/output.js';
import { ideEvents } from '../src/commands/event-log.js';
import { IdeState } from '../src/commands/ide-state.js';
import { proposals } from '../src/families/editor/review.js';
import { WorkspaceFiles } from '../src/store/workspace-files.js';
import type { LanguageServerConfig } from '../src/lsp/language-server.js';
import { LspCodePort } from '../src/lsp/lsp-code-port.js';
import { WorkspaceMirror } from '../src/lsp/mirror.js';
import { typescriptServer } from '../src/lsp/typescript.js';
import { SimEditors } from './editors.js';
import { SimLayout } from './layout.js';
import { SimPresentations } from './presentations.js';
import { SimWhiteboards } from './whiteboards.js';
import { AllowedCommands } from './allowed-commands.js';
import { SimReview, type ProposalDecision } from './review.js';
import { registerOpenSpaceCommands, registryBridge, SimCommandRegistry } from './registry.js';
import { createScriptedShell, type ScriptedResponse } from './scripted-shell.js';
import { spawnPty } from './pty-shell.js';
import { SimTerminals, type TerminalBackendKind } from './terminals.js';
import { loadWorkspace, type LoadedWorkspace, type WorkspaceSpec } from './workspace.js';

export interface SimIdeOptions {
  workspace?: WorkspaceSpec;
  /** Default: 'process' for a directory on disk, 'scripted' for an in-memory workspace. */
  terminal?: TerminalBackendKind;
  /** Canned answers of the scripted shell, checked before its built-in commands. */
  scriptedResponses?: ScriptedResponse[];
  /** Lines an editor viewport shows. */
  viewportLines?: number;
  ringBuffer?: { maxLines?: number; maxBytes?: number };
  /**
   * NFR-3.8.2: whether agents may run commands without asking first. Default: granted for the
   * in-memory demo workspace (nothing of the person's is at stake), 'ask' for a directory on disk —
   * the first agent call asks at the agent's side (MCP elicitation) or answers CONSENT_REQUIRED.
   */
  consent?: 'granted' | 'ask';
  /**
   * Whether dangerous terminal commands wait for a person's yes (default true). Only the person
   * starting the IDE turns it off (`--no-confirm`): a workspace's settings file may not.
   */
  confirmDangerousCommands?: boolean;
  /** The language servers code intelligence uses (default: TypeScript/JavaScript's); each starts on first use. */
  languageServers?: LanguageServerConfig[];
  /** How long a code tool waits for a starting language server before it answers LSP_NOT_READY. */
  languageServerReadyWaitMs?: number;
  /**
   * What decides an agent's edit proposal when its MCP client cannot ask the person at its side
   * (elicitation): 'accept' (the default, so an agent's flow runs through), 'reject', or 'wait' for
   * the person API (review.personDecides).
   */
  proposals?: ProposalDecision;
  /** Whether agents may read the terminals its person opened (terminals.personOpens); default no. */
  personTerminalReads?: 'allow' | 'refuse';
  /** The user-level file of "always allow" rules for agents' commands (the CLI: ~/.openspace/allowed-commands.json); none: kept in memory. */
  allowedCommandsFile?: string;
  /**
   * The person's choices for the sandbox agent terminals run in (`--no-sandbox`, `--sandbox-network
   * off`, `--sandbox-hide PATH`): on, with network, by default. The workspace's settings file may
   * only tighten them.
   */
  sandbox?: SandboxChoices;
  /** The person's home directory: their shells' HOME, and where hidden paths starting with ~/ are (default: this process's). */
  home?: string;
}

/** The in-memory demo workspace is in no git repository: every git call answers so. */
const NO_REPOSITORY: GitPort = new Proxy({} as GitPort, {
  get: () => async () => {
    throw new ToolError(
      'NOT_A_REPOSITORY',
      'The in-memory demo workspace is not a git repository. Start the simulated IDE on a folder that is one: npm start -- --workspace DIR.',
    );
  },
});

/**
 * The simulated IDE: layout, editors, terminals and workspace behind the IDE port, its command
 * registry with every openspace.* command, and the in-process bridge the hub calls.
 */
export class SimIde {
  readonly registry = new SimCommandRegistry();
  readonly bridge: CommandBridge;
  readonly port: FullIde;
  readonly presentations: SimPresentations;
  readonly whiteboards: SimWhiteboards;
  readonly code: LspCodePort;
  readonly review: SimReview;
  /** The person's answer when an agent wants to read a terminal they opened (the simulated IDE has no dialog). */
  personTerminalReads: 'allow' | 'refuse';
  /** The person's "always allow" rules for agents' commands in this workspace. */
  readonly allowedCommands: AllowedCommands;
  private mirror: WorkspaceMirror | undefined;
  /** The sandbox of the in-memory workspace's test runs (in the mirror). */
  private mirrorSandbox: SandboxRuntime | null | undefined;
  /** The sandbox of agent terminals (process terminals with bubblewrap), set once made. */
  private sandbox: ReturnType<typeof agentShellSandbox>;
  private constructor(
    readonly workspace: LoadedWorkspace,
    readonly files: WorkspaceFiles,
    readonly layout: SimLayout,
    readonly editors: SimEditors,
    readonly terminals: SimTerminals,
    readonly terminalBackend: TerminalBackendKind,
    confirmDangerousCommands: boolean,
    consent: 'granted' | 'ask',
    /** The workspace's .openspace/audit.ndjson (in the memfs volume for an in-memory workspace): the hub's call lines and the store's write lines. */
    readonly audit: NdjsonAuditLog,
    ringBuffer: SimIdeOptions['ringBuffer'],
    languageServers: Pick<
      SimIdeOptions,
      'languageServers' | 'languageServerReadyWaitMs' | 'proposals' | 'personTerminalReads' | 'allowedCommandsFile' | 'sandbox'
    >,
  ) {
    // No person at the simulated IDE: dangerous commands and consent are asked at the agent's side
    // (MCP elicitation) when the client can, and are refused otherwise.
    const gate = new ConsentGate<CallContext>(
      async (context) => (context.ask ? (await context.ask(consentMessage(context.clientName))) === true : false),
      consent === 'granted',
    );
    this.presentations = new SimPresentations(layout, files);
    this.whiteboards = new SimWhiteboards(layout);
    this.review = new SimReview(layout, languageServers.proposals);
    this.personTerminalReads = languageServers.personTerminalReads ?? 'refuse';
    this.allowedCommands = new AllowedCommands(workspace.root, languageServers.allowedCommandsFile);
    // Language servers read a project from disk: an in-memory workspace gets a mirror there.
    this.code = new LspCodePort({
      serverRoot:
        workspace.kind === 'memory'
          ? () => (this.mirror ??= WorkspaceMirror.create(workspace.fs, workspace.root, files)).dir
          : workspace.root,
      workspace: files,
      buffers: { text: (path) => editors.text(path), paths: () => editors.list().map((e) => e.path) },
      servers: languageServers.languageServers ?? [typescriptServer()],
      readyWaitMs: languageServers.languageServerReadyWaitMs,
    });
    const repository = workspace.kind === 'disk' ? new GitRepository(workspace.root, files.policy) : undefined;
    this.port = {
      shell: layout,
      editors,
      terminals,
      workspace: files,
      presentations: this.presentations,
      whiteboards: this.whiteboards,
      openViews: () => [...this.presentations.views().map((v) => v.deckPath), ...this.whiteboards.openBoards()],
      code: this.code,
      review: this.review,
      git: repository ?? NO_REPOSITORY,
      tests:
        workspace.kind === 'disk'
          ? new WorkspaceTests({
              root: workspace.root,
              sandbox: () => this.sandbox && testSandbox(this.sandbox.runtime, workspace.root),
              chosen: () => testRunnersSetting(workspace),
            })
          : this.mirroredTests(workspace, files, languageServers.sandbox),
      debug: new AdapterDebugger(() => {
        if (workspace.kind === 'disk') return { root: workspace.root, sandbox: this.sandbox?.runtime };
        const { dir, runtime } = this.mirrored(workspace, files, languageServers.sandbox);
        return { root: dir, sandbox: runtime };
      }),
      // Read again after every command (sim/registry.ts), at most once a second.
      ...(repository && { sourceControl: new GitSummary(() => repository.status()) }),
      security: {
        confirmDangerousCommands: () => confirmDangerousCommands,
        protectedPaths: () => (path) => files.policy.isProtected(path),
        agentConsent: (context) => gate.check(context),
        terminalReadConsent: async () => this.personTerminalReads === 'allow',
        allowedCommands: () => this.allowedCommands.rules(),
        assessInBox: async (terminal, text) => this.assessInBox(terminal, text),
        grantHosts: async (hosts) => this.sandbox?.runtime.grant(hosts),
        rememberCommand: async (rule) => this.allowedCommands.remember(rule),
      },
      state: new IdeState({ terminalOutput: ringBuffer }),
    };
    terminalScreens(this.port);
    ideEvents(this.port);
    proposals(this.port);
    registerOpenSpaceCommands(this.registry, this.port);
    (this.port.sourceControl as GitSummary | undefined)?.nudge();
    this.bridge = registryBridge(this.registry);
  }

  static async create(options: SimIdeOptions = {}): Promise<SimIde> {
    const workspace = loadWorkspace(options.workspace ?? { kind: 'memory' });
    const backend = options.terminal ?? (workspace.kind === 'disk' ? 'process' : 'scripted');
    if (backend === 'process' && workspace.kind !== 'disk') {
      throw new Error('Process terminals run a real shell and need a real directory: pass --workspace DIR, or use --terminal scripted.');
    }
    const settings = readSettings(workspace, options.sandbox ?? {});
    const audit = new NdjsonAuditLog(workspace.fs.promises, join(workspace.root, AUDIT_LOG_FILE));
    const files = await WorkspaceFiles.create({
      fs: workspace.fs,
      root: workspace.root,
      kind: workspace.kind,
      policy: settings.policy,
      audit,
      watch: true,
    });
    const layout = new SimLayout();
    const sandbox =
      backend === 'process' ? agentShellSandbox(settings.sandbox, workspace.root, options.home, settings.protectedPatterns) : undefined;
    const spawn = async ({ cwd, shellPath, personal }: { cwd: string; shellPath?: string; personal: boolean }) => {
      const absolute = join(workspace.root, cwd);
      if (backend !== 'process')
        return createScriptedShell({ fs: workspace.fs, root: workspace.root, cwd: absolute, responses: options.scriptedResponses });
      const boxed = sandbox && !personal;
      const shell = await spawnPty({
        shell: shellPath,
        cwd: absolute,
        env: options.home === undefined ? undefined : { HOME: options.home },
        agent: !personal,
        sandbox: boxed ? (command, env) => sandbox.shell(command, absolute, env) : undefined,
      });
      // A sandbox ended: the empty mount points it kept in the workspace go (when no other needs them).
      if (boxed) shell.onExit(() => sandbox.runtime.release());
      return shell;
    };
    const terminals = new SimTerminals(layout, { spawn });
    const editors = new SimEditors(layout, files, options.viewportLines);
    const consent = options.consent ?? (workspace.kind === 'disk' ? 'ask' : 'granted');
    const ide = new SimIde(
      workspace,
      files,
      layout,
      editors,
      terminals,
      backend,
      options.confirmDangerousCommands ?? true,
      consent,
      audit,
      options.ringBuffer,
      options,
    );
    ide.sandbox = sandbox;
    return ide;
  }

  /**
   * The in-memory workspace's copy on disk (the language servers' mirror) and a sandbox of the
   * copy's own, where its tests and programs run; made at the first need.
   */
  private mirrored(workspace: LoadedWorkspace, files: WorkspaceFiles, choices: SandboxChoices | undefined) {
    const dir = (this.mirror ??= WorkspaceMirror.create(workspace.fs, workspace.root, files)).dir;
    if (this.mirrorSandbox === undefined) {
      const settings = sandboxSettings(choices ?? {}).settings;
      this.mirrorSandbox = settings.enabled && probeBwrap().available ? new SandboxRuntime(settings, { workspace: dir }) : null;
    }
    return { dir, runtime: this.mirrorSandbox ?? undefined };
  }

  /**
   * The in-memory workspace's tests, run in its copy on disk (the language servers' mirror, whose
   * node_modules links the packages package.json names from OpenSpace's own install), in a sandbox
   * of the copy's own. Made at the first test call.
   */
  private mirroredTests(workspace: LoadedWorkspace, files: WorkspaceFiles, choices: SandboxChoices | undefined): TestPort {
    let tests: WorkspaceTests | undefined;
    const listeners = new Set<(run: TestRunInfo) => void>();
    const made = () => {
      if (tests) return tests;
      const { dir, runtime } = this.mirrored(workspace, files, choices);
      tests = new WorkspaceTests({
        root: dir,
        sandbox: () => runtime && testSandbox(runtime, dir),
        chosen: () => testRunnersSetting(workspace),
      });
      tests.onRun((run) => listeners.forEach((listener) => listener(run)));
      return tests;
    };
    return {
      get sandboxed() {
        return made().sandboxed;
      },
      discover: (paths) => made().discover(paths),
      run: (request) => made().run(request),
      last: () => tests?.last(),
      cancel: () => tests?.cancel() ?? false,
      onRun: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    };
  }

  /**
   * What a command typed into an agent terminal needs beyond its sandbox; undefined for a shell
   * outside any sandbox. The scripted shell reaches nothing but the in-memory workspace: only what
   * it would delete there counts.
   */
  private assessInBox(terminal: TerminalInfo, text: string): BoxVerdict | undefined {
    const cwd = join(this.workspace.root, terminal.cwd);
    if (this.terminalBackend === 'scripted') {
      const fs = this.workspace.fs;
      const root = this.workspace.root;
      const exists = (rel: string) => fs.existsSync(join(root, rel));
      const readOnly = picomatch([...CODE_RUNNING_PATTERNS], { dot: true });
      return assessInBox(text, {
        workspace: root,
        cwd,
        home: '/home/agent',
        holdsPersonFiles: exists,
        isDirectory: (rel) => exists(rel) && fs.statSync(join(root, rel)).isDirectory(),
        globHoldsPersonFiles: () => true,
        isReadOnly: (rel) => (readOnly(rel) ? rel : undefined),
        hostAllowed: () => true,
      });
    }
    if (!terminal.sandboxed || !this.sandbox) return undefined;
    return this.sandbox.runtime.assess(text, cwd, this.terminals.pid(terminal.terminalId));
  }

  /**
   * Stop everything; resolves when the language servers have exited, the file watcher has stopped and
   * the sandboxes have ended. What fails on the way out (a watcher closed while it starts) is dropped:
   * nothing is left to tell, and an IDE that stops must not end its process with an error.
   */
  async dispose(): Promise<void> {
    const debugged = this.port.debug instanceof AdapterDebugger ? this.port.debug.dispose() : undefined;
    const servers = this.code.dispose().finally(() => this.mirror?.dispose());
    this.terminals.dispose();
    this.editors.dispose();
    this.port.state.dispose();
    this.presentations.dispose();
    this.whiteboards.dispose();
    const quietly = (stopping: Promise<void> | undefined) => stopping?.catch(() => undefined);
    await Promise.all([
      servers,
      quietly(this.files.dispose()),
      quietly(this.sandbox?.runtime.dispose()),
      quietly(this.mirrorSandbox?.dispose()),
      quietly(debugged),
    ]);
  }
}

/** The workspace's `.openspace/settings.json`, the simulated IDE's counterpart of Theia's preferences. */
export const SETTINGS_FILE = '.openspace/settings.json';

const Settings = z.looseObject({
  'openspace.security.sensitiveFilePatterns': z.array(z.string()).optional(),
  'openspace.security.protectedFilePatterns': z.array(z.string()).optional(),
  'openspace.security.confirmDangerousCommands': z.boolean().optional(),
  [SANDBOX_ENABLED_SETTING]: z.boolean().optional(),
  [SANDBOX_NETWORK_SETTING]: z.boolean().optional(),
  [SANDBOX_HIDDEN_PATHS_SETTING]: z.array(HiddenPathSetting).optional(),
  [SANDBOX_ALLOWED_HOSTS_SETTING]: z.array(AllowedHostSetting).optional(),
});

interface SimSettings {
  policy: FilePolicy;
  sandbox: SandboxSettings;
  /** The person's own protected patterns (the workspace's settings): read-only in the sandbox too. */
  protectedPatterns?: string[];
}

/**
 * The workspace's settings may tighten protection (more sensitive or protected patterns, a stricter
 * sandbox), never loosen it: a cloned repository must not turn off the confirmation of dangerous
 * commands or the sandbox for whoever opens it (that is the command line's, the person's own choice).
 */
function readSettings(workspace: LoadedWorkspace, person: SandboxChoices): SimSettings {
  const path = join(workspace.root, SETTINGS_FILE);
  if (!workspace.fs.existsSync(path)) return { policy: createFilePolicy(), sandbox: sandboxSettings(person).settings };
  const where = `${SETTINGS_FILE} in the workspace`;
  let json: unknown;
  try {
    json = JSON.parse(String(workspace.fs.readFileSync(path, 'utf8')));
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = Settings.safeParse(json);
  if (!parsed.success) throw new Error(`${where}: ${z.prettifyError(parsed.error)}`);
  if (parsed.data['openspace.security.confirmDangerousCommands'] === false) {
    process.stderr.write(
      `openspace: warning: ${where} sets openspace.security.confirmDangerousCommands to false; ignored, since a workspace may not ` +
        'loosen protection (start the simulated IDE with --no-confirm to turn the confirmation off yourself)\n',
    );
  }
  const sandbox = sandboxSettings(person, {
    enabled: parsed.data[SANDBOX_ENABLED_SETTING],
    network: parsed.data[SANDBOX_NETWORK_SETTING],
    hiddenPaths: parsed.data[SANDBOX_HIDDEN_PATHS_SETTING],
    allowedHosts: parsed.data[SANDBOX_ALLOWED_HOSTS_SETTING],
  });
  if (sandbox.ignored.length > 0) {
    process.stderr.write(
      `openspace: warning: ${where} sets ${sandbox.ignored.join(' and ')}; ignored, since a workspace may not loosen the sandbox ` +
        'of agent terminals (that is your choice when you start the simulated IDE: --no-sandbox, --sandbox-network)\n',
    );
  }
  try {
    const policy = createFilePolicy({
      sensitivePatterns: parsed.data['openspace.security.sensitiveFilePatterns'],
      protectedPatterns: parsed.data['openspace.security.protectedFilePatterns'],
    });
    return { policy, sandbox: sandbox.settings, protectedPatterns: parsed.data['openspace.security.protectedFilePatterns'] };
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`, { cause: err });
  }
}

/** The workspace's openspace.test.runners, read at each test call (a person may set it any time). */
function testRunnersSetting(workspace: LoadedWorkspace): readonly string[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(String(workspace.fs.readFileSync(join(workspace.root, SETTINGS_FILE), 'utf8')));
  } catch {
    return undefined; // none, or not JSON: the IDE said so when it started
  }
  const value = (json as Record<string, unknown> | null)?.[TEST_RUNNERS_SETTING];
  if (value === undefined) return undefined;
  const parsed = z.array(TestRunner).min(1).safeParse(value);
  if (!parsed.success)
    throw new ToolError(
      'INVALID_FILE',
      `${SETTINGS_FILE}: ${TEST_RUNNERS_SETTING} must list runners among ${TestRunner.options.join(', ')}.`,
      {
        path: SETTINGS_FILE,
      },
    );
  return parsed.data;
}

/**
 * The sandbox agent shells start in, or undefined when they run without one: turned off, or
 * bubblewrap cannot make one here (said once, on stderr; then every agent command asks first).
 */
function agentShellSandbox(settings: SandboxSettings, workspace: string, home: string | undefined, protectedPatterns?: string[]) {
  if (!settings.enabled) return undefined;
  const bwrap = probeBwrap();
  if (!bwrap.available) {
    process.stderr.write(
      `openspace: warning: agent terminals run WITHOUT a sandbox: ${bwrap.reason}. Install bubblewrap (e.g. apt-get install bubblewrap) ` +
        'to keep their commands from your files outside the workspace and from your credentials; until then every command an agent types waits for your yes.\n',
    );
    return undefined;
  }
  const runtime = new SandboxRuntime(settings, { workspace, home, protectedPatterns });
  return {
    runtime,
    async shell(command: string[], cwd: string, env: Record<string, string>): Promise<string[]> {
      const line = await runtime.command(command, cwd, env);
      if ('unavailable' in line) throw new Error(`the sandbox cannot start: ${line.unavailable}`);
      return line;
    },
  };
}
