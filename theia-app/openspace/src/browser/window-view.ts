import { DisposableCollection, type Disposable } from '@theia/core/lib/common/disposable';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { WidgetManager } from '@theia/core/lib/browser/widget-manager';
import { inject, injectable } from '@theia/core/shared/inversify';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import {
  AGENT_CONSENT_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
  SANDBOX_NETWORK_SETTING,
  TEST_RUNNERS_SETTING,
} from '../../../../src/browser.js';
import type { WindowView } from '../common/protocol.js';
import { PROTECTED_FILE_PATTERNS, SENSITIVE_FILE_PATTERNS } from '../common/preferences.js';
import { ContentIds } from './content-ids.js';
import { filePolicySettings } from './file-policy-settings.js';
import { PresentationWidget } from './presentation/presentation-widget.js';
import { TheiaEditorPort } from './theia-editor-port.js';
import { TheiaSecurityPort } from './theia-security-port.js';
import { TheiaSandbox } from './theia-sandbox.js';
import { WhiteboardWidget } from './whiteboard/whiteboard-widget.js';

/** The views of whole files besides text editors: a deck's slides, a board's scene. */
const FILE_VIEWS = [PresentationWidget.FACTORY_ID, WhiteboardWidget.FACTORY_ID];
const VIEW_SETTINGS = [
  SENSITIVE_FILE_PATTERNS,
  PROTECTED_FILE_PATTERNS,
  AGENT_CONSENT_SETTING,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_NETWORK_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  TEST_RUNNERS_SETTING,
];

/**
 * What this window tells the backend for the commands that run there, beside the files
 * (WindowView): the files it shows, which of them have unsaved changes, the person's file-pattern
 * settings, consent, and the sandbox's settings. Published when the backend connects and whenever one of them changes
 * (changes in one turn of the event loop go together), so that a call about files the window does
 * not show never has to ask it.
 */
@injectable()
export class WindowViewPublisher {
  @inject(TheiaEditorPort) protected readonly editors!: TheiaEditorPort;
  @inject(WidgetManager) protected readonly widgets!: WidgetManager;
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(TheiaSecurityPort) protected readonly security!: TheiaSecurityPort;
  @inject(TheiaSandbox) protected readonly sandbox!: TheiaSandbox;

  private send: ((view: WindowView) => Promise<void>) | undefined;
  private queued = false;

  /** Publish with `send` from now on, whenever the view changes (and when publish() is called). */
  start(send: (view: WindowView) => Promise<void>): Disposable {
    const toDispose = new DisposableCollection(
      this.editors.onOpenFilesChanged(() => this.changed()),
      this.widgets.onDidCreateWidget(({ factoryId, widget }) => {
        if (!FILE_VIEWS.includes(factoryId)) return;
        widget.disposed.connect(() => this.changed());
        this.changed();
      }),
      this.preferences.onPreferenceChanged(({ preferenceName }) => VIEW_SETTINGS.includes(preferenceName) && this.changed()),
      this.workspace.onWorkspaceChanged(() => this.changed()),
    );
    this.send = send;
    return toDispose;
  }

  /** Something in the view changed: published once the current turn of the event loop is done. */
  changed(): void {
    if (this.queued || !this.send) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      void this.publish().catch(() => undefined);
    });
  }

  /** Publish the view now (as the window connects to the backend, or registers with the hub again). */
  async publish(): Promise<void> {
    await Promise.all([this.preferences.ready, this.workspace.roots]);
    await this.send?.(this.view());
  }

  view(): WindowView {
    const root = this.ids.rootUri;
    const views = FILE_VIEWS.flatMap((id) => this.widgets.getWidgets(id))
      .filter((w) => !w.isDisposed)
      .map((w) => (this.widgets.getDescription(w)?.options as { path?: string } | undefined)?.path)
      .filter((path): path is string => typeof path === 'string');
    return {
      root: root?.path.fsPath(),
      editors: this.editors.openFiles(),
      views,
      policy: filePolicySettings(this.preferences, root?.toString() ?? ''),
      consented: this.security.consented(),
      confirms: this.security.confirmDangerousCommands(),
      sandbox: this.sandbox.current(),
      testRunners: this.testRunners(root?.toString()),
    };
  }

  private testRunners(resource: string | undefined): string[] | undefined {
    const value = this.preferences.get<unknown>(TEST_RUNNERS_SETTING, undefined, resource);
    return Array.isArray(value) && value.length > 0 ? value.filter((v): v is string => typeof v === 'string') : undefined;
  }
}
