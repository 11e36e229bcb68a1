// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderDeck } from './deck-html.js';

function sections(text: string): HTMLElement[] {
  return renderDeck(text).sections.map((html) => {
    const section = document.createElement('section');
    section.innerHTML = html;
    return section;
  });
}

describe("a deck's slides as HTML", () => {
  it('renders one section per slide of the shared model, markdown as HTML, notes in an aside', () => {
    const [title, list, code] = sections(
      '---\ntitle: T\ntheme: moon\n---\n\n# Hello *world*\n\nNote:\nSay **hi**.\n\n---\n\n## List\n\n- one\n- two\n\n---\n\n```ts\n---\nconst a = 1;\n```\n',
    );
    expect(title!.querySelector('h1')!.innerHTML).toBe('Hello <em>world</em>');
    expect(title!.querySelector('aside.notes strong')!.textContent).toBe('hi');
    expect([...list!.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(code!.querySelector('pre code')!.textContent).toBe('---\nconst a = 1;\n');
    expect(renderDeck('---\ntheme: moon\n---\n# A').options.theme).toBe('moon');
  });

  it('keeps HTML a slide may hold but drops scripts and event handlers: a deck cannot run code in the IDE', () => {
    const [slide] = sections(
      '# Safe\n\n<div class="cols"><b>bold</b></div>\n<script>window.pwned = 1</script>\n<img src="x.png" onerror="window.pwned = 2">\n[link](javascript:alert(1))',
    );
    expect(slide!.querySelector('div.cols b')!.textContent).toBe('bold');
    expect(slide!.querySelector('script')).toBeNull();
    expect(slide!.querySelector('img')!.getAttribute('onerror')).toBeNull();
    expect([...slide!.querySelectorAll('[href]')].map((a) => a.getAttribute('href'))).not.toContainEqual(
      expect.stringMatching(/^javascript:/),
    );
  });

  it('renders an empty deck as one empty slide', () => {
    expect(renderDeck('').sections).toEqual(['']);
  });
});
