import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndGameTable, EndGameTables, endGameValue } from '../../src/solvers/end-game.ts';

/** Brute-force minimax: best margin for the player to move on row[lo..hi), no memo. */
function brute(row: readonly number[], lo: number, hi: number): number {
  if (lo === hi) return 0;
  return Math.max(row[lo]! - brute(row, lo + 1, hi), row[hi - 1]! - brute(row, lo, hi - 1));
}

const rowArb = (maxLength: number): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 0, maxLength });

describe('End Game interval DP', () => {
  it('row −1 3 9 4: margin +1 (8 to 7), best first move L', () => {
    expect(endGameValue([-1, 3, 9, 4])).toBe(1);
    const table = new EndGameTable([-1, 3, 9, 4]);
    expect(table.value(0, 4)).toBe(1);
    expect(table.bestMove(0, 4)).toBe('L');
  });

  it('endGameValue equals brute-force minimax on every interval', () => {
    fc.assert(
      fc.property(rowArb(11), (row) => {
        for (let lo = 0; lo <= row.length; lo++) {
          for (let hi = lo; hi <= row.length; hi++) expect(endGameValue(row, lo, hi)).toBe(brute(row, lo, hi));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('EndGameTable equals brute force on every interval, whatever the block size and query order', () => {
    fc.assert(
      fc.property(rowArb(11), fc.integer({ min: 1, max: 13 }), fc.boolean(), (row, block, reverse) => {
        const table = new EndGameTable(row, block);
        const queries: [number, number][] = [];
        for (let lo = 0; lo <= row.length; lo++) for (let hi = lo; hi <= row.length; hi++) queries.push([lo, hi]);
        if (reverse) queries.reverse();
        for (const [lo, hi] of queries) expect(table.value(lo, hi)).toBe(brute(row, lo, hi));
      }),
      { numRuns: 150 },
    );
  });

  it('bestMove keeps the optimal margin and prefers L on ties', () => {
    fc.assert(
      fc.property(rowArb(10), (row) => {
        const table = new EndGameTable(row, 3);
        for (let lo = 0; lo < row.length; lo++) {
          for (let hi = lo + 1; hi <= row.length; hi++) {
            const left = row[lo]! - brute(row, lo + 1, hi);
            const right = row[hi - 1]! - brute(row, lo, hi - 1);
            expect(table.bestMove(lo, hi)).toBe(left >= right ? 'L' : 'R');
          }
        }
        expect(table.bestMove(0, 0)).toBeNull();
      }),
      { numRuns: 100 },
    );
    expect(new EndGameTable([2, 2]).bestMove(0, 2)).toBe('L');
    expect(new EndGameTable([1, 5]).bestMove(0, 2)).toBe('R');
  });

  it('even lengths: the first player never loses (value ≥ 0)', () => {
    fc.assert(
      fc.property(rowArb(16).filter((r) => r.length % 2 === 0), (row) => {
        expect(endGameValue(row)).toBeGreaterThanOrEqual(0);
        // The odd/even-positions strategy of GAMES.md is a lower bound.
        const odd = row.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
        const even = row.reduce((a, b) => a + b, 0) - odd;
        expect(endGameValue(row)).toBeGreaterThanOrEqual(Math.abs(odd - even));
      }),
      { numRuns: 200 },
    );
  });

  it('stays exact with large numbers (Float64 cells) and at the edge of the Int32 cells', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 8 }), fc.integer({ min: 1, max: 4 }), (row, block) => {
        const table = new EndGameTable(row, block);
        for (let lo = 0; lo <= row.length; lo++) {
          for (let hi = lo; hi <= row.length; hi++) {
            expect(table.value(lo, hi)).toBe(brute(row, lo, hi));
            expect(endGameValue(row, lo, hi)).toBe(brute(row, lo, hi));
          }
        }
      }),
      { numRuns: 60 },
    );
    const edge = [2 ** 28 - 1, -(2 ** 28 - 1), 2 ** 28 - 1, -(2 ** 28 - 2)]; // absolute sum 2^30 − 5: Int32 cells
    expect(endGameValue(edge)).toBe(brute(edge, 0, 4));
    expect(new EndGameTable(edge, 2).value(0, 4)).toBe(brute(edge, 0, 4));
    const over = [2 ** 29, -(2 ** 29), 2 ** 29, -(2 ** 29)]; // absolute sum 2^31: Float64 cells
    expect(endGameValue(over)).toBe(brute(over, 0, 4));
  });

  it('agrees between the O(N) and checkpointed forms on a long row', () => {
    const row = Array.from({ length: 700 }, (_, i) => ((i * 7919) % 41) - 20);
    const table = new EndGameTable(row);
    expect(table.value(0, 700)).toBe(endGameValue(row));
    expect(table.value(123, 601)).toBe(endGameValue(row, 123, 601));
  });

  it('rejects bad intervals', () => {
    const table = new EndGameTable([1, 2, 3]);
    expect(() => table.value(2, 1)).toThrow(RangeError);
    expect(() => table.value(0, 4)).toThrow(RangeError);
  });
});

describe('EndGameTables', () => {
  it('reuses a table for the same row, by identity or by content, and evicts the least recent', () => {
    const tables = new EndGameTables(2);
    const a = [1, 2, 3];
    const t = tables.get(a);
    expect(tables.get(a)).toBe(t);
    expect(tables.get(structuredClone(a))).toBe(t);
    const b = tables.get([4, 5]);
    tables.get([6]); // evicts [1, 2, 3]
    expect(tables.get([4, 5])).toBe(b);
    expect(tables.get(a)).not.toBe(t);
  });
});

/** The table version: every interval value in an O(N²) triangle, by increasing length. */
function fullTable(row: readonly number[]): (lo: number, hi: number) => number {
  const n = row.length;
  const t = new Float64Array((n + 1) * (n + 1)); // t[lo·(n+1) + hi]
  for (let len = 1; len <= n; len++) {
    for (let lo = 0; lo + len <= n; lo++) {
      const hi = lo + len;
      t[lo * (n + 1) + hi] = Math.max(row[lo]! - t[(lo + 1) * (n + 1) + hi]!, row[hi - 1]! - t[lo * (n + 1) + hi - 1]!);
    }
  }
  return (lo, hi) => t[lo * (n + 1) + hi]!;
}

describe('End Game in O(N) memory against the O(N²) table version', () => {
  // Lengths past 6 take the six-diagonals-per-pass sweep (Int32 cells) and its one-diagonal
  // tail; rows of large numbers take the Float64 cells. Lengths are drawn uniformly (fast-check's
  // default sizes would keep most rows short).
  const rowOf = (maxLength: number, values: fc.Arbitrary<number>): fc.Arbitrary<number[]> =>
    fc.integer({ min: 0, max: maxLength }).chain((n) => fc.array(values, { minLength: n, maxLength: n }));
  const rowArb60 = fc.oneof(rowOf(60, fc.integer({ min: -20, max: 20 })), rowOf(60, fc.integer({ min: -1e9, max: 1e9 })));

  it('endGameValue on every interval of random rows up to 60 numbers (Int32 and Float64 cells)', () => {
    fc.assert(
      fc.property(rowArb60, (row) => {
        const want = fullTable(row);
        for (let lo = 0; lo <= row.length; lo++) {
          for (let hi = lo; hi <= row.length; hi += 1 + (hi % 3)) expect(endGameValue(row, lo, hi)).toBe(want(lo, hi));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('EndGameTable (checkpoints, any block size) on random intervals of rows up to 90 numbers', () => {
    fc.assert(
      fc.property(
        rowOf(90, fc.integer({ min: -50, max: 50 })).filter((row) => row.length > 0),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 30 }),
        (row, block, queries) => {
          const want = fullTable(row);
          const table = new EndGameTable(row, block);
          for (const [a, b] of queries) {
            const lo = Math.min(a % (row.length + 1), b % (row.length + 1));
            const hi = Math.max(a % (row.length + 1), b % (row.length + 1));
            expect(table.value(lo, hi)).toBe(want(lo, hi));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('endGameValue on random rows up to 250 numbers (several 6-trip groups per pass, any length mod 6)', () => {
    fc.assert(
      fc.property(rowOf(250, fc.integer({ min: -30, max: 30 })), fc.nat(), (row, cut) => {
        const want = fullTable(row);
        expect(endGameValue(row)).toBe(want(0, row.length));
        const lo = row.length === 0 ? 0 : cut % row.length;
        expect(endGameValue(row, lo, row.length)).toBe(want(lo, row.length));
        expect(endGameValue(row, 0, row.length - lo)).toBe(want(0, row.length - lo));
      }),
      { numRuns: 60 },
    );
  });

  it('a row of 400 numbers: the value, and an optimal game played from the table, match the table version', () => {
    const row = Array.from({ length: 400 }, (_, i) => ((i * 7919) % 41) - 20);
    const want = fullTable(row);
    expect(endGameValue(row)).toBe(want(0, 400));
    const table = new EndGameTable(row);
    let [lo, hi] = [0, 400];
    while (lo < hi) {
      const move = table.bestMove(lo, hi)!;
      const left = row[lo]! - want(lo + 1, hi);
      const right = row[hi - 1]! - want(lo, hi - 1);
      expect(move).toBe(left >= right ? 'L' : 'R');
      if (move === 'L') lo++;
      else hi--;
    }
  });
});
