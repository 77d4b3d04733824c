/**
 * optimal: exact play from the game's solver. `bestMove` carries the family's tie-break (largest
 * winning take in subtraction games), prolongs a lost game, and maximises the margin in scored games.
 * Where the solver searches rather than looks up (a 36-coin board without its table file), it asks
 * for a move proved before the deadline and plays the greedy move when none is proved in time.
 */
import { createRng, defineBot, type AnyGame, type Solver } from '../src/index.ts';
import { greedyMove, sameMove } from '../src/arena/search.ts';

/** Time kept back from the deadline for the reply to travel. */
const MARGIN_MS = 50;

// A solver may build large tables on first use; keep one per variant for the bot's lifetime
// (bounded, so a long tournament over many variants cannot grow it without limit).
const solvers = new Map<string, Solver<unknown, unknown> | undefined>();

function solverOf(game: AnyGame): Solver<unknown, unknown> | undefined {
  if (!solvers.has(game.id)) {
    if (solvers.size >= 16) solvers.delete(solvers.keys().next().value!);
    solvers.set(game.id, game.solver?.());
  }
  return solvers.get(game.id);
}

/**
 * Builds the variant's solver and warms it with one answer on a dealt position, so the first
 * real move does not pay for the tables (the 21-coin triangle's takes ~120 ms, more under load,
 * over a tight time limit). In per-deal families (End Game rows) this only caches that one deal,
 * which is cheap; a position the solver cannot prove in its budget is left to the moves.
 */
function warmUp(game: AnyGame): void {
  const solver = solverOf(game);
  if (!solver) return;
  const start = game.deal(createRng(0));
  // A searching solver gets a short try: its positions are proved move by move, within each deadline.
  if (solver.bestMoveBy) solver.bestMoveBy(start, Date.now() + 1000);
  else solver.bestMove(start);
}

export default defineBot({
  name: 'optimal',
  description: "perfect play from the game's solver: the family's winning tie-break, the longest defence when lost, the best margin when scored",
  supports: (game) => solverOf(game) !== undefined,
  prepare: (game) => warmUp(game),
  choose({ game, state, moves, deadline, rng }) {
    const solver = solverOf(game);
    if (!solver) throw new Error(`optimal: ${game.id} has no solver`);
    const best = solver.bestMoveBy ? solver.bestMoveBy(state, deadline - MARGIN_MS) : solver.bestMove(state);
    if (best === undefined) return greedyMove(game, state, moves, rng); // not proved in time
    const move = best === null ? undefined : sameMove(game, moves, best);
    if (move === undefined) throw new Error(`optimal: the solver gave no legal move in ${game.describe(state)}`);
    return move;
  },
});
