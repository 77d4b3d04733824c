/**
 * Exact analysis of End Game (GAMES.md 6): players alternately take the leftmost or rightmost
 * number of a row. V(i, j) — the best margin the player to move can reach on row[i..j) — obeys
 * V(i, j) = max(row[i] − V(i+1, j), row[j−1] − V(i, j−1)), an interval DP over lengths ("diagonals").
 *
 * Memory: the diagonal of length d+1 is computed in place from that of length d, so the value of
 * one interval costs O(N²) time and O(N) memory (`endGameValue`). For play, where every move asks
 * for a sub-interval one shorter than the last, `EndGameTable` keeps every K-th diagonal
 * (checkpoints) and recomputes short stretches between them on demand: O(N^{4/3}) memory, O(N²)
 * time to build and amortised O(N^{2/3}) per move after that.
 */

/** Cells of the DP: Int32 when every margin fits (branch-free max), else Float64 (exact below 2^53). */
type Cells = Int32Array | Float64Array;

/**
 * True when every margin on the row fits Int32 with room for a difference of two margins: a
 * margin is at most the sum of absolute values, so that sum must stay below 2^30.
 */
function fitsInt32(row: ArrayLike<number>, lo: number, hi: number): boolean {
  let sum = 0;
  for (let i = lo; i < hi; i++) sum += Math.abs(row[i]!);
  return sum < 2 ** 30;
}

/**
 * Advances `v` in place from diagonal d to diagonal d+1 for `count` intervals starting at `lo`:
 * v[j] = V(lo+j, lo+j+d) becomes V(lo+j, lo+j+d+1). v[j] reads v[j] and v[j+1], and v[j+1] is not
 * yet overwritten.
 */
function step(row: Cells, v: Cells, lo: number, d: number, count: number): void {
  if (row instanceof Int32Array && v instanceof Int32Array) stepInt(row, v, lo, d, count);
  else stepFloat(row, v, lo, d, count);
}

/**
 * Int32 form of `step`. The max is branch-free (x & (x >> 31) is x when negative, else 0): on
 * random rows the comparison is a coin flip, and the branchy form runs 2–3 times slower. Every
 * result is truncated with `| 0` so that V8 keeps int32 arithmetic without overflow checks.
 */
function stepInt(row: Int32Array, v: Int32Array, lo: number, d: number, count: number): void {
  for (let j = 0; j < count; j = (j + 1) | 0) {
    const left = (row[(lo + j) | 0]! - v[(j + 1) | 0]!) | 0;
    const right = (row[(lo + j + d) | 0]! - v[j]!) | 0;
    const diff = (left - right) | 0;
    v[j] = (left - (diff & (diff >> 31))) | 0;
  }
}

/** Float64 form of `step`, for rows whose margins may exceed Int32. */
function stepFloat(row: Cells, v: Cells, lo: number, d: number, count: number): void {
  for (let j = 0; j < count; j++) {
    const left = row[lo + j]! - v[j + 1]!;
    const right = row[lo + j + d]! - v[j]!;
    v[j] = left >= right ? left : right;
  }
}

/** Diagonals advanced per pass by `sweepInt`. */
const SWEEP = 12;

/**
 * Advances `v` in place from diagonal d to diagonal d+12 in one pass (Int32 cells), for the
 * m = count intervals of length d+1 starting at 0 (m ≥ 12; afterwards v[0..m−12] hold length
 * d+12). `w0` is v[0], read by the caller.
 *
 * Why: one diagonal per pass spends three typed-array loads and a store per cell, and V8 pays
 * bounds and map checks on each. Skewing 12 diagonals into one pass (level t at position i−t+1
 * on trip i) needs only row[i], row[i+d] and v[i+1] per trip: level t of the interval starting
 * at j = i−t+1 takes the left end row[j] (carried in r(t−1) from earlier trips) or the right end
 * row[j+d+t−1] = row[i+d], the same for every level. Level t reads level t−1 at j (computed on
 * the previous trip, p(t−1)) and at j+1 (this trip, a(t−1)), both in registers. Entries at
 * negative positions during the first trips are junk that only feeds other negative positions
 * and is never stored.
 *
 * How it stays fast in V8 (checked with --trace-deopt and --print-opt-code): every value is
 * truncated with `| 0`, so the loop is pure int32 arithmetic with no overflow checks; and the
 * function reads no array before its loop (v[0] comes in as `w0`). Its first call runs long
 * enough to be optimised on-stack before it has a feedback vector, so a keyed load ahead of the
 * loop would have no type feedback, the regular optimised code would deoptimise on entry, and
 * every later call would run the on-stack-replacement code, which keeps the carried values
 * tagged (measured: 1.7× slower).
 */
