/**
 * The classic tournament's report (issue 34: at most 2 MB, first paint within 1 s in Chromium):
 * its size, how much of it the replays take packed and unpacked, the time to write it, and in
 * headless Chromium at 1440 × 900 the first contentful paint, DOMContentLoaded and the moment the
 * replay shows the first game, with the main thread's CPU time by then (medians of `REPORT_LOADS` loads, 7 by
 * default). The tournament is `tournaments/classic.json` played in process (isolation none), or
 * the results folder named by `REPORT_DIR`; `REPORT_HTML` names a report already written to load
 * instead (one written by another version, to compare on the same machine at the same time).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { discoverBots } from '../src/hosting/index.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { writeReport } from '../src/report/index.ts';
import { boardView } from '../src/tui/boards/board-view.ts';
import { report } from './util.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const loads = Number(process.env['REPORT_LOADS'] ?? 7);
const work = mkdtempSync(join(tmpdir(), 'report-bench-'));
const med = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;

try {
  let file = process.env['REPORT_HTML'];
  if (!file) {
    let dir = process.env['REPORT_DIR'];
    if (!dir) {
      const raw = JSON.parse(readFileSync(new URL('../tournaments/classic.json', import.meta.url), 'utf8')) as Record<string, unknown>;
      delete raw['$schema'];
      const t0 = performance.now();
      const result = await runTournament(prepareTournament(validateSpec({ ...raw, isolation: 'none', out: work }), await discoverBots()), {});
      dir = result.dir;
      report(`classic tournament played in process (${result.summary.games.played} games)`, `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    file = join(work, 'report.html');
    const t0 = performance.now();
    await writeReport(dir, file, boardView);
    report('arena report: written in', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const html = readFileSync(file, 'utf8');
  const packed = [...html.matchAll(/<script type="application\/gzip"[^>]*>([^<]*)<\/script>/g)].map((m) => m[1]!);
  if (packed.length === 0) throw new Error('the report has no packed games');
  const games = /id="report-games" data-games="(\d+)"/.exec(html)?.[1] ?? '?';
  const json = packed.reduce((n, p) => n + gunzipSync(Buffer.from(p, 'base64')).length, 0);
  report('report size', `${kb(statSync(file).size)} (${statSync(file).size} bytes)`);
  report(`of which the ${games} replayable games, packed in ${packed.length} parts`, `${kb(packed.reduce((n, p) => n + p.length, 0))} (${kb(json)} of JSON unpacked)`);

  if (!existsSync(CHROMIUM)) report('first paint', `no chromium at ${CHROMIUM}: not measured`);
  else {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const fcp: number[] = [];
    const dcl: number[] = [];
    const ready: number[] = [];
    const cpu: number[] = [];
    try {
      for (let i = 0; i < loads + 1; i++) {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        await page.goto(`file://${file}`, { waitUntil: 'load' });
        await page.waitForFunction("performance.getEntriesByName('replay-ready').length > 0");
        // The page's main thread's CPU time so far: what a loaded machine stretches least.
        const { metrics } = await cdp.send('Performance.getMetrics');
        const t = await page.evaluate<{ fcp: number; dcl: number; ready: number }>(`({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
          dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
          ready: performance.getEntriesByName('replay-ready')[0]?.startTime ?? NaN,
        })`);
        await page.close();
        if (i === 0) continue; // warm-up: the browser's first page loads its own code too
        fcp.push(t.fcp);
        dcl.push(t.dcl);
        ready.push(t.ready);
        cpu.push(1000 * (metrics.find((m) => m.name === 'ThreadTime')?.value ?? Number.NaN));
      }
    } finally {
      await browser.close();
    }
    const runs = (xs: readonly number[]): string => xs.map((x) => x.toFixed(0)).join(' ');
    report(`Chromium 1440×900, first contentful paint (median of ${loads})`, `${med(fcp).toFixed(0)} ms  [${runs(fcp)}]`);
    report('Chromium, DOMContentLoaded', `${med(dcl).toFixed(0)} ms  [${runs(dcl)}]`);
    report('Chromium, replay unpacked and the first game shown', `${med(ready).toFixed(0)} ms  [${runs(ready)}]`);
    report('Chromium, main-thread CPU time by then', `${med(cpu).toFixed(0)} ms  [${runs(cpu)}]`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
