import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MoveError, ParamError, TooLargeError, createRng, createVariant, type Seat } from '../../src/core/index.ts';
import { partizan, type PartizanState } from '../../src/games/partizan.ts';
import { bruteWinningMoves, bruteWins } from './onepile-brute.ts';
import { tabulate } from '../../src/games/analysis.ts';

const at = (pile: number, turn: Seat = 'first'): PartizanState => ({ pile, turn });
const below100 = (excluded: readonly number[]): number[] =>
  Array.from({ length: 100 }, (_, n) => n).filter((n) => !excluded.includes(n));

describe('partizan: GAMES.md 3 facts', () => {
  it('left = {2,5,9}, right = {3,4,8}: P = {0,1}, N = {3,4,5,8,9}, R = {}, every other n < 100 is L', () => {
    const game = createVariant(partizan, { left: [2, 5, 9], right: [3, 4, 8] });
    expect(tabulate(game, 99)?.classes).toEqual({
      P: [0, 1],
      N: [3, 4, 5, 8, 9],
      R: [],
      L: below100([0, 1, 3, 4, 5, 8, 9]),
    });
  });

  it('left = {2,5,9}, right = {2,4,8}: P = {0,1,7,14}, N = {2,3,5,6,9,10,12,16,19,23}, L = {}, the rest R', () => {
    const game = createVariant(partizan, { left: '2,5,9', right: '2,4,8' });
    const p = [0, 1, 7, 14];
    const n = [2, 3, 5, 6, 9, 10, 12, 16, 19, 23];
    expect(tabulate(game, 99)?.classes).toEqual({ P: p, N: n, L: [], R: below100([...p, ...n]) });
  });

  it('classify gives the class whoever is to move; value follows the side to move', () => {
    const game = createVariant(partizan, { left: [2, 5, 9], right: [2, 4, 8], n: 99 });
    const solver = game.solver?.();
    const memo = new Map<string | number | bigint, boolean>();
    for (let n = 0; n < 100; n++) {
      const l = bruteWins(game, at(n, 'first'), memo);
      const r = bruteWins(game, at(n, 'second'), memo);
      const cls = l ? (r ? 'N' : 'L') : r ? 'R' : 'P';
      expect(solver?.classify(at(n, 'first'))).toBe(cls);
      expect(solver?.classify(at(n, 'second'))).toBe(cls);
      expect(solver?.value(at(n, 'first'))).toBe(l ? 1 : -1);
      expect(solver?.value(at(n, 'second'))).toBe(r ? 1 : -1);
    }
  });
});

describe('partizan: solver against brute force', () => {
  const setArb = fc
    .uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 4 })
    .map((xs) => xs.sort((a, b) => a - b));

  it('value, classify and bestMove match a naive memoized minimax over the rules', () => {
    fc.assert(
      fc.property(setArb, setArb, fc.integer({ min: 0, max: 60 }), (left, right, maxPile) => {
        const game = createVariant(partizan, { left, right, n: maxPile });
        const solver = game.solver?.();
        if (!solver) return false;
        const memo = new Map<string | number | bigint, boolean>();
        for (let pile = 0; pile <= maxPile; pile++) {
          const l = bruteWins(game, at(pile, 'first'), memo);
          const r = bruteWins(game, at(pile, 'second'), memo);
          const cls = l ? (r ? 'N' : 'L') : r ? 'R' : 'P';
          for (const turn of ['first', 'second'] as const) {
            const s = at(pile, turn);
            const win = turn === 'first' ? l : r;
            if (solver.value(s) !== (win ? 1 : -1) || solver.classify(s) !== cls) return false;
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
    const game = createVariant(partizan, { n: 40 });
    expect(game.solver?.()).toBe(game.solver?.());
    expect(() => game.solver?.()?.classify(at(41))).toThrow(TooLargeError);
  });
});

describe('partizan: rules, notation and parameters', () => {
  const game = createVariant(partizan, { left: [2, 5, 9], right: [3, 4, 8], n: '10..30' });

  it('the first seat plays Left, the second Right', () => {
    expect(game.moves(at(10, 'first'))).toEqual([2, 5, 9]);
    expect(game.moves(at(10, 'second'))).toEqual([3, 4, 8]);
    expect(game.moves(at(3, 'first'))).toEqual([2]);
    const next = game.play(at(10, 'first'), 9);
    expect(next).toEqual(at(1, 'second'));
    expect(game.outcome(next)).toEqual({ winner: 'first' });
    expect(game.outcome(at(2, 'second'))).toEqual({ winner: 'first' });
    expect(game.outcome(at(2, 'first'))).toBeNull();
  });

  it('`start` chooses which side moves first in dealt positions', () => {
    const leftFirst = game.deal(createRng(3));
    expect(leftFirst.turn).toBe('first');
    const rightFirst = createVariant(partizan, { n: '10..30', start: 'right' }).deal(createRng(3));
    expect(rightFirst.turn).toBe('second');
    expect(rightFirst.pile).toBe(leftFirst.pile);
  });

  it('describes positions with the side to move', () => {
    expect(game.describe(at(7, 'second'))).toBe('pile 7, Right (second) to move');
    expect(game.toJSON(at(7, 'first'))).toEqual({ pile: 7, side: 'left' });
    expect(game.heuristic?.(at(7), 5)).toBe(5);
    expect(game.size?.(at(7))).toBe(7);
  });

  it('formats and parses moves; the other side’s take is illegal', () => {
    expect(game.formatMove(9)).toBe('9');
    expect(game.parseMove('9', at(10, 'first'))).toBe(9);
    expect(() => game.parseMove('3', at(10, 'first'))).toThrow('Taking 3 is not legal here; legal takes: 2, 5, 9');
    expect(() => game.parseMove('1.5', at(10))).toThrow(MoveError);
  });

  it('rejects bad parameters with a message naming the field', () => {
    expect(() => createVariant(partizan, { start: 'middle' })).toThrow('Expected `start` to be `left` or `right`, got "middle"');
    expect(() => createVariant(partizan, { left: '0' })).toThrow(/Expected `left` to be 1 to 64 distinct positive integers/);
    expect(() => createVariant(partizan, { right: [] })).toThrow(ParamError);
    expect(() => createVariant(partizan, { lefty: [1] })).toThrow(/Unknown parameter `lefty` for partizan \(did you mean `left`\?\)/);
    expect(() => tabulate(game, -1)).toThrow(ParamError);
  });

  it('declares the choices of `start`', () => {
    expect(partizan.params.start.choices).toEqual(['left', 'right']);
    expect(createVariant(partizan).params.start).toBe('left');
  });
});
