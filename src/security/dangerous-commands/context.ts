/**
 * The state of one check: the `Collector` of reasons, what every part of the text shares (`Shared`:
 * options, the working directory, downloaded files, the way back into the walk) and where in the
 * text the walk is (`Ctx`).
 */
import type { Arg } from './words.js';
import { RULE_WHY, type CheckResult, type DangerReason, type RuleId } from './rules.js';

export class Collector {
  private readonly reasons: DangerReason[] = [];
  private readonly seen = new Set<string>();
  private firstParseError: string | undefined;

  add(rule: RuleId, command: string): void {
    const cmd = command.trim();
    const key = `${rule}\u0000${cmd}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.reasons.push({ command: cmd, rule, why: RULE_WHY.get(rule) ?? rule });
  }

  parseError(message: string, command: string): void {
    this.firstParseError ??= message;
    this.add('parse-error', command);
  }

  result(): CheckResult {
    const r: CheckResult = { dangerous: this.reasons.length > 0, reasons: [...this.reasons] };
    if (this.firstParseError !== undefined) r.parseError = this.firstParseError;
    return r;
  }
}

export interface Shared {
  readonly out: Collector;
  readonly cwd: string | undefined;
  readonly workspaceCwd: string;
  readonly isProtected: (workspacePath: string) => string | undefined;
  /** Set once a `cd`/`pushd` may have left the workspace: relative paths then count as outside. */
  cwdLeft: boolean;
  /** Files written by a downloader earlier in the text (`curl -o x.sh …`), to catch `sh x.sh` later. */
  readonly downloaded: Set<string>;
  /**
   * The walk's analysis of code a shell will run, one level deeper. check.ts supplies it, so the
   * checks that find such code reach the walk without importing it (no import cycle).
   */
  readonly analyzePayload: (code: string, ctx: Ctx) => void;
}

export interface Ctx {
  /** The string that node positions index (the top-level text, a payload, or a backtick script's decoded source). */
  readonly source: string;
  /** 0 for the text typed at the prompt; 1+ inside `sh -c`/`eval`/… payloads. */
  readonly depth: number;
  readonly shared: Shared;
}

/** Analyses a string that a shell will run as code (`sh -c PAYLOAD`, `eval …`). */
export function analyzePayload(code: string, ctx: Ctx): void {
  ctx.shared.analyzePayload(code, ctx);
}

export function slice(ctx: Ctx, node: { pos: number; end: number }): string {
  return ctx.source.slice(node.pos, node.end);
}

export function argsText(ctx: Ctx, args: readonly Arg[]): string {
  const first = args[0];
  const last = args[args.length - 1];
  if (!first || !last) return '';
  return ctx.source.slice(first.pos, last.end);
}
