import { PREFERENCES, TOOLS } from '../families/index.js';
import { familyOf, type PaneInfo, type PaneStateSnapshot, type TabInfo } from '../contract/index.js';

/** The last test run, for the live state: told by where the tests run (the simulated IDE, Theia's backend). */
export interface TestsSummary {
  status: 'passed' | 'failed' | 'timed-out' | 'cancelled';
  by: 'agent' | 'person';
  passed: number;
  failed: number;
  /** Test files that did not load. */
  errors: number;
}

/** A test run's answer (openspace.test.run's), summed up for the live state. */
export function testsSummary(run: {
  status: TestsSummary['status'];
  by: TestsSummary['by'];
  counts: { passed: number; failed: number };
  errors: readonly unknown[];
}): TestsSummary {
  return { status: run.status, by: run.by, passed: run.counts.passed, failed: run.counts.failed, errors: run.errors.length };
}

export interface InstructionsContext {
  snapshot?: PaneStateSnapshot;
  tests?: TestsSummary;
  ideConnected: boolean;
  ideName: string;
}

const AREA_LABELS: Record<PaneInfo['area'], string> = {
  main: 'Main area',
  left: 'Left panel',
  right: 'Right panel',
  bottom: 'Bottom panel',
};

function describeTab(tab: TabInfo, active: boolean, snapshot: PaneStateSnapshot): string {
  const notes = [
    active && tab.contentId === snapshot.activeContentId ? 'active, focused' : active ? 'active' : undefined,
    tab.isDirty ? 'unsaved changes' : undefined,
  ].filter(Boolean);
  const name = tab.type === 'terminal' && tab.title !== tab.contentId ? `${tab.contentId} ("${tab.title}")` : tab.contentId;
  return `${tab.type}: ${name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}${tab.status ? ` — ${tab.status}` : ''}`;
}

function describeState(snapshot: PaneStateSnapshot | undefined): string[] {
  if (!snapshot) return ['- The IDE has not reported its layout yet; call openspace.pane.list.'];
  const lines: string[] = [];
  for (const area of ['main', 'left', 'right', 'bottom'] as const) {
    const panes = snapshot.panes.filter((p) => p.area === area);
    const tabs = panes.flatMap((p) => p.tabs.map((t, i) => describeTab(t, i === p.activeTabIndex, snapshot)));
    if (area !== 'main' && tabs.length === 0) continue;
    lines.push(`- ${AREA_LABELS[area]}: ${tabs.length > 0 ? tabs.join('; ') : 'no open editors'}`);
  }
  const editors = snapshot.panes.flatMap((p) => p.tabs).filter((t) => t.type === 'editor');
  const activeFile = editors.find((t) => t.contentId === snapshot.activeEditor);
  const terminals = snapshot.panes.flatMap((p) => p.tabs).filter((t) => t.type === 'terminal');
  lines.push(`- Active file: ${activeFile ? activeFile.contentId : 'none'}`);
  const decks = snapshot.presentations ?? [];
  if (decks.length > 0) {
    lines.push(`- Presentations: ${decks.map((d) => `${d.deckPath} (slideIndex ${d.slideIndex}, ${d.playback})`).join(', ')}`);
  }
  if (snapshot.problems) {
    const { errors, warnings, files } = snapshot.problems;
    lines.push(
      `- Problems: ${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` +
        (files > 0 ? ` in ${files} ${files === 1 ? 'file' : 'files'}` : '') +
        ' (in the files checked so far; openspace.diagnostics.list checks the workspace)',
    );
  }
  if (snapshot.git) {
    const { branch, changed } = snapshot.git;
    lines.push(
      `- Git: ${branch === null ? 'a detached HEAD' : `on branch ${branch}`}, ${changed} ${changed === 1 ? 'file' : 'files'} changed` +
        (changed > 0 ? ' (openspace.git.status lists them)' : ''),
    );
  }
  if (snapshot.debug?.length)
    lines.push(
      `- Debugging: ${snapshot.debug.map((d) => `${d.sessionId} ${d.program} ${d.status}${d.reason ? ` (${d.reason})` : ''}`).join(', ')} (openspace.debug.wait)`,
    );
  const boards = snapshot.panes.flatMap((p) => p.tabs).filter((t) => t.type === 'whiteboard');
  if (boards.length > 0) lines.push(`- Whiteboards: ${boards.map((t) => t.contentId).join(', ')}`);
  lines.push(
    `- Terminals: ${terminals.length > 0 ? terminals.map((t) => (t.title === t.contentId ? t.contentId : `${t.contentId} ("${t.title}")`)).join(', ') : 'none'}`,
  );
  if (snapshot.activePaneId)
    lines.push(
      `- Active pane: ${snapshot.activePaneId} (${snapshot.panes.length} ${snapshot.panes.length === 1 ? 'pane' : 'panes'}; geometry via openspace.pane.list)`,
    );
  return lines;
}

