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

/** Piles decided together by `squaresNimValues` (lanes); takes of 1 and 4 are the only ones inside a group. */
const LANES = 8;

/**
 * Distance between the lanes of `nimMarks`: a slot for every 16-bit value, plus padding so the
 * lanes do not fall on the same cache sets.
 */
const NIM_STRIDE = 65536 + 16;

/** Largest `upto` accepted by `squaresNimValues` (2^24 ≈ 1.7·10^7: about 5·10^10 option visits, under a minute). */
export const MAX_SQUARES_NIM = 2 ** 24;

/**
 * Nim-values of one pile 0..upto under subtract-a-square (OEIS A014586): the mex over the ⌊√n⌋
 * options of each n. The mex is at most the number of options, so values fit 16 bits for every
 * pile below 2^32. Time Θ(upto^1.5): about 0.7·upto^1.5 option visits (6.7·10^8 at 10^6, 2·10^10
 * at 10^7), one stamped marks array, no allocation per pile.
 *
 * Why lanes: the straightforward loop (one pile, all its squares, then the mex) spends most of
 * its time in V8's per-access overhead of the loop itself. Eight consecutive piles n..n+7 are
 * decided together instead (`squaresNimGroup`): for each square s ≥ 9 the eight options n+j−s are
 * adjacent in the table and are stamped into eight separate lanes of the marks, so one trip of the
 * square loop does eight piles' work. Takes 1 and 4 stay inside the group and are applied lane by
 * lane, in order, once the earlier lanes are known. The same algorithm and layout as
 * bench/c/squares_nim.c.
 */
export function squaresNimValues(upto: number): Uint16Array {
  if (!Number.isInteger(upto) || upto < 0 || upto > MAX_SQUARES_NIM) {
    throw new RangeError(`Expected upto to be an integer in 0..${MAX_SQUARES_NIM}, got ${upto}`);
  }
  squaresNim ??= squaresNimSolver();
  return squaresNim(upto);
}

/** `squaresNimValues` with its tables, made at its first call (an import allocates nothing). */
let squaresNim: ((upto: number) => Uint16Array) | null = null;

/**
 * Makes the tables of `squaresNimValues` and the function that fills them. It runs once, so its
 * functions are closures made once: TurboFan specializes such a function to its context and folds
 * the tables' addresses and lengths into the loops, as it would for module constants.
 */
