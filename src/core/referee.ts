/**
 * The referee: judges a bot's reply against the legal moves, the same way for a tournament match,
 * `arena play` and `arena bots check`.
 */
import type { AnyGame } from './game.ts';

/**
 * The index of the bot's reply in the legal list, or -1. Moves are compared by their
 * `formatMove` text; the runner then plays its own copy of the move, never the bot's object.
 */
export function findMove(game: AnyGame, legal: readonly unknown[], reply: unknown): number {
  const same = legal.indexOf(reply);
  if (same >= 0) return same;
  let text: string;
  try {
    text = game.formatMove(reply);
  } catch {
    return -1;
  }
  if (typeof text !== 'string') return -1;
  for (let i = 0; i < legal.length; i++) if (game.formatMove(legal[i]) === text) return i;
  return -1;
}

/** The legal moves as text for an illegal-move reason, shortened. */
export function legalText(game: AnyGame, legal: readonly unknown[]): string {
  const shown = legal.slice(0, 12).map((m) => game.formatMove(m));
  return shown.join(', ') + (legal.length > 12 ? `, … (${legal.length} in all)` : '');
}
