import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { CancellationToken } from '@theia/core/lib/common/cancellation';
import { Emitter } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import { TestExecutionState, TestRunProfileKind } from '@theia/test/lib/browser/test-service';
import type {
  TestContribution,
  TestController,
  TestItem,
  TestRun,
  TestRunProfile,
  TestService,
} from '@theia/test/lib/browser/test-service';
import type { TestExecutionProgressService } from '@theia/test/lib/browser/test-execution-progress-service';
import type { CollectionDelta, TreeDelta } from '@theia/test/lib/common/tree-delta';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { WorkspaceTrustService } from '@theia/workspace/lib/browser/workspace-trust-service';
import { failure, type TestDiscovery, type TestRunInfo, type ToolResult } from '../../../../../src/browser.js';
import type { BackendCall } from '../../common/protocol.js';
import { BridgeContribution } from '../openspace-contribution.js';
import { ContentIds } from '../content-ids.js';
import { TestItemTree, type OpenSpaceTestItem } from './test-items.js';
import { OpenSpaceTestRun, showResults } from './test-run.js';
import { escapeHtml } from '../agent-failures.js';
import { TestFailureMarks } from './test-failure-marks.js';

/** The Test Explorer's progress service, got when a run starts: injected, it would need the TestService, which builds this controller. */
export const TestProgress = Symbol('TestProgress');
export type TestProgress = () => TestExecutionProgressService;

/** test.run takes at most this many names; more tests run by their files. */
const MAX_NAMES = 100;
/** Finished runs the view keeps. */
const KEPT_RUNS = 20;

/**
 * The Test Explorer (@theia/test) over the test family: the tests openspace.test.discover lists
 * (at start, and on Refresh), the person's runs through openspace.test.run, and the agent's runs
 * as they happen, so the person sees the same tests and results the agent does.
 */
@injectable()
export class OpenSpaceTests implements TestController, TestContribution, FrontendApplicationContribution {
  readonly id = 'openspace-tests';
  readonly label = 'OpenSpace';
  readonly canResolveChildren = false;
  readonly testRunProfiles: TestRunProfile[] = [
    {
      kind: TestRunProfileKind.Run,
      label: 'Run',
      isDefault: true,
      canConfigure: false,
      tag: '',
      run: (name, included, excluded, preserveFocus) => void this.runForPerson(name, included, excluded, preserveFocus),
      configure: () => undefined,
    },
  ];
  testRuns: OpenSpaceTestRun[] = [];
  private readonly itemsChanged = new Emitter<TreeDelta<string, TestItem>[]>();
  private readonly runsChanged = new Emitter<CollectionDelta<TestRun, TestRun>>();
  private readonly profilesChanged = new Emitter<CollectionDelta<TestRunProfile, TestRunProfile>>();
  readonly onItemsChanged = this.itemsChanged.event;
  readonly onRunsChanged = this.runsChanged.event;
  readonly onProfilesChanged = this.profilesChanged.event;
  private readonly tree = new TestItemTree(this, (path) => this.ids.rootUri?.resolve(path));
  private service: TestService | undefined;
  private discovering: Promise<void> | undefined;
  /** A discovery found a run in progress: it goes again when a run ends. */
  private discoverAfterRun = false;
  /** The agent's runs in progress, by call. */
  private readonly agentRuns = new Map<number, OpenSpaceTestRun>();
  private runCount = 0;

  @inject(BridgeContribution) protected readonly bridge!: BridgeContribution;
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(WorkspaceTrustService) protected readonly trust!: WorkspaceTrustService;
  @inject(TestProgress) protected readonly progress!: TestProgress;
  @inject(TestFailureMarks) protected readonly marks!: TestFailureMarks;

  get tests(): readonly TestItem[] {
    return this.tree.roots;
  }

  registerTestControllers(service: TestService): void {
    this.service = service;
    service.registerTestController(this);
  }

  onStart(): void {
    this.bridge.onTestCall((call) => void this.agentCall(call));
    this.bridge.onPersonTestRun((answer) => void this.commandRun(answer));
  }

  onDidInitializeLayout(): void {
    void this.discoverAtStart();
  }

  private async discoverAtStart(): Promise<void> {
    await this.workspace.roots;
    // Listing tests loads the test files, which runs their top level: not in a folder the person does not trust.
    if (!this.ids.rootUri || !(await this.trust.getWorkspaceTrust())) return;
    // Through the service, so the view shows it is refreshing.
    if (this.service) this.service.refresh();
    else await this.refreshTests(CancellationToken.None);
  }

  refreshTests(token: CancellationToken): Promise<void> {
    this.discovering ??= this.discover(token).finally(() => (this.discovering = undefined));
    return this.discovering;
  }

  resolveChildren(): void {}

  clearRuns(): void {
    const finished = this.testRuns.filter((r) => !r.isRunning);
    this.testRuns = this.testRuns.filter((r) => r.isRunning);
    if (finished.length > 0) this.runsChanged.fire({ removed: finished });
  }

  private async discover(token: CancellationToken): Promise<void> {
    this.discoverAfterRun = false;
    const cancel = token.onCancellationRequested(() => void this.bridge.runBesideFiles('openspace.test.cancel', {}));
    const answer = await this.bridge.runBesideFiles('openspace.test.discover', {}).catch((err: Error) => failure('INTERNAL', err.message));
    cancel.dispose();
    if (!answer.success) {
      if (answer.code === 'TEST_RUN_BUSY') this.discoverAfterRun = true;
      // No runner (any more) or no folder: no tests, as the view then says.
      else if (answer.code === 'NO_TEST_RUNNER' || answer.code === 'NO_WORKSPACE') this.changed(this.tree.replace([]));
      else if (!token.isCancellationRequested) void this.messages.warn(escapeHtml(`OpenSpace could not list the tests: ${answer.error}`));
      return;
    }
    const found = answer as ToolResult & TestDiscovery;
    this.changed(this.tree.replace(found.tests, found.errors));
  }

