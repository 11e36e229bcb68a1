import { describeLatency, type LatencySeries, type RunReport, type TestResult } from './model.js';
import { groupKey, headline, ms, toolRows, verdict } from './rows.js';
import { xml as esc } from './junit.js';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d2330;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600;margin-left:8px}
.PASS{background:#1a7f37}.FAIL{background:#cf222e}
.muted{color:#59636e}.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0}
.card{background:#fff;border:1px solid #d1d9e0;border-radius:6px;padding:8px 14px;min-width:90px}
.card b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d1d9e0}
th,td{padding:5px 8px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
th{background:#f3f5f7;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.bad td{background:#fff1f0}.ok{color:#1a7f37;font-weight:600}.bad-t{color:#cf222e;font-weight:600}.skip-t{color:#9a6700}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid #eaeef2;padding:8px;margin:6px 0;max-height:260px;overflow:auto}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px}
.chart{background:#fff;border:1px solid #d1d9e0;border-radius:6px;padding:8px}
.chart.bad{border-color:#cf222e}.chart h3{font-size:13px;margin:0 0 4px}
details{margin:4px 0}summary{cursor:pointer}
`;

/** Log-scaled x axis from 0.1 ms to a bit past the budget or the slowest sample. */
function axis(series: LatencySeries, width: number) {
  const lo = Math.log10(0.1);
  const hi = Math.log10(Math.max(series.budgetMs * 1.5, series.max * 1.2, 1));
  const x = (v: number) => ((Math.log10(Math.max(v, 0.1)) - lo) / (hi - lo)) * width;
  const ticks = [0.1, 1, 10, 100, 1000, 10000, 100000].filter((t) => Math.log10(t) <= hi);
  return { x, ticks };
}

/** A histogram of the samples on a log axis, with p50/p95/p99 marks and the budget as a red line. */
export function latencyChart(series: LatencySeries): string {
  const W = 320;
  const H = 110;
  const left = 8;
  const plotH = 70;
  const { x, ticks } = axis(series, W - 2 * left);
  const bins = 40;
  const counts = new Array<number>(bins).fill(0);
  for (const s of series.samples) {
    const bin = Math.min(bins - 1, Math.max(0, Math.floor((x(s) / (W - 2 * left)) * bins)));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  const peak = Math.max(1, ...counts);
  const bw = (W - 2 * left) / bins;
  const bars = counts
    .map((c, i) =>
      c
        ? `<rect x="${(left + i * bw).toFixed(1)}" y="${(10 + plotH - (c / peak) * plotH).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${((c / peak) * plotH).toFixed(1)}" fill="#4f7cc8"><title>${c} sample(s)</title></rect>`
        : '',
    )
    .join('');
  const mark = (v: number, label: string, color: string, dy: number) =>
    `<line x1="${(left + x(v)).toFixed(1)}" x2="${(left + x(v)).toFixed(1)}" y1="8" y2="${10 + plotH}" stroke="${color}" stroke-width="1.5"/>` +
    `<text x="${(left + x(v) + 2).toFixed(1)}" y="${dy}" font-size="9" fill="${color}">${label}</text>`;
  const tickMarks = ticks
    .map((t) => {
      const at = left + x(t);
      const anchor = at < 20 ? 'start' : at > W - 20 ? 'end' : 'middle';
      return `<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${10 + plotH}" y2="${14 + plotH}" stroke="#59636e"/><text x="${(anchor === 'start' ? at - 2 : at).toFixed(1)}" y="${26 + plotH}" font-size="9" text-anchor="${anchor}" fill="#59636e">${t < 1 ? t : t.toLocaleString('en')} ms</text>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(series.tool)} latency">` +
    `<line x1="${left}" x2="${W - left}" y1="${10 + plotH}" y2="${10 + plotH}" stroke="#59636e"/>` +
    bars +
    (Number.isFinite(series.p50)
      ? mark(series.p50, 'p50', '#1a7f37', 18) + mark(series.p95, 'p95', '#9a6700', 28) + mark(series.p99, 'p99', '#8250df', 38)
      : '') +
    `<line x1="${(left + x(series.budgetMs)).toFixed(1)}" x2="${(left + x(series.budgetMs)).toFixed(1)}" y1="4" y2="${10 + plotH}" stroke="#cf222e" stroke-width="2" stroke-dasharray="4 2"/>` +
    `<text x="${(left + x(series.budgetMs) - 2).toFixed(1)}" y="10" font-size="9" text-anchor="end" fill="#cf222e">budget ${series.budgetMs} ms</text>` +
    tickMarks +
    `</svg>`
  );
}

/** p99 of every series as a fraction of its budget, one bar per tool: the overview. */
export function budgetOverview(latency: readonly LatencySeries[]): string {
  if (latency.length === 0) return '';
  const rowH = 16;
  const labelW = 250;
  const barW = 500;
  const H = latency.length * rowH + 24;
  // Log scale from 0.1% to 200% of the budget, so 2 ms of a 100 ms budget still shows.
  const lo = Math.log10(0.001);
  const hi = Math.log10(2);
  const x = (f: number) => ((Math.log10(Math.min(Math.max(f, 0.001), 2)) - lo) / (hi - lo)) * barW;
  const rows = latency
    .map((l, i) => {
      const y = i * rowH + 4;
      const f = l.p99 / l.budgetMs;
      const color = l.withinBudget ? '#4f7cc8' : '#cf222e';
      return (
        `<text x="${labelW - 6}" y="${y + 11}" font-size="11" text-anchor="end">${esc(l.tool)}</text>` +
        `<rect x="${labelW}" y="${y + 2}" width="${Math.max(1, x(f)).toFixed(1)}" height="${rowH - 5}" fill="${color}"><title>p99 ${ms(l.p99)} ms of ${l.budgetMs} ms</title></rect>` +
        `<text x="${(labelW + x(f) + 4).toFixed(1)}" y="${y + 11}" font-size="10" fill="#59636e">${ms(l.p99)} ms</text>`
      );
    })
    .join('');
  const bx = labelW + x(1);
  const ticks = [0.001, 0.01, 0.1, 1]
    .map((t) => `<text x="${(labelW + x(t)).toFixed(1)}" y="${H - 4}" font-size="9" text-anchor="middle" fill="#59636e">${t * 100}%</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${labelW + barW + 60} ${H}" width="100%" role="img" aria-label="p99 as a share of each budget">` +
    rows +
    `<line x1="${bx.toFixed(1)}" x2="${bx.toFixed(1)}" y1="0" y2="${H - 14}" stroke="#cf222e" stroke-width="2" stroke-dasharray="4 2"/>` +
    ticks +
    `</svg>`
  );
}

const statusCell = (s: TestResult['status']) =>
  s === 'pass' ? '<span class="ok">pass</span>' : s === 'fail' ? '<span class="bad-t">FAIL</span>' : '<span class="skip-t">skip</span>';

/** One HTML file that opens anywhere: inline CSS, inline SVG, no scripts or external assets. */
export function renderHtml(report: RunReport): string {
  const s = report.summary;
  const v = verdict(report);
  const rows = toolRows(report)
    .map((r) => {
      const l = r.latency;
      const bad = r.failed > 0 || (l !== undefined && !l.withinBudget);
      return (
        `<tr class="${bad ? 'bad' : ''}"><td><code>${esc(r.key)}</code></td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.skipped}</td>` +
        `<td class="n">${l ? ms(l.p50) : ''}</td><td class="n">${l ? ms(l.p95) : ''}</td><td class="n">${l ? ms(l.p99) : ''}</td>` +
        `<td class="n">${l ? `${l.budgetMs} <span class="muted">${l.budget}</span>` : ''}</td><td>${bad ? '<span class="bad-t">FAIL</span>' : '<span class="ok">ok</span>'}</td></tr>`
      );
    })
    .join('\n');
  const failures = report.tests.filter((t) => t.status === 'fail');
  const failureList = failures
    .map(
      (t) =>
        `<details open><summary><b>${esc(t.name)}</b> <span class="muted">${esc(groupKey(t))}${t.file ? ` · ${esc(t.file)}` : ''}</span> — ${esc(headline(t.error))}</summary><pre>${esc(t.error ?? '')}</pre></details>`,
    )
    .join('\n');
  const charts = report.latency
    .map(
      (l) =>
        `<div class="chart${l.withinBudget ? '' : ' bad'}"><h3><code>${esc(l.tool)}</code> <span class="muted">${l.samples.length} samples · p50 ${ms(l.p50)} · p95 ${ms(l.p95)} · p99 ${ms(l.p99)} · max ${ms(l.max)} ms</span>${l.withinBudget ? '' : ' <span class="bad-t">over budget</span>'}</h3>${l.firstAttempt ? `<div class="muted">Measured twice: the first measurement (p50 ${ms(l.firstAttempt.p50)} · p95 ${ms(l.firstAttempt.p95)} · p99 ${ms(l.firstAttempt.p99)} ms) breached the budget; the chart shows the second.</div>` : ''}${latencyChart(l)}</div>`,
    )
    .join('\n');
  const allTests = report.tests
    .map((t) => {
      const steps = t.steps?.length
        ? `<details><summary>${t.steps.length} steps</summary><table>${t.steps.map((st) => `<tr><td>${statusCell(st.status)}</td><td>${esc(st.name)}</td><td><code>${esc(st.tool ?? '')}</code></td><td class="n">${ms(st.durationMs)} ms</td><td>${esc(headline(st.error))}</td></tr>`).join('')}</table></details>`
        : '';
      const note = t.status === 'skip' && t.error ? `<div class="muted">${esc(headline(t.error))}</div>` : '';
      return `<tr class="${t.status === 'fail' ? 'bad' : ''}"><td>${statusCell(t.status)}</td><td>${esc(t.name)}${note}${steps}</td><td><code>${esc(groupKey(t))}</code></td><td class="n">${ms(t.durationMs)} ms</td></tr>`;
    })
    .join('\n');
  const meta = Object.entries(report.meta ?? {})
    .map(([k, val]) => `${esc(k)}: <code>${esc(val)}</code>`)
    .join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(report.title)} — ${esc(report.target)}: ${v}</title><style>${CSS}</style></head>
<body>
<h1>${esc(report.title)} <span class="muted">on</span> <code>${esc(report.target)}</code><span class="verdict ${v}">${v}</span></h1>
<div class="muted">${esc(report.startedAt)} → ${esc(report.finishedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${meta ? ` · ${meta}` : ''}</div>
<div class="cards">
<div class="card"><b>${s.total}</b>tests</div><div class="card"><b class="ok">${s.passed}</b>passed</div>
<div class="card"><b class="${s.failed ? 'bad-t' : ''}">${s.failed}</b>failed</div><div class="card"><b>${s.skipped}</b>skipped</div>
${report.latency.length ? `<div class="card"><b class="${s.budgetBreaches ? 'bad-t' : ''}">${report.latency.length - s.budgetBreaches}/${report.latency.length}</b>budgets met</div>` : ''}
</div>
${
  failures.length || s.budgetBreaches
    ? `<h2>Failures</h2>\n${failureList}${report.latency
        .filter((l) => !l.withinBudget)
        .map(
          (l) =>
            `<details open><summary><b>${esc(l.tool)}</b> over its ${l.budget} budget of ${l.budgetMs} ms — ${esc(describeLatency(l))}</summary></details>`,
        )
        .join('\n')}`
    : ''
}
<h2>Per tool</h2>
<table><thead><tr><th>tool</th><th>pass</th><th>fail</th><th>skip</th><th>p50 ms</th><th>p95</th><th>p99</th><th>budget ms</th><th></th></tr></thead><tbody>
${rows}
</tbody></table>
${report.latency.length ? `<h2>Latency: p99 as a share of the budget</h2>\n<div class="chart">${budgetOverview(report.latency)}</div>\n<h2>Latency distributions</h2>\n<p class="muted">Histogram of every sample on a log scale; green p50, amber p95, violet p99, the dashed red line is the budget.</p>\n<div class="charts">\n${charts}\n</div>` : ''}
<h2>All tests</h2>
<table><thead><tr><th></th><th>test</th><th>tool / family</th><th>time</th></tr></thead><tbody>
${allTests}
</tbody></table>
</body></html>
`;
}
