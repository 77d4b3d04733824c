/**
 * Exact analysis of one-pile subtraction games (GAMES.md 1): the outcome table as a bitset filled in
 * one pass (word-parallel), eventual period detection so that any pile up to 2^63 is answered in
 * O(1), and the O(1) rule for consecutive sets.
 */
import { bitWindowPeriod, firstTableUpto, int32Takes } from './period.ts';
import { zeroedWords } from './small-tables.ts';

/** True when S = {a, a+1, …, b} (sorted input). */
export function isConsecutive(moves: readonly number[]): boolean {
  for (let i = 1; i < moves.length; i++) if (moves[i] !== moves[i - 1]! + 1) return false;
  return true;
}

/** Consecutive S = {a..b}: n is a P-position exactly when n mod (a+b) < a. O(1), no table. */
export function consecutiveIsP(n: number | bigint, a: number, b: number): boolean {
  if (typeof n === 'bigint') return n % BigInt(a + b) < BigInt(a);
  return n % (a + b) < a;
}

/** Reads bit n of a table from `subtractionTable`. */
export function isN(table: Uint32Array, n: number): boolean {
  return (table[n >>> 5]! & (1 << (n & 31))) !== 0;
}

/**
 * The 32 bits of `bits` starting at bit `o` (o ≥ 0), low bit first. Reads one word past `o`'s word,
 * so tables keep one spare word at the end.
 */
function bitsAt(bits: Uint32Array, o: number): number {
  const w = o >>> 5;
  const sh = o & 31;
  // JS shifts count mod 32, so `x << 32` is x, not 0: an aligned read must not mix in the next word.
  return sh === 0 ? bits[w]! : (bits[w]! >>> sh) | (bits[w + 1]! << (32 - sh));
}

/** Number of 32-bit words of a table for piles 0..upto (one spare word for `bitsAt`). */
export function tableWords(upto: number): number {
  return Math.floor(upto / 32) + 2;
}

/**
 * Win/lose table of a subtraction game for piles 0..upto: bit n is set when n is an N-position
 * (the player to move wins). One pass, one bit per pile: n is N exactly when some n − s is P.
 *
 * Why word-parallel: every pile depends only on piles at least min S below it, so a run of
 * k = min(min S, 32) consecutive piles can be decided at once as OR over s of the negated k-bit run
 * at n − s. For S = {15,19,…,41} to 10^8 that is about 7 M chunks instead of 10^8 scalar loops.
 * When max S ≤ 64 the runs come from a 64-pile window held in two int32 locals (`fillByWindow`),
 * from pile 0 on (piles below 0 read as N: no take reaches them). When min S < 4 (chunks too
 * short) and max S ≤ 12, 16 piles at a time come from a lookup table over the window of the max S
 * piles before them (tables of 2^16 piles and more); otherwise, up to max S = 32, one pile at a
 * time from that window in a register (`fillByRegister`, from pile 0 too), and beyond a scalar
 * early-exit loop.
 *
 * `into`: an all-zero array of `tableWords(upto)` words to fill instead of a new one (a caller
 * that rebuilds large tables saves the fresh pages' faults: at 10^8 piles, 12.5 MB, those cost as
 * much as the fill itself on this machine's VM).
 */
