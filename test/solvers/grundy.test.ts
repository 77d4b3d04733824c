import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestPilesMove,
  bitsToList,
  countAtMost,
  logSpacedCounts,
  MAX_SQUARES_NIM,
  nimValues,
  popcount,
  squaresColdBitset,
  squaresColdFit,
  squaresColdList,
  squaresNimValues,
  subtractionNimValues,
  testBit,
  type PileRule,
} from '../../src/solvers/grundy.ts';

// GAMES.md 4 facts (OEIS A030193 prefix and A014586 for 0..29).
const SQUARES_COLD = [
  0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119, 124, 127, 130, 132, 137, 142,
  147, 150, 170, 177, 180, 182, 187, 192, 197, 204, 210, 215, 238, 243, 249, 255, 257, 260, 262, 267,
];
const SQUARES_NIM = [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2, 3, 4, 5];

/** The takes a rule allows from a pile of n, ascending (brute force, independent of the solver). */
function takes(rule: PileRule, n: number): number[] {
  const out: number[] = [];
  for (let t = 1; t <= n; t++) {
    if (rule === 'nim' || (rule === 'squares' && Number.isInteger(Math.sqrt(t))) || (Array.isArray(rule) && rule.includes(t))) {
      out.push(t);
    }
  }
  return out;
}

/** Naive mex recursion for one pile. */
function naiveNimValues(rule: PileRule, upto: number): number[] {
  const g: number[] = [];
  for (let n = 0; n <= upto; n++) {
    const seen = new Set(takes(rule, n).map((t) => g[n - t]!));
    let mex = 0;
    while (seen.has(mex)) mex++;
    g.push(mex);
  }
  return g;
}

/** Naive cold list of subtract-a-square, unblocked: n is cold when no earlier cold p has n = p + k². */
function naiveSquaresCold(upto: number): number[] {
  const hot = new Uint8Array(upto + 1);
  const out: number[] = [];
  for (let n = 0; n <= upto; n++) {
    if (hot[n]) continue;
    out.push(n);
    for (let k = 1; n + k * k <= upto; k++) hot[n + k * k] = 1;
  }
  return out;
}

/** Brute-force minimax on a row of piles: does the player to move win? */
function bruteWins(rule: PileRule, piles: readonly number[], memo = new Map<string, boolean>()): boolean {
  const key = [...piles].sort((a, b) => a - b).join(',');
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  let win = false;
  for (let i = 0; i < piles.length && !win; i++) {
    for (const t of takes(rule, piles[i]!)) {
      const next = piles.map((n, j) => (j === i ? n - t : n));
      if (!bruteWins(rule, next, memo)) {
        win = true;
        break;
      }
    }
  }
  memo.set(key, win);
  return win;
}

const ruleArb: fc.Arbitrary<PileRule> = fc.oneof(
  fc.constant<PileRule>('nim'),
  fc.constant<PileRule>('squares'),
  fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }).map((xs) => xs.sort((a, b) => a - b)),
);