function squaresNimSolver(): (upto: number) => Uint16Array {
  /**
   * Stamps of `squaresNimValues`, lane-major: nimMarks[lane·NIM_STRIDE + v] === stamp means v is the
   * value of an option of pile n + lane. Lane-major because the index is then value + constant, one
   * add (the value-major value·8 + lane needs a shift and an or; lane-major measured 10% faster in C
   * too). A constant of this closure, like `sieveHot`, so that TurboFan folds its address and length
   * into the loops. 2 MB of address space, but only the slots of small values are ever touched (values stay
   * below √upto; 168 at 10^6), so only a few pages are.
   */
  const nimMarks = new Int32Array(LANES * NIM_STRIDE);

  /**
   * The table being filled by `squaresNimValues`, shared by every call and copied out at the end.
   * A constant of this closure for the same reason as `nimMarks`: the eight option loads per square of
   * `squaresNimGroup` then use a folded address and length instead of a parameter array's map check
   * and field loads (a parameter table measured about 30% slower at 10^6). 32 MB of address space,
   * allocated zeroed, so only the pages of the piles a call reaches are ever committed.
   */
  const nimTable = new Uint16Array(MAX_SQUARES_NIM + 1);
  return (upto: number): Uint16Array => {
    // Every g[n], n ≥ 1, is written before it is read; only g[0] = 0 needs setting.
    const g = nimTable;
    g[0] = 0;
    const marks = nimMarks;
    // Stamps are pile numbers (never 0), unique within a call but not across calls: clear every
    // slot this call can reach (values ≤ ⌊√upto⌋, and the mex scan reads one slot past them).
    const reach = Math.min(NIM_STRIDE, Math.floor(Math.sqrt(upto)) + 2);
    for (let j = 0; j < LANES; j++) marks.fill(0, j * NIM_STRIDE, j * NIM_STRIDE + reach);
    // The first 64 piles one by one in lane 0 (stamp −n, so they never collide with the group
    // stamps): from n = 64 on, every square up to n + 7 that exceeds n leaves an option below 8 ≤ n.
    const head = Math.min(upto, 63);
    for (let n = 1; n <= head; n++) squaresNimOne(g, n);
    let n = 64;
    for (; n + LANES - 1 <= upto; n += LANES) squaresNimGroup(n);
    for (; n <= upto; n++) squaresNimOne(g, n);
    return g.slice(0, upto + 1);
  };

  /** g[n] from g[0..n−1] alone, in lane 0 of `nimMarks` with stamp −n (the head and tail of `squaresNimValues`). */
  function squaresNimOne(g: Uint16Array, n: number): void {
    const marks = nimMarks;
    for (let d = 1, sq = 1; sq <= n; d += 2, sq += d) marks[g[n - sq]!] = -n;
    let mex = 0;
    while (marks[mex] === -n) mex++;
    g[n] = mex;
  }

  /**
   * g[n..n+7] of `nimTable` from g[0..n−1] (n ≥ 64), stamp n. A function of its own, called once per
   * group, so that TurboFan compiles it with complete feedback instead of on-stack-replacing a loop
   * of the caller.
   */
  function squaresNimGroup(n: number): void {
    const marks = nimMarks;
    const g = nimTable;
    let sq = 9;
    for (let d = 7; sq <= n; sq = (sq + d) | 0, d = (d + 2) | 0) {
      const b = (n - sq) | 0;
      marks[g[b]!] = n;
      marks[(g[(b + 1) | 0]! + NIM_STRIDE) | 0] = n;
      marks[(g[(b + 2) | 0]! + 2 * NIM_STRIDE) | 0] = n;
      marks[(g[(b + 3) | 0]! + 3 * NIM_STRIDE) | 0] = n;
      marks[(g[(b + 4) | 0]! + 4 * NIM_STRIDE) | 0] = n;
      marks[(g[(b + 5) | 0]! + 5 * NIM_STRIDE) | 0] = n;
      marks[(g[(b + 6) | 0]! + 6 * NIM_STRIDE) | 0] = n;
      marks[(g[(b + 7) | 0]! + 7 * NIM_STRIDE) | 0] = n;
    }
    // sq is the first square above n: lanes j ≥ sq − n may still take it (to a pile below 8).
    for (let j = sq - n; j < LANES; j++) marks[g[n + j - sq]! + j * NIM_STRIDE] = n;
    for (let j = 0; j < LANES; j++) {
      const p = n + j;
      const lane = j * NIM_STRIDE;
      marks[g[p - 1]! + lane] = n;
      marks[g[p - 4]! + lane] = n;
      let mex = 0;
      while (marks[mex + lane] === n) mex++;
      g[p] = mex;
    }
  }
}

/** Largest `upto` accepted by the subtract-a-square cold sieve (`squaresColdList`, `squaresColdBitset`). */
export const MAX_SQUARES_SIEVE = 2 ** 30;

/**
 * Piles per block of the sieve: one byte each (plain stores, no read-modify-write of bits), 32 KB,
 * which stays in the 48 KB L1 data cache while it is marked.
 */
const SIEVE_BLOCK = 1 << 15;

/** Stored after the last cold position found so far: ends every stretch in `markFromEarlier`. */
const SENTINEL = 0x7fffffff;

/**
 * Room of `sieveCold`: 2^22 entries (16 MB of address space). There are c(2^30) = 1,816,355 cold
 * positions up to MAX_SQUARES_SIEVE (counted by this sieve and by bench/c/squares_sieve.c; Eppstein's
 * fit gives 1.80·10^6), and c(n) only grows with n, so every accepted `upto` fits with room to spare
 * (the sentinel takes one more entry). Checked anyway: overflowing it throws rather than corrupting.
 */
const SIEVE_COLD_CAPACITY = 1 << 22;

