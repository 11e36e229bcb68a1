/** The shape of a known-safe rule (safe-commands.ts has the rules), and the plainest ones. */
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

export const READ: SafeRule = {};
export const TEXT: SafeRule = { operands: 'text' };
export const WORDS: SafeRule = { operands: 'words' };
export const NONE: SafeRule = { operands: 'none' };
