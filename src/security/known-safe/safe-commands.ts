/**
 * The known-safe commands as data: which programs, subcommands, options and operands a command may
 * have and still run without asking. Everything not listed here asks.
 *
 * What counts as safe: reading (files in the workspace, the state of the machine, of version
 * control, of containers), building, testing, linting and formatting the project, installing its
 * declared dependencies, and the local version-control changes the reflog or the index can undo.
 * Build and test commands run the project's own code (package.json scripts, Makefiles, test files):
 * that code is trusted as much as the workspace it lives in.
 */
import type { Arg } from '../dangerous-commands/words.js';

export interface SafeRule {
  /**
   * What the operands are: files it reads (`read`: in the workspace, not sensitive), files it
   * creates (`write`: in the workspace, not protected), words (`words`: targets, scripts, names,
   * messages; only arguments that look like paths are checked), text that is never a path (`text`),
   * or nothing (`none`). Default `read`.
   */
  readonly operands?: 'read' | 'write' | 'words' | 'text' | 'none';
  /** The first operand is a pattern or filter, not a file (`grep PATTERN FILE…`), unless -e/-f gave it. */
  readonly pattern?: boolean;
  readonly maxOperands?: number;
  /** Short and long options that take a value, so the value is not read as an operand. */
  readonly shortArg?: string;
  readonly longArg?: readonly string[];
  /** Options that make the command unsafe: short letters (also inside clusters), long names (also abbreviated). */
  readonly denyShort?: string;
  readonly denyLong?: readonly string[];
  /** Words that make the command unsafe wherever they appear (`find -exec`). */
  readonly denyWords?: readonly string[];
  /** When given, every option must be one of these (exact words). */
  readonly onlyOptions?: readonly string[];
  /** Subcommands: the first operand must name one, and its rule applies to the arguments after it. */
  readonly sub?: Readonly<Record<string, SafeRule>>;
  /** Options allowed before the subcommand: a flag, or an option whose next word is a value or a path. */
  readonly leading?: Readonly<Record<string, 'flag' | 'value' | 'path'>>;
  /** A runner: its operands are a command that must be safe itself (`npx tsc`, `poetry run pytest`). */
  readonly runs?: boolean;
  /** What the data above can't say: false when the arguments are not known to be safe. */
  readonly check?: (args: readonly Arg[]) => boolean;
  /**
   * Arguments that make the command unsafe (like denyShort/denyLong/denyWords, a remembered rule
   * never overrides them): code run inline, programs run, secrets printed.
   */
  readonly denyIf?: (args: readonly Arg[]) => boolean;
}

const READ: SafeRule = {};
const TEXT: SafeRule = { operands: 'text' };
const WORDS: SafeRule = { operands: 'words' };
const NONE: SafeRule = { operands: 'none' };

/** `sed` commands that only print or substitute: no `w`/`W` (write), `e` (execute), `r`/`R` (read a file) or `w`/`e` flags. */
const SED_ADDRESS = String.raw`(?:(?:\d+|\$|/[^/]*/)(?:,(?:\d+|\$|/[^/]*/))?)?`;
const SED_PRINT = new RegExp(String.raw`^${SED_ADDRESS}!?[pdqn=]$`);
const SED_SUBSTITUTE = new RegExp(
  String.raw`^${SED_ADDRESS}s(?<d>[^\\\n])(?:(?!\k<d>)[^\\]|\\.)*\k<d>(?:(?!\k<d>)[^\\]|\\.)*\k<d>[gIipM0-9]*$`,
);

