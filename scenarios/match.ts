/**
 * The expectation language of scenarios: partial deep matching, `/regex/` strings, `$` operators,
 * and `$variables` captured from earlier results. Each mismatch says where, what was expected and
 * what was there.
 */

export interface Mismatch {
  /** Where in the actual value, e.g. `output[2]` or `panes[0].id`; `` for the value itself. */
  path: string;
  message: string;
}

export type Variables = Record<string, unknown>;

const REGEX_FORM = /^\/(.+)\/([dgimsuy]*)$/s;

/** `/^main-\d+$/` as a RegExp; undefined for any other string. */
export function asRegex(text: string): RegExp | undefined {
  const m = REGEX_FORM.exec(text);
  if (!m) return undefined;
  try {
    return new RegExp(m[1]!, m[2]!.replace('g', ''));
  } catch (err) {
    throw new Error(`"${text}" looks like a regular expression but is not one: ${(err as Error).message}`, { cause: err });
  }
}

/** Compact JSON for messages, shortened past a limit. */
export function show(value: unknown, limit = 200): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' && REGEX_FORM.test(value) ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeOf(a) !== typeOf(b) || typeof a !== 'object' || a === null) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const OPERATORS = ['$eq', '$contains', '$excludes', '$length', '$gt', '$gte', '$lt', '$lte', '$type', '$exists', '$not', '$any'] as const;

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$') && !k.startsWith('$$'));
}

function compareNumber(op: string, actual: unknown, bound: unknown, path: string): Mismatch[] {
  if (typeof actual !== 'number' || typeof bound !== 'number')
    return [{ path, message: `expected a number ${op} ${show(bound)}, got ${show(actual)}` }];
  const holds = op === '$gt' ? actual > bound : op === '$gte' ? actual >= bound : op === '$lt' ? actual < bound : actual <= bound;
  const words = { $gt: '>', $gte: '≥', $lt: '<', $lte: '≤' }[op];
  return holds ? [] : [{ path, message: `expected ${words} ${bound}, got ${actual}` }];
}

/** An element of an array, or a substring or pattern of a string. */
function containsOne(actual: unknown, expected: unknown, path: string): boolean {
  if (typeof actual === 'string') {
    const re = typeof expected === 'string' ? asRegex(expected) : undefined;
    return re ? re.test(actual) : typeof expected === 'string' && actual.includes(expected);
  }
  return Array.isArray(actual) && actual.some((item, i) => match(expected, item, join(path, i)).length === 0);
}

function matchOperators(expected: Record<string, unknown>, actual: unknown, path: string): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [op, arg] of Object.entries(expected)) {
    switch (op) {
      case '$eq':
        if (!deepEqual(arg, actual)) out.push({ path, message: `expected exactly ${show(arg)}, got ${show(actual)}` });
        break;
      case '$contains':
      case '$excludes': {
        if (typeof actual !== 'string' && !Array.isArray(actual)) {
          out.push({ path, message: `expected a string or an array for ${op}, got ${show(actual)}` });
          break;
        }
        for (const item of Array.isArray(arg) && typeof actual === 'string' ? arg : [arg]) {
          const found = containsOne(actual, item, path);
          if (op === '$contains' && !found)
            out.push({
              path,
              message: `expected ${typeof actual === 'string' ? 'text containing' : 'an element matching'} ${show(item)}, got ${show(actual, 600)}`,
            });
          if (op === '$excludes' && found)
            out.push({
              path,
              message: `expected no ${typeof actual === 'string' ? 'text' : 'element'} matching ${show(item)}, got ${show(actual, 600)}`,
            });
        }
        break;
      }
      case '$length': {
        const length = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
        if (length === undefined) out.push({ path, message: `expected something with a length, got ${show(actual)}` });
        else out.push(...match(arg, length, `${path}.length`));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        out.push(...compareNumber(op, actual, arg, path));
        break;
      case '$type':
        if (typeOf(actual) !== arg) out.push({ path, message: `expected a value of type ${arg}, got ${typeOf(actual)} ${show(actual)}` });
        break;
      case '$exists':
        if ((actual !== undefined) !== Boolean(arg))
          out.push({ path, message: arg ? 'expected a value, got nothing' : `expected nothing, got ${show(actual)}` });
        break;
      case '$not':
        if (match(arg, actual, path).length === 0) out.push({ path, message: `expected anything but ${show(arg)}, got ${show(actual)}` });
        break;
      case '$any': {
        const options = Array.isArray(arg) ? arg : [arg];
        if (!options.some((o) => match(o, actual, path).length === 0))
          out.push({ path, message: `expected one of ${show(options)}, got ${show(actual)}` });
        break;
      }
      default:
        out.push({
          path,
          message: `unknown operator ${op} (known: ${OPERATORS.join(', ')}); to match a key that starts with $, write it as $${op}`,
        });
    }
  }
  return out;
}

