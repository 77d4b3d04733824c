/**
 * The misère (`last-coin`) win/lose bitset over *every* subset of a whole coin board of up to 36
 * coins (2^36 bits = 8 GiB for the 6×6 square), computed word-parallel in blocks so that two
 * threads can fill it (see `coin-table-build.ts`) and so that no JavaScript array exceeds 2^30 bits.
 *
 * Layout. The board's cells are renumbered into *table bits*: bits 0..4 are five "in-word" cells,
 * the next `wordCells` bits index a 32-bit word inside a block, and the top `blockBits` bits pick the
 * block. One Int32 word thus holds the 32 positions that differ only in the five in-word cells, and
 * a take s moves every one of them at once: with s split into its in-word part sB, word part sW and
 * block part sH, the child of in-word subset b is b ^ sB in word w ^ sW of block H ^ sH, and since
 * b ⊇ sB means b = (b ^ sB) + sB, the children's "lost" bits shift into place with one
 * `(~child & Z[sB]) << sB`. The in-word cells are chosen pairwise non-adjacent on every line, so
 * the only takes inside one word are single coins, settled in five popcount layers.
 *
 * Order. Every take removes coins, so a child has a smaller word index (same block) or a block
 * whose index is a proper subset of the parent's: blocks are computed in increasing popcount of
 * their index (blocks of equal popcount are independent: the parallel builder's unit of work), and
 * words inside a block in increasing order.
 */
import { boardSegments, popcount32, type LineGraph } from './coins.ts';

/** In-word cells per 32-bit word (2^5 = 32 positions). */
export const WORD_CELLS = 5;

/** Largest block: 2^30 bits (128 MiB), kept below every typed-array limit. */
export const MAX_BLOCK_BITS = 30;

/** How a board's subsets are laid out in blocks of words, and its takes split by part. */
export interface TableLayout {
  readonly cells: number;
  readonly dirs: number;
  /** Table bits that pick the block (2^blockBits blocks). */
  readonly blockBits: number;
  /** Table bits that pick the word inside a block (2^wordBits words per block). */
  readonly wordBits: number;
  /**
   * The low `chunkBits` of the word bits: a block is computed in chunks of 2^chunkBits words. Takes
   * that reach above the chunk are whole-chunk streaming passes (branch-free, sequential memory);
   * only takes inside a chunk are found per word, through per-word lists of the takes that fit (`chunkFits`).
   */
  readonly chunkBits: number;
  /** `order[tableBit]`: the board cell (0-based) stored at that table bit. */
  readonly order: readonly number[];
  /** In-word takes (single coins, or any take inside the five in-word cells): their sB. */
  readonly inWord: Int32Array;
  /** Takes reaching above the chunk, as quadruples (sH, sM, sW, sB): block, mid, chunk, in-word parts. */
  readonly cross: Int32Array;
  /** Takes inside a block with a word part, grouped in rays: `rayOff[p*dirs+d]` .. entries. */
  readonly rayOff: Int32Array;
  /** Each entry's word part sW (non-decreasing along a ray, so the first misfit ends the ray). */
  readonly entW: Int32Array;
  /** Each entry's in-word variants: `varB[entOff[e] .. entOff[e+1])`. */
  readonly entOff: Int32Array;
  readonly varB: Int32Array;
}

/** Default chunk bits: 2^8 words (fewer passes per take above the chunk; the per-word lists of in-chunk takes stay small: 40 KiB for the 6×6 square). */
export const DEFAULT_CHUNK_BITS = 8;

/** Largest chunk: the per-word lists of in-chunk takes (`chunkFits`) grow with 2^chunkBits. */
export const MAX_CHUNK_BITS = 12;

/** Default block bits: enough blocks for two threads to share work, blocks of at most 2^30 bits. */
export function defaultBlockBits(cells: number): number {
  return Math.max(cells - MAX_BLOCK_BITS, Math.min(6, cells - 16), 0);
}

/**
 * The layout of a board graph (at least WORD_CELLS cells). In-word cells are picked greedily in
 * reading order among cells not consecutive on a line with one already picked; the block cells are
 * the last cells of the board in reading order; the word cells are the rest, in reading order.
 */