/** A `;` inside a regular expression splits it wrongly: that part then fails to match and the command asks. */
function isReadOnlySedScript(script: string): boolean {
  const parts = script
    .split(/[;\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length > 0 && parts.every((p) => SED_PRINT.test(p) || SED_SUBSTITUTE.test(p));
}

const sedIsReadOnly = (args: readonly Arg[]): boolean => {
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v === '-e' || v === '--expression') scripts.push(args[++i]?.value ?? '');
    else if (v.startsWith('--expression=')) scripts.push(v.slice('--expression='.length));
  }
  if (!scripts.length) {
    const first = args.find((a) => !a.value.startsWith('-'));
    if (first) scripts.push(first.value);
  }
  return scripts.every(isReadOnlySedScript);
};

/**
 * awk with only `-F`/`-v` options and a program that prints: no `system`, pipes, output redirection
 * (`>` also compares, so that asks too), `getline` or `@load`. (`gawk -i inplace` edits files.)
 */
const awkIsReadOnly = (args: readonly Arg[]): boolean => {
  for (let i = 0; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v === '-F' || v === '-v') i++;
    else if (/^-[Fv]./.test(v)) continue;
    else if (v.startsWith('-')) return false;
    else return !/system|getline|[|>@]|close|fflush/.test(v);
  }
  return false;
};

/** `less '+!cmd' FILE` runs a shell command at start. */
const startupCommand = (args: readonly Arg[]): boolean => args.some((a) => a.value.startsWith('+'));

/** git: reading, and local changes the reflog or the index can undo. */
const GIT: SafeRule = {
  // `-c`, `--exec-path`, `--git-dir`, … are not listed: `git -c core.pager=… log` runs any program.
  leading: { '-C': 'path', '--no-pager': 'flag', '-P': 'flag', '--no-optional-locks': 'flag' },
  sub: {
    status: WORDS,
    diff: { operands: 'words', denyLong: ['output', 'ext-diff'] },
    log: { operands: 'words', denyLong: ['output'] },
    show: { operands: 'words', denyLong: ['output'] },
    blame: WORDS,
    'ls-files': WORDS,
    'ls-tree': WORDS,
    'rev-parse': WORDS,
    'rev-list': WORDS,
    'cat-file': WORDS,
    'show-ref': WORDS,
    'merge-base': WORDS,
    shortlog: WORDS,
    describe: WORDS,
    grep: { operands: 'words', denyShort: 'O', denyLong: ['open-files-in-pager'] },
    reflog: { operands: 'words', maxOperands: 1, denyIf: (args) => args.some((a) => /^(expire|delete|drop)$/.test(a.value)) },
    // Listing only: `git branch NAME`, `-d`, `-m`, … ask.
    branch: {
      operands: 'none',
      onlyOptions: [
        '-a',
        '--all',
        '-r',
        '--remotes',
        '-v',
        '-vv',
        '--verbose',
        '--list',
        '-l',
        '--show-current',
        '--merged',
        '--no-merged',
      ],
    },
    // Listing only: `git tag NAME` creates one.
    tag: {
      operands: 'words',
      onlyOptions: ['-l', '--list', '-n'],
      check: (args) => args.length === 0 || /^(-l|--list)$/.test(args[0]?.value ?? ''),
    },
    remote: {
      operands: 'words',
      check: (args) =>
        args.every((a) => /^(-v|--verbose)$/.test(a.value)) || (/^(show|get-url)$/.test(args[0]?.value ?? '') && args.length === 2),
    },
    stash: {
      sub: {
        '': NONE,
        list: WORDS,
        show: WORDS,
        // Pushing to the stash keeps the changes (`git stash pop` brings them back).
        push: WORDS,
        pop: NONE,
        apply: NONE,
      },
    },
    config: {
      operands: 'words',
      onlyOptions: ['--get', '--get-all', '--get-regexp', '--list', '-l', '--global', '--local', '--show-origin'],
      check: (args) => args.some((a) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(a.value)),
    },
    worktree: { sub: { list: WORDS } },
    submodule: { sub: { status: WORDS } },
    // Local changes the index or the reflog can undo.
    add: { operands: 'read', denyShort: 'f', denyLong: ['force'] },
    commit: { operands: 'words' },
    // `--orphan` empties the working tree.
    switch: { operands: 'words', denyShort: 'fC', denyLong: ['force', 'discard-changes', 'force-create', 'orphan'] },
    // Only creating a branch: `git checkout NAME` may discard changes to a file called NAME.
    checkout: { operands: 'words', maxOperands: 2, check: (args) => args[0]?.value === '-b' },
    // Fetching only updates remote-tracking refs; `--upload-pack` would run a program.
    fetch: { operands: 'words', denyLong: ['upload-pack'] },
    pull: { operands: 'words', onlyOptions: ['--rebase', '--ff-only', '--no-rebase', '--ff', '--no-ff', '-q', '--quiet', '--prune', '-p'] },
    restore: {
      operands: 'read',
      onlyOptions: ['--staged', '-S'],
      check: (args) => args.some((a) => a.value === '--staged' || a.value === '-S'),
    },
    // `git reset` without --hard/--merge/--keep only moves HEAD or unstages.
    reset: { operands: 'words', onlyOptions: ['--soft', '--mixed', '-q', '--quiet'] },
    // `git rm` refuses files with uncommitted changes unless forced.
    rm: { operands: 'read', denyShort: 'f', denyLong: ['force'] },
    mv: { operands: 'read', denyShort: 'f', denyLong: ['force'] },
    help: TEXT,
    version: NONE,
  },
};

