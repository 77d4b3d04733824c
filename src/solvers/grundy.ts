/**
 * Sprague–Grundy analysis of several-pile take-away games (GAMES.md 4): nim-values of one pile
 * under Nim, a finite subtraction set or subtract-a-square, the subtract-a-square cold-position
 * sieve, and the reference move on a row of piles (xor rule).
 */

/** Which amounts a move may take from one pile: any positive number, a positive square, or a finite set. */
export type PileRule = 'nim' | 'squares' | readonly number[];

/** A move on a row of piles: `index` is the 0-based position of the pile in the row, `take` the amount removed. */
export interface PileTake {
  readonly index: number;
  readonly take: number;
}

/**
 * Nim-values of one pile 0..upto under a finite subtraction set (sorted ascending, distinct),
 * by mex in one pass. A value is the mex of at most |S| values, so it is at most |S| ≤ 255 and
 * fits a byte.
 */
export function subtractionNimValues(moves: readonly number[], upto: number): Uint8Array {
  if (moves.length > 255) throw new RangeError(`Expected at most 255 takes, got ${moves.length}`);
  const g = new Uint8Array(upto + 1);
  // marks[v] === stamp means value v occurs among the options of the current n; stamping avoids
  // clearing the marks for every n.
  const marks = new Uint32Array(moves.length + 2);
  for (let n = 0; n <= upto; n++) {
    const stamp = n + 1;
    for (const s of moves) {
      if (s > n) break;
      marks[g[n - s]!] = stamp;
    }
    let mex = 0;
    while (marks[mex] === stamp) mex++;
    g[n] = mex;
  }
  return g;
}

/**
 * Nim-values of one pile 0..upto under subtract-a-square (OEIS A014586): the mex over the ⌊√n⌋
 * options of each n. The mex is at most the number of options, so values fit 16 bits for every
 * pile below 2^32. Time Θ(upto^1.5) (about 3.5 s of CPU at 10^6 on the reference machine), one
 * stamped marks array, no allocation per pile. (A variant that marks square by square over blocks
 * of piles, for sequential reads of the table, measured no faster, so the plain loop stays.)
 */
export function squaresNimValues(upto: number): Uint16Array {
  const g = new Uint16Array(upto + 1);
  const marks = new Uint32Array(Math.floor(Math.sqrt(upto)) + 2);
  for (let n = 1; n <= upto; n++) {
    // Stamp with n (≥ 1; marks start at 0) so the marks never need clearing. Squares step by
    // odd numbers: (k+1)² = k² + 2k + 1.
    for (let d = 1, sq = 1; sq <= n; d += 2, sq += d) marks[g[n - sq]!] = n;
    let mex = 0;
    while (marks[mex] === n) mex++;
    g[n] = mex;
  }
  return g;
}

/** Largest `upto` accepted by `squaresColdBitset` (a 2^31-bit table would be 256 MB). */
export const MAX_SQUARES_SIEVE = 2 ** 31 - 1;

/**
 * Piles per block of the sieve: one byte each (plain stores, no read-modify-write of bits), 1 MB,
 * which stays in cache while it is marked. Measured at 2^26 on the reference machine: about 4–5 s
 * of CPU, against 6–7 s for bit marks in 32 KB blocks; larger byte blocks were slower.
 */
const SIEVE_BLOCK = 1 << 20;

/**
 * Cold positions (P-positions) of subtract-a-square for piles 0..upto: bit n of the result is set
 * exactly when a single pile of n is cold (OEIS A030193). Each cold p makes p + k² hot for every
 * k ≥ 1. Cold positions are sparse (about 0.9·n^0.7), so marking forward from them costs about
 * (number of cold positions)·√upto stores (1.6·10^9 at 2^26). The piles are processed in
 * cache-sized blocks: a block first receives the marks of every cold position found in earlier
 * blocks, then is scanned in order, each new cold position marking the rest of the block; the
 * block is then packed into the result bitset. `blockSize` (piles per block) is for tests.
 */