function sweepInt(row: Int32Array, v: Int32Array, d: number, m: number, w0: number): void {
  // Level t (1..12) this trip: a(t) = max(r(t−1) − a(t−1), right − p(t−1)), with r0 − w1 and right − w0
  // for level 1; the max is branch-free as in stepInt (Math.max compiles to a branch in V8, and
  // on random rows that runs twice as slow).
  let p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0, p8 = 0, p9 = 0, p10 = 0, p11 = 0;
  let r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0, r10 = 0, r11 = 0;
  let prev = w0;
  for (let i = 0; i < m; i = (i + 1) | 0) {
    const r0 = row[i]! | 0;
    const right = row[(i + d) | 0]! | 0;
    const w1 = v[(i + 1) | 0]! | 0;
    let x = (r0 - w1) | 0;
    let y = (right - prev) | 0;
    let t = (x - y) | 0;
    const a1 = (x - (t & (t >> 31))) | 0;
    x = (r1 - a1) | 0;
    y = (right - p1) | 0;
    t = (x - y) | 0;
    const a2 = (x - (t & (t >> 31))) | 0;
    x = (r2 - a2) | 0;
    y = (right - p2) | 0;
    t = (x - y) | 0;
    const a3 = (x - (t & (t >> 31))) | 0;
    x = (r3 - a3) | 0;
    y = (right - p3) | 0;
    t = (x - y) | 0;
    const a4 = (x - (t & (t >> 31))) | 0;
    x = (r4 - a4) | 0;
    y = (right - p4) | 0;
    t = (x - y) | 0;
    const a5 = (x - (t & (t >> 31))) | 0;
    x = (r5 - a5) | 0;
    y = (right - p5) | 0;
    t = (x - y) | 0;
    const a6 = (x - (t & (t >> 31))) | 0;
    x = (r6 - a6) | 0;
    y = (right - p6) | 0;
    t = (x - y) | 0;
    const a7 = (x - (t & (t >> 31))) | 0;
    x = (r7 - a7) | 0;
    y = (right - p7) | 0;
    t = (x - y) | 0;
    const a8 = (x - (t & (t >> 31))) | 0;
    x = (r8 - a8) | 0;
    y = (right - p8) | 0;
    t = (x - y) | 0;
    const a9 = (x - (t & (t >> 31))) | 0;
    x = (r9 - a9) | 0;
    y = (right - p9) | 0;
    t = (x - y) | 0;
    const a10 = (x - (t & (t >> 31))) | 0;
    x = (r10 - a10) | 0;
    y = (right - p10) | 0;
    t = (x - y) | 0;
    const a11 = (x - (t & (t >> 31))) | 0;
    x = (r11 - a11) | 0;
    y = (right - p11) | 0;
    t = (x - y) | 0;
    const a12 = (x - (t & (t >> 31))) | 0;
    if (i >= 11) v[(i - 11) | 0] = a12;
    p1 = a1; p2 = a2; p3 = a3; p4 = a4; p5 = a5; p6 = a6; p7 = a7; p8 = a8; p9 = a9; p10 = a10; p11 = a11;
    r11 = r10; r10 = r9; r9 = r8; r8 = r7; r7 = r6; r6 = r5; r5 = r4; r4 = r3; r3 = r2; r2 = r1; r1 = r0;
    prev = w1;
  }
}

/**
 * Advances `v` from diagonal d by `steps` diagonals for the intervals of row[0..n) (v[j] =
 * V(j, j+d) for j ≤ n−d): 12 at a time while they fit, then one by one.
 */
function advance(row: Cells, v: Cells, n: number, d: number, steps: number): void {
  const end = d + steps;
  if (row instanceof Int32Array && v instanceof Int32Array) {
    for (; end - d >= SWEEP && n - d >= SWEEP; d += SWEEP) sweepInt(row, v, d, n - d, v[0]!);
  }
  for (; d < end; d++) step(row, v, 0, d, n - d);
}

/** The best margin (player to move minus opponent) on `row[lo..hi)`, in O(N) memory. */
export function endGameValue(row: ArrayLike<number>, lo = 0, hi = row.length): number {
  const n = hi - lo;
  if (n <= 0) return 0;
  const Kind = fitsInt32(row, lo, hi) ? Int32Array : Float64Array;
  const r = new Kind(n);
  for (let i = 0; i < n; i++) r[i] = row[lo + i]!;
  const v = new Kind(n + 1); // v[i] = V(lo+i, lo+i+d) for the current length d
  advance(r, v, n, 0, n);
  return v[0]!;
}

/**
 * All interval values of one row, for repeated queries as a game is played. Keeps the diagonals of
 * lengths 0, K, 2K, … (checkpoints, N²/2K numbers). A query of length d = cK + t (0 < t < K) is
 * answered from a block: the diagonals cK+1 … cK+K−1 recomputed from checkpoint c, restricted to
 * the window of the query, [lo, hi) — only sub-intervals of the window, at most K+1 of each length,
 * so a block costs O(K²) time and memory. A game asks for shorter and shorter sub-intervals of its
 * current interval, so one block serves K moves: O(K) per move amortised. K ≈ (N²/2)^⅓ balances
 * checkpoints against the block (N = 20,000: about 1.4 M cells each, against 200 M for a full
 * triangle). Cells are Int32 when the row's absolute sum is below 2^30, else Float64, exact while
 * margins stay below 2^53 — which the End Game's limits (50,000 numbers of at most 10^9) guarantee.
 */
