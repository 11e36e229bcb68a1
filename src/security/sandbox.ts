/**
 * The sandbox agent terminals run in on Linux (bubblewrap): its settings, how a person's and a
 * workspace's settings combine, and bwrap's command line. Browser-safe (Theia's window reads the
 * settings); what needs the machine (finding bwrap, the home directory, which hidden paths exist)
 * is in sandbox-host.ts.
 *
 * Inside, a shell sees the whole file system read-only, the workspace read-write, a /tmp of its
 * own, and none of the person's secrets (the hidden paths); it runs in a process namespace of its
 * own, so everything it started ends with it; without network when the settings say so.
 */
import { z } from 'zod';

export const SANDBOX_ENABLED_SETTING = 'openspace.security.sandbox.enabled';
export const SANDBOX_NETWORK_SETTING = 'openspace.security.sandbox.network';
export const SANDBOX_HIDDEN_PATHS_SETTING = 'openspace.security.sandbox.hiddenPaths';

/**
 * What agent terminals never see: credentials of the usual tools, the hub's own files (its lock file
 * holds the access token), and sockets that would act with the person's authority (ssh-agent and
 * gpg-agent in the session's runtime directory, Docker). A read-only mount does not stop connecting
 * to a socket; covering it does.
 */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = Object.freeze([
  '~/.ssh',
  '~/.aws',
  '~/.kube',
  '~/.config/gcloud',
  '~/.netrc',
  '~/.docker/config.json',
  '~/.openspace',
  '/run/user',
  '/run/docker.sock',
  '/var/run/docker.sock',
]);

/** A hidden path as a person writes it: absolute, or in their home directory. */
export const HiddenPathSetting = z
  .string()
  .regex(/^(\/|~\/)[^\0]*$/, 'a hidden path must be absolute or start with ~/ (e.g. "~/.config/gh")');

/** Settings as one scope gives them: any may be missing. */
export const SandboxChoices = z.object({
  enabled: z.boolean().optional(),
  network: z.boolean().optional(),
  hiddenPaths: z.array(HiddenPathSetting).optional(),
});
export type SandboxChoices = z.infer<typeof SandboxChoices>;

export interface SandboxSettings {
  /** Agent terminals run in the sandbox. */
  enabled: boolean;
  /** The sandbox keeps the network (off: no network namespace shared with the machine). */
  network: boolean;
  /** The defaults, the person's and the workspace's, as written (`~/…` not expanded). */
  hiddenPaths: string[];
}

/**
 * The person's choices, tightened by the workspace's (a cloned repository's settings): a workspace
 * may turn the sandbox on, the network off and hide more paths, never the reverse. `ignored` names
 * the workspace settings that tried to loosen it.
 */
export function sandboxSettings(person: SandboxChoices, ...workspace: SandboxChoices[]): { settings: SandboxSettings; ignored: string[] } {
  const settings: SandboxSettings = {
    enabled: (person.enabled ?? true) || workspace.some((w) => w.enabled === true),
    network: (person.network ?? true) && !workspace.some((w) => w.network === false),
    hiddenPaths: [...DEFAULT_HIDDEN_PATHS, ...(person.hiddenPaths ?? []), ...workspace.flatMap((w) => w.hiddenPaths ?? [])],
  };
  const ignored = [
    ...(workspace.some((w) => w.enabled === false) && settings.enabled ? [`${SANDBOX_ENABLED_SETTING}: false`] : []),
    ...(workspace.some((w) => w.network === true) && !settings.network ? [`${SANDBOX_NETWORK_SETTING}: true`] : []),
  ];
  return { settings, ignored };
}

/** `~/x` in `home`; other paths as they are. */
export function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? `${home.replace(/\/+$/, '')}/${path.slice(2)}` : path;
}

/**
 * A path to hide that exists: a directory is covered by an empty one, a file by /dev/null, which
 * bwrap mounts without device access, so opening it is refused.
 */
export interface HiddenPath {
  path: string;
  kind: 'directory' | 'file';
}

export interface SandboxPlan {
  /** Absolute: the one directory the sandbox may change. */
  workspace: string;
  /** Absolute: where the command starts. */
  cwd: string;
  network: boolean;
  hidden: HiddenPath[];
  /** The command and its arguments. */
  command: string[];
}

/** Variables the sandboxed process does not inherit: the hub's access token (as its lock file is hidden). */
const UNSET_VARIABLES = ['OPENSPACE_TOKEN'];

/** bwrap's arguments (without bwrap itself) that run plan.command in the sandbox. */
export function bwrapArgs(plan: SandboxPlan): string[] {
  return [
    ...['--ro-bind', '/', '/'],
    ...['--dev', '/dev'],
    ...['--proc', '/proc'],
    ...['--tmpfs', '/tmp'],
    // After /tmp, so a workspace under /tmp is still there; hidden paths after it, so they win inside it.
    ...['--bind', plan.workspace, plan.workspace],
    ...plan.hidden.flatMap(({ path, kind }) => (kind === 'directory' ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path])),
    // A process namespace of its own: when the shell's bwrap ends (the terminal closed), so does all it started.
    '--unshare-pid',
    '--die-with-parent',
    ...(plan.network ? [] : ['--unshare-net']),
    ...UNSET_VARIABLES.flatMap((name) => ['--unsetenv', name]),
    ...['--chdir', plan.cwd],
    '--',
    ...plan.command,
  ];
}