export function tableLayout(g: LineGraph, blockBits = defaultBlockBits(g.cells), chunkBits = DEFAULT_CHUNK_BITS): TableLayout {
  const n = g.cells;
  const dirs = g.dirs;
  if (n < WORD_CELLS || n > 36) throw new RangeError(`Expected a board of ${WORD_CELLS} to 36 cells, got ${n}`);
  const wordBits = n - WORD_CELLS - blockBits;
  if (blockBits < 0 || wordBits < 0 || wordBits + WORD_CELLS > MAX_BLOCK_BITS) {
    throw new RangeError(`Expected blockBits in [${Math.max(0, n - MAX_BLOCK_BITS)}, ${n - WORD_CELLS}], got ${blockBits}`);
  }
  const adjacent = (a: number, b: number): boolean => {
    for (let d = 0; d < dirs; d++) if (g.next[a * dirs + d] === b || g.next[b * dirs + d] === a) return true;
    return false;
  };
  const inWordCells: number[] = [];
  for (let c = 0; c < n && inWordCells.length < WORD_CELLS; c++) {
    if (inWordCells.every((o) => !adjacent(o, c))) inWordCells.push(c);
  }
  // Small boards may lack five pairwise non-adjacent cells: fill up with the first others (their
  // mutual takes then become in-word takes, which the layered pass handles in general).
  for (let c = 0; c < n && inWordCells.length < WORD_CELLS; c++) if (!inWordCells.includes(c)) inWordCells.push(c);
  const rest = Array.from({ length: n }, (_, c) => c).filter((c) => !inWordCells.includes(c));
  const order = [...inWordCells.sort((a, b) => a - b), ...rest];
  const bitOf = new Int32Array(n);
  order.forEach((c, t) => {
    bitOf[c] = t;
  });
  if (!Number.isInteger(chunkBits) || chunkBits < 0 || chunkBits > MAX_CHUNK_BITS) {
    throw new RangeError(`Expected chunkBits in [0, ${MAX_CHUNK_BITS}], got ${chunkBits}`);
  }
  const blockFrom = WORD_CELLS + wordBits;
  const q = Math.min(chunkBits, wordBits);
  const midFrom = WORD_CELLS + q;

  // Split one take into its parts of table bits: block, mid (word bits above the chunk), chunk, in-word.
  const split = (cells: readonly number[]): [number, number, number, number] => {
    let sH = 0;
    let sM = 0;
    let sW = 0;
    let sB = 0;
    for (const c of cells) {
      const t = bitOf[c]!;
      if (t < WORD_CELLS) sB |= 1 << t;
      else if (t < midFrom) sW |= 1 << (t - WORD_CELLS);
      else if (t < blockFrom) sM |= 1 << (t - midFrom);
      else sH |= 1 << (t - blockFrom);
    }
    return [sH, sM, sW, sB];
  };

  const inWord: number[] = [];
  const cross: number[] = [];
  for (const seg of boardSegments(g)) {
    const [sH, sM, sW, sB] = split(seg.cells);
    if (sH !== 0 || sM !== 0) cross.push(sH, sM, sW, sB);
    else if (sW === 0) inWord.push(sB);
  }

  // Rays of takes inside a block that touch a word cell, keyed by their first word cell c along
  // direction d: an optional run of in-word cells just before c (the variants), then c and the
  // cells after it up to (not into) the block cells. Single coins of word cells are rays too.
  const prev = new Int32Array(n * dirs).fill(-1);
  for (let c = 0; c < n; c++) {
    for (let d = 0; d < dirs; d++) {
      const nx = g.next[c * dirs + d]!;
      if (nx >= 0) prev[nx * dirs + d] = c;
    }
  }
  const rayOff = new Int32Array(q * dirs + 1);
  const entW: number[] = [];
  const entOff: number[] = [];
  const varB: number[] = [];
  const isInWord = (c: number): boolean => bitOf[c]! < WORD_CELLS;
  const isAbove = (c: number): boolean => bitOf[c]! >= midFrom;
  for (let p = 0; p < q; p++) {
    const c = order[WORD_CELLS + p]!;
    for (let d = 0; d < dirs; d++) {
      rayOff[p * dirs + d] = entW.length;
      const prefix: number[] = []; // in-word cells just before c, nearest first
      for (let x = prev[c * dirs + d]!; x >= 0 && isInWord(x); x = prev[x * dirs + d]!) prefix.push(x);
      const run: number[] = [];
      for (let x = c; x >= 0 && !isAbove(x); x = g.next[x * dirs + d]!) {
        run.push(x);
        // The single coin c is one take whatever the direction: list it bare on direction 0 only
        // (on other directions only its in-word-prefixed variants, if any).
        const bare = run.length > 1 || d === 0;
        if (!bare && prefix.length === 0) continue;
        const [, , sW, sB] = split(run);
        entW.push(sW);
        entOff.push(varB.length);
        if (bare) varB.push(sB);
        let pre = sB;
        for (const q2 of prefix) {
          pre |= 1 << bitOf[q2]!;
          varB.push(pre);
        }
      }
    }
  }
  rayOff[q * dirs] = entW.length;
  entOff.push(varB.length);
  return {
    cells: n,
    dirs,
    blockBits,
    wordBits,
    chunkBits: q,
    order,
    inWord: Int32Array.from(inWord),
    cross: Int32Array.from(cross),
    rayOff,
    entW: Int32Array.from(entW),
    entOff: Int32Array.from(entOff),
    varB: Int32Array.from(varB),
  };
}

