/**
 * Memoized search of single misère (`last-coin`) coin positions on boards of up to 36 coins, for
 * positions too large for the subset tables: negamax over takes with a transposition table keyed by
 * the board's canonical mask under its symmetries, in typed arrays (no per-position objects).
 *
 * A position is searched as its core (the coins with a neighbour on some line) and the parity of its
 * isolated coins, since an isolated coin is the one-coin game * and * + * = 0 in misère play. At a
 * node the search tries first the two takes that won last at the same depth and the last answer to
 * the take that led there (killer and counter takes), then generates the takes, each with its child:
 * a take leaving one coin in all wins, one reaching a position the table holds as lost wins (an
 * enhanced transposition cutoff, as the takes are generated); the children left are searched with
 * the fewest core coins first. bench/c/coins_search.c is the same algorithm in C.
 *
 * The search is bound by the table's cache misses (every child is looked up), so the lookups are
 * arranged for fewer and overlapping misses: a small filter of the lost positions (in the caches)
 * spares the lookups that cannot find a lost child, and lookups are issued in batches.
 *
 * Masks are split in two 18-bit halves (cells 0..17 and 18..35) so every bit operation stays in
 * int32; a full mask is `a + b * 2^18`, below 2^36 and exact in a double.
 */
import { boardSegments, popcount32, type LineGraph } from './coins.ts';

const HALF = 18;
const HALF_MASK = (1 << HALF) - 1;
const TWO18 = 2 ** HALF;
const SIGN = 1 << 31;
/** Symmetry hash lanes: at most 8 symmetries (the square's). */
const LANES = 8;
const BATCH = 4;

/** Thrown inside the search when its budget runs out; caught by `CoinSearch` callers. */
class OutOfBudget extends Error {
  override name = 'OutOfBudget';
}

/**
 * The symmetries of a board as permutations of cells: `syms[k][cell]` is the image of cell under
 * symmetry k (the identity first). The square has the 8 of the dihedral group; the triangle, drawn
 * with rows of 1..n coins on three line directions, has the 6 permutations of its three corners
 * (in barycentric coordinates (r − c, c, n − 1 − r) every permutation is a symmetry).
 */
export function boardSymmetries(board: 'square' | 'triangle', size: number): number[][] {
  const syms: number[][] = [];
  if (board === 'square') {
    const n = size;
    const maps: ((r: number, c: number) => [number, number])[] = [
      (r, c) => [r, c],
      (r, c) => [c, n - 1 - r],
      (r, c) => [n - 1 - r, n - 1 - c],
      (r, c) => [n - 1 - c, r],
      (r, c) => [r, n - 1 - c],
      (r, c) => [n - 1 - r, c],
      (r, c) => [c, r],
      (r, c) => [n - 1 - c, n - 1 - r],
    ];
    for (const f of maps) {
      const perm: number[] = [];
      for (let cell = 0; cell < n * n; cell++) {
        const [r2, c2] = f(Math.floor(cell / n), cell % n);
        perm.push(r2 * n + c2);
      }
      syms.push(perm);
    }
    return syms;
  }
  const n = size;
  const cells: [number, number][] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c <= r; c++) cells.push([r, c]);
  const index = (r: number, c: number): number => (r * (r + 1)) / 2 + c;
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  for (const p of perms) {
    syms.push(
      cells.map(([r, c]) => {
        const bary = [r - c, c, n - 1 - r];
        const x = bary[p[0]!]!;
        const y = bary[p[1]!]!;
        // Back from barycentric (x, y, z) = (r − c, c, n − 1 − r): c = y, r = x + y.
        return index(x + y, y);
      }),
    );
  }
  return syms;
}

/** Options of a search. */
export interface CoinSearchOptions {
  /** log2 of the transposition table's slots (default 22: 4M slots, 32 MiB). */
  readonly ttBits?: number;
  /** Board symmetries as cell permutations (identity first); none when omitted. */
  readonly symmetries?: readonly (readonly number[])[];
}

/** Counters of a search, for benchmarks. */
export interface SearchStats {
  nodes: number;
}

/**
 * A misère search over one board. `wins` and `bestTake` take board masks (bit i = cell i) and a
 * deadline (epoch ms, `Date.now()` clock); they return undefined when the position is not proved
 * by then. The transposition table keeps every proved position between calls, so a position asked
 * again (or a child of one proved before) is answered from it.
 */
export interface CoinSearch {
  /** True when the player to move wins; undefined when not proved by the deadline. */
  wins(mask: number, deadline?: number): boolean | undefined;
  /**
   * The reference take from `mask` as a board mask of the taken coins: in a won position the
   * winning take with the most coins (then the earliest by first and last cell); in a lost one the
   * earliest single coin. Null when the board is empty; undefined when not proved by the deadline.
   */
  bestTake(mask: number, deadline?: number): number | null | undefined;
  readonly stats: SearchStats;
}

