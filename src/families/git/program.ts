/**
 * Running the `git` program for the git family (Node only): its environment without git's own
 * variables, its failures as ToolErrors (NOT_A_REPOSITORY, GIT_FAILED). What it is told to leave
 * off (hooks, filters, fsmonitor) is repository.ts's.
 */
import { execFile } from 'node:child_process';
import { ToolError } from '../../contract/index.js';

const MAX_BUFFER = 256 * 1024 * 1024;
const GIT_TIMEOUT_MS = 60_000;

/** Git's variables of the process that are passed on: who commits. The rest (GIT_DIR, GIT_CONFIG_*, …) would say where the repository is or change what git does. */
const KEEP_ENV = new Set(['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']);

export interface RunOptions {
  input?: string;
  /** Exit codes that are answers, not failures. */
  ok?: number[];
  /** Run the repository's hooks (a commit the person confirmed). */
  hooks?: boolean;
  /** How git's output is read (utf8). */
  encoding?: BufferEncoding;
}

export class GitExit extends Error {
  constructor(
    readonly exitCode: number | string | null | undefined,
    readonly stderr: string,
  ) {
    super(stderr.trim() || `git exited with ${exitCode}`);
  }
}

export function gitFailure(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof GitExit && /not a git repository/i.test(err.stderr)) {
    return new ToolError(
      'NOT_A_REPOSITORY',
      'The workspace is not in a git repository. Ask the person to create one (git init) if they want one.',
    );
  }
  if (err instanceof GitExit)
    return new ToolError('GIT_FAILED', err.message.split('\n').slice(0, 20).join('\n'), { exitCode: err.exitCode });
  return new ToolError('GIT_FAILED', `git could not run: ${(err as Error).message}`);
}

let childEnv: NodeJS.ProcessEnv | undefined;
function env(): NodeJS.ProcessEnv {
  childEnv ??= {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_') || KEEP_ENV.has(k))),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    LC_ALL: 'C',
  };
  return childEnv;
}

export function run(cwd: string, args: string[], config: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...config, ...args],
      { cwd, env: env(), maxBuffer: MAX_BUFFER, timeout: GIT_TIMEOUT_MS, encoding: options.encoding ?? 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const code = (err as NodeJS.ErrnoException & { code?: number | string }).code;
        if (typeof code === 'number' && options.ok?.includes(code) && !stderr.trim()) return resolve(stdout);
        if (typeof code === 'number' || stderr) return reject(new GitExit(code, stderr));
        reject(err);
      },
    );
    // git may exit without reading what it was given (a refusal): that is its answer, not an error here.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  });
}