/** Z[sB]: the in-word subsets b disjoint from sB (whose children b ^ sB... shift to b + sB). */
const Z = new Int32Array(32);
/** LAYER[k]: the in-word subsets with k coins. */
const LAYER = new Int32Array(WORD_CELLS + 1);
for (let s = 0; s < 32; s++) {
  for (let b = 0; b < 32; b++) if ((b & s) === 0) Z[s]! |= 1 << b;
  LAYER[popcount32(s)]! |= 1 << s;
}

/** The takes inside a chunk that have a word part, one (sW, sB) pair per in-word variant. */
export function chunkTakes(layout: TableLayout): { w: Int32Array; b: Int32Array } {
  const w: number[] = [];
  const b: number[] = [];
  for (let e = 0; e < layout.entW.length; e++) {
    for (let v = layout.entOff[e]!; v < layout.entOff[e + 1]!; v++) {
      w.push(layout.entW[e]!);
      b.push(layout.varB[v]!);
    }
  }
  return { w: Int32Array.from(w), b: Int32Array.from(b) };
}

/**
 * For each word offset w of a chunk, the in-chunk takes that fit it (sW ⊆ w), as one Int32Array:
 * `fits[w] .. fits[w + 1]` index pairs (child word offset w ^ sW | sB << 26, Z[sB]) further on.
 * Listing only the fitting takes does about 40% of the work of masking every take off per word,
 * and one array of pairs keeps V8 to a single map check per unrolled step.
 */
export function chunkFits(layout: TableLayout): Int32Array {
  const { w: flatW, b: flatB } = chunkTakes(layout);
  const chunkWords = 2 ** layout.chunkBits;
  let pairs = 0;
  for (let w = 0; w < chunkWords; w++) for (let e = 0; e < flatW.length; e++) if ((w & flatW[e]!) === flatW[e]) pairs++;
  const fits = new Int32Array(chunkWords + 1 + 2 * pairs);
  let at = chunkWords + 1;
  for (let w = 0; w < chunkWords; w++) {
    fits[w] = at;
    for (let e = 0; e < flatW.length; e++) {
      const sW = flatW[e]!;
      if ((w & sW) !== sW) continue;
      fits[at++] = (w ^ sW) | (flatB[e]! << 26);
      fits[at++] = Z[flatB[e]!]!;
    }
  }
  fits[chunkWords] = at;
  return fits;
}

/**
 * The per-word lists of `chunkFits` regrouped: for word offset w, `split[2w] .. split[2w + 1]` are
 * the child offsets of the takes without an in-word part (sB = 0: the child's lost bits OR in
 * unshifted and unmasked, so one int each), then `split[2w + 1] .. split[2w + 2]` the other takes
 * as pairs (child offset | sB << 26, Z[sB]) as in `chunkFits`.
 */
function splitFits(fits: Int32Array, chunkWords: number): Int32Array {
  const out: number[] = new Array<number>(2 * chunkWords + 1).fill(0);
  for (let w = 0; w < chunkWords; w++) {
    out[2 * w] = out.length;
    for (let k = fits[w]!; k < fits[w + 1]!; k += 2) if (fits[k]! >>> 26 === 0) out.push(fits[k]!);
    out[2 * w + 1] = out.length;
    for (let k = fits[w]!; k < fits[w + 1]!; k += 2) if (fits[k]! >>> 26 !== 0) out.push(fits[k]!, fits[k + 1]!);
  }
  out[2 * chunkWords] = out.length;
  return Int32Array.from(out);
}

/** Number of Int32 words of one block. */
export function blockWords(layout: TableLayout): number {
  return 2 ** layout.wordBits;
}

