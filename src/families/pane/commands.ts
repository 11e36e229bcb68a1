import { BOARD_SUFFIX } from '../whiteboard/tools.js';
import { DECK_SUFFIX } from '../presentation/tools.js';
import { paneClose, paneFocus, paneList, paneOpen, paneResize } from './tools.js';
import { ToolError, type PaneInfo, type TabInfo } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';
import { requireFile } from '../file/commands.js';
import type { IdePort } from '../index.js';
import { closeTerminal, resolveTerminal } from '../terminal/commands.js';

function exactlyOne(tool: string, args: { paneId?: string; contentId?: string }): void {
  if ((args.paneId === undefined) === (args.contentId === undefined)) {
    throw new ToolError('INVALID_ARGUMENT', `${tool} takes exactly one of paneId or contentId.`, { fields: ['paneId', 'contentId'] });
  }
}

function findPane(ide: IdePort, paneId: string): PaneInfo {
  const { panes } = ide.shell.layout();
  const pane = panes.find((p) => p.id === paneId);
  if (!pane) {
    throw new ToolError(
      'PANE_NOT_FOUND',
      `No pane "${paneId}". Open panes: ${panes.map((p) => p.id).join(', ')}. Call openspace.pane.list for details.`,
    );
  }
  return pane;
}

/** Find the tab showing content named the way an agent knows it: its content ID, a terminal title, or a file path. */
async function findTab(ide: IdePort, contentId: string): Promise<TabInfo> {
  const tabs = ide.shell.layout().panes.flatMap((p) => p.tabs);
  const candidates = [contentId];
  const terminal = ide.terminals.list().find((t) => t.terminalId === contentId || t.title === contentId);
  if (terminal) candidates.push(terminal.terminalId);
  const path = await ide.workspace.resolve(contentId).catch(() => undefined);
  if (path !== undefined) candidates.push(path);
  const tab = tabs.find((t) => candidates.includes(t.contentId));
  if (!tab) {
    const open = tabs.map((t) => t.contentId);
    throw new ToolError(
      'PANE_NOT_FOUND',
      `Nothing open shows "${contentId}". Open content: ${open.length > 0 ? open.join(', ') : 'none'}.`,
    );
  }
  return tab;
}

/** Close one tab the way the person would: editors and terminals through their own services. */
async function closeTab(ide: IdePort, tab: TabInfo): Promise<void> {
  if (tab.type === 'editor') return ide.editors.close(tab.contentId);
  if (tab.type === 'terminal') return closeTerminal(ide, tab.contentId);
  return ide.shell.closeContent(tab.contentId);
}

function refuseDirty(tabs: TabInfo[]): void {
  const dirty = tabs.filter((t) => t.isDirty).map((t) => t.contentId);
  if (dirty.length > 0) {
    throw new ToolError(
      'DIRTY_BUFFER',
      `Not closing: ${dirty.join(', ')} ${dirty.length === 1 ? 'has' : 'have'} unsaved changes. Ask the person, or close with openspace.editor.close {force:true} to discard them.`,
      { dirty },
    );
  }
}

export const paneOpenCommand = defineCommand(paneOpen, async (ide, args) => {
  const placement = { area: args.area, targetPaneId: args.targetPaneId, splitDirection: args.splitDirection };
  if (args.targetPaneId !== undefined) findPane(ide, args.targetPaneId);
  const terminal = args.type === 'terminal' ? resolveTerminal(ide, args.contentId) : undefined;
  const contentId = terminal?.terminalId ?? (await requireFile(ide, args.contentId));
  const opened = !ide.shell.isOpen(contentId);
  if (args.type === 'presentation' || args.type === 'whiteboard') {
    const suffix = args.type === 'presentation' ? DECK_SUFFIX : BOARD_SUFFIX;
    if (!contentId.endsWith(suffix)) {
      throw new ToolError('INVALID_ARGUMENT', `A ${args.type} is a ${suffix} file; "${contentId}" is not.`, { fields: ['contentId'] });
    }
    const { paneId } =
      args.type === 'presentation'
        ? await ide.presentations.open(contentId, { slideIndex: ide.presentations.view(contentId)?.slideIndex ?? 0, placement })
        : await ide.whiteboards.open(contentId, placement);
    return { paneId, contentId, opened };
  }
  if (!terminal) return { paneId: (await ide.editors.show(contentId, placement)).paneId, contentId, opened };
  const { paneId } = await ide.shell.openContent({ type: 'terminal', contentId, title: args.title ?? terminal.title, ...placement });
  return { paneId, contentId, opened };
});

export const paneCloseCommand = defineCommand(paneClose, async (ide, args) => {
  exactlyOne(paneClose.name, args);
  const tabs = args.paneId !== undefined ? findPane(ide, args.paneId).tabs : [await findTab(ide, args.contentId!)];
  refuseDirty(tabs);
  for (const tab of tabs) await closeTab(ide, tab);
  if (args.paneId !== undefined && ide.shell.layout().panes.some((p) => p.id === args.paneId)) {
    await ide.shell.closePane(args.paneId);
  }
  return { closed: tabs.map((t) => t.contentId) };
});

export const paneFocusCommand = defineCommand(paneFocus, async (ide, args) => {
  exactlyOne(paneFocus.name, args);
  if (args.paneId !== undefined) {
    const pane = findPane(ide, args.paneId);
    await ide.shell.focusPane(pane.id);
    const active = pane.tabs[pane.activeTabIndex];
    return { paneId: pane.id, contentId: active?.contentId };
  }
  const tab = await findTab(ide, args.contentId!);
  const { paneId } = await ide.shell.focusContent(tab.contentId);
  return { paneId, contentId: tab.contentId };
});

export const paneListCommand = defineCommand(paneList, async (ide) => ide.shell.layout());

export const paneResizeCommand = defineCommand(paneResize, async (ide, args) => {
  if (args.width === undefined && args.height === undefined) {
    throw new ToolError('INVALID_ARGUMENT', 'openspace.pane.resize needs width and/or height (percent of the window).', {
      fields: ['width', 'height'],
    });
  }
  findPane(ide, args.paneId);
  await ide.shell.resizePane(args.paneId, { width: args.width, height: args.height });
  return { pane: findPane(ide, args.paneId) };
});

export default [paneOpenCommand, paneCloseCommand, paneFocusCommand, paneListCommand, paneResizeCommand];
