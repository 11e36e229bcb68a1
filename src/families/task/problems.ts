/**
 * Problems in a task's output, for the matchers OpenSpace knows: TypeScript's compiler (plain and
 * pretty), ESLint's default ("stylish") format, and the `file:line:col: error: message` lines of
 * gcc, clang, Python linters and many more. Paths become workspace-relative where they are in the
 * workspace. Browser-safe.
 */

export interface Problem {
  path: string;
  line: number;
  column?: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** tsc, eslint or the generic matcher: which read it. */
  source: 'tsc' | 'eslint' | 'compiler';
  /** The rule or error code, when the tool names one (`TS2322`, `no-unused-vars`). */
  code?: string;
}

/** The most problems one answer lists. */
export const MAX_PROBLEMS = 200;

const severityOf = (word: string): Problem['severity'] => (/^err/i.test(word) ? 'error' : /^warn/i.test(word) ? 'warning' : 'info');

/** `src/a.ts(2,7): error TS2322: …` (tsc --pretty false) and `src/a.ts:2:7 - error TS2322: …` (tsc in a terminal). */
const TSC = /^(.+?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) (error|warning|message) (TS\d+): (.*)$/;
/** ESLint stylish: the file alone on a line, then `  2:7  error  message  rule`. */
const ESLINT_FILE = /^(\/\S.*|[A-Za-z]:\\.*)$/;
const ESLINT_PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?$/;
/** gcc, clang, flake8, mypy, rustc's short form …: `file:line[:col]: error|warning|note: message`. */
const COMPILER = /^([^\s:][^:]*):(\d+)(?::(\d+))?:\s*(fatal error|error|warning|note|info)\s*:?\s+(.*)$/i;

/** The problems the lines show, in order. `root` makes absolute paths in the workspace relative. */
export function parseProblems(lines: readonly string[], root: string): Problem[] {
  const problems: Problem[] = [];
  const relative = (path: string) => (root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path.replace(/^\.\//, ''));
  let eslintFile: string | undefined;
  for (const raw of lines) {
    if (problems.length >= MAX_PROBLEMS) break;
    const line = raw.replace(/\s+$/, '');
    let m = TSC.exec(line);
    if (m) {
      problems.push({
        path: relative(m[1]!.trim()),
        line: Number(m[2] ?? m[4]),
        column: Number(m[3] ?? m[5]),
        severity: severityOf(m[6]!),
        message: m[8]!,
        source: 'tsc',
        code: m[7]!,
      });
      continue;
    }
    if (ESLINT_FILE.test(line)) {
      eslintFile = line;
      continue;
    }
    m = eslintFile ? ESLINT_PROBLEM.exec(line) : null;
    if (m) {
      problems.push({
        path: relative(eslintFile!),
        line: Number(m[1]),
        column: Number(m[2]),
        severity: severityOf(m[3]!),
        message: m[4]!,
        source: 'eslint',
        ...(m[5] && { code: m[5] }),
      });
      continue;
    }
    if (line === '') eslintFile = undefined;
    m = COMPILER.exec(line);
    if (m) {
      problems.push({
        path: relative(m[1]!),
        line: Number(m[2]),
        ...(m[3] && { column: Number(m[3]) }),
        severity: severityOf(m[4]!),
        message: m[5]!,
        source: 'compiler',
      });
    }
  }
  return problems;
}
