import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nimPeriodSummary, nimValuePeriod, periodicNimValue } from '../../src/solvers/nim-period.ts';
import { noRepeatPeriod, noRepeatTable, noRepeatWins } from '../../src/solvers/no-repeat.ts';
import { partizanPeriod, partizanTable, partizanWins } from '../../src/solvers/partizan.ts';
import { byteWindowPeriod, firstTableUpto, MAX_PILE, periodicIndex, subPile, toPile, type Period } from '../../src/solvers/period.ts';
import { isN, subtractionPeriod } from '../../src/solvers/subtraction.ts';

const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];

// Brute-force tables straight from the rules, one value per pile, compared as strings.

/** Subtraction: N when some take leaves a P-position. */
function naiveSubtraction(moves: readonly number[], upto: number): string[] {
  const w: boolean[] = [];
  for (let n = 0; n <= upto; n++) w.push(moves.some((s) => s <= n && !w[n - s]));
  return w.map((b) => (b ? 'N' : 'P'));
}

/** No-repeat: the row of wins over every forbidden amount (none, then each take) at each pile. */
function naiveNoRepeat(moves: readonly number[], upto: number): string[] {
  // win[n][f]: f = 0 nothing forbidden, f = i + 1 take moves[i] forbidden.
  const win: boolean[][] = [];
  for (let n = 0; n <= upto; n++) {
    const row: boolean[] = [];
    for (let f = 0; f <= moves.length; f++) {
      row.push(moves.some((s, i) => s <= n && i + 1 !== f && !win[n - s]![i + 1]));
    }
    win.push(row);
  }
  return win.map((row) => row.map((b) => (b ? '1' : '0')).join(''));
}

/** Partizan: (Left moving next wins, Right moving next wins) at each pile. */
function naivePartizan(left: readonly number[], right: readonly number[], upto: number): string[] {
  const l: boolean[] = [];
  const r: boolean[] = [];
  for (let n = 0; n <= upto; n++) {
    l.push(left.some((s) => s <= n && !r[n - s]));
    r.push(right.some((s) => s <= n && !l[n - s]));
  }
  return l.map((b, n) => `${b ? 1 : 0}${r[n] ? 1 : 0}`);
}

/** Nim-values by mex over the options. */
function naiveNim(moves: readonly number[], upto: number): string[] {
  const g: number[] = [];
  for (let n = 0; n <= upto; n++) {
    const opts = new Set(moves.filter((s) => s <= n).map((s) => g[n - s]!));
    let mex = 0;
    while (opts.has(mex)) mex++;
    g.push(mex);
  }
  return g.map(String);
}

/** How far the brute-force tables reach: well beyond the pre-period and many periods. */
function reach(p: Period, maxTake: number): number {
  return p.preperiod + 12 * p.period + 4 * maxTake + 200;
}

/**
 * Checks that `p` is the least pre-period and least period of `v` over the whole brute-force table:
 * v repeats with `period` from `preperiod` on, not from one pile earlier, and no shorter period works.
 */
function expectLeastPeriod(v: readonly string[], p: Period): void {
  const { preperiod: mu, period: lam } = p;
  // One expect over the first mismatch: an expect per pile would cost more than the tables.
  let mismatch: number | null = null;
  for (let n = mu; n + lam < v.length && mismatch === null; n++) if (v[n + lam] !== v[n]) mismatch = n;
  expect(mismatch, `value at ${mismatch} differs from ${lam} piles later`).toBeNull();
  expect(v.length).toBeGreaterThan(mu + 3 * lam);
  if (mu > 0) expect(v[mu - 1 + lam]).not.toBe(v[mu - 1]);
  // The least period divides every period, so only the proper divisors of λ can be shorter ones.
  for (let q = 1; q < lam; q++) {
    if (lam % q !== 0) continue;
    let differs = false;
    for (let n = mu; n + q < v.length && !differs; n++) differs = v[n] !== v[n + q];
    expect(differs, `shorter period ${q}`).toBe(true);
  }
}

/** Piles above the minimal table (preperiod + period piles) as bigints, hitting the modular reduction. */
function bigintPilesBeyond(p: Period, upto: number): bigint[] {
  const out: bigint[] = [];
  const first = p.preperiod + p.period;
  for (let n = first; n <= upto; n += 1 + (n % 7)) out.push(BigInt(n));
  return out;
}

const smallSet = (maxTake: number, maxLength: number): fc.Arbitrary<number[]> =>
  fc.uniqueArray(fc.integer({ min: 1, max: maxTake }), { minLength: 1, maxLength }).map((xs) => [...xs].sort((a, b) => a - b));

