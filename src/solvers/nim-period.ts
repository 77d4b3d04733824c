/**
 * Eventual periodicity of one-pile nim-values under a finite subtraction set (GAMES.md 4): the
 * nim-value of pile n ≥ max S is the mex of the values at n − s, a function of the window of the
 * last max S values, so the sequence is eventually periodic and any pile up to 2^63 − 1 gets its
 * nim-value in O(1) once the period is known.
 */
import { subtractionNimValues } from './grundy.ts';
import { byteWindowPeriod, firstTableUpto, periodicIndex, type Period, type Pile } from './period.ts';

/** The eventual period of a finite set's nim-values, with the table that shows it. */
export interface NimPeriodicity extends Period {
  /** Nim-values of piles 0..upto (as `subtractionNimValues`), covering preperiod + period piles. */
  readonly values: Uint8Array;
  readonly upto: number;
}

/**
 * Pre-period and period of the nim-values of a finite subtraction set (sorted ascending, distinct),
 * found in tables of at most `limit` piles; null when that is not enough.
 */
export function nimValuePeriod(moves: readonly number[], limit = 1 << 26): NimPeriodicity | null {
  const m = moves[moves.length - 1]!;
  // The growing-table loop is written out in each period finder on purpose: one shared driver taking
  // a closure measured 5% slower over the seed detections (docs/ANALYSIS.md, "Kernel measurements").
  for (let upto = Math.min(firstTableUpto(m), limit); ; upto = Math.min(upto * 2, limit)) {
    const values = subtractionNimValues(moves, upto);
    const found = byteWindowPeriod(values, upto - m + 1, m);
    if (found) return { preperiod: found.preperiod, period: found.period, values, upto };
    if (upto >= limit) return null;
  }
}

/** The nim-value of a pile of any size (a number, or a bigint up to 2^63 − 1 and beyond). */
export function periodicNimValue(p: NimPeriodicity, n: Pile): number {
  return p.values[periodicIndex(p, p.upto, n)]!;
}

/** Just the pre-period and period of a finite set's nim-values (for `arena analyze --period`). */
export function nimPeriodSummary(moves: readonly number[]): Period | null {
  const p = nimValuePeriod(moves);
  return p && { preperiod: p.preperiod, period: p.period };
}
