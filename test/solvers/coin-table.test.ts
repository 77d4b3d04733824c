import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createVariant } from '../../src/core/index.ts';
import { coins, type CoinsState } from '../../src/games/coins.ts';
import { boardSymmetries, createCoinSearch } from '../../src/solvers/coin-search.ts';
import { buildTableParallel } from '../../src/solvers/coin-table-build.ts';
import { openTableFile, writeTableFile, type TableMeta } from '../../src/solvers/coin-table-file.ts';
import { buildTable, MAX_CHUNK_BITS, readBit, tableIndex, tableLayout } from '../../src/solvers/coin-table.ts';
import { createBlockOracle } from '../../src/solvers/coin-block-oracle.ts';
import { boardSegments, createCoinOracle, misereTable, squareGraph, testBit, triangleGraph, type LineGraph } from '../../src/solvers/coins.ts';

const graphOf = (board: 'square' | 'triangle', size: number): LineGraph => (board === 'square' ? squareGraph(size) : triangleGraph(size));

const memos = new Map<LineGraph, Map<number, boolean>>();
const segmentsOf = new Map<LineGraph, ReturnType<typeof boardSegments>>();

/** Plain minimax over the board's segments, memoized by mask: the misère rule by definition. */
function bruteWins(g: LineGraph, mask: number): boolean {
  if (mask === 0) return true; // the opponent took the last coin
  let memo = memos.get(g);
  if (!memo) memos.set(g, (memo = new Map()));
  const known = memo.get(mask);
  if (known !== undefined) return known;
  let segs = segmentsOf.get(g);
  if (!segs) segmentsOf.set(g, (segs = boardSegments(g)));
  const win = segs.some((s) => (mask & s.mask) === s.mask && !bruteWins(g, mask & ~s.mask));
  memo.set(mask, win);
  return win;
}

const randomMask = (cells: number, k: number, rng: () => number): number => {
  const order = Array.from({ length: cells }, (_, i) => i);
  for (let i = cells - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, k).reduce((m, c) => m + 2 ** c, 0);
};

