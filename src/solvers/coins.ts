/**
 * Exact analysis of the coin board (GAMES.md 5): board geometry as a graph of lines, the segments
 * (legal takes) of a board, and two tables over every subset of a set of at most 25 coins, filled
 * in increasing subset order: the misère win/lose bitset (`last-coin`) and the future score margin
 * (`points`).
 *
 * Masks. A board has up to 36 coins, too many for JavaScript's 32-bit bit operators, so a board
 * mask is a plain number below 2^36 (bit i = coin i + 1, exact in a double) whose two 32-bit halves
 * are taken apart explicitly (`maskLo`/`maskHi`). The tables never see such masks: a position is
 * first *compacted* onto the coins of a base position that contains it (coins never come back, so
 * every later position of the game is a subset of the base and a gap in the base stays a gap). The
 * compact masks have at most 25 bits and use ordinary int32 operators.
 */

/** 2^32, the weight of a board mask's high half. */
const TWO32 = 0x1_0000_0000;

/** Low 32 bits of a board mask (coins 1..32). */
export function maskLo(mask: number): number {
  return mask >>> 0; // ToUint32 takes the value modulo 2^32, exact for masks below 2^53
}

/** High bits of a board mask (coins 33..). */
export function maskHi(mask: number): number {
  return Math.floor(mask / TWO32);
}

/** Joins two 32-bit halves into a board mask. */
export function joinMask(lo: number, hi: number): number {
  return (hi >>> 0) * TWO32 + (lo >>> 0);
}

/** The board mask of one cell (0-based). */
export function cellBit(cell: number): number {
  return 2 ** cell;
}

/** True when board mask `mask` holds cell `cell` (0-based). */
export function hasCell(mask: number, cell: number): boolean {
  return cell < 32 ? ((maskLo(mask) >>> cell) & 1) === 1 : ((maskHi(mask) >>> (cell - 32)) & 1) === 1;
}

/** True when every coin of `part` is in `whole` (board masks). */
export function isSubmask(part: number, whole: number): boolean {
  const lo = maskLo(part);
  const hi = maskHi(part);
  return ((lo & maskLo(whole)) >>> 0) === lo && ((hi & maskHi(whole)) >>> 0) === hi;
}

/** `whole` without the coins of `part` (board masks). */
export function withoutMask(whole: number, part: number): number {
  return joinMask(maskLo(whole) & ~maskLo(part), maskHi(whole) & ~maskHi(part));
}

/** Number of coins in a board mask. */
export function coinCount(mask: number): number {
  return popcount32(maskLo(mask)) + popcount32(maskHi(mask));
}

/** Number of set bits of a 32-bit integer. */
export function popcount32(x: number): number {
  let v = x >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The 0-based cells of a board mask, ascending. */
export function maskCells(mask: number, cells: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < cells; c++) if (hasCell(mask, c)) out.push(c);
  return out;
}

/**
 * A board as a graph of lines: `cells` cells numbered in reading order and, for each cell and each
 * *forward* direction, the next cell along that line or -1. Every direction of GAMES.md goes
 * forward in reading order ((0,+1) to a larger number on the same row, (+1,·) to the next row), so a
 * segment is listed exactly once, from its smallest cell.
 */
export interface LineGraph {
  readonly cells: number;
  readonly dirs: number;
  /** `next[cell * dirs + d]`: the following cell along direction d, or -1 at the line's end. */
  readonly next: Int8Array;
}

/** Largest board the geometry accepts (coins fit in a board mask and an Int8Array index). */
export const MAX_BOARD_CELLS = 36;

function buildGraph(
  cells: number,
  dirs: readonly (readonly [number, number])[],
  at: (cell: number) => readonly [number, number],
  index: (r: number, c: number) => number,
): LineGraph {
  if (cells > MAX_BOARD_CELLS) throw new RangeError(`Expected at most ${MAX_BOARD_CELLS} cells, got ${cells}`);
  const next = new Int8Array(cells * dirs.length).fill(-1);
  for (let cell = 0; cell < cells; cell++) {
    const [r, c] = at(cell);
    dirs.forEach(([dr, dc], d) => {
      next[cell * dirs.length + d] = index(r + dr, c + dc);
    });
  }
  return { cells, dirs: dirs.length, next };
}

