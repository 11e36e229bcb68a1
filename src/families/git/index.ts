import { defineFamily } from '../family.js';
import { fixed, quoted, str, type Describe, type PhraseInput } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';
export * from './summary.js';

/** "stage src/a.ts and 2 hunks" */
const what = (input: PhraseInput): string => {
  const paths = Array.isArray(input.paths) ? input.paths.filter((p): p is string => typeof p === 'string') : [];
  const hunks = Array.isArray(input.hunks) ? input.hunks.length : 0;
  const parts = [
    paths.length === 1 ? paths[0]! : paths.length > 1 ? `${paths.length} files` : '',
    hunks ? `${hunks} hunk${hunks === 1 ? '' : 's'}` : '',
  ];
  return parts.filter(Boolean).join(' and ') || 'changes';
};
const onTarget =
  (verb: string): Describe =>
  (input) => {
    const paths = Array.isArray(input.paths) ? input.paths : [];
    return { verb, rest: what(input), ...(paths.length === 1 && typeof paths[0] === 'string' ? { path: paths[0] } : {}) };
  };

export default defineFamily({
  name: 'git',
  summaries: { git: 'status, hunks, stage, commit with your yes, log, branches, worktrees' },
  tools,
  commands,
  phrases: {
    'openspace.git.status': fixed('check', 'the git status'),
    'openspace.git.diff': (input) => ({
      verb: 'diff',
      rest: `${input.staged === true ? 'the staged changes' : str(input, 'ref') ? `against ${str(input, 'ref')}` : 'the changes'}${str(input, 'path') ? ` in ${str(input, 'path')}` : ''}`,
      path: str(input, 'path'),
    }),
    'openspace.git.stage': onTarget('stage'),
    'openspace.git.unstage': onTarget('unstage'),
    'openspace.git.discard': onTarget('discard'),
    'openspace.git.commit': (input) => ({ verb: 'commit', rest: quoted(str(input, 'message')?.split('\n')[0]) || 'the staged changes' }),
    'openspace.git.log': (input) => ({
      verb: 'read',
      rest: `the git log${str(input, 'path') ? ` of ${str(input, 'path')}` : ''}`,
      path: str(input, 'path'),
    }),
    'openspace.git.branches': fixed('list', 'the git branches'),
    'openspace.git.worktrees': fixed('list', 'the git worktrees'),
  },
  preferences: [
    {
      use: 'openspace.git.status, diff, stage and commit',
      insteadOf: 'git in the terminal',
      why: 'hunks come with IDs to stage one by one, and the person confirms a commit seeing what it holds',
    },
  ],
});
