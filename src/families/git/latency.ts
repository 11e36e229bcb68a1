/**
 * Latency workloads of the git tools (conformance/specs/latency.test.ts measures them; see
 * src/families/latency.ts), on the workspace made a repository. The latency run's person does not
 * ask before a commit or a discard (confirmations off): what is timed is the IDE's work, not theirs.
 */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const FILE = 'git-latency.txt';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  /** A change of two hunks in a committed file, unstaged. */
  const change = async (i: number) => {
    const lines = Array.from({ length: 40 }, (_, n) => `line ${n}`);
    lines[2] = `first ${i}`;
    lines[35] = `second ${i}`;
    await ok('openspace.file.write', { path: FILE, content: `${lines.join('\n')}\n` });
  };
  const firstHunk = async () => (await ok('openspace.git.diff', { path: FILE })).files[0].hunks[0].id as string;
  const needsRepository = { needs: 'repository' } as const;
  return {
    'openspace.git.status': {
      ...needsRepository,
      before: async () => {
        await ok('openspace.file.write', { path: FILE, content: `${Array.from({ length: 40 }, (_, n) => `line ${n}`).join('\n')}\n` });
        await ok('openspace.git.stage', { paths: [FILE] });
        await ok('openspace.git.commit', { message: 'The file the latency workloads change' });
        await change(0);
      },
      prepare: () => ({}),
    },
    'openspace.git.diff': { ...needsRepository, prepare: () => ({ path: FILE }) },
    'openspace.git.stage': {
      ...needsRepository,
      prepare: async () => ({ hunks: [await firstHunk()] }),
      cleanup: async () => void (await ok('openspace.git.unstage', { paths: [FILE] })),
    },
    'openspace.git.unstage': {
      ...needsRepository,
      prepare: async () => (await ok('openspace.git.stage', { paths: [FILE] }), { paths: [FILE] }),
    },
    'openspace.git.discard': {
      ...needsRepository,
      prepare: async (i) => (await change(i), { hunks: [await firstHunk()] }),
    },
    'openspace.git.commit': {
      ...needsRepository,
      prepare: async (i) => {
        await ok('openspace.file.write', { path: FILE, content: `commit ${i}\n` });
        await ok('openspace.git.stage', { paths: [FILE] });
        return { message: `latency ${i}` };
      },
    },
    'openspace.git.log': { ...needsRepository, prepare: () => ({ count: 20 }) },
    'openspace.git.branches': { ...needsRepository, prepare: () => ({}) },
    'openspace.git.worktrees': { ...needsRepository, prepare: () => ({}) },
  };
};

export default workloads;
