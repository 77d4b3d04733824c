/**
 * hybrid: plays greedily (or at random) while much game is left and exactly once `game.size` is at
 * most the threshold (seeds 003 and 004: "choose greedily until the list is short enough to plan
 * ahead"). Exact play uses the game's solver, or a full negamax search when the game has none.
 */
import { createRng, defineBot, TooLargeError, enumSchema, intSchema, type AnyGame, type Solver } from '../src/index.ts';
import { greedyMove, negamaxSearch, sameMove, stopTime } from '../src/arena/search.ts';

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
  try {
    solver.bestMove(game.deal(createRng(0)));
  } catch (err) {
    if (!(err instanceof TooLargeError)) throw err;
  }
}

export default defineBot({
  name: 'hybrid',
  description: 'greedy (or random) while game.size is above the threshold, exact play at or below it',
  options: {
    threshold: {
      schema: intSchema(0),
      description: 'largest size (stones, coins, numbers left) at which it plays exactly',
      expected: 'a non-negative integer',
      default: 14,
    },
    early: {
      schema: enumSchema(['greedy', 'random']),
      description: 'how it plays above the threshold',
      expected: 'greedy or random',
      default: 'greedy' as 'greedy' | 'random',
      choices: ['greedy', 'random'],
    },
  },
  supports: (game) => typeof game.size === 'function',
  prepare: (game) => warmUp(game),
  choose({ game, state, moves, rng, deadline, options }) {
    const size = game.size?.(state) ?? Infinity;
    if (size > options.threshold) {
      return options.early === 'random' ? rng.pick(moves) : greedyMove(game, state, moves, rng);
    }
    const solver = solverOf(game);
    const best = solver?.bestMove(state);
    const move = best === undefined || best === null ? undefined : sameMove(game, moves, best);
    if (move !== undefined) return move;
    return negamaxSearch(game, state, moves, { maxDepth: Number.MAX_SAFE_INTEGER, stopAt: stopTime(deadline) }).move;
  },
});