/** What `computeBlock` derives from a layout alone, once per layout. */
interface Prepared {
  readonly fits: Int32Array;
  /** `fits` regrouped per word: takes without in-word part first (offsets only), then pairs (`splitFits`). */
  readonly split: Int32Array;
  readonly singlesOnly: boolean;
  readonly layered: readonly (readonly number[])[];
  /** Per block index h: the takes above the chunk whose block part fits h, sorted by sW (stable). */
  readonly cross: Int32Array[];
}

const preparedCache = new WeakMap<TableLayout, Prepared>();

function prepare(layout: TableLayout): Prepared {
  const known = preparedCache.get(layout);
  if (known) return known;
  const { inWord } = layout;
  const cross: Int32Array[] = [];
  for (let h = 0; h < 2 ** layout.blockBits; h++) {
    // The takes whose block part fits h (the others never apply in this block), sorted by word
    // part so that the takes of a chunk with equal sW (the same words of the chunk) are
    // consecutive and stream fused, up to four per pass (`crossPass`).
    const fit: number[] = [];
    for (let i = 0; i < layout.cross.length; i += 4) if ((layout.cross[i]! & h) === layout.cross[i]) fit.push(i);
    fit.sort((x, y) => layout.cross[x + 2]! - layout.cross[y + 2]! || x - y);
    const sorted = new Int32Array(4 * fit.length);
    fit.forEach((i, j) => sorted.set(layout.cross.subarray(i, i + 4), 4 * j));
    cross.push(sorted);
  }
  const layered: number[][] = [];
  for (let k = 1; k <= WORD_CELLS; k++) layered.push(Array.from(inWord).filter((t) => popcount32(t) <= k));
  const fits = chunkFits(layout);
  const split = splitFits(fits, 2 ** layout.chunkBits);
  const prepared: Prepared = {
    fits,
    split,
    singlesOnly: inWord.length === WORD_CELLS && inWord.every((t) => popcount32(t) === 1) && split.length <= CHUNK_FITS_WORDS,
    layered,
    cross,
  };
  preparedCache.set(layout, prepared);
  return prepared;
}

/**
 * The chunk being computed (words 0 .. 2^chunkBits − 1: the cross passes OR into it, then
 * `singlesPass` settles it, then it is copied into its block), and the per-word take lists
 * `singlesPass` reads (`splitFits`, copied in once per layout). Constant arrays, not parameters,
 * on purpose: a whole-board build is about a quarter faster than with the block and the lists
 * passed as parameter arrays (docs/ANALYSIS.md, "Kernel measurements"). The copy costs 2^chunkBits words a chunk against the
 * dozens of takes each word reads. A layout whose lists do not fit CHUNK_FITS (chunk bits near
 * MAX_CHUNK_BITS on large boards) settles its chunks with `chunkGeneral` instead.
 *
 * Built by a factory, not declared at the top level: a bundler (esbuild, which builds the worker
 * script) turns top-level `const`s into `var`s, and V8 only gives this speed to `const` bindings
 * (measured: a module-level `var` array is as slow as a parameter).
 */