/** The triangle with `rows` rows (row r holds r coins): directions (0,+1), (+1,0), (+1,+1). */
export function triangleGraph(rows: number): LineGraph {
  const cells = (rows * (rows + 1)) / 2;
  const rowOf: [number, number][] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c <= r; c++) rowOf.push([r, c]);
  return buildGraph(
    cells,
    [
      [0, 1],
      [1, 0],
      [1, 1],
    ],
    (cell) => rowOf[cell]!,
    (r, c) => (r < rows && c >= 0 && c <= r ? (r * (r + 1)) / 2 + c : -1),
  );
}

/** The `side` × `side` square: directions (0,+1), (+1,0), (+1,+1), (+1,−1). */
export function squareGraph(side: number): LineGraph {
  return buildGraph(
    side * side,
    [
      [0, 1],
      [1, 0],
      [1, 1],
      [1, -1],
    ],
    (cell) => [Math.floor(cell / side), cell % side],
    (r, c) => (r >= 0 && r < side && c >= 0 && c < side ? r * side + c : -1),
  );
}

/** One legal take shape: the cells of k consecutive cells of one line, smallest first. */
export interface Segment {
  /** 0-based cells, ascending (the order along the line). */
  readonly cells: readonly number[];
  /** The same cells as a board mask. */
  readonly mask: number;
}

/**
 * Every segment of a board: each single cell, and every run of two or more consecutive cells of a
 * line. Sorted by first cell, then last cell (two cells fix the line, so that pair is unique).
 */
export function boardSegments(g: LineGraph): Segment[] {
  const out: Segment[] = [];
  for (let start = 0; start < g.cells; start++) {
    out.push({ cells: [start], mask: cellBit(start) });
    for (let d = 0; d < g.dirs; d++) {
      const cells = [start];
      let mask = cellBit(start);
      for (let c = g.next[start * g.dirs + d]!; c >= 0; c = g.next[c * g.dirs + d]!) {
        cells.push(c);
        mask += cellBit(c);
        out.push({ cells: cells.slice(), mask });
      }
    }
  }
  return out.sort((a, b) => a.cells[0]! - b.cells[0]! || a.cells[a.cells.length - 1]! - b.cells[b.cells.length - 1]!);
}

/**
 * The graph restricted to the given cells (ascending), renumbered 0..k-1 in that order. A line is
 * cut where a cell is missing, since a take may not jump a gap and coins never return.
 */
export function restrictGraph(g: LineGraph, cells: readonly number[]): LineGraph {
  const compact = new Int8Array(g.cells).fill(-1);
  cells.forEach((c, i) => {
    compact[c] = i;
  });
  const next = new Int8Array(cells.length * g.dirs).fill(-1);
  cells.forEach((c, i) => {
    for (let d = 0; d < g.dirs; d++) {
      const n = g.next[c * g.dirs + d]!;
      next[i * g.dirs + d] = n >= 0 ? compact[n]! : -1;
    }
  });
  return { cells: cells.length, dirs: g.dirs, next };
}

/**
 * The multi-cell segments of a (compact) graph as int32 masks grouped into rays: for cell i and
 * direction d, `masks[off[i*dirs+d] .. off[i*dirs+d+1])` are the segments from i of lengths 2, 3, …
 * along d. A ray is scanned until its first segment that does not fit, since every longer one
 * contains it.
 */
export interface Rays {
  readonly off: Int32Array;
  readonly masks: Int32Array;
}

/** Largest compact graph the tables accept: 2^25 bits (4 MiB) for last-coin, 32 MiB for points. */
export const MAX_TABLE_CELLS = 25;

/**
 * Default caps of the oracles: positions of at most this many coins are solved. The misère table
 * for 25 coins takes about 2 s and 4 MiB; the points table has no early exit (every take of every
 * set is weighed), so 21 coins (the default triangle: about 1 s, 2 MiB) is its practical limit.
 */
export const DEFAULT_CAP: Readonly<Record<'last-coin' | 'points', number>> = { 'last-coin': 25, points: 21 };