/** Largest k with k² ≤ MAX_SQUARES_SIEVE. */
const SIEVE_KMAX = 2 ** 15;

/**
 * Cold positions (P-positions) of subtract-a-square among piles 0..upto, ascending (OEIS
 * A030193). Each cold p makes p + k² hot for every k ≥ 1. Cold positions are sparse (about
 * 0.9·n^0.7: 1.8·10^6 up to 2^30), so marking forward from them costs about (number of cold
 * positions)·√upto stores (1.3·10^9 at 2^26, 7·10^9 at 2^28), and the list is far smaller than a
 * bitset of every pile.
 *
 * The piles are processed in 32 KB blocks (L1-resident). A block first takes the marks of every
 * earlier cold position (`markFromEarlier`, k-outer: for each k the cold p with p + k² in the
 * block form one stretch of the sorted list), then is scanned in order, each new cold position
 * marking the rest of the block. The same algorithm as bench/c/squares_sieve.c. `blockSize`
 * (piles per block, 1..32768) is for tests. All positions, squares and cursor sums stay below
 * 2^31 for upto ≤ 2^30, so the loops run on int32 values.
 */
export function squaresColdList(upto: number, blockSize = SIEVE_BLOCK): Int32Array {
  if (!Number.isInteger(upto) || upto < 0 || upto > MAX_SQUARES_SIEVE) {
    throw new RangeError(`Expected upto to be an integer in 0..${MAX_SQUARES_SIEVE}, got ${upto}`);
  }
  if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > SIEVE_BLOCK) {
    throw new RangeError(`Expected blockSize to be an integer in 1..${SIEVE_BLOCK}, got ${blockSize}`);
  }
  squaresCold ??= squaresColdSolver();
  return squaresCold(upto, blockSize);
}

/** `squaresColdList` with its working arrays, made at its first call (an import allocates nothing). */
let squaresCold: ((upto: number, blockSize: number) => Int32Array) | null = null;

/**
 * Makes the working arrays of `squaresColdList` and the function that runs the sieve in them. It
 * runs once, so its functions are closures made once: TurboFan specializes such a function to its
 * context and folds the arrays' addresses and lengths into the loops, as it would for module constants.
 */
