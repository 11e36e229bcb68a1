import { describe, expect, it } from 'vitest';
import { alwaysRules, matchesRule } from './permission-rules.js';

const request = (permission: string, patterns: string[], always = patterns) => ({ permission, patterns, always });

describe('permission rules', () => {
  it('keeps OpenCode\'s own "always" suggestion as the rule', () => {
    expect(alwaysRules(request('openspace_openspace_file_write', ['*']))).toEqual(['openspace_openspace_file_write']);
    expect(alwaysRules(request('bash', ['git log --oneline'], ['git log*']))).toEqual(['bash git log*']);
    expect(alwaysRules(request('edit', ['src/a.ts'], []))).toEqual(['edit']);
  });

  it('a rule without a pattern allows every request of its permission, and no other', () => {
    expect(matchesRule('openspace_openspace_file_write', request('openspace_openspace_file_write', ['*']))).toBe(true);
    expect(matchesRule('openspace_openspace_file_write', request('openspace_openspace_file_patch', ['*']))).toBe(false);
    expect(matchesRule('openspace_*', request('openspace_openspace_terminal_run', ['*']))).toBe(true);
  });

  it('a rule with a pattern allows a request only when it covers every pattern', () => {
    expect(matchesRule('bash git log*', request('bash', ['git log --oneline']))).toBe(true);
    expect(matchesRule('bash git log*', request('bash', ['git log', 'rm -rf /']))).toBe(false);
    expect(matchesRule('bash git log*', request('bash', ['git push']))).toBe(false);
    expect(matchesRule('bash git log*', request('bash', []))).toBe(false);
    // Regex characters in a pattern are literal.
    expect(matchesRule('edit src/(a).ts', request('edit', ['src/(a).ts']))).toBe(true);
    expect(matchesRule('edit src/a.ts', request('edit', ['src/abts']))).toBe(false);
  });

  it('an empty rule allows nothing', () => {
    expect(matchesRule('  ', request('bash', ['ls']))).toBe(false);
  });
});