describe('whole-board table (word-parallel, in blocks)', () => {
  it.each([
    ['square', 3, 0, 2],
    ['square', 3, 2, 1],
    ['square', 4, 0, 6],
    ['square', 4, 5, 2],
    ['triangle', 3, 0, 0],
    ['triangle', 5, 3, 3],
    ['triangle', 5, 6, 2],
    ['triangle', 5, 0, 10],
    ['square', 4, 1, 8],
  ] as const)('matches the subset table on the %s %i (blockBits %i, chunkBits %i)', (board, size, blockBits, chunkBits) => {
    const g = graphOf(board, size);
    const layout = tableLayout(g, blockBits, chunkBits);
    const blocks = buildTable(layout);
    const ref = misereTable(g);
    const index = tableIndex(layout);
    for (let m = 0; m < 2 ** g.cells; m++) {
      if (readBit(layout, blocks, index.of(m)) !== testBit(ref, m)) throw new Error(`mask ${m} differs`);
      if (index.mask(index.of(m)) !== m) throw new Error(`index of ${m} does not round-trip`);
    }
  });

  it('stays right when builds of different layouts alternate in one thread (each brings its own take lists)', () => {
    // Two chunk sizes of the 15-coin triangle: both settle chunks through the module's copy of
    // their lists (single coins in a word), and the lists differ.
    const g = triangleGraph(5);
    const ref = misereTable(g);
    const layouts = [tableLayout(g, 3, 3), tableLayout(g, 2, 5)];
    const built = layouts.map((layout) => buildTable(layout));
    buildTable(layouts[0]!, built[0]); // back to the first layout's lists
    layouts.forEach((layout, i) => {
      const index = tableIndex(layout);
      for (let m = 0; m < 2 ** g.cells; m++) if (readBit(layout, built[i]!, index.of(m)) !== testBit(ref, m)) throw new Error(`layout ${i}: mask ${m} differs`);
    });
  });

  it('rejects chunks above MAX_CHUNK_BITS', () => {
    expect(() => tableLayout(squareGraph(5), 0, MAX_CHUNK_BITS + 1)).toThrow(RangeError);
  });

  it('matches plain minimax on small squares, and the memoized search on the 5×5 square', () => {
    for (const side of [3, 4]) {
      const g = squareGraph(side);
      const layout = tableLayout(g);
      const blocks = buildTable(layout);
      const index = tableIndex(layout);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: Math.min(2 ** g.cells - 1, 2 ** 12 - 1) }), (m) => {
          expect(readBit(layout, blocks, index.of(m))).toBe(bruteWins(g, m));
        }),
        { numRuns: 60 },
      );
    }
    const g = squareGraph(5);
    const layout = tableLayout(g);
    const blocks = buildTable(layout);
    const index = tableIndex(layout);
    const search = createCoinSearch(g, { symmetries: boardSymmetries('square', 5), ttBits: 18 });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 14 }), fc.double({ min: 0, max: 1, noNaN: true }), (k, seed) => {
        let x = seed;
        const m = randomMask(25, k, () => (x = (x * 9301 + 0.49297) % 1));
        expect(search.wins(m)).toBe(readBit(layout, blocks, index.of(m)));
      }),
      { numRuns: 60 },
    );
    expect(readBit(layout, blocks, index.of(2 ** 25 - 1))).toBe(true); // 5×5: a first-player win
  });

  it('builds the same table on two worker threads as on one thread', async () => {
    // One board (each build starts two workers, which is most of the time here); the triangles
    // and larger squares are compared in bench/coins.bench.ts and by the CLI test.
    // The second case: 128 small blocks on three workers, each block handed out as soon as the
    // blocks it reads are final (no barrier between popcount layers).
    for (const [board, size, blockBits, workers] of [
      ['square', 4, 4, 2],
      ['square', 4, 7, 3],
    ] as const) {
      const g = graphOf(board, size);
      const single = buildTable(tableLayout(g, blockBits));
      const seen: number[] = [];
      const { blocks } = await buildTableParallel(g, { workers, blockBits, onProgress: (f) => seen.push(f) });
      expect(blocks.length).toBe(single.length);
      blocks.forEach((b, h) => expect(Array.from(b)).toEqual(Array.from(single[h]!)));
      expect(seen[seen.length - 1]).toBe(1);
    }
  });

  const dir = mkdtempSync(join(os.tmpdir(), 'coin-table-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a table file and answers from it, and ignores a missing one', () => {
    const g = squareGraph(4);
    const layout = tableLayout(g, 3);
    const blocks = buildTable(layout);
    const meta: TableMeta = {
      format: 1,
      board: 'square',
      size: 4,
      cells: 16,
      blockBits: layout.blockBits,
      chunkBits: layout.chunkBits,
      order: layout.order,
      bytes: blocks.length * blocks[0]!.byteLength,
      buildMs: 0,
      workers: 1,
      fullBoardWins: true,
    };
    writeTableFile(dir, 'coins-square4', blocks, meta);
    const file = openTableFile(dir, 'coins-square4', g)!;
    const ref = misereTable(g);
    for (let m = 0; m < 2 ** 16; m += 37) expect(file.win(m)).toBe(testBit(ref, m));
    file.close();
    expect(openTableFile(dir, 'coins-square5', squareGraph(5))).toBeUndefined();
    expect(() => openTableFile(dir, 'coins-square4', triangleGraph(5))).toThrow(/another layout/);
  });
});

describe('block oracle (word-parallel tables per position)', () => {
  it('answers positions of the 6×6 square and their sub-positions like the subset tables', () => {
    const g = squareGraph(6);
    const blocks = createBlockOracle(g, 18);
    const ref = createCoinOracle(g, 'last-coin', 0, { cap: 18, shareUpTo: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 14 }), fc.double({ min: 0, max: 1, noNaN: true }), (k, seed) => {
        let x = seed;
        const next = (): number => (x = (x * 9301 + 0.49297) % 1);
        const base = randomMask(36, k, next);
        expect(blocks.win(base)).toBe(ref.win(base));
        expect(blocks.covers(base)).toBe(true);
        // a sub-position: drop about half the coins
        let sub = 0;
        for (let c = 0; c < 36; c++) if (Math.floor(base / 2 ** c) % 2 === 1 && next() < 0.5) sub += 2 ** c;
        expect(blocks.win(sub)).toBe(ref.win(sub));
      }),
      { numRuns: 40 },
    );
    expect(() => blocks.win(2 ** 19 - 1)).toThrow(RangeError);
  });
});

