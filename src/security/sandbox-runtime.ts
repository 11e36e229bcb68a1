/**
 * One IDE's agent sandboxes (Node only), the same for the simulated IDE and Theia's backend: the
 * command line a shell starts with, the network proxy they share (started with the first), the
 * hosts the person allowed once, and what a typed command needs beyond the sandbox.
 */
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { assessInBox, type BoxAssessment } from './box-check.js';
import { boxView, personFiles, trackedFiles } from './box-view.js';
import { CODE_RUNNING_PATHS } from './code-running-paths.js';
import { endSandboxes, probeBwrap, removeCovers, sandboxCommand, shellDirectory, systemSocat } from './sandbox-host.js';
import { networkLaunch } from './sandbox-forwarder.js';
import { allowedLocalPorts, hostAllowed, proxyEnvironment, startNetworkProxy } from './sandbox-network.js';
import type { SandboxSettings } from './sandbox.js';

/** How long "Allow once" lets the sandboxes reach a host: long enough for the command it was asked for. */
export const HOST_GRANT_MS = 10 * 60_000;

export interface SandboxRuntimeOptions {
  /** Absolute workspace directory. */
  workspace: string;
  /** The person's home (default: this process's). */
  home?: string;
  /** The person's own protected patterns that name a path (`secrets/`, `deploy/**`): read-only inside too. */
  protectedPatterns?: readonly string[];
  /** Told of every host the proxy refused. */
  onDenied?: (host: string, port: number) => void;
  /** Lower file-size and data limits (the benchmark's). */
  limits?: { fileSizeBytes?: number; dataBytes?: number };
}

export class SandboxRuntime {
  private proxy: Promise<{ close(): Promise<void> } | undefined> | undefined;
  private readonly directory = mkdtempSync(join(tmpdir(), 'openspace-network-'));
  private readonly grants = new Map<string, number>();
  private readonly home: string;
  private alsoProtected: string[] = [];
  private readOnly: (rel: string) => boolean = () => true;
  /** Outside a repository: the files that were there before the first agent terminal. */
  private baseline: Set<string> | undefined;
  private baselineTaken = false;

  constructor(
    private settings: SandboxSettings,
    private readonly options: SandboxRuntimeOptions,
  ) {
    this.home = options.home ?? homedir();
    this.protect(options.protectedPatterns ?? []);
  }

  /** Settings changed (Theia's preferences): later shells and checks follow them. */
  update(settings: SandboxSettings, protectedPatterns?: readonly string[]): void {
    this.settings = settings;
    if (protectedPatterns) this.protect(protectedPatterns);
  }

  /** The person's protected patterns that name a path (no wildcards but a trailing `/**`) are read-only inside. */
  private protect(patterns: readonly string[]): void {
    this.alsoProtected = patterns
      .map((p) => p.replace(/\/(\*\*)?$/, ''))
      .filter((p) => p !== '' && !/[*?[\]{}!]/.test(p) && !p.startsWith('/') && !p.split('/').includes('..'));
    const paths = [...CODE_RUNNING_PATHS, ...this.alsoProtected];
    this.readOnly = picomatch([...paths, ...paths.map((p) => `${p}/**`)], { dot: true });
  }

  /**
   * The command line running `shell` in the sandbox, starting in `cwd` (absolute), or why it cannot;
   * `exchange`, a directory of OpenSpace's, is writable inside at EXCHANGE_DIRECTORY_INSIDE.
   */
  async command(
    shell: string[],
    cwd: string,
    env: Record<string, string | undefined>,
    exchange?: string,
  ): Promise<string[] | { unavailable: string }> {
    const bwrap = probeBwrap();
    if (!bwrap.available) return { unavailable: bwrap.reason };
    this.release(); // what the sandboxes that ended meanwhile needed
    if (!this.baselineTaken) {
      this.baselineTaken = true;
      if (!trackedFiles(this.options.workspace)) this.baseline = personFiles(this.options.workspace);
    }
    const network = this.settings.network ? await this.startProxy() : false;
    const localPorts = allowedLocalPorts(this.settings.allowedHosts);
    return sandboxCommand(
      bwrap.path,
      this.settings,
      {
        workspace: this.options.workspace,
        cwd,
        home: this.home,
        env,
        alsoProtected: this.alsoProtected,
        limits: this.options.limits,
        exchange,
        ...(network && {
          network: {
            directory: this.directory,
            launch: (command) => networkLaunch({ nodePath: process.execPath, localPorts, socat: systemSocat() }, command),
            env: proxyEnvironment(),
          },
        }),
      },
      shell,
    );
  }

  /**
   * What `text`, typed at a sandboxed shell, needs beyond the sandbox. The shell's directory is the
   * one it is in now when `sandboxPid` (the terminal's process) says, else `cwd` (absolute), where
   * it started: `cd ..` sent first does not make `rm -rf ws` look like a file in the workspace.
   */
  assess(text: string, cwd: string, sandboxPid?: number): BoxAssessment {
    const bwrap = probeBwrap();
    const now = sandboxPid !== undefined && bwrap.available ? shellDirectory(bwrap.path, sandboxPid) : undefined;
    return assessInBox(
      text,
      boxView({
        workspace: this.options.workspace,
        cwd: now ?? cwd,
        home: this.home,
        baseline: this.baseline,
        isReadOnly: (rel) => (this.readOnly(rel) ? rel : undefined),
        hostAllowed: (host, port) => this.allows(host, port ?? 443),
      }),
    );
  }

  /** The person allowed a command reaching these hosts once: the sandboxes reach them for a while. */
  grant(hosts: string[]): void {
    for (const host of hosts) this.grants.set(host.toLowerCase(), Date.now() + HOST_GRANT_MS);
  }

  private allows(host: string, port: number): boolean {
    if (!this.settings.network) return false;
    const until = this.grants.get(host.toLowerCase());
    return (until !== undefined && until > Date.now()) || hostAllowed(this.settings.allowedHosts, host, port);
  }

  private startProxy(): Promise<boolean> {
    this.proxy ??= startNetworkProxy({
      socketPath: join(this.directory, 'proxy.sock'),
      allow: (host, port) => this.allows(host, port),
      onDenied: this.options.onDenied,
    }).catch((err: Error) => {
      process.stderr.write(`openspace: warning: the agent sandboxes' network proxy did not start (${err.message}); they have no network\n`);
      return undefined;
    });
    return this.proxy.then((p) => p !== undefined);
  }

  /** The sandboxes ended (or the IDE stops): remove the empty mount points they needed. */
  release(force = false): void {
    removeCovers(this.options.workspace, force);
  }

  /** The IDE stops: its sandboxes end (a server an agent started in one too), their covers go. */
  async dispose(): Promise<void> {
    endSandboxes(this.options.workspace);
    this.release(true);
    await (await this.proxy)?.close();
  }
}