export function subtractionTable(moves: readonly number[], upto: number, into?: Uint32Array): Uint32Array {
  if (into && into.length !== tableWords(upto)) throw new RangeError(`Expected a table of ${tableWords(upto)} words, got ${into.length}`);
  const bits = into ?? zeroedWords(tableWords(upto));
  const count = moves.length;
  if (count === 0) return bits;
  const minS = moves[0]!;
  const maxS = moves[count - 1]!;
  const useLut = minS < 4 && maxS <= LUT_MAX_WINDOW && upto >= LUT_MIN_UPTO;
  // The window fills read piles below 0 as N (no take reaches them), so they start at pile 0 and
  // need no care for takes larger than the table.
  if (minS >= 4 && maxS <= WINDOW_MAX_TAKE) {
    fillByWindow(bits, moves, upto);
    return bits;
  }
  if (minS < 4 && maxS <= 32 && !useLut) {
    fillByRegister(bits, takeMask(moves), upto);
    return bits;
  }
  // Takes larger than the table never apply; dropping them keeps the scalar prefix short.
  let fit = 0;
  while (fit < count && moves[fit]! <= upto) fit++;
  if (fit === 0) return bits;
  const ms = fit === count ? moves : moves.slice(0, fit);
  // Below max S some takes do not fit, so those piles are decided one by one; then 16 piles at a
  // time through a lookup table (tiny min S, short window, long table), or every pile when min S
  // is tiny otherwise (`fillScalar`: 1–3 bit chunks cost more), or chunks of min S piles.
  const prefix = Math.min(upto, ms[fit - 1]! - 1);
  const takes = int32Takes(ms);
  for (let n = 0; n <= prefix; n++) {
    for (let i = 0; i < fit; i++) {
      const p = n - takes[i]!;
      if (p < 0) break;
      if ((bits[p >>> 5]! & (1 << (p & 31))) === 0) {
        bits[n >>> 5]! |= 1 << (n & 31);
        break;
      }
    }
  }
  if (useLut) fillByLookup(bits, ms, maxS, prefix + 1, upto);
  else if (minS < 4) fillScalar(bits, takes, fit, prefix + 1, upto);
  else fillByChunks(bits, takes, Math.min(minS, 32), prefix + 1, upto);
  return bits;
}

/**
 * Fills piles from..upto (from ≥ max S) k = min(min S, 32) at a time: pile n is N exactly when
 * some n − s is P, so the next k piles are NOT(AND over s of the k-bit runs at n − s).
 *
 * Why it is written this way (measured: about 1.5× faster than a loop over a `bitsAt` helper):
 * the unaligned read `(lo >>> sh) | ((hi << 1) << (31 − sh))` needs no branch for sh = 0 (JS
 * shift counts are taken mod 32, so `hi << (32 − sh)` would be wrong there); four takes per
 * iteration give V8 independent loads to overlap; and the word after the chunk is written with a
 * plain store, since nothing has been written there yet.
 */
function fillByChunks(bits: Uint32Array, takes: Int32Array, k: number, from: number, upto: number): void {
  const mask = k === 32 ? -1 : (1 << k) - 1;
  const count = takes.length;
  const quads = count & ~3;
  for (let n = from; n <= upto; n += k) {
    let acc = -1;
    let i = 0;
    for (; i < quads; i += 4) {
      const o0 = n - takes[i]!;
      const o1 = n - takes[i + 1]!;
      const o2 = n - takes[i + 2]!;
      const o3 = n - takes[i + 3]!;
      const w0 = o0 >>> 5;
      const w1 = o1 >>> 5;
      const w2 = o2 >>> 5;
      const w3 = o3 >>> 5;
      acc &=
        ((bits[w0]! >>> (o0 & 31)) | ((bits[w0 + 1]! << 1) << (31 - (o0 & 31)))) &
        ((bits[w1]! >>> (o1 & 31)) | ((bits[w1 + 1]! << 1) << (31 - (o1 & 31)))) &
        ((bits[w2]! >>> (o2 & 31)) | ((bits[w2 + 1]! << 1) << (31 - (o2 & 31)))) &
        ((bits[w3]! >>> (o3 & 31)) | ((bits[w3 + 1]! << 1) << (31 - (o3 & 31))));
    }
    for (; i < count; i++) {
      const o = n - takes[i]!;
      const w = o >>> 5;
      acc &= (bits[w]! >>> (o & 31)) | ((bits[w + 1]! << 1) << (31 - (o & 31)));
    }
    const win = ~acc & mask;
    // Bits past `upto` may be written (into the spare word); they are never read as answers.
    const w = n >>> 5;
    const sh = n & 31;
    bits[w] = bits[w]! | (win << sh);
    bits[w + 1] = (win >>> 1) >>> (31 - sh);
  }
}

/** Bit s − 1 for every take s (all ≤ 32): the window bits `fillByRegister` tests. */
function takeMask(ms: readonly number[]): number {
  let mask = 0;
  for (const s of ms) mask |= 1 << (s - 1);
  return mask;
}

