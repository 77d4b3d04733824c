/**
 * parity: the End Game's evens-versus-odds strategy (seed 004). With an even count of numbers left
 * it takes the end in the place class (1st, 3rd, … or 2nd, 4th, …) with the larger sum, which
 * guarantees the first player of an even row at least a draw. With an odd count (second player,
 * or an odd row) its stated fallback: the end that maximises the number taken minus what the
 * opponent's parity strategy then guarantees them. Ties go to `L`; it never uses the rng.
 */
import { defineBot, parityMove, type RowView } from 'take-arena';

export default defineBot({
  name: 'parity',
  description: 'End Game: takes every number of the richer place class (at least a draw as first player on even rows); otherwise the end that leaves the least parity advantage',
  supports: (game) => game.family === 'end-game',
  choose({ state, moves }) {
    const move = parityMove(state as RowView);
    return moves.find((m) => m === move) ?? moves[0];
  },
});
