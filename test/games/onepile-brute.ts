/**
 * Naive memoized minimax over a game's own rules (moves/play/outcome), for checking the one-pile
 * families' solvers. Knows nothing of any solver: a position is won when some move leads to a
 * position the opponent loses.
 */
import type { Game } from '../../src/core/index.ts';

/** Whether the player to move wins from `s` with perfect play (normal-play win/loss games). */
export function bruteWins<S, M>(game: Game<S, M>, s: S, memo = new Map<string | number | bigint, boolean>()): boolean {
  const key = game.key(s);
  const known = memo.get(key);
  if (known !== undefined) return known;
  let win = false;
  for (const m of game.moves(s)) {
    if (!bruteWins(game, game.play(s, m), memo)) {
      win = true;
      break;
    }
  }
  memo.set(key, win);
  return win;
}

/** The moves from `s` that win for the player to move, by brute force. */
export function bruteWinningMoves<S, M>(game: Game<S, M>, s: S, memo = new Map<string | number | bigint, boolean>()): M[] {
  return game.moves(s).filter((m) => !bruteWins(game, game.play(s, m), memo));
}