/** Builds the rays of a compact graph (at most MAX_TABLE_CELLS cells). */
export function buildRays(g: LineGraph): Rays {
  if (g.cells > MAX_TABLE_CELLS) throw new RangeError(`Expected at most ${MAX_TABLE_CELLS} cells, got ${g.cells}`);
  const off = new Int32Array(g.cells * g.dirs + 1);
  const masks: number[] = [];
  for (let i = 0; i < g.cells; i++) {
    for (let d = 0; d < g.dirs; d++) {
      off[i * g.dirs + d] = masks.length;
      let m = 1 << i;
      for (let c = g.next[i * g.dirs + d]!; c >= 0; c = g.next[c * g.dirs + d]!) {
        m |= 1 << c;
        masks.push(m);
      }
    }
  }
  off[g.cells * g.dirs] = masks.length;
  return { off, masks: Int32Array.from(masks) };
}

/** Reads bit `m` of a bitset. */
export function testBit(bits: Uint32Array, m: number): boolean {
  return ((bits[m >>> 5]! >>> (m & 31)) & 1) === 1;
}

/**
 * The misère (`last-coin`) table of a compact graph: bit m is set when the player to move with
 * exactly the coins of m on the board wins. The empty board is a win for the player to move (the
 * opponent took the last coin); a single coin is a loss (it must be taken). O(2^k) bits.
 *
 * Filled forward in increasing m: when m is reached every take into it (from a larger set) is not
 * yet decided but every take out of it leads to a smaller, final set, so m is decided; if it is a
 * loss (unmarked), every position one take above it (m plus a segment of absent cells) is marked a
 * win. Only the ~10% losing sets do work, which measured about twice as fast as scanning each
 * set's moves for a losing child.
 */
export function misereTable(g: LineGraph): Uint32Array {
  const { off, masks } = buildRays(g);
  const dirs = g.dirs;
  const size = 2 ** g.cells;
  const all = size - 1;
  const bits = new Uint32Array(Math.max(1, size >>> 5));
  bits[0]! |= 1;
  for (let m = 1; m < size; m++) {
    if (((bits[m >>> 5]! >>> (m & 31)) & 1) !== 0) continue;
    const comp = all & ~m;
    let rest = comp;
    while (rest !== 0) {
      const low = rest & -rest;
      rest ^= low;
      const p = m | low;
      bits[p >>> 5]! |= 1 << (p & 31);
      const i = 31 - Math.clz32(low);
      for (let d = 0; d < dirs; d++) {
        const end = off[i * dirs + d + 1]!;
        for (let j = off[i * dirs + d]!; j < end; j++) {
          const s = masks[j]!;
          if ((comp & s) !== s) break;
          const q = m | s;
          bits[q >>> 5]! |= 1 << (q & 31);
        }
      }
    }
  }
  return bits;
}

/** Largest `bonus` the points table holds: future margins must fit an Int8Array (|F| ≤ 25 + bonus). */
export const MAX_BONUS = 100;

/**
 * The `points` table of a compact graph: entry m is the future margin F(m) — the points the player
 * to move will still score minus those the opponent will, the bonus included — under best play from
 * the coins of m. F(∅) = bonus (the player to move did not take the last coin);
 * F(m) = max over takes s of |s| − F(m \ s). Filled in increasing m, like `misereTable`.
 */
export function pointsTable(g: LineGraph, bonus: number): Int8Array {
  if (!Number.isInteger(bonus) || bonus < 0 || bonus > MAX_BONUS) {
    throw new RangeError(`Expected bonus to be an integer in [0, ${MAX_BONUS}], got ${bonus}`);
  }
  const { off, masks } = buildRays(g);
  const dirs = g.dirs;
  const size = 2 ** g.cells;
  const f = new Int8Array(size);
  f[0] = bonus;
  for (let m = 1; m < size; m++) {
    let best = -128;
    let rest = m;
    while (rest !== 0) {
      const low = rest & -rest;
      rest ^= low;
      const single = 1 - f[m ^ low]!;
      if (single > best) best = single;
      const i = 31 - Math.clz32(low);
      for (let d = 0; d < dirs; d++) {
        const start = off[i * dirs + d]!;
        const end = off[i * dirs + d + 1]!;
        for (let j = start; j < end; j++) {
          const s = masks[j]!;
          if ((m & s) !== s) break;
          const v = j - start + 2 - f[m ^ s]!; // the segment at ray index j - start has that many + 2 coins
          if (v > best) best = v;
        }
      }
    }
    f[m] = best;
  }
  return f;
}

