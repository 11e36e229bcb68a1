/**
 * The `.deck.md` presentation format (TECHSPEC §5.2.3): optional YAML front matter between `---`
 * lines, then slides separated by lines holding only `---` (outside code fences), speaker notes
 * after a `Note:` line. Parsing keeps every byte: serializing a parsed deck gives the text back, and
 * replacing one slide changes that slide's bytes only. Browser-safe (both IDEs render from it).
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export interface Slide {
  /** The slide's markdown as written, speaker notes included, without the blank lines around it. */
  content: string;
  /** The first heading's text, else the first non-empty line (markdown marks removed); "" for an empty slide. */
  title: string;
  /** The markdown before the `Note:` line. */
  body: string;
  /** The speaker notes after the `Note:` line, "" if none. */
  notes: string;
}

/** Options reveal.js takes from the front matter; anything else there is kept as written. */
export interface DeckOptions {
  title?: string;
  theme?: string;
  transition?: string;
  [key: string]: unknown;
}

interface Segment {
  /** Blank lines before the content. */
  lead: string;
  content: string;
  /** Blank lines (and the line break) after the content, up to the separator. */
  trail: string;
}

export interface Deck {
  /** The front matter block as written, both `---` lines included ("" when there is none). */
  frontMatter: string;
  options: DeckOptions;
  segments: Segment[];
  /** The separator lines between segments, line breaks included (segments.length - 1 of them). */
  separators: string[];
}

const SEPARATOR = /^---[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const NOTES = /^[ \t]*notes?:[ \t]*$/i;

/** Split into lines, each keeping its line break. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const bare = (line: string) => line.replace(/\r?\n$/, '');

function splitFrontMatter(text: string): { frontMatter: string; rest: string } {
  const all = lines(text);
  if (all[0] === undefined || !SEPARATOR.test(bare(all[0]))) return { frontMatter: '', rest: text };
  const end = all.findIndex((line, i) => i > 0 && (SEPARATOR.test(bare(line)) || /^\.\.\.[ \t]*$/.test(bare(line))));
  if (end < 0) return { frontMatter: '', rest: text };
  const frontMatter = all.slice(0, end + 1).join('');
  return { frontMatter, rest: text.slice(frontMatter.length) };
}

function readOptions(frontMatter: string): DeckOptions {
  if (!frontMatter) return {};
  const inner = lines(frontMatter).slice(1, -1).join('');
  try {
    const parsed: unknown = parseYaml(inner);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as DeckOptions) : {};
  } catch {
    return {};
  }
}

/** A segment's blank lines around its content; the trail keeps the line break before the next separator. */
function segment(raw: string): Segment {
  const trail = raw.match(/[ \t\r\n]*$/)![0];
  const rest = raw.slice(0, raw.length - trail.length);
  const lead = rest.match(/^(?:[ \t]*\r?\n)*/)![0];
  return { lead, content: rest.slice(lead.length), trail };
}

export function parseDeck(text: string): Deck {
  const { frontMatter, rest } = splitFrontMatter(text);
  const segments: Segment[] = [];
  const separators: string[] = [];
  let current = '';
  let fence: string | undefined;
  for (const line of lines(rest)) {
    const plain = bare(line);
    const marker = FENCE.exec(plain)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && plain.trim() === marker) fence = undefined;
    } else if (marker) {
      fence = marker;
    } else if (SEPARATOR.test(plain)) {
      segments.push(segment(current));
      separators.push(line);
      current = '';
      continue;
    }
    current += line;
  }
  segments.push(segment(current));
  return { frontMatter, options: readOptions(frontMatter), segments, separators };
}

export function serializeDeck(deck: Deck): string {
  let text = deck.frontMatter;
  deck.segments.forEach((s, i) => {
    text += s.lead + s.content + s.trail;
    if (i < deck.separators.length) text += deck.separators[i];
  });
  return text;
}

function plainText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]/g, '')
    .trim();
}

export function slideOf(content: string): Slide {
  const all = content.split(/\r?\n/);
  const noteLine = all.findIndex((line) => NOTES.test(line));
  const body = (noteLine < 0 ? all : all.slice(0, noteLine)).join('\n').trim();
  const notes =
    noteLine < 0
      ? ''
      : all
          .slice(noteLine + 1)
          .join('\n')
          .trim();
  const bodyLines = body.split('\n');
  const heading = bodyLines.find((line) => /^#{1,6}\s+\S/.test(line));
  const first = heading ?? bodyLines.find((line) => line.trim() !== '') ?? '';
  return { content, title: plainText(first.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, '')), body, notes };
}

export function slides(deck: Deck): Slide[] {
  return deck.segments.map((s) => slideOf(s.content));
}

/** Why a slide's new content cannot go into a deck as one slide, or undefined when it can. */
export function slideContentProblem(content: string): string | undefined {
  const parsed = parseDeck(content);
  if (parsed.frontMatter !== '' || parsed.segments.length > 1) {
    return 'content holds a line of only "---", which would start a new slide; one call updates one slide';
  }
  // A code fence left open would take the separators after the slide, and the slides after it, as code.
  if (parseDeck(`${content}\n---\n`).segments.length !== 2) {
    return 'content opens a code fence (``` or ~~~) it does not close, which would swallow the slides after it; close the fence';
  }
  return undefined;
}

/** The deck with slide `index` replaced; every other byte stays. The caller checked the index and the content. */
export function withSlide(deck: Deck, index: number, content: string): Deck {
  const trimmed = trimSlide(content);
  const segments = deck.segments.map((s, i) => {
    if (i !== index) return s;
    // An empty slide may sit on no line of its own ("---\n---\n", or a last "---" without a line
    // break): text put there gets one, or the separator beside it would join the text's line.
    const eol = deck.separators.some((sep) => sep.endsWith('\r\n')) ? '\r\n' : '\n';
    const before = deck.separators[i - 1];
    const lead = trimmed && before !== undefined && !before.endsWith('\n') && !s.lead.includes('\n') ? eol + s.lead : s.lead;
    const trail = trimmed && i < deck.separators.length && !s.trail.includes('\n') ? eol + s.trail : s.trail;
    return { lead, content: trimmed, trail };
  });
  return { ...deck, segments };
}

/** A slide's content as a deck keeps it: the blank lines before it and the white space after it belong to the deck. */
export function trimSlide(content: string): string {
  return content.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/[ \t\r\n]+$/, '');
}

/** A new deck's text: front matter with the title and theme, then the slides (a template when none are given). */
export function newDeck(title: string, slideContents: string[] | undefined, theme = 'black'): string {
  const contents = slideContents && slideContents.length > 0 ? slideContents : templateSlides(title);
  const front = `---\n${stringifyYaml({ title, theme })}---\n\n`;
  return front + contents.map((c) => c.trim()).join('\n\n---\n\n') + '\n';
}

function templateSlides(title: string): string[] {
  return [
    `# ${title}\n\nWhat this talk covers, in one sentence.\n\nNote:\nSpeaker notes go after a "Note:" line.`,
    '## Agenda\n\n- The problem\n- The approach\n- What comes next',
    '## The problem\n\nDescribe it here.',
    '## Summary\n\n- One\n- Two\n- Three',
  ];
}
