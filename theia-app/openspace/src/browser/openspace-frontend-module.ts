import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { KeybindingContribution } from '@theia/core/lib/browser/keybinding';
import { CommandContribution } from '@theia/core/lib/common/command';
import { ContainerModule } from '@theia/core/shared/inversify';
import { PreferenceContribution } from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { LanguageGrammarDefinitionContribution } from '@theia/monaco/lib/browser/textmate';
import { GitSummary } from '../../../../src/browser.js';
import { OpenSpacePreferenceDefaults } from '../common/preferences.js';
import { AgentFailureNotices } from './agent-failures.js';
import { WindowViewPublisher } from './window-view.js';
import {
  BridgeConnector,
  BridgeContribution,
  createBridgeConnector,
  createIdePort,
  OpenSpaceCommandContribution,
  TheiaIdePort,
} from './openspace-contribution.js';
import { ContentIds } from './content-ids.js';
import { createFilesBackendProxy, FilesBackendProxy, RemoteWorkspacePort } from './remote-workspace-port.js';
import { withFilePolicySettings } from './file-policy-settings.js';
import { TheiaEditorPort } from './theia-editor-port.js';
import { TheiaShellPort } from './theia-shell-port.js';
import { TheiaSecurityPort } from './theia-security-port.js';
import { TheiaTerminalPort } from './theia-terminal-port.js';
import { createSandboxBackendProxy, SandboxBackendProxy, TheiaSandbox } from './theia-sandbox.js';
import { QuickInputPromptUi } from './quick-input-prompts.js';
import { bindFileView } from './file-views.js';
import { CodeFeatures } from './code-features.js';
import { CodeGrammars } from './code-languages.js';
import { CodeBackendProxy, createCodeBackendProxy, TheiaCodePort } from './theia-code-port.js';
import { PresentationWidget } from './presentation/presentation-widget.js';
import { PresentationOpenHandler, TheiaPresentationPort } from './presentation/theia-presentation-port.js';
import { WhiteboardWidget } from './whiteboard/whiteboard-widget.js';
import { TheiaWhiteboardPort, WhiteboardOpenHandler } from './whiteboard/theia-whiteboard-port.js';
import { AgentPane, AgentPaneBackendProxy, createAgentPaneBackendProxy } from './agent-pane.js';
import { TheiaReviewPort } from './theia-review-port.js';
import { TheiaDebugPort } from './debug/theia-debug-port.js';
import { withDebuggersEvent } from './debug/debug-service-proxy.js';
import { DebugService } from '@theia/debug/lib/common/debug-service';
import { AgentStatus } from './agent-status.js';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { TabBarToolbarContribution } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { bindViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { ChatBackendProxy, ChatEvents, ChatService, createChatBackendProxy } from './chat/chat-service.js';
import { CHAT_WIDGET_ID, ChatWidget } from './chat/chat-widget.js';
import { ChatContribution } from './chat/chat-contribution.js';
import { OpenSpaceScm } from './git/openspace-scm.js';
import { MenuContribution } from '@theia/core/lib/common/menu';
import { TestContribution } from '@theia/test/lib/browser/test-service';
import { TestExecutionProgressService } from '@theia/test/lib/browser/test-execution-progress-service';
import { OpenSpaceTests, TestProgress } from './test/openspace-tests.js';
import { TestFailureMarks } from './test/test-failure-marks.js';
import './style/openspace.css';

export default new ContainerModule((bind, _unbind, _isBound, _rebind, _unbindAsync, onActivation) => {
  // The backend's debug service, with the event Theia's disassembly view listens for (see debug-service-proxy.ts).
  // An activation, not a rebind: Theia's debug module binds the service after this module.
  onActivation<DebugService>(DebugService, (_context, service) => withDebuggersEvent(service));
  // The source-control view over the git family.
  bind(GitSummary).toConstantValue(new GitSummary());
  bind(OpenSpaceScm).toSelf().inSingletonScope();
  for (const service of [FrontendApplicationContribution, CommandContribution, MenuContribution, ResourceResolver])
    bind(service).toService(OpenSpaceScm);
  // The Test Explorer over the test family.
  bind(OpenSpaceTests).toSelf().inSingletonScope();
  bind(TestFailureMarks).toSelf().inSingletonScope();
  bind(TestContribution).toService(OpenSpaceTests);
  bind(FrontendApplicationContribution).toService(OpenSpaceTests);
  bind(TestProgress).toDynamicValue((ctx) => () => ctx.container.get(TestExecutionProgressService));
  bind(OpenSpacePreferenceDefaults).toSelf().inSingletonScope();
  bind(PreferenceContribution).toService(OpenSpacePreferenceDefaults);
  bind(ContentIds).toSelf().inSingletonScope();
  bind(TheiaShellPort).toSelf().inSingletonScope();
  bind(FilesBackendProxy)
    .toDynamicValue((ctx) => withFilePolicySettings(createFilesBackendProxy(ctx), ctx.container.get(PreferenceService)))
    .inSingletonScope();
  bind(RemoteWorkspacePort).toSelf().inSingletonScope();
  bind(CodeBackendProxy).toDynamicValue(createCodeBackendProxy).inSingletonScope();
  bind(TheiaCodePort).toSelf().inSingletonScope();
  bind(CodeFeatures).toSelf().inSingletonScope();
  bind(FrontendApplicationContribution).toService(CodeFeatures);
  bind(CodeGrammars).toSelf().inSingletonScope();
  bind(LanguageGrammarDefinitionContribution).toService(CodeGrammars);
  bind(TheiaEditorPort).toSelf().inSingletonScope();
  bind(TheiaDebugPort).toSelf().inSingletonScope();
  bind(SandboxBackendProxy).toDynamicValue(createSandboxBackendProxy).inSingletonScope();
  bind(TheiaSandbox).toSelf().inSingletonScope();
  bind(TheiaTerminalPort).toSelf().inSingletonScope();
  bind(TheiaSecurityPort).toSelf().inSingletonScope();
  bindFileView(bind, PresentationWidget, PresentationOpenHandler);
  bind(TheiaPresentationPort).toSelf().inSingletonScope();
  bindFileView(bind, WhiteboardWidget, WhiteboardOpenHandler);
  bind(TheiaWhiteboardPort).toSelf().inSingletonScope();
  bind(AgentStatus).toSelf().inSingletonScope();
  bind(AgentFailureNotices).toSelf().inSingletonScope();
  bind(WindowViewPublisher).toSelf().inSingletonScope();
  bind(CommandContribution).toService(AgentStatus);
  bind(TheiaReviewPort).toSelf().inSingletonScope();
  bind(ResourceResolver).toService(TheiaReviewPort);
  bind(CommandContribution).toService(TheiaReviewPort);
  bind(TabBarToolbarContribution).toService(TheiaReviewPort);
  bind(TheiaIdePort).toDynamicValue(createIdePort).inSingletonScope();
  bind(QuickInputPromptUi).toSelf().inSingletonScope();
  bind(OpenSpaceCommandContribution).toSelf().inSingletonScope();
  bind(CommandContribution).toService(OpenSpaceCommandContribution);
  bind(KeybindingContribution).toService(OpenSpaceCommandContribution);
  bind(BridgeConnector).toDynamicValue(createBridgeConnector).inSingletonScope();
  bind(BridgeContribution).toSelf().inSingletonScope();
  bind(FrontendApplicationContribution).toService(BridgeContribution);
  bind(AgentPaneBackendProxy).toDynamicValue(createAgentPaneBackendProxy).inSingletonScope();
  bind(ChatEvents).toSelf().inSingletonScope();
  bind(ChatBackendProxy).toDynamicValue(createChatBackendProxy).inSingletonScope();
  bind(ChatService).toSelf().inSingletonScope();
  bind(ChatWidget).toSelf();
  bind(WidgetFactory)
    .toDynamicValue((ctx) => ({ id: CHAT_WIDGET_ID, createWidget: () => ctx.container.get(ChatWidget) }))
    .inSingletonScope();
  bindViewContribution(bind, ChatContribution);
  bind(FrontendApplicationContribution).toService(ChatContribution);
  bind(AgentPane).toSelf().inSingletonScope();
  bind(CommandContribution).toService(AgentPane);
  bind(FrontendApplicationContribution).toService(AgentPane);
});
