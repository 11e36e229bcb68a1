/**
 * `writeReports`: a run report as JSON (the model itself), a Markdown summary, JUnit XML and a
 * self-contained HTML page (inline CSS and SVG, no external assets), e.g.
 * writeReports(report, 'reports', 'conformance-sim').
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';

export interface WrittenReports {
  json: string;
  markdown: string;
  junit: string;
  html: string;
}

/** Writes `<dir>/<basename>.{json,md,xml,html}` and returns their paths. */
export async function writeReports(report: RunReport, dir: string, basename: string): Promise<WrittenReports> {
  await mkdir(dir, { recursive: true });
  const paths: WrittenReports = {
    json: join(dir, `${basename}.json`),
    markdown: join(dir, `${basename}.md`),
    junit: join(dir, `${basename}.xml`),
    html: join(dir, `${basename}.html`),
  };
  await Promise.all([
    writeFile(paths.json, JSON.stringify(report, null, 2) + '\n'),
    writeFile(paths.markdown, renderMarkdown(report)),
    writeFile(paths.junit, renderJUnit(report)),
    writeFile(paths.html, renderHtml(report)),
  ]);
  return paths;
}
