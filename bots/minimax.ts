/**
 * minimax: generic negamax with alpha–beta, a transposition table keyed by `game.key` and iterative
 * deepening within a node budget; the heuristic's gains at the horizon, exact when the search completes.
 * Needs nothing but the Game interface, so it plays every family, solver or not.
 *
 * Deterministic: the node budget, not the clock, ends each search, and the table lives for one game
 * only (a table shared across games would make a move depend on which games this worker happened to
 * play before). The deadline is a safety net; when it fires the game's record says so.
 */
import { budgetDeadline, defineBot, intSchema, negamaxSearch, stopTime, TranspositionTable, warmSearch, type Rng } from 'take-arena';

// One table per game, found by the game's own generator (a new one each game), dropped with it.
const tables = new WeakMap<Rng, TranspositionTable>();

function tableOf(rng: Rng): TranspositionTable {
  let table = tables.get(rng);
  if (!table) {
    table = new TranspositionTable(1 << 18);
    tables.set(rng, table);
  }
  return table;
}

export default defineBot({
  name: 'minimax',
  description: 'negamax with alpha-beta, transposition table and iterative deepening within a node budget; exact when it completes',
  options: {
    depth: {
      schema: intSchema(1, 10_000),
      description: 'deepest search, in plies',
      expected: 'an integer from 1 to 10000',
      default: 64,
    },
    nodes: {
      schema: intSchema(1, 100_000_000),
      description: 'positions searched per move (the last completed depth answers); 20,000 fit 100 ms a move with room to spare',
      expected: 'an integer from 1 to 100000000',
      default: 20_000,
    },
  },
  // One search with a table of its own before the first move: the first timed search is then not a cold one.
  prepare: (game, options) => warmSearch(game, (state, moves, stopAt) => negamaxSearch(game, state, moves, { maxDepth: options.depth, maxNodes: options.nodes, stopAt })),
  choose: ({ game, state, moves, rng, deadline, clock, options, clockStopped, now = Date.now }) => {
    // `now` is the clock the move is charged on (CPU time by default): a busy machine does not cut the search short.
    const stopAt = stopTime(budgetDeadline(deadline, clock, now()), now());
    const result = negamaxSearch(game, state, moves, { maxDepth: options.depth, maxNodes: options.nodes, stopAt, now, table: tableOf(rng) });
    if (result.clockStopped) clockStopped?.();
    return result.move;
  },
});
