import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MoveError, ParamError, TooLargeError, createRng, createVariant } from '../../src/core/index.ts';
import { MAX_TABLE_PILE, subtraction, type PileState } from '../../src/games/subtraction.ts';
import { bruteWinningMoves, bruteWins } from './onepile-brute.ts';
import { tabulate } from '../../src/games/analysis.ts';

const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];
const CONSECUTIVE = [15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26];
const at = (pile: number): PileState => ({ pile, turn: 'first' });

describe('subtraction: GAMES.md 1 facts', () => {
  it('S = {1,5,8,10}: the P-positions up to 100, periodic with period 13', () => {
    const game = createVariant(subtraction, { moves: [1, 5, 8, 10] });
    const expected = [
      0, 2, 4, 6, 13, 15, 17, 19, 26, 28, 30, 32, 39, 41, 43, 45, 52, 54, 56, 58, 65, 67, 69, 71, 78, 80, 82, 84, 91,
      93, 95, 97,
    ];
    expect(tabulate(game, 100)?.pPositions).toEqual(expected);
    const big = tabulate(game, 2000)?.pPositions ?? [];
    expect(big.every((n) => [0, 2, 4, 6].includes(n % 13))).toBe(true);
    expect(big.length).toBe(4 * Math.floor(2000 / 13) + [0, 2, 4, 6].filter((r) => r <= 2000 % 13).length);
  });

  it('seed 002: n = 1764 is an N-position and the largest winning take is 28', () => {
    const game = createVariant(subtraction, { moves: SEED_002, n: 1764 });
    const solver = game.solver?.();
    expect(solver?.classify(at(1764))).toBe('N');
    expect(solver?.value(at(1764))).toBe(1);
    expect(solver?.bestMove(at(1764))).toBe(28);
    // 28 is winning and no larger take is
    expect(solver?.value(at(1764 - 28))).toBe(-1);
    for (const s of [33, 38, 41]) expect(solver?.value(at(1764 - s))).toBe(1);
  });

  it('S = {15..26}: 1764 is a P-position by the O(1) rule, with no table even for huge piles', () => {
    // A pile range up to 2^53 rules out any table: the answer must come from the rule.
    const game = createVariant(subtraction, { moves: CONSECUTIVE, n: [0, Number.MAX_SAFE_INTEGER] });
    const solver = game.solver?.();
    expect(solver?.classify(at(1764))).toBe('P');
    expect(solver?.classify(at(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER % 41 < 15 ? 'P' : 'N');
    expect(solver?.bestMove(at(1764))).toBe(15); // lost: the smallest take
    // 1779 ≡ 16 (mod 41): takes 15 and 16 reach residues below 15; the largest wins
    expect(solver?.bestMove(at(1779))).toBe(16);
  });

  it('answers piles far beyond any table once the period is known', () => {
    const game = createVariant(subtraction, { moves: SEED_002, n: [0, 1e15] });
    const solver = game.solver?.();
    const small = createVariant(subtraction, { moves: SEED_002, n: 56 * 3 }).solver?.();
    // period 56 from pile 1, so 1e15 behaves like the pile 1 + (1e15 − 1) mod 56
    const reduced = 1 + ((1e15 - 1) % 56);
    expect(solver?.value(at(1e15))).toBe(small?.value(at(reduced)));
    expect(solver?.value(at(1764))).toBe(1);
  });
});

describe('subtraction: solver against brute force', () => {
  const setArb = fc
    .uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 })
    .map((xs) => xs.sort((a, b) => a - b));

  it('value, classify and bestMove match a naive memoized minimax on random small sets', () => {
    fc.assert(
      fc.property(setArb, fc.integer({ min: 0, max: 80 }), (moves, maxPile) => {
        const game = createVariant(subtraction, { moves, n: maxPile });
        const solver = game.solver?.();
        if (!solver) return false;
        const memo = new Map<string | number | bigint, boolean>();
        for (let pile = 0; pile <= maxPile; pile++) {
          const s = at(pile);
          const win = bruteWins(game, s, memo);
          if (solver.value(s) !== (win ? 1 : -1) || solver.classify(s) !== (win ? 'N' : 'P')) return false;
          const winning = bruteWinningMoves(game, s, memo);
          const legal = game.moves(s);
          const expected = win ? Math.max(...winning) : legal.length ? Math.min(...legal) : null;
          if (solver.bestMove(s) !== expected) return false;
        }
        return true;
      }),
      { numRuns: 150 },
    );
  });

  it('is built once per variant', () => {
    const game = createVariant(subtraction, { moves: [2, 3], n: 100 });
    expect(game.solver?.()).toBe(game.solver?.());
  });

  it('refuses piles beyond a table-only solver', () => {
    const solver = createVariant(subtraction, { moves: [2, 5], n: 100 }).solver?.();
    expect(() => solver?.value(at(101))).toThrow(TooLargeError);
  });

  it('has no solver when neither the period nor a table is affordable', () => {
    const game = createVariant(subtraction, { moves: [1, MAX_TABLE_PILE * 2], n: MAX_TABLE_PILE * 3 });
    expect(game.solver?.()).toBeUndefined();
  });
});

