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
 * The least pre-period and period of the windows of `len` bits starting at 0..lastStart of one
 * bitset, or of two that must both agree (the partizan pair), or null when the table is too short
 * to show them (the caller builds a longer one). Windows must be a deterministic function of the
 * window before them, so the windows W_p form an iterated map:
 *
 * - the period λ is the distance from the last window W_L back to the nearest equal one. If
 *   W_{L−d} = W_L, the sequence repeats from L − d with a period dividing d, so μ ≤ L − d and
 *   λ | d: no match is nearer than λ, and there is one at λ exactly when L − λ ≥ μ; with no
 *   match at all, the table does not reach μ + λ;
 * - the pre-period μ is then the first p with W_p = W_{p+λ}, i.e. the first pile from which
 *   `len` piles in a row equal those a period later (an equal pair of windows makes the sequence
 *   periodic from p, so none comes before μ).
 *
 * How the search runs (the C reference, bench/c/period.c, runs the same): candidates for the
 * nearest copy are sieved 32 at a time by two neighbouring bits of W_L that differ (its first
 * change: an anchor that the long runs of these tables rarely match, where the first 32 bits
 * of a window did at every shift within a run), nearest first, and only the few that pass are
 * compared whole; the pre-period is found a word of piles at a time, from the start. Seed 002's
 * whole detection (a 229-pile table) measured 0.25 µs with a first-32-bits test on every
 * candidate and a window comparison per pre-period candidate, 0.17 µs with these. Every table
 * read is in bounds because the tables keep a spare word past pile `lastStart + len − 1`.
 */
export function bitWindowPeriod(a: Uint32Array, b: Uint32Array | null, lastStart: number, len: number): Period | null {
  // Anchor: the first place j where the last window's bit changes (j − 1 and j differ), or 0; a
  // copy of the window has the same two bits there, which rules out most places at once. Over 32
  // candidates p0..p0 + 31 at a time, bit i of `alive` is set when candidate p0 + i has the
  // anchor bits j and j − 1 of the last window.
  let j = 0;
  for (let o = 0; o < len - 1; o += 31) {
    // Bit i set: bits o + i and o + i + 1 of the window differ (i < 31, o + i + 1 < len).
    const x = bits32(a, lastStart + o);
    const changes = (x ^ (x >>> 1)) & (len - o > 31 ? 0x7fffffff : (1 << (len - o - 1)) - 1);
    if (changes !== 0) {
      j = o + 32 - Math.clz32(changes & -changes);
      break;
    }
  }
  const jb = j === 0 ? 0 : j - 1;
  const flipJ = bit(a, lastStart + j) - 1; // 0 when the anchor bit is set, −1 when clear
  const flipB = bit(a, lastStart + jb) - 1;
  let lam = 0;
  search: for (let p0 = lastStart - 32; p0 > -32; p0 -= 32) {
    const from = p0 < 0 ? 0 : p0;
    let alive = ((bits32(a, from + j) << (from - p0)) ^ flipJ) & ((bits32(a, from + jb) << (from - p0)) ^ flipB);
    if (p0 < 0) alive &= -1 << -p0; // no candidate below pile 0
    while (alive !== 0) {
      const i = 31 - Math.clz32(alive); // the nearest copy first
      const p = p0 + i;
      if (sameBitRun(a, p, lastStart, len) && (b === null || sameBitRun(b, p, lastStart, len))) {
        lam = lastStart - p;
        break search;
      }
      alive ^= 1 << i;
    }
  }
  if (lam === 0) return null;
  // The pre-period: the first pile from which `len` piles in a row equal those a period later,
  // found a word of piles at a time in the bits where the table and itself shifted by lam differ.
  const end = lastStart + len - 1 - lam; // the last pile q whose pile q + lam is in the table
  let run = 0; // where the current run of equal piles began
  for (let p0 = 0; p0 <= end; p0 += 32) {
    let diff = bits32(a, p0) ^ bits32(a, p0 + lam);
    if (b !== null) diff |= bits32(b, p0) ^ bits32(b, p0 + lam);
    while (diff !== 0) {
      const q = p0 + 31 - Math.clz32(diff & -diff); // the next differing pile
      if (q - run >= len) return { preperiod: run, period: lam };
      run = q + 1;
      diff &= diff - 1;
    }
    if (p0 + 32 - run >= len) return { preperiod: run, period: lam };
  }
  return { preperiod: run, period: lam };
}

/** Bit n of `bits` (0 or 1). */
function bit(bits: Uint32Array, n: number): number {
  return (bits[n >>> 5]! >>> (n & 31)) & 1;
}

/**
 * As `bitWindowPeriod`, over windows of `len` bytes: candidates are tested first at the last
 * window's first pair of differing neighbours, and the pre-period is the first place from which
 * `len` values in a row equal those a period later (one forward scan).
 */
export function byteWindowPeriod(values: Uint8Array, lastStart: number, len: number): Period | null {
  const last = lastStart | 0;
  const m = len | 0;
  // Anchor: the first place j where the last window's value changes (j − 1 and j differ), or 0; a
  // copy of the window has the same two values there, which rules out most places at once.
  let j = 1;
  while (j < m && values[(last + j) | 0] === values[(last + j - 1) | 0]) j = (j + 1) | 0;
  if (j === m) j = 0;
  const jb = j === 0 ? 0 : (j - 1) | 0;
  const a = values[(last + jb) | 0]!;
  const b = values[(last + j) | 0]!;
  let lam = 0;
  for (let p = (last - 1) | 0; p >= 0; p = (p - 1) | 0) {
    if (values[(p + j) | 0] !== b || values[(p + jb) | 0] !== a) continue;
    let i = 0;
    while (i < m && values[(p + i) | 0] === values[(last + i) | 0]) i = (i + 1) | 0;
    if (i === m) {
      lam = (last - p) | 0;
      break;
    }
  }
  if (lam === 0) return null;
  // The pre-period: the first place from which m values in a row equal those lam later.
  let q = 0;
  for (let run = 0; run < m; q = (q + 1) | 0) run = values[q] === values[(q + lam) | 0] ? (run + 1) | 0 : 0;
  return { preperiod: q - m, period: lam };
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

/** True when bits a..a+len−1 of `bits` equal bits b..b+len−1 (`bits` has a word past both runs). */
export function sameBitRun(bits: Uint32Array, a: number, b: number, len: number): boolean {
  let i = 0;
  for (; i + 32 <= len; i += 32) if (bits32(bits, a + i) !== bits32(bits, b + i)) return false;
  if (i === len) return true;
  const mask = (1 << (len - i)) - 1;
  return ((bits32(bits, a + i) ^ bits32(bits, b + i)) & mask) === 0;
}

/** The 32 bits starting at bit o, low bit first, as a signed 32-bit integer (reads the word after o's). */
function bits32(bits: Uint32Array, o: number): number {
  const w = o >>> 5;
  const sh = o & 31;
  // (x << 1) << (31 − sh) is x << (32 − sh), and 0 for sh = 0, where one shift by 32 is not.
  return (bits[w]! >>> sh) | ((bits[w + 1]! << 1) << (31 - sh));
}
