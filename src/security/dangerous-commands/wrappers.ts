/**
 * Wrapper peeling: `sudo -u x CMD`, `env A=1 CMD`, `nice -n 5 CMD`, `xargs CMD`, … → `CMD`, and the
 * command that finally runs once every wrapper is peeled.
 */
import { getopt, type OptSpec } from './options.js';
import { basename } from './paths.js';
import type { Arg } from './words.js';

type Peeled = { kind: 'rest'; rest: Arg[] } | { kind: 'stop' } | { kind: 'none' };

const ASSIGNMENT_ARG = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function skipAssignments(args: Arg[], from: number): number {
  let i = from;
  while (i < args.length && ASSIGNMENT_ARG.test((args[i] as Arg).value)) i++;
  return i;
}

/**
 * Removes one wrapper: `sudo -u x CMD` → `CMD`. Pure (reports nothing); `analyzeArgv` reports the
 * wrapper's own danger. Wrappers that carry code in a string (`env -S`, `watch`, `ssh`, `su -c`) are
 * handled in `analyzeArgv`.
 */
export function peelWrapper(name: string, args: Arg[]): Peeled {
  const rest = args.slice(1);
  const after = (spec: OptSpec): Arg[] => rest.slice(getopt(rest, { ...spec, stopAtOperand: true }).restIndex);
  switch (name) {
    case 'sudo': {
      const r = after({
        shortArg: 'ugCDhprtTU',
        longArg: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user'],
      });
      return { kind: 'rest', rest: r.slice(skipAssignments(r, 0)) };
    }
    case 'doas':
      return { kind: 'rest', rest: after({ shortArg: 'uC' }) };
    case 'pkexec':
    case 'run0':
      return {
        kind: 'rest',
        rest: after({
          longArg: ['user', 'unit', 'property', 'description', 'slice', 'chdir', 'setenv', 'nice', 'machine', 'background'],
          shortArg: 'uD',
        }),
      };
    case 'env': {
      const r = after({ shortArg: 'uCS', longArg: ['unset', 'chdir', 'split-string'] });
      return { kind: 'rest', rest: r.slice(skipAssignments(r, 0)) };
    }
    case 'command': {
      const o = getopt(rest, { stopAtOperand: true });
      if (o.short.has('v') || o.short.has('V')) return { kind: 'stop' };
      return { kind: 'rest', rest: rest.slice(o.restIndex) };
    }
    case 'builtin':
    case 'nohup':
    case 'unbuffer':
    case 'setsid':
      return { kind: 'rest', rest: after({}) };
    case 'exec':
      return { kind: 'rest', rest: after({ shortArg: 'a' }) };
    case 'time':
      return { kind: 'rest', rest: after({ shortArg: 'fo', longArg: ['format', 'output'] }) };
    case 'nice': {
      // `nice -n 5 CMD`, `nice -5 CMD`, `nice --adjustment=5 CMD`
      return { kind: 'rest', rest: after({ shortArg: 'n', longArg: ['adjustment'] }) };
    }
    case 'ionice': {
      const o = getopt(rest, { shortArg: 'cnpPu', longArg: ['class', 'classdata', 'pid', 'pgid', 'uid'], stopAtOperand: true });
      if (o.short.has('p') || o.short.has('P') || o.short.has('u')) return { kind: 'stop' };
      return { kind: 'rest', rest: rest.slice(o.restIndex) };
    }
    case 'timeout': {
      const r = after({ shortArg: 'sk', longArg: ['signal', 'kill-after'] });
      return { kind: 'rest', rest: r.slice(1) }; // drop DURATION
    }
    case 'stdbuf':
      return { kind: 'rest', rest: after({ shortArg: 'ioe', longArg: ['input', 'output', 'error'] }) };
    case 'chroot': {
      const r = after({ longArg: ['userspec', 'groups'] });
      return { kind: 'rest', rest: r.slice(1) }; // drop NEWROOT
    }
    case 'xargs': {
      const r = after({
        shortArg: 'IaLnPsdE',
        longArg: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
      });
      return r.length ? { kind: 'rest', rest: r } : { kind: 'stop' };
    }
    case 'busybox':
    case 'toybox':
      return rest.length && !(rest[0] as Arg).value.startsWith('-') ? { kind: 'rest', rest } : { kind: 'stop' };
    default:
      return { kind: 'none' };
  }
}

/** The command that finally runs once wrappers are peeled (no reporting). */
export function effectiveArgv(args: Arg[]): Arg[] {
  let cur = args;
  for (let n = 0; n < 32 && cur.length; n++) {
    const head = cur[0] as Arg;
    if (!head.literal) return cur;
    const p = peelWrapper(basename(head.value), cur);
    if (p.kind === 'none') return cur;
    if (p.kind === 'stop') return [];
    cur = p.rest;
  }
  return cur;
}

export function effectiveName(args: Arg[]): string | undefined {
  const eff = effectiveArgv(args);
  const head = eff[0];
  return head && head.literal ? basename(head.value) : undefined;
}
