import { describe, expect, it } from 'vitest';
import { FAMILY_SUMMARIES, familiesOf, TOOLS } from './index.js';

describe('the catalog', () => {
  it('every tool that changes the IDE says what a session owns after it (what the hub cleans up), {} for nothing', () => {
    const silent = TOOLS.filter((t) => t.effect !== 'read-only' && t.session === undefined).map((t) => t.name);
    expect(silent, 'add `session` to these tool definitions (src/contract): what a call creates or releases, or {}').toEqual([]);
  });

  it('read-only tools create nothing', () => {
    expect(TOOLS.filter((t) => t.effect === 'read-only' && t.session?.creates).map((t) => t.name)).toEqual([]);
  });

  it('every family has the one-line summary openspace.tools.enable shows', () => {
    expect(familiesOf(TOOLS).filter((f) => !FAMILY_SUMMARIES[f])).toEqual([]);
  });
});
