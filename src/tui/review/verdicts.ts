import { TooLargeError } from '../../core/errors.ts';
import type { AnyGame, Seat, Solver } from '../../core/game.ts';

/** The solver's view of a position for the player to move, or why there is none. */
export type Hint =
  | {
      readonly ok: true;
      /** Solver value for the player to move: +1/-1 (0 draw), or the score margin in scored games. */
      readonly value: number;
      readonly scored: boolean;
      /** Moves that keep the value (`-value(play(s, m)) === value(s)`), in notation. */
      readonly best: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/** One move of a finished game judged by the solver. */
export interface Verdict {
  readonly seat: Seat;
  readonly move: string;
  /** True when the move kept the best achievable result. */
  readonly optimal: boolean;
  /** The mover's value before the move, and what the move left them. */
  readonly before: number;
  readonly after: number;
  /** Moves that would have kept the value (empty when the move was optimal). */
  readonly better: readonly string[];
}

/**
 * What hints show: the value for the player to move and the moves that keep it. A move m keeps
 * the value exactly when `-value(play(s, m)) === value(s)` (turns alternate in every family).
 */
export function hintFor(game: AnyGame, solver: Solver<unknown, unknown> | undefined, state: unknown): Hint {
  if (!solver) return { ok: false, reason: 'no exact solver for this variant' };
  try {
    const value = solver.value(state);
    const best = game
      .moves(state)
      .filter((m) => -solver.value(game.play(state, m)) === value)
      .map((m) => game.formatMove(m));
    return { ok: true, value, scored: solver.scored, best };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** One line saying how a position stands for the player to move, for hints. */
export function standingText(hint: Hint, who = 'you'): string {
  if (!hint.ok) return `no hint: ${hint.reason}`;
  if (hint.scored) {
    const v = hint.value;
    return v > 0 ? `${who} can win by ${v}` : v < 0 ? `${who} lose by ${-v} with best play` : 'a draw with best play';
  }
  return hint.value > 0 ? `won for ${who}` : hint.value < 0 ? `lost for ${who} against perfect play` : 'a draw with best play';
}

/**
 * Judges each of `seat`'s moves in a finished game. Null for a move the solver cannot judge (a
 * position beyond its tables: TooLargeError), so a review degrades rather than fails.
 */
export function judgeMoves(
  game: AnyGame,
  solver: Solver<unknown, unknown> | undefined,
  plies: readonly { readonly before: unknown; readonly after: unknown; readonly text: string; readonly seat: Seat }[],
  seat?: Seat,
): (Verdict | null)[] {
  return plies.map((p) => {
    if (!solver || (seat !== undefined && p.seat !== seat)) return null;
    try {
      const before = solver.value(p.before);
      const after = -solver.value(p.after);
      const optimal = after === before;
      const hint = optimal ? null : hintFor(game, solver, p.before);
      return { seat: p.seat, move: p.text, optimal, before, after, better: hint?.ok ? hint.best : [] };
    } catch (err) {
      // Beyond the solver's tables: this move goes unjudged. Anything else is a bug, shown as one.
      if (err instanceof TooLargeError) return null;
      throw err;
    }
  });
}

/** A verdict as words: `optimal`, `mistake: threw away the win (5 kept it)`, `cost 3 points`. */
export function verdictText(v: Verdict, scored: boolean): string {
  if (v.optimal) return 'optimal';
  const keep = v.better.length > 0 ? ` (${v.better.slice(0, 4).join(', ')}${v.better.length > 4 ? ', …' : ''} kept it)` : '';
  if (scored) return `mistake: cost ${v.before - v.after} point${v.before - v.after === 1 ? '' : 's'}${keep.replace('kept it', 'was best')}`;
  return v.before > 0 && v.after <= 0 ? `mistake: threw away the win${keep}` : `mistake${keep}`;
}

/** One side's tally: `3 of 4 moves optimal, 1 mistake (1 beyond the solver)`. */
export function tallyText(rows: readonly { readonly verdict: Verdict | null }[]): string {
  const judged = rows.filter((r) => r.verdict !== null);
  const mistakes = judged.filter((r) => !r.verdict!.optimal).length;
  return (
    `${judged.length - mistakes} of ${rows.length} moves optimal` +
    (mistakes > 0 ? `, ${mistakes} mistake${mistakes === 1 ? '' : 's'}` : '') +
    (judged.length < rows.length ? ` (${rows.length - judged.length} beyond the solver)` : '')
  );
}

/**
 * The move whose position `e` explains at the end of a game: `seat`'s first mistake, else its
 * first move (0-based index into the plies, and whether it was a mistake); null when it made none.
 */
export function explainedMove(plies: readonly { readonly seat: Seat }[], verdicts: readonly (Verdict | null)[], seat: Seat): { readonly index: number; readonly mistake: boolean } | null {
  const mistake = plies.findIndex((p, i) => p.seat === seat && verdicts[i] != null && !verdicts[i]!.optimal);
  if (mistake >= 0) return { index: mistake, mistake: true };
  const first = plies.findIndex((p) => p.seat === seat);
  return first >= 0 ? { index: first, mistake: false } : null;
}
