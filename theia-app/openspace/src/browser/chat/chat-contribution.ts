/**
 * The chat panel's place in the IDE: View → Chat and "View: Toggle Chat View" (Ctrl+Alt+I) open it
 * in the right panel; a permission request that arrives while it is hidden is a notification with
 * the same three answers.
 */
import { AbstractViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import type { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { MessageService } from '@theia/core/lib/common/message-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { PermissionReply, PermissionRequest, QuestionRequest } from '../../common/chat-protocol.js';
import { ChatService } from './chat-service.js';
import { CHAT_WIDGET_ID, ChatWidget } from './chat-widget.js';
import { describePermission } from './tool-lines.js';

export const TOGGLE_CHAT = 'openspace.chat.toggle';

const ANSWERS: Record<string, PermissionReply> = { 'Allow once': 'once', 'Always allow': 'always', Reject: 'reject' };

@injectable()
export class ChatContribution extends AbstractViewContribution<ChatWidget> implements FrontendApplicationContribution {
  @inject(ChatService) protected readonly chat!: ChatService;
  @inject(MessageService) protected readonly notices!: MessageService;

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

  private shownIn(sessionID: string): boolean {
    const widget = this.tryGetWidget();
    return widget !== undefined && widget.isVisible && widget.isAttached && this.chat.activeSessionID === sessionID;
  }

  /** A question has answers of its own to pick: the notification opens the chat on its session. */
  private async showQuestionIfHidden(request: QuestionRequest): Promise<void> {
    if (this.shownIn(request.sessionID)) return;
    const header = request.questions.map((q) => q.header).join(', ');
    const answer = await this.notices.info(`OpenCode has a question: ${header}`, 'Open Chat');
    if (answer !== 'Open Chat') return;
    await this.chat.selectSession(request.sessionID);
    await this.openView({ activate: true, reveal: true });
  }

  private async notifyIfHidden(request: PermissionRequest): Promise<void> {
    if (this.shownIn(request.sessionID)) return;
    const answer = await this.notices.info(`OpenCode asks to ${describePermission(request)}`, ...Object.keys(ANSWERS));
    if (answer && this.chat.model.permissions.has(request.id)) await this.chat.reply(request, ANSWERS[answer]!);
  }
}