/** npm and the runners that share its verbs. */
const NPM_SCRIPT: SafeRule = { operands: 'words', denyLong: ['script-shell', 'node-options'] };
const NPM_INSTALL: SafeRule = { operands: 'none', denyShort: 'g', denyLong: ['global', 'script-shell'] };
const NPM: SafeRule = {
  sub: {
    test: NPM_SCRIPT,
    t: NPM_SCRIPT,
    start: NPM_SCRIPT,
    run: NPM_SCRIPT,
    'run-script': NPM_SCRIPT,
    // Installs what package.json and the lockfile declare; naming packages asks, and so does
    // `-g` (it would put the project's own bins on everyone's PATH).
    ci: NPM_INSTALL,
    install: NPM_INSTALL,
    i: NPM_INSTALL,
    ls: WORDS,
    list: WORDS,
    outdated: WORDS,
    view: WORDS,
    why: WORDS,
    explain: WORDS,
    audit: { operands: 'none' },
    doctor: NONE,
    help: TEXT,
    config: { sub: { get: WORDS, list: WORDS } },
    pack: { operands: 'none', onlyOptions: ['--dry-run', '--json'] },
  },
};
/** The package.json scripts yarn and pnpm run by name. */
const PACKAGE_SCRIPTS = { test: NPM_SCRIPT, run: NPM_SCRIPT, build: NPM_SCRIPT, lint: NPM_SCRIPT, dev: NPM_SCRIPT, start: NPM_SCRIPT };
const YARN: SafeRule = {
  sub: {
    '': { operands: 'none' },
    install: { operands: 'none' },
    ...PACKAGE_SCRIPTS,
    why: WORDS,
    list: WORDS,
    outdated: WORDS,
    info: WORDS,
  },
};
const PNPM: SafeRule = {
  sub: {
    install: { operands: 'none' },
    i: { operands: 'none' },
    ...PACKAGE_SCRIPTS,
    exec: { runs: true },
    ls: WORDS,
    list: WORDS,
    outdated: WORDS,
    why: WORDS,
  },
};

