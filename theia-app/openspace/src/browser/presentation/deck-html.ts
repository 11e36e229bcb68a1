/**
 * A deck's slides as the HTML reveal.js shows: each slide's markdown rendered with markdown-it (the
 * renderer Theia itself uses), its speaker notes in `<aside class="notes">`, and everything passed
 * through DOMPurify, since a deck is a workspace file anyone (an agent too) may have written. Slide
 * boundaries come from the shared deck model, so both IDEs count slides alike. No Theia widgets here.
 */
// The packages Theia itself renders markdown with (imported by name, so the unit tests, run before
// theia-app is installed, find them among the root's dev dependencies).
import markdownit from 'markdown-it';
import DOMPurify from 'dompurify';
import { parseDeck, slides, type DeckOptions } from '../../../../../src/browser.js';

const markdown = markdownit({ html: true, linkify: true });

export interface RenderedDeck {
  options: DeckOptions;
  /** The inner HTML of each slide's `<section>`. */
  sections: string[];
}

export function renderDeck(text: string): RenderedDeck {
  const deck = parseDeck(text);
  const sections = slides(deck).map((slide) => {
    const notes = slide.notes ? `<aside class="notes">${markdown.render(slide.notes)}</aside>` : '';
    return DOMPurify.sanitize(markdown.render(slide.body) + notes);
  });
  return { options: deck.options, sections };
}