/**
 * Fills piles 0..upto (every take at most 32; piles below 0 read as N) one by one from a window
 * of the 32 piles before n held in one int32, W (bit j is pile n − 1 − j, set when N): pile n is
 * N exactly when some take s finds pile n − s P, that is when ~W & mask ≠ 0 (`mask`: bit s − 1
 * for each take). No table reads and no branch on the outcome: the test is (x | −x) >>> 31. The
 * table is written a word at a time, about three times as fast as `fillScalar` (docs/ANALYSIS.md, "Kernel measurements").
 */
function fillByRegister(bits: Uint32Array, mask: number, upto: number): void {
  let W = -1; // piles below 0 read as N: no take reaches them
  let w = 0;
  let acc = 0;
  for (let n = 0; n <= upto; n = (n + 1) | 0) {
    const x = ~W & mask;
    const isN = (x | ((0 - x) | 0)) >>> 31;
    W = (W << 1) | isN;
    acc |= isN << (n & 31);
    if ((n & 31) === 31) {
      bits[w] = acc;
      w = (w + 1) | 0;
      acc = 0;
    }
  }
  bits[w] = acc;
}

/**
 * Fills piles from..upto (from ≥ max S, so every take fits) one by one: pile n is N when some
 * n − s is P. Its own function that starts with its loop and has no rare branch: V8 optimises a
 * long first call on-stack before the code ahead of the loop (or a branch the first call no
 * longer takes) has type feedback, and the regular optimised code then deoptimises on every
 * call that reaches such code (measured on 4096-pile period tables: 3× slower than this form).
 */
function fillScalar(bits: Uint32Array, takes: Int32Array, count: number, from: number, upto: number): void {
  for (let n = from; n <= upto; n = (n + 1) | 0) {
    for (let i = 0; i < count; i = (i + 1) | 0) {
      const p = (n - takes[i]!) | 0;
      if ((bits[p >>> 5]! & (1 << (p & 31))) === 0) {
        bits[n >>> 5]! |= 1 << (n & 31);
        break;
      }
    }
  }
}

/** Largest take for which `fillByWindow` keeps the piles a chunk reads in two int32 registers. */
const WINDOW_MAX_TAKE = 64;
/** Takes ≤ 32 and > 32 the straight-line chunk loop (`windowSegment`) has room for. */
const NEAR_SLOTS = 12;
const FAR_SLOTS = 4;
/** Piles per call of the chunk loop. */
const SEGMENT = 1 << 12;

/**
 * Fills piles 0..upto (max S ≤ 64; piles below 0 read as N), k = min(min S, 31) at a time, like
 * `fillByChunks`, but reads the k-bit runs at n − s from a 64-pile window held in two int32
 * locals instead of from the table: `hi` holds piles n−32..n−1 (bit 31 is pile n−1), `lo` piles
 * n−64..n−33. The run at n − s starts at window bit 64 − s: `hi >>> (32 − s)` for s ≤ 32 (a near
 * take), the funnel `(lo >>> p) | (hi << (32 − p))` with p = 64 − s beyond (a far take). The
 * window then shifts by k and takes the k new piles in at the top, and each word of the table is
 * stored once, whole, from the window as soon as its last pile is done.
 *
 * Why: the table is only written, never read back, so no chunk waits on the store of the chunk
 * before it, and a take costs one or three shifts instead of two loads with bounds checks and
 * four shifts; whole-word stores beat OR-ing every chunk into the table (docs/ANALYSIS.md, "Kernel measurements").
 * k stops at 31 because JS shift counts are
 * taken mod 32, so shifting the window by 32 would need its own case.
 */
