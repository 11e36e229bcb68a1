/**
 * Invalid tool arguments, generated from each tool's contract: fast-check arbitraries built from
 * the JSON Schema the zod input schema gives (inputJsonSchema), one per kind of mistake an agent or
 * an attacker makes. Every generated value is checked against the zod schema itself, so a value
 * the contract happens to accept is never used as "invalid".
 */
import fc from 'fast-check';
import { inputJsonSchema, type ToolDefinition } from '../src/contract/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Schema {
  type?: string;
  enum?: Json[];
  const?: Json;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
}

export const INVALID_KINDS = ['wrong type', 'missing field', 'extra field', 'huge string', 'NUL byte', 'deep nesting'] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];

/** A value the schema accepts, as plain as possible (the base a mutation starts from). */
export function example(schema: Schema): Json {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0]!;
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return example(alternative);
  switch (schema.type) {
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => example(schema.items ?? {}));
    case 'object':
    default: {
      const out: Record<string, Json> = {};
      for (const key of schema.required ?? []) out[key] = example(schema.properties?.[key] ?? {});
      return out;
    }
  }
}

function typeOf(schema: Schema): string | undefined {
  if (schema.enum?.length) return typeof schema.enum[0];
  return schema.type === 'integer' ? 'number' : schema.type;
}

/** Values of every JSON type but the property's own. */
function wrongTypeFor(schema: Schema): fc.Arbitrary<Json> {
  const own = typeOf(schema);
  const all: [string, fc.Arbitrary<Json>][] = [
    ['string', fc.string({ maxLength: 20 })],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 3 })],
  ];
  return fc.oneof(...all.filter(([type]) => type !== own).map(([, arb]) => arb));
}

const HUGE = fc
  .integer({ min: 100_001, max: 150_000 })
  .chain((length) => fc.constantFrom('a', '/', '\u00e9', '😀').map((c) => c.repeat(length)));
const WITH_NUL = fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}\u0000${b}`);
const DEEP = fc.tuple(fc.integer({ min: 20, max: 2_000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { nested: value };
  return value;
});
/** A key the schema does not have. */
const extraKey = (known: string[]) => fc.string({ minLength: 1, maxLength: 30 }).filter((k) => !known.includes(k) && k !== '__proto__');

/**
 * Arguments of one kind of mistake for a tool, or undefined when the kind cannot apply (a missing
 * field for a tool with no required fields). Values the contract accepts are filtered out.
 */
export function invalidArguments(def: ToolDefinition, kind: InvalidKind): fc.Arbitrary<Record<string, Json>> | undefined {
  const schema = inputJsonSchema(def) as Schema;
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  const base = example(schema) as Record<string, Json>;
  const set = (key: string, value: Json) => ({ ...base, [key]: value });
  const inProp = (value: fc.Arbitrary<Json>) =>
    names.length ? fc.tuple(fc.constantFrom(...names), value).map(([k, v]) => set(k, v)) : undefined;
  const inExtra = (value: fc.Arbitrary<Json>) => fc.tuple(extraKey(names), value).map(([k, v]) => set(k, v));
  let arb: fc.Arbitrary<Record<string, Json>> | undefined;
  switch (kind) {
    case 'wrong type':
      arb = names.length ? fc.constantFrom(...names).chain((k) => wrongTypeFor(props[k]!).map((v) => set(k, v))) : undefined;
      break;
    case 'missing field': {
      const required = schema.required ?? [];
      arb = required.length
        ? fc.subarray(required, { minLength: 1 }).map((gone) => Object.fromEntries(Object.entries(base).filter(([k]) => !gone.includes(k))))
        : undefined;
      break;
    }
    case 'extra field':
      arb = inExtra(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>);
      break;
    case 'huge string':
      arb = fc.oneof(...[inProp(HUGE), inExtra(HUGE)].filter((a) => a !== undefined));
      break;
    case 'NUL byte':
      arb = fc.oneof(
        ...[inProp(WITH_NUL), inExtra(fc.string({ maxLength: 5 })).map((args) => ({ ...args, 'a\u0000b': 1 }))].filter(
          (a) => a !== undefined,
        ),
      );
      break;
    case 'deep nesting':
      arb = fc.oneof(...[inProp(DEEP), inExtra(DEEP)].filter((a) => a !== undefined));
      break;
  }
  return arb?.filter((args) => !def.input.safeParse(args).success);
}
