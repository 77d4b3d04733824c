import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadReportData, type BoardViewFn, type ReportOptions } from './data.ts';
import { reportHtml } from './page.ts';

export type { BoardViewFn, LogTrust, MoveTimeStats, ReportData, ReportGame, ReportIncident, ReportOptions, ReportPly, ReportVariant } from './data.ts';
export { DEFAULT_REPLAYS, loadReportData, MAX_INCIDENTS } from './data.ts';
export { reportHtml, type PageOptions } from './page.ts';

/**
 * Writes the shareable report of a results folder: one self-contained HTML file (charts rendered
 * to SVG now, the replay script and styles inline). `view` gives each position's picture data.
 * Returns the absolute path written.
 */
export async function writeReport(dir: string, out: string, view: BoardViewFn, options: ReportOptions = {}): Promise<string> {
  const html = await reportHtml(loadReportData(dir, view, options));
  const file = resolve(out);
  writeFileSync(file, html);
  return file;
}
