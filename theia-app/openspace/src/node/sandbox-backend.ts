import { inject, injectable } from '@theia/core/shared/inversify';
import { WorkspaceServer } from '@theia/workspace/lib/common/workspace-protocol';
import { ShellProcess } from '@theia/terminal/lib/node/shell-process';
import { readlinkSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { SandboxSettings } from '../../../../src/security/sandbox.js';
import { endSandboxSession, probeBwrap, sandboxCommand } from '../../../../src/security/sandbox-host.js';
import type { SandboxBackend, SandboxedShell } from '../common/protocol.js';
import { openedWorkspace } from './opened-workspace.js';

/**
 * Builds the bubblewrap command line an agent's terminal starts with, around the shell Theia would
 * start (THEIA_SHELL or SHELL, with THEIA_SHELL_ARGS), for the workspace Theia opened and no other.
 */
@injectable()
export class SandboxBackendImpl implements SandboxBackend {
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;

  async shell(options: { cwd: string; shellPath?: string; settings: SandboxSettings }): Promise<SandboxedShell> {
    const bwrap = probeBwrap();
    if (!bwrap.available) return { unavailable: bwrap.reason };
    const workspace = await openedWorkspace(this.workspaceServer);
    if (!workspace) return { unavailable: 'no folder is open' };
    const cwd = resolve(workspace, options.cwd);
    if (cwd !== workspace && !cwd.startsWith(workspace + sep)) return { unavailable: `${options.cwd} is outside the workspace` };
    // SHELL may be unset, whatever its type says.
    const shell = options.shellPath
      ? [options.shellPath]
      : [ShellProcess.getShellExecutablePath() || '/bin/bash', ...ShellProcess.getShellExecutableArgs()];
    const [shellPath, ...shellArgsInSandbox] = sandboxCommand(bwrap.path, options.settings, { workspace, cwd }, shell);
    return { shellPath: shellPath!, shellArgs: shellArgsInSandbox };
  }

  async end(pid: number): Promise<void> {
    const bwrap = probeBwrap();
    // Only a bwrap's session: nothing else a window names is ended here.
    if (bwrap.available && processExecutable(pid) === realpathSync(bwrap.path)) endSandboxSession(pid);
  }
}

function processExecutable(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined; // ended already
  }
}