function chunkKernels() {
  const CHUNK = new Int32Array(1 << MAX_CHUNK_BITS);
  const CHUNK_FITS = new Int32Array(CHUNK_FITS_WORDS);
  /** The lists now in CHUNK_FITS. */
  let chunkFitsOf: Int32Array | null = null;

  /**
   * Up to four takes reaching above the chunk with the same word part sW, fused: every word w ⊇ sW
   * of the chunk in CHUNK (destination offset `to` = sW, w running over the submasks of
   * `free` = the chunk's other word bits) ORs in the lost children (~src[f + w] & z) << b of each
   * source, with one load and store of the destination word. Its own small monomorphic function
   * (int32 only, parameters copied to int32 locals once), four words a step where the words are
   * contiguous: V8 checks each array once per step, not once per access.
   */
  function crossPass(
    to: number,
    free: number,
    s0: Int32Array,
    f0: number,
    z0: number,
    b0: number,
    s1: Int32Array,
    f1: number,
    z1: number,
    b1: number,
    s2: Int32Array,
    f2: number,
    z2: number,
    b2: number,
    s3: Int32Array,
    f3: number,
    z3: number,
    b3: number,
  ): void {
    const W = CHUNK;
    const T = to | 0;
    const F0 = f0 | 0;
    const F1 = f1 | 0;
    const F2 = f2 | 0;
    const F3 = f3 | 0;
    const Z0 = z0 | 0;
    const Z1 = z1 | 0;
    const Z2 = z2 | 0;
    const Z3 = z3 | 0;
    const B0 = b0 | 0;
    const B1 = b1 | 0;
    const B2 = b2 | 0;
    const B3 = b3 | 0;
    const fr = free | 0;
    const run = fr & ~(fr + 1); // the lowest run of free bits: words x .. x + run are contiguous
    if (run >= 3) {
      const hi = fr & ~run;
      let x = 0;
      do {
        const end = x | run;
        for (let w = x; w <= end; w += 4) {
          const d = (T | w) | 0;
          const a0 = (F0 + w) | 0;
          const a1 = (F1 + w) | 0;
          const a2 = (F2 + w) | 0;
          const a3 = (F3 + w) | 0;
          const p0 = s0[a0]!;
          const p1 = s0[(a0 + 1) | 0]!;
          const p2 = s0[(a0 + 2) | 0]!;
          const p3 = s0[(a0 + 3) | 0]!;
          const q0 = s1[a1]!;
          const q1 = s1[(a1 + 1) | 0]!;
          const q2 = s1[(a1 + 2) | 0]!;
          const q3 = s1[(a1 + 3) | 0]!;
          const r0 = s2[a2]!;
          const r1 = s2[(a2 + 1) | 0]!;
          const r2 = s2[(a2 + 2) | 0]!;
          const r3 = s2[(a2 + 3) | 0]!;
          const t0 = s3[a3]!;
          const t1 = s3[(a3 + 1) | 0]!;
          const t2 = s3[(a3 + 2) | 0]!;
          const t3 = s3[(a3 + 3) | 0]!;
          const d0 = W[d]!;
          const d1 = W[(d + 1) | 0]!;
          const d2 = W[(d + 2) | 0]!;
          const d3 = W[(d + 3) | 0]!;
          W[d] = d0 | ((~p0 & Z0) << B0) | ((~q0 & Z1) << B1) | ((~r0 & Z2) << B2) | ((~t0 & Z3) << B3);
          W[(d + 1) | 0] = d1 | ((~p1 & Z0) << B0) | ((~q1 & Z1) << B1) | ((~r1 & Z2) << B2) | ((~t1 & Z3) << B3);
          W[(d + 2) | 0] = d2 | ((~p2 & Z0) << B0) | ((~q2 & Z1) << B1) | ((~r2 & Z2) << B2) | ((~t2 & Z3) << B3);
          W[(d + 3) | 0] = d3 | ((~p3 & Z0) << B0) | ((~q3 & Z1) << B1) | ((~r3 & Z2) << B2) | ((~t3 & Z3) << B3);
        }
        x = (x - hi) & hi; // the next submask of `hi`, ascending
      } while (x !== 0);
      return;
    }
    let w = 0;
    do {
      const d = (T | w) | 0;
      W[d] = W[d]! | ((~s0[(F0 + w) | 0]! & Z0) << B0) | ((~s1[(F1 + w) | 0]! & Z1) << B1) | ((~s2[(F2 + w) | 0]! & Z2) << B2) | ((~s3[(F3 + w) | 0]! & Z3) << B3);
      w = (w - fr) & fr; // the next submask of `free`, ascending
    } while (w !== 0);
  }

  /**
   * As `crossPass`, for groups of one or two takes: no dummy streams for the unused slots (a few
   * per cent faster than every group through `crossPass`: docs/ANALYSIS.md, "Kernel measurements").
   */
  function crossPass2(to: number, free: number, s0: Int32Array, f0: number, z0: number, b0: number, s1: Int32Array, f1: number, z1: number, b1: number): void {
    const W = CHUNK;
    const T = to | 0;
    const F0 = f0 | 0;
    const F1 = f1 | 0;
    const Z0 = z0 | 0;
    const Z1 = z1 | 0;
    const B0 = b0 | 0;
    const B1 = b1 | 0;
    const fr = free | 0;
    const run = fr & ~(fr + 1);
    if (run >= 3) {
      const hi = fr & ~run;
      let x = 0;
      do {
        const end = x | run;
        for (let w = x; w <= end; w += 4) {
          const d = (T | w) | 0;
          const a0 = (F0 + w) | 0;
          const a1 = (F1 + w) | 0;
          const p0 = s0[a0]!;
          const p1 = s0[(a0 + 1) | 0]!;
          const p2 = s0[(a0 + 2) | 0]!;
          const p3 = s0[(a0 + 3) | 0]!;
          const q0 = s1[a1]!;
          const q1 = s1[(a1 + 1) | 0]!;
          const q2 = s1[(a1 + 2) | 0]!;
          const q3 = s1[(a1 + 3) | 0]!;
          const d0 = W[d]!;
          const d1 = W[(d + 1) | 0]!;
          const d2 = W[(d + 2) | 0]!;
          const d3 = W[(d + 3) | 0]!;
          W[d] = d0 | ((~p0 & Z0) << B0) | ((~q0 & Z1) << B1);
          W[(d + 1) | 0] = d1 | ((~p1 & Z0) << B0) | ((~q1 & Z1) << B1);
          W[(d + 2) | 0] = d2 | ((~p2 & Z0) << B0) | ((~q2 & Z1) << B1);
          W[(d + 3) | 0] = d3 | ((~p3 & Z0) << B0) | ((~q3 & Z1) << B1);
        }
        x = (x - hi) & hi;
      } while (x !== 0);
      return;
    }
    let w = 0;
    do {
      const d = (T | w) | 0;
      W[d] = W[d]! | ((~s0[(F0 + w) | 0]! & Z0) << B0) | ((~s1[(F1 + w) | 0]! & Z1) << B1);
      w = (w - fr) & fr;
    } while (w !== 0);
  }

  /** Settles the chunk in CHUNK (see `singlesPass`), first copying the layout's lists to CHUNK_FITS if they are not there. */
  function chunkSingles(split: Int32Array, chunkWords: number): void {
    if (chunkFitsOf !== split) {
      CHUNK_FITS.set(split);
      chunkFitsOf = split;
    }
    singlesPass(chunkWords);
  }

  /**
   * The takes inside a chunk, word by word in increasing order (a child is an earlier word), from the
   * per-word lists of `splitFits` (`fits` here), then the in-word single coins, settled in five
   * popcount layers (a subset with k in-word coins depends on subsets with fewer), unrolled. Works on
   * the chunk in CHUNK with the lists in CHUNK_FITS.
   */
  function singlesPass(chunkWords: number): void {
    const W = CHUNK;
    const fits = CHUNK_FITS;
    const Z1 = Z[1]!;
    const Z2 = Z[2]!;
    const Z4 = Z[4]!;
    const Z8 = Z[8]!;
    const Z16 = Z[16]!;
    const L1 = LAYER[1]!;
    const L2 = LAYER[2]!;
    const L3 = LAYER[3]!;
    const L4 = LAYER[4]!;
    const L5 = LAYER[5]!;
    for (let w = 0; w < chunkWords; w++) {
      let acc = W[w]!;
      const w2 = (w + w) | 0;
      let k = fits[w2]!;
      const mid = fits[(w2 + 1) | 0]!;
      const end = fits[(w2 + 2) | 0]!;
      // Takes without an in-word part, four per step: V8 checks the arrays once per step.
      for (; ((k + 4) | 0) <= mid; k = (k + 4) | 0) {
        const c0 = W[fits[k]!]!;
        const c1 = W[fits[(k + 1) | 0]!]!;
        const c2 = W[fits[(k + 2) | 0]!]!;
        const c3 = W[fits[(k + 3) | 0]!]!;
        acc |= ~(c0 & c1 & c2 & c3);
      }
      for (; k < mid; k = (k + 1) | 0) acc |= ~W[fits[k]!]!;
      // The others, four per step.
      for (; ((k + 8) | 0) <= end; k = (k + 8) | 0) {
        const e0 = fits[k]!;
        const m0 = fits[(k + 1) | 0]!;
        const e1 = fits[(k + 2) | 0]!;
        const m1 = fits[(k + 3) | 0]!;
        const e2 = fits[(k + 4) | 0]!;
        const m2 = fits[(k + 5) | 0]!;
        const e3 = fits[(k + 6) | 0]!;
        const m3 = fits[(k + 7) | 0]!;
        const c0 = W[e0 & 0x3ffffff]!;
        const c1 = W[e1 & 0x3ffffff]!;
        const c2 = W[e2 & 0x3ffffff]!;
        const c3 = W[e3 & 0x3ffffff]!;
        acc |= ((~c0 & m0) << (e0 >>> 26)) | ((~c1 & m1) << (e1 >>> 26)) | ((~c2 & m2) << (e2 >>> 26)) | ((~c3 & m3) << (e3 >>> 26));
      }
      for (; k < end; k = (k + 2) | 0) {
        const e = fits[k]!;
        acc |= (~W[e & 0x3ffffff]! & fits[(k + 1) | 0]!) << (e >>> 26);
      }
      if (acc !== -1) {
        let lost = ~acc;
        acc |= (((lost & Z1) << 1) | ((lost & Z2) << 2) | ((lost & Z4) << 4) | ((lost & Z8) << 8) | ((lost & Z16) << 16)) & L1;
        lost = ~acc;
        acc |= (((lost & Z1) << 1) | ((lost & Z2) << 2) | ((lost & Z4) << 4) | ((lost & Z8) << 8) | ((lost & Z16) << 16)) & L2;
        lost = ~acc;
        acc |= (((lost & Z1) << 1) | ((lost & Z2) << 2) | ((lost & Z4) << 4) | ((lost & Z8) << 8) | ((lost & Z16) << 16)) & L3;
        lost = ~acc;
        acc |= (((lost & Z1) << 1) | ((lost & Z2) << 2) | ((lost & Z4) << 4) | ((lost & Z8) << 8) | ((lost & Z16) << 16)) & L4;
        lost = ~acc;
        acc |= (((lost & Z1) << 1) | ((lost & Z2) << 2) | ((lost & Z4) << 4) | ((lost & Z8) << 8) | ((lost & Z16) << 16)) & L5;
      }
      W[w] = acc;
    }
  }

  return { CHUNK, crossPass, crossPass2, chunkSingles };
}

