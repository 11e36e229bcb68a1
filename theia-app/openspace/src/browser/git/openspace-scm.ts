import { codicon } from '@theia/core/lib/browser/widgets';
import { ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { DecorationsService, type Decoration } from '@theia/core/lib/browser/decorations-service';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { OpenerService, open } from '@theia/core/lib/browser/opener-service';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { MenuContribution, MenuModelRegistry } from '@theia/core/lib/common/menu';
import type { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';
import { inject, injectable } from '@theia/core/shared/inversify';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { SCM_CHANGE_TITLE_MENU, type DirtyDiffWidget } from '@theia/scm/lib/browser/dirty-diff/dirty-diff-widget';
import type { ScmCommand, ScmProvider, ScmResource, ScmResourceGroup } from '@theia/scm/lib/browser/scm-provider';
import type { ScmRepository } from '@theia/scm/lib/browser/scm-repository';
import { ScmService } from '@theia/scm/lib/browser/scm-service';
import { ScmTreeWidget } from '@theia/scm/lib/browser/scm-tree-widget';
import {
  GitSummary,
  ideEvents,
  summaryOf,
  type GitChange,
  type GitStatusInfo,
  type IdePort,
  type ToolResult,
} from '../../../../../src/browser.js';
import { BridgeContribution, TheiaIdePort } from '../openspace-contribution.js';
import { ContentIds } from '../content-ids.js';
import { RemoteWorkspacePort } from '../remote-workspace-port.js';

/** The provider's ID, which is also the scheme of the staged and committed texts it serves. */
export const GIT_SCHEME = 'openspace-git';
/** The view reads the status again this long after a change, at most once in that time however many come. */
const REFRESH_AFTER_MS = 500;

const COMMANDS = {
  stage: { id: 'openspace.scm.stage', label: 'Stage Changes', icon: codicon('add') },
  unstage: { id: 'openspace.scm.unstage', label: 'Unstage Changes', icon: codicon('remove') },
  discard: { id: 'openspace.scm.discard', label: 'Discard Changes', icon: codicon('discard') },
  stageAll: { id: 'openspace.scm.stageAll', label: 'Stage All Changes', icon: codicon('add') },
  unstageAll: { id: 'openspace.scm.unstageAll', label: 'Unstage All Changes', icon: codicon('remove') },
  commit: { id: 'openspace.scm.commit', label: 'Commit' },
  stageChange: { id: 'openspace.scm.stageChange', label: 'Stage Change', icon: codicon('add') },
  revertChange: { id: 'openspace.scm.revertChange', label: 'Revert Change', icon: codicon('discard') },
};

const LETTERS: Record<GitChange['status'], string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  'type-changed': 'T',
  conflicted: '!',
  untracked: 'U',
};

type GroupId = 'merge' | 'index' | 'workingTree';

class GitGroup implements ScmResourceGroup {
  resources: GitResource[] = [];
  readonly hideWhenEmpty = true;
  constructor(
    readonly id: GroupId,
    readonly label: string,
    readonly provider: OpenSpaceScm,
  ) {}
  dispose(): void {}
}

class GitResource implements ScmResource {
  readonly decorations;
  constructor(
    readonly sourceUri: URI,
    /** Workspace-relative. */
    readonly path: string,
    readonly status: GitChange['status'],
    readonly group: GitGroup,
    private readonly provider: OpenSpaceScm,
  ) {
    this.decorations = { letter: LETTERS[status], tooltip: status, strikeThrough: status === 'deleted' };
  }
  open(): Promise<void> {
    return this.provider.openChange(this);
  }
}

/**
 * The source-control view (@theia/scm) over the git family: the same repository code an agent's
 * git tools run (in the backend, beside the files), with the person's own commands: stage, unstage
 * and discard a file or all, commit with the message typed above the changes, a change's diff on
 * click, and the editor's change markers, whose peek stages or reverts one change. An agent's git
 * calls and any change on disk show at once.
 */
@injectable()
export class OpenSpaceScm implements ScmProvider, FrontendApplicationContribution, CommandContribution, MenuContribution, ResourceResolver {
  readonly id = GIT_SCHEME;
  readonly label = 'Git';
  rootUri = '';
  groups: GitGroup[] = [];
  readonly acceptInputCommand: ScmCommand = { title: 'Commit', command: COMMANDS.commit.id };
  readonly actionButton = { command: { title: 'Commit', command: COMMANDS.commit.id }, enabled: true };
  statusBarCommands: ScmCommand[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  readonly onDidChangeResources = this.changed.event;
  private readonly statusBarChanged = new Emitter<ScmCommand[] | undefined>();
  readonly onDidChangeStatusBarCommands = this.statusBarChanged.event;
  readonly onDidChangeCommitTemplate: Event<string> = Event.None;
  /** Open diffs' left sides follow the repository. */
  private readonly originals = new Emitter<void>();
  private repository: ScmRepository | undefined;
  /** The letter each changed file shows in this view and in the explorer (M, A, U …), by URI. */
  private decorations = new Map<string, Decoration>();
  private readonly decorationsChanged = new Emitter<URI[]>();
  private refreshing: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asked: {
    path: string;
    ref: 'index' | 'HEAD';
    answer: (text: string | undefined) => void;
    fail: (err: unknown) => void;
  }[] = [];

  @inject(ScmService) protected readonly scm!: ScmService;
  @inject(BridgeContribution) protected readonly bridge!: BridgeContribution;
  @inject(TheiaIdePort) protected readonly ide!: IdePort;
  /** The branch and changed files for the live state, from the status read here. */
  @inject(GitSummary) protected readonly gitSummary!: GitSummary;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(FileService) protected readonly files!: FileService;
  @inject(RemoteWorkspacePort) protected readonly workspace!: RemoteWorkspacePort;
  @inject(OpenerService) protected readonly opener!: OpenerService;
  @inject(CommandRegistry) protected readonly commands!: CommandRegistry;
  @inject(DecorationsService) protected readonly decorationsService!: DecorationsService;

  onStart(): void {
    this.files.onDidFilesChange((event) => {
      // OpenSpace's own files (the audit log takes a line per agent call) change no repository; and
      // without one, only a repository appearing (.git) is worth asking git about.
      const paths = event.changes.map((c) => this.relative(c.resource)).filter((p) => p !== '.openspace' && !p.startsWith('.openspace/'));
      if (paths.length > 0 && (this.repository || paths.some((p) => p === '.git' || p.startsWith('.git/')))) this.refreshSoon();
    });
    this.bridge.onGitCall(() => this.refreshSoon());
    // A write through OpenSpace (an accepted proposal, file.write) shows without waiting for the
    // disk watcher, which a busy machine can hold back for seconds.
    this.workspace.onFileWritten(() => {
      if (this.repository) this.refreshSoon();
    });
    window.addEventListener('focus', () => this.refreshSoon());
    this.decorationsService.registerDecorationsProvider({
      onDidChange: this.decorationsChanged.event,
      provideDecorations: (uri) => this.decorations.get(uri.toString()),
    });
    this.refreshSoon();
  }

  dispose(): void {
    this.repository?.dispose();
  }

  refreshSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, REFRESH_AFTER_MS);
  }

  /** Read the status again (one reading at a time; one more after it if asked meanwhile). */
  async refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.read().finally(() => (this.refreshing = undefined));
    await this.refreshing;
    if (this.again) {
      this.again = false;
      await this.refresh();
    }
  }

  private async read(): Promise<void> {
    const root = this.ids.rootUri;
    const answer = root ? await this.bridge.runBesideFiles('openspace.git.status', {}).catch(() => undefined) : undefined;
    if (!root || !answer?.success) {
      // No repository (or no folder): the view says so, as it does without one.
      this.repository?.dispose();
      this.repository = undefined;
      this.decorate(new Map());
      this.gitSummary.set(undefined);
      return;
    }
    const status = answer as ToolResult & GitStatusInfo;
    this.gitSummary.set(summaryOf(status));
    const group = (id: GroupId, label: string, changes: { path: string; status: GitChange['status'] }[]) => {
      const g = new GitGroup(id, label, this);
      g.resources = changes.map((c) => new GitResource(root.resolve(c.path), c.path, c.status, g, this));
      return g;
    };
    this.rootUri = root.toString();
    this.groups = [
      group(
        'merge',
        'Merge Changes',
        status.conflicted.map((path) => ({ path, status: 'conflicted' as const })),
      ),
      group('index', 'Staged Changes', status.staged),
      group('workingTree', 'Changes', [...status.unstaged, ...status.untracked.map((path) => ({ path, status: 'untracked' as const }))]),
    ];
    this.statusBarCommands = [{ title: `$(source-control) ${status.branch ?? 'detached HEAD'}`, tooltip: 'The current git branch' }];
    if (!this.repository) this.repository = this.scm.registerScmProvider(this, { input: { placeholder: 'Message ({0} to commit)' } });
    // What is not staged shows over what is, and a conflict over both (as the git extension of VS Code shows them).
    const letters = new Map<string, Decoration>();
    for (const resource of [...this.groups[1]!.resources, ...this.groups[2]!.resources, ...this.groups[0]!.resources]) {
      letters.set(resource.sourceUri.toString(), {
        letter: LETTERS[resource.status],
        tooltip: `${resource.status} (${resource.group.label})`,
        bubble: true,
      });
    }
    this.decorate(letters);
    this.changed.fire();
    this.statusBarChanged.fire(this.statusBarCommands);
    this.originals.fire();
  }

  private decorate(letters: Map<string, Decoration>): void {
    const touched = new Set([...this.decorations.keys(), ...letters.keys()]);
    this.decorations = letters;
    if (touched.size > 0) this.decorationsChanged.fire([...touched].map((uri) => new URI(uri)));
  }

  /** A click on a change: its diff (staged: committed ↔ staged; not staged: staged ↔ the file), or the file itself. */
  async openChange(resource: GitResource): Promise<void> {
    const file = resource.sourceUri;
    const name = file.path.base;
    if (resource.group.id === 'index') {
      if (resource.status === 'added') return void (await open(this.opener, this.originalUri(resource.path, 'index')));
      await open(
        this.opener,
        DiffUris.encode(this.originalUri(resource.path, 'HEAD'), this.originalUri(resource.path, 'index'), `${name} (Staged)`),
      );
    } else if (resource.status === 'untracked' || resource.status === 'conflicted' || resource.status === 'added') {
      await open(this.opener, file);
    } else if (resource.status === 'deleted') {
      await open(this.opener, this.originalUri(resource.path, 'index'));
    } else {
      await open(this.opener, DiffUris.encode(this.originalUri(resource.path, 'index'), file, `${name} (Working Tree)`));
    }
  }

  /** What the repository's toUriAtRef gives too: `ref` '' is the staged text. */
  private originalUri(path: string, ref: 'index' | 'HEAD'): URI {
    const file = this.ids.rootUri!.resolve(path);
    return file.withScheme(GIT_SCHEME).withQuery(JSON.stringify({ path: file.path.fsPath(), ref: ref === 'index' ? '' : ref }));
  }

  /** The staged and committed texts, for diffs and for the editor's change markers (an untracked file has none: no markers). */
  async resolve(uri: URI): Promise<Resource> {
    if (uri.scheme !== GIT_SCHEME) throw new Error(`Not a ${GIT_SCHEME} URI: ${uri}`);
    const { path, ref } = JSON.parse(uri.query) as { path: string; ref: string };
    const relative = this.ids.rootUri?.relative(new URI(`file://${path}`).withScheme('file'))?.toString() ?? path;
    const which = ref === '' ? 'index' : 'HEAD';
    return {
      uri,
      readContents: async () => {
        const text = await this.original(relative, which);
        if (text === undefined) throw new Error(`${relative} has no ${which} text`);
        return text;
      },
      onDidChangeContents: this.originals.event,
      dispose: () => undefined,
    };
  }

  /**
   * After each change every open editor asks for its file's text behind the change markers, each
   * alone: what is asked in the same moment goes to git as one reading.
   */
  private original(path: string, ref: 'index' | 'HEAD'): Promise<string | undefined> {
    if (this.asked.length === 0) setTimeout(() => void this.readOriginals());
    return new Promise((answer, fail) => this.asked.push({ path, ref, answer, fail }));
  }

  private async readOriginals(): Promise<void> {
    const asked = this.asked;
    this.asked = [];
    try {
      const texts = await this.bridge.gitOriginals(asked.map(({ path, ref }) => ({ path, ref })));
      asked.forEach((a, i) => a.answer(texts[i]));
    } catch (err) {
      for (const a of asked) a.fail(err);
    }
  }

  registerCommands(registry: CommandRegistry): void {
    const paths = (args: unknown[]) => args.filter((a): a is GitResource => a instanceof GitResource).map((r) => r.path);
    const groupPaths = (group: unknown) => (group instanceof GitGroup ? group.resources.map((r) => r.path) : []);
    const run = async (tool: string, args: Record<string, unknown>) => {
      // As the person's own command: a failure shows as a notification, as from the palette.
      await this.commands.executeCommand(tool, args);
      await this.refresh();
    };
    registry.registerCommand(COMMANDS.stage, { execute: (...args: unknown[]) => run('openspace.git.stage', { paths: paths(args) }) });
    registry.registerCommand(COMMANDS.unstage, { execute: (...args: unknown[]) => run('openspace.git.unstage', { paths: paths(args) }) });
    registry.registerCommand(COMMANDS.stageAll, { execute: (group: unknown) => run('openspace.git.stage', { paths: groupPaths(group) }) });
    registry.registerCommand(COMMANDS.unstageAll, {
      execute: (group: unknown) => run('openspace.git.unstage', { paths: groupPaths(group) }),
    });
    registry.registerCommand(COMMANDS.discard, {
      isVisible: (...args: unknown[]) => args.some((a) => a instanceof GitResource && a.status !== 'untracked'),
      execute: async (...args: unknown[]) => {
        const chosen = paths(args.filter((a) => a instanceof GitResource && a.status !== 'untracked'));
        const yes = await new ConfirmDialog({
          title: 'Discard Changes',
          msg: `Discard the changes in ${chosen.length === 1 ? chosen[0] : `${chosen.length} files`}? They go back to their staged content; OpenSpace keeps a snapshot of each as it is now.`,
          ok: 'Discard',
        }).open();
        if (yes) await run('openspace.git.discard', { paths: chosen });
      },
    });
    registry.registerCommand(COMMANDS.commit, {
      execute: async () => {
        const input = this.repository?.input;
        if (!input?.value.trim()) return;
        const result = (await this.commands.executeCommand<ToolResult>('openspace.git.commit', { message: input.value })) as
          | ToolResult
          | undefined;
        if (result?.success) input.value = '';
        await this.refresh();
      },
    });
    registry.registerCommand(COMMANDS.stageChange, {
      execute: async (widget: DirtyDiffWidget) => {
        const text = await widget.getContentWithSelectedChanges((_, i) => i === widget.currentChangeIndex);
        const path = this.relative(widget.uri);
        await this.bridge.gitStageText(path, text);
        ideEvents(this.ide).personChangedGit('openspace.git.stage', [path]);
        await this.refresh();
      },
    });
    registry.registerCommand(COMMANDS.revertChange, {
      execute: async (widget: DirtyDiffWidget) => {
        const text = await widget.getContentWithSelectedChanges((_, i) => i !== widget.currentChangeIndex);
        const model = widget.editor.getControl().getModel();
        model?.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      },
    });
  }

  private relative(uri: URI): string {
    return this.ids.rootUri?.relative(uri)?.toString() ?? uri.path.toString();
  }

  registerMenus(menus: MenuModelRegistry): void {
    const mine = `scmProvider == ${GIT_SCHEME}`;
    const inline = (command: { id: string; label: string; icon?: string }, group: GroupId, menu = ScmTreeWidget.RESOURCE_INLINE_MENU) =>
      menus.registerMenuAction(menu, {
        commandId: command.id,
        label: command.label,
        icon: command.icon,
        when: `${mine} && scmResourceGroup == ${group}`,
      });
    inline(COMMANDS.discard, 'workingTree');
    inline(COMMANDS.stage, 'workingTree');
    inline(COMMANDS.stage, 'merge');
    inline(COMMANDS.unstage, 'index');
    inline(COMMANDS.stageAll, 'workingTree', ScmTreeWidget.RESOURCE_GROUP_INLINE_MENU);
    inline(COMMANDS.unstageAll, 'index', ScmTreeWidget.RESOURCE_GROUP_INLINE_MENU);
    for (const command of [COMMANDS.stageChange, COMMANDS.revertChange]) {
      menus.registerMenuAction(SCM_CHANGE_TITLE_MENU, {
        commandId: command.id,
        label: command.label,
        icon: command.icon,
        when: `originalResourceScheme == ${GIT_SCHEME}`,
      });
    }
  }
}
