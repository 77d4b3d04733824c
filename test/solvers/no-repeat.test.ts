import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LOST,
  WON,
  noRepeatBestMove,
  noRepeatPPositions,
  noRepeatTable,
  noRepeatWins,
} from '../../src/solvers/no-repeat.ts';

/** Straight from GAMES.md 2: win(n, f) when some take s ≤ n, s ≠ f leaves (n − s, s) lost. */
function naive(moves: readonly number[]): (n: number, f: number | null) => boolean {
  const memo = new Map<string, boolean>();
  const win = (n: number, f: number | null): boolean => {
    const key = `${n}/${f}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const w = moves.some((s) => s <= n && s !== f && !win(n - s, s));
    memo.set(key, w);
    return w;
  };
  return win;
}

const setArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 6 })
  .map((xs) => xs.sort((a, b) => a - b));

describe('noRepeatTable', () => {
  it('S = {1..5}: the losing start positions up to 100 are n mod 13 ∈ {0, 7} (GAMES.md 2)', () => {
    const table = noRepeatTable([1, 2, 3, 4, 5], 100);
    expect(noRepeatPPositions(table, 100)).toEqual([0, 7, 13, 20, 26, 33, 39, 46, 52, 59, 65, 72, 78, 85, 91, 98]);
  });

  it('S = {1..5}: the same pattern holds far beyond 100', () => {
    const upto = 200_000;
    const p = noRepeatPPositions(noRepeatTable([1, 2, 3, 4, 5], upto), upto);
    const expected: number[] = [];
    for (let n = 0; n <= upto; n++) if (n % 13 === 0 || n % 13 === 7) expected.push(n);
    expect(p).toEqual(expected);
  });

  it('matches naive minimax for every (pile, forbidden) on random sets', () => {
    fc.assert(
      fc.property(setArb, fc.integer({ min: 0, max: 120 }), (moves, upto) => {
        const table = noRepeatTable(moves, upto);
        const win = naive(moves);
        for (let n = 0; n <= upto; n++) {
          for (const f of [null, ...moves]) if (noRepeatWins(table, moves, n, f) !== win(n, f)) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('bestMove is the largest winning take, else the smallest legal one, else null', () => {
    fc.assert(
      fc.property(setArb, fc.integer({ min: 0, max: 60 }), (moves, upto) => {
        const table = noRepeatTable(moves, upto);
        const win = naive(moves);
        for (let n = 0; n <= upto; n++) {
          for (const f of [null, ...moves]) {
            const legal = moves.filter((s) => s <= n && s !== f);
            const winning = legal.filter((s) => !win(n - s, s));
            const expected = winning.length ? Math.max(...winning) : legal.length ? Math.min(...legal) : null;
            if (noRepeatBestMove(table, moves, n, f) !== expected) return false;
          }
        }
        return true;
      }),
      { numRuns: 150 },
    );
  });

  it('stores one byte per pile with the row codes', () => {
    const table = noRepeatTable([1, 2], 4);
    expect(table.length).toBe(5);
    expect(table[0]).toBe(LOST);
    const win = naive([1, 2]);
    // pile 1: taking 1 wins unless 1 is forbidden, so the row is "won unless S[0]" (code 2)
    expect(table[1]).toBe(2);
    for (let n = 0; n <= 4; n++) {
      const c = table[n]!;
      const row = [null, 1, 2].map((f) => win(n, f));
      if (c === LOST) expect(row).toEqual([false, false, false]);
      else if (c === WON) expect(row).toEqual([true, true, true]);
      else expect(row).toEqual([true, ...[1, 2].map((s, i) => i + 2 !== c)]);
    }
  });

  it('treats an amount outside S as forbidding nothing', () => {
    const table = noRepeatTable([1, 2], 10);
    for (let n = 0; n <= 10; n++) expect(noRepeatWins(table, [1, 2], n, 7)).toBe(noRepeatWins(table, [1, 2], n, null));
  });

  it('matches a direct table over (pile, forbidden) for long tables and takes at and past the ring limit', () => {
    // noRepeatTable fills through a ring of the last 2^16 piles, in stretches of 2^15, for takes up
    // to 2^16; a larger take goes pile by pile. Each case crosses several stretches. A lost pile
    // pushes up to 12 takes in straight-line code, more in a loop: 12 and 13 takes cover both.
    const twelve = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 30000];
    for (const moves of [[1, 65536], [2, 7, 30000], [3, 65537], [5, 6, 40000], twelve, [...twelve, 65536]]) {
      const upto = 140_000;
      const table = noRepeatTable(moves, upto);
      // won[n * (k + 1) + f]: f = 0 nothing forbidden, f = i + 1 take moves[i] forbidden.
      const k = moves.length;
      const won = new Uint8Array((upto + 1) * (k + 1));
      for (let n = 0; n <= upto; n++) {
        for (let f = 0; f <= k; f++) {
          let w = 0;
          for (let i = 0; i < k && !w; i++) {
            const p = n - moves[i]!;
            if (p >= 0 && i + 1 !== f && !won[p * (k + 1) + i + 1]) w = 1;
          }
          won[n * (k + 1) + f] = w;
        }
      }
      for (let n = 0; n <= upto; n++) {
        for (let f = 0; f <= k; f++) {
          if (noRepeatWins(table, moves, n, f === 0 ? null : moves[f - 1]!) !== (won[n * (k + 1) + f] === 1)) {
            throw new Error(`S = {${moves.join(',')}}: pile ${n}, forbidden ${f === 0 ? 'none' : moves[f - 1]} differs`);
          }
        }
      }
    }
  });

  it('rejects piles beyond the table', () => {
    expect(() => noRepeatWins(noRepeatTable([1], 5), [1], 6, null)).toThrow(RangeError);
  });
});
