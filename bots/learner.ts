/**
 * learner: gets stronger across games and tournaments (seed 003's dynamic improvement). Each move it
 * runs a proof search of at most `nodes` positions, reading the positions it proved in earlier runs
 * (kept in its store, `ctx.store`) as solved; what it proves about the positions of its games goes
 * back into the store for the next run. Unproved, it plays the greedy move among those not proved
 * losing. Its games depend on the store as it was when the run began (the same store, spec and seed
 * replay move for move); win/loss games only.
 */
import { budgetDeadline, defineBot, greedyMove, intSchema, knowledgeKey, decodeKnowledge, learnerSearch, rememberKnowledge, StoreError, type BotStore } from 'take-arena';

// The stored table of each variant, read once per store (one store per host, so once per run).
const tables = new WeakMap<BotStore, Map<string, Map<string, boolean>>>();

function knowledgeOf(store: BotStore, variant: string): Map<string, boolean> {
  let byVariant = tables.get(store);
  if (!byVariant) tables.set(store, (byVariant = new Map()));
  let known = byVariant.get(variant);
  if (!known) byVariant.set(variant, (known = decodeKnowledge(store.getBlob(knowledgeKey(variant)))));
  return known;
}

export default defineBot({
  name: 'learner',
  description: 'proof search within a node budget on top of the positions it proved in earlier runs (kept in its store); greedy when unproved',
  options: {
    nodes: {
      schema: intSchema(1, 10_000_000),
      description: 'most positions its proof search expands per move',
      expected: 'an integer from 1 to 10000000',
      default: 1000,
    },
  },
  // Win/loss games only: a proof that the mover cannot win is then a proof of a loss.
  supports: (game) => game.family !== 'end-game' && game.params['scoring'] !== 'points',
  choose({ game, state, moves, rng, deadline, clock, options, store, clockStopped }) {
    const known = knowledgeOf(store, game.id);
    // The clock is only a safety net (stop 20% early); the node budget decides.
    const by = budgetDeadline(deadline, clock); // under a time control, a share of the bank
    const result = learnerSearch(game, state, known, options.nodes, Date.now() + (by - Date.now()) * 0.8);
    if (result.clockStopped) clockStopped?.();
    const learned = new Map<string, boolean>();
    const remember = (s: unknown, win: boolean | undefined): void => {
      const key = String(game.key(s));
      if (win !== undefined && !known.has(key)) learned.set(key, win);
    };
    // Every position the search proved, the root's and its children's included: the memo tables of
    // the seed, which let the next run's search stop where this one had to dig.
    for (const [key, win] of result.proved) if (!known.has(key)) learned.set(key, win);
    result.children.forEach((win, i) => remember(game.play(state, moves[i]), win));
    try {
      rememberKnowledge(store, game.id, learned, store.capBytes / 4);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err; // a full store: play on with what it knows
    }
    if (result.move !== undefined) return result.move;
    const open = moves.filter((_, i) => result.children[i] !== true);
    return greedyMove(game, state, open.length > 0 ? open : moves, rng);
  },
});
