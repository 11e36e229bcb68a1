/**
 * The chat panel (TECHSPEC §4.3): a Theia ReactWidget in the right panel rendering ChatView from
 * the ChatService's state, with the person's actions wired to the service and the IDE (a file
 * reference opens the file at its line; a code block copies or opens in a new editor).
 */
import * as React from 'react';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { UntitledResourceResolver } from '@theia/core/lib/common/resource';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { MessageService } from '@theia/core/lib/common/message-service';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import type { SessionStatus, TurnChange } from '../../common/chat-protocol.js';
import { filesBefore } from './turn-changes.js';
import { reviewApplied, type IdePort } from '../../../../../src/browser.js';
import { TheiaIdePort } from '../openspace-contribution.js';
import { ChatService } from './chat-service.js';
import { ChatView, type ChatActions } from './chat-view.js';
import './chat.css';

export const CHAT_WIDGET_ID = 'openspace-chat';

@injectable()
export class ChatWidget extends ReactWidget {
  @inject(ChatService) protected readonly chat!: ChatService;
  @inject(OpenerService) protected readonly openers!: OpenerService;
  @inject(ClipboardService) protected readonly clipboard!: ClipboardService;
  @inject(UntitledResourceResolver) protected readonly untitled!: UntitledResourceResolver;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(TheiaIdePort) protected readonly ide!: IdePort;
  @inject(FileService) protected readonly files!: FileService;
  @inject(MessageService) protected readonly messages!: MessageService;
  private showSessions = false;

  @postConstruct()
  protected init(): void {
    this.id = CHAT_WIDGET_ID;
    this.title.label = 'Chat';
    this.title.caption = this.chat.statusLine();
    this.title.iconClass = 'codicon codicon-comment-discussion';
    this.title.closable = true;
    this.addClass('os-chat-widget');
    this.toDispose.push(
      this.chat.onDidChange(() => {
        this.title.caption = this.chat.statusLine();
        this.update();
      }),
    );
    this.update();
  }

  /** The hub's instructions read this into the "Right panel" line (theia-shell-port.ts). */
  statusLine(): string {
    return this.chat.statusLine();
  }

  protected override onAfterShow(): void {
    if (this.chat.connection.state === 'stopped') void this.chat.start();
  }

  protected override onActivateRequest(): void {
    const input = this.node.querySelector('textarea');
    if (input) input.focus();
    else this.node.focus();
  }

  private readonly actions: ChatActions = {
    retry: () => void this.chat.start(),
    newSession: () => void this.chat.newSession(),
    selectSession: (id) => {
      this.showSessions = false;
      void this.chat.selectSession(id);
    },
    deleteSession: (id) => void this.chat.deleteSession(id),
    fork: (messageID) => void this.chat.fork(messageID),
    revert: (messageID) => void this.chat.revert(messageID),
    unrevert: () => void this.chat.unrevert(),
    abort: () => void this.chat.abort(),
    compact: () => void this.chat.compact(),
    send: (text, images) => void this.chat.send(text, images),
    selectModel: (model) => this.chat.selectModel(model),
    selectAgent: (name) => this.chat.selectAgent(name),
    selectChatAgent: (name) => void this.chat.selectChatAgent(name),
    reply: (requestID, reply) => {
      const request = this.chat.model.permissions.get(requestID);
      if (request) void this.chat.reply(request, reply);
    },
    answer: (requestID, answers) => void this.chat.answerQuestion(requestID, answers),
    dismiss: (requestID) => void this.chat.dismissQuestion(requestID),
    openFile: (path, line) => void this.openFile(path, line),
    reviewChanges: (changes) => void this.reviewChanges(changes),
    openCode: (code, lang) => void this.openCode(code, lang),
    copy: (text) => void this.clipboard.writeText(text),
  };

