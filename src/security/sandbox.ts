/**
 * The sandbox agent terminals run in on Linux (bubblewrap): its settings, how a person's and a
 * workspace's settings combine, and bwrap's command line. Browser-safe (Theia's window reads the
 * settings); what needs the machine (finding bwrap, the home directory, which paths exist, the
 * network proxy) is in sandbox-host.ts. docs/security.md is the threat model.
 *
 * Inside, a shell sees:
 * - the file system read-only, the workspace read-write, a /tmp of its own;
 * - an empty, throwaway home directory, with read-only grants of what toolchains need (never
 *   credentials); the person's secrets elsewhere hidden too;
 * - the workspace's paths whose contents run code later outside the sandbox (git hooks and config,
 *   editor tasks, …: code-running-paths.ts) read-only, whether or not they exist yet;
 * - no capabilities and no way to gain any (bwrap's --cap-drop ALL sets no_new_privs: setuid
 *   programs do not elevate), even when the IDE runs as root;
 * - a process namespace of its own (everything it started ends with it), its own IPC and host name;
 * - an environment built from an allowlist: never the hub's token nor anything named like a secret
 *   (bwrap itself is started with that environment, so the sandbox's pid 1 holds nothing else);
 * - a network namespace of its own: only the hosts and local ports the person allows, through a
 *   proxy outside (sandbox-network.ts), or nothing at all.
 */
import { z } from 'zod';
import { CODE_RUNNING_PATHS } from './code-running-paths.js';

export const SANDBOX_ENABLED_SETTING = 'openspace.security.sandbox.enabled';
export const SANDBOX_NETWORK_SETTING = 'openspace.security.sandbox.network';
export const SANDBOX_HIDDEN_PATHS_SETTING = 'openspace.security.sandbox.hiddenPaths';
export const SANDBOX_HOME_READABLE_SETTING = 'openspace.security.sandbox.homeReadable';
export const SANDBOX_ALLOWED_HOSTS_SETTING = 'openspace.security.sandbox.allowedHosts';

/**
 * What agent terminals never see, wherever the home directory is (it is hidden as a whole too; these
 * matter when the workspace is the home directory or the person grants a directory holding them):
 * credentials of the usual tools, shell history, the hub's own files (its lock file holds the access
 * token), the system's password hashes and host keys (readable by root without any capability), and
 * sockets that would act with the person's authority (ssh-agent and gpg-agent in the session's
 * runtime directory, Docker). A read-only mount does not stop connecting to a socket; covering it does.
 */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = Object.freeze([
  '~/.ssh',
  '~/.aws',
  '~/.kube',
  '~/.config/gcloud',
  '~/.azure',
  '~/.netrc',
  '~/.npmrc',
  '~/.yarnrc.yml',
  '~/.pypirc',
  '~/.git-credentials',
  '~/.gnupg',
  '~/.password-store',
  '~/.config/gh',
  '~/.config/hub',
  '~/.config/opencode',
  '~/.local/share/opencode',
  '~/.claude',
  '~/.claude.json',
  '~/.cargo/credentials.toml',
  '~/.m2/settings.xml',
  '~/.gradle/gradle.properties',
  '~/.docker/config.json',
  '~/.terraform.d',
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '~/.openspace',
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
  '/run/user',
  '/run/docker.sock',
  '/var/run/docker.sock',
]);

/**
 * What of the home directory agent terminals may read (read-only) by default: where toolchains
 * install their programs, and git's own settings. No caches that tools write, no credentials.
 */
export const DEFAULT_HOME_READABLE: readonly string[] = Object.freeze([
  '~/.gitconfig',
  '~/.config/git',
  '~/.nvm',
  '~/.volta',
  '~/.fnm',
  '~/.local/bin',
  '~/.local/lib',
  '~/.cargo/bin',
  '~/.rustup',
  '~/.pyenv',
  '~/.rbenv',
  '~/.asdf',
  '~/.sdkman',
  '~/.bun/bin',
  '~/.deno/bin',
  '~/go/bin',
]);

/** A path as a person writes it: absolute, or in their home directory. */
export const HiddenPathSetting = z.string().regex(/^(\/|~\/)[^\0]*$/, 'a path must be absolute or start with ~/ (e.g. "~/.config/gh")');

/** A host the sandbox may reach: `registry.npmjs.org`, `*.example.com`, `example.com:8443`, `localhost:3000`. */
export const AllowedHostSetting = z
  .string()
  .regex(/^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$|^\*$/, 'a host is a name, *.domain, name:port, localhost:port, or * for any');

