import { describe, expect, it } from 'vitest';
import { parseLimit, slugify } from '../src/utils.js';

describe('slugify', () => {
  it('joins words with dashes', () => {
    expect(slugify('Write the docs!')).toBe('write-the-docs');
  });

  it('keeps accented letters readable', () => {
    expect(slugify('Café crème')).toBe('cafe-creme');
  });
});

describe('parseLimit', () => {
  it('clamps to 1..100 and falls back on nonsense', () => {
    expect(parseLimit('500')).toBe(100);
    expect(parseLimit('abc')).toBe(20);
  });
});
