/**
 * minimax agrees with the solver on every position small enough for it to finish: the search's
 * exact value equals `solver.value`, and its move keeps that value. Also: the bot answers within a
 * tight deadline on a position far too large to finish, and `depth` bounds the search.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed, type AnyGame } from '../../src/core/index.ts';
import { FAMILIES, makeGame } from '../../src/games/index.ts';
import { negamaxSearch, TranspositionTable } from '../../src/strategies/index.ts';
import { SAMPLES } from '../games/samples.ts';
import { ask, builtin, cpuMsOf } from './play.ts';

/** Positions reached by seeded random play, kept once at most `maxSize` is left. */
function smallPositions(game: AnyGame, count: number, maxSize: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; out.length < count && i < count * 20; i++) {
    const rng = createRng(deriveSeed(3, game.id, i));
    let s = game.deal(rng);
    while (!game.outcome(s) && (game.size?.(s) ?? 0) > maxSize) s = game.play(s, rng.pick(game.moves(s)));
    if (!game.outcome(s)) out.push(s);
  }
  return out;
}

const variants: { label: string; game: AnyGame }[] = [];
for (const family of FAMILIES) {
  (SAMPLES[family.id] ?? [{}]).forEach((params, i) => {
    const game = makeGame(family.id, params);
    if (game.solver?.()) variants.push({ label: `${family.id} #${i}`, game });
  });
}

describe.each(variants)('minimax on $label', ({ game }) => {
  it('matches the solver value and plays a value-keeping move wherever it completes', () => {
    const solver = game.solver!()!;
    const table = new TranspositionTable();
    let exact = 0;
    for (const s of smallPositions(game, 6, 10)) {
      const moves = game.moves(s);
      const r = negamaxSearch(game, s, moves, { maxDepth: 10_000, stopAt: Infinity, maxNodes: 300_000, table });
      if (!r.exact) continue;
      exact++;
      const value = solver.value(s);
      expect(r.value, game.describe(s)).toBe(value);
      expect(0 - solver.value(game.play(s, r.move)), `${game.formatMove(r.move)} in ${game.describe(s)}`).toBe(value);
    }
    expect(exact).toBeGreaterThan(0);
  });
});

describe('minimax on random subtraction sets', () => {
  it('agrees with the solver for every pile up to 40 (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 40 }), (set, n) => {
        const game = makeGame('subtraction', { moves: set, n });
        const s = game.deal(createRng(0));
        const moves = game.moves(s);
        if (moves.length === 0) return;
        const r = negamaxSearch(game, s, moves, { maxDepth: 10_000, stopAt: Infinity });
        expect(r.exact).toBe(true);
        const solver = game.solver!()!;
        expect(r.value).toBe(solver.value(s));
        expect(0 - solver.value(game.play(s, r.move))).toBe(r.value);
      }),
      { numRuns: 150 },
    );
  });

  it('wins by the quickest line and, when lost, defends by the longest (property)', () => {
    // Brute force: the winner minimises the plies left, the loser maximises them.
    const lengths = (set: readonly number[], upto: number): { win: boolean; plies: number }[] => {
      const out: { win: boolean; plies: number }[] = [];
      for (let n = 0; n <= upto; n++) {
        const kids = set.filter((m) => m <= n).map((m) => out[n - m]!);
        const winning = kids.filter((k) => !k.win);
        out.push(
          kids.length === 0
            ? { win: false, plies: 0 }
            : winning.length > 0
              ? { win: true, plies: 1 + Math.min(...winning.map((k) => k.plies)) }
              : { win: false, plies: 1 + Math.max(...kids.map((k) => k.plies)) },
        );
      }
      return out;
    };
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 30 }), (set, n) => {
        const game = makeGame('subtraction', { moves: set, n });
        const s = game.deal(createRng(0));
        const moves = game.moves(s);
        if (moves.length === 0) return;
        const table = lengths([...set].sort((a, b) => a - b), n);
        const r = negamaxSearch(game, s, moves, { maxDepth: 10_000, stopAt: Infinity });
        expect(1 + table[n - (r.move as number)]!.plies).toBe(table[n]!.plies);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the minimax bot', () => {
  it('answers before a tight deadline on a position too large to finish', async () => {
    const family = FAMILIES.find((f) => f.id === 'coins') ? 'coins' : 'subtraction';
    const game = family === 'coins' ? makeGame('coins', { board: 'square', side: 6 }) : makeGame('subtraction', { moves: [1, 2, 3, 5, 8, 13], n: 100_000 });
    const s = game.deal(createRng(1));
    const minimax = await builtin('minimax');
    // CPU time, which a busy machine can only shrink: the search ends by its 150 ms deadline.
    expect(await cpuMsOf(() => ask(minimax, game, s, 1, 150))).toBeLessThan(1000);
  });

  it('rejects depth below 1', async () => {
    await expect(builtin('minimax', { depth: '0' })).rejects.toThrow(/Expected `depth` to be an integer from 1/);
  });
});
