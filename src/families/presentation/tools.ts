import { z } from 'zod';
import { Version } from '../file/tools.js';
import { defineTool } from '../../contract/tool.js';

/** Content that is shown in a tab and closed when the session that opened it ends. */
const opensTab = (r: { opened: boolean; deckPath: string }) => (r.opened ? [{ kind: 'tab' as const, id: r.deckPath }] : []);

/** A deck is a file whose name ends so. */
export const DECK_SUFFIX = '.deck.md';
/** The reveal.js themes a deck may name. */
export const DECK_THEMES = [
  'black',
  'white',
  'league',
  'beige',
  'night',
  'serif',
  'simple',
  'solarized',
  'moon',
  'dracula',
  'sky',
  'blood',
] as const;
/** How long each slide shows while a deck plays, unless play says. */
export const DEFAULT_INTERVAL_MS = 5000;

export const DeckPath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\u0000]*\.deck\.md$/, 'must be the path of a .deck.md file')
  .describe('Workspace-relative path of a .deck.md file, e.g. "docs/arch.deck.md"');

const SlideIndex = z.number().int().min(0).max(9999).describe('Slide number counting from 0 (the first slide is 0)');
const SlideContent = z
  .string()
  .max(200_000)
  .describe('The slide as markdown, e.g. "## Title\\n\\n- point". Speaker notes go after a line "Note:". No line of only "---"');
const Playback = z.enum(['playing', 'paused', 'stopped']);
const IntervalMs = z.number().int().min(500).max(600_000).describe('Time on each slide while playing, ms (default 5000)');

export const MAX_SLIDES = 500;

/** Where an open deck is, for the answers of the tools that show it. */
const ViewState = {
  slideCount: z.number().int(),
  slideIndex: z.number().int().describe('The slide shown, from 0'),
  slideTitle: z.string().describe("The shown slide's first heading"),
  playback: Playback,
  intervalMs: z.number().int(),
  paneId: z.string(),
};

/** The answer of a tool that shows a deck: where it is, and whether this call opened its tab. */
const Shown = z.object({ deckPath: z.string(), opened: z.boolean().describe('true when this call opened a new tab'), ...ViewState });
const Playing = z.object({ deckPath: z.string(), ...ViewState });

