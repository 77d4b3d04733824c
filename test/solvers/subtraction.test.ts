import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consecutiveIsP,
  findPeriod,
  isConsecutive,
  isN,
  periodicIsN,
  pPositionsOf,
  subtractionPeriod,
  subtractionTable,
  tableWords,
} from '../../src/solvers/subtraction.ts';

const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];
const P_1_5_8_10 = [
  0, 2, 4, 6, 13, 15, 17, 19, 26, 28, 30, 32, 39, 41, 43, 45, 52, 54, 56, 58, 65, 67, 69, 71, 78, 80, 82, 84, 91, 93,
  95, 97,
];

/** Straight from the rules: n is N when some take s ≤ n leaves a P-position. Memoized, no bit tricks. */
function naiveWins(moves: readonly number[], upto: number): boolean[] {
  const memo = new Map<number, boolean>();
  const win = (n: number): boolean => {
    const known = memo.get(n);
    if (known !== undefined) return known;
    const w = moves.some((s) => s <= n && !win(n - s));
    memo.set(n, w);
    return w;
  };
  return Array.from({ length: upto + 1 }, (_, n) => win(n));
}

/** The same rule bottom-up, for tables too long for recursion. */
function naiveWinsIterative(moves: readonly number[], upto: number): boolean[] {
  const w: boolean[] = [];
  for (let n = 0; n <= upto; n++) w.push(moves.some((s) => s <= n && !w[n - s]));
  return w;
}

/** Whether `subtractionTable` agrees with a naive table on every pile 0..upto. */
function agreesWithNaive(moves: readonly number[], upto: number, naiveTable = naiveWinsIterative): boolean {
  const table = subtractionTable(moves, upto);
  const naive = naiveTable(moves, upto);
  for (let n = 0; n <= upto; n++) if (isN(table, n) !== naive[n]) return false;
  return true;
}

/** Random subtraction sets: mostly small takes (scalar path) and some with min S ≥ 4 (word-parallel path). */
const moveSet = fc
  .oneof(
    fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }),
    fc.uniqueArray(fc.integer({ min: 4, max: 80 }), { minLength: 1, maxLength: 8 }),
    fc.uniqueArray(fc.integer({ min: 32, max: 120 }), { minLength: 1, maxLength: 4 }),
  )
  .map((xs) => [...xs].sort((a, b) => a - b));

describe('subtractionTable', () => {
  it('gives the P-positions of S = {1,5,8,10} up to 100 (GAMES.md 1)', () => {
    expect(pPositionsOf(subtractionTable([1, 5, 8, 10], 100), 100)).toEqual(P_1_5_8_10);
  });

  it('says n = 1764 is an N-position for seed 002’s set', () => {
    expect(isN(subtractionTable(SEED_002, 1764), 1764)).toBe(true);
  });

  it('matches naive minimax on random sets (both fill paths)', () => {
    fc.assert(
      fc.property(moveSet, fc.integer({ min: 0, max: 600 }), (moves, upto) => agreesWithNaive(moves, upto, naiveWins)),
      { numRuns: 300 },
    );
  });

  it('matches naive minimax on long tables of small sets (the 16-pile lookup-table path)', () => {
    const smallSet = fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }))
      .map(([first, rest]) => [...new Set([first, ...rest])].sort((a, b) => a - b));
    fc.assert(
      fc.property(smallSet, fc.integer({ min: 1 << 16, max: (1 << 16) + 100 }), (moves, upto) => agreesWithNaive(moves, upto)),
      { numRuns: 12 },
    );
    expect(pPositionsOf(subtractionTable([1, 5, 8, 10], 1 << 17), 1 << 17).every((n) => [0, 2, 4, 6].includes(n % 13))).toBe(true);
  });

  it('matches naive minimax when max S ≤ 64 (the register-window path), edges 31, 32, 33 and 64 included', () => {
    const windowSet = fc
      .uniqueArray(fc.oneof(fc.integer({ min: 4, max: 64 }), fc.constantFrom(4, 31, 32, 33, 63, 64)), { minLength: 1, maxLength: 10 })
      .map((xs) => [...xs].sort((a, b) => a - b));
    fc.assert(
      fc.property(windowSet, fc.integer({ min: 0, max: 1500 }), (moves, upto) => agreesWithNaive(moves, upto)),
      { numRuns: 300 },
    );
    // Past the fill's 4096-pile segments (each reads its window back from the words the one
    // before stored), with up to 16 takes so that the loop form (more than 12 takes up to 32, or
    // more than 4 above) runs too.
    const manyTakes = fc
      .uniqueArray(fc.integer({ min: 4, max: 64 }), { minLength: 1, maxLength: 16 })
      .map((xs) => [...xs].sort((a, b) => a - b));
    fc.assert(
      fc.property(manyTakes, fc.integer({ min: 4000, max: 9000 }), (moves, upto) => agreesWithNaive(moves, upto)),
      { numRuns: 60 },
    );
  });

  it('matches naive minimax on seed 002’s set across many words', () => {
    const upto = 5000;
    const table = subtractionTable(SEED_002, upto);
    const naive = naiveWins(SEED_002, upto);
    expect(Array.from({ length: upto + 1 }, (_, n) => isN(table, n))).toEqual(naive);
  });

  it('uses one bit per pile', () => {
    expect(subtractionTable(SEED_002, 1_000_000).byteLength).toBeLessThanOrEqual(1_000_000 / 8 + 8);
  });

  it('ignores takes larger than the table', () => {
    expect(pPositionsOf(subtractionTable([3, 1000], 10), 10)).toEqual([0, 1, 2, 6, 7, 8]);
  });

  it('fills a zeroed table it is given, reused across sets, and rejects one of the wrong size', () => {
    const upto = 3000;
    const into = new Uint32Array(tableWords(upto));
    for (const moves of [SEED_002, [1, 5, 8, 10], [2, 3]]) {
      into.fill(0);
      expect(subtractionTable(moves, upto, into)).toBe(into);
      expect(Array.from(into)).toEqual(Array.from(subtractionTable(moves, upto)));
    }
    expect(() => subtractionTable(SEED_002, upto, new Uint32Array(5))).toThrow(/Expected a table of \d+ words, got 5/);
  });
});

