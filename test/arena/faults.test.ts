import { describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { comparable, readLog, runSpec } from './helpers.ts';

const GOOD = ['fx-random', 'fx-first'];
// (fx-sleeps, which waits past the CPU clock's wall-clock cap, has its own test under both clocks: clock.test.ts.)
const FAULTY = ['fx-throws', 'fx-loops', 'fx-illegal', 'fx-garbage', 'fx-oom', 'fx-mutates', 'fx-exits', 'fx-nostart'];
/** The fault each fixture must be charged with. */
const KIND: Record<string, { kind: string; reason: RegExp }> = {
  'fx-throws': { kind: 'crash', reason: /fx-throws always throws/ },
  // Under the CPU clock: the busy loop is stopped by its CPU time.
  'fx-loops': { kind: 'timeout', reason: /^no move within 300 ms of CPU time$/ },
  'fx-illegal': { kind: 'illegal-move', reason: /returned 9999, not one of the legal moves/ },
  'fx-garbage': { kind: 'illegal-move', reason: /not a move/ },
  'fx-oom': { kind: 'crash', reason: /ran out of memory/ },
  'fx-exits': { kind: 'crash', reason: /exited with code 3/ },
  'fx-nostart': { kind: 'crash', reason: /failed to start: .*fx-nostart cannot start here/ },
};
const BASE = {
  name: 'faults',
  seed: 9,
  games: ['subtraction{n=12..30}'],
  deals: 1,
  // Charged in CPU time: however busy the machine, fx-oom fills its 16 MB heap (it ends by memory,
  // not by the clock) and the good bots never lose on time.
  timePerMoveMs: 300,
  clock: 'cpu' as const,
  memoryMb: 16,
  isolation: 'worker' as const,
  concurrency: 3,
};

describe('fault isolation (isolation worker)', () => {
  it('records every fault with its kind, and the good bots play exactly as without the faulty ones', async () => {
    const events: ArenaEvent[] = [];
    // The run without the faulty bots goes alongside (it is small).
    const [all, clean] = await Promise.all([
      runSpec({ ...BASE, bots: [...GOOD, ...FAULTY] }, { sink: { emit: (e) => events.push(e) } }),
      runSpec({ ...BASE, bots: GOOD }),
    ]);
    expect(all.interrupted).toBe(false);
    const log = readLog(all.dir);
    expect(log).toHaveLength((10 * 9) / 2 * 2);

    for (const rec of log) {
      if (rec.termination === 'normal') {
        // The runner's state was never touched: the moves replay legally to the recorded result.
        const game = parseVariant(rec.variant);
        let s = game.deal(createRng(rec.dealSeed));
        for (const m of rec.moves) s = game.play(s, game.parseMove(m, s));
        expect(game.outcome(s)?.winner).toBe(rec.outcome.winner);
        expect(rec.faulty).toBeNull();
        continue;
      }
      const culprit = rec.seats[rec.faulty!];
      const expected = KIND[culprit];
      expect(expected, `${culprit} should not forfeit (${rec.termination}: ${rec.reason})`).toBeDefined();
      expect(rec.termination, `${culprit}: ${rec.reason}`).toBe(expected!.kind);
      expect(rec.reason).toMatch(expected!.reason);
      expect(rec.winner).toBe(rec.seats[rec.faulty === 'first' ? 'second' : 'first']);
    }
    // Every faulty bot (but the mutator, which cannot hurt anyone from its worker) forfeited every game where it had to move.
    const standings = all.summary.standings.pooled.bots;
    for (const name of FAULTY) {
      const row = standings.find((b) => b.bot === name)!;
      const forfeits = row.forfeits.timeout + row.forfeits.crash + row.forfeits['illegal-move'];
      if (name === 'fx-mutates') expect(forfeits).toBe(0);
      else expect(forfeits, name).toBeGreaterThan(0);
      if (name === 'fx-nostart') expect(row.forfeits.crash).toBe(18);
    }
    // The start-up failure is reported once, clearly.
    const failed = events.filter((e) => e.type === 'bot-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ bot: 'fx-nostart', reason: expect.stringMatching(/fx-nostart cannot start here/) });

    // The good bots' games are exactly those of a tournament without the faulty bots.
    const goodGames = log.filter((r) => GOOD.includes(r.seats.first) && GOOD.includes(r.seats.second));
    const strip = (r: (typeof log)[number]): unknown => comparable(r, false);
    expect(goodGames.map(strip).sort(byKey)).toEqual(readLog(clean.dir).map(strip).sort(byKey));
  });
});

describe('a bot that cannot start (isolation none)', () => {
  it('forfeits each of its games as a crash naming why, reported once, and the tournament completes', async () => {
    const events: ArenaEvent[] = [];
    const run = await runSpec({ ...BASE, isolation: 'none', bots: ['fx-random', 'fx-nostart'], deals: 2 }, { sink: { emit: (e) => events.push(e) } });
    const log = readLog(run.dir);
    expect(log).toHaveLength(4);
    for (const rec of log) {
      expect(rec.termination).toBe('crash');
      expect(rec.seats[rec.faulty!]).toBe('fx-nostart');
      expect(rec.reason).toMatch(/fx-nostart cannot start here/);
    }
    expect(events.filter((e) => e.type === 'bot-failed')).toEqual([expect.objectContaining({ bot: 'fx-nostart', reason: expect.stringMatching(/fx-nostart cannot start here/) })]);
  });
});

function byKey(a: unknown, b: unknown): number {
  return String((a as { key: string }).key).localeCompare((b as { key: string }).key);
}
