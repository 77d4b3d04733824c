/**
 * my-bot: a take-arena bot. Edit `choose`, then
 *   arena bots check my-bot                    (legal moves in time, no mutation, same answer per seed)
 *   arena tournament --bots my-bot,greedy …    (play it)
 */
import { defineBot, enumSchema } from 'take-arena';

export default defineBot({
  // Unique name: used on the command line and in standings. Letters, digits, - and _.
  name: 'my-bot',
  description: 'wins at once when it can, avoids handing the opponent a win, else the greedy choice',
  // Options are validated before a tournament starts; set them as my-bot:safety=off.
  options: {
    safety: {
      schema: enumSchema(['on', 'off']),
      description: 'skip moves after which the opponent can win at once',
      expected: 'on or off',
      default: 'on' as 'on' | 'off',
    },
  },
  // Optional: say early which variants you can play, e.g. (game) => game.family === 'coins'.
  supports: () => true,
  // Called for each move. ctx: game (rules and capabilities), state (read-only), moves (legal list),
  // seat, rng (your seeded generator: never Math.random), deadline (epoch ms), options.
  choose({ game, state, moves, rng, options }) {
    const me = game.toMove(state);
    const winsFor = (s: typeof state, seat: string): boolean => game.outcome(s)?.winner === seat;
    // 1. A move that ends the game with us as the winner.
    const winning = moves.find((m) => winsFor(game.play(state, m), me));
    if (winning !== undefined) return winning;
    // 2. Moves after which no reply of the opponent wins at once.
    const safe =
      options.safety === 'on'
        ? moves.filter((m) => {
            const next = game.play(state, m);
            const opponent = game.toMove(next);
            return !game.moves(next).some((r) => winsFor(game.play(next, r), opponent));
          })
        : [];
    const pool = safe.length > 0 ? safe : moves;
    // 3. The largest immediate gain by the game's heuristic (if it has one), ties at random.
    const gain = (m: (typeof moves)[number]): number => game.heuristic?.(state, m) ?? 0;
    const best = Math.max(...pool.map(gain));
    return rng.pick(pool.filter((m) => gain(m) === best));
  },
});
