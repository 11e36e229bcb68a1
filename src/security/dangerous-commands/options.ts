/**
 * Option parsing as `getopt` does it: option clusters (`-rf` = `-fr` = `-r -f`), options that take
 * an argument, GNU long-option abbreviations (`--rec`), `--`, and POSIX stop-at-operand for wrappers.
 */
import type { Arg } from './words.js';

export interface OptSpec {
  /** Short options that take an argument (attached `-uroot` or separate `-u root`). */
  readonly shortArg?: string;
  /** Known long options (for GNU-style unique-prefix abbreviations like `--rec`). */
  readonly long?: readonly string[];
  /** Long options that take an argument (`--user=x` or `--user x`). */
  readonly longArg?: readonly string[];
  /** Stop option parsing at the first operand (POSIX/wrapper style) rather than GNU permutation. */
  readonly stopAtOperand?: boolean;
}

export interface Opts {
  readonly short: Set<string>;
  readonly long: Set<string>;
  readonly operands: Arg[];
  /** Index in the input of the first operand when `stopAtOperand` (else args.length). */
  readonly restIndex: number;
}

export function resolveLong(name: string, known: readonly string[] | undefined): string[] {
  if (!known || known.includes(name)) return [name];
  const matches = known.filter((k) => k.startsWith(name));
  // Ambiguous abbreviations are rejected by getopt; counting every match is the conservative choice.
  return matches.length ? matches : [name];
}

export function getopt(args: readonly Arg[], spec: OptSpec = {}): Opts {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: Arg[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const v = a.value;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      return { short, long, operands, restIndex: spec.stopAtOperand ? i + 1 : args.length };
    }
    if (v.startsWith('--') && v.length > 2) {
      const eq = v.indexOf('=');
      const name = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const names = resolveLong(name, spec.long);
      for (const n of names) long.add(n);
      if (eq < 0 && names.some((n) => spec.longArg?.includes(n))) i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      for (let j = 1; j < v.length; j++) {
        const c = v[j] as string;
        short.add(c);
        if (spec.shortArg?.includes(c)) {
          if (j === v.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      return { short, long, operands, restIndex: i };
    }
    operands.push(a);
  }
  return { short, long, operands, restIndex: args.length };
}
