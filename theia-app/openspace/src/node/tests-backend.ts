import type { TestPort, TestRunInfo } from '../../../../src/browser.js';
import { probeBwrap, testSandbox, WorkspaceTests, type TestSandbox } from '../../../../src/node.js';
import type { WindowView } from '../common/protocol.js';
import { SandboxBackendImpl } from './sandbox-backend.js';

interface Workspace {
  port: WorkspaceTests;
  sandbox: TestSandbox | undefined;
  runners: readonly string[] | undefined;
}

/**
 * The workspace's tests for every window (one WorkspaceTests per folder, so the last run's results
 * are the same for the agent and the person), run in the agent sandbox as the settings of the window
 * that asked describe them.
 */
export class TestsBackend {
  private readonly workspaces = new Map<string, Workspace>();

  constructor(
    private readonly sandboxes: SandboxBackendImpl,
    /** Told of every run (the hub's live state counts its failures). */
    private readonly ran: (run: TestRunInfo) => void,
  ) {}

  /** The workspace's tests, with the sandbox and the runners (openspace.test.runners) the calling window's settings say. */
  portFor(root: string, settings: WindowView['sandbox'], runners: WindowView['testRunners']): TestPort {
    let workspace = this.workspaces.get(root);
    if (!workspace) {
      const made: Partial<Workspace> = {};
      made.port = new WorkspaceTests({ root, sandbox: () => made.sandbox, chosen: () => made.runners });
      made.port.onRun(this.ran);
      workspace = made as Workspace;
      this.workspaces.set(root, workspace);
    }
    workspace.sandbox = this.sandbox(root, settings);
    workspace.runners = runners;
    return workspace.port;
  }

  /** Off where the person turned the sandbox off or bubblewrap cannot run (then an agent's run asks first); a wrong setting fails the run, naming it. */
  private sandbox(root: string, settings: WindowView['sandbox']): TestSandbox | undefined {
    if ('settings' in settings && (!settings.settings.enabled || !probeBwrap().available)) return undefined;
    return testSandbox(
      {
        command: async (argv, cwd, env, exchange) => {
          if ('problem' in settings) return { unavailable: settings.problem };
          const runtime = await this.sandboxes.sandboxesFor(settings);
          return 'unavailable' in runtime ? runtime : runtime.command(argv, cwd, env, exchange);
        },
      },
      root,
    );
  }
}
