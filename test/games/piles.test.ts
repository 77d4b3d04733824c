import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, createVariant, MoveError, ParamError, TooLargeError, type Game } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { piles, type PilesMove, type PilesState } from '../../src/games/piles.ts';
import { findPeriod, tabulate } from '../../src/games/analysis.ts';

type PilesGame = Game<PilesState, PilesMove>;

const make = (raw: Record<string, unknown> = {}): PilesGame => createVariant(piles, raw);
const at = (sizes: number[], turn: 'first' | 'second' = 'first'): PilesState => ({ piles: sizes, turn });

/** Brute-force minimax through the game's own rules: +1 when the player to move wins, else −1. */
function bruteValue(game: PilesGame, s: PilesState, memo = new Map<string | number | bigint, number>()): number {
  const key = game.key(s);
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  let best = -1;
  for (const m of game.moves(s)) {
    if (-bruteValue(game, game.play(s, m), memo) === 1) {
      best = 1;
      break;
    }
  }
  memo.set(key, best);
  return best;
}

describe('piles parameters', () => {
  it('defaults to Nim with 3 piles of 1..20', () => {
    const game = make();
    expect(game.id).toBe('piles{rule=nim;piles=3;size=1..20}');
    expect(game.params).toEqual({ rule: 'nim', piles: 3, size: { min: 1, max: 20 } });
  });

  it('accepts nim, squares and subtraction sets as text or arrays, canonical and sorted', () => {
    expect(make({ rule: 'SQUARES' }).params.rule).toBe('squares');
    expect(make({ rule: '4,1,3' }).params.rule).toEqual([1, 3, 4]);
    expect(make({ rule: [3, 1] }).params.rule).toEqual([1, 3]);
    expect(make({ rule: 2 }).params.rule).toEqual([2]);
  });

  it('takes a count or explicit sizes; one explicit pile is written [7]', () => {
    expect(make({ piles: '3,4,5' }).params.piles).toEqual([3, 4, 5]);
    expect(make({ piles: [7] }).id).toBe('piles{rule=nim;piles=[7]}');
    expect(make({ piles: '[7]' }).params.piles).toEqual([7]);
    expect(make({ piles: '4' }).params.piles).toBe(4);
  });

  it('round-trips variant ids', () => {
    for (const raw of [{}, { rule: 'squares', piles: [7] }, { rule: '1,3,4', piles: 5, size: '0..9' }, { piles: '0 12' }]) {
      const game = make(raw);
      expect(parseVariant(game.id).id).toBe(game.id);
      expect(parseVariant(game.id).params).toEqual(game.params);
    }
  });

  it('names the field in errors', () => {
    expect(() => make({ rule: 'cubes' })).toThrow(ParamError);
    expect(() => make({ rule: 'cubes' })).toThrow(/Expected `rule` to be `nim`, `squares` or 1 to 64 distinct integers.*got "cubes"/);
    expect(() => make({ rule: '1,1' })).toThrow(/`rule`/);
    expect(() => make({ piles: 0 })).toThrow(/Expected `piles` to be a count in 1\.\.64/);
    expect(() => make({ piles: '3,-1' })).toThrow(/`piles`/);
    expect(() => make({ size: '5..2' })).toThrow(/`size`/);
  });
});

describe('piles rules', () => {
  it('deals a count of piles from the size range, reproducibly; explicit sizes as given', () => {
    const game = make({ piles: 4, size: '2..5' });
    const s = game.deal(createRng(42));
    expect(s.piles).toHaveLength(4);
    for (const n of s.piles) expect(n >= 2 && n <= 5).toBe(true);
    expect(game.deal(createRng(42))).toEqual(s);
    expect(make({ piles: '3,4,5' }).deal(createRng(1))).toEqual({ piles: [3, 4, 5], turn: 'first' });
  });

  it('lists moves per pile and parses/format pile:amount numbered from 1', () => {
    const game = make({ rule: 'squares', piles: '5,0,9' });
    const s = game.deal(createRng(0));
    expect(game.moves(s).map(game.formatMove)).toEqual(['1:1', '1:4', '3:1', '3:4', '3:9']);
    expect(game.parseMove(' 3 : 9 ', s)).toEqual({ pile: 3, take: 9 });
    expect(game.play(s, { pile: 3, take: 9 })).toEqual({ piles: [5, 0, 0], turn: 'second' });
    expect(s.piles).toEqual([5, 0, 9]);
  });

  it('rejects bad move text with MoveError', () => {
    const game = make({ rule: 'squares', piles: '5,0,9' });
    const s = game.deal(createRng(0));
    expect(() => game.parseMove('2', s)).toThrow(MoveError);
    expect(() => game.parseMove('3:2', s)).toThrow(/Taking 2 from pile 3 is not legal here; legal takes from pile 3: 1, 4, 9/);
    expect(() => game.parseMove('2:1', s)).toThrow(/pile 2 has no legal take/);
    expect(() => game.parseMove('4:1', s)).toThrow(MoveError);
  });

  it('ends under normal play when no pile allows a take', () => {
    const game = make({ rule: '3,5', piles: '2,1' });
    expect(game.moves(at([2, 1]))).toEqual([]);
    expect(game.outcome(at([2, 1], 'second'))).toEqual({ winner: 'first' });
    expect(game.outcome(at([3, 1]))).toBeNull();
  });

  it('heuristic is the amount taken, size the stones left', () => {
    const game = make({ piles: '3,4,5' });
    expect(game.heuristic!(at([3, 4, 5]), { pile: 2, take: 3 })).toBe(3);
    expect(game.size!(at([3, 4, 5]))).toBe(12);
  });
});