/** Words of CHUNK_FITS (see `chunkKernels`). */
const CHUNK_FITS_WORDS = 1 << 19;
const kernels = chunkKernels();

/**
 * Computes block `h` in place, chunk by chunk in CHUNK. Every block whose index is a proper subset
 * of h must be final; `blocks[h]` is overwritten. With `progress`, adds 1 to `progress[slot]` after
 * each chunk. Writes only `blocks[h]`, so blocks of equal popcount may be computed by different
 * threads at once over shared memory (each thread has its own CHUNK).
 */
export function computeBlock(
  layout: TableLayout,
  blocks: readonly Int32Array[],
  h: number,
  progress?: Int32Array,
  slot = 0,
): void {
  const q = layout.chunkBits;
  const W = blocks[h]!;
  const chunk = kernels.CHUNK;
  const chunkWords = 1 << q; // int32 shifts, not 2 ** q: V8 keeps the offsets below in int32 registers
  const mids = 1 << (layout.wordBits - q);
  const chunkMask = chunkWords - 1;
  const { fits, split, singlesOnly, layered, cross } = prepare(layout);
  const sorted = cross[h]!;
  const crossLen = sorted.length;
  const srcs: Int32Array[] = [];
  for (let i = 0; i < crossLen; i += 4) srcs.push(blocks[h ^ sorted[i]!]!);
  const gS: Int32Array[] = [W, W, W, W];
  const gF = [0, 0, 0, 0];
  const gZ = [0, 0, 0, 0];
  const gB = [0, 0, 0, 0];
  for (let mid = 0; mid < mids; mid++) {
    const base = mid * chunkWords;
    chunk.fill(0, 0, chunkWords);
    // Takes reaching above the chunk: stream a finished chunk (earlier in this block, or in a
    // block whose index is a proper subset of h) into this one.
    let n = 0;
    let curW = 0;
    for (let i = 0; i <= crossLen; i += 4) {
      const sW = i < crossLen ? sorted[i + 2]! : -1;
      if (i < crossLen) {
        const sM = sorted[i + 1]!;
        if ((sM & mid) !== sM) continue;
      }
      if (n > 0 && (sW !== curW || n === 4)) {
        // A group of n takes (two slots up to two, else four): the unused slots read this
        // chunk's place in the block with mask 0 (no effect).
        for (let k = n; k < 4; k++) {
          gS[k] = W;
          gF[k] = base;
          gZ[k] = 0;
          gB[k] = 0;
        }
        if (n <= 2) kernels.crossPass2(curW, chunkMask & ~curW, gS[0]!, gF[0]!, gZ[0]!, gB[0]!, gS[1]!, gF[1]!, gZ[1]!, gB[1]!);
        else kernels.crossPass(curW, chunkMask & ~curW, gS[0]!, gF[0]!, gZ[0]!, gB[0]!, gS[1]!, gF[1]!, gZ[1]!, gB[1]!, gS[2]!, gF[2]!, gZ[2]!, gB[2]!, gS[3]!, gF[3]!, gZ[3]!, gB[3]!);
        n = 0;
      }
      if (i === crossLen) break;
      curW = sW;
      const sB = sorted[i + 3]!;
      gS[n] = srcs[i >> 2]!;
      gF[n] = (mid ^ sorted[i + 1]!) * chunkWords;
      gZ[n] = Z[sB]!;
      gB[n] = sB;
      n++;
    }
    if (h === 0 && mid === 0) chunk[0]! |= 1; // the empty board: the opponent took the last coin
    if (singlesOnly) kernels.chunkSingles(split, chunkWords);
    W.set(chunk.subarray(0, chunkWords), base);
    if (!singlesOnly) chunkGeneral(W, fits, base, chunkWords, layered);
    if (progress) Atomics.add(progress, slot, 1);
  }
}

