/**
 * The local pool without `concurrency` learns how many games to keep in flight (in-flight.ts):
 * whatever it keeps, every game is the same move for move as one game at a time, for every
 * built-in bot under worker isolation (their moves follow from the schedule alone).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FlightControl } from '../../src/arena/in-flight.ts';
import { LocalPool } from '../../src/arena/local-pool.ts';
import { localExecutor } from '../../src/arena/tournament.ts';
import { comparableLog, runSpec, tempDir } from './helpers.ts';

/** Every built-in bot, with budgets small enough for a test (they decide each move, not the clock). */
const BUILT_IN = ['optimal', 'greedy', 'random', 'hybrid', 'minimax:nodes=300', 'mcts:iterations=40', 'learner:nodes=100', 'parity', 'priority'];

const SPEC = {
  name: 'in-flight',
  seed: 7,
  // parity plays end-game and priority coins scored by points: each built-in bot has games here.
  games: ['subtraction{moves=1,3,4;n=10..40}', 'end-game{length=6;values=-5..5}', 'coins{board=triangle;rows=4;scoring=points}'],
  bots: BUILT_IN,
  deals: 2,
  timePerMoveMs: 5000,
  isolation: 'worker' as const,
};

/** A pool's games in flight on a script: up and down, to open and end lanes while games are on. */
function swinging(): FlightControl {
  const script = [64, 1, 16, 3, 256, 2];
  let games = 0;
  let peak = 0;
  return {
    get peak() {
      return peak;
    },
    finished() {
      const target = script[Math.floor(games++ / 20) % script.length]!;
      peak = Math.max(peak, target);
      return target;
    },
  };
}

describe('the local pool without --concurrency', () => {
  it('covers every built-in bot', () => {
    const names = readdirSync(fileURLToPath(new URL('../../bots', import.meta.url))).map((f) => f.replace(/\.ts$/, ''));
    expect(new Set(BUILT_IN.map((b) => b.split(':')[0]))).toEqual(new Set(names));
  });

  it('plays the same games as --concurrency 1, however many it keeps in flight', async () => {
    const one = await runSpec({ ...SPEC, concurrency: 1, botData: tempDir() });
    expect(one.summary.games.played).toBeGreaterThan(200);
    expect(one.summary.games.byTermination.normal).toBe(one.summary.games.played);
    const expected = comparableLog(one.dir);

    // As shipped: it learns from the games.
    const auto = await runSpec({ ...SPEC, botData: tempDir() });
    expect(comparableLog(auto.dir)).toEqual(expected);

    // Lanes opened and ended while games are on (a swing the learner could make on a busy machine).
    let swung: LocalPool | undefined;
    const swing = await runSpec({ ...SPEC, botData: tempDir() }, { executor: (t, dir) => (swung = localExecutor(t, dir, undefined, swinging)) });
    expect(comparableLog(swing.dir)).toEqual(expected);
    expect(swung!.peak).toBe(256);
  });
});
