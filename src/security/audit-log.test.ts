import { Volume, createFsFromVolume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { NdjsonAuditLog, type AuditEntry } from './audit-log.js';

const FILE = '/ws/.openspace/audit.ndjson';
const write = (path: string): AuditEntry => ({
  type: 'write',
  time: '2026-12-01T00:00:00.000Z',
  path,
  version: 'v',
  bytes: 1,
  sha256: 's',
  tool: 't',
});

function logOnVolume() {
  const fs = createFsFromVolume(new Volume());
  const appends: string[] = [];
  const promises = fs.promises as unknown as {
    mkdir: (p: string, o: { recursive: true }) => Promise<unknown>;
    appendFile: (p: string, d: string) => Promise<void>;
  };
  const log = new NdjsonAuditLog(
    {
      mkdir: (p, o) => promises.mkdir(p, o),
      appendFile: (p, d) => (appends.push(d), promises.appendFile(p, d)),
    },
    FILE,
  );
  const lines = () => (fs.existsSync(FILE) ? String(fs.readFileSync(FILE, 'utf8')) : '').split('\n').filter(Boolean);
  return { log, lines, appends };
}

describe('the audit log', () => {
  it("appends one turn's lines together once the turn is over, in the order recorded", async () => {
    const { log, lines, appends } = logOnVolume();
    log.record(write('a.txt'));
    log.record(write('b.txt'));
    expect(appends).toEqual([]); // the caller's turn goes on unhindered
    await new Promise((resolve) => setImmediate(resolve));
    log.record(write('c.txt'));
    await log.flush();
    expect(lines().map((l) => (JSON.parse(l) as { path: string }).path)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(appends).toHaveLength(2);
  });

  it('goes on after an append that failed, and says so once', async () => {
    let fail = true;
    const written: string[] = [];
    const log = new NdjsonAuditLog(
      {
        mkdir: async () => undefined,
        appendFile: async (_p, d) => {
          if (fail) throw new Error('disk full');
          written.push(d);
        },
      },
      FILE,
    );
    const stderr: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      log.record(write('lost.txt'));
      await log.flush();
      fail = false;
      log.record(write('kept.txt'));
      await log.flush();
    } finally {
      process.stderr.write = original;
    }
    expect(written.join('')).toContain('kept.txt');
    expect(stderr.filter((s) => s.includes('disk full'))).toHaveLength(1);
  });
});
