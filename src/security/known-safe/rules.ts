/**
 * The explanation rules as data (why a command asks when no danger rule names it), and the shape of
 * an assessment's options and result.
 */
import type { CheckOptions } from '../dangerous-commands/index.js';

export interface ExplainRule {
  readonly id: string;
  /** What the command does, phrased to follow "Agent wants to run: … — ". */
  readonly why: string;
  /** What the rule matches (for the README and reviewers). */
  readonly matches: string;
}

export const EXPLAIN_RULES = [
  {
    id: 'not-known-safe',
    why: 'runs PROGRAM, which is not a command known to be safe',
    matches: 'any command no known-safe rule and no remembered rule covers, when nothing more specific explains it (PROGRAM names it)',
  },
  {
    id: 'inline-program',
    why: 'runs a program given inline',
    matches:
      '`sh`/`bash -c`, `eval`, `python -c`, `node -e/-p`, `perl -e`, `ruby -e`, `php -r`, `deno eval`, an `awk` program that calls `system`, pipes or redirects, and shells or interpreters reading their program from stdin',
  },
  {
    id: 'runs-other-command',
    why: 'runs another command it is given (xargs, env, flock, script, find -exec, …), which cannot be judged on its own',
    matches:
      '`xargs`, `env` with options, `flock`, `script`, `watch`, `parallel`, `exec`, `setsid`, `stdbuf`, `unbuffer`, `chroot`, `busybox`, `ssh HOST CMD`, `find -exec/-execdir/-ok`, `fd -x/-X`, `git -c …`',
  },
  {
    id: 'defines-code',
    why: 'defines a function, alias or trap that runs code later',
    matches: 'function definitions, `alias NAME=…`, `trap ACTION SIG`, `PROMPT_COMMAND=…`, `complete -C`, `bind -x`',
  },
  {
    id: 'unsafe-variable',
    why: 'sets a variable that changes what programs run or load (PATH, LD_PRELOAD, NODE_OPTIONS, …)',
    matches: 'an assignment (before a command, alone, or by `export`/`declare`/`env`) of any name outside the harmless list',
  },
  {
    id: 'reads-credentials',
    why: 'reads or uses a credential file (a key, token or .env)',
    matches:
      'an argument or input naming `~/.ssh/…`, `~/.aws/…`, `~/.netrc`, `~/.git-credentials`, `~/.docker/config.json`, `~/.kube/config`, `~/.npmrc`, `~/.pypirc`, `~/.gnupg/…`, `/etc/shadow`, or a workspace path the file policy marks sensitive (`.env`, `*.pem`, `id_rsa`, …)',
  },
  {
    id: 'outside-workspace',
    why: 'uses a file outside the workspace, or one only known at run time',
    matches:
      'a path operand or option value of a known-safe command (`cat ../x`, `cat /etc/hosts`, `ls ~`, `make -C ../other`, `cat "$F"`)',
  },
  {
    id: 'write-elsewhere',
    why: 'writes to a file outside the workspace, into a protected path, or to one only known at run time',
    matches: 'a redirection, `tee`, `mkdir` or `touch` target that is not a workspace path (/tmp included) or /dev/null',
  },
  {
    id: 'network-upload',
    why: 'sends a file to the network',
    matches:
      '`curl -d/--data*/-F @FILE`, `curl -T/--upload-file`, `wget --post-file/--body-file`, `scp`/`rsync`/`sftp` to `HOST:`, `nc`/`ncat`/`netcat`/`socat`',
  },
  {
    id: 'package-from-url',
    why: 'installs a package from a URL or repository rather than the registry',
    matches:
      '`npm`/`yarn`/`pnpm`/`bun` install/add of a URL, `git+…`, `github:…` or `user/repo`; `pip`/`uv pip`/`pipx` install of a URL or with `--index-url`/`--extra-index-url`/`--find-links`; `cargo install --git`; `go install …@…`; `gem install --source`',
  },
  {
    id: 'infrastructure',
    why: 'changes containers, clusters or cloud infrastructure',
    matches:
      '`docker`/`podman`/`docker-compose`, `kubectl`, `helm`, `terraform`/`tofu`, `pulumi`, `aws`, `gcloud`, `az`, `doctl`, `fly`, `heroku`, `vercel`, `netlify`, `eksctl`, `minikube`, `kind`, `ansible-playbook`, `vagrant` with a subcommand outside their read-only ones',
  },
  {
    id: 'database',
    why: 'changes a database',
    matches:
      'a database client (`psql`, `mysql`, `sqlite3`, `mongosh`, `redis-cli`, …), `dropdb`/`createdb`/`mysqladmin`, and migrations or resets (`prisma migrate|db`, `rails|rake db:*`, `manage.py migrate|flush`, `alembic`)',
  },
] as const satisfies readonly ExplainRule[];

export type ExplainRuleId = (typeof EXPLAIN_RULES)[number]['id'];

export const EXPLAIN_WHY: ReadonlyMap<string, string> = new Map(EXPLAIN_RULES.map((r) => [r.id, r.why]));

export interface AssessOptions extends CheckOptions {
  /**
   * Whether agents may not read a workspace-relative path: the pattern that makes it sensitive, or
   * undefined. Default: the built-in sensitive paths (.env, keys, credentials).
   */
  isSensitive?: (workspacePath: string) => string | undefined;
  /** Rules the person chose "Always allow" for in this workspace: words a command must start with ("npm run build"). */
  allowRules?: readonly string[];
}

export interface Reason {
  /** The command the reason is about, as written. */
  command: string;
  /** A danger rule id (DANGER_RULES) or an explanation rule id (EXPLAIN_RULES). */
  rule: string;
  why: string;
}

export interface Assessment {
  /** True unless every command is known to be safe (or remembered) and no danger rule matched. */
  ask: boolean;
  /** Why it asks: the danger check's reasons first, then the explanations. Empty when it does not ask. */
  reasons: Reason[];
  /** The commands no known-safe or remembered rule covers, as written. */
  unknown: string[];
  /** What "Always allow commands like this" would remember: only offered when it would let this text through. */
  suggestedRule?: string;
}
