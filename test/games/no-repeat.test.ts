import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MoveError, ParamError, TooLargeError, createRng, createVariant } from '../../src/core/index.ts';
import { MAX_NO_REPEAT_PILE, noRepeat, type NoRepeatState } from '../../src/games/no-repeat.ts';
import { bruteWinningMoves, bruteWins } from './onepile-brute.ts';
import { tabulate } from '../../src/games/analysis.ts';

const at = (pile: number, forbidden: number | null = null, turn: 'first' | 'second' = 'first'): NoRepeatState => ({
  pile,
  forbidden,
  turn,
});

describe('no-repeat: GAMES.md 2 facts', () => {
  it('S = {1..5}: the start positions that lose for the first player up to 100 are n mod 13 ∈ {0, 7}', () => {
    const game = createVariant(noRepeat, { moves: [1, 2, 3, 4, 5] });
    expect(tabulate(game, 100)?.pPositions).toEqual([0, 7, 13, 20, 26, 33, 39, 46, 52, 59, 65, 72, 78, 85, 91, 98]);
  });

  it('S = {1..5}: the solver agrees at each start position and brute force does too', () => {
    const game = createVariant(noRepeat, { moves: [1, 2, 3, 4, 5], n: 100 });
    const solver = game.solver?.();
    const memo = new Map<string | number | bigint, boolean>();
    for (let n = 0; n <= 100; n++) {
      const lost = n % 13 === 0 || n % 13 === 7;
      expect(solver?.classify(at(n)), `pile ${n}`).toBe(lost ? 'P' : 'N');
      expect(bruteWins(game, at(n), memo), `pile ${n}`).toBe(!lost);
    }
  });
});

describe('no-repeat: solver against brute force', () => {
  const setArb = fc
    .uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 5 })
    .map((xs) => xs.sort((a, b) => a - b));

  it('value, classify and bestMove match a naive memoized minimax over the rules', () => {
    fc.assert(
      fc.property(setArb, fc.integer({ min: 0, max: 60 }), (moves, maxPile) => {
        const game = createVariant(noRepeat, { moves, n: maxPile });
        const solver = game.solver?.();
        if (!solver) return false;
        const memo = new Map<string | number | bigint, boolean>();
        for (let pile = 0; pile <= maxPile; pile++) {
          for (const forbidden of [null, ...moves]) {
            const s = at(pile, forbidden, pile % 2 ? 'second' : 'first');
            const win = bruteWins(game, s, memo);
            if (solver.value(s) !== (win ? 1 : -1) || solver.classify(s) !== (win ? 'N' : 'P')) return false;
            const legal = game.moves(s);
            const winning = bruteWinningMoves(game, s, memo);
            const expected = win ? Math.max(...winning) : legal.length ? Math.min(...legal) : null;
            if (solver.bestMove(s) !== expected) return false;
          }
        }
        return true;
      }),
      { numRuns: 120 },
    );
  });

  it('is built once per variant and refuses piles beyond its table', () => {
    const game = createVariant(noRepeat, { n: 30 });
    expect(game.solver?.()).toBe(game.solver?.());
    expect(() => game.solver?.()?.value(at(31))).toThrow(TooLargeError);
    expect(() => game.solver?.()?.bestMove(at(31))).toThrow(TooLargeError);
  });

  it('answers piles beyond the table limit through the period (rows repeat every 13 from pile 9)', () => {
    const solver = createVariant(noRepeat, { n: MAX_NO_REPEAT_PILE + 1 }).solver?.();
    const small = createVariant(noRepeat, { n: 200 }).solver?.();
    // 2^25 + 1 ≡ 16 (mod 13), and 16 is past the pre-period.
    for (const f of [null, 1, 2, 3, 4, 5]) {
      expect(solver?.value(at(MAX_NO_REPEAT_PILE + 1, f))).toBe(small?.value(at(16, f)));
      expect(solver?.bestMove(at(MAX_NO_REPEAT_PILE + 1, f))).toBe(small?.bestMove(at(16, f)));
    }
  });
});

describe('no-repeat: rules, notation and parameters', () => {
  const game = createVariant(noRepeat, { moves: '1,2,3', n: '10..20' });

  it('deals start positions with nothing forbidden, first to move', () => {
    for (let seed = 0; seed < 10; seed++) {
      const s = game.deal(createRng(seed));
      expect(s.forbidden).toBeNull();
      expect(s.turn).toBe('first');
      expect(s.pile).toBeGreaterThanOrEqual(10);
      expect(s.pile).toBeLessThanOrEqual(20);
    }
  });

  it('forbids repeating the opponent’s last take; the first move is free', () => {
    const s0 = at(10);
    expect(game.moves(s0)).toEqual([1, 2, 3]);
    const s1 = game.play(s0, 2);
    expect(s1).toEqual(at(8, 2, 'second'));
    expect(s0).toEqual(at(10)); // pure
    expect(game.moves(s1)).toEqual([1, 3]);
    expect(game.moves(game.play(s1, 3))).toEqual([1, 2]);
  });

  it('ends when the only fitting takes are forbidden', () => {
    const stuck = at(1, 1, 'second');
    expect(game.moves(stuck)).toEqual([]);
    expect(game.outcome(stuck)).toEqual({ winner: 'first' });
    expect(game.outcome(at(2, 1))).toBeNull();
  });

  it('gives different keys to different states', () => {
    const keys = new Set<string | number | bigint>();
    for (let pile = 0; pile < 20; pile++) {
      for (const f of [null, 1, 2, 3]) for (const t of ['first', 'second'] as const) keys.add(game.key(at(pile, f, t)));
    }
    expect(keys.size).toBe(20 * 4 * 2);
    expect(game.key(at(2 ** 52, 3))).not.toBe(game.key(at(2 ** 52, 2)));
  });

  it('formats and parses moves; a forbidden take is illegal', () => {
    expect(game.formatMove(3)).toBe('3');
    expect(game.parseMove('3', at(5, 2))).toBe(3);
    expect(() => game.parseMove('2', at(5, 2))).toThrow('Taking 2 is not legal here; legal takes: 1, 3');
    expect(() => game.parseMove('two', at(5))).toThrow(MoveError);
  });

  it('describes positions and reports heuristic and size', () => {
    expect(game.describe(at(5, 2, 'second'))).toBe('pile 5, taking 2 forbidden, second to move');
    expect(game.describe(at(5))).toBe('pile 5, nothing forbidden, first to move');
    expect(game.toJSON(at(5, 2))).toEqual({ pile: 5, forbidden: 2 });
    expect(game.heuristic?.(at(5), 3)).toBe(3);
    expect(game.size?.(at(5))).toBe(5);
  });

  it('rejects bad parameters and tabulate ranges', () => {
    expect(() => createVariant(noRepeat, { moves: '1,x' })).toThrow(ParamError);
    expect(() => createVariant(noRepeat, { moves: '1,x' })).toThrow('Expected `moves` to be 1 to 64 distinct positive integers');
    expect(() => createVariant(noRepeat, { n: 'lots' })).toThrow(/Expected `n`/);
    expect(() => createVariant(noRepeat, { colour: 'red' })).toThrow(/Unknown parameter `colour` for no-repeat/);
    expect(() => tabulate(game, -3)).toThrow(ParamError);
    expect(() => tabulate(game, MAX_NO_REPEAT_PILE + 1)).toThrow(TooLargeError);
  });
});
