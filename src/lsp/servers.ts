/** Language servers a person adds by configuration: "py,pyi=pyright-langserver --stdio". */
import { basename } from 'node:path';
import type { LanguageServerConfig } from './language-server.js';

/** LSP language IDs of common file endings (an ending not listed is its own ID). */
const LANGUAGE_IDS: Record<string, string> = {
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.kt': 'kotlin',
  '.rb': 'ruby',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.php': 'php',
  '.swift': 'swift',
  '.lua': 'lua',
  '.sh': 'shellscript',
  '.md': 'markdown',
};

/**
 * Parse `ENDINGS=COMMAND`: file endings separated by commas (with or without the dot), then the
 * command that starts the server speaking LSP on stdio, its words separated by spaces.
 */
export function parseLanguageServer(spec: string): LanguageServerConfig {
  const eq = spec.indexOf('=');
  const command = spec
    .slice(eq + 1)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const extensions = spec
    .slice(0, Math.max(eq, 0))
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => (e.startsWith('.') ? e : `.${e}`));
  if (eq < 1 || extensions.length === 0 || command.length === 0) {
    throw new Error(`a language server is ENDINGS=COMMAND, e.g. "py,pyi=pyright-langserver --stdio", not "${spec}"`);
  }
  return {
    name: basename(command[0]!),
    command,
    extensions,
    languageIds: Object.fromEntries(extensions.map((e) => [e, LANGUAGE_IDS[e] ?? e.slice(1)])),
  };
}

export function describeServers(servers: LanguageServerConfig[]): string {
  return servers.map((s) => `${s.name} (${s.extensions.join(' ')})`).join(', ');
}

/** How Theia's launcher hands configured servers to its backend: JSON of their configurations. */
export const LANGUAGE_SERVERS_ENV = 'OPENSPACE_LANGUAGE_SERVERS';
/** How long a code call waits for a starting server there (tests shorten it). */
export const READY_WAIT_ENV = 'OPENSPACE_LSP_READY_WAIT_MS';

/** The servers configured beside TypeScript's, from the environment (a launcher wrote it: an invalid value is a bug, and fails loudly). */
export function configuredServers(env: NodeJS.ProcessEnv = process.env): LanguageServerConfig[] {
  const json = env[LANGUAGE_SERVERS_ENV];
  if (!json) return [];
  const servers = JSON.parse(json) as LanguageServerConfig[];
  if (!Array.isArray(servers) || servers.some((s) => !Array.isArray(s.command) || !Array.isArray(s.extensions))) {
    throw new Error(`${LANGUAGE_SERVERS_ENV} must be a JSON array of language server configurations, not ${json}`);
  }
  return servers;
}
