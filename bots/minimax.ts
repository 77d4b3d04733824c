/**
 * minimax: generic negamax with alpha–beta, a transposition table keyed by `game.key` and iterative
 * deepening until the deadline; the heuristic's gains at the horizon, exact when the search completes.
 * Needs nothing but the Game interface, so it plays every family, solver or not.
 */
import { defineBot, intSchema, negamaxSearch, stopTime, TranspositionTable } from 'take-arena';

// One table per variant, kept across moves and games: proven values stay valid for the variant's
// lifetime. At most three variants' tables are kept, each at most 2^18 entries (about 45 MB with string keys).
const tables = new Map<string, TranspositionTable>();

function tableOf(id: string): TranspositionTable {
  let table = tables.get(id);
  if (!table) {
    if (tables.size >= 3) tables.delete(tables.keys().next().value!);
    table = new TranspositionTable(1 << 18);
    tables.set(id, table);
  }
  return table;
}

export default defineBot({
  name: 'minimax',
  description: 'negamax with alpha-beta, transposition table and iterative deepening to the deadline; exact when it completes',
  options: {
    depth: {
      schema: intSchema(1, 10_000),
      description: 'deepest search, in plies',
      expected: 'an integer from 1 to 10000',
      default: 64,
    },
  },
  choose: ({ game, state, moves, deadline, options }) =>
    negamaxSearch(game, state, moves, { maxDepth: options.depth, stopAt: stopTime(deadline), table: tableOf(game.id) }).move,
});