  /** A run from the view's buttons: the tests under the items chosen (all of them: no names). */
  private async runForPerson(
    name: string,
    included: readonly TestItem[],
    excluded: readonly TestItem[],
    preserveFocus: boolean,
  ): Promise<void> {
    void this.progress().onTestRunRequested(preserveFocus);
    const leaves = (items: readonly TestItem[]) => items.flatMap((i) => (i as OpenSpaceTestItem).leaves());
    const skip = new Set(leaves(excluded));
    const tests = leaves(included).filter((t) => !skip.has(t));
    const everything = skip.size === 0 && this.tree.roots.every((r) => included.includes(r));
    const args = everything
      ? {}
      : tests.length <= MAX_NAMES
        ? { names: tests.map((t) => t.id) }
        : { paths: [...new Set(tests.map((t) => t.file))] };
    if (!everything && tests.length === 0) return;
    const run = this.startRun(name);
    run.setStates(tests.map((t) => [t, { state: TestExecutionState.Running }]));
    const answer = await this.bridge.runBesideFiles('openspace.test.run', args).catch((err: Error) => failure('INTERNAL', err.message));
    if (answer.success) {
      this.show(run, answer as ToolResult & TestRunInfo);
      run.end();
    } else {
      void this.messages.error(escapeHtml(`OpenSpace could not run the tests: ${answer.error}`));
      this.drop(run);
    }
    this.afterRun();
  }

  /** The person's test.run from the command palette: in the view while it runs, then its results. */
  private async commandRun(answer: Promise<ToolResult>): Promise<void> {
    const run = this.startRun('Run from the command palette');
    const result = await answer.catch((err: Error) => failure('INTERNAL', err.message));
    // A failure to start (no such test, another run in progress) the palette reports; the view has nothing to show.
    if (result.success) {
      this.show(run, result as ToolResult & TestRunInfo);
      run.end();
    } else this.drop(run);
    this.afterRun();
  }

  /** The agent's test.run in the view: running once the backend says so, then its results (those test.results keeps). */
  private async agentCall(call: BackendCall): Promise<void> {
    const result = call.result;
    if (call.tool !== 'openspace.test.run') {
      if (result) this.afterRun();
      return;
    }
    const name = `Agent run${call.context.clientName ? ` (${call.context.clientName})` : ''}`;
    let run = this.agentRuns.get(call.callId);
    if (!result) {
      if (!run) this.agentRuns.set(call.callId, this.startRun(name));
      return;
    }
    this.agentRuns.delete(call.callId);
    if (!result.success) {
      // It did not start (no such test, another run in progress): the agent hears why; the view has nothing to show.
      if (run) this.drop(run);
      this.afterRun();
      return;
    }
    run ??= this.startRun(name);
    const last = await this.bridge.runBesideFiles('openspace.test.results', {}).catch((err: Error) => failure('INTERNAL', err.message));
    const info = last.success ? (last as ToolResult & TestRunInfo) : undefined;
    // test.results keeps the last run: this one, unless another ended since.
    if (info && info.by === 'agent' && Date.parse(info.startedAt) >= call.startedAt - 1000) this.show(run, info);
    else run.append(undefined, 'A later run replaced the results of this one before they could be read.');
    run.end();
    this.afterRun();
  }

  private startRun(name: string): OpenSpaceTestRun {
    const run = new OpenSpaceTestRun(`openspace-run-${++this.runCount}`, name, this, () => void this.cancelRun());
    const old = this.testRuns.filter((r) => !r.isRunning).slice(0, -KEPT_RUNS + 1);
    this.testRuns = [...this.testRuns.filter((r) => !old.includes(r)), run];
    if (old.length > 0) this.runsChanged.fire({ removed: old });
    this.runsChanged.fire({ added: [run] });
    return run;
  }

  /** A run that did not start is no run: the view goes back to showing the one before. */
  private drop(run: OpenSpaceTestRun): void {
    run.end();
    this.testRuns = this.testRuns.filter((r) => r !== run);
    this.runsChanged.fire({ removed: [run] });
  }

  private async cancelRun(): Promise<void> {
    const answer = await this.bridge.runBesideFiles('openspace.test.cancel', {}).catch((err: Error) => failure('INTERNAL', err.message));
    if (!answer.success) void this.messages.error(escapeHtml(`OpenSpace could not stop the test run: ${answer.error}`));
  }

  /** A run's tests in the tree (those it found that discovery had not are added) and their results. */
  private show(run: OpenSpaceTestRun, info: TestRunInfo): void {
    this.changed(this.tree.add(info.tests));
    this.marks.show(info);
    showResults(run, info, {
      test: (id) => this.tree.test(id),
      file: (path) => this.tree.file(path),
      uriOf: (path) => this.ids.rootUri?.resolve(path),
    });
  }

  private afterRun(): void {
    if (this.discoverAfterRun && this.service) this.service.refresh();
  }

  private changed(deltas: TreeDelta<string, TestItem>[]): void {
    if (deltas.length > 0) this.itemsChanged.fire(deltas);
  }
}
