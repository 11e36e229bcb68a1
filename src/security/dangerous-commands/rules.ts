/**
 * The rules as data: every rule's id, what it matches and the reason shown for it, the shape of a
 * check's result and options, and the limits past which a check fails closed.
 */

export interface DangerRule {
  /** Stable identifier, reported in `DangerReason.rule`. */
  readonly id: string;
  /** What the command does, phrased to follow "Agent wants to run: … — ". */
  readonly why: string;
  /** What the rule matches (for the README and reviewers). */
  readonly matches: string;
}

export const DANGER_RULES = [
  {
    id: 'parse-error',
    why: 'could not be parsed as a shell command, so it cannot be checked',
    matches: 'any syntax error, unterminated quote/substitution/here-document, or trailing line continuation (fail closed)',
  },
  {
    id: 'control-characters',
    why: 'contains terminal control characters that could change what the shell runs',
    matches: 'C0/C1 control characters other than tab and newline (a carriage return is treated as Enter)',
  },
  {
    id: 'unanalyzable',
    why: 'is too long or too deeply nested to be checked',
    matches: 'input over the length limit or code nested deeper than the depth limit (fail closed)',
  },
  {
    id: 'dynamic-command',
    why: 'runs a command whose name is only known at run time, so it cannot be checked',
    matches: 'a command name containing an expansion, substitution or glob: `$(echo rm)`, `$CMD`, `/bin/r?`',
  },
  {
    id: 'history-expansion',
    why: 'uses shell history expansion, which re-runs or splices in an earlier command unseen',
    matches: '`!!`, `!rm`, `!$`, `^old^new` outside single quotes',
  },
  {
    id: 'privilege-escalation',
    why: 'runs with administrator (root) privileges',
    matches: '`sudo`, `doas`, `su`, `pkexec`, `run0`, `sudoedit`',
  },
  { id: 'rm-recursive', why: 'deletes files recursively', matches: '`rm` with -r/-R/--recursive in any spelling or position' },
  {
    id: 'rm-outside-workspace',
    why: 'deletes files outside the working directory',
    matches: '`rm`/`unlink` of `/…` outside the workspace, `~…`, `$HOME…`, `../…`, devices',
  },
  { id: 'rm-wildcard', why: 'deletes every file in a directory', matches: '`rm` of a bare `*`, `./*` or `.*`' },
  {
    id: 'rm-unknown-args',
    why: 'deletes files named by a variable or command output, which could expand to anything (even -rf /)',
    matches: '`rm` with an unquoted `$VAR`/`$(…)` argument',
  },
  {
    id: 'permissions-recursive',
    why: 'changes ownership or permissions recursively',
    matches: '`chmod`/`chown`/`chgrp` with -R/--recursive',
  },
  {
    id: 'world-writable',
    why: 'makes files writable by every user',
    matches: '`chmod` 777/666/…2 (others-write) or a+w/o+w/a+rwx/ugo=rwx',
  },
  {
    id: 'setuid',
    why: 'sets the setuid/setgid bit, letting the file run with its owner\u2019s privileges',
    matches: '`chmod` u+s/g+s/+s or a 4-digit mode with 4/2/6 in front',
  },
  { id: 'dd-write', why: 'writes raw data with dd, which can overwrite a disk', matches: '`dd` with `of=`' },
  {
    id: 'disk-format',
    why: 'formats, partitions or wipes a disk',
    matches:
      '`mkfs*`, `mke2fs`, `mkswap`, `fdisk`, `sfdisk`, `cfdisk`, `gdisk`, `sgdisk`, `parted`, `wipefs`, `blkdiscard`, `diskutil erase*`',
  },
  {
    id: 'fork-bomb',
    why: 'defines a fork bomb that spawns processes until the machine hangs',
    matches: 'a function that calls itself in a pipeline or in the background (`:(){ :|:& };:`)',
  },
  {
    id: 'remote-code',
    why: 'downloads code from the internet and runs it',
    matches:
      '`curl`/`wget`/… piped into a shell or interpreter, `sh <(curl …)`, `bash -c "$(curl …)"`, `eval "$(wget …)"`, `source <(curl …)`, or a file downloaded earlier in the same text and then run (`curl -o i.sh …; sh i.sh`)',
  },
  {
    id: 'pipe-to-shell',
    why: 'runs shell code produced by another command, so what runs cannot be checked',
    matches:
      'anything but a verbatim `echo`/`printf` or `cat FILE` piped into a shell (`base64 -d | sh`, `echo -e … | sh`); `sh <(…)`, `source <(…)`, `eval`/`sh -c` of a substitution',
  },
  {
    id: 'git-clean-force',
    why: 'permanently deletes untracked (and ignored) files',
    matches: '`git clean` with -f and -d/-x/-X (not with -n/--dry-run)',
  },
  {
    id: 'git-discard-changes',
    why: 'throws away uncommitted changes for good',
    matches:
      '`git reset --hard` (also abbreviated `--har`), `git checkout -f`, `git checkout [--] .`, `git restore .` (working tree), `git stash clear`',
  },
  {
    id: 'git-push-force',
    why: 'overwrites history on the remote',
    matches: '`git push` with -f/--force/--force-with-lease/--force-if-includes/--mirror or a `+refspec`',
  },
  {
    id: 'find-delete',
    why: 'deletes every file that find matches',
    matches: '`find … -delete`, `find … -exec/-execdir/-ok rm|unlink|shred …`, `fd … -x/-X rm …`',
  },
  {
    id: 'power',
    why: 'shuts down or restarts the machine',
    matches:
      '`shutdown`, `reboot`, `halt`, `poweroff`, `init 0|6`, `telinit 0|6`, `systemctl poweroff|reboot|halt|kexec|suspend|hibernate`',
  },
  { id: 'kill-all', why: 'kills many processes at once', matches: '`kill … -1` (every process), `killall`, `killall5`, `pkill`' },
  {
    id: 'write-device',
    why: 'writes directly to a disk or memory device',
    matches: 'redirection, `tee`, `dd of=`, `cp`/`mv` onto `/dev/*` other than null/zero/tty/stdout/stderr/fd/pts',
  },
  {
    id: 'write-outside-workspace',
    why: 'writes to a file outside the working directory (such as a dotfile or system file)',
    matches:
      'redirection (`>` `>>` `>|` `&>` `&>>` `<>` `>&file`), `tee` or an output option (`curl -o`/`-sLo`, `wget -O`, `sort -o`) onto `~/…`, `$HOME/…`, `../…`, absolute paths outside the workspace and /tmp',
  },
  {
    id: 'write-protected-path',
    why: 'writes into a protected path (.git, .theia, .openspace, node_modules, a code-running path or a protected pattern), which agents may not change',
    matches:
      'redirection, `tee`, an output option (`curl -o`, `sort -o`), the destination of `cp`/`mv`/`ln`/`install`/`rsync`, or a file edited in place by `sed -i`/`perl -i`, inside `.git/`, `.theia/`, `.openspace/`, `node_modules/`, a code-running path (`.vscode/`, `.husky/`, `.github/workflows/`, `.devcontainer/`, `.envrc`, `.npmrc`) or a protected file pattern (the file tools refuse the same paths with PROTECTED_PATH)',
  },
  { id: 'truncate-shred', why: 'destroys file contents', matches: '`truncate` or `shred` with a file operand' },
  {
    id: 'system-overwrite',
    why: 'moves or overwrites system files',
    matches:
      '`mv`/`cp`/`ln`/`install`/`rsync` with a destination in /, /etc, /usr, /bin, … or a home dotfile; `mv` of a system directory or of `~`',
  },
  {
    id: 'history-clear',
    why: 'erases or disables the shell history, hiding what was run',
    matches: '`history -c`, `unset HISTFILE`, `HISTFILE=…`, `HISTSIZE=0`, `set +o history`',
  },
  { id: 'crontab-remove', why: 'deletes all scheduled cron jobs', matches: '`crontab -r`' },
] as const satisfies readonly DangerRule[];