export const presentationList = defineTool({
  name: 'openspace.presentation.list',
  title: 'List Presentations',
  description: 'List the slide decks (.deck.md files) in the workspace with their titles and slide counts, and which are open.',
  input: z.strictObject({}),
  output: z.object({
    decks: z.array(
      z.object({
        deckPath: z.string(),
        title: z.string(),
        slideCount: z.number().int(),
        open: z.boolean(),
        slideIndex: z.number().int().optional().describe('The slide shown, when open'),
      }),
    ),
    truncated: z.boolean().describe('True when the workspace has more files than one listing covers'),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const presentationRead = defineTool({
  name: 'openspace.presentation.read',
  title: 'Read Presentation',
  description:
    "Read a deck: its options, every slide's markdown, title and speaker notes, its version (pass it to update_slide as baseVersion), " +
    'and, when it is open, the slide shown and the playback state.',
  input: z.strictObject({ deckPath: DeckPath }),
  output: z.object({
    deckPath: z.string(),
    title: z.string(),
    theme: z.string().optional(),
    options: z.record(z.string(), z.unknown()).describe('The front matter'),
    slideCount: z.number().int(),
    slides: z.array(z.object({ index: z.number().int(), title: z.string(), content: z.string(), notes: z.string() })),
    version: Version,
    open: z.boolean(),
    slideIndex: z.number().int().optional(),
    slideTitle: z.string().optional(),
    playback: Playback.optional(),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const presentationCreate = defineTool({
  name: 'openspace.presentation.create',
  title: 'Create Presentation',
  description:
    'Create a slide deck (.deck.md: YAML front matter, slides separated by "---" lines, speaker notes after "Note:"). ' +
    'Without slides it starts from a 4-slide template. Fails with ALREADY_EXISTS rather than overwrite a file. ' +
    'Show it with openspace.presentation.open.',
  input: z.strictObject({
    deckPath: DeckPath,
    title: z.string().min(1).max(200),
    slides: z.array(SlideContent).max(MAX_SLIDES).optional().describe('Each slide as markdown, in order'),
    theme: z.enum(DECK_THEMES).optional().describe('reveal.js theme (default "black")'),
  }),
  output: z.object({ deckPath: z.string(), slideCount: z.number().int(), version: Version }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export const presentationUpdateSlide = defineTool({
  name: 'openspace.presentation.update_slide',
  title: 'Update Slide',
  description:
    'Replace one slide of a deck with new markdown; every other byte of the file stays as it was, and an open view shows the change at once. ' +
    'With baseVersion (from read), only if the deck has not changed since (else CONFLICT with currentVersion). ' +
    'DIRTY_BUFFER when a person has the deck open as text with unsaved changes, unless force:true (which discards them).',
  input: z.strictObject({
    deckPath: DeckPath,
    slideIndex: SlideIndex,
    content: SlideContent,
    baseVersion: Version.optional(),
    force: z.boolean().optional().describe("Discard a person's unsaved changes to the deck's text. Default false"),
  }),
  output: z.object({ deckPath: z.string(), slideIndex: z.number().int(), slideCount: z.number().int(), version: Version }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export const presentationOpen = defineTool({
  name: 'openspace.presentation.open',
  title: 'Open Presentation',
  description:
    'Show a deck as slides in a tab (or reveal its open tab), at slideIndex if given (from 0). ' +
    'Place it beside the code with splitDirection "vertical". Answers the slide shown, the slide count and the playback state.',
  input: z.strictObject({
    deckPath: DeckPath,
    slideIndex: SlideIndex.optional(),
    targetPaneId: z.string().min(1).optional().describe('Pane to open in or split; defaults to the active pane of the main area'),
    splitDirection: z.enum(['horizontal', 'vertical']).optional().describe('"vertical": new pane to the right; "horizontal": below'),
  }),
  output: Shown,
  budget: 'simple',
  effect: 'write',
  session: { creates: opensTab },
});

export const presentationNavigate = defineTool({
  name: 'openspace.presentation.navigate',
  title: 'Go to Slide',
  description: 'Show a slide of a deck (from 0), opening the deck if no tab shows it. SLIDE_NOT_FOUND names the slide count.',
  input: z.strictObject({ deckPath: DeckPath, slideIndex: SlideIndex }),
  output: Shown,
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: { creates: opensTab },
});

export const presentationPlay = defineTool({
  name: 'openspace.presentation.play',
  title: 'Play Presentation',
  description:
    'Play a deck: it advances one slide every intervalMs by itself and stops on the last slide. Opens the deck if no tab shows it. ' +
    'Pause with openspace.presentation.pause; stop (back to the first slide) with openspace.presentation.stop.',
  input: z.strictObject({ deckPath: DeckPath, intervalMs: IntervalMs.optional() }),
  output: Shown,
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: { creates: opensTab },
});

export const presentationPause = defineTool({
  name: 'openspace.presentation.pause',
  title: 'Pause Presentation',
  description: 'Pause a playing deck on the slide it shows. PANE_NOT_FOUND when no tab shows the deck.',
  input: z.strictObject({ deckPath: DeckPath }),
  output: Playing,
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const presentationStop = defineTool({
  name: 'openspace.presentation.stop',
  title: 'Stop Presentation',
  description: 'Stop a deck playing and show its first slide again. PANE_NOT_FOUND when no tab shows the deck.',
  input: z.strictObject({ deckPath: DeckPath }),
  output: Playing,
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export default [
  presentationList,
  presentationRead,
  presentationCreate,
  presentationUpdateSlide,
  presentationOpen,
  presentationNavigate,
  presentationPlay,
  presentationPause,
  presentationStop,
];
