/**
 * mcts: UCT Monte-Carlo tree search with random playouts from the bot's rng. Deterministic: the
 * iteration budget ends each search (1,000 playouts fit 100 ms a move with room to spare); the
 * deadline is a safety net, and when it fires the game's record says so.
 */
import { budgetDeadline, createRng, defineBot, intSchema, mctsSearch, numberSchema, stopTime, warmSearch } from 'take-arena';

export default defineBot({
  name: 'mcts',
  description: 'UCT Monte-Carlo tree search with random playouts, a fixed number per move',
  options: {
    iterations: {
      schema: intSchema(1, 10_000_000),
      description: 'playouts per move (fewer only if the deadline comes first, which the game record notes)',
      expected: 'an integer from 1 to 10000000',
      default: 1000,
    },
    c: {
      schema: numberSchema(0, 100),
      description: 'UCB1 exploration constant (about √2 for win/loss rewards)',
      expected: 'a number from 0 to 100',
      default: 1.41,
    },
  },
  // One search with a generator of its own before the first move: the first timed search is then not a cold one.
  prepare: (game, options) => warmSearch(game, (state, moves, stopAt) => mctsSearch(game, state, moves, createRng(0), { iterations: options.iterations, exploration: options.c, stopAt })),
  choose: ({ game, state, moves, rng, deadline, clock, options, clockStopped, now = Date.now }) => {
    // `now` is the clock the move is charged on (CPU time by default): a busy machine does not cut the search short.
    const stopAt = stopTime(budgetDeadline(deadline, clock, now()), now());
    const result = mctsSearch(game, state, moves, rng, { iterations: options.iterations, exploration: options.c, stopAt, now });
    if (result.clockStopped) clockStopped?.();
    return result.move;
  },
});
