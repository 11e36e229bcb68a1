import { describeLatency, type RunReport } from './model.js';
import { headline, ms, toolRows, verdict } from './rows.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A short summary for people and PR comments: verdict, per-tool table, failures. */
export function renderMarkdown(report: RunReport): string {
  const { summary: s } = report;
  const lines = [
    `# ${report.title} — ${report.target}: ${verdict(report)}`,
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped of ${s.total}; ` +
      (report.latency.length ? `${report.latency.length - s.budgetBreaches}/${report.latency.length} latency budgets met; ` : '') +
      `${(report.durationMs / 1000).toFixed(1)} s (${report.startedAt}).`,
    '',
  ];
  const timed = report.latency.length > 0;
  lines.push(
    timed ? '| tool | pass | fail | skip | p50 ms | p95 | p99 | budget | |' : '| tool | pass | fail | skip | |',
    timed ? '|---|---:|---:|---:|---:|---:|---:|---:|---|' : '|---|---:|---:|---:|---|',
  );
  for (const row of toolRows(report)) {
    const l = row.latency;
    const ok = row.failed === 0 && (l?.withinBudget ?? true);
    const times = timed
      ? ` ${l ? ms(l.p50) : ''} | ${l ? ms(l.p95) : ''} | ${l ? ms(l.p99) : ''} | ${l ? `${l.budgetMs} (${l.budget})` : ''} |`
      : '';
    lines.push(`| ${cell(row.key)} | ${row.passed} | ${row.failed} | ${row.skipped} |${times} ${ok ? 'ok' : '**FAIL**'} |`);
  }
  const failures = report.tests.filter((t) => t.status === 'fail');
  const breaches = report.latency.filter((l) => !l.withinBudget);
  if (failures.length || breaches.length) {
    lines.push('', '## Failures', '');
    for (const t of failures) lines.push(`- **${cell(t.name)}**${t.file ? ` (${t.file})` : ''}: ${cell(headline(t.error))}`);
    for (const l of breaches) lines.push(`- **${l.tool}** over its ${l.budget} budget (${l.budgetMs} ms): ${describeLatency(l)}`);
  }
  const recovered = report.latency.filter((l) => l.firstAttempt && l.withinBudget);
  if (recovered.length) {
    lines.push(
      '',
      '## Measured twice',
      '',
      'The first measurement breached the budget; a second, with fresh samples, met it (a breach fails only when both do).',
      '',
    );
    for (const l of recovered) lines.push(`- **${l.tool}** (${l.budgetMs} ms): ${describeLatency(l)}`);
  }
  const skipped = report.tests.filter((t) => t.status === 'skip' && t.error);
  if (skipped.length) {
    lines.push('', '## Skipped', '');
    for (const t of skipped) lines.push(`- ${cell(t.name)}: ${cell(headline(t.error))}`);
  }
  if (report.meta && Object.keys(report.meta).length) {
    lines.push(
      '',
      Object.entries(report.meta)
        .map(([k, v]) => `${k}: ${v}`)
        .join(' · '),
    );
  }
  return lines.join('\n') + '\n';
}
