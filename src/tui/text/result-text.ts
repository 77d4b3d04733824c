/** How a finished game's result reads, the same in the dashboard, the plain lines and replay. */
import type { Outcome } from '../../core/game.ts';

/** `1-0`, `0-1` or `½-½`: the first seat's result against the second's. */
export function scoreText(outcome: Pick<Outcome, 'winner'>): string {
  return outcome.winner === null ? '½-½' : outcome.winner === 'first' ? '1-0' : '0-1';
}

/** `1-0`, `0-1` or `½-½`, with scores when the game has them: `1-0 (7:3)`. */
export function resultText(rec: { readonly outcome: Outcome }): string {
  const score = scoreText(rec.outcome);
  return rec.outcome.scores ? `${score} (${rec.outcome.scores[0]}:${rec.outcome.scores[1]})` : score;
}
