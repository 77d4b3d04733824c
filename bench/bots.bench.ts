/**
 * Search speed of the generic bots: minimax positions per second and depth reached in 1 s, MCTS
 * playouts per second, on each family's default variant (first dealt position).
 */
import { createRng } from '../src/core/rng.ts';
import { FAMILIES, makeGame } from '../src/games/index.ts';
import { mctsSearch, negamaxSearch, TranspositionTable } from '../src/strategies/index.ts';
import { report } from './util.ts';

for (const family of FAMILIES) {
  const game = makeGame(family.id, {});
  const s = game.deal(createRng(1));
  const moves = game.moves(s);
  if (moves.length === 0) continue;
  let t0 = performance.now();
  const r = negamaxSearch(game, s, moves, { maxDepth: 10_000, stopAt: Date.now() + 1000, table: new TranspositionTable() });
  let ms = performance.now() - t0;
  report(
    `minimax ${family.id} (default variant), 1 s`,
    `${Math.round((r.nodes / ms) * 1000).toLocaleString('en')} nodes/s, depth ${r.depth}${r.exact ? ' (exact)' : ''}, ${ms.toFixed(0)} ms`,
  );
  t0 = performance.now();
  const m = mctsSearch(game, s, moves, createRng(1), { iterations: 1e9, stopAt: Date.now() + 1000, exploration: 1.41 });
  ms = performance.now() - t0;
  report(`mcts ${family.id} (default variant), 1 s`, `${Math.round((m.iterations / ms) * 1000).toLocaleString('en')} playouts/s`);
}