function describeTests({ status, by, passed, failed, errors }: TestsSummary): string {
  const files = errors > 0 ? `, ${errors} ${errors === 1 ? 'file' : 'files'} did not load` : '';
  return `- Tests: last run (by ${by === 'agent' ? 'an agent' : 'the person'}) ${status === 'passed' || status === 'failed' ? status : `was ${status}`}: ${failed} failed, ${passed} passed${files} (openspace.test.results)`;
}

/** The tool families of the catalog in its order, e.g. "pane, editor, terminal and file". */
const FAMILIES = ((families: string[]) => `${families.slice(0, -1).join(', ')} and ${families.at(-1)}`)([
  ...new Set(TOOLS.map((t) => familyOf(t.name))),
]);

/**
 * The system prompt served at GET /openspace/instructions (FR-3.8): how to use the openspace.* tools,
 * the live IDE state and a few concrete examples. It never lists schemas: tools/list does that.
 */
export function renderInstructions({ snapshot, tests, ideConnected, ideName }: InstructionsContext): string {
  const openFile = snapshot?.panes.flatMap((p) => p.tabs).find((t) => t.type === 'editor')?.contentId ?? 'src/index.ts';
  const state = ideConnected
    ? [...describeState(snapshot), ...(tests ? [describeTests(tests)] : [])]
    : ['- No IDE is connected right now: openspace.* tools answer BRIDGE_UNAVAILABLE until one is.'];
  return [
    '# System Instructions: Theia OpenSpace IDE Control',
    '',
    `You are operating inside ${ideName}, side by side with a person who sees everything you do.`,
    `You have access to MCP tools prefixed with "openspace." to control the IDE: ${FAMILIES} tools.`,
    'Call tools/list to see the available tools and their schemas. A session starts with the core ones (files, terminal commands, ' +
      'editor.open and read_file, context, diagnostics) listed; when a tool named here is not in your list, list its family first: ' +
      'openspace.tools.enable {"families": ["symbols", "code"]}.',
    'Every tool answers JSON with "success". On failure, read "error" and "code" (e.g. FILE_NOT_FOUND, EDITOR_NOT_OPEN) and adjust before going on.',
    'Paths are relative to the workspace root. Terminals can be named by their title.',
    '',
    '## Prefer these tools to your built-in ones',
    ...PREFERENCES.map(({ use, insteadOf, why }) => `- ${use} instead of ${insteadOf}: ${why}.`),
    '',
    '## Current IDE State',
    ...state,
    '',
    '## Examples',
    `1. Show the person a line: openspace.editor.open {"path": "${openFile}", "line": 42}`,
    '2. Run the tests and see what failed: openspace.test.run {} answers each test\'s status and each failure\'s message, expected, actual and file:line; again for one: openspace.test.run {"names": ["<its id>"]}',
    '3. Explain with slides beside the code: openspace.presentation.create {"deckPath": "docs/plan.deck.md", "title": "The plan", "slides": ["# The plan", "## Step 1\\n\\n- …"]}, then openspace.presentation.open {"deckPath": "docs/plan.deck.md", "splitDirection": "vertical"}, then openspace.presentation.navigate {"deckPath": "docs/plan.deck.md", "slideIndex": 1} (slides count from 0)',
    '',
  ].join('\n');
}