/** Python's `-m` modules that only test, lint, format or describe. */
const PYTHON_MODULES = new Set([
  'pytest',
  'unittest',
  'mypy',
  'ruff',
  'black',
  'isort',
  'flake8',
  'pylint',
  'json.tool',
  'venv',
  'pip',
  'doctest',
  'tox',
]);
/** `pip install -r FILE`, `pip install -e ".[dev]"`: every operand is a requirements file or the project itself. */
function pipInstallsTheProject(args: readonly Arg[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v === '-r' || v === '--requirement') i++;
    else if (!v.startsWith('-') && !/^\.\/?(\[[\w,-]+\])?$/.test(v)) return false;
  }
  return args.length > 0;
}
const PIP: SafeRule = {
  sub: {
    list: WORDS,
    show: WORDS,
    freeze: WORDS,
    check: NONE,
    // Only the project's declared dependencies: `-r FILE`, `-e .`, `.`; naming packages asks.
    install: {
      operands: 'read',
      shortArg: 'r',
      longArg: ['requirement'],
      onlyOptions: ['-r', '--requirement', '-e', '--editable', '-U', '--upgrade', '-q', '--quiet'],
      check: pipInstallsTheProject,
    },
  },
};
const PYTHON: SafeRule = {
  operands: 'words',
  check: (args) => {
    const m = args.findIndex((a) => a.value === '-m');
    // `python -m venv .venv` creates a directory in the workspace; the path check below keeps it there.
    return (
      m === 0 &&
      PYTHON_MODULES.has(args[1]?.value ?? '') &&
      (args[1]?.value !== 'pip' || ['list', 'show', 'freeze', 'check'].includes(args[2]?.value ?? ''))
    );
  },
};

// `--config build.rustc-wrapper=…` and `-Z` would run or change any program.
const CARGO_WORDS: SafeRule = { operands: 'words', denyShort: 'Z', denyLong: ['config'] };
const CARGO: SafeRule = {
  sub: {
    build: CARGO_WORDS,
    b: CARGO_WORDS,
    test: CARGO_WORDS,
    t: CARGO_WORDS,
    check: CARGO_WORDS,
    c: CARGO_WORDS,
    clippy: CARGO_WORDS,
    fmt: CARGO_WORDS,
    doc: CARGO_WORDS,
    bench: CARGO_WORDS,
    tree: CARGO_WORDS,
    metadata: CARGO_WORDS,
    // The project's own entry point, like `npm start`.
    run: CARGO_WORDS,
    r: CARGO_WORDS,
  },
};
// `-exec`, `-toolexec`, `-vettool` and `-overlay` run or substitute any program; `PKG@VERSION` is fetched.
const GO_WORDS: SafeRule = {
  operands: 'words',
  denyIf: (args) =>
    args.some((a) => /^--?(exec|toolexec|vettool|overlay)(=|$)/.test(a.value) || (!a.value.startsWith('-') && a.value.includes('@'))),
};
const GO: SafeRule = {
  sub: {
    build: GO_WORDS,
    test: GO_WORDS,
    vet: GO_WORDS,
    fmt: GO_WORDS,
    run: GO_WORDS,
    list: GO_WORDS,
    doc: GO_WORDS,
    version: NONE,
    // `go env -w/-u` writes the configuration.
    env: { operands: 'words', denyShort: 'wu' },
    mod: { sub: { tidy: WORDS, download: WORDS, verify: NONE, graph: NONE, why: WORDS } },
  },
};
/** Maven's lifecycle phases (plugin goals like `exec:java` ask). */
const MAVEN_PHASES = new Set([
  'clean',
  'validate',
  'compile',
  'test-compile',
  'test',
  'package',
  'verify',
  'install',
  'dependency:tree',
  'site',
]);
const MAVEN: SafeRule = {
  operands: 'words',
  shortArg: 'fspPD',
  check: (args) => !args.some((a) => /^(-f|--file|-s|--settings|-gs)$/.test(a.value)) && operandsIn(args, MAVEN_PHASES, 'fspPDl'),
  // A property naming an executable (`-Dmaven.compiler.executable=…`) would run it.
  denyIf: (args) => args.some((a) => /executable|exec\./i.test(a.value)),
};
// Gradle tasks are the build's own code, like make targets.
const GRADLE: SafeRule = { operands: 'words', denyShort: 'I', denyLong: ['init-script'] };
const DOTNET: SafeRule = {
  sub: { build: WORDS, test: WORDS, run: WORDS, restore: WORDS, format: WORDS, clean: WORDS, list: WORDS, '--info': NONE },
};

