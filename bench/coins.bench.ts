/**
 * Coin board (GAMES.md 5): time and memory to solve whole boards with the subset tables, and an
 * independent check of the 21-coin triangle's value by plain memoized search over the game's rules.
 * `npm run bench -- coins`
 */
import { createRng, createVariant } from '../src/core/index.ts';
import { coins, type CoinsState } from '../src/games/coins.ts';
import { misereTable, pointsTable, popcount32, squareGraph, testBit, triangleGraph, type LineGraph } from '../src/solvers/coins.ts';
import { report } from './util.ts';

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

function misere(label: string, g: LineGraph): void {
  const heap0 = process.memoryUsage().arrayBuffers;
  const { value: bits, ms } = timed(() => misereTable(g));
  const full = 2 ** g.cells - 1;
  let losing = 0;
  for (let m = 0; m <= full; m++) if (!testBit(bits, m)) losing++;
  report(`${label}: last-coin table, 2^${g.cells} sets`, `${ms.toFixed(0)} ms, ${mib(bits.byteLength)} (+${mib(process.memoryUsage().arrayBuffers - heap0)} buffers)`);
  report(`${label}: full board`, `${testBit(bits, full) ? 'first player wins (N)' : 'second player wins (P)'}; ${((100 * losing) / (full + 1)).toFixed(1)}% of sets lost for the mover`);
}

function points(label: string, g: LineGraph, bonus: number): void {
  const { value: f, ms } = timed(() => pointsTable(g, bonus));
  report(`${label}: points table (bonus ${bonus}), 2^${g.cells} sets`, `${ms.toFixed(0)} ms, ${mib(f.byteLength)}; full board margin ${f[2 ** g.cells - 1]}`);
}

misere('triangle 6 rows (21 coins)', triangleGraph(6));
misere('square 5×5 (25 coins)', squareGraph(5));
points('triangle 6 rows (21 coins)', triangleGraph(6), 3);
points('square 4×4 (16 coins)', squareGraph(4), 3);

// The 21-coin triangle a second way: memoized search over the game's own moves/play, no tables.
{
  const game = createVariant(coins, {});
  const start = game.deal(createRng(1));
  const memo = new Map<number, boolean>();
  const wins = (s: CoinsState): boolean => {
    if (s.coins === 0) return true; // the opponent took the last coin
    const known = memo.get(s.coins);
    if (known !== undefined) return known;
    const w = game.moves(s).some((m) => !wins(game.play(s, m)));
    memo.set(s.coins, w);
    return w;
  };
  const { value, ms } = timed(() => wins(start));
  report('triangle 6 rows: plain memoized search (check)', `${value ? 'first player wins (N)' : 'second player wins (P)'} in ${ms.toFixed(0)} ms, ${memo.size} positions`);
  const solver = game.solver!()!;
  const best = solver.bestMove(start)!;
  report('triangle 6 rows: reference first move', `${game.formatMove(best)} (search says the rest is ${wins(game.play(start, best)) ? 'won' : 'lost'} for the opponent)`);
}

// A bot's first answer on dealt positions of the 36-coin square: one compact table per deal.
{
  const game = createVariant(coins, { board: 'square', start: 25 / 36 });
  const solver = game.solver!()!;
  const { ms } = timed(() => solver.bestMove(game.deal(createRng(7))));
  report('square 6×6, 25 coins dealt: first bestMove (table build)', `${ms.toFixed(0)} ms`);
  const small = createVariant(coins, { board: 'square', start: 0.5 });
  const s2 = small.solver!()!;
  const { ms: ms2 } = timed(() => s2.bestMove(small.deal(createRng(7))));
  report('square 6×6, 18 coins dealt: first bestMove (table build)', `${ms2.toFixed(0)} ms`);
}

