/**
 * Memoized search of single misère (`last-coin`) coin positions on boards of up to 36 coins, for
 * positions too large for the subset tables: negamax over takes with a transposition table keyed by
 * the board's canonical mask under its symmetries, in typed arrays (no per-position objects).
 *
 * Masks are split in two 18-bit halves (cells 0..17 and 18..35) so every bit operation stays in
 * int32; a full mask is `a + b * 2^18`, below 2^36 and exact in a double.
 */
import { boardSegments, popcount32, type LineGraph } from './coins.ts';

const HALF = 18;
const HALF_MASK = (1 << HALF) - 1;
const TWO18 = 2 ** HALF;

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

  // Rays: for cell i and direction d, the takes from i of lengths 2, 3, … as (a, b) halves.
  const rayOff = new Int32Array(n * dirs + 1);
  const rayA: number[] = [];
  const rayB: number[] = [];
  const bitA = (c: number): number => (c < HALF ? 1 << c : 0);
  const bitB = (c: number): number => (c < HALF ? 0 : 1 << (c - HALF));
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
  const takeCount = n + rayA.length; // ids: single coins 0..n-1, then ray entries
  const takeZ = new Int32Array(takeCount * nSym);
  const takeSize = new Int8Array(takeCount);
  for (let t = 0; t < takeCount; t++) {
    const cells: number[] = [];
    if (t < n) cells.push(t);
    else {
      const j = t - n;
      for (let c = 0; c < n; c++) if (((c < HALF ? RA[j]! >>> c : RB[j]! >>> (c - HALF)) & 1) === 1) cells.push(c);
    }
    takeSize[t] = cells.length;
    for (let k = 0; k < nSym; k++) takeZ[t * nSym + k] = cells.reduce((h, c) => h ^ cellRand[syms[k]![c]!]!, 0);
  }
  const maxTake = takeSize.reduce((x, y) => Math.max(x, y), 1);
  const hashOf = (a: number, b: number, out: Int32Array, at: number): void => {
    for (let k = 0; k < nSym; k++) {
      let h = 0;
      for (let c = 0; c < n; c++) if (((c < HALF ? a >>> c : b >>> (c - HALF)) & 1) === 1) h ^= cellRand[syms[k]![c]!]!;
      out[at + k] = h;
    }
  };

  // Transposition table: open addressing over canonical keys; slot = (key low 32 bits, high bits
  // with the result and an occupied flag), probing a short window and replacing its first slot
  // when the window is full (a lost entry only costs a re-search, never a wrong answer).
  const ttBits = options.ttBits ?? 22;
  const ttSize = 2 ** ttBits;
  const ttLo = new Int32Array(ttSize);
  const ttHi = new Int32Array(ttSize); // bits 0..3: key bits 32..35; bit 4: wins; bit 5: occupied
  const PROBE = 8;
  let keyLo = 0;
  let keyHi = 0;
  let keyHash = 0;
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
  // Sets the key to the canonical image of (a, b), whose per-symmetry hashes are hs[at ..] xor the
  // take's deltas (take -1: no take).
  const canon = (a: number, b: number, hs: Int32Array, at: number, take: number): void => {
    let bestK = 0;
    let bestH = 0;
    let tie = false;
    for (let k = 0; k < nSym; k++) {
      const h = (take < 0 ? hs[at + k]! : hs[at + k]! ^ takeZ[take * nSym + k]!) >>> 0;
      if (k === 0 || h < bestH) {
        bestH = h;
        bestK = k;
        tie = false;
      } else if (h === bestH) tie = true;
    }
    keyHash = bestH | 0;
    if (!tie) {
      image(a, b, bestK);
      return;
    }
    // Several images share the least hash: take the least of them exactly.
    let lo = 0;
    let hi = -1;
    for (let k = 0; k < nSym; k++) {
      const h = (take < 0 ? hs[at + k]! : hs[at + k]! ^ takeZ[take * nSym + k]!) >>> 0;
      if (h !== bestH) continue;
      image(a, b, k);
      if (hi < 0 || keyHi < hi || (keyHi === hi && keyLo >>> 0 < lo >>> 0)) {
        hi = keyHi;
        lo = keyLo;
      }
    }
    keyLo = lo;
    keyHi = hi;
  };
  const slotOf = (): number => (Math.imul(keyHash ^ keyHi, 0x85ebca6b) >>> (32 - ttBits)) & (ttSize - PROBE);
  // Probe for the current key: 1 win, 0 loss, -1 unknown.
  const probe = (): number => {
    const s0 = slotOf();
    for (let s = s0; s < s0 + PROBE; s++) {
      const hi = ttHi[s]!;
      if ((hi & 32) === 0) return -1;
      if (ttLo[s] === keyLo && (hi & 15) === keyHi) return (hi >> 4) & 1;
    }
    return -1;
  };
  const store = (win: boolean): void => {
    const s0 = slotOf();
    let s = s0;
    for (; s < s0 + PROBE; s++) {
      const hi = ttHi[s]!;
      if ((hi & 32) === 0 || (ttLo[s] === keyLo && (hi & 15) === keyHi)) break;
    }
    if (s === s0 + PROBE) s = s0;
    ttLo[s] = keyLo;
    ttHi[s] = keyHi | (win ? 16 : 0) | 32;
  };

  const stats: SearchStats = { nodes: 0 };
  let deadline = Number.POSITIVE_INFINITY;
  let tick = 0;
  // Per ply (a search is at most 36 plies deep): the position's symmetry hashes and its takes.
  const MAXM = 512;
  const hashes = new Int32Array(38 * nSym);
  const moveA = new Int32Array(37 * MAXM);
  const moveB = new Int32Array(37 * MAXM);
  const moveT = new Int32Array(37 * MAXM);
  const bySize = new Int32Array(37 * MAXM);
  // Per take of a ply: the child's canonical key, found by the transposition cutoff pass and
  // reused when the child is searched (so each child's canonical image is computed once), and
  // whether the table already holds the child as won (such a take is skipped).
  const childLo = new Int32Array(37 * MAXM);
  const childHi = new Int32Array(37 * MAXM);
  const childHash = new Int32Array(37 * MAXM);
  const childWon = new Uint8Array(37 * MAXM);

  const count = (a: number, b: number): number => popcount32(a) + popcount32(b);

  // True when the player to move with coins (a, b), whose symmetry hashes are at hashes[ply], wins.
  // `keyed`: the caller has already set the canonical key of (a, b).
  const solve = (a: number, b: number, ply: number, keyed: boolean): boolean => {
    if ((a | b) === 0) return true; // the opponent took the last coin
    const coins = count(a, b);
    if (coins <= 2) return coins === 2; // one coin must be taken; of two, take one
    if (!keyed) canon(a, b, hashes, ply * nSym, -1);
    const known = probe();
    if (known >= 0) return known === 1;
    const myLo = keyLo;
    const myHi = keyHi;
    const myHash = keyHash;
    stats.nodes++;
    if ((++tick & 1023) === 0 && Date.now() > deadline) throw new OutOfBudget();
    const win = expand(a, b, ply, coins);
    keyLo = myLo;
    keyHi = myHi;
    keyHash = myHash;
    store(win);
    return win;
  };

  // The search below a node (no closure per node: esbuild's keepNames would wrap each one).
  const expand = (a: number, b: number, ply: number, coins: number): boolean => {
    const hAt = ply * nSym;
    // Generate the takes; a take leaving exactly one coin wins at once (the opponent must take it).
    const base = ply * MAXM;
    let len = 0;
    for (let half = 0; half < 2; half++) {
      let rest = half === 0 ? a : b;
      while (rest !== 0) {
        const low = rest & -rest;
        rest ^= low;
        const i = 31 - Math.clz32(low) + half * HALF;
        moveA[base + len] = half === 0 ? low : 0;
        moveB[base + len] = half === 0 ? 0 : low;
        moveT[base + len] = i;
        len++;
        for (let d = 0; d < dirs; d++) {
          const end = rayOff[i * dirs + d + 1]!;
          for (let j = rayOff[i * dirs + d]!; j < end; j++) {
            const sa = RA[j]!;
            const sb = RB[j]!;
            if ((a & sa) !== sa || (b & sb) !== sb) break;
            if (coins - takeSize[n + j]! === 1) return true;
            moveA[base + len] = sa;
            moveB[base + len] = sb;
            moveT[base + len] = n + j;
            len++;
          }
        }
      }
    }
    // Only single coins can be taken (no two coins adjacent on a line): the game lasts exactly
    // `coins` moves, and the mover takes the last coin when that number is odd.
    if (len === coins) return (coins & 1) === 0;
    // Children already proved lost win at once (an enhanced transposition cutoff).
    for (let m = 0; m < len; m++) {
      canon(a ^ moveA[base + m]!, b ^ moveB[base + m]!, hashes, hAt, moveT[base + m]!);
      const known = probe();
      if (known === 0) return true;
      childLo[base + m] = keyLo;
      childHi[base + m] = keyHi;
      childHash[base + m] = keyHash;
      childWon[base + m] = known === 1 ? 1 : 0;
    }
    // Then search, largest takes first (they shrink the game fastest, so their subtrees are
    // cheapest; measured far better than smallest first): a counting pass per size.
    let out = 0;
    for (let size = maxTake; size >= 1 && out < len; size--) {
      for (let m = 0; m < len; m++) if (takeSize[moveT[base + m]!] === size) bySize[base + out++] = m;
    }
    const cAt = hAt + nSym;
    for (let o = 0; o < len; o++) {
      const m = bySize[base + o]!;
      if (childWon[base + m] === 1) continue;
      const t = moveT[base + m]!;
      for (let k = 0; k < nSym; k++) hashes[cAt + k] = hashes[hAt + k]! ^ takeZ[t * nSym + k]!;
      keyLo = childLo[base + m]!;
      keyHi = childHi[base + m]!;
      keyHash = childHash[base + m]!;
      if (!solve(a ^ moveA[base + m]!, b ^ moveB[base + m]!, ply + 1, true)) return true;
    }
    return false;
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
      hashOf(a, b, hashes, 0);
      return run(until, () => solve(a, b, 0, false));
    },
    bestTake(mask, until) {
      const [a, b] = halves(mask);
      if ((a | b) === 0) return null;
      return run(until, () => {
        hashOf(a, b, hashes, 0);
        const won = solve(a, b, 0, false);
        for (let t = 0; t < takeA.length; t++) {
          const sa = takeA[t]!;
          const sb = takeB[t]!;
          if ((a & sa) !== sa || (b & sb) !== sb) continue;
          if (!won) {
            // Lost: every take loses; the reference defence is a single coin, the earliest.
            if (count(sa, sb) === 1) return sa + sb * TWO18;
            continue;
          }
          hashOf(a ^ sa, b ^ sb, hashes, nSym);
          if (!solve(a ^ sa, b ^ sb, 1, false)) return sa + sb * TWO18;
        }
        throw new Error('coin search: a won position without a winning take');
      });
    },
  };
}