describe('nim-values of one pile', () => {
  it('subtract-a-square: 0..29 are OEIS A014586', () => {
    expect(Array.from(squaresNimValues(29))).toEqual(SQUARES_NIM);
  });

  it('subtract-a-square: 0..5000 match the naive mex', () => {
    expect(Array.from(squaresNimValues(5000))).toEqual(naiveNimValues('squares', 5000));
  });

  it('subtraction set {1,3,4} has period 7: 0 1 0 1 2 3 2', () => {
    const g = Array.from(subtractionNimValues([1, 3, 4], 27));
    expect(g).toEqual(Array.from({ length: 28 }, (_, n) => [0, 1, 0, 1, 2, 3, 2][n % 7]));
  });

  it('Nim: the value of a pile is its size', () => {
    expect(Array.from(nimValues('nim', 9))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('match the naive mex for every rule', () => {
    fc.assert(
      fc.property(ruleArb, fc.integer({ min: 0, max: 150 }), (rule, upto) => {
        expect(Array.from(nimValues(rule, upto))).toEqual(naiveNimValues(rule, upto));
      }),
      { numRuns: 60 },
    );
  });
});

describe('squaresColdBitset', () => {
  it('lists the P-positions of GAMES.md (OEIS A030193) up to 267', () => {
    expect(bitsToList(squaresColdBitset(267))).toEqual(SQUARES_COLD);
  });

  it('has no bits past upto and agrees with the naive sieve, also across small blocks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 300 }), (upto, block) => {
        const want = naiveSquaresCold(upto);
        const bits = squaresColdBitset(upto, block);
        expect(bits.length).toBe((upto >>> 5) + 1);
        expect(bitsToList(bits)).toEqual(want);
        expect(popcount(bits)).toBe(want.length);
      }),
      { numRuns: 80 },
    );
  });

  it('agrees with the naive sieve across the default 2^15 block boundaries', () => {
    const upto = (1 << 20) + 70_000;
    const bits = squaresColdBitset(upto);
    expect(bitsToList(bits)).toEqual(naiveSquaresCold(upto));
  });

  it('counts as many cold positions up to 10^5 as the nim-value table has zeros', () => {
    const g = squaresNimValues(100_000);
    let zeros = 0;
    for (const v of g) if (v === 0) zeros++;
    const bits = squaresColdBitset(100_000);
    expect(popcount(bits)).toBe(zeros);
    for (let n = 0; n <= 100_000; n += 997) expect(testBit(bits, n)).toBe(g[n] === 0);
  });

  it('rejects a bad bound', () => {
    expect(() => squaresColdBitset(-1)).toThrow(RangeError);
    expect(() => squaresColdBitset(1.5)).toThrow(RangeError);
    expect(() => squaresColdList(2 ** 30 + 1)).toThrow(/Expected upto to be an integer in 0\.\.1073741824, got 1073741825/);
    expect(() => squaresColdList(10, 0)).toThrow(RangeError);
    expect(() => squaresColdList(10, 2 ** 15 + 1)).toThrow(/Expected blockSize to be an integer in 1\.\.32768, got 32769/);
  });

  it('returns a list of its own: later calls (larger or smaller, any block) leave it unchanged', () => {
    const first = squaresColdList(20_000);
    const copy = Array.from(first);
    squaresColdList(40_000, 777);
    squaresColdList(300, 1);
    expect(Array.from(first)).toEqual(copy);
    expect(copy).toEqual(naiveSquaresCold(20_000));
  });

  it('calls share one block buffer without leaking marks into each other', () => {
    const want = naiveSquaresCold(40_000);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 1, max: 2 ** 15 })), { minLength: 2, maxLength: 4 }), (calls) => {
        for (const [upto, block] of calls) {
          expect(Array.from(squaresColdList(upto, block))).toEqual(want.filter((p) => p <= upto));
        }
      }),
      { numRuns: 15 },
    );
  });
});

/** The straightforward mex: for each pile, the set of its options' values, then the smallest absent. */
function plainSquaresNim(upto: number): number[] {
  const g: number[] = [];
  for (let n = 0; n <= upto; n++) {
    const seen = new Set<number>();
    for (let k = 1; k * k <= n; k++) seen.add(g[n - k * k]!);
    let mex = 0;
    while (seen.has(mex)) mex++;
    g.push(mex);
  }
  return g;
}

describe('squaresNimValues (eight piles per pass) against the straightforward mex', () => {
  const plain = plainSquaresNim(10_000);

  it('every prefix length 0..400 (head, groups of eight, tail)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), (upto) => {
        expect(Array.from(squaresNimValues(upto))).toEqual(plain.slice(0, upto + 1));
      }),
      { numRuns: 80 },
    );
    for (const upto of [0, 1, 63, 64, 70, 71, 72, 73]) expect(Array.from(squaresNimValues(upto))).toEqual(plain.slice(0, upto + 1));
  });

  it('piles 0..10^4 all match', () => {
    expect(Array.from(squaresNimValues(10_000))).toEqual(plain);
  });

  it('calls share one marks array without stale stamps: any order of sizes gives the same tables', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 2, maxLength: 5 }), (sizes) => {
        for (const upto of sizes) expect(Array.from(squaresNimValues(upto))).toEqual(plain.slice(0, upto + 1));
      }),
      { numRuns: 20 },
    );
  });

  it('rejects a bad bound', () => {
    expect(() => squaresNimValues(-1)).toThrow(RangeError);
    expect(() => squaresNimValues(2.5)).toThrow(RangeError);
    expect(() => squaresNimValues(MAX_SQUARES_NIM + 1)).toThrow(/Expected upto to be an integer in 0\.\.16777216, got 16777217/);
  });

  it('returns a table of its own: a later call (larger or smaller) leaves it unchanged', () => {
    const first = squaresNimValues(5000);
    const copy = Array.from(first);
    squaresNimValues(9000);
    squaresNimValues(100);
    expect(first.length).toBe(5001);
    expect(Array.from(first)).toEqual(copy);
    expect(copy).toEqual(plain.slice(0, 5001));
  });
});

