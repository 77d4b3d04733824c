/**
 * hybrid: plays greedily (or at random) while much game is left and exactly once `game.size` is at
 * most the threshold ("choose greedily until the list is short enough to plan ahead"). Exact play
 * uses the game's solver, or a full negamax search when the game has none.
 */
import { budgetDeadline, defineBot, enumSchema, greedyMove, intSchema, negamaxSearch, solverMove, stopTime, warmSolver } from 'take-arena';

/** Positions the exact search of a game without a solver may visit per move (deterministic; the clock is a safety net). */
const SEARCH_NODES = 200_000;

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
  prepare: (game) => warmSolver(game),
  choose({ game, state, moves, rng, deadline, clock, options, clockStopped, now = Date.now }) {
    const size = game.size?.(state) ?? Infinity;
    if (size > options.threshold) {
      return options.early === 'random' ? rng.pick(moves) : greedyMove(game, state, moves, rng);
    }
    // Under a time control, a share of the bank rather than all of it (see `budgetDeadline`).
    const by = budgetDeadline(deadline, clock, now());
    const move = solverMove(game, state, moves, by);
    if (move !== undefined) return move;
    // A solver that came back empty ran out of time; a game without one gets a budgeted search.
    if (game.solver?.()) clockStopped?.();
    const result = negamaxSearch(game, state, moves, { maxDepth: Number.MAX_SAFE_INTEGER, maxNodes: SEARCH_NODES, stopAt: stopTime(by, now()), now });
    if (result.clockStopped) clockStopped?.();
    return result.move;
  },
});