/** Settings as one scope gives them: any may be missing. */
export const SandboxChoices = z.object({
  enabled: z.boolean().optional(),
  network: z.boolean().optional(),
  hiddenPaths: z.array(HiddenPathSetting).optional(),
  homeReadable: z.array(HiddenPathSetting).optional(),
  allowedHosts: z.array(AllowedHostSetting).optional(),
});
export type SandboxChoices = z.infer<typeof SandboxChoices>;

export interface SandboxSettings {
  /** Agent terminals run in the sandbox. */
  enabled: boolean;
  /** The sandbox reaches the allowed hosts through the proxy (off: no network at all). */
  network: boolean;
  /** The defaults, the person's and the workspace's, as written (`~/…` not expanded). */
  hiddenPaths: string[];
  /** What of the home directory is readable: the defaults and the person's. */
  homeReadable: string[];
  /** The hosts and local ports the proxy lets through: the person's (or the defaults), narrowed by the workspace's. */
  allowedHosts: string[];
}

/**
 * The package registries a developer's everyday installs need. Not github.com, nor any host where
 * an agent could push: what leaves through an allowed host leaves for good.
 */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze([
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'rubygems.org',
]);

/**
 * The person's choices, tightened by the workspace's (a cloned repository's settings): a workspace
 * may turn the sandbox on, the network off, hide more paths and allow fewer hosts, never the
 * reverse; what of the home directory is readable is the person's alone. `ignored` names the
 * workspace settings that tried to loosen it.
 */
export function sandboxSettings(person: SandboxChoices, ...workspace: SandboxChoices[]): { settings: SandboxSettings; ignored: string[] } {
  const personHosts = person.allowedHosts ?? [...DEFAULT_ALLOWED_HOSTS];
  const narrowed = workspace.filter((w) => w.allowedHosts !== undefined).map((w) => w.allowedHosts!);
  const settings: SandboxSettings = {
    enabled: (person.enabled ?? true) || workspace.some((w) => w.enabled === true),
    network: (person.network ?? true) && !workspace.some((w) => w.network === false),
    hiddenPaths: [...DEFAULT_HIDDEN_PATHS, ...(person.hiddenPaths ?? []), ...workspace.flatMap((w) => w.hiddenPaths ?? [])],
    homeReadable: [...DEFAULT_HOME_READABLE, ...(person.homeReadable ?? [])],
    allowedHosts: personHosts.filter((host) => narrowed.every((hosts) => hosts.includes(host))),
  };
  const added = narrowed.flat().filter((host) => !personHosts.includes(host));
  const ignored = [
    ...(workspace.some((w) => w.enabled === false) && settings.enabled ? [`${SANDBOX_ENABLED_SETTING}: false`] : []),
    ...(workspace.some((w) => w.network === true) && !settings.network ? [`${SANDBOX_NETWORK_SETTING}: true`] : []),
    ...(workspace.some((w) => (w.homeReadable ?? []).length > 0) ? [SANDBOX_HOME_READABLE_SETTING] : []),
    ...(added.length > 0 ? [`${SANDBOX_ALLOWED_HOSTS_SETTING}: ${[...new Set(added)].join(', ')}`] : []),
  ];
  return { settings, ignored };
}

/** `~/x` in `home`; other paths as they are. */
export function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? `${home.replace(/\/+$/, '')}/${path.slice(2)}` : path;
}

/** A path on this machine and what it is: bwrap covers a directory with a directory, a file with a file. */
export interface Mount {
  path: string;
  kind: 'directory' | 'file';
}

/** The sandbox's variables are the parent's of these names (and `LC_*`), never one named like a secret. */
const PASSED_VARIABLES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'TERM_PROGRAM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'PS1',
  'PROMPT_COMMAND',
  'OPENSPACE_SHELL_INTEGRATION',
  'OPENSPACE_AGENT_SHELL',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'NODE_PATH',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'PYENV_ROOT',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'CI',
]);
const SECRET_NAME = /TOKEN|SECRET|PASS|KEY|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE|API/i;

/** The environment a sandboxed shell starts with: the allowlisted part of `env`. */
export function sandboxEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    if (PASSED_VARIABLES.has(name) || name.startsWith('LC_')) passed[name] = value;
  }
  return passed;
}

/**
 * Resource limits: file size and data per process; processes for all of an IDE's sandboxes together
 * (a pids cgroup where the IDE may make one, as root; else RLIMIT_NPROC, per user, which the kernel
 * does not apply to root).
 */
export const SANDBOX_LIMITS = Object.freeze({ processes: 1024, fileSizeBytes: 8 * 2 ** 30, dataBytes: 8 * 2 ** 30 });

/** A code-running workspace path, read-only inside: itself when it exists, else covered by an empty one bwrap creates. */
export interface ProtectedPath extends Mount {
  exists: boolean;
}