function fillByWindow(bits: Uint32Array, takes: readonly number[], upto: number): void {
  const count = takes.length;
  const k = Math.min(takes[0]!, 31);
  let nearCount = 0;
  while (nearCount < count && takes[nearCount]! <= 32) nearCount++;
  const farCount = count - nearCount;
  const fits = nearCount >= 1 && nearCount <= NEAR_SLOTS && farCount <= FAR_SLOTS;
  // Shift counts. For the straight-line loop, unused slots repeat a take of their kind (AND is
  // idempotent); with no far take at all, `hasFar` skips the far slots. (The slots of the
  // straight-line loop are a shared scratch array: a fresh one costs as much as a period table's fill.)
  const near = fits ? NEAR_SHIFTS : new Int32Array(nearCount);
  const far = fits ? FAR_SHIFTS : new Int32Array(farCount);
  for (let i = 0; i < near.length; i++) near[i] = 32 - takes[Math.min(i, nearCount - 1)]!;
  for (let i = 0; i < far.length; i++) far[i] = 64 - takes[Math.min(nearCount + i, count - 1)]!;
  // Many calls of SEGMENT piles rather than one long one, each starting with the same code: the
  // chunk loop is then optimised as a whole function with type feedback for every operation. (A
  // single long first call is optimised on-stack mid-loop before the code ahead of the loop has
  // any feedback; the regular optimised code then deoptimises on its first run, and every later
  // call runs the on-stack-replacement code, which keeps the window tagged: measured 2× slower.
  // The same holds for any branch ahead of the loop that the first calls do not take.)
  for (let n = 0; n <= upto; n += SEGMENT) {
    const last = Math.min(upto, n + SEGMENT - 1);
    // The window before n, read back from the table. (The segment before stored its last word up
    // to where its last chunk ended, possibly past n; this segment stores that word again whole.)
    const hi = windowWord(bits, n - 32);
    const lo = windowWord(bits, n - 64);
    if (fits) windowSegment(bits, near, far, farCount > 0, k, n, last, hi, lo);
    else windowSegmentLoop(bits, near, far, k, n, last, hi, lo);
  }
}

const NEAR_SHIFTS = new Int32Array(NEAR_SLOTS);
const FAR_SHIFTS = new Int32Array(FAR_SLOTS);

/** The 32 piles from pile o on (o may be negative: piles below 0 read as N), as an int32. */
function windowWord(bits: Uint32Array, o: number): number {
  if (o >= 0) return bitsAt(bits, o) | 0;
  return o <= -32 ? -1 : (bits[0]! << -o) | ((1 << -o) - 1);
}

/**
 * Piles from..last (and up to k − 1 past it), starting from the window `hi`, `lo` before `from`,
 * with NEAR_SLOTS near and FAR_SLOTS far shift counts in locals: straight-line code with no inner
 * loop, whose loop checks (a stack check, a map check and a bounds check per step) cost V8 more
 * than the shifts themselves. Stores every word whose last pile it decides, and the word in
 * progress at the end.
 */
function windowSegment(
  bits: Uint32Array,
  near: Int32Array,
  far: Int32Array,
  hasFar: boolean,
  k: number,
  from: number,
  last: number,
  hi: number,
  lo: number,
): void {
  const n0 = near[0]! | 0, n1 = near[1]! | 0, n2 = near[2]! | 0, n3 = near[3]! | 0;
  const n4 = near[4]! | 0, n5 = near[5]! | 0, n6 = near[6]! | 0, n7 = near[7]! | 0;
  const n8 = near[8]! | 0, n9 = near[9]! | 0, n10 = near[10]! | 0, n11 = near[11]! | 0;
  const f0 = far[0]! | 0, f1 = far[1]! | 0, f2 = far[2]! | 0, f3 = far[3]! | 0;
  // (hi << 1) << (31 − p) is hi << (32 − p), and 0 for p = 0 where a single shift by 32 is not.
  const g0 = (31 - f0) | 0, g1 = (31 - f1) | 0, g2 = (31 - f2) | 0, g3 = (31 - f3) | 0;
  const mask = ((1 << k) - 1) | 0;
  const up = (32 - k) | 0;
  // Words are written whole, from the window, once their last pile is done.
  let bound = (((from >>> 5) + 1) << 5) | 0;
  let n = from | 0;
  while (n <= last) {
    let acc =
      (hi >>> n0) & (hi >>> n1) & (hi >>> n2) & (hi >>> n3) &
      (hi >>> n4) & (hi >>> n5) & (hi >>> n6) & (hi >>> n7) &
      (hi >>> n8) & (hi >>> n9) & (hi >>> n10) & (hi >>> n11);
    if (hasFar) {
      const h2 = hi << 1;
      acc &=
        ((lo >>> f0) | (h2 << g0)) & ((lo >>> f1) | (h2 << g1)) &
        ((lo >>> f2) | (h2 << g2)) & ((lo >>> f3) | (h2 << g3));
    }
    const win = ~acc & mask;
    lo = (lo >>> k) | (hi << up);
    hi = (hi >>> k) | (win << up);
    n = (n + k) | 0;
    if (n >= bound) {
      storeWord(bits, bound, n, hi, lo);
      bound = (bound + 32) | 0;
    }
  }
  // The word in progress (piles bound − 32..n − 1; piles past `upto` may be among them): the top
  // of hi, whose bit 31 is pile n − 1.
  if (n > bound - 32) bits[((bound >>> 5) - 1) | 0] = hi >>> (bound - n);
}

