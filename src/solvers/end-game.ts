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

/** Diagonals advanced per pass by `sweepInt`, and the padding its arrays need past N. */
const SWEEP = 6;

/**
 * The row and the diagonal `sweepInt` works on (`advance` copies them in and out: O(N) against
 * its O(N·steps)). Constant arrays, not parameters, on purpose: V8 repeats a parameter array's
 * map check and field loads on every access, about a fifth slower here (docs/ANALYSIS.md, "Kernel measurements").
 * Built by a factory, not declared at the top level: a bundler (esbuild, which builds the worker
 * scripts) turns top-level `const`s into `var`s, and V8 gives this speed only to `const` bindings
 * (a module-level `var` array measured as slow as a parameter). Rows longer than SWEEP_CELLS −
 * SWEEP − 1 (65,529) go one diagonal at a time.
 */
function sweepKernel() {
  const SWEEP_ROW = new Int32Array(SWEEP_CELLS);
  const SWEEP_V = new Int32Array(SWEEP_CELLS);

  /**
   * Advances `v` = SWEEP_V in place from diagonal d to diagonal d+6 in one pass over `row` =
   * SWEEP_ROW, for the m = count intervals of length d+1 starting at 0 (m ≥ 6; afterwards
   * v[0..m−6] hold length d+6). `first` is v[0], read by the caller. The last trip group runs up to
   * 5 trips past m, into cells past the row that hold whatever an earlier call left there.
   *
   * Why: one diagonal per pass spends three typed-array loads and a store per cell, and V8 pays
   * bounds and map checks on each. Skewing 6 diagonals into one pass (level t at position i−t+1
   * on trip i) needs only row[i], row[i+d] and v[i+1] per trip: level t of the interval starting
   * at j = i−t+1 takes the left end row[j] (carried in r(t−1) from earlier trips) or the right end
   * row[j+d+t−1] = row[i+d], the same for every level. Level t reads level t−1 at j (computed on
   * the previous trip, p(t−1)) and at j+1 (this trip, a(t−1)), both in registers. Entries at
   * negative positions during the first trips are junk that only feeds other negative positions
   * and is never stored; so are the entries the overrunning last trips store at positions past
   * m−6 (no interval of length d+6 starts there).
   *
   * Why 6 trips per loop iteration, written out: V8 moves every value carried around a loop through
   * a stack slot at the back edge (two memory moves per value and trip with one trip per
   * iteration). Written out for 6 trips, the values of one trip are consumed by name in the next, so
   * those moves happen once per 6 trips. Why 6 diagonals: the 11 carried values and a trip's
   * temporaries nearly fit x64's registers; 8, 10, 12 and 16 diagonals (each written out the same
   * way) spill more and measured slower, 4 and 5 slower too; other diagonal and trip counts over
   * the constant arrays gave no clear gain, nor did carrying alternate levels negated so that they
   * add (docs/ANALYSIS.md, "Kernel measurements"). The
   * source is regular on purpose: trip u reads q(u) = row[i+u], R(u) = row[i+u+d] and w(u) =
   * v[i+u+1], and level t of trip u is a(t)_u = max(left − a(t−1)_u, R(u) − a(t−1)_(u−1)) with
   * left = row[i+u−t+1] and a(0)_u = w(u).
   *
   * How it stays fast in V8 (checked with --trace-deopt): every value is truncated with `| 0`, so
   * the loop is pure int32 arithmetic with no overflow checks; the max is branch-free (x − (z & (z
   * >> 31)) with z = x − y; Math.max and `x > y ? x : y` compile to branches in V8, and on random
   * rows those run four times as slow); and the function reads no array before its loops (v[0]
   * comes in as `first`), so that an on-stack-replaced first call leaves no keyed load without type
   * feedback.
   */
  function sweepInt(d: number, m: number, first: number): void {
    const row = SWEEP_ROW;
    const v = SWEEP_V;
    let p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0;
    let r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0;
    let prev = first;
    let x = 0, y = 0, z = 0;
    // Trips 0..4 store nothing (their level-6 entries lie at negative positions). The loops count
    // with 5 and 6 (SWEEP − 1 and SWEEP) written out: in a bundle SWEEP is a top-level `var`,
    // which V8 would load again on every iteration.
    let i = 0;
    for (; i < 5; i = (i + 1) | 0) {
      const q = row[i]! | 0, R = row[(i + d) | 0]! | 0, w = v[(i + 1) | 0]! | 0;
      x = (q - w) | 0; y = (R - prev) | 0; z = (x - y) | 0; const a1 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a1) | 0; y = (R - p1) | 0; z = (x - y) | 0; const a2 = (x - (z & (z >> 31))) | 0;
      x = (r2 - a2) | 0; y = (R - p2) | 0; z = (x - y) | 0; const a3 = (x - (z & (z >> 31))) | 0;
      x = (r3 - a3) | 0; y = (R - p3) | 0; z = (x - y) | 0; const a4 = (x - (z & (z >> 31))) | 0;
      x = (r4 - a4) | 0; y = (R - p4) | 0; z = (x - y) | 0; const a5 = (x - (z & (z >> 31))) | 0;
      prev = w; p1 = a1; p2 = a2; p3 = a3; p4 = a4; p5 = a5;
      r5 = r4; r4 = r3; r3 = r2; r2 = r1; r1 = q;
    }
    // Trips from 5 on, 6 per iteration (the last iteration may run past m into the padding).
    for (; i < m; i = (i + 6) | 0) {
      const q0 = row[i]! | 0, R0 = row[(i + d) | 0]! | 0, w0 = v[(i + 1) | 0]! | 0;
      x = (q0 - w0) | 0; y = (R0 - prev) | 0; z = (x - y) | 0; const a1_0 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a1_0) | 0; y = (R0 - p1) | 0; z = (x - y) | 0; const a2_0 = (x - (z & (z >> 31))) | 0;
      x = (r2 - a2_0) | 0; y = (R0 - p2) | 0; z = (x - y) | 0; const a3_0 = (x - (z & (z >> 31))) | 0;
      x = (r3 - a3_0) | 0; y = (R0 - p3) | 0; z = (x - y) | 0; const a4_0 = (x - (z & (z >> 31))) | 0;
      x = (r4 - a4_0) | 0; y = (R0 - p4) | 0; z = (x - y) | 0; const a5_0 = (x - (z & (z >> 31))) | 0;
      x = (r5 - a5_0) | 0; y = (R0 - p5) | 0; z = (x - y) | 0; const a6_0 = (x - (z & (z >> 31))) | 0;
      v[(i - 5) | 0] = a6_0;
      const q1 = row[(i + 1) | 0]! | 0, R1 = row[(i + 1 + d) | 0]! | 0, w1 = v[(i + 2) | 0]! | 0;
      x = (q1 - w1) | 0; y = (R1 - w0) | 0; z = (x - y) | 0; const a1_1 = (x - (z & (z >> 31))) | 0;
      x = (q0 - a1_1) | 0; y = (R1 - a1_0) | 0; z = (x - y) | 0; const a2_1 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a2_1) | 0; y = (R1 - a2_0) | 0; z = (x - y) | 0; const a3_1 = (x - (z & (z >> 31))) | 0;
      x = (r2 - a3_1) | 0; y = (R1 - a3_0) | 0; z = (x - y) | 0; const a4_1 = (x - (z & (z >> 31))) | 0;
      x = (r3 - a4_1) | 0; y = (R1 - a4_0) | 0; z = (x - y) | 0; const a5_1 = (x - (z & (z >> 31))) | 0;
      x = (r4 - a5_1) | 0; y = (R1 - a5_0) | 0; z = (x - y) | 0; const a6_1 = (x - (z & (z >> 31))) | 0;
      v[(i - 4) | 0] = a6_1;
      const q2 = row[(i + 2) | 0]! | 0, R2 = row[(i + 2 + d) | 0]! | 0, w2 = v[(i + 3) | 0]! | 0;
      x = (q2 - w2) | 0; y = (R2 - w1) | 0; z = (x - y) | 0; const a1_2 = (x - (z & (z >> 31))) | 0;
      x = (q1 - a1_2) | 0; y = (R2 - a1_1) | 0; z = (x - y) | 0; const a2_2 = (x - (z & (z >> 31))) | 0;
      x = (q0 - a2_2) | 0; y = (R2 - a2_1) | 0; z = (x - y) | 0; const a3_2 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a3_2) | 0; y = (R2 - a3_1) | 0; z = (x - y) | 0; const a4_2 = (x - (z & (z >> 31))) | 0;
      x = (r2 - a4_2) | 0; y = (R2 - a4_1) | 0; z = (x - y) | 0; const a5_2 = (x - (z & (z >> 31))) | 0;
      x = (r3 - a5_2) | 0; y = (R2 - a5_1) | 0; z = (x - y) | 0; const a6_2 = (x - (z & (z >> 31))) | 0;
      v[(i - 3) | 0] = a6_2;
      const q3 = row[(i + 3) | 0]! | 0, R3 = row[(i + 3 + d) | 0]! | 0, w3 = v[(i + 4) | 0]! | 0;
      x = (q3 - w3) | 0; y = (R3 - w2) | 0; z = (x - y) | 0; const a1_3 = (x - (z & (z >> 31))) | 0;
      x = (q2 - a1_3) | 0; y = (R3 - a1_2) | 0; z = (x - y) | 0; const a2_3 = (x - (z & (z >> 31))) | 0;
      x = (q1 - a2_3) | 0; y = (R3 - a2_2) | 0; z = (x - y) | 0; const a3_3 = (x - (z & (z >> 31))) | 0;
      x = (q0 - a3_3) | 0; y = (R3 - a3_2) | 0; z = (x - y) | 0; const a4_3 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a4_3) | 0; y = (R3 - a4_2) | 0; z = (x - y) | 0; const a5_3 = (x - (z & (z >> 31))) | 0;
      x = (r2 - a5_3) | 0; y = (R3 - a5_2) | 0; z = (x - y) | 0; const a6_3 = (x - (z & (z >> 31))) | 0;
      v[(i - 2) | 0] = a6_3;
      const q4 = row[(i + 4) | 0]! | 0, R4 = row[(i + 4 + d) | 0]! | 0, w4 = v[(i + 5) | 0]! | 0;
      x = (q4 - w4) | 0; y = (R4 - w3) | 0; z = (x - y) | 0; const a1_4 = (x - (z & (z >> 31))) | 0;
      x = (q3 - a1_4) | 0; y = (R4 - a1_3) | 0; z = (x - y) | 0; const a2_4 = (x - (z & (z >> 31))) | 0;
      x = (q2 - a2_4) | 0; y = (R4 - a2_3) | 0; z = (x - y) | 0; const a3_4 = (x - (z & (z >> 31))) | 0;
      x = (q1 - a3_4) | 0; y = (R4 - a3_3) | 0; z = (x - y) | 0; const a4_4 = (x - (z & (z >> 31))) | 0;
      x = (q0 - a4_4) | 0; y = (R4 - a4_3) | 0; z = (x - y) | 0; const a5_4 = (x - (z & (z >> 31))) | 0;
      x = (r1 - a5_4) | 0; y = (R4 - a5_3) | 0; z = (x - y) | 0; const a6_4 = (x - (z & (z >> 31))) | 0;
      v[(i - 1) | 0] = a6_4;
      const q5 = row[(i + 5) | 0]! | 0, R5 = row[(i + 5 + d) | 0]! | 0, w5 = v[(i + 6) | 0]! | 0;
      x = (q5 - w5) | 0; y = (R5 - w4) | 0; z = (x - y) | 0; const a1_5 = (x - (z & (z >> 31))) | 0;
      x = (q4 - a1_5) | 0; y = (R5 - a1_4) | 0; z = (x - y) | 0; const a2_5 = (x - (z & (z >> 31))) | 0;
      x = (q3 - a2_5) | 0; y = (R5 - a2_4) | 0; z = (x - y) | 0; const a3_5 = (x - (z & (z >> 31))) | 0;
      x = (q2 - a3_5) | 0; y = (R5 - a3_4) | 0; z = (x - y) | 0; const a4_5 = (x - (z & (z >> 31))) | 0;
      x = (q1 - a4_5) | 0; y = (R5 - a4_4) | 0; z = (x - y) | 0; const a5_5 = (x - (z & (z >> 31))) | 0;
      x = (q0 - a5_5) | 0; y = (R5 - a5_4) | 0; z = (x - y) | 0; const a6_5 = (x - (z & (z >> 31))) | 0;
      v[i] = a6_5;
      prev = w5; p1 = a1_5; p2 = a2_5; p3 = a3_5; p4 = a4_5; p5 = a5_5;
      r1 = q5; r2 = q4; r3 = q3; r4 = q2; r5 = q1;
    }
  }

  return { SWEEP_ROW, SWEEP_V, sweepInt };
}