function squaresColdSolver(): (upto: number, blockSize: number) => Int32Array {
  /**
   * The block being marked, shared by every call (the sieve is synchronous, so calls never overlap).
   * A constant of this closure on purpose: TurboFan folds a constant typed array's address and
   * length into the marking loops, which saves a map check and three field loads per loop trip (V8 does not hoist
   * them out of loops); a parameter array measured about 30% slower at 2^26.
   */
  const sieveHot = new Uint8Array(SIEVE_BLOCK);

  /**
   * The cold positions found so far, ascending, then SENTINEL: the working list of every sieve call
   * (copied out at the end). A constant of this closure for the same reason as `sieveHot`: with a
   * constant typed array TurboFan folds its address and length into `markFromEarlier`'s loop, where a parameter
   * array costs a map check and field loads per stretch and per entry (measured 20–25% of the whole
   * sieve at 2^26). Allocated zeroed, so its pages are only committed once a large sieve touches them.
   */
  const sieveCold = new Int32Array(SIEVE_COLD_CAPACITY);

  /**
   * sieveCursor[k]: where the stretch of take k² starts in `sieveCold` for the next block (every
   * earlier entry has p + k² below that block, so it was marked already). A constant of this
   * closure, like `sieveCold`.
   */
  const sieveCursor = new Int32Array(SIEVE_KMAX + 2);
  return (upto: number, blockSize: number): Int32Array => {
    const cold = sieveCold;
    cold[0] = SENTINEL;
    let count = 0;
    let kmax = Math.floor(Math.sqrt(upto));
    while (kmax * kmax > upto) kmax--;
    while ((kmax + 1) * (kmax + 1) <= upto) kmax++;
    sieveCursor.fill(0, 0, kmax + 2);
    const hot = sieveHot;
    for (let start = 0; start <= upto; start += blockSize) {
      const len = Math.min(upto - start + 1, blockSize);
      hot.fill(0, 0, len);
      markFromEarlier(start, start + len, kmax);
      for (let i = 0; i < len; i++) {
        if (hot[i] !== 0) continue;
        if (count + 1 >= SIEVE_COLD_CAPACITY) {
          throw new Error(`squaresColdList: more than ${SIEVE_COLD_CAPACITY - 1} cold positions up to ${upto}`);
        }
        cold[count++] = start + i;
        for (let x = i + 1, d = 3; x < len; x += d, d += 2) hot[x] = 1;
      }
      cold[count] = SENTINEL;
    }
    return cold.slice(0, count);
  };

  /**
   * Marks in `sieveHot` (piles start..end−1) every p + k² of the cold positions p already listed in
   * `sieveCold` (ascending, ended by SENTINEL), for each k ≤ kmax; advances `sieveCursor`. Per k, the
   * stretch is read four entries per loop trip: V8 repeats its loop-header checks once per trip, not
   * per entry (a one-entry loop measured about 30% slower at 2^26).
   */
  function markFromEarlier(start: number, end: number, kmax: number): void {
    const hot = sieveHot;
    const cold = sieveCold;
    const cursor = sieveCursor;
    for (let k = 1, sq = 1; k <= kmax && sq < end; sq = (sq + 2 * k + 1) | 0, k = (k + 1) | 0) {
      let i = cursor[k]!;
      // Cold positions found after this cursor was set, in blocks whose own marking covered p + k².
      const low = (start - sq) | 0;
      while (cold[i]! < low) i = (i + 1) | 0;
      const lim = (end - sq) | 0;
      const off = (sq - start) | 0;
      for (;;) {
        const p0 = cold[i]!;
        if (p0 >= lim) break;
        hot[(p0 + off) | 0] = 1;
        const p1 = cold[(i + 1) | 0]!;
        if (p1 >= lim) {
          i = (i + 1) | 0;
          break;
        }
        hot[(p1 + off) | 0] = 1;
        const p2 = cold[(i + 2) | 0]!;
        if (p2 >= lim) {
          i = (i + 2) | 0;
          break;
        }
        hot[(p2 + off) | 0] = 1;
        const p3 = cold[(i + 3) | 0]!;
        if (p3 >= lim) {
          i = (i + 3) | 0;
          break;
        }
        hot[(p3 + off) | 0] = 1;
        i = (i + 4) | 0;
      }
      cursor[k] = i;
    }
  }
}

/**
 * Cold positions of subtract-a-square as a bitset over piles 0..upto: bit n is set exactly when a
 * single pile of n is cold. Built from `squaresColdList`; `blockSize` is passed through (tests).
 */
export function squaresColdBitset(upto: number, blockSize = SIEVE_BLOCK): Uint32Array {
  const cold = squaresColdList(upto, blockSize);
  const bits = new Uint32Array((upto >>> 5) + 1);
  for (let c = 0; c < cold.length; c++) {
    const n = cold[c]!;
    bits[n >>> 5]! |= 1 << (n & 31);
  }
  return bits;
}

/** Eppstein's fit for the number of cold positions of subtract-a-square up to n: 0.897·n^0.698 (FUN 2018). */
export function squaresColdFit(n: number): number {
  return 0.897 * n ** 0.698;
}

/** c_n: how many entries of an ascending list are ≤ n (binary search), e.g. cold positions up to n. */
export function countAtMost(sorted: Int32Array, n: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

/**
 * The counting curve of an ascending list at about `samples` log-spaced points n in 1..upto
 * (distinct, increasing, upto last): `count` entries of `sorted` are ≤ n. For plotting c_n.
 */
export function logSpacedCounts(sorted: Int32Array, upto: number, samples: number): { n: number; count: number }[] {
  const out: { n: number; count: number }[] = [];
  if (upto < 1) return out;
  const steps = Math.max(1, samples - 1);
  for (let i = 0; i <= steps; i++) {
    const n = i === steps ? upto : Math.max(1, Math.round(upto ** (i / steps)));
    if (out.length > 0 && out[out.length - 1]!.n >= n) continue;
    out.push({ n, count: countAtMost(sorted, n) });
  }
  return out;
}
