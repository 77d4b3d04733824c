/**
 * optimal: exact play from the game's solver. `bestMove` carries the family's tie-break (largest
 * winning take in subtraction games), prolongs a lost game, and maximises the margin in scored games.
 * Where the solver searches rather than looks up (a 36-coin board without its table file), it plays
 * the move proved before the deadline, and the greedy move when none is proved in time.
 * `strength` below 1 (`optimal:strength=0.6`, or `easy`/`medium`) plays that best move with that
 * probability and a random legal move otherwise, from its seeded rng: an opponent a beginner can beat.
 */
import { atStrength, budgetDeadline, defineBot, greedyMove, solverMove, strengthOption, warmSolver } from 'take-arena';

export default defineBot({
  name: 'optimal',
  description: "perfect play from the game's solver: the family's winning tie-break, the longest defence when lost, the best margin when scored",
  options: { strength: strengthOption },
  supports: (game) => game.solver?.() !== undefined,
  prepare: (game) => warmSolver(game),
  choose({ game, state, moves, deadline, clock, rng, options, clockStopped }) {
    if (!game.solver?.()) throw new Error(`optimal: ${game.id} has no solver`);
    return atStrength(options.strength, rng, moves, () => {
      // Under a time control, a searching solver gets a share of the bank (see `budgetDeadline`).
      const move = solverMove(game, state, moves, budgetDeadline(deadline, clock));
      if (move !== undefined) return move;
      // Only a searching solver comes back empty: it did not prove the position before the deadline.
      clockStopped?.();
      return greedyMove(game, state, moves, rng);
    });
  },
});