describe('subtraction: rules, notation and parameters', () => {
  const game = createVariant(subtraction, { moves: '1,5,8,10', n: '50..200' });

  it('deals piles in range, first to move, reproducibly', () => {
    for (let seed = 0; seed < 20; seed++) {
      const s = game.deal(createRng(seed));
      expect(s.pile).toBeGreaterThanOrEqual(50);
      expect(s.pile).toBeLessThanOrEqual(200);
      expect(s.turn).toBe('first');
      expect(game.deal(createRng(seed))).toEqual(s);
    }
  });

  it('lists fitting takes, plays purely and ends when no take fits', () => {
    const s = at(7);
    expect(game.moves(s)).toEqual([1, 5]);
    const next = game.play(s, 5);
    expect(next).toEqual({ pile: 2, turn: 'second' });
    expect(s).toEqual(at(7));
    expect(game.outcome(next)).toBeNull();
    expect(game.outcome({ pile: 0, turn: 'second' })).toEqual({ winner: 'first' });
    expect(game.heuristic?.(s, 5)).toBe(5);
    expect(game.size?.(s)).toBe(7);
  });

  it('lists exactly the takes that fit, as shared frozen lists (moves lists are read-only)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), (takes) => {
        const g = createVariant(subtraction, { moves: takes });
        const sorted = [...takes].sort((a, b) => a - b);
        for (let pile = 0; pile <= 45; pile++) {
          const legal = g.moves(at(pile));
          expect(legal).toEqual(sorted.filter((m) => m <= pile));
          expect(Object.isFrozen(legal)).toBe(true);
        }
        // Every pile at least the largest take shares one list, bigint piles included.
        expect(g.moves({ pile: 2n ** 60n, turn: 'second' })).toBe(g.moves(at(sorted[sorted.length - 1]!)));
      }),
    );
  });

  it('formats and parses moves, rejecting bad text and illegal takes', () => {
    expect(game.formatMove(8)).toBe('8');
    expect(game.parseMove(' 8 ', at(9))).toBe(8);
    expect(() => game.parseMove('eight', at(9))).toThrow(MoveError);
    expect(() => game.parseMove('eight', at(9))).toThrow('Expected a move as the number of stones to take, e.g. `5`, got "eight"');
    expect(() => game.parseMove('-1', at(9))).toThrow(MoveError);
    expect(() => game.parseMove('10', at(9))).toThrow('Taking 10 is not legal here; legal takes: 1, 5, 8');
    expect(() => game.parseMove('3', at(9))).toThrow(MoveError);
  });

  it('rejects bad parameters with a message naming the field', () => {
    expect(() => createVariant(subtraction, { moves: '3,0' })).toThrow(ParamError);
    expect(() => createVariant(subtraction, { moves: '3,0' })).toThrow('Expected `moves` to be 1 to 64 distinct positive integers');
    expect(() => createVariant(subtraction, { moves: [2, 2] })).toThrow(/`moves`.*got \[2, 2\]/);
    expect(() => createVariant(subtraction, { moves: Array.from({ length: 65 }, (_, i) => i + 1) })).toThrow(ParamError);
    expect(() => createVariant(subtraction, { n: -1 })).toThrow(/Expected `n` to be a non-negative integer or a range/);
    expect(() => createVariant(subtraction, { n: '9..3' })).toThrow(/`n`.*got "9\.\.3"/);
  });

  it('checks the range of tabulate', () => {
    expect(() => tabulate(game, -1)).toThrow(ParamError);
    expect(() => tabulate(game, 1.5)).toThrow(/Expected `upto` to be a non-negative integer, got 1.5/);
    expect(() => tabulate(game, MAX_TABLE_PILE + 1)).toThrow(TooLargeError);
  });

  it('tabulates consecutive sets by the rule', () => {
    const g = createVariant(subtraction, { moves: [2, 3, 4] });
    expect(tabulate(g, 20)?.pPositions).toEqual([0, 1, 6, 7, 12, 13, 18, 19]);
  });
});