/**
 * The code-running paths of `workspace` to bind read-only, given what exists (`kindOf` answers
 * 'directory', 'file', 'other' or undefined). A missing `.git` is covered whole (no repository can
 * be planted); a `.git` that is a file (a worktree's) points outside the workspace, which is
 * read-only already. A missing path under a file is skipped: nothing can be created there.
 */
export function protectedPaths(
  workspace: string,
  kindOf: (path: string) => 'directory' | 'file' | 'other' | undefined,
  extra: readonly string[] = [],
): ProtectedPath[] {
  const git = kindOf(`${workspace}/.git`);
  const relative = git === undefined ? ['.git', ...CODE_RUNNING_PATHS.filter((p) => !p.startsWith('.git/'))] : [...CODE_RUNNING_PATHS];
  const found: ProtectedPath[] = [];
  for (const rel of [...relative, ...extra]) {
    const path = `${workspace}/${rel}`;
    const kind = kindOf(path);
    if (kind === 'directory' || kind === 'file') {
      found.push({ path, kind, exists: true });
      continue;
    }
    if (kind === 'other') continue;
    // Every missing parent is made by bwrap as a directory: none may be a file.
    const parents = rel.split('/').slice(0, -1);
    if (parents.some((_, i) => kindOf(`${workspace}/${parents.slice(0, i + 1).join('/')}`) === 'file')) continue;
    found.push({ path, kind: /^\.(envrc|npmrc)$|\/config$/.test(rel) ? 'file' : 'directory', exists: false });
  }
  return found;
}

export interface SandboxPlan {
  /** Absolute: the one directory the sandbox may change. */
  workspace: string;
  /** Absolute: where the command starts. */
  cwd: string;
  /** Absolute: the person's home, an empty throwaway directory inside. */
  home: string;
  /** Existing paths readable inside, read-only (under home: bound again over the empty one). */
  readable: Mount[];
  hidden: Mount[];
  /** The workspace's code-running paths. */
  protected: ProtectedPath[];
  /** What covers a missing protected path: an empty directory and an empty file, outside the workspace. */
  emptyDirectory: string;
  emptyFile: string;
  /** The proxy's socket directory, bound at `/tmp/.openspace-network`; absent: no network at all. */
  networkDirectory?: string;
  /** A directory of OpenSpace's bound writable at EXCHANGE_DIRECTORY_INSIDE (a test runner's reporter writes there). */
  exchangeDirectory?: string;
  /** The command and its arguments. */
  command: string[];
}

/** Where the proxy's socket directory is inside (the sandbox's /tmp is a tmpfs of its own, so bwrap can make the mount point). */
export const NETWORK_DIRECTORY_INSIDE = '/tmp/.openspace-network';

/** Where a command's exchange directory is inside (in the sandbox's own /tmp). */
export const EXCHANGE_DIRECTORY_INSIDE = '/tmp/.openspace-exchange';

/** bwrap's arguments (without bwrap itself) that run plan.command in the sandbox. */
export function bwrapArgs(plan: SandboxPlan): string[] {
  // A hidden directory shows empty (and takes throwaway writes); a hidden file reads as empty.
  const cover = ({ path, kind }: Mount) => (kind === 'directory' ? ['--tmpfs', path] : ['--ro-bind', plan.emptyFile, path]);
  return [
    ...['--ro-bind', '/', '/'],
    ...['--dev', '/dev'],
    ...['--proc', '/proc'],
    ...['--tmpfs', '/tmp'],
    // An empty home; the grants over it; then the workspace (perhaps inside it), then what is hidden,
    // so it wins inside all of them.
    ...(plan.home === '/' ? [] : ['--tmpfs', plan.home]),
    ...plan.readable.flatMap(({ path }) => ['--ro-bind', path, path]),
    ...['--bind', plan.workspace, plan.workspace],
    ...plan.protected.flatMap(({ path, kind, exists }) => [
      '--ro-bind',
      exists ? path : kind === 'directory' ? plan.emptyDirectory : plan.emptyFile,
      path,
    ]),
    ...plan.hidden.flatMap(cover),
    ...(plan.networkDirectory ? ['--bind', plan.networkDirectory, NETWORK_DIRECTORY_INSIDE] : []),
    ...(plan.exchangeDirectory ? ['--bind', plan.exchangeDirectory, EXCHANGE_DIRECTORY_INSIDE] : []),
    // A process namespace of its own: when the shell's bwrap ends (the terminal closed), so does all it started.
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--unshare-net',
    '--die-with-parent',
    ...['--cap-drop', 'ALL'],
    ...['--chdir', plan.cwd],
    '--',
    ...plan.command,
  ];
}
