/**
 * The known-safe figures (issue 17), run by `npm run bench` (and alone:
 * `node --import tsx ci/bench-commands.ts`): how many lines of the dangerous corpus ask (all must:
 * dangerous-commands.txt, which the danger check flags, and must-ask-commands.txt, which it does not),
 * how many everyday commands ask before any rule is remembered (at most 10%), and, for reference,
 * how many of the denylist's benign corpus ask. Prints the commands that ask and writes
 * reports/bench-commands.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assessCommand } from '../src/security/known-safe/index.js';

const CWD = '/home/dev/project';

function corpus(name: string): string[] {
  const text = readFileSync(new URL(`../src/security/corpus/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# ') && l !== '#')
    .map((l) => l.replaceAll('\u2424', '\n'));
}

interface Figure {
  total: number;
  asking: string[];
}

function figure(commands: string[]): Figure {
  return { total: commands.length, asking: commands.filter((c) => assessCommand(c, { cwd: CWD }).ask) };
}

const percent = (f: Figure): string => `${((f.asking.length / f.total) * 100).toFixed(1)}%`;

export function benchCommands(): { dangerous: Figure; everyday: Figure; benign: Figure } {
  const flagged = corpus('dangerous-commands.txt');
  const dangerous = figure([...flagged, ...corpus('must-ask-commands.txt')].map((l) => l.replace(/^\S+\s+/, '')));
  const everyday = figure(corpus('everyday-commands.txt'));
  const benign = figure(corpus('benign-commands.txt'));
  const passing = dangerous.total - dangerous.asking.length;
  console.log(
    `\nKnown-safe commands: dangerous corpus: ${dangerous.asking.length}/${dangerous.total} ask (${flagged.length} lines the danger check flags, ${dangerous.total - flagged.length} it does not); everyday corpus: ${everyday.asking.length}/${everyday.total} ask (${percent(everyday)}); denylist's benign corpus: ${benign.asking.length}/${benign.total} ask (${percent(benign)}, near misses included)`,
  );
  if (passing) console.log(`  ${passing} dangerous lines do NOT ask`);
  console.log(`Everyday commands that ask:\n  ${everyday.asking.join('\n  ')}`);
  mkdirSync(fileURLToPath(new URL('../reports', import.meta.url)), { recursive: true });
  const result = { dangerous, everyday, benign };
  writeFileSync(fileURLToPath(new URL('../reports/bench-commands.json', import.meta.url)), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchCommands();
