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
import { NONE, READ, TEXT, WORDS, type SafeRule } from './safe-rule.js';
import {
  GIT,
  NPM,
  YARN,
  PNPM,
  PIP,
  PYTHON,
  CARGO,
  GO,
  MAVEN,
  GRADLE,
  DOTNET,
  DOCKER_READ,
  COMPOSE_READ,
  KUBECTL,
  TERRAFORM_MASKED,
} from './safe-toolchains.js';

export type { SafeRule } from './safe-rule.js';

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