/**
 * Compare an actual value with an expectation. Objects match partially (keys not named are
 * ignored), arrays element by element with the same length, `/…/` strings as regular expressions,
 * objects whose keys all start with `$` as operators; everything else by equality.
 */
export function match(expected: unknown, actual: unknown, path = ''): Mismatch[] {
  if (isOperatorObject(expected)) return matchOperators(expected, actual, path);
  if (typeof expected === 'string') {
    const re = asRegex(expected);
    if (re) {
      return (typeof actual === 'string' || typeof actual === 'number') && re.test(String(actual))
        ? []
        : [{ path, message: `expected a match for ${expected}, got ${show(actual)}` }];
    }
  }
  if (expected === null || typeof expected !== 'object') {
    return expected === actual ? [] : [{ path, message: `expected ${show(expected)}, got ${show(actual)}` }];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, message: `expected an array, got ${show(actual)}` }];
    if (actual.length !== expected.length) {
      return [{ path, message: `expected ${expected.length} element(s), got ${actual.length}: ${show(actual, 600)}` }];
    }
    return expected.flatMap((item, i) => match(item, actual[i], join(path, i)));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    return [{ path, message: `expected an object, got ${show(actual)}` }];
  }
  return Object.entries(expected).flatMap(([key, item]) => {
    // `$$name` matches a key named `$name`.
    const actualKey = key.startsWith('$$') ? key.slice(1) : key;
    return match(item, (actual as Record<string, unknown>)[actualKey], join(path, actualKey));
  });
}

/** The value at `a.b.0.c` in a result; `.` or `` is the result itself. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '' || path === '.') return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const WHOLE_VARIABLE = /^\$([A-Za-z_]\w*)((?:\.[\w-]+)*)$/;
const EMBEDDED_VARIABLE = /\$\$|\$\{([A-Za-z_]\w*)((?:\.[\w-]+)*)\}/g;

function lookup(vars: Variables, name: string, path: string): unknown {
  if (!(name in vars)) {
    const known = Object.keys(vars);
    throw new Error(
      `unknown variable $${name} (${known.length ? `captured so far: ${known.map((k) => `$${k}`).join(', ')}` : 'nothing captured yet'}); write $$ for a literal $`,
    );
  }
  const value = valueAt(vars[name], path.replace(/^\./, ''));
  if (value === undefined) throw new Error(`$${name}${path} has no value (the variable holds ${show(vars[name])})`);
  return value;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Substitute captured variables: a string that is exactly `$name` (or `$name.path`) becomes the
 * value itself, with its type; `${name}` inside a string becomes its text (escaped when the string
 * is a `/regex/`); `$$` is a literal `$`. Keys are left alone.
 */
export function interpolate(value: unknown, vars: Variables): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_VARIABLE.exec(value);
    if (whole) return lookup(vars, whole[1]!, whole[2] ?? '');
    const inRegex = REGEX_FORM.test(value);
    return value.replace(EMBEDDED_VARIABLE, (all, name: string | undefined, path: string | undefined) => {
      if (all === '$$') return '$';
      const found = lookup(vars, name!, path ?? '');
      const text = typeof found === 'string' ? found : JSON.stringify(found);
      return inRegex ? escapeRegex(text) : text;
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, vars)]));
  }
  return value;
}