// ---- Issue 6 §3: whole-board tables (word-parallel blocks) and the memoized search, against C ----
// (bench/c/coins_table.c runs the same block algorithm on the layout computed here, so both sides
// fill exactly the same table; the C side reads the layout from a file.)
{
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { compareWithC, onOneCpu, runC, reportRatio } = await import('./c.ts');
  const { buildTable, chunkTakes, tableLayout, readBit, tableIndex } = await import('../src/solvers/coin-table.ts');
  const { buildTableParallel } = await import('../src/solvers/coin-table-build.ts');
  const { createCoinSearch, boardSymmetries } = await import('../src/solvers/coin-search.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'coins-bench-'));
  const layoutFile = (name: string, layout: ReturnType<typeof tableLayout>): string => {
    const { w, b } = chunkTakes(layout);
    const pairs = Array.from(w, (x, i) => `${x} ${b[i]}`);
    const text = [
      `${layout.cells} ${layout.blockBits} ${layout.wordBits} ${layout.chunkBits}`,
      `${layout.inWord.length} ${Array.from(layout.inWord).join(' ')}`,
      `${layout.cross.length / 4} ${Array.from(layout.cross).join(' ')}`,
      `${w.length} ${pairs.join(' ')}`,
    ].join('\n');
    const file = join(tmp, `${name}.layout`);
    writeFileSync(file, `${text}\n`);
    return file;
  };

  // The 21-coin triangle, single-threaded on both sides. A build takes milliseconds, so each side
  // takes the median of 25 builds, over 5 alternating rounds. Both sides rebuild into the blocks
  // they allocated once (C mallocs its blocks once too): a build, not the OS's page faults.
  const tri = tableLayout(triangleGraph(6));
  const blocks = buildTable(tri);
  const c21 = compareWithC('triangle 6 rows (21 coins): whole-board table', () => void buildTable(tri, blocks), 25, 'coins_table', [layoutFile('tri6', tri), '25'], 5);
  const triWins = readBit(tri, blocks, tableIndex(tri).of(2 ** 21 - 1));
  if (c21 && c21.values['full_board_wins'] !== (triWins ? '1' : '0')) throw new Error('C and TS disagree on the 21-coin triangle');
  report('triangle 6 rows: full board (table)', triWins ? 'first player wins (N)' : 'second player wins (P)');

  // The 25-coin square and the 28-coin triangle on two workers (worker start-up included).
  for (const [label, g] of [
    ['square 5×5 (25 coins)', squareGraph(5)],
    ['triangle 7 rows (28 coins)', triangleGraph(7)],
  ] as const) {
    const t0 = performance.now();
    const built = await buildTableParallel(g, { workers: 2 });
    const ms = performance.now() - t0;
    const wins = readBit(built.layout, built.blocks, tableIndex(built.layout).of(2 ** g.cells - 1));
    report(`${label}: whole-board table, 2 workers`, `${ms.toFixed(0)} ms; full board: ${wins ? 'first player wins (N)' : 'second player wins (P)'}`);
  }

  // The memoized search alone on random 24-coin positions of the 6×6 square (a fresh search each,
  // fixed seed), and bench/c/coins_search.c (the same algorithm: isolated coins split off as a
  // parity, killer and counter takes first, transposition cutoffs as the takes are generated, fewest
  // core coins first; 64-bit masks) on the same positions with the same budget per position; a
  // position not proved in time counts at the budget. On positions both prove, both count the same
  // nodes (expanded positions).
  {
    const g = squareGraph(6);
    const rng = createRng(2024);
    const times: number[] = [];
    const results: (boolean | undefined)[] = [];
    const masks: number[] = [];
    const positions = Number(process.env.COINS_SEARCH_POSITIONS ?? 10);
    const coinsPer = Number(process.env.COINS_SEARCH_COINS ?? 24);
    const budget = Number(process.env.COINS_SEARCH_BUDGET_MS ?? 10_000);
    let tsNodes = 0;
    // Both sides on one CPU (bench/c.ts `onOneCpu`).
    onOneCpu(() => {
      for (let i = 0; i < positions; i++) {
        const cells = rng.shuffle(Array.from({ length: 36 }, (_, k) => k)).slice(0, coinsPer);
        const mask = cells.reduce((m, c) => m + 2 ** c, 0);
        masks.push(mask);
        const search = createCoinSearch(g, { symmetries: boardSymmetries('square', 6) });
        const t0 = performance.now();
        const r = search.wins(mask, Date.now() + budget);
        tsNodes += search.stats.nodes;
        results.push(r);
        times.push(r === undefined ? budget : performance.now() - t0);
      }
    });
    const unproved = results.filter((r) => r === undefined).length;
    const sorted = [...times].sort((a, b) => a - b);
    const tsMedian = sorted[Math.floor(sorted.length / 2)]!;
    report(
      `square 6×6: memoized search, ${positions} random ${coinsPer}-coin positions`,
      `TS median ${tsMedian.toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)})${unproved ? `, ${unproved} unproved in ${budget} ms` : ''}${coinsPer === 24 && tsMedian >= 1000 ? ' (target: median under 1 s)' : ''}`,
    );
    // What the coins solver actually does for such positions: one word-parallel table over the
    // position's subsets (src/solvers/coin-block-oracle.ts).
    const { createBlockOracle } = await import('../src/solvers/coin-block-oracle.ts');
    const blockTimes = masks.map((mask, i) => {
      const oracle = createBlockOracle(g);
      const t0 = performance.now();
      const w = oracle.win(mask);
      const ms = performance.now() - t0;
      if (results[i] !== undefined && results[i] !== w) throw new Error(`block table and search disagree on position ${i}`);
      return ms;
    });
    blockTimes.sort((a, b) => a - b);
    report(
      `square 6×6: ${coinsPer}-coin positions by a block table each`,
      `median ${blockTimes[Math.floor(blockTimes.length / 2)]!.toFixed(0)} ms (max ${blockTimes[blockTimes.length - 1]!.toFixed(0)})`,
    );
    const c = onOneCpu(() => runC('coins_search', [String(budget), ...masks.map(String)]));
    if (c) {
      const cUnproved = results.filter((_, i) => c.values[`win_${i}`] === '2').length;
      if (cUnproved) report(`square 6×6: C search, unproved in ${budget} ms`, `${cUnproved} of ${positions}`);
    }
    report(`square 6×6: search nodes, all ${positions} positions`, `TS ${tsNodes}${c ? `, C ${c.values['nodes']}` : ''}`);
    // Issue 6's search target is absolute (median under 1 s at 24 coins), not a ratio.
    reportRatio(`square 6×6: search, ${coinsPer} coins (TS/C of medians)`, tsMedian, c, null);
    if (c) {
      results.forEach((r, i) => {
        const cw = c.values[`win_${i}`];
        if (r !== undefined && cw !== '2' && cw !== (r ? '1' : '0')) throw new Error(`C and TS searches disagree on position ${i}`);
      });
    }
  }

  // The 36-coin square's build rate from a partial run (BENCH_BLOCKS=n: blocks 0 .. n-1 of its 64,
  // each a real block with its real dependencies), TS on one thread against C on one thread, and
  // an estimate of the whole build: each block's time scaled by its count of (word, take) steps.
  const partialBlocks = Number(process.env.BENCH_BLOCKS ?? 0);
  if (partialBlocks > 0) {
    // TS runs on one worker thread started from a plain-JS bundle, as the real build's workers do
    // (coin-table-build.ts): in this tsx-registered main thread V8 re-checks every typed-array
    // access for a detached buffer (Node's module hooks detach one), about 30% slower here.
    const { bundleScript } = await import('../src/platform/bundle.ts');
    const { SOLVERS_DIR } = await import('../src/solvers/coin-table-build.ts');
    const { Worker } = await import('node:worker_threads');
    const workerSource = `
      import { parentPort } from 'node:worker_threads';
      import { computeBlock, tableLayout } from './coin-table.ts';
      import { squareGraph } from './coins.ts';
      parentPort!.once('message', (n: number) => {
        const layout = tableLayout(squareGraph(6));
        const words = 2 ** layout.wordBits;
        const parts = Array.from({ length: 2 ** layout.blockBits }, (_, h) => new Int32Array(h < n ? words : 0));
        const times: number[] = [];
        for (let h = 0; h < n; h++) {
          const t0 = performance.now();
          computeBlock(layout, parts, h);
          times.push(performance.now() - t0);
        }
        parentPort!.postMessage(times);
      });
    `;
    const partialWorker = new Worker(await bundleScript(workerSource, SOLVERS_DIR, 'coins-bench-partial'));
    const { chunkFits } = await import('../src/solvers/coin-table.ts');
    const layout = tableLayout(squareGraph(6));
    const n = Math.min(partialBlocks, 2 ** layout.blockBits - 1);
    const tsTimes = await new Promise<number[]>((resolve, reject) => {
      partialWorker.once('message', resolve);
      partialWorker.once('error', reject);
      partialWorker.postMessage(n);
    });
    await partialWorker.terminate();
    const tsMs = tsTimes.reduce((a, b) => a + b, 0);
    const c = runC('coins_table', [layoutFile('square6', layout), '0', String(n)]);
    // Steps per word of block h: the fitting in-chunk takes, plus each take above the chunk whose
    // block part fits h, weighted by the share of words it reaches.
    const fits = chunkFits(layout);
    const chunkWords = 2 ** layout.chunkBits;
    const inChunk = (fits[chunkWords]! - chunkWords - 1) / 2 / chunkWords;
    const weight = (h: number): number => {
      let x = 1 + inChunk; // 1: the in-word settle and the word's own load and store
      for (let i = 0; i < layout.cross.length; i += 4) {
        const sH = layout.cross[i]!;
        if ((sH & h) === sH) x += 2 ** -(popcount32(layout.cross[i + 1]!) + popcount32(layout.cross[i + 2]!));
      }
      return x;
    };
    let all = 0;
    let measured = 0;
    for (let h = 0; h < 2 ** layout.blockBits; h++) all += weight(h);
    for (let h = 0; h < n; h++) measured += weight(h);
    const scale = all / measured;
    const est = (ms: number): string => `${((ms * scale) / 1000).toFixed(0)} s`;
    report(`square 6×6 (36 coins): blocks 0..${n - 1} of 64, one thread`, `TS ${(tsMs / 1000).toFixed(1)} s${c ? `, C ${(c.medianMs / 1000).toFixed(1)} s, TS/C ${(tsMs / c.medianMs).toFixed(2)}` : ''}`);
    report('square 6×6 (36 coins): whole table, estimated from them', `TS one thread ${est(tsMs)}, TS two workers ≥ ${est(tsMs / 2)}${c ? `, C one thread ${est(c.medianMs)}` : ''}`);
  }

  // The 36-coin square: minutes on both sides, only with BENCH_BIG=1.
  if (process.env.BENCH_BIG === '1') {
    const g = squareGraph(6);
    const t0 = performance.now();
    const built = await buildTableParallel(g, { workers: 2 });
    const tsMs = performance.now() - t0;
    const wins = readBit(built.layout, built.blocks, tableIndex(built.layout).of(2 ** 36 - 1));
    // C at its best: on the faster CPU (the two workers need both).
    const c36 = onOneCpu(() => runC('coins_table', [layoutFile('square6', built.layout), '0']));
    reportRatio('square 6×6 (36 coins): TS on 2 workers vs C on 1 thread', tsMs, c36, 1, true);
    report('square 6×6: full board', wins ? 'first player wins (N)' : 'second player wins (P)');
    if (c36 && c36.values['full_board_wins'] !== (wins ? '1' : '0')) throw new Error('C and TS disagree on the 36-coin square');
  } else report('square 6×6 (36 coins) table', 'skipped (BENCH_BIG=1 runs it: minutes)');
}
