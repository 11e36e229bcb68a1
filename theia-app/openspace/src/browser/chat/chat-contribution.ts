/**
 * The chat panel's place in the IDE: View → Chat and "View: Toggle Chat View" (Ctrl+Alt+I) open it
 * in the right panel; a permission request that arrives while it is hidden is a notification with
 * the same three answers.
 */
import { AbstractViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import type { CommandRegistry } from '@theia/core/lib/common/command';
import type { KeybindingRegistry } from '@theia/core/lib/browser/keybinding';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import type { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { MessageService } from '@theia/core/lib/common/message-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { PermissionReply, PermissionRequest, QuestionRequest } from '../../common/chat-protocol.js';
import { ChatService } from './chat-service.js';
import { CHAT_WIDGET_ID, ChatWidget } from './chat-widget.js';
import { describePermission } from './tool-lines.js';

export const TOGGLE_CHAT = 'openspace.chat.toggle';
/** The editor's selection (or its file) into the chat's draft as an @ mention, as Claude Code's IDE integration does. */
export const ADD_SELECTION_TO_CHAT = { id: 'openspace.chat.addSelection', label: 'Chat: Add Selection as @ Mention' };

const ANSWERS: Record<string, PermissionReply> = { 'Allow once': 'once', 'Always allow': 'always', Reject: 'reject' };

@injectable()
export class ChatContribution extends AbstractViewContribution<ChatWidget> implements FrontendApplicationContribution {
  @inject(ChatService) protected readonly chat!: ChatService;
  @inject(MessageService) protected readonly notices!: MessageService;
  @inject(EditorManager) protected readonly editors!: EditorManager;
  @inject(WorkspaceService) protected readonly workspaceService!: WorkspaceService;

  constructor() {
    super({
      widgetId: CHAT_WIDGET_ID,
      widgetName: 'Chat',
      defaultWidgetOptions: { area: 'right', rank: 100 },
      toggleCommandId: TOGGLE_CHAT,
      toggleKeybinding: 'ctrlcmd+alt+i',
    });
  }

  onStart(): void {
    this.chat.onPermissionAsked((request) => void this.notifyIfHidden(request));
    this.chat.onQuestionAsked((request) => void this.showQuestionIfHidden(request));
    void this.chat.attach();
  }

  override registerCommands(commands: CommandRegistry): void {
    super.registerCommands(commands);
    commands.registerCommand(ADD_SELECTION_TO_CHAT, {
      isEnabled: () => this.editors.currentEditor !== undefined,
      execute: () => this.addSelection(),
    });
  }

  override registerKeybindings(keybindings: KeybindingRegistry): void {
    super.registerKeybindings(keybindings);
    keybindings.registerKeybinding({ command: ADD_SELECTION_TO_CHAT.id, keybinding: 'ctrlcmd+alt+k', when: 'editorFocus' });
  }

  /** `@path#L10-20` for the selected lines (`@path` with no selection) at the end of the chat's draft, the chat shown. */
  private async addSelection(): Promise<void> {
    const editor = this.editors.currentEditor?.editor;
    const root = this.workspaceService.tryGetRoots()[0]?.resource;
    if (!editor || !root) return;
    const path = root.relative(editor.uri)?.toString() ?? editor.uri.path.toString();
    const { start, end } = editor.selection;
    // A selection ending at a line's start does not take that line.
    const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
    const selected = start.line !== end.line || start.character !== end.character;
    const lines = !selected ? '' : last === start.line ? `#L${start.line + 1}` : `#L${start.line + 1}-${last + 1}`;
    await this.openView({ activate: true, reveal: true });
    this.chat.insert(`@${path}${lines} `);
  }

  private shownIn(sessionID: string): boolean {
    const widget = this.tryGetWidget();
    return widget !== undefined && widget.isVisible && widget.isAttached && this.chat.activeSessionID === sessionID;
  }

  /** A question has answers of its own to pick: the notification opens the chat on its session. */
  private async showQuestionIfHidden(request: QuestionRequest): Promise<void> {
    if (this.shownIn(request.sessionID)) return;
    const header = request.questions.map((q) => q.header).join(', ');
    const answer = await this.notices.info(`${this.chat.chosenChatAgent} has a question: ${header}`, 'Open Chat');
    if (answer !== 'Open Chat') return;
    await this.chat.selectSession(request.sessionID);
    await this.openView({ activate: true, reveal: true });
  }

  private async notifyIfHidden(request: PermissionRequest): Promise<void> {
    if (this.shownIn(request.sessionID)) return;
    const answer = await this.notices.info(`${this.chat.chosenChatAgent} asks to ${describePermission(request)}`, ...Object.keys(ANSWERS));
    if (answer && this.chat.model.permissions.has(request.id)) await this.chat.reply(request, ANSWERS[answer]!);
  }
}
