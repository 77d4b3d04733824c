/** The seed strategies: parity (End Game), priority (coins on points), optimal at lower strength. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { placeSums, priorityOrder, takeWorth } from '../../src/strategies/index.ts';
import { endGameValue } from '../../src/solvers/end-game.ts';
import { ask, builtin, playGame, resultFor, type Player } from './play.ts';

const parity = await builtin('parity');
const optimal = await builtin('optimal');
const greedy = await builtin('greedy');
const random = await builtin('random');
const OPPONENTS: Record<string, Player> = {
  optimal,
  greedy,
  random,
  parity,
  hybrid: await builtin('hybrid'),
  minimax: await builtin('minimax', { depth: '6' }),
  mcts: await builtin('mcts', { iterations: '200' }),
};

const rowGame = (row: readonly number[]) => parseVariant(`end-game{row=${row.join(',')}}`);

describe('parity (End Game, seed 004)', () => {
  it('as first player on even rows never loses, against any bot (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }).chain((half) => fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 2 * half, maxLength: 2 * half })),
        fc.constantFrom(...Object.keys(OPPONENTS)),
        fc.integer({ min: 0, max: 1000 }),
        async (row, name, seed) => {
          const game = rowGame(row);
          const played = await playGame(game, game.deal(createRng(seed)), { first: parity, second: OPPONENTS[name]! }, seed);
          const margin = resultFor(played.outcome, 'first');
          // It takes the whole richer place class: the margin is at least |odd-placed − even-placed|.
          const { first, second } = placeSums({ row, lo: 0, hi: row.length });
          expect(margin).toBeGreaterThanOrEqual(Math.abs(first - second));
        },
      ),
      { numRuns: 150, seed: 23 },
    );
  });

  it('does worse than optimal on margins (as first player against optimal)', async () => {
    let parityMargin = 0;
    let optimalMargin = 0;
    let strictlyWorse = 0;
    for (let i = 0; i < 40; i++) {
      const rng = createRng(deriveSeed(4, i));
      const row = Array.from({ length: 10 }, () => rng.int(-10, 10));
      const game = rowGame(row);
      const p = resultFor((await playGame(game, game.deal(rng), { first: parity, second: optimal }, i)).outcome, 'first');
      const o = resultFor((await playGame(game, game.deal(rng), { first: optimal, second: optimal }, i)).outcome, 'first');
      expect(o).toBe(endGameValue(row)); // optimal against optimal is the DP value
      expect(p).toBeLessThanOrEqual(o);
      if (p < o) strictlyWorse++;
      parityMargin += p;
      optimalMargin += o;
    }
    expect(strictlyWorse).toBeGreaterThan(10);
    expect(parityMargin).toBeLessThan(optimalMargin);
  });

  it('with an odd count takes the end that leaves the least parity advantage', async () => {
    // 5 numbers: L leaves 2 9 4 1 (classes 6 vs 10: opponent +4), so 3 − 4 = −1; R leaves 3 2 9 4 (12 vs 6: +6), so 1 − 6 = −5.
    const game = rowGame([3, 2, 9, 4, 1]);
    expect(await ask(parity, game, game.deal(createRng(1)), 1)).toBe('L');
  });
});

describe('priority (coins on points, seed 003)', () => {
  it('ranks take sizes by the scoring: coins taken ± the bonus by the parity left, the longest line last', () => {
    // 20 coins left, bonus 3: odd takes leave an odd count (+3), even takes an even one (−3).
    expect(priorityOrder(20, 6, 3)).toEqual([[5], [3], [1], [4], [2], [6]]);
    // An odd count left: even takes leave it odd.
    expect(priorityOrder(9, 6, 1)).toEqual([[4], [5], [2], [3], [1], [6]]);
    expect(takeWorth(5, 20, 3)).toBe(8);
    expect(takeWorth(4, 4, 3)).toBe(1); // taking the last coins gives the bonus away
    // Without a bonus the order is simply the most coins.
    expect(priorityOrder(20, 6, 0)).toEqual([[5], [4], [3], [2], [1], [6]]);
  });

  it('plays a move of the best-ranked size present, never a whole longest line while another move exists', async () => {
    const priority = await builtin('priority');
    const game = parseVariant('coins{board=triangle;rows=5;scoring=points}');
    for (let seed = 0; seed < 30; seed++) {
      const rng = createRng(seed);
      let s = game.deal(rng);
      for (let k = rng.int(0, 6); k > 0 && game.outcome(s) === null; k--) s = game.play(s, rng.pick(game.moves(s)));
      if (game.outcome(s) !== null) continue;
      const left = game.size!(s);
      const size = (m: unknown): number => left - game.size!(game.play(s, m));
      const move = await ask(priority, game, s, seed);
      const sizes = new Set(game.moves(s).map(size));
      const ranks = priorityOrder(left, 5, 3);
      const best = ranks.find((r) => r.some((k) => sizes.has(k)))!;
      expect(best).toContain(size(move));
      if ([...sizes].some((k) => k !== 5)) expect(size(move)).not.toBe(5);
    }
  });
});

describe('optimal at a strength', () => {
  it('plays the best move with probability p, seeded; strength=1 is the plain optimal bot', async () => {
    const game = parseVariant('subtraction{moves=1,5,8,10;n=50..200}');
    const weak = await builtin('optimal', { strength: '0.5' });
    const easy = await builtin('optimal', { strength: 'easy' });
    expect(easy.options['strength']).toBe(0.3);
    const solver = game.solver!()!;
    let best = 0;
    let total = 0;
    for (let i = 0; i < 300; i++) {
      const s = game.deal(createRng(i));
      if (solver.value(s) < 0) continue; // only won positions tell a best move from others
      const seed = deriveSeed(9, i); // seeds as the arena derives them
      const move = await ask(weak, game, s, seed);
      expect(await ask(weak, game, s, seed)).toBe(move); // same seed, same move
      total++;
      if (move === solver.bestMove(s)) best++;
      expect(await ask(optimal, game, s, i)).toBe(solver.bestMove(s));
    }
    // p = 0.5 plus the random move's chance of hitting the best one: well inside (0.45, 0.8).
    expect(best / total).toBeGreaterThan(0.45);
    expect(best / total).toBeLessThan(0.8);
  });

  it('rejects a strength outside 0..1 or an unknown level', async () => {
    await expect(builtin('optimal', { strength: '1.5' })).rejects.toThrow(/strength/);
    await expect(builtin('optimal', { strength: 'hard' })).rejects.toThrow(/easy, medium, perfect/);
  });
});