/** Which scoring a table answers: misère win/loss or the future points margin. */
export type CoinScoring = 'last-coin' | 'points';

/**
 * Answers positions of one board from tables built over a base position and reused for every
 * position inside it. `win` and `future` take board masks (below 2^36).
 */
export interface CoinOracle {
  /** Largest number of coins a position may hold to be answered. */
  readonly cap: number;
  /** How many tables this oracle has built so far (for benchmarks and tests of the caching). */
  readonly built: number;
  /** last-coin: true when the player to move wins (the empty board included). */
  win(mask: number): boolean;
  /** points: the future margin F(mask) for the player to move, bonus included. */
  future(mask: number): number;
}

interface TableEntry {
  readonly base: number;
  readonly cells: readonly number[];
  readonly bits?: Uint32Array;
  readonly margins?: Int8Array;
}

/** Boards of at most this many coins get one table over the whole board, shared by every deal. */
export const SHARED_TABLE_COINS = 21;

/**
 * A caching oracle for one board and scoring. Positions with more than `cap` coins throw a
 * RangeError (callers check `coinCount` first). A board of at most `shareUpTo` coins gets one
 * table over the whole board, shared by every deal; a larger board gets a table per base position
 * (the first position asked about that is not inside a cached base), keeping the `keep` most
 * recently used, so a game from a dealt position builds one table and answers every later
 * position from it.
 */
export function createCoinOracle(
  g: LineGraph,
  scoring: CoinScoring,
  bonus: number,
  options: { cap?: number; shareUpTo?: number; keep?: number } = {},
): CoinOracle {
  const cap = Math.min(options.cap ?? DEFAULT_CAP[scoring], MAX_TABLE_CELLS);
  const shareUpTo = options.shareUpTo ?? SHARED_TABLE_COINS;
  const keep = Math.max(1, options.keep ?? 4);
  const full = g.cells <= shareUpTo && g.cells <= cap ? 2 ** g.cells - 1 : null;
  const cache: TableEntry[] = [];
  let built = 0;

  const entryFor = (mask: number): TableEntry => {
    const i = cache.findIndex((e) => isSubmask(mask, e.base));
    if (i >= 0) {
      const hit = cache[i]!;
      if (i > 0) cache.unshift(...cache.splice(i, 1));
      return hit;
    }
    const base = full ?? mask;
    const cells = maskCells(base, g.cells);
    if (cells.length > cap) throw new RangeError(`Expected a position of at most ${cap} coins, got ${cells.length}`);
    const sub = full !== null ? g : restrictGraph(g, cells);
    const entry: TableEntry =
      scoring === 'last-coin' ? { base, cells, bits: misereTable(sub) } : { base, cells, margins: pointsTable(sub, bonus) };
    built++;
    cache.unshift(entry);
    if (cache.length > keep) cache.length = keep;
    return entry;
  };

  // The compact index of a board mask inside its base: bit t set when the base's t-th cell is present.
  const compact = (mask: number, e: TableEntry): number => {
    if (e.base === full) return mask;
    let idx = 0;
    e.cells.forEach((c, t) => {
      if (hasCell(mask, c)) idx |= 1 << t;
    });
    return idx;
  };

  // The scoring picks the methods once, here: the hot `win` and `future` test nothing per call.
  const win = (mask: number): boolean => {
    const e = entryFor(mask);
    return testBit(e.bits!, compact(mask, e));
  };
  const future = (mask: number): number => {
    const e = entryFor(mask);
    return e.margins![compact(mask, e)]!;
  };
  const lastCoin = scoring === 'last-coin';
  return {
    cap,
    get built() {
      return built;
    },
    win: lastCoin ? win : wrongScoring('win() needs a last-coin oracle'),
    future: lastCoin ? wrongScoring('future() needs a points oracle') : future,
  };
}

/** A method of the other scoring's oracle: always a programming error. */
function wrongScoring(message: string): () => never {
  return () => {
    throw new Error(message);
  };
}
