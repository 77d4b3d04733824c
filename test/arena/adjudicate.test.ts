import { describe, expect, it } from 'vitest';
import { parseVariant } from '../../src/games/index.ts';
import { createRng } from '../../src/core/rng.ts';
import { readLog, runSpec } from './helpers.ts';

const SPEC = {
  name: 'adjudicate',
  seed: 4,
  games: ['subtraction{moves=1,3,4;n=30..60}', 'end-game{length=8}'],
  bots: ['random', 'greedy'],
  deals: 6,
  isolation: 'none' as const,
  concurrency: 2,
};

describe('adjudication by solved value', () => {
  it('ends each game once both bots moved, with the proven result; moves are a prefix of the unadjudicated game', async () => {
    const full = await runSpec(SPEC);
    const cut = await runSpec({ ...SPEC, adjudicate: true });
    const fullLog = new Map(readLog(full.dir).map((r) => [r.key, r]));
    const log = readLog(cut.dir);
    expect(log).toHaveLength(fullLog.size);
    const adjudicated = log.filter((r) => r.termination === 'adjudicated');
    expect(adjudicated.length).toBeGreaterThan(log.length / 2);
    expect(cut.summary.games.byTermination.adjudicated).toBe(adjudicated.length);
    expect(full.summary.games.byTermination.adjudicated).toBe(0);
    for (const r of log) {
      const whole = fullLog.get(r.key)!;
      // Same seeds, same moves until the cut.
      expect(whole.moves.slice(0, r.moves.length)).toEqual(r.moves);
      if (r.termination !== 'adjudicated') {
        expect(r).toMatchObject({ termination: whole.termination, moves: whole.moves });
        continue;
      }
      expect(r.adjudicated!.ply).toBe(r.moves.length);
      expect(r.moves.length).toBeGreaterThanOrEqual(2);
      expect(r.faulty).toBeNull();
      // The value, recomputed here by replaying the moves with the variant's solver.
      const game = parseVariant(r.variant);
      let s = game.deal(createRng(r.dealSeed));
      for (const m of r.moves) s = game.play(s, game.parseMove(m, s));
      const value = game.solver!()!.value(s);
      expect(r.adjudicated!.value).toBe(value);
      const mover = game.toMove(s);
      const winnerSeat = value > 0 ? mover : value < 0 ? (mover === 'first' ? 'second' : 'first') : null;
      expect(r.outcome.winner).toBe(winnerSeat);
      expect(r.winner).toBe(winnerSeat === null ? null : r.seats[winnerSeat]);
      // Cut before the rules ended it.
      expect(game.outcome(s)).toBeNull();
    }
    // Standings count adjudicated games like played ones; accuracy judges only the moves played.
    const pooled = cut.summary.standings.pooled;
    expect(pooled.games).toBe(log.length);
    const points = pooled.bots.reduce((x, b) => x + b.points, 0);
    expect(points).toBe(log.length);
    const judged = pooled.bots.reduce((x, b) => x + (b.accuracy?.moves ?? 0), 0);
    expect(judged).toBe(log.reduce((x, r) => x + r.moves.length, 0));
    expect(cut.summary.spec).toMatchObject({ adjudicate: true });
  });
});
