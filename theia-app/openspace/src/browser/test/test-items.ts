import type { TestController, TestItem } from '@theia/test/lib/browser/test-service';
import { TreeDeltaBuilderImpl, type TreeDelta } from '@theia/test/lib/common/tree-delta';
import type { Range } from '@theia/core/shared/vscode-languageserver-protocol';
import type URI from '@theia/core/lib/common/uri';
import type { TestCaseInfo } from '../../../../../src/browser.js';

export type TestItemKind = 'file' | 'suite' | 'test';

/** One node of the Test Explorer: a test file, a suite (describe block, test class) or a test, whose ID is the one test.run takes. */
export class OpenSpaceTestItem implements TestItem {
  readonly tags: string[] = [];
  readonly busy = false;
  readonly canResolveChildren = false;
  readonly tests: OpenSpaceTestItem[] = [];
  error: string | undefined;

  constructor(
    readonly id: string,
    public label: string,
    readonly kind: TestItemKind,
    /** Workspace-relative file. */
    readonly file: string,
    readonly uri: URI | undefined,
    public range: Range | undefined,
    readonly parent: OpenSpaceTestItem | undefined,
    readonly controller: TestController,
  ) {}

  get path(): string[] {
    return [...(this.parent?.path ?? []), this.id];
  }

  resolveChildren(): void {}

  /** The tests at and under this item. */
  leaves(): OpenSpaceTestItem[] {
    return this.kind === 'test' ? [this] : this.tests.flatMap((t) => t.leaves());
  }
}

/** What a node should be, before it is matched with the item the tree already has. */
interface Wanted {
  id: string;
  label: string;
  kind: TestItemKind;
  file: string;
  line?: number;
  children: Wanted[];
}

/** A 1-based line as the LSP range of its start, which "Go to Test" reveals. */
export function lineRange(line: number | undefined): Range | undefined {
  return line === undefined ? undefined : { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 0 } };
}

/**
 * The controller's items: files, then suites, then tests, in the order the runner lists them. An
 * item stays the same object while its test is there, because a run's states are kept per item.
 */
export class TestItemTree {
  readonly roots: OpenSpaceTestItem[] = [];
  private readonly byId = new Map<string, OpenSpaceTestItem>();

  constructor(
    private readonly controller: TestController,
    private readonly uriOf: (path: string) => URI | undefined,
  ) {}

  test(id: string): OpenSpaceTestItem | undefined {
    const item = this.byId.get(id);
    return item?.kind === 'test' ? item : undefined;
  }

  file(path: string): OpenSpaceTestItem | undefined {
    return this.roots.find((r) => r.id === path);
  }

  /** Hold exactly these tests and these files that did not load (a discovery); the changes for the view. */
  replace(tests: TestCaseInfo[], brokenFiles: { path: string; message: string }[] = []): TreeDelta<string, TestItem>[] {
    const wanted = wantedTree(tests);
    for (const { path } of brokenFiles)
      if (!wanted.some((w) => w.id === path)) wanted.push({ id: path, label: path, kind: 'file', file: path, children: [] });
    const builder = new TreeDeltaBuilderImpl<string, TestItem>();
    this.match(undefined, this.roots, wanted, builder, true);
    for (const root of this.roots) root.error = brokenFiles.find((b) => b.path === root.id)?.message;
    return builder.currentDelta;
  }

  /** Add the tests the tree does not have yet (from a run's results); the changes for the view. */
  add(tests: TestCaseInfo[]): TreeDelta<string, TestItem>[] {
    const builder = new TreeDeltaBuilderImpl<string, TestItem>();
    const missing = tests.filter((t) => !this.test(t.id));
    if (missing.length > 0) this.match(undefined, this.roots, wantedTree(missing), builder, false);
    return builder.currentDelta;
  }

  private match(
    parent: OpenSpaceTestItem | undefined,
    items: OpenSpaceTestItem[],
    wanted: Wanted[],
    builder: TreeDeltaBuilderImpl<string, TestItem>,
    removeOthers: boolean,
  ): void {
    for (const w of wanted) {
      const range = lineRange(w.line);
      let item = items.find((i) => i.id === w.id);
      if (!item) {
        item = new OpenSpaceTestItem(w.id, w.label, w.kind, w.file, this.uriOf(w.file), range, parent, this.controller);
        items.push(item);
        this.byId.set(item.id, item);
        this.match(item, item.tests, w.children, new TreeDeltaBuilderImpl(), removeOthers);
        builder.reportAdded(item.path, item);
        continue;
      }
      if (item.label !== w.label || item.range?.start.line !== range?.start.line) {
        item.label = w.label;
        item.range = range;
        builder.reportChanged(item.path, { label: w.label, range });
      }
      this.match(item, item.tests, w.children, builder, removeOthers);
    }
    if (!removeOthers) return;
    for (const gone of items.filter((i) => !wanted.some((w) => w.id === i.id))) {
      builder.reportRemoved(gone.path);
      items.splice(items.indexOf(gone), 1);
      this.forget(gone);
    }
  }

  private forget(item: OpenSpaceTestItem): void {
    this.byId.delete(item.id);
    item.tests.forEach((t) => this.forget(t));
  }
}

/** Files → suites → tests. A suite's ID cannot be a test's (a test and a describe block may share a name); a suite sits at its first test's line. */
function wantedTree(tests: TestCaseInfo[]): Wanted[] {
  const roots: Wanted[] = [];
  const child = (list: Wanted[], node: Omit<Wanted, 'children'>): Wanted => {
    let found = list.find((w) => w.id === node.id);
    if (!found) list.push((found = { ...node, children: [] }));
    return found;
  };
  for (const t of tests) {
    let list = child(roots, { id: t.path, label: t.path, kind: 'file', file: t.path }).children;
    t.suite.forEach((name, i) => {
      const id = `suite:${[t.path, ...t.suite.slice(0, i + 1)].join('::')}`;
      list = child(list, { id, label: name, kind: 'suite', file: t.path, line: t.line }).children;
    });
    // Tests of one name in one suite share an ID: they run together, so one item stands for them.
    child(list, { id: t.id, label: t.name, kind: 'test', file: t.path, line: t.line });
  }
  return roots;
}