/**
 * Stores the word of piles bound − 32..bound − 1, all done, from the window `lo`:`hi` of the 64
 * piles before n (bound ≤ n < bound + 31): from bit o = bound − n + 32 (1 < o ≤ 32) of lo:hi.
 */
function storeWord(bits: Uint32Array, bound: number, n: number, hi: number, lo: number): void {
  const o = (bound - n + 32) | 0;
  bits[((bound >>> 5) - 1) | 0] = ((lo >>> 1) >>> (o - 1)) | (hi << (32 - o));
}

/** `windowSegment` for any number of near and far takes (shift counts in arrays, not padded). */
function windowSegmentLoop(
  bits: Uint32Array,
  near: Int32Array,
  far: Int32Array,
  k: number,
  from: number,
  last: number,
  hi: number,
  lo: number,
): void {
  const nearCount = near.length;
  const farCount = far.length;
  const mask = ((1 << k) - 1) | 0;
  const up = (32 - k) | 0;
  // Words are written whole, from the window, once their last pile is done.
  let bound = (((from >>> 5) + 1) << 5) | 0;
  let n = from | 0;
  while (n <= last) {
    let acc = -1;
    for (let i = 0; i < nearCount; i++) acc &= hi >>> near[i]!;
    for (let i = 0; i < farCount; i++) {
      const p = far[i]!;
      acc &= (lo >>> p) | ((hi << 1) << (31 - p));
    }
    const win = ~acc & mask;
    lo = (lo >>> k) | (hi << up);
    hi = (hi >>> k) | (win << up);
    n = (n + k) | 0;
    if (n >= bound) {
      storeWord(bits, bound, n, hi, lo);
      bound = (bound + 32) | 0;
    }
  }
  if (n > bound - 32) bits[((bound >>> 5) - 1) | 0] = hi >>> (bound - n);
}

/** Longest window (max S) for which the lookup-table fill is used: 2^12 entries. */
const LUT_MAX_WINDOW = 12;
/** Shortest table worth building a lookup table for. */
const LUT_MIN_UPTO = 1 << 16;
/** Piles decided per lookup. */
const LUT_STEP = 16;

/**
 * Fills piles from..upto (from ≥ max S) 16 at a time: the outcomes of the next 16 piles are a
 * function of the window of the max S piles before them, so they are precomputed for every window.
 */
function fillByLookup(bits: Uint32Array, ms: readonly number[], m: number, from: number, upto: number): void {
  const size = 1 << m;
  const lut = new Uint16Array(size);
  for (let window = 0; window < size; window++) {
    // Bit j of `seq` is pile n − m + j: the window, then the 16 new piles as they are decided.
    let seq = window;
    for (let t = 0; t < LUT_STEP; t++) {
      const at = m + t;
      for (const s of ms) {
        if (((seq >>> (at - s)) & 1) === 0) {
          seq |= 1 << at;
          break;
        }
      }
    }
    lut[window] = seq >>> m;
  }
  const wmask = size - 1;
  for (let n = from; n <= upto; n += LUT_STEP) {
    const out = lut[bitsAt(bits, n - m) & wmask]!;
    const w = n >>> 5;
    const sh = n & 31;
    bits[w]! |= out << sh;
    if (sh + LUT_STEP > 32) bits[w + 1]! |= out >>> (32 - sh);
  }
}

