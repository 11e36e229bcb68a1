/**
 * Why a command that no rule covers asks, when it is more specific than "not known to be safe":
 * code given inline, other commands run through it, credentials, uploads, packages from URLs,
 * infrastructure and databases.
 */
import { INTERPRETERS, SHELLS } from '../dangerous-commands/commands-code.js';
import { basename } from '../dangerous-commands/paths.js';
import type { Arg } from '../dangerous-commands/words.js';
import { whereIs, type Place } from './paths.js';
import type { ExplainRuleId } from './rules.js';

/** The options that make an interpreter run the code that follows it. */
const CODE_FLAGS = /^(-c|-e|-E|-p|-r|-x|--eval|--print|--command|--exec)(=|$)|^-[A-Za-z]*[ce]$/;
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** Wrappers that run the command in their arguments (harmless ones are peeled before this). */
export const RUNS_OTHER = new Set([
  'xargs',
  'env',
  'flock',
  'script',
  'watch',
  'parallel',
  'exec',
  'setsid',
  'stdbuf',
  'unbuffer',
  'chroot',
  'busybox',
  'toybox',
  'nohup',
  'nice',
  'ionice',
  'timeout',
  'time',
  'command',
  'builtin',
  'sudo',
  'doas',
  'su',
  'runuser',
  'pkexec',
  'strace',
  'ltrace',
  'gdb',
  'entr',
  'nodemon',
]);