describe('consecutive sets (GAMES.md 1, seed 002 Game 2)', () => {
  it('recognises consecutive sets', () => {
    expect(isConsecutive([15, 16, 17])).toBe(true);
    expect(isConsecutive([7])).toBe(true);
    expect(isConsecutive([1, 2, 4])).toBe(false);
  });

  it('says 1764 is a P-position for S = {15..26}, also as a bigint', () => {
    expect(consecutiveIsP(1764, 15, 26)).toBe(true);
    expect(consecutiveIsP(1764n, 15, 26)).toBe(true);
    expect(consecutiveIsP(2n ** 63n, 15, 26)).toBe((2n ** 63n) % 41n < 15n);
  });

  it('agrees with the table for random consecutive sets', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 20 }), (a, len) => {
        const moves = Array.from({ length: len + 1 }, (_, i) => a + i);
        const table = subtractionTable(moves, 300);
        for (let n = 0; n <= 300; n++) if (consecutiveIsP(n, a, a + len) === isN(table, n)) return false;
        return true;
      }),
      { numRuns: 100 },
    );
  });
});

describe('period detection', () => {
  it('finds period 13 from 0 for {1,5,8,10}', () => {
    const p = subtractionPeriod([1, 5, 8, 10]);
    expect(p?.preperiod).toBe(0);
    expect(p?.period).toBe(13);
  });

  it('finds period a+b from 0 for consecutive sets', () => {
    const p = subtractionPeriod([15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26]);
    expect([p?.preperiod, p?.period]).toEqual([0, 41]);
  });

  it('finds the least pre-period and period for random sets (checked against a long naive table)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 4 }).map((xs) => xs.sort((a, b) => a - b)),
        (moves) => {
          const p = subtractionPeriod(moves);
          if (!p) return false;
          const upto = 3000;
          const naive = naiveWins(moves, upto);
          // periodic from the pre-period on…
          for (let n = p.preperiod; n + p.period <= upto; n++) if (naive[n] !== naive[n + p.period]) return false;
          // …and no smaller period from there, and no earlier start with that period
          for (let q = 1; q < p.period; q++) {
            let periodic = true;
            for (let n = p.preperiod; n + q <= upto && periodic; n++) periodic = naive[n] === naive[n + q];
            if (periodic) return false;
          }
          if (p.preperiod > 0) {
            const n0 = p.preperiod - 1;
            if (naive[n0] === naive[n0 + p.period]) return false;
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers any pile in O(1), up to 2^63 as a bigint', () => {
    const p = subtractionPeriod([1, 5, 8, 10])!;
    const pOf = (n: bigint): boolean => [0n, 2n, 4n, 6n].includes(n % 13n);
    for (const n of [2n ** 63n, 2n ** 63n - 1n, 10n ** 18n + 7n, 123_456_789_012n]) expect(periodicIsN(p, n)).toBe(!pOf(n));
    expect(periodicIsN(p, 1_000_000_000)).toBe(!pOf(1_000_000_000n));
  });

  it('answers beyond its table like a full table does (seed 002’s set)', () => {
    const p = subtractionPeriod(SEED_002)!;
    expect(p.upto).toBeLessThan(200_000);
    const table = subtractionTable(SEED_002, 200_000);
    const wrong: number[] = [];
    for (let n = 0; n <= 200_000; n++) if (periodicIsN(p, n) !== isN(table, n)) wrong.push(n);
    expect(wrong).toEqual([]);
    expect(periodicIsN(p, 1764n)).toBe(true);
  });

  it('reports null when the table is too short to show the period', () => {
    expect(findPeriod([1, 5, 8, 10], subtractionTable([1, 5, 8, 10], 20), 20)).toBeNull();
    expect(subtractionPeriod([3, 5000], 4096)).toBeNull();
  });

  it('rejects a negative pile', () => {
    const p = subtractionPeriod([1, 2])!;
    expect(() => periodicIsN(p, -1n)).toThrow(RangeError);
  });
});
