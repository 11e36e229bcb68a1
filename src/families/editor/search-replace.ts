/**
 * openspace.search.replace (issue 30): the files openspace.file.search finds, with every match
 * replaced, proposed as one change set (review.ts): nothing is written until the person accepts.
 * Matching is JavaScript's (a literal query is escaped); the search that picks the files is the
 * workspace's, so its ignore and sensitive-file rules hold.
 */
import { ToolError } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';
import { guardUnsavedWork } from '../file/commands.js';
import { searchReplace } from './tools.js';
import { proposedFile, proposeFiles, type ProposedFile } from './review.js';

/** The most matches a search may find for one replace; past it the person could not review them anyway. */
const MAX_MATCHES = 10_000;

function patternOf(query: string, isRegex: boolean, caseSensitive: boolean): RegExp {
  const flags = `g${caseSensitive ? '' : 'i'}${isRegex ? 'mu' : ''}`;
  try {
    return new RegExp(isRegex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  } catch (err) {
    throw new ToolError('INVALID_ARGUMENT', `query is not a regular expression: ${(err as Error).message}`, { fields: ['query'] });
  }
}

export const searchReplaceCommand = defineCommand(searchReplace, async (ide, args, context) => {
  const isRegex = args.isRegex ?? false;
  const pattern = patternOf(args.query, isRegex, args.caseSensitive ?? false);
  const path = args.path === undefined ? '' : await ide.workspace.resolve(args.path);
  const found = await ide.workspace.search({
    query: args.query,
    path,
    includePattern: args.includePattern,
    excludePattern: args.excludePattern,
    isRegex,
    caseSensitive: args.caseSensitive ?? false,
    maxResults: MAX_MATCHES,
  });
  if (found.truncated) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `More than ${MAX_MATCHES} matches; narrow the replace with path, includePattern or excludePattern.`,
      { fields: ['query', 'path', 'includePattern'] },
    );
  }
  const files: ProposedFile[] = [];
  let matches = 0;
  for (const file of [...new Set(found.matches.map((m) => m.path))]) {
    const { text, version } = await ide.workspace.readText(file);
    // A literal replacement is taken as it is; a regular expression's may name its groups ($1).
    const replaced = isRegex ? text.replace(pattern, args.replacement) : text.replace(pattern, () => args.replacement);
    if (replaced === text) continue;
    await guardUnsavedWork(ide, file, false, searchReplace.name);
    matches += text.match(pattern)?.length ?? 0;
    files.push(proposedFile(file, text, replaced, version));
  }
  if (files.length === 0) {
    throw new ToolError(
      'NO_MATCHES',
      `Nothing in the workspace${path ? ` under ${path}` : ''} matches ${JSON.stringify(args.query)}; nothing was proposed.`,
    );
  }
  const title =
    args.title ??
    `Replace ${JSON.stringify(args.query)} with ${JSON.stringify(args.replacement)} (${matches} matches in ${files.length} files)`;
  const answer = await proposeFiles(ide, files, { proposalId: args.proposalId, title, timeoutMs: args.timeoutMs }, context);
  return { ...answer, matches };
});

export default [searchReplaceCommand];