const INFRASTRUCTURE = new Set([
  'docker',
  'podman',
  'nerdctl',
  'docker-compose',
  'kubectl',
  'oc',
  'helm',
  'terraform',
  'tofu',
  'pulumi',
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'doctl',
  'fly',
  'flyctl',
  'heroku',
  'vercel',
  'netlify',
  'eksctl',
  'minikube',
  'kind',
  'ansible-playbook',
  'ansible',
  'vagrant',
  'serverless',
  'sls',
  'cdk',
]);
const DATABASE_CLIENTS = new Set([
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'mongosh',
  'mongo',
  'redis-cli',
  'cqlsh',
  'clickhouse-client',
  'sqlcmd',
  'dropdb',
  'createdb',
  'dropuser',
  'mysqladmin',
  'pg_restore',
  'alembic',
  'flyway',
  'liquibase',
]);
const PACKAGE_INSTALLERS = new Set(['npm', 'yarn', 'pnpm', 'bun', 'pip', 'pip3', 'pipx', 'uv', 'cargo', 'go', 'gem', 'composer']);
const URL_SPEC = /^([a-z][a-z0-9+.-]*:\/\/|git\+|(github|gitlab|bitbucket|gist):)|^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(#\S*)?$/;

/** `npx CMD`, `pnpm exec CMD`, `poetry run CMD`, …: how many words run the command after them (0 if not a runner). */
export function runnerWords(words: readonly string[]): number {
  const n = /^(npx|bunx)$/.test(basename(words[0] ?? ''))
    ? 1
    : /^(npm|pnpm|yarn) (exec|dlx)$|^(poetry|uv|pipenv) run$|^bundle exec$/.test(words.slice(0, 2).join(' '))
      ? 2
      : 0;
  return n && words[n] !== undefined && !(words[n] as string).startsWith('-') ? n : 0;
}

/** The explanation rules that apply to a command no rule covers (empty when none is more specific). */
export function explain(argv: readonly Arg[], place: Place): ExplainRuleId[] {
  const head = argv[0];
  if (!head?.literal) return [];
  const name = basename(head.value);
  // A package runner: what it runs explains it (`npx prisma migrate reset`).
  const runner = runnerWords(argv.map((a) => a.value));
  if (runner) return explain(argv.slice(runner), place);
  const args = argv.slice(1);
  const values = args.map((a) => a.value);
  const found = new Set<ExplainRuleId>();
  if (runsInlineProgram(name, args)) found.add('inline-program');
  if (RUNS_OTHER.has(name) || (name === 'ssh' && values.filter((v) => !v.startsWith('-')).length > 1)) found.add('runs-other-command');
  if (name === 'find' && values.some((v) => /^-(exec|execdir|ok|okdir)$/.test(v))) found.add('runs-other-command');
  if ((name === 'fd' || name === 'fdfind') && values.some((v) => /^(-x|-X|--exec|--exec-batch)$/.test(v))) found.add('runs-other-command');
  if (name === 'git' && values.some((v, i) => v === '-c' && i < values.findIndex((w) => !w.startsWith('-'))))
    found.add('runs-other-command');
  if (name === 'alias' && values.some((v) => v.includes('='))) found.add('defines-code');
  if (name === 'trap' && values.length > 1) found.add('defines-code');
  if ((name === 'complete' && values.includes('-C')) || (name === 'bind' && values.includes('-x'))) found.add('defines-code');
  if (args.some((a) => whereIs(a, place, false) === 'credentials')) found.add('reads-credentials');
  if (uploads(name, values)) found.add('network-upload');
  if (PACKAGE_INSTALLERS.has(name) && installsFromUrl(name, values)) found.add('package-from-url');
  if (INFRASTRUCTURE.has(name)) found.add('infrastructure');
  if (DATABASE_CLIENTS.has(name) || changesDatabase(name, values)) found.add('database');
  return [...found];
}

function runsInlineProgram(name: string, args: readonly Arg[]): boolean {
  const values = args.map((a) => a.value);
  if (name === 'eval') return true;
  if (SHELLS.has(name)) {
    const operand = values.find((v) => !v.startsWith('-') && !v.startsWith('+'));
    return values.some((v) => /^-[A-Za-z]*c/.test(v) || v === '-s' || v === '-') || operand === undefined;
  }
  if (INTERPRETERS.test(name)) {
    if (values.some((v) => CODE_FLAGS.test(v))) return true;
    if (name === 'deno' && values[0] === 'eval') return true;
    // No script: the program comes from stdin.
    return !values.some((v) => !v.startsWith('-'));
  }
  if (AWKS.has(name)) {
    const program = values.find((v) => !v.startsWith('-'));
    return program !== undefined && /system|getline|[|>]|@load/.test(program);
  }
  return false;
}

function uploads(name: string, values: readonly string[]): boolean {
  if (name === 'curl' || name === 'http' || name === 'xh') {
    return values.some(
      (v, i) =>
        /^(-[A-Za-z]*T|--upload-file)/.test(v) ||
        (/^(-[A-Za-z]*[dF]|--data[a-z-]*|--json|--form)$/.test(values[i - 1] ?? '') && /(^|=)[@<]/.test(v)) ||
        /^(--data[a-z-]*|--json|--form)=(.*=)?[@<]/.test(v) ||
        /^-[A-Za-z]*[dF][@<]/.test(v),
    );
  }
  if (name === 'wget') return values.some((v) => /^--(post-file|body-file)/.test(v));
  if (name === 'scp' || name === 'rsync' || name === 'sftp') return values.some((v) => /^[^/-][^/]*:/.test(v));
  return /^(nc|ncat|netcat|socat|telnet)$/.test(name);
}

function installsFromUrl(name: string, values: readonly string[]): boolean {
  const verbIndex = values.findIndex((v) => !v.startsWith('-'));
  const verb = values[verbIndex];
  const rest = values.slice(verbIndex + 1);
  if (name === 'go') return (verb === 'install' || verb === 'get') && rest.some((v) => v.includes('@') || v.includes('.'));
  if (name === 'cargo') return verb === 'install' && rest.some((v) => /^--(git|path)/.test(v));
  if (name === 'gem') return verb === 'install' && rest.some((v) => /^--source|^-s$/.test(v));
  const installs = verb === 'install' || verb === 'i' || verb === 'add' || (name === 'uv' && values.includes('pip'));
  if (!installs) return false;
  return rest.some((v) => URL_SPEC.test(v) || /^--(index-url|extra-index-url|find-links|trusted-host)|^-[if]$/.test(v));
}

function changesDatabase(name: string, values: readonly string[]): boolean {
  const words = values.join(' ');
  if (name === 'prisma') return /\b(migrate|db)\b/.test(words);
  if (name === 'rails' || name === 'rake' || name === 'sequelize' || name === 'knex') return /\bdb:|\bmigrate/.test(words);
  return /manage\.py$/.test(values[0] ?? '') && /^(migrate|flush|sqlflush|loaddata|dbshell)$/.test(values[1] ?? '');
}
