import {
  NODE_COMMANDS,
  failure,
  runNodeCommand,
  serializableContext,
  toFailure,
  ToolError,
  type AgentCallEvents,
  type CallContext,
  type CodePort,
  type GitPort,
  type NodeEditors,
  type NodeIde,
  type TestPort,
  type ToolResult,
  type WorkspacePort,
} from '../../../../src/browser.js';
import type { WorkspaceFiles } from '../../../../src/node.js';
import type { BridgeFrontend, WindowView } from '../common/protocol.js';
import type { CallFilePolicy } from './call-file-policy.js';

/** A call still running after this long shows in the window's status bar (as a call run there does). */
const SHOW_RUNNING_AFTER_MS = 250;
/** How long a call waits for a window that has just connected to say what it shows. */
const VIEW_WAIT_MS = 5_000;

/** What the commands beside the files use of the backend: the workspace's files and language servers, and the file policy of each call. */
export interface BackendParts {
  files(root: string): Promise<WorkspaceFiles>;
  /** The language servers of the workspace, seeing these editor buffers (a path whose text is undefined is as on disk). */
  code(root: string, buffers: Record<string, string | undefined>): Promise<CodePort>;
  /** The workspace's git repository, seen with the file policy of the call it serves. */
  git(root: string): GitPort;
  policies: CallFilePolicy;
  /** The workspace's tests, run in the sandbox the window's settings describe. */
  tests(root: string, sandbox: WindowView['sandbox'], runners: WindowView['testRunners']): TestPort;
}

/**
 * The commands that run beside the files (files, code intelligence, git, tests, a board's shapes;
 * NODE_COMMANDS), run in the backend next to the hub for one window: the agent's calls from the
 * hub and the person's from that window's palette. Their IDE port is the backend's store and
 * language servers, with what only the window knows asked of it when it matters — only for a file it
 * shows (an editor's unsaved changes, showing what was written) — or kept from what it published
 * (WindowView: the files it shows, the file-pattern settings, consent). A call about files the window does not show crosses to it not
 * at all, where it used to cross twice.
 */
export class BesideFiles {
  private view: WindowView | undefined;
  private readonly firstView: Promise<void>;
  private viewArrived!: () => void;
  private calls = 0;
  private files: { root: string; files: Promise<WorkspaceFiles> } | undefined;

  constructor(
    private readonly window: BridgeFrontend,
    private readonly backend: BackendParts,
  ) {
    this.firstView = new Promise((resolve) => (this.viewArrived = resolve));
  }

  publish(view: WindowView): void {
    this.view = view;
    this.viewArrived();
  }

  async run(commandId: string, args: unknown, context?: CallContext): Promise<ToolResult> {
    const command = NODE_COMMANDS.get(commandId);
    if (!command) return failure('UNKNOWN_TOOL', `${commandId} does not run beside the files.`);
    const call = { callId: ++this.calls, tool: commandId, startedAt: Date.now() };
    const told = context && serializableContext(context)!;
    const running = told && setTimeout(() => this.tell({ ...call, context: told }), SHOW_RUNNING_AFTER_MS);
    let logFailure = false;
    const events: AgentCallEvents = { duringAgentCall: (run) => run(), agentCallFailed: () => void (logFailure = true) };
    let result: ToolResult;
    try {
      const view = await this.currentView();
      const policy = this.backend.policies.compile(view.policy);
      const ide = await this.ide(view);
      result = await this.backend.policies.run(policy, () => runNodeCommand(command, ide, args, context, events));
    } catch (err) {
      // Failing before the command ran (no folder, invalid file patterns) is a failed call all the same.
      result = toFailure(err);
      logFailure = !context?.cleanup;
    } finally {
      clearTimeout(running);
    }
    // What the window shows of the answer: whether it failed, and why (not a file's text).
    if (told)
      this.tell({ ...call, context: told, result: result.success ? { success: true } : failure(result.code, result.error), logFailure });
    return result;
  }

  /** The repository of the workspace the window shows, for the person's views, and a path in it checked by the path guard. */
  async personsGit(path: string): Promise<{ git: GitPort; path: string }> {
    const { git, resolve } = await this.personsRepository();
    return { git, path: await resolve(path) };
  }

  /** Files' staged or committed texts for the person's views; a path the path guard refuses has none. */
  async personsOriginals(wanted: { path: string; ref: 'index' | 'HEAD' }[]): Promise<(string | undefined)[]> {
    const { git, resolve } = await this.personsRepository();
    const paths = await Promise.all(wanted.map(({ path }) => resolve(path).catch(() => undefined)));
    const asked = wanted.flatMap(({ ref }, i) => (paths[i] === undefined ? [] : [{ path: paths[i], ref }]));
    const texts = (await git.originals(asked)).values();
    return paths.map((path) => (path === undefined ? undefined : texts.next().value));
  }

  private async personsRepository(): Promise<{ git: GitPort; resolve: (path: string) => Promise<string> }> {
    const view = await this.currentView();
    if (!view.root) throw new ToolError('NO_WORKSPACE', 'No folder is open in this IDE.');
    const files = await this.filesOf(view.root);
    return { git: this.backend.git(view.root), resolve: (path) => files.resolve(path) };
  }

  /** Tell the window of a call once its answer is on its way: writing to the window's socket costs the backend a millisecond or two. */
  private tell(call: Parameters<BridgeFrontend['notifyAgentCall']>[0]): void {
    setImmediate(() => this.window.notifyAgentCall(call).catch(() => undefined));
  }