/** The eventual period of a subtraction game's outcome sequence, with the table that proves it. */
export interface Periodicity {
  /** Smallest n0 such that outcome(n) = outcome(n + period) for every n ≥ n0. */
  readonly preperiod: number;
  /** Smallest period from the pre-period on. */
  readonly period: number;
  /** The N-bit table (as `subtractionTable`), covering at least piles 0..preperiod+period−1. */
  readonly table: Uint32Array;
  /** Last pile the table covers. */
  readonly upto: number;
}

/**
 * Finds the pre-period and period of the outcome sequence in a table of piles 0..upto, or null
 * when the table is too short to show them. Every pile n ≥ max S is a function of the window of the
 * max S piles before it, so the windows form an iterated map, and their least pre-period and period
 * (`bitWindowPeriod`) are those of the outcome bits.
 */
export function findPeriod(moves: readonly number[], table: Uint32Array, upto: number): Periodicity | null {
  const m = moves[moves.length - 1]!;
  // sameBitRun compares signed 32-bit reads: mixing an unsigned aligned word with a signed
  // unaligned one made equal windows of 32+ bits differ (a false pre-period of 1 instead of 0).
  const found = bitWindowPeriod(table, null, upto - m + 1, m);
  return found && { preperiod: found.preperiod, period: found.period, table, upto };
}

/**
 * Builds tables of growing length (`firstTableUpto(max S)` piles, doubling) until the period shows, up to `limit`
 * piles. Null when the period is not visible within `limit` (e.g. a take larger than the limit).
 */
export function subtractionPeriod(moves: readonly number[], limit = 1 << 26): Periodicity | null {
  const m = moves[moves.length - 1]!;
  if (m > limit) return null;
  // The growing-table loop is written out in each period finder on purpose: one shared driver taking
  // a closure measured 5% slower over the seed detections (docs/ANALYSIS.md, "Kernel measurements").
  for (let upto = Math.min(firstTableUpto(m), limit); ; upto = Math.min(upto * 2, limit)) {
    const found = findPeriod(moves, subtractionTable(moves, upto), upto);
    if (found || upto >= limit) return found;
  }
}

/** Outcome of pile n (a number or a bigint up to 2^63 and beyond) from a periodicity: true when N. */
export function periodicIsN(p: Periodicity, n: number | bigint): boolean {
  let i: number;
  if (typeof n === 'bigint') {
    if (n < 0n) throw new RangeError(`Expected a non-negative pile, got ${n}`);
    i = n <= BigInt(p.upto) ? Number(n) : p.preperiod + Number((n - BigInt(p.preperiod)) % BigInt(p.period));
  } else {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Expected a non-negative integer pile, got ${n}`);
    i = n <= p.upto ? n : p.preperiod + ((n - p.preperiod) % p.period);
  }
  return isN(p.table, i);
}

/**
 * The P-positions among piles 0..upto, in order, in batches of at most `batch`, in constant memory:
 * a ring of the last max S + 1 outcomes (n is P exactly when no take reaches a P-position), where
 * `subtractionTable` keeps a bit per pile. For answers too long to hold (`arena analyze --upto`).
 */
export function* pPositionBatches(moves: readonly number[], upto: number, batch = 4096): Generator<number[]> {
  const size = moves[moves.length - 1]! + 1;
  const ring = new Uint8Array(size);
  let out: number[] = [];
  for (let n = 0, at = 0; n <= upto; n++, at = at + 1 === size ? 0 : at + 1) {
    let p = 1;
    for (let i = 0; i < moves.length; i++) {
      const s = moves[i]!;
      if (s > n) break;
      if (ring[at >= s ? at - s : at - s + size] === 1) {
        p = 0;
        break;
      }
    }
    ring[at] = p;
    if (p === 0) continue;
    out.push(n);
    if (out.length === batch) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

/** The P-positions among piles 0..upto, read from an N-bit table. */
export function pPositionsOf(table: Uint32Array, upto: number): number[] {
  const out: number[] = [];
  for (let n = 0; n <= upto; n++) if (!isN(table, n)) out.push(n);
  return out;
}
