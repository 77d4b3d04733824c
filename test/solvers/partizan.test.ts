import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  partizanBestMove,
  partizanClass,
  partizanClasses,
  partizanTable,
  partizanWins,
} from '../../src/solvers/partizan.ts';

/** Straight from GAMES.md 3: the side to move wins when one of its takes leaves the other side lost. */
function naive(left: readonly number[], right: readonly number[]): (n: number, leftToMove: boolean) => boolean {
  const memo = new Map<string, boolean>();
  const win = (n: number, l: boolean): boolean => {
    const key = `${n}/${l}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const w = (l ? left : right).some((s) => s <= n && !win(n - s, !l));
    memo.set(key, w);
    return w;
  };
  return win;
}

const setArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 })
  .map((xs) => xs.sort((a, b) => a - b));

const below100 = (excluded: readonly number[]): number[] =>
  Array.from({ length: 100 }, (_, n) => n).filter((n) => !excluded.includes(n));

describe('partizan classes (GAMES.md 3)', () => {
  it('left = {2,5,9}, right = {3,4,8}: P = {0,1}, N = {3,4,5,8,9}, R = {}, the rest L', () => {
    const c = partizanClasses(partizanTable([2, 5, 9], [3, 4, 8], 99), 99);
    expect(c.P).toEqual([0, 1]);
    expect(c.N).toEqual([3, 4, 5, 8, 9]);
    expect(c.R).toEqual([]);
    expect(c.L).toEqual(below100([0, 1, 3, 4, 5, 8, 9]));
  });

  it('left = {2,5,9}, right = {2,4,8}: P = {0,1,7,14}, N = {2,3,5,6,9,10,12,16,19,23}, L = {}, the rest R', () => {
    const c = partizanClasses(partizanTable([2, 5, 9], [2, 4, 8], 99), 99);
    const p = [0, 1, 7, 14];
    const n = [2, 3, 5, 6, 9, 10, 12, 16, 19, 23];
    expect(c.P).toEqual(p);
    expect(c.N).toEqual(n);
    expect(c.L).toEqual([]);
    expect(c.R).toEqual(below100([...p, ...n]));
  });
});

describe('partizan solver against brute force', () => {
  it('both win bitsets and the class match naive minimax', () => {
    fc.assert(
      fc.property(setArb, setArb, fc.integer({ min: 0, max: 150 }), (left, right, upto) => {
        const t = partizanTable(left, right, upto);
        const win = naive(left, right);
        for (let n = 0; n <= upto; n++) {
          const l = win(n, true);
          const r = win(n, false);
          if (partizanWins(t, n, true) !== l || partizanWins(t, n, false) !== r) return false;
          if (partizanClass(t, n) !== (l ? (r ? 'N' : 'L') : r ? 'R' : 'P')) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('both fills (register windows: at most 4 takes a side, none above 32; else pile by pile) match it, with no bit set past the table', () => {
    const wideArb = fc
      .uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 })
      .map((xs) => xs.sort((a, b) => a - b));
    fc.assert(
      fc.property(wideArb, wideArb, fc.integer({ min: 0, max: 300 }), (left, right, upto) => {
        const t = partizanTable(left, right, upto);
        const win = naive(left, right);
        for (let n = 0; n <= upto; n++) {
          if (partizanWins(t, n, true) !== win(n, true) || partizanWins(t, n, false) !== win(n, false)) return false;
        }
        for (let n = upto + 1; n < t.left.length * 32; n++) {
          if ((t.left[n >>> 5]! >>> (n & 31)) & 1 || (t.right[n >>> 5]! >>> (n & 31)) & 1) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('bestMove is the largest winning take of the side to move, else its smallest legal take, else null', () => {
    fc.assert(
      fc.property(setArb, setArb, fc.integer({ min: 0, max: 60 }), (left, right, upto) => {
        const t = partizanTable(left, right, upto);
        const win = naive(left, right);
        for (let n = 0; n <= upto; n++) {
          for (const l of [true, false]) {
            const legal = (l ? left : right).filter((s) => s <= n);
            const winning = legal.filter((s) => !win(n - s, !l));
            const expected = winning.length ? Math.max(...winning) : legal.length ? Math.min(...legal) : null;
            if (partizanBestMove(t, left, right, n, l) !== expected) return false;
          }
        }
        return true;
      }),
      { numRuns: 150 },
    );
  });

  it('rejects piles outside the table', () => {
    const t = partizanTable([1], [2], 10);
    expect(() => partizanWins(t, 11, true)).toThrow(RangeError);
    expect(() => partizanClass(t, -1)).toThrow(RangeError);
  });
});
