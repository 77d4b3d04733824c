/**
 * Coin board (GAMES.md 5): time and memory to solve whole boards with the subset tables, and an
 * independent check of the 21-coin triangle's value by plain memoized search over the game's rules.
 * `npm run bench -- coins`
 */
import { createRng, createVariant } from '../src/core/index.ts';
import { coins, type CoinsState } from '../src/games/coins.ts';
import { misereTable, pointsTable, squareGraph, testBit, triangleGraph, type LineGraph } from '../src/solvers/coins.ts';
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
