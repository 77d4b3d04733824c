/**
 * A last-coin oracle for single positions of big boards: like `createCoinOracle` (a table over the
 * subsets of a base position, reused for every later position of the game, which lies inside it),
 * but each table is filled by the word-parallel block algorithm of `coin-table.ts` on the board
 * restricted to the base's coins — about four times faster than `misereTable`, which makes a
 * 24-coin position of the 6×6 square a fraction of a second.
 */
import { buildTable, readBit, tableIndex, tableLayout, WORD_CELLS, type TableIndex, type TableLayout } from './coin-table.ts';
import { hasCell, isSubmask, maskCells, misereTable, restrictGraph, testBit, type CoinOracle, type LineGraph } from './coins.ts';

/** Largest position the block oracle takes by default: 2^27 bits (16 MiB), a few seconds. */
export const BLOCK_ORACLE_CAP = 27;

interface Entry {
  readonly base: number;
  readonly cells: readonly number[];
  readonly layout?: TableLayout;
  readonly blocks?: Int32Array[];
  readonly index?: TableIndex;
  readonly small?: Uint32Array;
}

/** A block oracle: a CoinOracle (last-coin) that also tells whether a position is already covered. */
export interface BlockOracle extends CoinOracle {
  /** True when a cached table holds `mask` (answering it costs no build). */
  covers(mask: number): boolean;
}

/** Creates the oracle for board `g`; positions above `cap` coins throw a RangeError. */
export function createBlockOracle(g: LineGraph, cap = BLOCK_ORACLE_CAP, keep = 2): BlockOracle {
  const cache: Entry[] = [];
  let built = 0;
  const entryFor = (mask: number): Entry => {
    const i = cache.findIndex((e) => isSubmask(mask, e.base));
    if (i >= 0) {
      const hit = cache[i]!;
      if (i > 0) cache.unshift(...cache.splice(i, 1));
      return hit;
    }
    const cells = maskCells(mask, g.cells);
    if (cells.length > cap) throw new RangeError(`Expected a position of at most ${cap} coins, got ${cells.length}`);
    const sub = restrictGraph(g, cells);
    let entry: Entry;
    if (cells.length < WORD_CELLS) entry = { base: mask, cells, small: misereTable(sub) };
    else {
      const layout = tableLayout(sub);
      entry = { base: mask, cells, layout, blocks: buildTable(layout), index: tableIndex(layout) };
    }
    built++;
    cache.unshift(entry);
    if (cache.length > keep) cache.length = keep;
    return entry;
  };
  return {
    cap,
    get built() {
      return built;
    },
    win(mask) {
      const e = entryFor(mask);
      let compact = 0;
      e.cells.forEach((c, t) => {
        if (hasCell(mask, c)) compact |= 1 << t;
      });
      return e.small ? testBit(e.small, compact) : readBit(e.layout!, e.blocks!, e.index!.of(compact));
    },
    covers: (mask) => cache.some((e) => isSubmask(mask, e.base)),
    future() {
      throw new Error('the block oracle answers last-coin only');
    },
  };
}
