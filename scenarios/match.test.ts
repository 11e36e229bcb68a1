import { describe, expect, it } from 'vitest';
import { interpolate, match } from './match.js';

const ok = (expected: unknown, actual: unknown) => expect(match(expected, actual)).toEqual([]);
const bad = (expected: unknown, actual: unknown) => {
  const found = match(expected, actual);
  expect(found.length, `${JSON.stringify(expected)} should not match ${JSON.stringify(actual)}`).toBeGreaterThan(0);
  return found;
};

describe('match', () => {
  it('matches objects partially and arrays element by element', () => {
    ok({ success: true }, { success: true, extra: 1 });
    ok({ a: { b: 1 } }, { a: { b: 1, c: 2 } });
    ok([{ id: 'x' }], [{ id: 'x', n: 1 }]);
    expect(bad([1], [1, 2])[0]!.message).toMatch(/expected 1 element\(s\), got 2/);
    expect(bad({ a: { b: 1 } }, { a: { b: 2 } })[0]).toEqual({ path: 'a.b', message: 'expected 1, got 2' });
    expect(bad({ xs: [1, 2] }, { xs: [1, 3] })[0]!.path).toBe('xs[1]');
    bad({ a: 1 }, null);
  });

  it('reads /…/ strings as regular expressions', () => {
    ok('/^main-\\d+$/', 'main-12');
    ok('/^HELLO$/i', 'hello');
    ok('/^4\\d$/', 42);
    expect(bad('/^main-\\d+$/', 'bottom')[0]!.message).toBe('expected a match for /^main-\\d+$/, got "bottom"');
    ok('plain', 'plain');
    bad('plain', 'plainer');
    // $eq compares exactly, for strings that look like a regex.
    ok({ $eq: '/tmp/' }, '/tmp/');
  });

  it('has operators', () => {
    ok({ $contains: 'hello' }, ['x', 'hello']);
    ok({ $contains: '/^he/' }, ['x', 'hello']);
    ok({ $contains: { id: 'b' } }, [{ id: 'a' }, { id: 'b' }]);
    ok({ $contains: 'ell' }, 'hello');
    ok({ $contains: ['he', 'lo'] }, 'hello');
    bad({ $contains: 'z' }, ['hello']);
    ok({ $excludes: 'z' }, ['hello']);
    bad({ $excludes: '/^h/' }, ['hello']);
    ok({ $length: 2 }, [1, 2]);
    ok({ $length: { $gte: 2 } }, 'abc');
    ok({ $gt: 1, $lte: 3 }, 3);
    bad({ $lt: 1 }, 1);
    ok({ $type: 'array' }, []);
    ok({ a: { $exists: false } }, {});
    bad({ a: { $exists: false } }, { a: 0 });
    ok({ $not: 'x' }, 'y');
    ok({ $any: ['x', '/^y/'] }, 'yes');
    expect(bad({ $nope: 1 }, 1)[0]!.message).toMatch(/unknown operator \$nope/);
    // A key that starts with $ is written $$.
    ok({ $$ref: 1 }, { $ref: 1 });
  });
});

describe('interpolate', () => {
  const vars = { term: 'test-runner', cursor: 7, layout: { panes: [{ id: 'main-1' }] } };

  it('puts a whole $variable in with its type, and ${variable} into text', () => {
    expect(interpolate({ terminalId: '$term', since: '$cursor' }, vars)).toEqual({ terminalId: 'test-runner', since: 7 });
    expect(interpolate('$layout.panes.0.id', vars)).toBe('main-1');
    expect(interpolate('id=${term}, at ${cursor}', vars)).toBe('id=test-runner, at 7');
    expect(interpolate(['$term'], vars)).toEqual(['test-runner']);
  });

  it('escapes a value put into a regular expression', () => {
    expect(interpolate('/^${term}.x$/', { term: 'a.b' })).toBe('/^a\\.b.x$/');
  });

  it('leaves other dollars alone and reads $$ as $', () => {
    expect(interpolate('echo $HOME', vars)).toBe('echo $HOME');
    expect(interpolate('$$HOME', vars)).toBe('$HOME');
    expect(interpolate('a $${x}', vars)).toBe('a ${x}');
    expect(interpolate('/^hello$/', vars)).toBe('/^hello$/');
  });

  it('refuses an unknown variable, naming the known ones', () => {
    expect(() => interpolate('$nope', vars)).toThrow(/unknown variable \$nope \(captured so far: \$term, \$cursor, \$layout\)/);
    expect(() => interpolate('$term.missing', vars)).toThrow(/\$term\.missing has no value/);
  });
});
