import { describe, expect, it } from 'vitest';
import { allowEntry, allowRulesFor, withAllowEntry } from './allow-rules.js';

describe('always-allow entries', () => {
  it('a rule remembered for one workspace holds there only; a bare rule holds everywhere', () => {
    const entries = [allowEntry('npm run build', '/home/me/a'), 'git status', allowEntry('make test', '/home/me/b (old)')];
    expect(entries[0]).toBe('npm run build (in /home/me/a)');
    expect(allowRulesFor(entries, '/home/me/a')).toEqual(['npm run build', 'git status']);
    expect(allowRulesFor(entries, '/home/me/b (old)')).toEqual(['git status', 'make test']);
    expect(allowRulesFor(entries, '/home/me/c')).toEqual(['git status']);
  });

  it('skips what is not a rule (a hand-edited settings file), and repeats none', () => {
    expect(allowRulesFor([42, null, '', '  ', 'ls', ' ls ', allowEntry('ls', '/w')], '/w')).toEqual(['ls']);
  });
});

describe('remembering a rule', () => {
  it('adds the entry once per workspace, and starts afresh from a stored value that is not a list', () => {
    const once = withAllowEntry([], 'docker compose up', '/ws');
    expect(once).toEqual(['docker compose up (in /ws)']);
    expect(withAllowEntry(once, 'docker compose up', '/ws')).toBeUndefined();
    expect(withAllowEntry(once, 'docker compose up', '/other')).toEqual(['docker compose up (in /ws)', 'docker compose up (in /other)']);
    expect(withAllowEntry('docker', 'make', '/ws')).toEqual(['make (in /ws)']);
    expect(withAllowEntry(undefined, 'make', '/ws')).toEqual(['make (in /ws)']);
  });
});