export type RuleId = (typeof DANGER_RULES)[number]['id'];

export const RULE_WHY: ReadonlyMap<string, string> = new Map(DANGER_RULES.map((r) => [r.id, r.why]));

export interface DangerReason {
  /** The command (or pipeline) the reason is about, as written (inner payload text for `sh -c` etc.). */
  command: string;
  rule: RuleId;
  /** Human-readable, for "Agent wants to run: … — <why>". */
  why: string;
}

export interface CheckResult {
  dangerous: boolean;
  reasons: DangerReason[];
  /** Set when the text (or a payload inside it) did not parse; the result is then dangerous. */
  parseError?: string;
}

export interface CheckOptions {
  /**
   * Absolute working directory of the terminal (the workspace root). Absolute paths under it count
   * as inside the workspace. Without it every absolute path outside /tmp and /var/tmp is outside.
   */
  cwd?: string;
  /** The terminal's working directory relative to the workspace root ("" for the root, the default). */
  workspaceCwd?: string;
  /**
   * Whether agents may not write a workspace-relative path: the pattern that protects it, or
   * undefined. Default: the built-in protected paths (.git, node_modules, .theia, .openspace and the
   * code-running paths: .vscode, .husky, .github/workflows, .devcontainer, .envrc, .npmrc).
   */
  isProtected?: (workspacePath: string) => string | undefined;
}

/** Longest text that is analysed; longer text fails closed. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/** Deepest nesting of code-in-strings (`sh -c 'eval "…"'`) that is analysed; deeper fails closed. */
export const MAX_PAYLOAD_DEPTH = 12;