/** As `chunkSingles`, for layouts whose in-word takes are not only single coins (small boards). */
function chunkGeneral(W: Int32Array, fits: Int32Array, base: number, chunkWords: number, layered: readonly (readonly number[])[]): void {
  for (let w = 0; w < chunkWords; w++) {
    let acc = W[base + w]!;
    const end = fits[w + 1]!;
    for (let k = fits[w]!; k < end; k += 2) {
      const e = fits[k]!;
      acc |= (~W[base + (e & 0x3ffffff)]! & fits[k + 1]!) << (e >>> 26);
    }
    if (acc !== -1) {
      for (let k = 1; k <= WORD_CELLS; k++) {
        const layer = LAYER[k]!;
        for (const t of layered[k - 1]!) acc |= ((~acc & Z[t]!) << t) & layer;
      }
    }
    W[base + w] = acc;
  }
}

/** Block indices grouped by popcount, ascending: each group depends only on earlier groups. */
export function blockLayers(layout: TableLayout): number[][] {
  const layers: number[][] = Array.from({ length: layout.blockBits + 1 }, () => []);
  for (let h = 0; h < 2 ** layout.blockBits; h++) layers[popcount32(h)]!.push(h);
  return layers;
}

/** Allocates the blocks of a layout (SharedArrayBuffer-backed when `shared`). */
export function allocateBlocks(layout: TableLayout, shared: boolean): Int32Array[] {
  const bytes = blockWords(layout) * 4;
  return Array.from({ length: 2 ** layout.blockBits }, () => new Int32Array(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes)));
}