describe('period of a window sequence', () => {
  // bitWindowPeriod is the same search over bit windows: the subtraction and partizan period tests
  // check it against brute-force tables.
  it('finds the least pre-period and period of a window sequence, or null when the table is short', () => {
    // Windows of one byte: 5 6 7 then 1 2 3 4 repeating.
    const v = Uint8Array.from([5, 6, 7, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2]);
    for (let last = 7; last < v.length; last++) expect(byteWindowPeriod(v, last, 1)).toEqual({ preperiod: 3, period: 4 });
    // Up to window 6 nothing has repeated yet.
    for (let last = 0; last <= 6; last++) expect(byteWindowPeriod(v, last, 1)).toBeNull();
    // Windows of two bytes: (5 6) (6 7) (7 1) (1 2) (2 3) (3 4) (4 1) (1 2): the first repeat ends at 8.
    expect(byteWindowPeriod(v, 6, 2)).toBeNull();
    expect(byteWindowPeriod(v, 7, 2)).toEqual({ preperiod: 3, period: 4 });
    // A period that divides the distance to an earlier copy: 1 2 1 2 … after 9, seen from far on.
    const w = Uint8Array.from([9, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
    expect(byteWindowPeriod(w, w.length - 1, 1)).toEqual({ preperiod: 1, period: 2 });
  });
});

describe('no-repeat period', () => {
  it('seed 000: S = {1..5} has period 13 (rows repeat from pile 9)', () => {
    const p = noRepeatPeriod([1, 2, 3, 4, 5]);
    expect(p && { preperiod: p.preperiod, period: p.period }).toEqual({ preperiod: 9, period: 13 });
  });

  it('matches brute-force rows far beyond the pre-period for random small sets', () => {
    fc.assert(
      fc.property(smallSet(12, 5), (moves) => {
        const p = noRepeatPeriod(moves);
        expect(p).not.toBeNull();
        const v = naiveNoRepeat(moves, reach(p!, moves[moves.length - 1]!));
        expectLeastPeriod(v, p!);
        // The bigint path through the period against the brute-force table where both apply.
        const short = p!.preperiod + p!.period - 1;
        const table = noRepeatTable(moves, short);
        for (const n of bigintPilesBeyond(p!, v.length - 1)) {
          const i = periodicIndex(p!, short, n);
          const row = [null, ...moves].map((f) => (noRepeatWins(table, moves, i, f) ? '1' : '0')).join('');
          expect(row).toBe(v[Number(n)]);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('partizan period', () => {
  it('GAMES.md 3 facts: L{2,5,9} R{3,4,8} is all L from 10 on; L{2,5,9} R{2,4,8} all R from 24 on', () => {
    const a = partizanPeriod([2, 5, 9], [3, 4, 8]);
    expect(a && { preperiod: a.preperiod, period: a.period }).toEqual({ preperiod: 10, period: 1 });
    const b = partizanPeriod([2, 5, 9], [2, 4, 8]);
    expect(b && { preperiod: b.preperiod, period: b.period }).toEqual({ preperiod: 24, period: 1 });
  });

  it('matches brute-force outcome pairs far beyond the pre-period for random small sets', () => {
    fc.assert(
      fc.property(smallSet(10, 4), smallSet(10, 4), (left, right) => {
        const p = partizanPeriod(left, right);
        expect(p).not.toBeNull();
        const m = Math.max(left[left.length - 1]!, right[right.length - 1]!);
        const v = naivePartizan(left, right, reach(p!, m));
        expectLeastPeriod(v, p!);
        const short = p!.preperiod + p!.period - 1;
        const t = partizanTable(left, right, short);
        for (const n of bigintPilesBeyond(p!, v.length - 1)) {
          const i = periodicIndex(p!, short, n);
          expect(`${partizanWins(t, i, true) ? 1 : 0}${partizanWins(t, i, false) ? 1 : 0}`).toBe(v[Number(n)]);
        }
      }),
      { numRuns: 35 },
    );
  });
});

describe('finite-set nim-value period', () => {
  it('S = {1,3,4} has nim-values 0 1 0 1 2 3 2 repeating with period 7', () => {
    const p = nimValuePeriod([1, 3, 4]);
    expect(nimPeriodSummary([1, 3, 4])).toEqual({ preperiod: 0, period: 7 });
    expect(Array.from(p!.values.subarray(0, 14))).toEqual([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
  });

  it('matches brute-force nim-values far beyond the pre-period for random small sets', () => {
    fc.assert(
      fc.property(smallSet(14, 5), (moves) => {
        const p = nimValuePeriod(moves);
        expect(p).not.toBeNull();
        const v = naiveNim(moves, reach(p!, moves[moves.length - 1]!));
        expectLeastPeriod(v, p!);
        // A copy of the periodicity that holds only the minimal table, so every pile past it
        // goes through the bigint reduction.
        const short = { ...p!, upto: p!.preperiod + p!.period - 1 };
        for (const n of bigintPilesBeyond(p!, v.length - 1)) expect(String(periodicNimValue(short, n))).toBe(v[Number(n)]);
      }),
      { numRuns: 35 },
    );
  });
});

describe('subtraction period (the shared check on the existing solver)', () => {
  it('matches brute-force outcomes far beyond the pre-period for random small sets', () => {
    fc.assert(
      fc.property(smallSet(16, 5), (moves) => {
        const p = subtractionPeriod(moves);
        expect(p).not.toBeNull();
        const v = naiveSubtraction(moves, reach(p!, moves[moves.length - 1]!));
        expectLeastPeriod(v, p!);
        for (const n of bigintPilesBeyond(p!, v.length - 1)) {
          const i = periodicIndex(p!, p!.preperiod + p!.period - 1, n);
          expect(isN(p!.table, i) ? 'N' : 'P').toBe(v[Number(n)]);
        }
      }),
      { numRuns: 35 },
    );
  });

  it('seed 002: period 56 from pile 0 (windows of 32+ bits compare exactly, aligned or not)', () => {
    expect(subtractionPeriod(SEED_002)).toMatchObject({ preperiod: 0, period: 56 });
    const p = subtractionPeriod(SEED_002)!;
    expectLeastPeriod(naiveSubtraction(SEED_002, reach(p, 41)), p);
  });

  it('matches brute force for random sets with large takes (windows of several words)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 20, max: 80 }), { minLength: 1, maxLength: 4 }), (xs) => {
        const moves = [...xs].sort((a, b) => a - b);
        const p = subtractionPeriod(moves);
        expect(p).not.toBeNull();
        expectLeastPeriod(naiveSubtraction(moves, reach(p!, moves[moves.length - 1]!)), p!);
      }),
      { numRuns: 30 },
    );
  });

  it('agrees with the O(1) rule of consecutive sets: period a + b from pile 0', () => {
    expect(subtractionPeriod([3, 4, 5, 6])).toMatchObject({ preperiod: 0, period: 9 });
    expect(subtractionPeriod([15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26])).toMatchObject({ preperiod: 0, period: 41 });
  });
});

describe('pile arithmetic and the O(1) index up to 2^63 − 1', () => {
  it('keeps piles as numbers up to 2^53 − 1 and bigints above, exactly', () => {
    expect(toPile(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(toPile(2n ** 53n)).toBe(2n ** 53n);
    expect(subPile(2n ** 53n, 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(subPile(MAX_PILE, 10)).toBe(MAX_PILE - 10n);
    expect(subPile(100, 7)).toBe(93);
  });

  it('maps 2^63 − 1 into the period window, consistently with piles a multiple of the period below', () => {
    const p = { preperiod: 9, period: 13 };
    const i = periodicIndex(p, 40, MAX_PILE);
    expect(i).toBeGreaterThanOrEqual(9);
    expect(i).toBeLessThan(22);
    expect(periodicIndex(p, 40, MAX_PILE - 13n * 10n ** 15n)).toBe(i);
    expect(periodicIndex(p, 40, Number((MAX_PILE - 9n) % 13n) + 9 + 13 * 1000)).toBe(i);
    expect(() => periodicIndex(p, 40, -1n)).toThrow(RangeError);
    expect(() => periodicIndex(p, 40, 1.5)).toThrow(RangeError);
  });

  it('answers seed 002 at 2^63 − 1 like the table does at the congruent pile', () => {
    const p = subtractionPeriod(SEED_002)!;
    const n = MAX_PILE;
    const small = p.preperiod + Number((n - BigInt(p.preperiod)) % BigInt(p.period)) + 20 * p.period;
    const v = naiveSubtraction(SEED_002, small);
    expect(isN(p.table, periodicIndex(p, p.upto, n)) ? 'N' : 'P').toBe(v[small]);
  });
});

describe('periods longer than the first table (firstTableUpto, then doubling)', () => {
  it('finds them exactly, against brute-force tables', () => {
    // Each of these shows its period only in the second or a later table.
    for (const moves of [[3, 13, 16], [4, 11, 15], [4, 14, 17]]) {
      const p = subtractionPeriod(moves)!;
      expect(p.preperiod + p.period + moves[2]!).toBeGreaterThan(firstTableUpto(moves[2]!) / 2);
      expectLeastPeriod(naiveSubtraction(moves, reach(p, moves[2]!)), p);
    }
    for (const moves of [[2, 12, 15], [4, 10, 15]]) {
      const p = noRepeatPeriod(moves)!;
      expect(p.preperiod + 2 * p.period).toBeGreaterThan(firstTableUpto(15));
      expectLeastPeriod(naiveNoRepeat(moves, reach(p, 15)), p);
    }
    for (const [left, right] of [[[6, 8], [7, 10]], [[7, 9], [8, 11]]] as const) {
      const p = partizanPeriod(left, right)!;
      expect(p.preperiod).toBeGreaterThan(firstTableUpto(Math.max(left[1], right[1])) - 2 * Math.max(left[1], right[1]));
      expectLeastPeriod(naivePartizan(left, right, reach(p, Math.max(left[1], right[1]))), p);
    }
  });
});
