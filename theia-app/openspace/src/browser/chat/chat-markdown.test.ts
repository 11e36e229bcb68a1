import { describe, expect, it } from 'vitest';
import { codeBlocks, fileReference, renderMarkdown } from './chat-markdown.js';

describe("an answer's markdown as the chat panel shows it", () => {
  it('renders the markdown of a text part', () => {
    expect(renderMarkdown('Opened **a.ts** at line 2.')).toBe('<p>Opened <strong>a.ts</strong> at line 2.</p>\n');
  });

  it.each([
    ['src/auth.ts', { path: 'src/auth.ts' }],
    ['src/auth.ts:42', { path: 'src/auth.ts', line: 42 }],
    ['a.ts:3', { path: 'a.ts', line: 3 }],
    ['src/a.ts:3-7', { path: 'src/a.ts', line: 3 }],
    ['./x/y.md', { path: './x/y.md' }],
    ['package.json', { path: 'package.json' }],
    ['/work/app/src/x.py', { path: '/work/app/src/x.py' }],
  ])('makes the inline code `%s` a file reference', (code, ref) => {
    expect(fileReference(code)).toEqual(ref);
    const html = renderMarkdown(`see \`${code}\``);
    const line = 'line' in ref ? ` data-line="${ref.line}"` : '';
    expect(html).toContain(`<a class="os-file-ref" href="#" data-path="${ref.path}"${line}`);
    expect(html).toContain(`<code>${code}</code></a>`);
  });

  it.each(['npm test', 'foo()', 'console.log', 'obj.method', 'v1.2', 'https://example.com/a.ts', 'a.ts; rm -rf /', '--flag=a.ts'])(
    'leaves the inline code `%s` as code',
    (code) => {
      expect(fileReference(code)).toBeUndefined();
      expect(renderMarkdown(`\`${code}\``)).not.toContain('os-file-ref');
    },
  );

  it('gives a fenced block its language, Copy and Open buttons, escaped code and its index', () => {
    const text = 'Two blocks:\n\n```ts\nconst ok = 1 < 2 && "<b>";\n```\n\n```\nplain\n```\n';
    const html = renderMarkdown(text);
    expect(html).toContain(
      '<div class="os-chat-code" data-code-index="0"><div class="os-chat-code-header"><span class="os-chat-code-lang">ts</span>',
    );
    expect(html).toContain('<button type="button" data-action="copy" title="Copy the code">Copy</button>');
    expect(html).toContain('<button type="button" data-action="open" title="Open the code in a new editor">Open</button>');
    expect(html).toContain('<code class="language-ts">const ok = 1 &lt; 2 &amp;&amp; &quot;&lt;b&gt;&quot;;\n</code>');
    expect(html).toContain('data-code-index="1"');
    expect(codeBlocks(text)).toEqual([
      { lang: 'ts', code: 'const ok = 1 < 2 && "<b>";\n' },
      { lang: '', code: 'plain\n' },
    ]);
  });

  it('shows a block still streaming (no closing fence yet) as an open code block', () => {
    const html = renderMarkdown('Here:\n\n```py\nprint(1)\npri');
    expect(html).toContain('<code class="language-py">print(1)\npri</code>');
    expect(codeBlocks('```py\nprint(1)\npri')).toEqual([{ lang: 'py', code: 'print(1)\npri' }]);
  });

  it('escapes raw HTML', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> there');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('opens links in a new tab, and leaves javascript: links dead', () => {
    expect(renderMarkdown('[docs](https://opencode.ai/docs)')).toContain(
      '<a href="https://opencode.ai/docs" target="_blank" rel="noopener noreferrer">docs</a>',
    );
    expect(renderMarkdown('see https://opencode.ai')).toContain('<a href="https://opencode.ai" target="_blank" rel="noopener noreferrer">');
    for (const evil of [
      '[x](javascript:alert(1))',
      '[x](JAVASCRIPT:alert(1))',
      '<javascript:alert(1)>',
      '[x](vbscript:msgbox)',
      '![x](javascript:alert(1))',
    ]) {
      expect(renderMarkdown(evil), evil).not.toMatch(/href="\s*(javascript|vbscript)|src=/i);
    }
  });

  it('turns a link to a workspace file into a file reference, and an image into a link', () => {
    expect(renderMarkdown('[the parser](src/parse.ts#L12)')).toContain(
      '<a href="#" class="os-file-ref" data-path="src/parse.ts" data-line="12">the parser</a>',
    );
    expect(renderMarkdown('![plot](https://example.com/p.png)')).toBe(
      '<p><a href="https://example.com/p.png" target="_blank" rel="noopener noreferrer" class="os-chat-image">plot</a></p>\n',
    );
  });

  it('does not make a web address of a file name in plain text', () => {
    expect(renderMarkdown('edit notes.md and setup.py')).toBe('<p>edit notes.md and setup.py</p>\n');
  });
});
