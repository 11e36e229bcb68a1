import { Emitter } from '@theia/core/lib/common/event';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { KeybindingContribution, KeybindingRegistry } from '@theia/core/lib/browser/keybinding';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import type { RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
import { MessageService } from '@theia/core/lib/common/message-service';
import type { Disposable } from '@theia/core/lib/common/disposable';
import { inject, injectable, interfaces } from '@theia/core/shared/inversify';
import {
  COMMANDS,
  IdeState,
  WINDOW_COMMANDS,
  runCommand,
  terminalScreens,
  GitSummary,
  ideEvents,
  proposals,
  StatePublisher,
} from '../../../../src/browser.js';
import type { IdePort, CallContext, ToolResult } from '../../../../src/browser.js';
import { BRIDGE_PATH, type BackendCall, type BridgeBackend, type BridgeFrontend } from '../common/protocol.js';
import { AgentFailureNotices } from './agent-failures.js';
import { WindowViewPublisher } from './window-view.js';
import { HAS_AGENT_HIGHLIGHTS, TheiaEditorPort } from './theia-editor-port.js';
import { askArguments } from './palette-prompts.js';
import { QuickInputPromptUi } from './quick-input-prompts.js';
import { RemoteWorkspacePort } from './remote-workspace-port.js';
import { TheiaShellPort } from './theia-shell-port.js';
import { TheiaSecurityPort } from './theia-security-port.js';
import { TheiaPresentationPort } from './presentation/theia-presentation-port.js';
import { TheiaCodePort } from './theia-code-port.js';
import { TheiaWhiteboardPort } from './whiteboard/theia-whiteboard-port.js';
import { TheiaTerminalPort } from './theia-terminal-port.js';
import { TheiaReviewPort } from './theia-review-port.js';
import { TheiaDebugPort } from './debug/theia-debug-port.js';
import { AgentStatus } from './agent-status.js';

export const TheiaIdePort = Symbol('TheiaIdePort');

/** Connects this window to the backend's bridge endpoint, exposing `frontend` to it. */
export const BridgeConnector = Symbol('BridgeConnector');
export type BridgeConnector = (frontend: BridgeFrontend) => RpcProxy<BridgeBackend>;

export function createBridgeConnector(ctx: interfaces.Context): BridgeConnector {
  return (frontend) => ServiceConnectionProvider.createProxy<BridgeBackend>(ctx.container, BRIDGE_PATH, frontend);
}

export function createIdePort(ctx: interfaces.Context): IdePort {
  const ide: IdePort = {
    shell: ctx.container.get(TheiaShellPort),
    editors: ctx.container.get(TheiaEditorPort),
    terminals: ctx.container.get(TheiaTerminalPort),
    workspace: ctx.container.get(RemoteWorkspacePort),
    presentations: ctx.container.get(TheiaPresentationPort),
    whiteboards: ctx.container.get(TheiaWhiteboardPort),
    code: ctx.container.get(TheiaCodePort),
    review: ctx.container.get(TheiaReviewPort),
    debug: ctx.container.get(TheiaDebugPort),
    sourceControl: ctx.container.get(GitSummary),
    security: ctx.container.get(TheiaSecurityPort),
    state: new IdeState(),
  };
  // Keep every terminal's output (sanitized, redacted) from the first terminal on, the person's
  // doings from the start, and hear their decisions on proposals.
  terminalScreens(ide);
  ideEvents(ide);
  proposals(ide);
  return ide;
}

const CLEAR_ON_ESCAPE = 'openspace.editor.clearHighlightsOnEscape';

/**
 * BridgeContribution (FR-3.7): offers this window's CommandRegistry to the hub as its
 * CommandBridge, registers it on start, on reconnection and whenever the window gains focus (the
 * last focused window serves), and publishes the pane layout to the hub at most once a second.
 */
@injectable()
export class BridgeContribution implements FrontendApplicationContribution {
  @inject(CommandRegistry) protected readonly commands!: CommandRegistry;
  @inject(TheiaIdePort) protected readonly ide!: IdePort;
  @inject(BridgeConnector) protected readonly connect!: BridgeConnector;
  @inject(TheiaShellPort) protected readonly shellPort!: TheiaShellPort;
  @inject(AgentStatus) protected readonly agentStatus!: AgentStatus;
  @inject(AgentFailureNotices) protected readonly failures!: AgentFailureNotices;
  @inject(WindowViewPublisher) protected readonly view!: WindowViewPublisher;
  @inject(TheiaEditorPort) protected readonly editors!: TheiaEditorPort;
  @inject(RemoteWorkspacePort) protected readonly workspace!: RemoteWorkspacePort;

  private backend!: RpcProxy<BridgeBackend>;
  private readonly gitCalls = new Emitter<void>();
  private readonly testCalls = new Emitter<BackendCall>();
  private readonly personTestRuns = new Emitter<Promise<ToolResult>>();
  private publisher: StatePublisher | undefined;
  /** The agents' calls running here that their clients may cancel, by the backend's call id. */
  private readonly cancellable = new Map<number, AbortController>();
  private viewPublishing: Disposable | undefined;

  onStart(): void {
    const frontend: BridgeFrontend = {
      execute: async (commandId, args, context, callId) => {
        if (!context || callId === undefined) return (await this.commands.executeCommand<ToolResult>(commandId, args, context))!;
        // A call its client may cancel: the backend says so with notifyCancelled.
        const cancel = new AbortController();
        this.cancellable.set(callId, cancel);
        try {
          return (await this.commands.executeCommand<ToolResult>(commandId, args, { ...context, signal: cancel.signal }))!;
        } finally {
          this.cancellable.delete(callId);
        }
      },
      notifyCancelled: async (callId) => this.cancellable.get(callId)?.abort(),
      sessionsChanged: async (sessions) => this.agentStatus.sessionsChanged(sessions),
      // What the commands beside the files ask of this window (see WindowView).
      editor: async (path) => this.editors.openFiles().find((e) => e.path === path),
      unsavedBuffers: async () =>
        Object.fromEntries(
          this.editors.openFiles().flatMap(({ path, isDirty }) => (isDirty ? [[path, this.editors.text(path) ?? '']] : [])),
        ),
      discard: (path) => this.editors.discard(path),
      fileWritten: (path, text) => this.workspace.showWritten(path, text),
      agentConsent: async (context) => {
        const granted = await this.ide.security!.agentConsent!(context);
        if (granted) this.view.changed();
        return granted;
      },
      confirmAction: (question) => this.ide.security!.confirmAction!(question),
      notifyAgentCall: async (call) => this.backendCall(call),
    };
    this.backend = this.connect(frontend);
    // Which debugger a running program takes is known beside it, in the backend.
    (this.ide.debug as TheiaDebugPort).attachLanguage = (target, language) => this.backend.debugAttachLanguage(target, language);
    (this.ide.debug as TheiaDebugPort).launchTarget = (launch, root) => this.backend.debugLaunchTarget(launch, root);
    this.viewPublishing = this.view.start((view) => this.backend.publishView(view));
    this.backend.onDidOpenConnection(() => void this.register());
    window.addEventListener('focus', () => void this.register());
    // A read-only probe for tests: xterm and Excalidraw draw on canvases, so what they show is not
    // in the DOM; and whether the tabs a command showed or closed after answering are in place.
    const terminals = this.ide.terminals as TheiaTerminalPort;
    const boards = this.ide.whiteboards as TheiaWhiteboardPort;
    Object.assign(window, {
      openspaceProbe: {
        terminalScreen: (id: string) => terminals.screen(id),
        settled: () => this.shellPort.settled(),
        whiteboardElements: (path: string) =>
          boards
            .shown(path)
            ?.sceneElements()
            .map((e) => JSON.parse(JSON.stringify(e))),
        whiteboardFlushed: (path: string) => boards.shown(path)?.flushed(),
      },
    });
  }

  onDidInitializeLayout(): void {
    void this.register();
    // Measuring the layout forces one; it waits for the window to be idle, after the command, but at
    // most 100 ms: with one publish a second (FR-3.10.4), a change the second one folds in reaches
    // the hub's instructions within about a second (1.5 s with a 500 ms wait, on a busy machine).
    const whenIdle = (run: () => void) => void requestIdleCallback(run, { timeout: 100 });
    this.publisher = new StatePublisher(this.ide, (snapshot) => this.backend.publishState(snapshot), 1000, whenIdle);
  }

  onStop(): void {
    this.publisher?.dispose();
    this.viewPublishing?.dispose();
  }

  /** Run a command of a family that runs beside the files, in the backend (the person's palette). */
  runBesideFiles(commandId: string, args: unknown, context?: CallContext): Promise<ToolResult> {
    return this.backend.run(commandId, args, context);
  }

  /** Files' staged (index) or committed (HEAD) texts, for the source-control view and the editor's change markers. */
  gitOriginals(wanted: { path: string; ref: 'index' | 'HEAD' }[]): Promise<(string | undefined)[]> {
    return this.backend.gitOriginals(wanted);
  }

  /** Stage this text as the file's: the person stages one change from the editor's change markers. */
  gitStageText(path: string, text: string): Promise<void> {
    return this.backend.gitStageText(path, text);
  }

  /** Fires after an agent's git call the backend ran changed the repository (the source-control view refreshes). */
  readonly onGitCall = this.gitCalls.event;

  /** Fires for an agent's test call the backend runs, once it has run a while and with its answer (the Test Explorer shows the agent's runs). */
  readonly onTestCall = this.testCalls.event;

  /** Fires when the person runs openspace.test.run as a command (the palette, a keybinding), with its answer to come. */
  readonly onPersonTestRun = this.personTestRuns.event;

  personTestRun(answer: Promise<ToolResult>): void {
    this.personTestRuns.fire(answer);
  }

  /** An agent's call the backend ran: in the status bar, the event log and, failed, a notification, as a call run here. */
  private backendCall(call: BackendCall): void {
    this.agentStatus.backendCall(call);
    if (call.result && call.tool.startsWith('openspace.git.')) this.gitCalls.fire();
    if (call.tool.startsWith('openspace.test.')) this.testCalls.fire(call);
    const result = call.result;
    if (!result || result.success) return;
    if (call.logFailure) ideEvents(this.ide).agentCallFailed(call.tool, result.code);
    this.failures.notify(call.tool, result, call.context);
  }

  private async register(): Promise<void> {
    // The backend knows what this window shows before the hub sends it calls.
    await this.view.publish();
    await this.backend.register();
    this.agentStatus.sessionsChanged(await this.backend.sessions());
  }
}

/**
 * Every openspace.* tool as a command in Theia's CommandRegistry (TC-3.1.3), labelled
 * "OpenSpace: …" for the palette; the agent reaches the very same handlers through the bridge. The
 * commands of the families that run beside the files (files, code intelligence) run in the backend,
 * where the agent's calls of them run too: here they ask for their arguments and hand over.
 */
@injectable()
export class OpenSpaceCommandContribution implements CommandContribution, KeybindingContribution {
  @inject(TheiaIdePort) protected readonly ide!: IdePort;
  @inject(TheiaEditorPort) protected readonly editors!: TheiaEditorPort;
  @inject(TheiaShellPort) protected readonly shellPort!: TheiaShellPort;
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(QuickInputPromptUi) protected readonly prompts!: QuickInputPromptUi;
  @inject(AgentStatus) protected readonly agentStatus!: AgentStatus;
  @inject(AgentFailureNotices) protected readonly failures!: AgentFailureNotices;
  @inject(BridgeContribution) protected readonly bridge!: BridgeContribution;

  registerCommands(registry: CommandRegistry): void {
    for (const command of COMMANDS.values()) {
      registry.registerCommand(
        { id: command.tool.name, label: `OpenSpace: ${command.tool.title}` },
        {
          // The bridge passes the agent's CallContext; the palette and keybindings pass nothing.
          execute: async (args?: unknown, context?: CallContext) => {
            const fromPalette = args === undefined;
            // A person is asked for the arguments; Escape at a prompt runs nothing.
            if (fromPalette) args = await askArguments(command.tool, this.ide, this.prompts);
            if (args === undefined) return undefined;
            // A command starts on a settled layout: what an earlier one began showing is in place.
            await this.shellPort.settled();
            const inWindow = WINDOW_COMMANDS.get(command.tool.name);
            const run = inWindow
              ? () => runCommand(inWindow, this.ide, args, context)
              : () => this.bridge.runBesideFiles(command.tool.name, args, context);
            const running = context ? this.agentStatus.track(command.tool.name, context, run) : run();
            // The person's test run from the palette or a keybinding shows in the Test Explorer as its own buttons' do.
            if (!context && command.tool.name === 'openspace.test.run') this.bridge.personTestRun(running);
            const result = await running;
            if (!context) ideEvents(this.ide).personRan(command.tool, args, result.success);
            if (fromPalette) this.report(command.tool.title, result);
            else if (!result.success) this.failures.notify(command.tool.name, result, context);
            return result;
          },
        },
      );
    }
    registry.registerCommand({ id: CLEAR_ON_ESCAPE }, { execute: () => this.editors.clearHighlightsInCurrentEditor() });
  }

  registerKeybindings(keybindings: KeybindingRegistry): void {
    keybindings.registerKeybinding({ command: CLEAR_ON_ESCAPE, keybinding: 'escape', when: `editorTextFocus && ${HAS_AGENT_HIGHLIGHTS}` });
  }

  /** A person running a command from the palette sees what it did. */
  private report(title: string, result: ToolResult): void {
    if (result.success) void this.messages.info(`OpenSpace: ${title} — done.`);
    else void this.messages.error(`OpenSpace: ${title} — ${result.error}`);
  }
}