  private async openFile(path: string, line?: number): Promise<void> {
    const root = this.workspace.tryGetRoots()[0]?.resource;
    if (!root) return;
    const uri = path.startsWith('/') ? root.withPath(path) : root.resolve(path.replace(/^\.\//, ''));
    const position = line !== undefined ? { line: Math.max(0, line - 1), character: 0 } : undefined;
    await open(this.openers, uri, position ? { selection: { start: position, end: position } } : undefined);
  }

  /**
   * A turn's changes as a change set reviewed hunk by hunk (the diff's Accept keeps a hunk, Reject
   * puts back what was there); a file the agent created and the person rejected whole is deleted.
   */
  private async reviewChanges(changes: TurnChange[]): Promise<void> {
    const agent = this.chat.chosenChatAgent ?? 'the agent';
    const read = (path: string) =>
      this.ide.workspace.readText(path).then(
        (file) => file.text,
        () => null,
      );
    const { files, changedSince } = await filesBefore(changes, read);
    if (changedSince.length > 0) this.messages.warn(`Changed since the turn, so not shown: ${changedSince.join(', ')}`);
    if (files.length === 0 && changedSince.length > 0) return;
    const shown = await reviewApplied(this.ide, `Changes by ${agent}`, files).catch((error: Error) => {
      this.messages.error(`Could not show the changes: ${error.message}`);
      return null;
    });
    if (shown === undefined) this.messages.info('Nothing to review: the files are as they were before the turn.');
    if (!shown) return;
    try {
      const answer = await shown.done;
      const root = this.workspace.tryGetRoots()[0]?.resource;
      for (const [i, file] of shown.files.entries()) {
        if (root && file.applied?.created && answer.files[i]?.status === 'rejected') await this.files.delete(root.resolve(file.path));
      }
    } catch (error) {
      this.messages.error(`Not all of the review could be carried out: ${(error as Error).message}`);
    }
  }

  private async openCode(code: string, lang: string): Promise<void> {
    const extension = LANGUAGE_EXTENSIONS[lang.toLowerCase()] ?? (lang ? `.${lang}` : '.txt');
    const resource = await this.untitled.createUntitledResource(code, extension);
    await open(this.openers, resource.uri);
  }

  protected render(): React.ReactNode {
    const chat = this.chat;
    const session = chat.activeSession;
    return (
      <div className="os-chat-root">
        <div className="os-chat-header-row">
          <button
            className="theia-button secondary os-chat-sessions-toggle"
            title="Sessions"
            aria-pressed={this.showSessions}
            onClick={() => {
              this.showSessions = !this.showSessions;
              this.update();
            }}
          >
            Sessions ({chat.model.sessionList().length})
          </button>
        </div>
        <ChatView
          connection={chat.connection}
          sessions={chat.model.sessionList()}
          activeSession={session}
          messages={session ? (chat.model.messages.get(session.id) ?? []) : []}
          busy={session ? chat.model.busy(session.id) : false}
          error={session ? (chat.model.errors.get(session.id) ?? retrying(chat.model.statuses.get(session.id))) : undefined}
          permissions={session ? chat.model.permissionsFor(session.id) : []}
          questions={session ? chat.model.questionsFor(session.id) : []}
          models={chat.catalog.models}
          model={chat.currentModel}
          agents={chat.agents}
          agent={chat.currentAgent}
          chatAgents={chat.chatAgents}
          chatAgent={chat.chosenChatAgent}
          insertion={chat.insertion}
          showSessions={this.showSessions}
          actions={this.actions}
        />
      </div>
    );
  }
}

/** OpenCode retrying a provider (unreachable, rate-limited) says why, instead of a silent "Working…". */
function retrying(status: SessionStatus | undefined): string | undefined {
  return status?.type === 'retry' ? `OpenCode is retrying (attempt ${status.attempt}): ${status.message}` : undefined;
}

const LANGUAGE_EXTENSIONS: Record<string, string> = {
  typescript: '.ts',
  ts: '.ts',
  tsx: '.tsx',
  javascript: '.js',
  js: '.js',
  python: '.py',
  py: '.py',
  bash: '.sh',
  sh: '.sh',
  shell: '.sh',
  json: '.json',
  markdown: '.md',
  md: '.md',
  yaml: '.yaml',
  yml: '.yaml',
  html: '.html',
  css: '.css',
  rust: '.rs',
  go: '.go',
  java: '.java',
};
