/**
 * priority: seed 003's priority play on the coin board with points scoring. It ranks take sizes
 * by what the variant's scoring rewards — the coins taken, plus or minus the last-coin bonus by the
 * parity of the coins left (src/strategies/priority.ts) — takes a move of the best-ranked size
 * present, never a whole longest line (the seed's avoided 6-coin move) unless nothing else is
 * legal, and breaks ties at random.
 */
import { defineBot, priorityMoves, priorityOrder } from 'take-arena';

export default defineBot({
  name: 'priority',
  description: 'coins on points: take sizes in the order the scoring rewards (coins ± the bonus by parity), never a whole longest line; ties at random',
  supports: (game) => game.family === 'coins' && game.params['scoring'] === 'points' && typeof game.size === 'function',
  choose({ game, state, moves, rng }) {
    const size = game.size!;
    const left = size(state);
    const longest = Number(game.params['board'] === 'triangle' ? game.params['rows'] : game.params['side']);
    const bonus = Number(game.params['bonus'] ?? 0);
    const taken = (m: unknown): number => left - size(game.play(state, m));
    return rng.pick(priorityMoves(moves, taken, priorityOrder(left, longest, bonus)));
  },
});
