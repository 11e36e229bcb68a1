/**
 * The sandbox on this machine (Node only): whether bubblewrap works here, and the command line that
 * runs a shell in it (src/security/sandbox.ts has the rules, docs/security.md the threat model).
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, sep } from 'node:path';
import { lockDir } from './lock-file.js';
import { childrenOf, isAlive, kill, processesOfThisUser } from './sandbox-processes.js';

export { endSandboxSession, shellDirectory } from './sandbox-processes.js';
import {
  bwrapArgs,
  expandHome,
  protectedPaths,
  SANDBOX_LIMITS,
  sandboxEnvironment,
  type Mount,
  type ProtectedPath,
  type SandboxSettings,
} from './sandbox.js';

export type BwrapProbe = { available: true; path: string } | { available: false; reason: string };

let probed: BwrapProbe | undefined;

/**
 * Whether bubblewrap can build the sandbox here: found on PATH, and one trial run with every
 * namespace and no capabilities worked. Tried once per process.
 */
export function probeBwrap(): BwrapProbe {
  return (probed ??= probe());
}

function probe(): BwrapProbe {
  if (process.platform !== 'linux')
    return { available: false, reason: `the sandbox needs Linux's bubblewrap, and this is ${process.platform}` };
  // Its real path: what /proc/<pid>/exe of a running bwrap names.
  const found = onPath('bwrap');
  const path = found && realpathSync(found);
  if (!path) return { available: false, reason: 'bubblewrap (bwrap) is not installed' };
  const trial = spawnSync(
    path,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--cap-drop', 'ALL', 'true'],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (trial.status !== 0) {
    const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim();
    return { available: false, reason: `bubblewrap (${path}) cannot make a sandbox without capabilities here: ${why}` };
  }
  return { available: true, path };
}

/**
 * socat and setsid from the system's directories (a copy under the hidden home would not run inside),
 * for the sandbox's network forwarder; undefined without either.
 */
export function systemSocat(): { socat: string; setsid: string } | undefined {
  return (socatFound ??= { tools: findSocat() }).tools;
}

let socatFound: { tools: { socat: string; setsid: string } | undefined } | undefined;