export class EndGameTable {
  /** The row the table answers for (kept by reference; never mutated). */
  readonly row: readonly number[];
  /** Diagonals between checkpoints (K). */
  readonly blockSize: number;
  /** The row as typed cells: one element kind in the hot loop. */
  private readonly values: Cells;
  private readonly n: number;
  /** checkpoints[c][i] = V(i, i + c·K). */
  private readonly checkpoints: Cells[] = [];
  /** block[t·width + (i − blockLo)] = V(i, i + c·K + t) for the loaded block c and window. */
  private block: Cells;
  private blockC = -1;
  private blockLo = 0;
  private blockHi = -1;
  private blockWidth = 0;

  /** Builds the checkpoints (O(N²) time). `blockSize` defaults to ⌈(N²/2)^⅓⌉; tests pass small ones. */
  constructor(row: readonly number[], blockSize?: number) {
    this.row = row;
    const n = (this.n = row.length);
    const k = blockSize ?? Math.max(1, Math.ceil(Math.cbrt((n * n) / 2)));
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`Expected blockSize to be a positive integer, got ${k}`);
    this.blockSize = k;
    const Kind = fitsInt32(row, 0, n) ? Int32Array : Float64Array;
    this.values = Kind.from(row);
    this.block = new Kind(0);
    const v = new Kind(n + 1);
    for (let d = 0; d <= n; d += k) {
      if (d > 0) advance(this.values, v, n, d - k, k);
      this.checkpoints.push(v.slice(0, n - d + 1));
    }
  }

  /** Makes the block of c cover every sub-interval of [lo, hi) whose length lies in block c. */
  private ensure(c: number, lo: number, hi: number): void {
    if (this.blockC === c && this.blockLo <= lo && hi <= this.blockHi) return;
    const k = this.blockSize;
    const first = c * k;
    const width = hi - lo - first + 1; // entries of diagonal `first` inside the window
    if (this.block.length < k * width) this.block = this.values instanceof Int32Array ? new Int32Array(k * width) : new Float64Array(k * width);
    const v = this.checkpoints[c]!.slice(lo, lo + width);
    this.block.set(v, 0);
    for (let t = 1; t < k && t < width; t++) {
      step(this.values, v, lo, first + t - 1, width - t);
      this.block.set(v.subarray(0, width - t), t * width);
    }
    this.blockC = c;
    this.blockLo = lo;
    this.blockHi = hi;
    this.blockWidth = width;
  }

  /** The best margin for the player to move on `row[lo..hi)` (0 ≤ lo ≤ hi ≤ N). */
  value(lo: number, hi: number): number {
    if (!(Number.isInteger(lo) && Number.isInteger(hi) && 0 <= lo && lo <= hi && hi <= this.n)) {
      throw new RangeError(`Expected 0 <= lo <= hi <= ${this.n}, got lo ${lo} and hi ${hi}`);
    }
    const d = hi - lo;
    const c = Math.floor(d / this.blockSize);
    const t = d - c * this.blockSize;
    if (t === 0) return this.checkpoints[c]![lo]!;
    this.ensure(c, lo, hi);
    return this.block[t * this.blockWidth + (lo - this.blockLo)]!;
  }

  /**
   * The optimal take on `row[lo..hi)`: `L` when taking the left end gives at least the margin of
   * taking the right end (ties prefer `L`), else `R`. Null on an empty row.
   */
  bestMove(lo: number, hi: number): 'L' | 'R' | null {
    if (hi <= lo) return null;
    // Load the block of length hi−lo−1 for the whole window, so both children hit it.
    const c = Math.floor((hi - lo - 1) / this.blockSize);
    if (hi - lo - 1 !== c * this.blockSize) this.ensure(c, lo, hi);
    const left = this.row[lo]! - this.value(lo + 1, hi);
    const right = this.row[hi - 1]! - this.value(lo, hi - 1);
    return left >= right ? 'L' : 'R';
  }
}

/**
 * A small cache of tables by row. States of one game share their row, so identity usually hits;
 * a row that crossed a worker boundary is a fresh copy, so equal content also hits (an O(N)
 * compare, against the O(N²) of a rebuild).
 */
export class EndGameTables {
  private readonly tables: EndGameTable[] = [];
  private readonly capacity: number;

  /** Keeps at most `capacity` tables (each holds O(N^{4/3}) numbers). */
  constructor(capacity = 2) {
    this.capacity = capacity;
  }

  /** The table of `row`, built on first use. */
  get(row: readonly number[]): EndGameTable {
    let index = this.tables.findIndex((t) => t.row === row);
    if (index < 0) index = this.tables.findIndex((t) => sameRow(t.row, row));
    let table: EndGameTable;
    if (index >= 0) {
      table = this.tables[index]!;
      this.tables.splice(index, 1);
    } else {
      table = new EndGameTable(row);
      if (this.tables.length >= this.capacity) this.tables.pop();
    }
    this.tables.unshift(table); // most recently used first
    return table;
  }
}

function sameRow(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
