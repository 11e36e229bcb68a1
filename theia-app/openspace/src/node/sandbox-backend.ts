import { inject, injectable } from '@theia/core/shared/inversify';
import { WorkspaceServer } from '@theia/workspace/lib/common/workspace-protocol';
import { ShellProcess } from '@theia/terminal/lib/node/shell-process';
import { resolve, sep } from 'node:path';
import type { BoxVerdict } from '../../../../src/browser.js';
import { shellIntegrationEnv } from '../../../../src/browser.js';
import { becomes, endSandboxSession, probeBwrap, ended, SANDBOX_LAUNCH_WAIT_MS, SandboxRuntime } from '../../../../src/node.js';
import type { SandboxBackend, SandboxedShell, SandboxPlace } from '../common/protocol.js';
import { openedWorkspace } from './opened-workspace.js';

/**
 * Builds the command line an agent's terminal starts with, around the shell Theia would start
 * (THEIA_SHELL or SHELL, with THEIA_SHELL_ARGS), for the workspace Theia opened and no other, and
 * judges what is typed there (src/security/sandbox-runtime.ts, shared with the simulated IDE).
 */
@injectable()
export class SandboxBackendImpl implements SandboxBackend {
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;
  private runtime: { workspace: string; runtime: SandboxRuntime } | undefined;

  async shell(options: SandboxPlace & { shellPath?: string }): Promise<SandboxedShell> {
    const bwrap = probeBwrap();
    if (!bwrap.available) return { unavailable: bwrap.reason };
    const place = await this.place(options);
    if ('unavailable' in place) return place;
    // SHELL may be unset, whatever its type says.
    const shell = options.shellPath
      ? [options.shellPath]
      : [ShellProcess.getShellExecutablePath() || '/bin/bash', ...ShellProcess.getShellExecutableArgs()];
    const env = { ...process.env, ...shellIntegrationEnv({ agent: true }) };
    const line = await place.runtime.command(shell, place.cwd, env);
    if ('unavailable' in line) return line;
    const [shellPath, ...shellArgs] = line;
    return { shellPath: shellPath!, shellArgs };
  }

  async unavailable(): Promise<string | undefined> {
    const bwrap = probeBwrap();
    return bwrap.available ? undefined : bwrap.reason;
  }

  async assess(options: SandboxPlace & { text: string; pid?: number }): Promise<BoxVerdict> {
    const place = await this.place(options);
    if ('unavailable' in place) throw new Error(place.unavailable);
    return place.runtime.assess(options.text, place.cwd, options.pid);
  }

  /** The opened workspace's sandboxes with these settings (the window's, for a test run), or why there are none. */
  async sandboxesFor(options: Omit<SandboxPlace, 'cwd'>): Promise<SandboxRuntime | { unavailable: string }> {
    const place = await this.place({ ...options, cwd: '' });
    return 'unavailable' in place ? place : place.runtime;
  }

  async grantHosts(hosts: string[]): Promise<void> {
    this.runtime?.runtime.grant(hosts);
  }

  async end(pid: number): Promise<void> {
    const bwrap = probeBwrap();
    // Only a bwrap's session: nothing else a window names is ended here. A terminal closed at once
    // may still be on its way to bwrap: waited for, else its sandbox would start after this and
    // leave its empty mount points in the workspace, forgotten.
    if (bwrap.available && (await becomes(pid, bwrap.path, SANDBOX_LAUNCH_WAIT_MS))) {
      endSandboxSession(pid);
      // Gone in milliseconds: then the empty mount points it kept in the workspace go at once.
      await ended(pid, bwrap.path, 1000);
    }
    this.runtime?.runtime.release();
  }

  /** The opened workspace's sandbox runtime (settings as the window read them now), and `cwd` in it. */
  private async place({
    cwd,
    settings,
    protectedPatterns,
  }: SandboxPlace): Promise<{ runtime: SandboxRuntime; cwd: string } | { unavailable: string }> {
    const workspace = await openedWorkspace(this.workspaceServer);
    if (!workspace) return { unavailable: 'no folder is open' };
    const absolute = resolve(workspace, cwd);
    if (absolute !== workspace && !absolute.startsWith(workspace + sep)) return { unavailable: `${cwd} is outside the workspace` };
    if (this.runtime?.workspace !== workspace) {
      void this.runtime?.runtime.dispose();
      this.runtime = { workspace, runtime: new SandboxRuntime(settings, { workspace, protectedPatterns }) };
    }
    this.runtime.runtime.update(settings, protectedPatterns);
    return { runtime: this.runtime.runtime, cwd: absolute };
  }
}
