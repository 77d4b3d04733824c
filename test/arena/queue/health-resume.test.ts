/**
 * Each worker's health after a coordinator was killed and the tournament resumed: its games,
 * faults, mean move time and check against the other workers cover the whole tournament (every
 * record names its worker), in `queue status`, in the summary and in the report. Real
 * redis-server, a real coordinator process killed with SIGKILL, real workers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueStatus } from '../../../src/arena/queue/admin.ts';
import { queueExecutor } from '../../../src/arena/queue/coordinator.ts';
import { QueueWorker } from '../../../src/arena/queue/worker.ts';
import { WorkerTally, type TournamentSummary } from '../../../src/arena/summary.ts';
import { prepareTournament, resumeSpec, runTournament } from '../../../src/arena/tournament.ts';
import { loadReportData } from '../../../src/report/data.ts';
import { reportHtml } from '../../../src/report/page.ts';
import { boardView } from '../../../src/tui/boards/board-view.ts';
import { fixtureRegistry, readLog, tempDir } from '../helpers.ts';
import { HAVE_REDIS, TestRedis } from '../redis-server.ts';
import { coordinatorKilledAfter } from './queue-helpers.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Each worker's health as the whole log says: what every view must show. */
function healthOfLog(dir: string): ReturnType<WorkerTally['totals']> {
  const tally = new WorkerTally();
  for (const rec of readLog(dir)) tally.add(rec);
  return tally.totals();
}

// Skipped only on a developer machine without redis-server: CI installs it, and fails without it.
describe.skipIf(!HAVE_REDIS && !process.env['CI'])('worker health across a resume (real redis-server)', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await TestRedis.start();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it("a coordinator killed and resumed counts each worker's games, faults and check over the whole tournament", async () => {
    const out = tempDir();
    const specFile = join(out, 'spec.json');
    // Slow enough to be caught mid-run; on two workers, enough games each for their check.
    writeFileSync(specFile, JSON.stringify({ name: 'health-resume', seed: 5, games: ['subtraction{n=20..40}'], bots: ['fx-slow', 'random'], deals: 40, out, botDirs: [join(ROOT, 'test', 'fixtures', 'bots')] }));
    const workers = ['h1', 'h2'].map((id) => new QueueWorker({ url: redis.url, id, lockMs: 5000, pollMs: 200 }));
    await Promise.all(workers.map((w) => w.start()));
    try {
      const dir = await coordinatorKilledAfter(specFile, redis.url, 30);
      const before = readLog(dir);
      expect(new Set(before.map((r) => r.worker))).toEqual(new Set(['h1', 'h2']));

      // Resumed here, and stopped again after 20 more games: the tournament stays in Redis for `queue status`.
      const t = prepareTournament(resumeSpec(dir), await fixtureRegistry());
      const stop = new AbortController();
      let fresh = 0;
      const resumed = await runTournament(t, {
        resumeDir: dir,
        executor: queueExecutor(redis.url),
        signal: stop.signal,
        sink: { emit: (e) => void (e.type === 'game-ended' && ++fresh === 20 && stop.abort()) },
      });
      expect(resumed.interrupted).toBe(true);
      const whole = healthOfLog(dir)!;
      expect(readLog(dir).length).toBeGreaterThanOrEqual(before.length + 20);
      // Enough games on each worker, from before the kill and after, for the check to compare them.
      expect(Object.keys(whole).sort()).toEqual(['h1', 'h2']);
      for (const h of Object.values(whole)) expect(h.check).toBeDefined();
      expect(resumed.summary.workers).toEqual(whole);
      const [status] = (await queueStatus(redis.url)).tournaments;
      expect(status!.workers).toEqual(whole);

      // Resumed to its end: the summary and the report.
      const done = await runTournament(prepareTournament(resumeSpec(dir), await fixtureRegistry()), { resumeDir: dir, executor: queueExecutor(redis.url) });
      expect(done.interrupted).toBe(false);
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as TournamentSummary;
      const all = healthOfLog(dir)!;
      expect(summary.workers).toEqual(all);
      expect(Object.values(all).reduce((n, h) => n + h.games, 0)).toBe(80);
      const html = await reportHtml(loadReportData(dir, boardView));
      for (const h of Object.values(all)) expect(html).toContain(`chi-square ${h.check!.chi2} on ${h.check!.df} df, p ${h.check!.p}`);
    } finally {
      await Promise.all(workers.map((w) => w.stop(true)));
    }
  });
});