describe('piles solver', () => {
  it('Nim: xor rule, 3 4 5 is N with best move 1:2; 1 2 3 is P', () => {
    const game = make({ piles: '3,4,5' });
    const solver = game.solver!()!;
    expect(solver.classify(at([3, 4, 5]))).toBe('N');
    expect(game.formatMove(solver.bestMove(at([3, 4, 5]))!)).toBe('1:2');
    expect(solver.value(at([1, 2, 3]))).toBe(-1);
    expect(solver.classify(at([1, 2, 3]))).toBe('P');
    expect(game.formatMove(solver.bestMove(at([1, 2, 3]))!)).toBe('3:1');
    expect(solver.bestMove(at([0, 0, 0]))).toBeNull();
  });

  it('squares: single-pile P-positions and nim-values are the facts of GAMES.md', () => {
    const game = make({ rule: 'squares', piles: [300] });
    const solver = game.solver!()!;
    const cold = [];
    for (let n = 0; n <= 267; n++) if (solver.classify(at([n])) === 'P') cold.push(n);
    expect(cold).toEqual([
      0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119, 124, 127, 130, 132, 137,
      142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204, 210, 215, 238, 243, 249, 255, 257, 260, 262, 267,
    ]);
    const table = tabulate(game, 29)!;
    expect(table.nimValues).toEqual([0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2, 3, 4, 5]);
    expect(table.pPositions).toEqual([0, 2, 5, 7, 10, 12, 15, 17, 20, 22]);
    // Two piles of equal nim-value cancel: 25 and 27 (both 3) is P, 25 and 26 (3 and 2) is N.
    expect(solver.classify(at([25, 27]))).toBe('P');
    expect(solver.classify(at([25, 26]))).toBe('N');
  });

  it('tabulates Nim and sets; squares beyond the nim-value limit give P-positions only', () => {
    expect(tabulate(make(), 5)?.nimValues).toEqual([0, 1, 2, 3, 4, 5]);
    expect(tabulate(make({ rule: '1,3,4' }), 8)).toEqual({ nimValues: [0, 1, 0, 1, 2, 3, 2, 0, 1], pPositions: [0, 2, 7] });
    const big = tabulate(make({ rule: 'squares' }), 1_200_000)!;
    expect(big.nimValues).toBeUndefined();
    expect(big.pPositions!.slice(0, 5)).toEqual([0, 2, 5, 7, 10]);
    expect(() => tabulate(make(), 2_000_000)).toThrow(TooLargeError);
  });

  it('reports the nim-value period of finite sets only', () => {
    expect(findPeriod(make({ rule: '1,3,4' }))).toEqual({ preperiod: 0, period: 7 });
    expect(findPeriod(make({ rule: '2,5' }))).toEqual({ preperiod: 0, period: 7 });
    expect(findPeriod(make({ rule: 'squares' }))).toBeUndefined();
    expect(findPeriod(make())).toBeUndefined();
  });

  it('agrees with brute-force minimax on small multi-pile positions, for every rule', () => {
    const rules = fc.oneof(
      fc.constant<unknown>('nim'),
      fc.constant<unknown>('squares'),
      fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 }),
    );
    fc.assert(
      fc.property(rules, fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 3 }), (rule, sizes) => {
        const game = make({ rule, piles: sizes });
        const solver = game.solver!()!;
        const s = game.deal(createRng(0));
        const value = bruteValue(game, s);
        expect(solver.value(s)).toBe(value);
        const best = solver.bestMove(s);
        if (game.moves(s).length === 0) expect(best).toBeNull();
        else {
          expect(game.moves(s)).toContainEqual(best);
          if (value === 1) expect(bruteValue(game, game.play(s, best!))).toBe(-1);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('optimal play from a dealt N-position wins', () => {
    const game = make({ rule: 'squares', piles: 4, size: '0..60' });
    const solver = game.solver!()!;
    for (let seed = 0; seed < 20; seed++) {
      let s = game.deal(createRng(seed));
      const starter = solver.classify(s) === 'N' ? 'first' : 'second';
      while (game.outcome(s) === null) s = game.play(s, solver.bestMove(s)!);
      expect(game.outcome(s)!.winner).toBe(starter);
    }
  });
});