describe('cold counts c_n of subtract-a-square', () => {
  it('the list starts with the OEIS A030193 prefix and matches the naive sieve across small blocks', () => {
    expect(Array.from(squaresColdList(267))).toEqual(SQUARES_COLD);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 500 }), (upto, block) => {
        expect(Array.from(squaresColdList(upto, block))).toEqual(naiveSquaresCold(upto));
      }),
      { numRuns: 60 },
    );
  });

  it('c_n equals the number of zeros in the nim-value table, for every n ≤ 10^4', () => {
    const g = squaresNimValues(10_000);
    const cold = squaresColdList(10_000);
    const want: number[] = [];
    const got: number[] = [];
    let zeros = 0;
    for (let n = 0; n <= 10_000; n++) {
      if (g[n] === 0) zeros++;
      want.push(zeros);
      got.push(countAtMost(cold, n));
    }
    expect(got).toEqual(want);
  });

  it('log-spaced counts: increasing n ending at upto, each count by a linear scan', () => {
    const cold = squaresColdList(100_000);
    const pts = logSpacedCounts(cold, 100_000, 40);
    expect(pts[pts.length - 1]!.n).toBe(100_000);
    expect(pts[0]!.n).toBe(1);
    for (let i = 1; i < pts.length; i++) expect(pts[i]!.n).toBeGreaterThan(pts[i - 1]!.n);
    for (const { n, count } of pts) expect(count).toBe(Array.from(cold).filter((p) => p <= n).length);
    expect(logSpacedCounts(cold, 0, 10)).toEqual([]);
  });

  it("Eppstein's fit 0.897·n^0.698 is within 2% of c_n at 10^6 (13952 cold positions)", () => {
    expect(squaresColdFit(1)).toBeCloseTo(0.897, 10);
    const c = squaresColdList(1_000_000).length;
    expect(c).toBe(13_952);
    expect(Math.abs(c / squaresColdFit(1_000_000) - 1)).toBeLessThan(0.02);
  });
});

describe('bestPilesMove (xor rule) against brute-force minimax', () => {
  it('Nim 3 4 5: xor 2, the only zeroing take is 2 from pile 1', () => {
    expect(bestPilesMove([3, 4, 5], 'nim', (n) => n)).toEqual({ index: 0, take: 2 });
  });

  it('a lost position: the smallest take from the largest pile', () => {
    expect(bestPilesMove([1, 2, 3], 'nim', (n) => n)).toEqual({ index: 2, take: 1 });
    expect(bestPilesMove([0, 0], 'nim', (n) => n)).toBeNull();
    expect(bestPilesMove([2, 1], [3], (n) => subtractionNimValues([3], 2)[n]!)).toBeNull();
  });

  it('wins exactly in N-positions, with the largest winning take (lowest pile on ties); else prolongs', () => {
    fc.assert(
      fc.property(ruleArb, fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 4 }), (rule, piles) => {
        const g = nimValues(rule, 12);
        const nv = (n: number): number => g[n]!;
        const memo = new Map<string, boolean>();
        const wins = bruteWins(rule, piles, memo);
        const move = bestPilesMove(piles, rule, nv);
        // Every legal move with whether it wins, in (pile, take) order.
        const options = piles.flatMap((n, index) =>
          takes(rule, n).map((take) => ({
            index,
            take,
            wins: !bruteWins(rule, piles.map((m, j) => (j === index ? m - take : m)), memo),
          })),
        );
        if (options.length === 0) {
          expect(move).toBeNull();
          return;
        }
        expect(move).not.toBeNull();
        if (wins) {
          const winning = options.filter((o) => o.wins);
          const largest = Math.max(...winning.map((o) => o.take));
          const want = winning.find((o) => o.take === largest)!;
          expect(move).toEqual({ index: want.index, take: want.take });
        } else {
          const movable = options.map((o) => o.index);
          const biggest = Math.max(...movable.map((i) => piles[i]!));
          const index = piles.findIndex((n, i) => n === biggest && movable.includes(i));
          const smallest = Math.min(...options.filter((o) => o.index === index).map((o) => o.take));
          expect(move).toEqual({ index, take: smallest });
        }
      }),
      { numRuns: 300 },
    );
  });
});
