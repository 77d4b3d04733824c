/** mcts: UCT Monte-Carlo tree search with random playouts from the bot's rng, within the deadline. */
import { defineBot, intSchema, mctsSearch, numberSchema, stopTime } from 'take-arena';

export default defineBot({
  name: 'mcts',
  description: 'UCT Monte-Carlo tree search with random playouts, until the deadline or its iteration cap',
  options: {
    iterations: {
      schema: intSchema(1, 10_000_000),
      description: 'most playouts per move (fewer when the deadline comes first)',
      expected: 'an integer from 1 to 10000000',
      default: 2000,
    },
    c: {
      schema: numberSchema(0, 100),
      description: 'UCB1 exploration constant (about √2 for win/loss rewards)',
      expected: 'a number from 0 to 100',
      default: 1.41,
    },
  },
  choose: ({ game, state, moves, rng, deadline, options }) =>
    mctsSearch(game, state, moves, rng, { iterations: options.iterations, exploration: options.c, stopAt: stopTime(deadline) }).move,
});
