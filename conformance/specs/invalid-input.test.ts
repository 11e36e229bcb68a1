/**
 * Generated invalid input for every tool (conformance/invalid-input.ts: wrong types, missing and
 * extra fields, huge strings, NUL bytes, deep nesting) must answer INVALID_ARGUMENT — never a
 * success, another code, a protocol error, a crash or a hang — and the target must keep answering.
 * OPENSPACE_FUZZ_RUNS sets the runs per tool and kind (default 6), OPENSPACE_FUZZ_SEED the seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/families/index.js';
import { INVALID_KINDS, invalidArguments } from '../invalid-input.js';
import { useTarget } from '../setup.js';

const ctx = useTarget();

const RUNS = Math.max(1, Number(process.env.OPENSPACE_FUZZ_RUNS ?? 6) || 6);
const SEED = process.env.OPENSPACE_FUZZ_SEED ? Number(process.env.OPENSPACE_FUZZ_SEED) : undefined;
/** Far above any budget: an answer slower than this is a hang. */
const HANG_MS = 5_000;

function withinHangLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${HANG_MS} ms (a hang)`)), HANG_MS);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

const preview = (args: unknown) => {
  const text = JSON.stringify(args, (_k, v: unknown) =>
    typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}…(${v.length} chars)` : v,
  );
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

describe('generated invalid input answers INVALID_ARGUMENT', () => {
  for (const def of TOOLS) {
    for (const kind of INVALID_KINDS) {
      const arb = invalidArguments(def, kind);
      if (!arb) continue;
      it(`${def.name}: ${kind}`, async () => {
        await fc.assert(
          fc.asyncProperty(arb, async (args) => {
            const result = await withinHangLimit(ctx.agent.call(def.name, args), `${def.name} ${preview(args)}`);
            expect(result, `${def.name} ${preview(args)} must fail with INVALID_ARGUMENT`).toMatchObject({
              success: false,
              code: 'INVALID_ARGUMENT',
            });
            expect(result.error).toBeTypeOf('string');
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        // Still alive and answering.
        await withinHangLimit(ctx.agent.ok('openspace.pane.list'), 'openspace.pane.list after invalid input');
      });
    }
  }
});
