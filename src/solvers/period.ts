/**
 * Eventual periodicity of one-pile sequences (GAMES.md 1–4), shared by the subtraction, no-repeat,
 * partizan and finite-set nim-value solvers, and exact pile arithmetic up to 2^63 − 1.
 *
 * Every one of these sequences has the same shape: the value at pile n ≥ m (m = the largest take)
 * is a function of the window of the m values before it. The windows therefore form an iterated
 * map on a finite set, which is eventually periodic; the least pre-period and period of the
 * windows (`bitWindowPeriod`) are exactly the least pre-period and period of the values (a shorter
 * pre-period of the values would repeat an earlier window).
 */

/** A pile size: a number up to 2^53 − 1, a bigint above (exact up to 2^63 − 1 and beyond). */
export type Pile = number | bigint;

/** Largest pile the arena accepts: 2^63 − 1. */
export const MAX_PILE = 2n ** 63n - 1n;

/** The eventual period of a sequence indexed by pile. */
export interface Period {
  /** Smallest n0 such that value(n) = value(n + period) for every n ≥ n0. */
  readonly preperiod: number;
  /** Smallest period from the pre-period on. */
  readonly period: number;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A bigint as a Pile: a number when it is at most 2^53 − 1, so ordinary piles stay numbers. */
export function toPile(n: bigint): Pile {
  return n <= MAX_SAFE ? Number(n) : n;
}

/** pile − take, exactly, keeping the number/bigint normal form of `toPile`. */
export function subPile(pile: Pile, take: number): Pile {
  return typeof pile === 'number' ? pile - take : toPile(pile - BigInt(take));
}

/** Decimal text of a pile (bigints included), for JSON and messages. */
export function pileText(pile: Pile): string {
  return String(pile);
}

/**
 * Size of the first table period detection builds for a state window of `window` piles: room for a
 * short pre-period and a few periods past it before a table of twice the size is tried (a table
 * shows the period once its windows reach past pre-period + period). Small on purpose: every seed
 * set's period shows within a few hundred piles, and a table that is too short costs only the half
 * of the next one it repeats (doubling).
 */
export function firstTableUpto(window: number): number {
  return 4 * window + 64;
}

/**
 * Builds tables of growing length (`firstTableUpto(window)` piles, doubling, at most `limit`) until
 * `find` shows the period. Returns the table with its period and length, or null when `limit` is
 * not enough.
 */
export function growUntilPeriodic<T>(
  build: (upto: number) => T,
  find: (table: T, upto: number) => Period | null,
  limit: number,
  window: number,
): { readonly table: T; readonly upto: number; readonly found: Period } | null {
  for (let upto = Math.min(firstTableUpto(window), limit); ; upto = Math.min(upto * 2, limit)) {
    const table = build(upto);
    const found = find(table, upto);
    if (found) return { table, upto, found };
    if (upto >= limit) return null;
  }
}

/**
 * The least pre-period and period of the windows of `len` bits starting at 0..lastStart of one
 * bitset, or of two that must both agree (the partizan pair), or null when the table is too short
 * to show them (the caller builds a longer one). Windows must be a deterministic function of the
 * window before them, so the windows W_p form an iterated map:
 *
 * - the period λ is the distance from the last window W_L back to the nearest equal one. If
 *   W_{L−d} = W_L, the sequence repeats from L − d with a period dividing d, so μ ≤ L − d and
 *   λ | d: no match is nearer than λ, and there is one at λ exactly when L − λ ≥ μ; with no
 *   match at all, the table does not reach μ + λ;
 * - the pre-period μ is then the first p with W_p = W_{p+λ} (an equal pair makes the sequence
 *   periodic from p, so none comes before μ).
 *
 * That is λ + μ + 1 window comparisons, most of them settled by the first word, where Brent's cycle
 * finding (used before) makes about twice as many and needs a longer table to see the same cycle.
 * The comparison is written inline, here and in `byteWindowPeriod`, rather than passed as a
 * closure (measured 13–19% faster over the seed sets' period detections, with the Brent loop
 * this replaced; replacing it took the six seed detections from 8.3 to 7.6 µs).
 */
export function bitWindowPeriod(a: Uint32Array, b: Uint32Array | null, lastStart: number, len: number): Period | null {
  let lam = 1;
  for (; lam <= lastStart; lam++) {
    const p = lastStart - lam;
    if (sameBitRun(a, p, lastStart, len) && (b === null || sameBitRun(b, p, lastStart, len))) break;
  }
  if (lam > lastStart) return null;
  let mu = 0;
  while (!(sameBitRun(a, mu, mu + lam, len) && (b === null || sameBitRun(b, mu, mu + lam, len)))) mu++;
  return { preperiod: mu, period: lam };
}

/** As `bitWindowPeriod`, over windows of `len` bytes. */
export function byteWindowPeriod(values: Uint8Array, lastStart: number, len: number): Period | null {
  let lam = 1;
  while (lam <= lastStart && !sameByteRun(values, lastStart - lam, lastStart, len)) lam++;
  if (lam > lastStart) return null;
  let mu = 0;
  while (!sameByteRun(values, mu, mu + lam, len)) mu++;
  return { preperiod: mu, period: lam };
}

/**
 * The index in a table of piles 0..upto that has the same value as pile n, given the period that
 * table shows (upto ≥ preperiod + period − 1). O(1) for every pile up to 2^63 − 1 and beyond.
 */
export function periodicIndex(p: Period, upto: number, n: Pile): number {
  if (typeof n === 'number') {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Expected a non-negative integer pile, got ${n}`);
    return n <= upto ? n : p.preperiod + ((n - p.preperiod) % p.period);
  }
  if (n < 0n) throw new RangeError(`Expected a non-negative pile, got ${n}`);
  if (n <= BigInt(upto)) return Number(n);
  return p.preperiod + Number((n - BigInt(p.preperiod)) % BigInt(p.period));
}

/**
 * The takes as an Int32Array (one monomorphic int array for the hot loops), the first `count` of
 * `moves`. A plain loop: `Int32Array.from` goes through the iterator protocol, which costs more
 * than a whole period detection of a small set.
 */
export function int32Takes(moves: readonly number[], count = moves.length): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = moves[i]!;
  return out;
}

/** True when bits a..a+len−1 of `bits` equal bits b..b+len−1 (bits past the array read as 0). */
export function sameBitRun(bits: Uint32Array, a: number, b: number, len: number): boolean {
  let i = 0;
  for (; i + 32 <= len; i += 32) if (bits32(bits, a + i) !== bits32(bits, b + i)) return false;
  if (i === len) return true;
  const mask = (1 << (len - i)) - 1;
  return ((bits32(bits, a + i) ^ bits32(bits, b + i)) & mask) === 0;
}

/** The 32 bits starting at bit o, low bit first, as a signed 32-bit integer. */
function bits32(bits: Uint32Array, o: number): number {
  const w = o >>> 5;
  const sh = o & 31;
  const lo = bits[w] ?? 0;
  // JS shifts count mod 32, so an aligned read must not mix in the next word.
  return sh === 0 ? lo | 0 : (lo >>> sh) | ((bits[w + 1] ?? 0) << (32 - sh));
}

/** True when bytes a..a+len−1 of `values` equal bytes b..b+len−1. */
export function sameByteRun(values: Uint8Array, a: number, b: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (values[a + i] !== values[b + i]) return false;
  return true;
}