  private async currentView(): Promise<WindowView> {
    if (!this.view) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, VIEW_WAIT_MS)));
      await Promise.race([this.firstView, late]).finally(() => clearTimeout(timer));
    }
    if (!this.view) throw new ToolError('BRIDGE_UNAVAILABLE', 'The IDE window has not said what it shows yet; retry in a moment.');
    return this.view;
  }

  /** The workspace's files, once the backend checked that `root` is the workspace it opened. */
  private filesOf(root: string): Promise<WorkspaceFiles> {
    if (this.files?.root !== root) {
      const files = this.backend.files(root);
      this.files = { root, files };
      files.catch(() => (this.files = undefined));
    }
    return this.files.files;
  }

  /** The IDE port of one call: the window's view as it was when the call began. */
  private async ide(view: WindowView): Promise<NodeIde> {
    if (!view.root) {
      throw new ToolError(
        'NO_WORKSPACE',
        'No folder is open in this IDE, so there are no workspace files. Ask the person to open one (File → Open Folder), then retry.',
      );
    }
    const root = view.root;
    const open = new Set(view.editors.map((e) => e.path));
    const shownIn = (path: string) => (open.has(path) ? 'editor' : view.views.includes(path) ? 'view' : undefined);
    // The buffers of the open editors; their unsaved text is asked of the window at the first code
    // question or text read of this call, and only while there is some: a file call never asks.
    const buffers: Record<string, string | undefined> = Object.fromEntries(view.editors.map((e) => [e.path, undefined]));
    let unsaved: Promise<void> | undefined;
    const withUnsaved = () =>
      (unsaved ??= view.editors.some((e) => e.isDirty)
        ? this.window.unsavedBuffers().then(async (texts) => {
            Object.assign(buffers, texts);
            await this.backend.code(root, buffers);
          })
        : Promise.resolve());
    const [files, code] = await Promise.all([this.filesOf(root), this.backend.code(root, buffers)]);
    const editors: NodeEditors = {
      // Whether an open editor has unsaved changes is asked at the moment it matters, not taken from the view.
      get: (path) => (open.has(path) ? this.window.editor(path) : undefined),
      list: () => view.editors,
      text: async (path) => (await withUnsaved(), buffers[path]),
      discard: (path) => this.window.discard(path),
    };
    return {
      workspace: showingWrites(files, shownIn, (path, text) => this.window.fileWritten(path, text)),
      code: askingFirst(code, withUnsaved),
      git: this.backend.git(root),
      tests: this.backend.tests(root, view.sandbox, view.testRunners),
      editors,
      openViews: () => view.views,
      security: {
        confirmDangerousCommands: () => view.confirms,
        confirmAction: (question) => this.window.confirmAction(question),
        agentConsent: async (context) => {
          if (view.consented) return true;
          const granted = await this.window.agentConsent(serializableContext(context)!);
          if (granted && this.view) this.view.consented = true;
          return granted;
        },
      },
    };
  }
}

/** The language servers, with `first` done before each question (the window's unsaved text in place). */
function askingFirst(port: CodePort, first: () => Promise<void>): CodePort {
  const after =
    <A extends unknown[], R>(ask: (...args: A) => Promise<R>) =>
    async (...args: A) => (await first(), ask.apply(port, args));
  return {
    fileEndings: after(port.fileEndings),
    diagnostics: after(port.diagnostics),
    workspaceSymbols: after(port.workspaceSymbols),
    documentSymbols: after(port.documentSymbols),
    definition: after(port.definition),
    references: after(port.references),
    hover: after(port.hover),
    takeNotice: () => port.takeNotice(),
    problemCounts: () => port.problemCounts(),
    onProblemsChanged: (listener) => port.onProblemsChanged(listener),
  };
}

/**
 * The store, with each write the window shows told to it before the write answers. An open editor
 * shows it before the answer (its model reads the file again). A deck or a board takes the text as
 * the message arrives, without a round trip: the window handles its messages in order, so whatever
 * the agent asks of it next (a camera fit, a slide) comes after the view took the write.
 */
function showingWrites(
  files: WorkspaceFiles,
  shownIn: (path: string) => 'editor' | 'view' | undefined,
  show: (path: string, text: string) => Promise<void>,
): WorkspacePort {
  const after = async (path: string, text: () => Promise<string>) => {
    const shown = shownIn(path);
    if (shown === 'editor') await show(path, await text());
    else if (shown === 'view') void show(path, await text()).catch(() => undefined);
  };
  return {
    rootPath: () => files.rootPath(),
    resolve: (path) => files.resolve(path),
    stat: (path) => files.stat(path),
    readText: (path) => files.readText(path),
    list: (path, options) => files.list(path, options),
    search: (options) => files.search(options),
    snapshots: (path) => files.snapshots(path),
    onFileWritten: (listener) => files.onFileWritten(listener),
    writeText: async (path, text, options) => {
      const written = await files.writeText(path, text, options);
      await after(path, async () => text);
      return written;
    },
    patch: async (path, request, options) => {
      const patched = await files.patch(path, request, options);
      await after(path, async () => (await files.readText(path)).text);
      return patched;
    },
    restore: async (path, request, options) => {
      const restored = await files.restore(path, request, options);
      await after(path, async () => (await files.readText(path)).text);
      return restored;
    },
  };
}
