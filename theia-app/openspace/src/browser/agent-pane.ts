import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { CommonCommands } from '@theia/core/lib/browser/common-commands';
import { ContextKeyService, type ContextKey } from '@theia/core/lib/browser/context-key-service';
import type { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { KeybindingRegistry } from '@theia/core/lib/browser/keybinding';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { CommandService, type CommandContribution, type CommandRegistry } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import { isOSX } from '@theia/core/lib/common/os';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';
import type { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { TerminalWatcher } from '@theia/terminal/lib/common/terminal-watcher';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { AGENT_ARGS, AGENT_COMMAND } from '../common/preferences.js';
import { AGENT_PANE_PATH, type AgentPaneBackend } from '../common/protocol.js';

export const AgentPaneBackendProxy = Symbol('AgentPaneBackendProxy');

export function createAgentPaneBackendProxy(ctx: interfaces.Context): AgentPaneBackend {
  return ServiceConnectionProvider.createProxy<AgentPaneBackend>(ctx.container, AGENT_PANE_PATH);
}

/** The pane's terminal widget keeps this ID, so Theia's layout restores it where it was after a reload. */
export const AGENT_PANE_ID = 'openspace-agent-pane';
export const TOGGLE_AGENT_PANE = { id: 'openspace.agentPane.toggle', label: 'OpenSpace: Toggle Agent Pane' };
/** True while the agent pane has focus: Ctrl+L toggles it there, and stays the shell's in other terminals. */
const AGENT_PANE_FOCUS = 'openspaceAgentPaneFocus';

/**
 * The agent pane (Oxide §7, "Mode 2"): the person's agent CLI (the setting openspace.agent.command)
 * in a terminal in the right panel, started with this IDE's hub configured so it drives the IDE at
 * once. Ctrl+L shows and hides it; a CLI that exited starts again; a missing one is a message.
 */
@injectable()
export class AgentPane implements CommandContribution, FrontendApplicationContribution {
  @inject(KeybindingRegistry) protected readonly keybindings!: KeybindingRegistry;
  @inject(TerminalService) protected readonly terminals!: TerminalService;
  @inject(TerminalWatcher) protected readonly terminalWatcher!: TerminalWatcher;
  @inject(ApplicationShell) protected readonly shell!: ApplicationShell;
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(CommandService) protected readonly commands!: CommandService;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(ContextKeyService) protected readonly contextKeys!: ContextKeyService;
  @inject(AgentPaneBackendProxy) protected readonly backend!: AgentPaneBackend;
  private focused: ContextKey<boolean> | undefined;

  onStart(): void {
    this.focused = this.contextKeys.createKey(AGENT_PANE_FOCUS, false);
    this.shell.onDidChangeActiveWidget(() => this.focused?.set(this.shell.activeWidget?.id === AGENT_PANE_ID));
    this.terminalWatcher.onTerminalExit(({ terminalId, code }) => {
      const pane = this.pane();
      if (pane?.terminalId === terminalId)
        pane.write(`\r\n\x1b[1m[The agent exited${code === undefined ? '' : ` with code ${code}`}. Ctrl+L starts it again.]\x1b[0m\r\n`);
    });
  }

  registerCommands(registry: CommandRegistry): void {
    registry.registerCommand(TOGGLE_AGENT_PANE, { execute: () => this.toggle() });
  }

  onDidInitializeLayout(): void {
    // Ctrl+L is also Monaco's "expand line selection", whose binding Theia prefers in a focused
    // editor (its `editorTextFocus` is local to the editor): it goes (macOS keeps it, on Cmd+L),
    // and ours names `editorTextFocus` too. Registered after every contribution's, so it comes
    // first. In other terminals than the pane, Ctrl+L still clears the screen.
    if (!isOSX) this.keybindings.unregisterKeybinding({ id: 'editor.action.expandLineSelection' });
    this.keybindings.registerKeybinding({
      command: TOGGLE_AGENT_PANE.id,
      keybinding: 'ctrl+l',
      when: `editorTextFocus || !terminalFocus || ${AGENT_PANE_FOCUS}`,
    });
  }

  pane(): TerminalWidget | undefined {
    return this.terminals.getById(AGENT_PANE_ID);
  }

  async toggle(): Promise<void> {
    const pane = this.pane();
    if (pane && pane.exitStatus === undefined) {
      if (pane.isVisible) await this.shell.collapsePanel('right');
      else await this.shell.activateWidget(AGENT_PANE_ID);
      return;
    }
    pane?.dispose();
    await this.start();
  }

  private async start(): Promise<void> {
    const command = this.preferences.get<string>(AGENT_COMMAND, 'opencode');
    const launch = await this.backend.launch(command, this.preferences.get<string[]>(AGENT_ARGS, []));
    if (!launch.ok) {
      const action = await this.messages.error(`Agent pane: ${launch.message}`, 'Open Settings');
      if (action) await this.commands.executeCommand(CommonCommands.OPEN_PREFERENCES.id, AGENT_COMMAND);
      return;
    }
    const widget = await this.terminals.newTerminal({
      id: AGENT_PANE_ID,
      title: `Agent: ${command.split('/').pop()}`,
      shellPath: launch.shellPath,
      shellArgs: launch.shellArgs,
      env: launch.env,
      cwd: this.workspace.tryGetRoots()[0]?.resource.toString(),
      destroyTermOnClose: true,
      useServerTitle: false,
    });
    await widget.start();
    await this.terminals.open(widget, { widgetOptions: { area: 'right' }, mode: 'activate' });
    // Room for an agent's TUI: the right panel opens at 40% of the window, as a chat panel would.
    this.shell.resize(Math.round(window.innerWidth * 0.4), 'right');
  }
}