/** Creates a search for a board graph (at most 36 cells). */
export function createCoinSearch(g: LineGraph, options: CoinSearchOptions = {}): CoinSearch {
  const n = g.cells;
  if (n > 2 * HALF) throw new RangeError(`Expected at most ${2 * HALF} cells, got ${n}`);
  const dirs = g.dirs;
  const bitA = (c: number): number => (c < HALF ? 1 << c : 0);
  const bitB = (c: number): number => (c < HALF ? 0 : 1 << (c - HALF));

  // Neighbours: the cells next to cell c on any line, either way (the coins a take with c can
  // also hold). A coin none of whose neighbours is present is isolated and stays so.
  const nbA = new Int32Array(n);
  const nbB = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dirs; d++) {
      const j = g.next[i * dirs + d]!;
      if (j < 0) continue;
      nbA[i]! |= bitA(j);
      nbB[i]! |= bitB(j);
      nbA[j]! |= bitA(i);
      nbB[j]! |= bitB(i);
    }
  }

  // Rays: for cell i and direction d, the takes from i of lengths 2, 3, … as (a, b) halves.
  const rayOff = new Int32Array(n * dirs + 1);
  const rayA: number[] = [];
  const rayB: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dirs; d++) {
      rayOff[i * dirs + d] = rayA.length;
      let a = bitA(i);
      let b = bitB(i);
      for (let c = g.next[i * dirs + d]!; c >= 0; c = g.next[c * dirs + d]!) {
        a |= bitA(c);
        b |= bitB(c);
        rayA.push(a);
        rayB.push(b);
      }
    }
  }
  rayOff[n * dirs] = rayA.length;
  const RA = Int32Array.from(rayA);
  const RB = Int32Array.from(rayB);

  // Every take in the reference order: most coins first, then by first cell, then by last cell.
  const segs = boardSegments(g)
    .map((s, order) => ({ s, order }))
    .sort((x, y) => y.s.cells.length - x.s.cells.length || x.order - y.order);
  const takeA = Int32Array.from(segs.map(({ s }) => s.cells.reduce((m, c) => m | bitA(c), 0)));
  const takeB = Int32Array.from(segs.map(({ s }) => s.cells.reduce((m, c) => m | bitB(c), 0)));

  // Symmetry maps, byte-wise: for symmetry k and byte j of a half, the image as (a, b) parts.
  const syms = options.symmetries ?? [Array.from({ length: n }, (_, i) => i)];
  for (const p of syms) {
    if (p.length !== n || new Set(p).size !== n || p.some((x) => x < 0 || x >= n)) {
      throw new RangeError(`Expected each symmetry to be a permutation of the ${n} cells`);
    }
  }
  const nSym = syms.length;
  if (nSym > LANES) throw new RangeError(`Expected at most ${LANES} symmetries, got ${nSym}`);
  // 3 bytes per half (18 bits: 8 + 8 + 2), two halves: 6 byte slots of 256 entries each.
  const symA = new Int32Array(nSym * 6 * 256);
  const symB = new Int32Array(nSym * 6 * 256);
  syms.forEach((p, k) => {
    for (let slot = 0; slot < 6; slot++) {
      for (let v = 0; v < 256; v++) {
        let a = 0;
        let b = 0;
        for (let bit = 0; bit < 8; bit++) {
          if (((v >> bit) & 1) === 0) continue;
          const cell = (slot < 3 ? 0 : HALF) + (slot % 3) * 8 + bit;
          if (cell >= n || (slot % 3) * 8 + bit >= HALF) continue;
          a |= bitA(p[cell]!);
          b |= bitB(p[cell]!);
        }
        symA[(k * 6 + slot) * 256 + v] = a;
        symB[(k * 6 + slot) * 256 + v] = b;
      }
    }
  });

  // Zobrist hashes of the images under each symmetry, updated incrementally by each take's
  // per-symmetry delta: a position's canonical image is the one of least hash (ties, which need a
  // 32-bit collision, are broken by the exact images), so only that one image is computed exactly.
  let seed = 0x2545f491;
  const rand32 = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed | 0;
  };
  const cellRand = Array.from({ length: n }, rand32);
  // Hashes are kept in LANES lanes whatever the board: the lanes past nSym hold -1 (the greatest
  // unsigned hash, so they never give the least) and their deltas 0, so that the lanes of a child
  // are made by straight-line code (`makeChild`; the loop over nSym lanes it replaces measured
  // 5% slower over the search).
  const cellZ = new Int32Array(n * LANES);
  for (let c = 0; c < n; c++) for (let k = 0; k < nSym; k++) cellZ[c * LANES + k] = cellRand[syms[k]![c]!]!;
  // Take ids: single coins 0..n-1, then ray entries; per take its size, its per-symmetry hash
  // delta and the coins around it (the only ones it can leave isolated).
  const takeCount = n + rayA.length;
  const ISO = takeCount; // the take of the isolated coin kept for the parity
  const TA = new Int32Array(takeCount + 1);
  const TB = new Int32Array(takeCount + 1);
  for (let t = 0; t < takeCount; t++) {
    TA[t] = t < n ? bitA(t) : RA[t - n]!;
    TB[t] = t < n ? bitB(t) : RB[t - n]!;
  }
  const takeZ = new Int32Array((takeCount + 1) * LANES); // the row of ISO stays 0
  const takeSize = new Int8Array(takeCount);
  const aroundA = new Int32Array(takeCount);
  const aroundB = new Int32Array(takeCount);
  for (let t = 0; t < takeCount; t++) {
    const cells: number[] = [];
    if (t < n) cells.push(t);
    else {
      const j = t - n;
      for (let c = 0; c < n; c++) if (((c < HALF ? RA[j]! >>> c : RB[j]! >>> (c - HALF)) & 1) === 1) cells.push(c);
    }
    takeSize[t] = cells.length;
    for (let k = 0; k < nSym; k++) takeZ[t * LANES + k] = cells.reduce((h, c) => h ^ cellZ[c * LANES + k]!, 0);
    let ra = 0;
    let rb = 0;
    for (const c of cells) {
      ra |= nbA[c]!;
      rb |= nbB[c]!;
    }
    for (const c of cells) {
      ra &= ~bitA(c);
      rb &= ~bitB(c);
    }
    aroundA[t] = ra;
    aroundB[t] = rb;
  }
  const hashOf = (a: number, b: number, out: Int32Array, at: number): void => {
    for (let k = 0; k < LANES; k++) {
      let h = k < nSym ? 0 : -1;
      for (let c = 0; c < n; c++) if (((c < HALF ? a >>> c : b >>> (c - HALF)) & 1) === 1) h ^= cellZ[c * LANES + k]!;
      out[at + k] = h;
    }
  };

  // Transposition table: open addressing over canonical keys, two int32 per slot (the key's low 32
  // bits; then its bits 32..35, the result, an occupied flag, the parity of the isolated coins and
  // the top 25 bits of the key's hash, which reject most other keys before the exact key is even
  // computed), probing a short window and replacing its first slot when the window is full (a lost
  // entry only costs a re-search, never a wrong answer).
  const ttBits = options.ttBits ?? 22;
  const ttSize = 2 ** ttBits;
  const tt = new Int32Array(2 * ttSize);
  // Touch every page now (the memory comes lazily from the OS), so that a search does not pay the
  // page faults of its table in its own time.
  for (let i = 0; i < tt.length; i += 1024) tt[i] = 0;
  const PROBE = 8;
  // The current key: its hash (the least of the images' hashes, mixed with the parity), the
  // position, the symmetry of its canonical image and, once `exact` has run, the canonical image
  // itself (keyLo: cells 0..31; keyHi: cells 32..35, and the parity at bit 6).
  let keyHash = 0;
  let keyA = 0;
  let keyB = 0;
  let keyP = 0;
  let keyK = 0;
  let keyExact = false;
  let keyLo = 0;
  let keyHi = 0;
  // Sets keyLo/keyHi to the image of (a, b) under symmetry k: lo = cells 0..31, hi = cells 32..35.
  const image = (a: number, b: number, k: number): void => {
    const o = k * 6 * 256;
    const ia =
      symA[o + (a & 255)]! | symA[o + 256 + ((a >>> 8) & 255)]! | symA[o + 512 + (a >>> 16)]! |
      symA[o + 768 + (b & 255)]! | symA[o + 1024 + ((b >>> 8) & 255)]! | symA[o + 1280 + (b >>> 16)]!;
    const ib =
      symB[o + (a & 255)]! | symB[o + 256 + ((a >>> 8) & 255)]! | symB[o + 512 + (a >>> 16)]! |
      symB[o + 768 + (b & 255)]! | symB[o + 1024 + ((b >>> 8) & 255)]! | symB[o + 1280 + (b >>> 16)]!;
    keyLo = ia | (ib << HALF);
    keyHi = ib >>> (32 - HALF);
  };
  // Sets the key to core (a, b) with parity p, whose per-symmetry hashes are hs[at ..]: its
  // canonical image is the image of least hash (ties, which need a 32-bit collision or a symmetric
  // position, are broken at once by the exact images); that image is only computed by `exact`.
  // Hashes are compared as unsigned through their sign-flipped values (h ^ SIGN: signed order of
  // those is the unsigned order of the hashes), which keeps every value an int32 (`h >>> 0` is a
  // double above 2^31).
  const canon = (a: number, b: number, p: number, hs: Int32Array, at: number): void => {
    let bestK = 0;
    let best = hs[at]! ^ SIGN;
    let tie = false;
    for (let k = 1; k < nSym; k++) {
      const h = hs[at + k]! ^ SIGN;
      if (h < best) {
        best = h;
        bestK = k;
        tie = false;
      } else if (h === best) tie = true;
    }
    setKey(a, b, p, best ^ SIGN, bestK, tie, hs, at);
  };
  // The rest of `canon`, from the least hash bestH of image bestK; tie: another image has that
  // hash too.
  const setKey = (a: number, b: number, p: number, bestH: number, bestK: number, tie: boolean, hs: Int32Array, at: number): void => {
    keyHash = p === 0 ? bestH : bestH ^ 0x5bd1e995;
    keyA = a;
    keyB = b;
    keyP = p;
    keyK = bestK;
    keyExact = false;
    if (!tie) return;
    let lo = 0;
    let hi = -1;
    for (let k = 0; k < nSym; k++) {
      if (hs[at + k]! !== bestH) continue;
      image(a, b, k);
      if (hi < 0 || keyHi < hi || (keyHi === hi && keyLo >>> 0 < lo >>> 0)) {
        hi = keyHi;
        lo = keyLo;
      }
    }
    keyLo = lo;
    keyHi = hi | (p << 6);
    keyExact = true;
  };
  const exact = (): void => {
    if (keyExact) return;
    image(keyA, keyB, keyK);
    keyHi |= keyP << 6;
    keyExact = true;
  };
  const slotOf = (h: number): number => (Math.imul(h, 0x85ebca6b) >>> (32 - ttBits)) & (ttSize - PROBE);
  const tagOf = (): number => (keyHash & ~0x7f) | (keyP << 6);
  // Probe for the current key: 1 win, 0 loss, -1 unknown.
  const probe = (): number => {
    const s0 = slotOf(keyHash);
    const tag = tagOf();
    for (let s = s0; s < s0 + PROBE; s++) {
      const w = tt[2 * s + 1]!;
      if ((w & 32) === 0) return -1;
      if ((w & ~0x3f) !== tag) continue;
      exact();
      if (tt[2 * s] === keyLo && (w & 15) === (keyHi & 15)) return (w >> 4) & 1;
    }
    return -1;
  };
  // A filter of the lost positions in the table: one bit per table slot, set by hash when a lost
  // position is stored (never cleared, so a clear bit proves that the table holds no lost entry
  // of that hash). A table probe during the generation is there to find a lost child, so a clear
  // bit spares it: the filter (512 KiB at 22 bits) mostly sits in the caches, where nearly every
  // table probe misses; a child not probed is probed when its turn to be searched comes, which
  // keeps the search as it was (measured 6–7% faster; a filter of 2 or 4 bits per slot, 1–2 MiB,
  // no better). Only a table that drops entries tells the difference: an entry that held a child
  // as won may be replaced by the time that child's turn comes (4 more nodes over the bench's
  // 6.2 million).
  const lost = new Int32Array(Math.max(1, ttSize >>> 5));
  const lostIndex = (h: number): number => Math.imul(h, 0x9e3779b1) >>> (32 - ttBits);
  let stores = 0; // stores so far: the table has not changed while this stays the same
  const store = (win: boolean): void => {
    stores++;
    if (!win) {
      const f = lostIndex(keyHash);
      lost[f >>> 5]! |= 1 << (f & 31);
    }
    exact();
    const s0 = slotOf(keyHash);
    const tag = tagOf();
    let s = s0;
    for (; s < s0 + PROBE; s++) {
      const w = tt[2 * s + 1]!;
      if ((w & 32) === 0 || ((w & ~0x3f) === tag && tt[2 * s] === keyLo && (w & 15) === (keyHi & 15))) break;
    }
    if (s === s0 + PROBE) s = s0;
    tt[2 * s] = keyLo;
    tt[2 * s + 1] = tag | (keyHi & 15) | (win ? 16 : 0) | 32;
  };

  const stats: SearchStats = { nodes: 0 };
  let deadline = Number.POSITIVE_INFINITY;
  let tick = 0;
  // Per ply (a search is at most 36 plies deep): the core's symmetry hashes and, per take, the
  // child (core halves and parity, and its key hash, found when the takes are generated) and its
  // place in the search order (-1: held by the table as won; else 64 minus its core's coins).
  // The last 3 slots of a ply hold the children of its killer and counter takes.
  const MAXM = 512;
  if (takeCount + 1 > MAXM - 3) throw new RangeError(`Expected at most ${MAXM - 4} takes, got ${takeCount + 1}`);
  const PLIES = 38;
  const hashes = new Int32Array(PLIES * LANES);
  const moveT = new Int32Array(PLIES * MAXM); // take id
  const childA = new Int32Array(PLIES * MAXM);
  const childB = new Int32Array(PLIES * MAXM);
  const childP = new Int8Array(PLIES * MAXM);
  const isoAt = new Int32Array(n); // scratch of makeChild: the coins a take isolates, times LANES
  const tieH = new Int32Array(LANES); // scratch of childKey: a child's hashes on a tie
  const childHash = new Int32Array(PLIES * MAXM); // the child's key hash
  const childK = new Int8Array(PLIES * MAXM); // the symmetry of its least hash; -1: a tie
  const slotBuf = new Int32Array(MAXM); // scratch of probeAll
  const wordBuf = new Int32Array(MAXM);
  const probedAt = new Float64Array(PLIES * MAXM); // `stores` when the child was probed
  const order = new Int32Array(PLIES * MAXM);
  const sorted = new Int32Array(PLIES * MAXM); // the slots to search, in order
  // Move ordering: per ply the two takes that won there last (killers), per take the take that
  // last won right after it (counter moves); -1: none.
  const killer1 = new Int32Array(PLIES).fill(-1);
  const killer2 = new Int32Array(PLIES).fill(-1);
  const counter = new Int32Array(ISO + 2).fill(-1);
  const lastTake = new Int32Array(PLIES).fill(-1);

  const count = (a: number, b: number): number => popcount32(a) + popcount32(b);

  // Isolated coins are single-coin games, and two of them cancel in misère play (* + * = 0), so a
  // position is searched as its core (the coins with a neighbour) and the parity of the rest.
  // True when the player to move with core (a, b) and parity p, whose core's symmetry hashes are at
  // hashes[ply], wins.
  const solve = (a: number, b: number, p: number, ply: number): boolean => {
    if ((a | b) === 0) return p === 0; // no coin left wins (the opponent took the last); one loses
    canon(a, b, p, hashes, ply * LANES);
    const known = probe();
    if (known >= 0) return known === 1;
    return search(a, b, p, ply);
  };

  // Searches the position (a, b, p) at `ply`, which is the current key and not in the table, and
  // stores its result.
  const search = (a: number, b: number, p: number, ply: number): boolean => {
    const myLo = keyLo;
    const myHi = keyHi;
    const myHash = keyHash;
    const myK = keyK;
    const myExact = keyExact;
    stats.nodes++;
    if ((++tick & 1023) === 0 && Date.now() > deadline) throw new OutOfBudget();
    const win = expand(a, b, p, ply);
    keyLo = myLo;
    keyHi = myHi;
    keyHash = myHash;
    keyK = myK;
    keyExact = myExact;
    keyA = a;
    keyB = b;
    keyP = p;
    store(win);
    return win;
  };

  // Writes to out[at ..] the symmetry hashes of child (ca, cb) of take t from core (a, b), whose
  // hashes are at hashes[hAt]: the take's delta, then the coins it left isolated.
  const childHashes = (a: number, b: number, t: number, ca: number, cb: number, hAt: number, out: Int32Array, at: number): void => {
    const zt = t * LANES;
    for (let k = 0; k < LANES; k++) out[at + k] = hashes[hAt + k]! ^ takeZ[zt + k]!;
    let ia = a ^ TA[t]! ^ ca;
    let ib = b ^ TB[t]! ^ cb;
    while ((ia | ib) !== 0) {
      let c: number;
      if (ia !== 0) {
        const lb = ia & -ia;
        ia ^= lb;
        c = 31 - Math.clz32(lb);
      } else {
        const lb = ib & -ib;
        ib ^= lb;
        c = 31 - Math.clz32(lb) + HALF;
      }
      for (let k = 0; k < LANES; k++) out[at + k]! ^= cellZ[c * LANES + k]!;
    }
  };

  // Fills child slot m with the position after take t (ISO: the isolated coin) from core (a, b)
  // with parity p, whose symmetry hashes are at hashes[hAt]: the coins around the take left
  // without a neighbour join the isolated ones. Returns 1 when the child holds one coin in all (the
  // take wins at once), 2 when it holds none (the take took the last coin and loses), else 0 with
  // the child's key hash in childHash and the symmetry of its canonical image in childK. The
  // child's hashes are not kept: only the least matters here, and `childHashes` computes them
  // again for the few children searched (about one per node).
  const makeChild = (a: number, b: number, p: number, t: number, hAt: number, m: number): number => {
    let ca = a;
    let cb = b;
    let cp = 0;
    let nIso = 0;
    if (t !== ISO) {
      ca ^= TA[t]!;
      cb ^= TB[t]!;
      cp = p;
      let ra = aroundA[t]! & ca;
      let rb = aroundB[t]! & cb;
      while ((ra | rb) !== 0) {
        let c: number;
        if (ra !== 0) {
          const lb = ra & -ra;
          ra ^= lb;
          c = 31 - Math.clz32(lb);
        } else {
          const lb = rb & -rb;
          rb ^= lb;
          c = 31 - Math.clz32(lb) + HALF;
        }
        if ((nbA[c]! & ca) !== 0 || (nbB[c]! & cb) !== 0) continue;
        if (c < HALF) ca ^= 1 << c;
        else cb ^= 1 << (c - HALF);
        cp ^= 1;
        isoAt[nIso++] = c * LANES;
      }
    }
    moveT[m] = t;
    childA[m] = ca;
    childB[m] = cb;
    childP[m] = cp;
    if ((ca | cb) === 0) return cp === 1 ? 1 : 2;
    // The least of the child's symmetry hashes (as `canon`), lane by lane.
    const zt = t * LANES;
    let h0 = hashes[hAt + 0]! ^ takeZ[zt + 0]!;
    let h1 = hashes[hAt + 1]! ^ takeZ[zt + 1]!;
    let h2 = hashes[hAt + 2]! ^ takeZ[zt + 2]!;
    let h3 = hashes[hAt + 3]! ^ takeZ[zt + 3]!;
    let h4 = hashes[hAt + 4]! ^ takeZ[zt + 4]!;
    let h5 = hashes[hAt + 5]! ^ takeZ[zt + 5]!;
    let h6 = hashes[hAt + 6]! ^ takeZ[zt + 6]!;
    let h7 = hashes[hAt + 7]! ^ takeZ[zt + 7]!;
    if (nIso !== 0) {
      for (let i = 0; i < nIso; i++) {
        const c = isoAt[i]!;
        h0 ^= cellZ[c + 0]!;
        h1 ^= cellZ[c + 1]!;
        h2 ^= cellZ[c + 2]!;
        h3 ^= cellZ[c + 3]!;
        h4 ^= cellZ[c + 4]!;
        h5 ^= cellZ[c + 5]!;
        h6 ^= cellZ[c + 6]!;
        h7 ^= cellZ[c + 7]!;
      }
    }
    let bestK = 0;
    let best = h0 ^ SIGN;
    let tie = false;
    h1 ^= SIGN;
    if (h1 < best) {
      best = h1;
      bestK = 1;
      tie = false;
    } else if (h1 === best) tie = true;
    h2 ^= SIGN;
    if (h2 < best) {
      best = h2;
      bestK = 2;
      tie = false;
    } else if (h2 === best) tie = true;
    h3 ^= SIGN;
    if (h3 < best) {
      best = h3;
      bestK = 3;
      tie = false;
    } else if (h3 === best) tie = true;
    h4 ^= SIGN;
    if (h4 < best) {
      best = h4;
      bestK = 4;
      tie = false;
    } else if (h4 === best) tie = true;
    h5 ^= SIGN;
    if (h5 < best) {
      best = h5;
      bestK = 5;
      tie = false;
    } else if (h5 === best) tie = true;
    h6 ^= SIGN;
    if (h6 < best) {
      best = h6;
      bestK = 6;
      tie = false;
    } else if (h6 === best) tie = true;
    h7 ^= SIGN;
    if (h7 < best) {
      best = h7;
      bestK = 7;
      tie = false;
    } else if (h7 === best) tie = true;
    best ^= SIGN;
    childHash[m] = cp === 0 ? best : best ^ 0x5bd1e995;
    childK[m] = tie ? -1 : bestK;
    return 0;
  };

  // Sets the key to the child in slot m (made by makeChild from core (a, b) with hashes at hAt).
  const childKey = (a: number, b: number, hAt: number, m: number): void => {
    const k = childK[m]!;
    if (k >= 0) {
      keyHash = childHash[m]!;
      keyA = childA[m]!;
      keyB = childB[m]!;
      keyP = childP[m]!;
      keyK = k;
      keyExact = false;
      return;
    }
    childHashes(a, b, moveT[m]!, childA[m]!, childB[m]!, hAt, tieH, 0);
    canon(childA[m]!, childB[m]!, childP[m]!, tieH, 0);
  };

  // Probes the table for the children in slots from..to-1 (made from core (a, b) with hashes at
  // hAt), in order: the first slot whose child the table holds as lost, or -1; sets each slot's
  // order to -1 when the table holds its child as won, else 0. Only children the lost filter
  // lets through are probed (probedAt: -1 for the others). The table is far larger than the
  // caches, so nearly every probe misses: the first words of the windows are loaded together
  // first, so that their misses overlap (probing each child as it is made, a miss decides a branch
  // before the next load can start; batches of 4 children measured 3% faster than that, 8 about
  // the same, 16 slower as more children are made past a cutoff).
  const probeAll = (a: number, b: number, hAt: number, from: number, to: number): number => {
    for (let m = from; m < to; m++) {
      const h = childHash[m]!;
      const f = lostIndex(h);
      if ((lost[f >>> 5]! & (1 << (f & 31))) === 0) {
        slotBuf[m - from] = -1;
        continue;
      }
      const s0 = slotOf(h);
      slotBuf[m - from] = s0;
      wordBuf[m - from] = tt[2 * s0 + 1]!;
    }
    for (let m = from; m < to; m++) {
      const s0 = slotBuf[m - from]!;
      if (s0 < 0) {
        // Not lost: searched in its turn, and probed then (probedAt -1).
        probedAt[m] = -1;
        order[m] = 0;
        continue;
      }
      probedAt[m] = stores;
      // The window's scan, as `probe`, but the key is only set for a slot whose tag matches.
      const h = childHash[m]!;
      const tag = (h & ~0x7f) | (childP[m]! << 6);
      let known = -1;
      let keyed = false;
      let w = wordBuf[m - from]!;
      for (let s = s0; (w & 32) !== 0; ) {
        if ((w & ~0x3f) === tag) {
          if (!keyed) childKey(a, b, hAt, m);
          keyed = true;
          exact();
          if (tt[2 * s] === keyLo && (w & 15) === (keyHi & 15)) {
            known = (w >> 4) & 1;
            break;
          }
        }
        if (++s === s0 + PROBE) break;
        w = tt[2 * s + 1]!;
      }
      if (known === 0) return m;
      order[m] = known === 1 ? -1 : 0;
    }
    return -1;
  };

  // Remembers take t as the one that won at this ply and as the answer to the take before.
  const won = (ply: number, t: number): boolean => {
    if (killer1[ply] !== t) {
      killer2[ply] = killer1[ply]!;
      killer1[ply] = t;
    }
    counter[lastTake[ply]! + 1] = t;
    return true;
  };

  // True when take t (a killer or counter take, maybe -1 or no longer possible) can be made.
  const canTake = (a: number, b: number, p: number, t: number): boolean => {
    if (t < 0) return false;
    if (t === ISO) return p !== 0;
    return (a & TA[t]!) === TA[t]! && (b & TB[t]!) === TB[t]!;
  };

  // The search below a node (no closure per node: esbuild's keepNames would wrap each one).
  const expand = (a: number, b: number, p: number, ply: number): boolean => {
    const hAt = ply * LANES;
    const base = ply * MAXM;
    // The takes that won most recently at this ply, and the last answer to the take that led here,
    // win again often enough (through the table) to be tried before the takes are generated: a
    // take leaving one coin in all wins at once, one reaching a position the table holds as lost
    // wins, tried in this order (children made first, then probed together).
    const k1 = killer1[ply]!;
    const k2 = killer2[ply]!;
    const cm = counter[lastTake[ply]! + 1]!;
    // Their children go to the last slots of the ply, and are copied from there when the
    // generation below comes to their takes, so that no child is made or probed twice.
    const qBase = base + MAXM - 3;
    let q = qBase;
    let qt0 = -1;
    let qt1 = -1;
    let qt2 = -1;
    for (let x = 0; x < 3; x++) {
      const t = x === 0 ? k1 : x === 1 ? (k2 !== k1 ? k2 : -1) : cm !== k1 && cm !== k2 ? cm : -1;
      if (!canTake(a, b, p, t)) continue;
      const r = makeChild(a, b, p, t, hAt, q);
      if (r === 1) {
        const hit = q > qBase ? probeAll(a, b, hAt, qBase, q) : -1;
        return won(ply, hit >= 0 ? moveT[hit]! : t);
      }
      if (r !== 0) continue;
      if (q === qBase) qt0 = t;
      else if (q === qBase + 1) qt1 = t;
      else qt2 = t;
      q++;
    }
    if (q > qBase) {
      const hit = probeAll(a, b, hAt, qBase, q);
      if (hit >= 0) return won(ply, moveT[hit]!);
    }
    // Generate the takes with their children: a take leaving one coin in all (an empty core and an
    // odd number of isolated coins) wins at once, one leaving none loses (it took the last), and
    // one leading to a position the table holds as lost wins at once too (an enhanced
    // transposition cutoff). The first such take in the generation order wins; the table is probed
    // every BATCH children (a hit ends the generation).
    let len = 0;
    let probed = 0;
    for (let half = -1; half < 2; half++) {
      let rest = half < 0 ? p : half === 0 ? a : b;
      while (rest !== 0) {
        const low = rest & -rest;
        rest ^= low;
        const i = half < 0 ? ISO : 31 - Math.clz32(low) + half * HALF;
        for (let d = -1; d < dirs; d++) {
          let j = d < 0 ? -1 : rayOff[i * dirs + d]!;
          const end = d < 0 ? 0 : rayOff[i * dirs + d + 1]!;
          for (; j < end; j++) {
            let t = i;
            if (j >= 0) {
              if ((a & RA[j]!) !== RA[j]! || (b & RB[j]!) !== RB[j]!) break;
              t = n + j;
            }
            const src = t === qt0 ? qBase : t === qt1 ? qBase + 1 : t === qt2 ? qBase + 2 : -1;
            if (src >= 0) {
              // A killer's child, probed already (and not lost): the pending ones first.
              if (len > probed) {
                const hit = probeAll(a, b, hAt, base + probed, base + len);
                if (hit >= 0) return won(ply, moveT[hit]!);
              }
              const m = base + len;
              moveT[m] = t;
              childA[m] = childA[src]!;
              childB[m] = childB[src]!;
              childP[m] = childP[src]!;
              childHash[m] = childHash[src]!;
              childK[m] = childK[src]!;
              order[m] = order[src]!;
              probedAt[m] = probedAt[src]!;
              probed = ++len;
              continue;
            }
            const r = makeChild(a, b, p, t, hAt, base + len);
            if (r === 1) {
              const hit = len > probed ? probeAll(a, b, hAt, base + probed, base + len) : -1;
              return won(ply, hit >= 0 ? moveT[hit]! : t);
            }
            if (r === 2) continue;
            len++;
            if (len - probed === BATCH) {
              const hit = probeAll(a, b, hAt, base + probed, base + len);
              if (hit >= 0) return won(ply, moveT[hit]!);
              probed = len;
            }
          }
          if (i === ISO) break;
        }
      }
    }
    if (len > probed) {
      const hit = probeAll(a, b, hAt, base + probed, base + len);
      if (hit >= 0) return won(ply, moveT[hit]!);
    }
    // Then the children not known won (order -1: known won), those with the fewest coins left in
    // their core first (they end the game soonest, so their subtrees are cheapest), ties in the
    // generation order: a stable insertion sort of their slots (a scan for the next best each
    // time is quadratic in a lost node).
    let u = 0;
    for (let x = base; x < base + len; x++) {
      if (order[x]! < 0) continue;
      const o = 64 - count(childA[x]!, childB[x]!);
      order[x] = o;
      let y = base + u++;
      for (; y > base && order[sorted[y - 1]!]! < o; y--) sorted[y] = sorted[y - 1]!;
      sorted[y] = x;
    }
    // The children the filter spared are probed when their turn comes, one at a time: their
    // windows are loaded together first, so that those misses overlap too (measured 5% faster
    // over the search, though a won node leaves some of them unused; loading only the first 4 or
    // 16 measured no gain).
    for (let i = base; i < base + u; i++) {
      const m = sorted[i]!;
      if (probedAt[m]! < 0) wordBuf[i - base] = tt[2 * slotOf(childHash[m]!) + 1]!;
    }
    const cAt = hAt + LANES;
    for (let i = base; i < base + u; i++) {
      const m = sorted[i]!;
      // The child as `solve` would take it, but with the key found when it was made, and probed
      // again only when the table has changed since (a sibling's search stored positions): about
      // 3% faster than `solve`'s canonical key and probe again.
      childKey(a, b, hAt, m);
      if (stores !== probedAt[m]) {
        const known = probe();
        if (known === 1) continue;
        if (known === 0) return won(ply, moveT[m]!);
      }
      childHashes(a, b, moveT[m]!, childA[m]!, childB[m]!, hAt, hashes, cAt);
      lastTake[ply + 1] = moveT[m]!;
      if (!search(childA[m]!, childB[m]!, childP[m]!, ply + 1)) return won(ply, moveT[m]!);
    }
    return false;
  };

  // Solves a whole board position (a, b) at ply `ply`: splits off its isolated coins first.
  const solveFrom = (a: number, b: number, ply: number): boolean => {
    let ca = a;
    let cb = b;
    let p = 0;
    for (let c = 0; c < n; c++) {
      const has = c < HALF ? (a >>> c) & 1 : (b >>> (c - HALF)) & 1;
      if (has === 0 || (nbA[c]! & a) !== 0 || (nbB[c]! & b) !== 0) continue;
      if (c < HALF) ca ^= 1 << c;
      else cb ^= 1 << (c - HALF);
      p ^= 1;
    }
    hashOf(ca, cb, hashes, ply * LANES);
    lastTake[ply] = -1;
    return solve(ca, cb, p, ply);
  };

  const halves = (mask: number): [number, number] => {
    if (!Number.isInteger(mask) || mask < 0 || mask >= 2 ** n) throw new RangeError(`Expected a board mask below 2^${n}, got ${mask}`);
    return [mask % TWO18 & HALF_MASK, Math.floor(mask / TWO18)];
  };

  const run = <T>(until: number | undefined, fn: () => T): T | undefined => {
    deadline = until ?? Number.POSITIVE_INFINITY;
    try {
      return fn();
    } catch (e) {
      if (e instanceof OutOfBudget) return undefined;
      throw e;
    } finally {
      deadline = Number.POSITIVE_INFINITY;
    }
  };

  return {
    stats,
    wins(mask, until) {
      const [a, b] = halves(mask);
      return run(until, () => solveFrom(a, b, 0));
    },
    bestTake(mask, until) {
      const [a, b] = halves(mask);
      if ((a | b) === 0) return null;
      return run(until, () => {
        const won = solveFrom(a, b, 0);
        for (let t = 0; t < takeA.length; t++) {
          const sa = takeA[t]!;
          const sb = takeB[t]!;
          if ((a & sa) !== sa || (b & sb) !== sb) continue;
          if (!won) {
            // Lost: every take loses; the reference defence is a single coin, the earliest.
            if (count(sa, sb) === 1) return sa + sb * TWO18;
            continue;
          }
          if (!solveFrom(a ^ sa, b ^ sb, 1)) return sa + sb * TWO18;
        }
        throw new Error('coin search: a won position without a winning take');
      });
    },
  };
}
