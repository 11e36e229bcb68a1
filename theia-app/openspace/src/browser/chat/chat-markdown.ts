/**
 * An assistant's text as HTML for the chat panel. markdown-it with raw HTML off, so what the model
 * writes cannot become markup; on top of it: code blocks carry Copy and Open buttons (found by the
 * panel's one click handler through `data-code-index`), inline code naming a workspace file becomes a
 * file reference the panel opens, links open outside the IDE, and images stay links (a remote image
 * would load, and could carry data out, the moment the text is shown).
 */
import MarkdownIt from 'markdown-it';

export interface CodeBlock {
  lang: string;
  code: string;
}

export interface FileReference {
  path: string;
  line?: number;
}

const md = new MarkdownIt({ html: false, linkify: true });
// Only links with a scheme: fuzzy linking would make `notes.md` or `setup.py` a web address.
md.linkify.set({ fuzzyLink: false });
const escapeHtml = md.utils.escapeHtml;

/** Extensions that make a bare name (no folder) a file, e.g. `package.json`; `console.log` is not one. */
const FILE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc md mdx markdown txt rst py pyi rs go java kt kts scala c h cc cpp cxx hpp hh cs fs ' +
    'rb php swift m mm dart lua pl r jl ex exs erl hs ml elm clj vue svelte astro css scss sass less html htm xml svg yaml yml toml ' +
    'ini cfg conf properties env lock sh bash zsh fish ps1 bat cmd sql graphql gql proto gradle tf csv tsv ipynb excalidraw'
  ).split(' '),
);

/** `src/auth.ts`, `./x/y.md`, `a.ts:3`, `src/a.ts:3-7`, `a.ts:3:5`; a path with an extension and an optional line. */
const FILE_REFERENCE = /^((?:\.{1,2}\/|\/)?(?:[\w@+-][\w@.+-]*\/)*[\w@+-][\w@.+-]*\.([A-Za-z][\w]*))(?::(\d+)(?:[-:]\d+)?)?$/;

/** The file an inline code span names, if it names one. */
export function fileReference(code: string): FileReference | undefined {
  const match = FILE_REFERENCE.exec(code.trim());
  if (!match) return undefined;
  const [, path, extension, line] = match;
  if (!path!.includes('/') && !FILE_EXTENSIONS.has(extension!.toLowerCase())) return undefined;
  return line === undefined ? { path: path! } : { path: path!, line: Number(line) };
}

const isCode = (type: string) => type === 'fence' || type === 'code_block';
const language = (info: string) => info.trim().split(/\s+/)[0] ?? '';

md.renderer.rules.fence = md.renderer.rules.code_block = (tokens, idx) => {
  const token = tokens[idx]!;
  const index = tokens.slice(0, idx).filter((t) => isCode(t.type)).length;
  const lang = token.type === 'fence' ? language(token.info) : '';
  const langClass = lang ? ` class="language-${escapeHtml(lang)}"` : '';
  return (
    `<div class="os-chat-code" data-code-index="${index}">` +
    `<div class="os-chat-code-header"><span class="os-chat-code-lang">${escapeHtml(lang)}</span>` +
    `<button type="button" data-action="copy" title="Copy the code">Copy</button>` +
    `<button type="button" data-action="open" title="Open the code in a new editor">Open</button></div>` +
    `<pre><code${langClass}>${escapeHtml(token.content)}</code></pre></div>\n`
  );
};

md.renderer.rules.code_inline = (tokens, idx) => {
  const code = tokens[idx]!.content;
  const inline = `<code>${escapeHtml(code)}</code>`;
  const ref = fileReference(code);
  if (!ref) return inline;
  const line = ref.line === undefined ? '' : ` data-line="${ref.line}"`;
  const title = `Open ${ref.path}${ref.line === undefined ? '' : ` at line ${ref.line}`}`;
  return `<a class="os-file-ref" href="#" data-path="${escapeHtml(ref.path)}"${line} title="${escapeHtml(title)}">${inline}</a>`;
};

/** A link without a scheme to a file (`[the parser](src/parse.ts#L12)`) opens the file in the IDE. */
function linkedFile(href: string): FileReference | undefined {
  if (/^(?:[a-z][a-z\d+.-]*:|\/\/|#)/i.test(href)) return undefined;
  const [, path, line] = /^([^#?]*)(?:#L(\d+))?/.exec(href) ?? [];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path ?? '');
  } catch {
    return undefined;
  }
  const ref = fileReference(decoded);
  return ref && line ? { path: ref.path, line: Number(line) } : ref;
}

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  const ref = linkedFile(token.attrGet('href') ?? '');
  if (ref) {
    token.attrSet('href', '#');
    token.attrSet('class', 'os-file-ref');
    token.attrSet('data-path', ref.path);
    if (ref.line !== undefined) token.attrSet('data-line', String(ref.line));
  } else {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx]!;
  const alt = escapeHtml(token.content || 'image');
  const src = token.attrGet('src') ?? '';
  return `<a href="${escapeHtml(src)}" target="_blank" rel="noopener noreferrer" class="os-chat-image">${alt}</a>`;
};

/** Markdown as HTML; text that ends inside a fence (it is still streaming) shows as an open code block. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** The text's code blocks, in the order of their `data-code-index`. */
export function codeBlocks(text: string): CodeBlock[] {
  return md
    .parse(text, {})
    .filter((t) => isCode(t.type))
    .map((t) => ({ lang: t.type === 'fence' ? language(t.info) : '', code: t.content }));
}
