/** The known-safe rules of version control, package managers, build tools, containers and clusters: their subcommands and options. */
import type { Arg } from '../dangerous-commands/words.js';
import { NONE, TEXT, WORDS, type SafeRule } from './safe-rule.js';

/** git: reading, and local changes the reflog or the index can undo. */
export const GIT: SafeRule = {
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
export const NPM: SafeRule = {
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
export const YARN: SafeRule = {
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
export const PNPM: SafeRule = {
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
export const PIP: SafeRule = {
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
export const PYTHON: SafeRule = {
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
export const CARGO: SafeRule = {
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
export const GO: SafeRule = {
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
export const MAVEN: SafeRule = {
  operands: 'words',
  shortArg: 'fspPD',
  check: (args) => !args.some((a) => /^(-f|--file|-s|--settings|-gs)$/.test(a.value)) && operandsIn(args, MAVEN_PHASES, 'fspPDl'),
  // A property naming an executable (`-Dmaven.compiler.executable=…`) would run it.
  denyIf: (args) => args.some((a) => /executable|exec\./i.test(a.value)),
};
// Gradle tasks are the build's own code, like make targets.
export const GRADLE: SafeRule = { operands: 'words', denyShort: 'I', denyLong: ['init-script'] };
export const DOTNET: SafeRule = {
  sub: { build: WORDS, test: WORDS, run: WORDS, restore: WORDS, format: WORDS, clean: WORDS, list: WORDS, '--info': NONE },
};

export const DOCKER_READ: Record<string, SafeRule> = {
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
export const COMPOSE_READ: SafeRule = {
  sub: { ps: WORDS, logs: WORDS, config: WORDS, ls: WORDS, images: WORDS, top: WORDS, version: WORDS },
};
const KUBECTL_READ: SafeRule = {
  operands: 'words',
  denyIf: (args) => args.some((a) => /^(secrets?|sa|serviceaccounts?)(\/|$)/.test(a.value)),
};
export const KUBECTL: SafeRule = {
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

export const TERRAFORM_MASKED: SafeRule = { operands: 'words', denyWords: ['-json', '-raw'] };
