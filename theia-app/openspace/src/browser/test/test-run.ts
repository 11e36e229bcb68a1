import { Emitter } from '@theia/core/lib/common/event';
import { MarkdownStringImpl, MarkdownStringTextNewlineStyle } from '@theia/core/lib/common/markdown-rendering/markdown-string';
import type URI from '@theia/core/lib/common/uri';
import type { Location } from '@theia/core/shared/vscode-languageserver-protocol';
import {
  TestExecutionState,
  type TestController,
  type TestFailure,
  type TestItem,
  type TestMessage,
  type TestOutputItem,
  type TestRun,
  type TestState,
  type TestStateChangedEvent,
  type TestSuccess,
} from '@theia/test/lib/browser/test-service';
import type { TestRunInfo } from '../../../../../src/browser.js';
import { lineRange, type OpenSpaceTestItem } from './test-items.js';

/** A run as the Test Explorer shows it: each test's state and what the run said about it, and the run's own lines. */
export class OpenSpaceTestRun implements TestRun {
  isRunning = true;
  private readonly states = new Map<TestItem, TestState>();
  private readonly outputs: [TestItem | undefined, TestOutputItem][] = [];
  private readonly propertyChanged = new Emitter<{ name?: string; isRunning?: boolean }>();
  private readonly stateChanged = new Emitter<TestStateChangedEvent[]>();
  private readonly outputAdded = new Emitter<[TestItem | undefined, TestOutputItem][]>();
  readonly onDidChangeProperty = this.propertyChanged.event;
  readonly onDidChangeTestState = this.stateChanged.event;
  readonly onDidChangeTestOutput = this.outputAdded.event;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly controller: TestController,
    /** Stops the run in progress (openspace.test.cancel). */
    private readonly stop: () => void,
  ) {}

  get items(): readonly TestItem[] {
    return [...this.states.keys()];
  }

  cancel(): void {
    // "Cancel All Test Runs" cancels every run of the view, finished ones too.
    if (this.isRunning) this.stop();
  }

  getTestState(item: TestItem): TestState | undefined {
    return this.states.get(item);
  }

  getOutput(item?: TestItem): readonly TestOutputItem[] {
    return this.outputs.filter(([of]) => item === undefined || of === item).map(([, output]) => output);
  }

  setStates(changes: [TestItem, TestState | undefined][]): void {
    const events = changes.map(([test, newState]) => {
      const oldState = this.states.get(test);
      if (newState) this.states.set(test, newState);
      else this.states.delete(test);
      return { test, oldState, newState };
    });
    if (events.length > 0) this.stateChanged.fire(events);
  }

  /** Lines of output; the test output view is a terminal, which wants carriage returns. */
  append(item: TestItem | undefined, text: string, location?: Location): void {
    const output: TestOutputItem = { output: text.replace(/\r?\n/g, '\r\n'), ...(location && { location }) };
    this.outputs.push([item, output]);
    this.outputAdded.fire([[item, output]]);
  }

  /** The run is over: tests still queued or running did not report, so they show no state. */
  end(): void {
    if (!this.isRunning) return;
    const unfinished = [...this.states].filter(([, s]) => s.state <= TestExecutionState.Running).map(([t]) => t);
    this.setStates(unfinished.map((t) => [t, undefined]));
    this.isRunning = false;
    this.propertyChanged.fire({ isRunning: false });
  }
}

/** Where the items of a run's answer are: its tests and files in the tree, and a workspace path as a URI. */
export interface RunPlaces {
  test(id: string): OpenSpaceTestItem | undefined;
  file(path: string): OpenSpaceTestItem | undefined;
  uriOf(path: string): URI | undefined;
}

/**
 * A run's answer in the view: passed, failed (with the message, expected and actual, and the failing
 * assertion's file:line as a link that opens the editor there), skipped (todo too); the tests of a
 * file that did not load are errored with its reason.
 */
export function showResults(run: OpenSpaceTestRun, info: TestRunInfo, places: RunPlaces): void {
  const at = (path: string | undefined, line: number | undefined): Location | undefined => {
    const uri = path === undefined ? undefined : places.uriOf(path);
    const range = lineRange(line) ?? lineRange(1)!;
    return uri && { uri: uri.toString(), range };
  };
  const changes = new Map<TestItem, TestState>();
  for (const test of info.tests) {
    const item = places.test(test.id);
    // Tests of one name share an item: a failure among them shows (failures come first).
    if (!item || changes.get(item)?.state === TestExecutionState.Failed) continue;
    const duration = test.durationMs;
    const took = duration === undefined ? '' : ` (${Math.round(duration)} ms)`;
    if (test.status === 'failed') {
      const failure = test.failure ?? { message: 'failed' };
      const location = at(failure.path ?? test.path, failure.line ?? test.line);
      const message = [
        failure.message,
        ...(failure.expected !== undefined ? [`Expected: ${failure.expected}`] : []),
        ...(failure.actual !== undefined ? [`Actual: ${failure.actual}`] : []),
      ].join('\n');
      changes.set(item, failed(TestExecutionState.Failed, message, location, test.name, duration, failure));
      run.append(item, `✗ ${test.name}${took}\n${message}`, location);
    } else if (test.status === 'passed') {
      const passed: TestSuccess = { state: TestExecutionState.Passed, ...(duration !== undefined && { duration }) };
      changes.set(item, passed);
      run.append(item, `✓ ${test.name}${took}`);
    } else {
      changes.set(item, { state: TestExecutionState.Skipped });
      run.append(item, `- ${test.name} (${test.status})`);
    }
  }
  for (const error of info.errors) {
    const file = places.file(error.path);
    const location = at(error.path, error.line);
    const message = `${error.path} did not load, so none of its tests ran: ${error.message}`;
    for (const item of file ? [file, ...file.leaves()] : [])
      changes.set(item, failed(TestExecutionState.Errored, message, location, error.path, undefined, {}));
    run.append(file, message, location);
  }
  run.setStates([...changes]);
  const { passed, failed: failures, skipped, todo } = info.counts;
  const ended = info.status === 'timed-out' ? ' (timed out)' : info.status === 'cancelled' ? ' (cancelled)' : '';
  run.append(
    undefined,
    `${info.by === 'agent' ? 'The agent' : 'You'} ran tests${ended}: ${passed} passed, ${failures} failed, ${skipped} skipped, ${todo} todo` +
      `${info.errors.length > 0 ? `, ${info.errors.length} files did not load` : ''} in ${(info.durationMs / 1000).toFixed(1)} s.` +
      (info.truncated ? ' Passed tests past the first 1000 are not listed.' : ''),
  );
}

function failed(
  state: TestExecutionState.Failed | TestExecutionState.Errored,
  message: string,
  location: Location | undefined,
  label: string,
  duration: number | undefined,
  values: { expected?: string; actual?: string },
): TestFailure {
  // The results view shows a message's text and its stack frames (a frame is a link to the editor); it reads no location.
  const frame = location && { label, uri: location.uri, position: location.range.start };
  const testMessage: TestMessage = {
    // The results view runs a plain message's lines together; as Markdown text (escaped) they stay lines.
    message: new MarkdownStringImpl().appendText(message, MarkdownStringTextNewlineStyle.Break),
    ...(values.expected !== undefined && { expected: values.expected }),
    ...(values.actual !== undefined && { actual: values.actual }),
    ...(location && { location }),
    ...(frame && { stackTrace: [frame] }),
  };
  return { state, messages: [testMessage], ...(duration !== undefined && { duration }) };
}
