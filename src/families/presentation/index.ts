import { defineFamily } from '../family.js';
import { fixed, num, onFile, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

const deck = (verb: string) => onFile(verb, { before: 'the presentation', key: 'deckPath' });

export default defineFamily({
  name: 'presentation',
  summaries: { presentation: 'reveal.js decks: create, update, open, navigate, play' },
  tools,
  commands,
  phrases: {
    'openspace.presentation.list': fixed('list', 'the presentations'),
    'openspace.presentation.read': deck('read'),
    'openspace.presentation.create': deck('create'),
    'openspace.presentation.update_slide': (input) => ({
      ...onFile('update', { key: 'deckPath' })(input),
      rest: `slide ${(num(input, 'slideIndex') ?? 0) + 1} of ${str(input, 'deckPath') ?? 'a presentation'}`,
    }),
    'openspace.presentation.open': deck('open'),
    'openspace.presentation.navigate': (input) => ({
      verb: 'go',
      rest: num(input, 'slideIndex') === undefined ? 'to a slide' : `to slide ${num(input, 'slideIndex')! + 1}`,
    }),
    'openspace.presentation.play': fixed('play', 'a presentation'),
    'openspace.presentation.pause': fixed('pause', 'a presentation'),
    'openspace.presentation.stop': fixed('stop', 'a presentation'),
  },
});