const DOCKER_READ: Record<string, SafeRule> = {
  ps: WORDS,
  images: WORDS,
  logs: WORDS,
  inspect: WORDS,
  version: WORDS,
  info: WORDS,
  top: WORDS,
  port: WORDS,
  history: WORDS,
  stats: { operands: 'words', check: (args) => args.some((a) => a.value === '--no-stream') },
};
const COMPOSE_READ: SafeRule = { sub: { ps: WORDS, logs: WORDS, config: WORDS, ls: WORDS, images: WORDS, top: WORDS, version: WORDS } };
const KUBECTL_READ: SafeRule = {
  operands: 'words',
  denyIf: (args) => args.some((a) => /^(secrets?|sa|serviceaccounts?)(\/|$)/.test(a.value)),
};
const KUBECTL: SafeRule = {
  sub: {
    // Secrets and a raw kubeconfig print credentials.
    get: KUBECTL_READ,
    describe: KUBECTL_READ,
    logs: WORDS,
    top: WORDS,
    version: WORDS,
    explain: WORDS,
    'api-resources': WORDS,
    'api-versions': WORDS,
    'cluster-info': WORDS,
    config: { sub: { view: { operands: 'words', denyLong: ['raw', 'flatten'] }, 'current-context': NONE, 'get-contexts': WORDS } },
  },
};

function operandsIn(args: readonly Arg[], allowed: ReadonlySet<string>, shortArg: string): boolean {
  for (let i = 0; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v.startsWith('-')) {
      if (v.length === 2 && shortArg.includes(v[1] as string)) i++;
      continue;
    }
    if (!allowed.has(v)) return false;
  }
  return true;
}

const TERRAFORM_MASKED: SafeRule = { operands: 'words', denyWords: ['-json', '-raw'] };

/**
 * The programs. A program missing here asks. `--version`/`--help` of any program here, or in
 * VERSION_ONLY, is safe.
 */