/** Cells of the sweep arrays (see `sweepKernel`). */
const SWEEP_CELLS = 1 << 16;
const sweep = sweepKernel();

/**
 * Advances `v` from diagonal d by `steps` diagonals for the intervals of row[0..n) (v[j] =
 * V(j, j+d) for j ≤ n−d): SWEEP (6) at a time while they fit (Int32 cells, n < SWEEP_CELLS −
 * SWEEP), then one by one.
 */
function advance(row: Cells, v: Cells, n: number, d: number, steps: number): void {
  const end = d + steps;
  if (row instanceof Int32Array && v instanceof Int32Array) {
    if (end - d >= SWEEP && n - d >= SWEEP && n + 1 + SWEEP <= SWEEP_CELLS) {
      sweep.SWEEP_ROW.set(row.subarray(0, n));
      sweep.SWEEP_V.set(v.subarray(0, n + 1));
      for (; end - d >= SWEEP && n - d >= SWEEP; d += SWEEP) sweep.sweepInt(d, n - d, sweep.SWEEP_V[0]!);
      v.set(sweep.SWEEP_V.subarray(0, n + 1));
    }
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
  /** The row as typed cells: one element kind in the hot loops. */
  readonly #values: Cells;
  readonly #n: number;
  /** checkpoints[c][i] = V(i, i + c·K). */
  readonly #checkpoints: Cells[] = [];
  /** block[t·width + (i − blockLo)] = V(i, i + c·K + t) for the loaded block c and window. */
  #block: Cells;
  #blockC = -1;
  #blockLo = 0;
  #blockHi = -1;
  #blockWidth = 0;

  /** Builds the checkpoints (O(N²) time). `blockSize` defaults to ⌈(N²/2)^⅓⌉; tests pass small ones. */
  constructor(row: readonly number[], blockSize?: number) {
    this.row = row;
    const n = (this.#n = row.length);
    const k = blockSize ?? Math.max(1, Math.ceil(Math.cbrt((n * n) / 2)));
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`Expected blockSize to be a positive integer, got ${k}`);
    this.blockSize = k;
    const Kind = fitsInt32(row, 0, n) ? Int32Array : Float64Array;
    this.#values = new Kind(n);
    this.#values.set(row);
    this.#block = new Kind(0);
    const v = new Kind(n + 1);
    for (let d = 0; d <= n; d += k) {
      if (d > 0) advance(this.#values, v, n, d - k, k);
      this.#checkpoints.push(v.slice(0, n - d + 1));
    }
  }

  /** Makes the block of c cover every sub-interval of [lo, hi) whose length lies in block c. */
  #ensure(c: number, lo: number, hi: number): void {
    if (this.#blockC === c && this.#blockLo <= lo && hi <= this.#blockHi) return;
    const k = this.blockSize;
    const first = c * k;
    const width = hi - lo - first + 1; // entries of diagonal `first` inside the window
    if (this.#block.length < k * width) this.#block = this.#values instanceof Int32Array ? new Int32Array(k * width) : new Float64Array(k * width);
    const v = this.#checkpoints[c]!.slice(lo, lo + width);
    this.#block.set(v, 0);
    for (let t = 1; t < k && t < width; t++) {
      step(this.#values, v, lo, first + t - 1, width - t);
      this.#block.set(v.subarray(0, width - t), t * width);
    }
    this.#blockC = c;
    this.#blockLo = lo;
    this.#blockHi = hi;
    this.#blockWidth = width;
  }

  /** The best margin for the player to move on `row[lo..hi)` (0 ≤ lo ≤ hi ≤ N). */
  value(lo: number, hi: number): number {
    if (!(Number.isInteger(lo) && Number.isInteger(hi) && 0 <= lo && lo <= hi && hi <= this.#n)) {
      throw new RangeError(`Expected 0 <= lo <= hi <= ${this.#n}, got lo ${lo} and hi ${hi}`);
    }
    const d = hi - lo;
    const c = Math.floor(d / this.blockSize);
    const t = d - c * this.blockSize;
    if (t === 0) return this.#checkpoints[c]![lo]!;
    this.#ensure(c, lo, hi);
    return this.#block[t * this.#blockWidth + (lo - this.#blockLo)]!;
  }

  /**
   * The optimal take on `row[lo..hi)`: `L` when taking the left end gives at least the margin of
   * taking the right end (ties prefer `L`), else `R`. Null on an empty row.
   */
  bestMove(lo: number, hi: number): 'L' | 'R' | null {
    if (hi <= lo) return null;
    // Load the block of length hi−lo−1 for the whole window, so both children hit it.
    const c = Math.floor((hi - lo - 1) / this.blockSize);
    if (hi - lo - 1 !== c * this.blockSize) this.#ensure(c, lo, hi);
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
  readonly #tables: EndGameTable[] = [];
  readonly #capacity: number;

  /** Keeps at most `capacity` tables (each holds O(N^{4/3}) numbers). */
  constructor(capacity = 2) {
    this.#capacity = capacity;
  }

  /** The table of `row`, built on first use. */
  get(row: readonly number[]): EndGameTable {
    let index = this.#tables.findIndex((t) => t.row === row);
    if (index < 0) index = this.#tables.findIndex((t) => sameRow(t.row, row));
    let table: EndGameTable;
    if (index >= 0) {
      table = this.#tables[index]!;
      this.#tables.splice(index, 1);
    } else {
      table = new EndGameTable(row);
      if (this.#tables.length >= this.#capacity) this.#tables.pop();
    }
    this.#tables.unshift(table); // most recently used first
    return table;
  }
}

function sameRow(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
