import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AllowedCommands } from './allowed-commands.js';

describe("the simulated IDE's always-allow rules", () => {
  it('are kept in the user-level file, readable by the person only, and read again each time', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'allowed-')), '.openspace', 'allowed-commands.json');
    const rules = new AllowedCommands('/work/project', file);
    expect(rules.rules()).toEqual([]);
    rules.remember('npm run build');
    rules.remember('npm run build');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['npm run build (in /work/project)']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new AllowedCommands('/work/other', file).rules()).toEqual([]);
    // The person removes it by hand: asked again.
    writeFileSync(file, '[]');
    expect(rules.rules()).toEqual([]);
  });

  it('a file that is not a list of rules allows nothing, and says so', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'allowed-')), 'allowed-commands.json');
    writeFileSync(file, '{"npm run build": true}');
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(new AllowedCommands('/w', file).rules()).toEqual([]);
      expect(String(warn.mock.calls[0]?.[0])).toContain('not a JSON array');
    } finally {
      warn.mockRestore();
    }
  });
});