export function squaresColdBitset(upto: number, blockSize = SIEVE_BLOCK): Uint32Array {
  if (!Number.isInteger(upto) || upto < 0 || upto > MAX_SQUARES_SIEVE) {
    throw new RangeError(`Expected upto to be an integer in 0..${MAX_SQUARES_SIEVE}, got ${upto}`);
  }
  if (!Number.isInteger(blockSize) || blockSize < 1) {
    throw new RangeError(`Expected blockSize to be a positive integer, got ${blockSize}`);
  }
  const bits = new Uint32Array((upto >>> 5) + 1);
  const hot = new Uint8Array(Math.min(blockSize, upto + 1));
  // The cold positions found so far, in increasing order (grown by doubling).
  let cold = new Int32Array(1024);
  let coldCount = 0;
  for (let start = 0; start <= upto; start += blockSize) {
    const len = Math.min(upto - start + 1, blockSize);
    hot.fill(0);
    // Marks from earlier blocks: p + k² in [start, start + len) for each earlier cold p.
    for (let c = 0; c < coldCount; c++) {
      const p = cold[c]!;
      let k = Math.ceil(Math.sqrt(start - p));
      while (k > 1 && p + (k - 1) * (k - 1) >= start) k--; // guard float rounding of √
      while (p + k * k < start) k++;
      // Squares step by odd numbers: (k+1)² = k² + 2k + 1.
      for (let x = p + k * k - start, d = 2 * k + 1; x < len; x += d, d += 2) hot[x] = 1;
    }
    for (let i = 0; i < len; i++) {
      if (hot[i] !== 0) continue;
      if (coldCount === cold.length) {
        const grown = new Int32Array(cold.length * 2);
        grown.set(cold);
        cold = grown;
      }
      cold[coldCount++] = start + i;
      for (let x = i + 1, d = 3; x < len; x += d, d += 2) hot[x] = 1;
      const n = start + i;
      bits[n >>> 5]! |= 1 << (n & 31);
    }
  }
  return bits;
}

/** Reads bit n of a bitset (as returned by `squaresColdBitset`). */
export function testBit(bits: Uint32Array, n: number): boolean {
  return (bits[n >>> 5]! & (1 << (n & 31))) !== 0;
}

/** Number of set bits in a bitset. */
export function popcount(bits: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  }
  return count;
}

/** The indices of the set bits of a bitset, ascending. */
export function bitsToList(bits: Uint32Array): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]!;
    while (v !== 0) {
      const low = v & -v;
      out.push(w * 32 + 31 - Math.clz32(low));
      v ^= low;
    }
  }
  return out;
}

/** Nim-values of one pile 0..upto under a rule, as a typed array (Nim: the size itself). */
export function nimValues(rule: PileRule, upto: number): Uint8Array | Uint16Array | Uint32Array {
  if (rule === 'squares') return squaresNimValues(upto);
  if (rule === 'nim') {
    const g = new Uint32Array(upto + 1);
    for (let n = 0; n <= upto; n++) g[n] = n;
    return g;
  }
  return subtractionNimValues(rule, upto);
}

/** The smallest amount a rule ever allows to take. */
export function smallestTake(rule: PileRule): number {
  return typeof rule === 'string' ? 1 : rule[0]!;
}

/** Calls `visit` with each take the rule allows from a pile of `n`, largest first; stops when it returns true. */
export function forEachTakeDescending(rule: PileRule, n: number, visit: (take: number) => boolean): void {
  if (rule === 'nim') {
    for (let t = n; t >= 1; t--) if (visit(t)) return;
  } else if (rule === 'squares') {
    for (let k = Math.floor(Math.sqrt(n)); k >= 1; k--) if (visit(k * k)) return;
  } else {
    for (let i = rule.length - 1; i >= 0; i--) {
      const t = rule[i]!;
      if (t <= n && visit(t)) return;
    }
  }
}

/** Xor of the nim-values of a row of piles: zero exactly at a P-position (Sprague–Grundy). */
export function xorOfPiles(piles: readonly number[], nimValue: (n: number) => number): number {
  let x = 0;
  for (const n of piles) x ^= nimValue(n);
  return x;
}

/**
 * The reference move on a row of piles. In an N-position: the largest take that makes the xor 0
 * (ties between piles: the lowest-numbered pile). In a P-position: the smallest take from the
 * largest pile that can move (ties: the lowest-numbered pile), which prolongs the game. Null when
 * no pile can move.
 */
export function bestPilesMove(
  piles: readonly number[],
  rule: PileRule,
  nimValue: (n: number) => number,
): PileTake | null {
  const x = xorOfPiles(piles, nimValue);
  if (x !== 0) {
    let best: PileTake | null = null;
    piles.forEach((n, index) => {
      const target = nimValue(n) ^ x;
      if (rule === 'nim') {
        if (target < n && (best === null || n - target > best.take)) best = { index, take: n - target };
        return;
      }
      forEachTakeDescending(rule, n, (take) => {
        if (best !== null && take <= best.take) return true; // cannot beat the best found so far
        if (nimValue(n - take) === target) {
          best = { index, take };
          return true;
        }
        return false;
      });
    });
    if (best !== null) return best;
    // Unreachable by Sprague–Grundy (a non-zero xor always has a zeroing move); kept as a guard.
    throw new Error('Sprague–Grundy invariant violated: no move zeroes a non-zero xor');
  }
  const min = smallestTake(rule);
  let index = -1;
  piles.forEach((n, i) => {
    if (n >= min && (index < 0 || n > piles[index]!)) index = i;
  });
  return index < 0 ? null : { index, take: min };
}