describe('board symmetries', () => {
  it.each([
    ['square', 3, 8],
    ['square', 6, 8],
    ['triangle', 4, 6],
    ['triangle', 8, 6],
  ] as const)('the %s %i has %i symmetries, each a permutation mapping takes to takes', (board, size, count) => {
    const g = graphOf(board, size);
    const syms = boardSymmetries(board, size);
    expect(syms.length).toBe(count);
    expect(syms[0]).toEqual(Array.from({ length: g.cells }, (_, i) => i));
    const takes = new Set(boardSegments(g).map((s) => s.cells.slice().sort((a, b) => a - b).join(',')));
    for (const p of syms) {
      expect(new Set(p).size).toBe(g.cells);
      expect(p.every((x) => Number.isInteger(x) && x >= 0 && x < g.cells)).toBe(true);
      for (const s of boardSegments(g)) {
        const image = s.cells.map((c) => p[c]!).sort((a, b) => a - b).join(',');
        expect(takes.has(image)).toBe(true);
      }
    }
    expect(new Set(syms.map((p) => p.join(','))).size).toBe(count);
  });
});

describe('memoized coin search', () => {
  it('agrees with plain minimax on random positions of small boards (fast-check)', () => {
    for (const [board, size] of [
      ['square', 3],
      ['square', 4],
      ['triangle', 5],
    ] as const) {
      const g = graphOf(board, size);
      const search = createCoinSearch(g, { symmetries: boardSymmetries(board, size), ttBits: 14 });
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** g.cells - 1 }), (m) => {
          expect(search.wins(m)).toBe(bruteWins(g, m));
        }),
        { numRuns: 80 },
      );
    }
  });

  it('takes the winning take with the most coins, and a single coin when lost', () => {
    const g = triangleGraph(5);
    const ref = misereTable(g);
    const search = createCoinSearch(g, { symmetries: boardSymmetries('triangle', 5), ttBits: 16 });
    const segs = boardSegments(g);
    for (let m = 1; m < 2 ** 15; m += 331) {
      const take = search.bestTake(m)!;
      const legal = segs.filter((s) => (m & s.mask) === s.mask);
      const winning = legal.filter((s) => !testBit(ref, m & ~s.mask));
      const chosen = legal.find((s) => s.mask === take)!;
      expect(chosen).toBeDefined();
      if (winning.length === 0) expect(chosen.cells.length).toBe(1);
      else {
        expect(winning).toContain(chosen);
        expect(chosen.cells.length).toBe(Math.max(...winning.map((s) => s.cells.length)));
      }
    }
  });

  it('gives up (undefined) at a deadline that has passed, and keeps working afterwards', () => {
    const g = squareGraph(6);
    const search = createCoinSearch(g, { symmetries: boardSymmetries('square', 6), ttBits: 16 });
    const full = 2 ** 36 - 1;
    expect(search.wins(full, Date.now() - 1)).toBeUndefined();
    expect(search.bestTake(full, Date.now() - 1)).toBeUndefined();
    expect(search.wins(2 ** 35 + 2 ** 34 + 2 ** 0)).toBe(true); // three coins, two adjacent: take those two
  });
});

describe('coins solver on big boards', () => {
  it('is offered for the full 6×6 square under last-coin and falls back by deadline', () => {
    const previous = process.env.TAKE_ARENA_CACHE;
    process.env.TAKE_ARENA_CACHE = mkdtempSync(join(os.tmpdir(), 'coin-cache-')); // no table file there
    try {
      const game = createVariant(coins, { board: 'square' });
      const solver = game.solver!()!;
      expect(solver).toBeDefined();
      expect(solver.bestMoveBy).toBeDefined();
      const start = game.deal({ seed: 0, float: () => 0, int: (lo) => lo, pick: (xs) => xs[0]!, shuffle: (xs) => xs.slice() });
      expect(solver.bestMoveBy!(start, Date.now() - 1)).toBeUndefined();
      // A 21-coin position (rows 1–3 and coins 31, 34, 36): beyond the subset tables' 20, proved
      // by the search (a win, as bench/c/coins_search.c also finds); the move must keep the win.
      const state: CoinsState = { coins: 2 ** 18 - 1 + 2 ** 30 + 2 ** 33 + 2 ** 35, turn: 'first', scores: [0, 0] };
      const move = solver.bestMoveBy!(state, Date.now() + 20_000);
      expect(move).toBeTruthy();
      expect(solver.value(state)).toBe(1);
      expect(solver.value(game.play(state, move!))).toBe(-1);
      expect(createVariant(coins, { board: 'square', scoring: 'points' }).solver!()).toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.TAKE_ARENA_CACHE;
      else process.env.TAKE_ARENA_CACHE = previous;
    }
  });
});