export const SAFE_COMMANDS: Readonly<Record<string, SafeRule>> = {
  // Text and the state of the shell or machine.
  echo: TEXT,
  // `printf -v NAME` assigns a variable (`printf -v PATH …`).
  printf: { operands: 'text', denyIf: (args) => /^-v/.test(args[0]?.value ?? '') },
  true: TEXT,
  false: TEXT,
  ':': TEXT,
  test: TEXT,
  '[': TEXT,
  pwd: NONE,
  // Ends the agent's own shell (a terminal.run or send answers how it ended).
  exit: TEXT,
  // The settings of this terminal (`stty -echo`); `-F DEVICE` would change another one.
  stty: { operands: 'text', denyShort: 'F', denyLong: ['file'] },
  whoami: NONE,
  id: TEXT,
  uname: TEXT,
  hostname: { operands: 'none', onlyOptions: ['-f', '-s', '-i', '-I'] },
  uptime: NONE,
  // `date -s` sets the clock.
  // `date -s` sets the clock; `date -f FILE` prints a file's lines (words: its path is checked).
  date: { operands: 'words', denyShort: 's', denyLong: ['set'] },
  cal: TEXT,
  seq: TEXT,
  sleep: TEXT,
  expr: TEXT,
  yes: TEXT,
  basename: TEXT,
  dirname: TEXT,
  which: TEXT,
  type: TEXT,
  whereis: TEXT,
  // `command -v NAME` looks a name up; `command CMD` is peeled as a wrapper before this table.
  command: { operands: 'text', check: (args) => args[0]?.value === '-v' || args[0]?.value === '-V' },
  jobs: TEXT,
  fg: TEXT,
  bg: TEXT,
  wait: TEXT,
  clear: NONE,
  // Listing only: `history -c/-d/-w/-r/-p` change, write, read or expand.
  history: { operands: 'text', maxOperands: 1, onlyOptions: [] },
  alias: { operands: 'none' },
  // The names they assign are judged like any assignment (HARMLESS_VARIABLES).
  export: { operands: 'text', onlyOptions: [] },
  unset: { operands: 'text', onlyOptions: [] },
  // Terminal output is redacted of secrets before an agent reads it.
  env: NONE,
  // Printing one secret by name is reading a credential.
  printenv: { operands: 'text', denyIf: (args) => args.some((a) => /KEY|SECRET|TOKEN|PASS|CRED|AUTH/i.test(a.value)) },
  ps: TEXT,
  top: TEXT,
  df: WORDS,
  free: TEXT,
  lsof: TEXT,
  // `man -P CMD` runs CMD as the pager.
  man: { operands: 'text', onlyOptions: [] },
  help: TEXT,
  tldr: TEXT,
  systemctl: { sub: { status: WORDS, 'is-active': WORDS, 'list-units': WORDS } },
  journalctl: { operands: 'words', denyLong: ['vacuum-size', 'vacuum-time', 'vacuum-files', 'rotate', 'flush', 'sync', 'relinquish-var'] },
  // `crontab` alone installs a crontab read from stdin.
  crontab: { operands: 'none', check: (args) => args.length === 1 && args[0]?.value === '-l' },

  // Reading files (operands stay in the workspace and are not sensitive).
  cat: READ,
  head: { shortArg: 'nc', longArg: ['lines', 'bytes'] },
  tail: { shortArg: 'ncs', longArg: ['lines', 'bytes', 'pid', 'sleep-interval'] },
  less: { denyIf: startupCommand },
  more: { denyIf: startupCommand },
  wc: READ,
  nl: READ,
  tac: READ,
  rev: READ,
  cut: { shortArg: 'bcdf', longArg: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'] },
  paste: { shortArg: 'd', longArg: ['delimiters'] },
  column: { shortArg: 'cst', longArg: ['separator', 'output-separator'] },
  fold: { shortArg: 'w' },
  fmt: { shortArg: 'w' },
  join: { shortArg: 'jt12o' },
  comm: READ,
  diff: READ,
  cmp: READ,
  stat: { shortArg: 'c', longArg: ['format', 'printf'] },
  file: READ,
  // `tree -o FILE` writes.
  tree: { shortArg: 'LIP', denyShort: 'o' },
  ls: { shortArg: 'IwT', longArg: ['ignore', 'hide', 'width', 'format', 'sort', 'time', 'color'] },
  du: { shortArg: 'dB', longArg: ['max-depth', 'block-size', 'exclude'] },
  md5sum: READ,
  sha1sum: READ,
  sha256sum: READ,
  sha512sum: READ,
  shasum: { shortArg: 'a' },
  cksum: READ,
  strings: READ,
  od: READ,
  hexdump: READ,
  // `xxd IN OUT` writes OUT.
  xxd: { maxOperands: 1, shortArg: 'cgls' },
  readlink: READ,
  realpath: READ,
  base64: { maxOperands: 1, shortArg: 'w' },
  // `uniq IN OUT` writes OUT.
  uniq: { maxOperands: 1, shortArg: 'fsw' },
  // `sort -o` writes; `--compress-program` runs a program.
  sort: {
    shortArg: 'ktST',
    longArg: ['key', 'field-separator', 'temporary-directory', 'buffer-size'],
    denyShort: 'o',
    denyLong: ['output', 'compress-program'],
  },
  tr: TEXT,
  grep: {
    pattern: true,
    shortArg: 'efmABCD',
    longArg: [
      'regexp',
      'file',
      'max-count',
      'include',
      'exclude',
      'exclude-dir',
      'context',
      'after-context',
      'before-context',
      'color',
      'colour',
    ],
  },
  egrep: { pattern: true, shortArg: 'efmABC' },
  fgrep: { pattern: true, shortArg: 'efmABC' },
  // `rg --pre CMD` runs a program on every file.
  rg: {
    pattern: true,
    shortArg: 'efgtTmABCMj',
    longArg: [
      'regexp',
      'file',
      'glob',
      'type',
      'type-not',
      'max-count',
      'context',
      'after-context',
      'before-context',
      'max-columns',
      'threads',
      'sort',
      'sortr',
      'color',
      'colors',
    ],
    denyLong: ['pre', 'pre-glob'],
  },
  // `--rawfile NAME FILE` would read FILE where the pattern usually is.
  jq: { pattern: true, longArg: ['arg', 'argjson'], denyLong: ['rawfile', 'slurpfile'] },
  // `yq -i` edits in place.
  yq: { pattern: true, denyShort: 'i', denyLong: ['inplace'] },
  // Finding, not acting on what is found.
  find: { denyWords: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  fd: { pattern: true, shortArg: 'etEdxX', denyShort: 'xX', denyLong: ['exec', 'exec-batch'] },
  sed: {
    pattern: true,
    shortArg: 'el',
    longArg: ['expression', 'line-length'],
    denyShort: 'if',
    denyLong: ['in-place', 'file'],
    denyIf: (args) => !sedIsReadOnly(args),
  },
  awk: { pattern: true, shortArg: 'vF', denyIf: (args) => !awkIsReadOnly(args) },
  gawk: { pattern: true, shortArg: 'vF', denyIf: (args) => !awkIsReadOnly(args) },

  // Creating files and directories in the workspace (like a redirection into it).
  tee: { operands: 'write' },
  mkdir: { operands: 'write', shortArg: 'm' },
  touch: { operands: 'write', shortArg: 'dtr' },
  cd: { operands: 'read', maxOperands: 1 },

  git: GIT,

  // JavaScript and TypeScript.
  npm: NPM,
  yarn: YARN,
  pnpm: PNPM,
  // Runs a local tool, which must be safe itself (`npx tsc`); anything else would be downloaded.
  npx: { runs: true },
  tsc: WORDS,
  eslint: WORDS,
  prettier: WORDS,
  // An inline `--config '{…}'` may name modules anywhere (`globalSetup`).
  jest: { operands: 'words', denyIf: (args) => args.some((a) => a.value.startsWith('{')) },
  vitest: WORDS,
  mocha: WORDS,
  playwright: { sub: { test: WORDS, 'show-report': WORDS } },
  // `deno test https://…` runs code from the network.
  deno: {
    sub: {
      test: { operands: 'words', denyIf: (args) => args.some((a) => /^(https?|npm|jsr):/.test(a.value)) },
      lint: WORDS,
      fmt: WORDS,
      check: WORDS,
      task: WORDS,
    },
  },
  bun: { sub: { test: WORDS, install: { operands: 'none' }, run: WORDS } },

  // Python.
  python: PYTHON,
  python3: PYTHON,
  pip: PIP,
  pip3: PIP,
  pytest: WORDS,
  mypy: WORDS,
  ruff: { sub: { check: WORDS, format: WORDS } },
  black: WORDS,
  isort: WORDS,
  flake8: WORDS,
  pylint: WORDS,
  tox: WORDS,
  poetry: { sub: { install: { operands: 'none' }, run: { runs: true }, build: NONE, check: NONE, show: WORDS, lock: WORDS } },
  uv: { sub: { sync: WORDS, run: { runs: true }, lock: WORDS, tree: WORDS, pip: { sub: { list: WORDS, show: WORDS, freeze: WORDS } } } },
  // A virtualenv's activate script, generated by `python -m venv`.
  source: { operands: 'read', maxOperands: 1, check: (args) => /(^|\/)bin\/activate$/.test(args[0]?.value ?? '') },
  '.': { operands: 'read', maxOperands: 1, check: (args) => /(^|\/)bin\/activate$/.test(args[0]?.value ?? '') },

  // Go, Rust, Java, .NET, C and others.
  go: GO,
  gofmt: READ,
  'golangci-lint': { sub: { run: WORDS } },
  cargo: CARGO,
  rustfmt: READ,
  mvn: MAVEN,
  mvnw: MAVEN,
  gradle: GRADLE,
  gradlew: GRADLE,
  javac: WORDS,
  dotnet: DOTNET,
  // A variable given on the command line can change any recipe (`make CC='sh -c …'`): harmless names only.
  make: {
    operands: 'words',
    shortArg: 'jlCfo',
    denyShort: 'E',
    denyLong: ['eval'],
    denyIf: (args) =>
      args.some(
        (a) => !a.value.startsWith('-') && a.value.includes('=') && !HARMLESS_VARIABLES.has(a.value.slice(0, a.value.indexOf('='))),
      ),
  },
  // `cmake -E` runs commands (`cmake -E rm -rf …`, `cmake -E env CMD`).
  cmake: { operands: 'words', shortArg: 'DGSBCUATPLW', denyShort: 'E' },
  ctest: WORDS,
  ninja: WORDS,
  bundle: { sub: { install: { operands: 'none' }, exec: { runs: true } } },
  rake: WORDS,
  rspec: WORDS,
  composer: { sub: { install: { operands: 'none' }, 'dump-autoload': NONE, validate: NONE, test: WORDS } },
  phpunit: WORDS,
  mix: { sub: { test: WORDS, compile: WORDS, format: WORDS, 'deps.get': NONE } },

  // Containers, clusters and infrastructure: reading and planning only.
  docker: { sub: { ...DOCKER_READ, compose: COMPOSE_READ } },
  'docker-compose': COMPOSE_READ,
  kubectl: KUBECTL,
  helm: { sub: { list: WORDS, ls: WORDS, status: WORDS, template: WORDS, lint: WORDS, version: NONE, history: WORDS, show: WORDS } },
  // `-json`/`-raw` print sensitive values unmasked.
  terraform: {
    sub: { plan: WORDS, validate: WORDS, fmt: WORDS, show: TERRAFORM_MASKED, output: TERRAFORM_MASKED, version: NONE, providers: NONE },
  },
};

/** Programs whose lone `--version`, `--help`, `-V`, `-v` or `-h` is safe besides those above. */
export const VERSION_ONLY = new Set([
  'node',
  'deno',
  'bun',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'java',
  'rustc',
  'gcc',
  'g++',
  'clang',
  'bash',
  'sh',
  'zsh',
  'curl',
  'wget',
  'rm',
  'cp',
  'mv',
  'chmod',
  'chown',
  'tar',
  'zip',
  'unzip',
  'truncate',
  'shred',
  'ssh',
  'rsync',
  'kill',
  'aws',
  'gcloud',
  'az',
  'psql',
  'mysql',
  'sqlite3',
  'openssl',
  'pipx',
  'gem',
  'lua',
]);

/**
 * Names a command may be run with, or assigned, without asking: they change output, not what runs.
 * Not PATH, LD_*, BASH_ENV, NODE_OPTIONS, PYTHONPATH, PAGER, GOFLAGS (`-toolexec`), IFS, …
 */
export const HARMLESS_VARIABLES = new Set([
  'CI',
  'NODE_ENV',
  'RAILS_ENV',
  'RACK_ENV',
  'APP_ENV',
  'FLASK_ENV',
  'DEBUG',
  'VERBOSE',
  'FORCE_COLOR',
  'NO_COLOR',
  'TERM',
  'COLUMNS',
  'LINES',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'TZ',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'CGO_ENABLED',
  'GOOS',
  'GOARCH',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PORT',
  'HOST',
  'LOG_LEVEL',
]);
