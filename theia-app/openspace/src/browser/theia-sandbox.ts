import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import {
  SandboxChoices,
  sandboxSettings,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  SANDBOX_NETWORK_SETTING,
  type SandboxSettings,
} from '../../../../src/browser.js';
import type { BoxVerdict } from '../../../../src/browser.js';
import { SANDBOX_PATH, type SandboxBackend, type SandboxPlace } from '../common/protocol.js';
import { filePolicySettings } from './file-policy-settings.js';
import { ContentIds } from './content-ids.js';

export const SandboxBackendProxy = Symbol('SandboxBackendProxy');

export function createSandboxBackendProxy(ctx: interfaces.Context): SandboxBackend {
  return ServiceConnectionProvider.createProxy<SandboxBackend>(ctx.container, SANDBOX_PATH);
}

/**
 * The sandbox of the terminals OpenSpace opens (src/security/sandbox.ts): the settings as the person's
 * user settings say, tightened by the workspace's, and the shell command line from the backend.
 * Where bubblewrap cannot run, the person is told once per window and the terminals run without it.
 */
@injectable()
export class TheiaSandbox {
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(SandboxBackendProxy) protected readonly backend!: SandboxBackend;
  private toldUnavailable = false;
  private unavailable: Promise<string | undefined> | undefined;

  /** What Theia runs for an agent's shell in `cwd` (workspace-relative), or undefined to run it without a sandbox. */
  async shell(cwd: string, shellPath: string | undefined): Promise<{ shellPath: string; shellArgs: string[] } | undefined> {
    const place = await this.place(cwd);
    if (!place.settings.enabled) return undefined;
    const shell = await this.backend.shell({ ...place, shellPath });
    if ('shellPath' in shell) return shell;
    if (!this.toldUnavailable) {
      this.toldUnavailable = true;
      void this.messages.warn(
        `OpenSpace: agent terminals run WITHOUT a sandbox: ${shell.unavailable}. Install bubblewrap (e.g. apt-get install bubblewrap) ` +
          'to keep their commands from your files outside the workspace and from your credentials. Until then every command an agent types asks you first.',
      );
    }
    return undefined;
  }

  /**
   * What `text`, typed at a sandboxed shell, needs beyond the sandbox: in the directory the shell of
   * the terminal's process `pid` is in now, else in `cwd` (workspace-relative), where it started.
   */
  async assess(cwd: string, text: string, pid: number | undefined): Promise<BoxVerdict> {
    return this.backend.assess({ ...(await this.place(cwd)), text, pid });
  }

  /** Fails, naming it, while a sandbox or protected-path setting is wrong. */
  async settingsValid(): Promise<void> {
    await this.place('');
  }

  /**
   * Whether an agent's programs run in the sandbox: the settings have it on and bubblewrap can make
   * one on this machine (asked of the backend once per window).
   */
  async enabled(): Promise<boolean> {
    const view = this.current();
    if ('settings' in view && !view.settings.enabled) return false;
    return (await (this.unavailable ??= this.backend.unavailable())) === undefined;
  }

  /** The person allowed a command reaching these hosts once. */
  async grantHosts(hosts: string[]): Promise<void> {
    await this.backend.grantHosts(hosts);
  }

  /** End the sandbox of a terminal being closed (its bwrap, the sandbox's init and all they started). */
  async end(pid: number): Promise<void> {
    await this.backend.end(pid).catch((err) => console.warn('OpenSpace: could not end a terminal sandbox:', err));
  }

  /** The settings and protected patterns now, or what is wrong with them (the window's view for test runs). */
  current(): Omit<SandboxPlace, 'cwd'> | { problem: string } {
    const { protectedPatterns, problems } = filePolicySettings(this.preferences, this.ids.rootUri?.toString() ?? '');
    if (problems.length > 0) return { problem: problems.join('; ') };
    try {
      return { settings: this.settings(), protectedPatterns };
    } catch (err) {
      return { problem: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * The settings and the person's protected patterns as every scope says now; a wrong value fails the
   * terminal's creation or the command, naming it, rather than weaken the sandbox.
   */
  private async place(cwd: string): Promise<SandboxPlace> {
    await this.preferences.ready;
    const { protectedPatterns, problems } = filePolicySettings(this.preferences, this.ids.rootUri?.toString() ?? '');
    if (problems.length > 0) throw new Error(problems.join('; '));
    return { cwd, settings: this.settings(), protectedPatterns };
  }

  /** Each scope's values, the workspace's only tightening the person's. */
  private settings(): SandboxSettings {
    const resource = this.ids.rootUri?.toString();
    const scope = (pick: 'globalValue' | 'workspaceValue' | 'workspaceFolderValue', name: string): SandboxChoices => {
      const choices = SandboxChoices.safeParse({
        enabled: this.preferences.inspect(SANDBOX_ENABLED_SETTING, resource)?.[pick],
        network: this.preferences.inspect(SANDBOX_NETWORK_SETTING, resource)?.[pick],
        hiddenPaths: this.preferences.inspect(SANDBOX_HIDDEN_PATHS_SETTING, resource)?.[pick],
        homeReadable: this.preferences.inspect(SANDBOX_HOME_READABLE_SETTING, resource)?.[pick],
        allowedHosts: this.preferences.inspect(SANDBOX_ALLOWED_HOSTS_SETTING, resource)?.[pick],
      });
      if (!choices.success) {
        const issue = choices.error.issues[0]!;
        throw new Error(`openspace.security.sandbox.${String(issue.path[0])} in the ${name} settings: ${issue.message}`);
      }
      return choices.data;
    };
    return sandboxSettings(scope('globalValue', 'user'), scope('workspaceValue', 'workspace'), scope('workspaceFolderValue', 'folder'))
      .settings;
  }
}