function findSocat(): { socat: string; setsid: string } | undefined {
  const system = (path: string | undefined) => (path && /^\/(usr\/)?s?bin\//.test(path) ? path : undefined);
  const socat = system(onPath('socat'));
  const setsid = system(onPath('setsid'));
  return socat && setsid ? { socat, setsid } : undefined;
}

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface SandboxPlace {
  /** Absolute workspace directory. */
  workspace: string;
  /** Absolute directory the command starts in. */
  cwd: string;
  /** Whose `~/` the hidden paths mean (default: this process's home). */
  home?: string;
  /** Absolute paths hidden besides the settings' and the hub's lock directory. */
  alsoHidden?: string[];
  /** The environment the shell would have unsandboxed (default: this process's); only its allowlisted part goes in. */
  env?: Record<string, string | undefined>;
  /**
   * The network proxy's socket directory (sandbox-network.ts), what to run first inside to reach it,
   * and the variables that point programs at it; absent: no network.
   */
  network?: { directory: string; launch: (command: string[]) => string[]; env: Record<string, string> };
  /** Protected workspace paths besides the code-running ones (workspace-relative). */
  alsoProtected?: string[];
  /** A directory to bind writable at EXCHANGE_DIRECTORY_INSIDE (a test runner's reporter writes there). */
  exchange?: string;
  /** Lower limits than SANDBOX_LIMITS' file size and data (the benchmark's, which runs disk fillers). */
  limits?: { fileSizeBytes?: number; dataBytes?: number };
}

/**
 * The command line (env, prlimit, bwrap and their arguments) running `command` in the sandbox the
 * settings describe. bwrap starts with the sandbox's environment alone: its pid 1 inside keeps a copy
 * of what bwrap started with. The hub's lock directory is always hidden, wherever
 * OPENSPACE_LOCK_DIR puts it.
 */
export function sandboxCommand(bwrap: string, settings: SandboxSettings, place: SandboxPlace, command: string[]): string[] {
  const home = (place.home ?? homedir()).replace(/\/+$/, '') || '/';
  const network = settings.network ? place.network : undefined;
  const env = { ...sandboxEnvironment({ ...(place.env ?? process.env), HOME: home }), ...network?.env };
  const readable = [...new Set(settings.homeReadable.map((path) => expandHome(path, home)))].flatMap(existing);
  // Node for the network forwarder (and the person's own tools) may live in the hidden home.
  const node = dirname(dirname(process.execPath));
  if (isUnder(node, home) && !readable.some((m) => isUnder(node, m.path))) readable.push({ path: node, kind: 'directory' });
  // Under the empty home, a hidden path is hidden already; covering it again would show an empty one.
  const visible = (path: string) => !isUnder(path, home) || isUnder(path, place.workspace) || readable.some((m) => isUnder(path, m.path));
  const hidden = [...new Set([...settings.hiddenPaths.map((path) => expandHome(path, home)), lockDir(), ...(place.alsoHidden ?? [])])]
    .filter(visible)
    .flatMap(existing);
  // A cover an earlier sandbox left (an empty `.git` among them) is still missing: no repository to protect the hooks of.
  const covered = protectedPaths(
    place.workspace,
    (path) => (isCover(place.workspace, path) ? undefined : kindOf(path)),
    place.alsoProtected,
  );
  rememberCovers(place.workspace, covered);
  const empty = emptyCovers();
  const args = bwrapArgs({
    workspace: place.workspace,
    cwd: place.cwd,
    home,
    readable,
    hidden,
    protected: covered,
    emptyDirectory: empty.directory,
    emptyFile: empty.file,
    networkDirectory: network?.directory,
    exchangeDirectory: place.exchange,
    command: network ? network.launch(command) : command,
  });
  const limits = onPath('prlimit');
  const group = sandboxGroups();
  const hiddenArgs = argsOutOfSight(args, place.workspace);
  return [
    // Into the sandboxes' cgroups first (what it starts stays there; nothing inside can move out): the
    // process cap's, or no sandbox; then the CPU weight's where that is a group of its own, if it takes it.
    ...(group
      ? ['/bin/sh', '-c', 'echo $$ > "$0" || exit; { echo $$ > "$1"; } 2>/dev/null; shift; exec "$@"', group.pids, group.cpu ?? '/dev/null']
      : []),
    onPath('env') ?? '/usr/bin/env',
    '-i',
    ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
    ...(limits
      ? [
          limits,
          // Per user, not per sandbox: what the person runs already, and the sandboxes' share on top.
          ...(group ? [] : [`--nproc=${processesOfThisUser() + SANDBOX_LIMITS.processes}`]),
          `--fsize=${place.limits?.fileSizeBytes ?? SANDBOX_LIMITS.fileSizeBytes}`,
          `--data=${place.limits?.dataBytes ?? SANDBOX_LIMITS.dataBytes}`,
          '--core=0',
          '--',
        ]
      : []),
    ...hiddenArgs.launcher,
    bwrap,
    ...hiddenArgs.args,
  ];
}

let argsFiles = 0;

/**
 * bwrap's options, out of sight of `ps` in the sandbox (whose pid 1 is bwrap with its command line):
 * all but the workspace's bind (which finds the sandboxes of a workspace) go through `--args FD`
 * from files that a launcher opens and deletes before it becomes bwrap. bwrap closes the descriptors
 * before the sandbox runs. The files are this user's alone, in a directory of its own.
 */
function argsOutOfSight(args: string[], workspace: string): { launcher: string[]; args: string[] } {
  const bind = args.findIndex((a, i) => a === '--bind' && args[i + 1] === workspace && args[i + 2] === workspace);
  const end = args.indexOf('--');
  if (bind < 0 || end < bind) return { launcher: [], args };
  const dir = dirname(emptyCovers().directory);
  const files = [args.slice(0, bind), args.slice(bind + 3, end)].map((part, i) => {
    const file = join(dir, `args-${process.pid}-${++argsFiles}-${i}`);
    writeFileSync(file, part.map((a) => `${a}\0`).join(''), { mode: 0o600 });
    return file;
  });
  launching.set(files[0]!, { workspace, at: Date.now() });
  return {
    launcher: ['/bin/sh', '-c', 'exec 3<"$0" 4<"$1" && rm -f "$0" "$1" && shift && exec "$@"', ...files],
    args: ['--args', '3', ...args.slice(bind, bind + 3), '--args', '4', ...args.slice(end)],
  };
}

/** The `cgroup.procs` of the process cap's group, and of the CPU weight's where that is another (cgroup v1). */
type SandboxGroups = { pids: string; cpu?: string };

let groups: SandboxGroups | false | undefined;

/**
 * The cgroups of this IDE's sandboxes, when this process may make them (as root does). One caps how
 * many processes they have together (RLIMIT_NPROC does not hold for root); it gives them the lowest
 * CPU weight too, where the kernel lets it.
 */
function sandboxGroups(): SandboxGroups | undefined {
  if (groups === undefined) {
    const pids = makePidsGroup();
    groups = pids ? { pids: join(pids, 'cgroup.procs'), cpu: lowerCpuWeight(pids) } : false;
  }
  return groups || undefined;
}

function makePidsGroup(): string | false {
  const root = kindOf('/sys/fs/cgroup/pids') === 'directory' ? '/sys/fs/cgroup/pids' : '/sys/fs/cgroup';
  try {
    if (root === '/sys/fs/cgroup' && !listed(root, 'cgroup.controllers', 'pids')) return false;
    reapGroups(root);
    const dir = join(root, `${GROUP_PREFIX}${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'pids.max'), String(SANDBOX_LIMITS.processes));
    // The IDE's sandboxes end with it, even those whose terminal never hung up.
    process.once('exit', () => endGroup(dir));
    return dir;
  } catch {
    return false;
  }
}

/**
 * A low CPU weight for the sandboxes, as `nice 10` gives a process: the IDE, the hub and the rest of
 * the machine keep the CPU while a sandbox spins (a fork bomb's 1024 processes at the cap), about a
 * tenth of a CPU goes on with the sandbox's work (an agent's build or tests, however busy the machine:
 * the lowest weight, 1, starved them to 0.2%), and CPU nobody else wants is theirs. cgroup v2:
 * cpu.weight 10 of 100 in the pids group, once its parent passes the cpu controller down (the root
 * may; a cgroup with processes in it may not, a container's root among them). cgroup v1: cpu.shares
 * 110 of 1024 in a group of its own in the cpu hierarchy, whose `cgroup.procs` this returns. Where
 * neither works, the process cap holds alone.
 */
function lowerCpuWeight(pidsGroup: string): string | undefined {
  try {
    const parent = dirname(pidsGroup);
    if (parent === '/sys/fs/cgroup') {
      if (listed(parent, 'cgroup.controllers', 'cpu') && !listed(parent, 'cgroup.subtree_control', 'cpu'))
        writeFileSync(join(parent, 'cgroup.subtree_control'), '+cpu');
      writeFileSync(join(pidsGroup, 'cpu.weight'), '10');
      return undefined;
    }
    const root = '/sys/fs/cgroup/cpu';
    if (kindOf(join(root, 'cpu.shares')) !== 'file') return undefined;
    reapGroups(root);
    const dir = join(root, basename(pidsGroup));
    mkdirSync(dir, { recursive: true });
    process.once('exit', () => endGroup(dir));
    writeFileSync(join(dir, 'cpu.shares'), '110');
    return join(dir, 'cgroup.procs');
  } catch {
    return undefined;
  }
}

/** Whether a cgroup's list file (`cgroup.controllers`, `cgroup.subtree_control`) names `controller`. */
function listed(group: string, file: string, controller: string): boolean {
  return readFileSync(join(group, file), 'utf8').split(/\s+/).includes(controller);
}

const GROUP_PREFIX = 'openspace-sandboxes-';

/** End the sandboxes of `workspace` that this process started (its IDE stops). */
export function endSandboxes(workspace: string): void {
  if (!groups) return;
  const binding = `\0--bind\0${workspace}\0${workspace}\0`;
  let procs: string[];
  try {
    procs = readFileSync(groups.pids, 'utf8').split('\n').filter(Boolean);
  } catch {
    return; // the group is gone
  }
  for (const pid of procs.map(Number)) {
    if (!bindsReadWrite(pid, binding)) continue;
    for (const child of childrenOf(pid)) kill(child);
    kill(pid);
  }
}

/** End the sandboxes of IDEs that are gone (killed before they could end their own). */
function reapGroups(root: string): void {
  for (const name of readdirSync(root)) {
    if (!name.startsWith(GROUP_PREFIX)) continue;
    const pid = Number(name.slice(GROUP_PREFIX.length));
    if (pid !== process.pid && !isAlive(pid)) endGroup(join(root, name));
  }
}

/** SIGKILL to every process in the group, then the group itself once empty. */
function endGroup(dir: string): void {
  for (let attempt = 0; attempt < 50; attempt++) {
    let pids: string[];
    try {
      pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return; // gone
    }
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    try {
      rmdirSync(dir);
      return;
    } catch {
      // Processes still dying: a moment, then again (synchronously: this runs as the process exits).
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

function isUnder(path: string, dir: string): boolean {
  return dir === '/' || path === dir || path.startsWith(dir + sep);
}

/** bwrap can only bind what exists: a path that is not there has nothing to show or hide. */
function existing(path: string): Mount[] {
  const kind = kindOf(path);
  return kind === 'directory' || kind === 'file' ? [{ path, kind }] : [];
}

/** What a path is, not following a last link (a link to a directory is bound as its target by bwrap, so it counts as one). */
function kindOf(path: string): 'directory' | 'file' | 'other' | undefined {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return statSync(path).isDirectory() ? 'directory' : 'file';
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

let covers: { directory: string; file: string } | undefined;

/** An empty directory and an empty file, outside any workspace, that cover missing protected paths. */
function emptyCovers(): { directory: string; file: string } {
  if (covers && kindOf(covers.directory) === 'directory' && kindOf(covers.file) === 'file') return covers;
  const dir = mkdtempSync(join(tmpdir(), 'openspace-sandbox-'));
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'empty-file'), '');
  return (covers = { directory: join(dir, 'empty'), file: join(dir, 'empty-file') });
}

/**
 * The mount points bwrap made in a workspace for protected paths that did not exist (an empty
 * `.vscode/`, `.npmrc`, …), by workspace: removed, if still empty, once no sandbox of that workspace
 * runs any more (removeCovers).
 */
const made = new Map<string, Set<string>>();

function rememberCovers(workspace: string, paths: ProtectedPath[]): void {
  const missing = paths.filter((p) => !p.exists);
  if (missing.length === 0) return;
  const set = made.get(workspace) ?? new Set<string>();
  for (const { path } of missing) {
    // bwrap makes the missing parents too (`.github/` for `.github/workflows`).
    for (let p = path; p.length > workspace.length && kindOf(p) === undefined; p = dirname(p)) set.add(p);
  }
  made.set(workspace, set);
  sweeping ??= setInterval(sweep, SWEEP_MS).unref();
}

/** Whether `path` is a mount point a sandbox of `workspace` made, still empty. */
function isCover(workspace: string, path: string): boolean {
  if (!made.get(workspace)?.has(path)) return false;
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? readdirSync(path).length === 0 : stat.isFile() && stat.size === 0;
  } catch {
    return false;
  }
}

/** How often the covers of ended sandboxes are looked for (a terminal may end without the IDE hearing of it). */
const SWEEP_MS = 2_000;
let sweeping: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  for (const workspace of made.keys()) removeCovers(workspace);
  if (made.size === 0 && sweeping) {
    clearInterval(sweeping);
    sweeping = undefined;
  }
}

/**
 * Remove the empty mount points the sandboxes of `workspace` needed, when none of them runs any more
 * (or `force`, as the IDE exits: its sandboxes end with it). Deepest first; a path someone wrote to
 * meanwhile is kept.
 */
export function removeCovers(workspace: string, force = false): void {
  const set = made.get(workspace);
  if (!set || (!force && sandboxesOf(workspace) > 0)) return;
  for (const path of [...set].sort((a, b) => b.length - a.length)) {
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory()) rmdirSync(path);
      else if (stat.isFile() && stat.size === 0) unlinkSync(path);
    } catch {
      // Not empty, or gone: the person's now.
    }
  }
  made.delete(workspace);
}

process.once('exit', () => {
  for (const workspace of made.keys()) removeCovers(workspace, true);
  // The empty covers and any argument file a sandbox that never started left.
  if (covers) rmSync(dirname(covers.directory), { recursive: true, force: true });
});

/** How long a sandbox's launch (sh into its cgroups, env, prlimit, at the sandboxes' low CPU weight) may take to become bwrap. */
export const SANDBOX_LAUNCH_WAIT_MS = 10_000;

/** Sandboxes on their way, by the first of their argument files, which their launcher deletes as it becomes bwrap. */
const launching = new Map<string, { workspace: string; at: number }>();

/** The sandboxes running in `workspace` (bwrap processes binding it read-write) and those on their way there. */
function sandboxesOf(workspace: string): number {
  let count = 0;
  for (const [file, launch] of launching) {
    // One whose command was never run counts no longer than a launch may take.
    if (kindOf(file) === undefined || Date.now() - launch.at > SANDBOX_LAUNCH_WAIT_MS) launching.delete(file);
    else if (launch.workspace === workspace) count++;
  }
  const binding = `\0--bind\0${workspace}\0${workspace}\0`;
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && bindsReadWrite(Number(entry), binding)) count++;
  }
  return count;
}

/**
 * Whether process `pid` is a bwrap whose arguments hold `binding`. Its name first: reading a
 * process's command line waits for the memory lock its forks hold, and a fork bomb's processes,
 * at the sandboxes' CPU weight, hold it for minutes; a bwrap does not fork in a loop.
 */
function bindsReadWrite(pid: number, binding: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8') === 'bwrap\n' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(binding);
  } catch {
    return false; // gone meanwhile
  }
}
