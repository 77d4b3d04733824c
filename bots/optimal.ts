/**
 * optimal: exact play from the game's solver. `bestMove` carries the family's tie-break (largest
 * winning take in subtraction games), prolongs a lost game, and maximises the margin in scored games.
 * Where the solver searches rather than looks up (a 36-coin board without its table file), it plays
 * the move proved before the deadline, and the greedy move when none is proved in time.
 */
import { cachedSolver, defineBot, greedyMove, solverMove, warmSolver } from 'take-arena';

export default defineBot({
  name: 'optimal',
  description: "perfect play from the game's solver: the family's winning tie-break, the longest defence when lost, the best margin when scored",
  supports: (game) => cachedSolver(game) !== undefined,
  prepare: (game) => warmSolver(game),
  choose({ game, state, moves, deadline, rng }) {
    if (!cachedSolver(game)) throw new Error(`optimal: ${game.id} has no solver`);
    return solverMove(game, state, moves, deadline) ?? greedyMove(game, state, moves, rng);
  },
});