/** Fills the whole table on this thread, block by block (a numerically smaller block first suffices). */
export function buildTable(layout: TableLayout, blocks = allocateBlocks(layout, false)): Int32Array[] {
  for (let h = 0; h < blocks.length; h++) computeBlock(layout, blocks, h);
  return blocks;
}

/**
 * Maps board masks (bit i = cell i, below 2^36) to table positions: byte-wise lookup tables of the
 * cell permutation, five per mask, so a lookup costs a few loads and no loop over cells.
 */
export interface TableIndex {
  /** The table index (a number below 2^cells) of a board mask. */
  of(mask: number): number;
  /** The board mask of a table index. */
  mask(index: number): number;
}

/** Builds the index maps of a layout. */
export function tableIndex(layout: TableLayout): TableIndex {
  const n = layout.cells;
  const bytes = Math.ceil(n / 8);
  const fwd = new Float64Array(bytes * 256);
  const back = new Float64Array(bytes * 256);
  const bitOf = new Int32Array(n);
  layout.order.forEach((c, t) => {
    bitOf[c] = t;
  });
  for (let byte = 0; byte < bytes; byte++) {
    for (let v = 0; v < 256; v++) {
      let f = 0;
      let b = 0;
      for (let i = 0; i < 8; i++) {
        const x = byte * 8 + i;
        if (x >= n || ((v >> i) & 1) === 0) continue;
        f += 2 ** bitOf[x]!;
        b += 2 ** layout.order[x]!;
      }
      fwd[byte * 256 + v] = f;
      back[byte * 256 + v] = b;
    }
  }
  const map = (table: Float64Array, x: number): number => {
    let lo = x >>> 0;
    let hi = Math.floor(x / 0x1_0000_0000);
    let out = 0;
    for (let byte = 0; byte < bytes; byte++) {
      out += table[byte * 256 + (lo & 255)]!;
      lo = (lo >>> 8) | ((hi & 255) << 24);
      hi >>>= 8;
    }
    return out;
  };
  return { of: (mask) => map(fwd, mask), mask: (index) => map(back, index) };
}

/** Reads the win bit of table index `index` from the blocks. */
export function readBit(layout: TableLayout, blocks: readonly Int32Array[], index: number): boolean {
  const perBlock = 2 ** (layout.wordBits + WORD_CELLS);
  const h = Math.floor(index / perBlock);
  const inBlock = index - h * perBlock;
  return ((blocks[h]![inBlock >>> WORD_CELLS]! >>> (inBlock & 31)) & 1) === 1;
}
