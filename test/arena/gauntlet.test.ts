import { describe, expect, it } from 'vitest';
import { schedule, scheduleCount, scheduleKeyAt } from '../../src/arena/schedule.ts';
import { sprtConfig, SprtTest, type PairScore } from '../../src/arena/fold/sprt.ts';
import type { SprtResult } from '../../src/arena/summary.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { readLog, runSpec } from './helpers.ts';

const BOTS = ['a', 'b', 'c', 'd'].map((label) => ({ label, name: label, options: {} }));

describe('gauntlet schedule', () => {
  it('pairs only the champion, listed first, with each other bot; both seatings of each deal back to back', () => {
    const input = { seed: 3, variants: ['piles', 'pile'], bots: BOTS, deals: 2, timePerMoveMs: 10, champion: 'c' };
    const jobs = [...schedule(input)];
    expect(jobs).toHaveLength(3 * 2 * 2 * 2);
    expect(scheduleCount(input)).toBe(jobs.length);
    for (const j of jobs) {
      const [, , a, b, seating] = j.key.split('|');
      expect(a).toBe('c');
      expect(b).not.toBe('c');
      expect(j.seats[seating === '0' ? 'first' : 'second'].label).toBe('c');
      expect(scheduleKeyAt(input, j.index)).toBe(j.key);
    }
    expect(jobs.slice(0, 2).map((j) => j.key)).toEqual(['piles|0|c|a|0', 'piles|0|c|a|1']);
  });
});

const SPEC = {
  name: 'gauntlet',
  seed: 7,
  games: ['subtraction{moves=1,2,3;n=20..40}', 'subtraction{moves=1,3,4;n=15..30}'],
  bots: ['optimal', 'random', 'greedy'],
  format: 'gauntlet' as const,
  champion: 'optimal',
  sprt: { elo0: 0, elo1: 50 },
  // The cap must outlast the time a decision takes to land (its batch made durable, then folded):
  // at 60k games/s in-process, 400 deals (3,200 games) could all be played within one fsync.
  deals: 4000,
  isolation: 'none' as const,
  timePerMoveMs: 1000,
};

/**
 * The test folded again from the log alone: pairs by their keys, in schedule order (with a test,
 * deal by deal over the variants), until a decision.
 */
function refold(log: readonly GameRecord[], b: string): SprtResult {
  const test = new SprtTest(sprtConfig(SPEC.sprt));
  const byKey = new Map(log.map((r) => [r.key, r]));
  for (let deal = 0; deal < SPEC.deals && !test.decided; deal++) {
    for (const variant of SPEC.games) {
      if (test.decided) break;
      const g = [0, 1].map((s) => byKey.get(`${variant}|${deal}|optimal|${b}|${s}`));
      if (!g[0] || !g[1]) throw new Error(`pair ${variant} ${deal} missing before the decision`);
      const pts = g.map((r) => (r!.winner === null ? 0.5 : r!.winner === 'optimal' ? 1 : 0));
      test.update((2 * (pts[0]! + pts[1]!)) as PairScore);
    }
  }
  return { a: 'optimal', b, ...test.status };
}

describe('gauntlet with a sequential test', () => {
  it('stops each pairing at its decision; the result is the log folded in schedule order, whatever the concurrency', async () => {
    const one = await runSpec({ ...SPEC, concurrency: 1 });
    const three = await runSpec({ ...SPEC, concurrency: 3 });
    for (const run of [one, three]) {
      const { summary } = run;
      expect(summary.complete).toBe(true);
      expect(summary.games.skipped).toBeGreaterThan(0);
      expect(summary.games.played + summary.games.skipped).toBe(summary.games.total);
      expect(summary.sprt!.map((r) => [r.a, r.b])).toEqual([
        ['optimal', 'random'],
        ['optimal', 'greedy'],
      ]);
      const log = readLog(run.dir);
      // Only the champion played.
      expect(log.every((r) => r.seats.first === 'optimal' || r.seats.second === 'optimal')).toBe(true);
      for (const r of summary.sprt!) {
        expect(r.decision).toBe('H1');
        expect(r.llr).toBeGreaterThanOrEqual(r.upper);
        expect(r).toEqual(refold(log, r.b));
      }
      // Per-opponent pair counts in the standings: every pair that finished, decided or not.
      const pairs = summary.standings.pooled.pairs;
      expect(pairs.map((p) => [p.a, p.b])).toEqual([
        ['optimal', 'random'],
        ['optimal', 'greedy'],
      ]);
      for (const p of pairs) {
        const games = log.filter((r) => r.key.includes(`|optimal|${p.b}|`)).length;
        expect(p.counts.reduce((x, y) => x + y, 0)).toBe(games / 2);
      }
    }
    expect(three.summary.sprt).toEqual(one.summary.sprt);
  });

  it('resumes the test exactly where it stopped', async () => {
    const whole = await runSpec({ ...SPEC, concurrency: 2 });
    const controller = new AbortController();
    let started = 0;
    const part = await runSpec(
      { ...SPEC, concurrency: 2 },
      { signal: controller.signal, sink: { detail: 'live', emit: (e) => void (e.type === 'game-started' && ++started === 9 && controller.abort()) } },
    );
    expect(part.interrupted).toBe(true);
    expect(part.summary.sprt!.every((r) => r.decision === null)).toBe(true);
    const resumed = await runSpec({ ...SPEC, concurrency: 2 }, { resumeDir: part.dir });
    expect(resumed.interrupted).toBe(false);
    expect(resumed.summary.sprt).toEqual(whole.summary.sprt);
  });

  it('rejects a test outside a gauntlet and a champion that is not playing, naming the field', async () => {
    await expect(runSpec({ ...SPEC, format: 'round-robin', champion: undefined as never })).rejects.toThrow(/`sprt`: a sequential test needs a gauntlet/);
    await expect(runSpec({ ...SPEC, champion: 'minimax' })).rejects.toThrow(/`champion`: expected one of the bots/);
    await expect(runSpec({ ...SPEC, champion: undefined as never })).rejects.toThrow(/`champion`: a gauntlet needs a champion/);
    await expect(runSpec({ ...SPEC, sprt: { elo0: 5, elo1: 0 } })).rejects.toThrow(/`sprt`: Expected SPRT `elo0` < `elo1`/);
  });
});
