/** greedy: the move of best immediate gain by the game's own heuristic; ties broken by the rng. */
import { defineBot, greedyMove } from 'take-arena';

export default defineBot({
  name: 'greedy',
  description: "takes the best immediate gain by the game's heuristic (largest take, larger end, most coins or points); ties at random",
  supports: (game) => typeof game.heuristic === 'function',
  choose: ({ game, state, moves, rng }) => greedyMove(game, state, moves, rng),
});
