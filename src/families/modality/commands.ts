import { modalityFocus, modalityList, MODALITY_IDS } from './tools.js';
import editorTools from '../editor/tools.js';
import terminalTools from '../terminal/tools.js';
import presentationTools from '../presentation/tools.js';
import whiteboardTools from '../whiteboard/tools.js';
import { ToolError, type TabInfo } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';

const MODALITIES: Record<(typeof MODALITY_IDS)[number], { title: string; tools: readonly { name: string }[] }> = {
  editor: { title: 'Text editors', tools: editorTools },
  terminal: { title: 'Terminals', tools: terminalTools },
  presentation: { title: 'Presentations (reveal.js slide decks)', tools: presentationTools },
  whiteboard: { title: 'Whiteboards (Excalidraw)', tools: whiteboardTools },
};

export const modalityListCommand = defineCommand(modalityList, async (ide) => {
  const { panes, activeContentId } = ide.shell.layout();
  const modalities = MODALITY_IDS.map((id) => ({
    id,
    title: MODALITIES[id].title,
    tools: MODALITIES[id].tools.map((t) => t.name),
    instances: panes.flatMap((pane) =>
      pane.tabs
        .filter((tab) => tab.type === id)
        .map((tab) => ({ paneId: pane.id, contentId: tab.contentId, title: tab.title, active: tab.contentId === activeContentId })),
    ),
  }));
  return { modalities };
});

export const modalityFocusCommand = defineCommand(modalityFocus, async (ide, args) => {
  const { panes, activeContentId } = ide.shell.layout();
  const tabs = panes.flatMap((pane) => pane.tabs.map((tab, i) => ({ tab, shown: i === pane.activeTabIndex })));
  const ofKind = tabs.filter(({ tab }) => tab.type === args.modalityId);
  // The one the person sees: the focused tab, else a pane's current tab, else the first open.
  const chosen: TabInfo | undefined = (
    ofKind.find(({ tab }) => tab.contentId === activeContentId) ??
    ofKind.find(({ shown }) => shown) ??
    ofKind[0]
  )?.tab;
  if (!chosen) {
    throw new ToolError('PANE_NOT_FOUND', `No ${args.modalityId} is open; open one with its tools (openspace.modality.list names them).`);
  }
  const { paneId } = await ide.shell.focusContent(chosen.contentId);
  return { modalityId: args.modalityId, paneId, contentId: chosen.contentId };
});

export default [modalityListCommand, modalityFocusCommand];
