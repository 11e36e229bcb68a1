import { describe, expect, it } from 'vitest';
import { HighlightRegistry } from './highlights.js';

const h = (highlightId: string, path: string, startLine = 1) => ({
  highlightId,
  path,
  ranges: [{ startLine, endLine: startLine + 1 }],
  color: 'yellow',
});

describe('HighlightRegistry: the agent highlights both IDEs keep', () => {
  it('replaces a highlight set again under its ID, even on another file, taking the old one down', () => {
    const down: string[] = [];
    const registry = new HighlightRegistry((x) => down.push(`${x.highlightId}@${x.path}`));
    registry.set(h('fix', 'a.ts'));
    registry.set(h('fix', 'b.ts', 7));
    expect(down).toEqual(['fix@a.ts']);
    expect(registry.list()).toEqual([h('fix', 'b.ts', 7)]);
    expect(registry.has('a.ts')).toBe(false);
  });

  it('clears the highlights of one file (Escape, or its editor closing) and says which', () => {
    const registry = new HighlightRegistry();
    registry.set(h('one', 'a.ts'));
    registry.set(h('two', 'a.ts', 5));
    registry.set(h('other', 'b.ts'));
    expect(registry.clearPath('a.ts')).toEqual(['one', 'two']);
    expect(registry.list().map((x) => x.highlightId)).toEqual(['other']);
    expect(registry.clearPath(undefined)).toEqual([]);
  });

  it('answers whether an ID existed when removing it, and hands out copies', () => {
    const registry = new HighlightRegistry();
    registry.set(h('x', 'a.ts'));
    registry.list()[0]!.ranges[0]!.startLine = 99;
    expect(registry.list()[0]!.ranges[0]!.startLine).toBe(1);
    expect(registry.remove('x')).toBe(true);
    expect(registry.remove('x')).toBe(false);
  });
});
