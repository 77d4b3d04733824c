/**
 * Small play helpers for bots: a time budget with a safety margin, greedy choice by the game's
 * heuristic, and the solver's move with its warm-up.
 */
import type { BotClock } from '../core/bot.ts';
import type { AnyGame, Game } from '../core/game.ts';
import { TooLargeError } from '../core/errors.ts';
import { findMove } from '../core/referee.ts';
import { createRng, type Rng } from '../core/rng.ts';

/**
 * When a search should stop to answer by `deadline` (epoch ms): a safety margin of 15% of the time
 * left, at least 20 ms, for the answer's trip back to the arena and for timer jitter.
 */
export function stopTime(deadline: number, now: number = Date.now()): number {
  const left = deadline - now;
  return now + Math.max(0, Math.min(left - 20, left * 0.85));
}

/**
 * Moves a bot under a time control plans its bank for: take-away games here last a few dozen plies,
 * so a twentieth of the bank (plus most of the increment) leaves room for the rest of the game.
 */
export const BANK_MOVES = 20;

/**
 * The deadline a move should aim for (epoch ms, `Date.now()` clock): `deadline` itself without a
 * clock, else the smaller of it and a share of the bank, `remainingMs / BANK_MOVES` plus 90% of the
 * increment, from `now`. Pass it to `stopTime`; a search it cuts short is clock-dependent, so the
 * bot calls `ctx.clockStopped` as for any deadline.
 */
export function budgetDeadline(deadline: number, clock?: BotClock, now: number = Date.now()): number {
  if (!clock) return deadline;
  return Math.min(deadline, now + clock.remainingMs / BANK_MOVES + clock.incrementMs * 0.9);
}

/** The moves with the largest `game.heuristic`, in list order (all of them when the game has none). */
export function bestByHeuristic<S, M>(game: Game<S, M>, state: S, moves: readonly M[]): M[] {
  const h = game.heuristic;
  if (!h) return moves.slice();
  let best = -Infinity;
  let out: M[] = [];
  for (const m of moves) {
    const v = h(state, m);
    if (v > best) {
      best = v;
      out = [m];
    } else if (v === best) out.push(m);
  }
  return out;
}

/** Greedy play: a move of largest immediate gain, ties broken by the rng. */
export function greedyMove<S, M>(game: Game<S, M>, state: S, moves: readonly M[], rng: Rng): M {
  return rng.pick(bestByHeuristic(game, state, moves));
}

/** Time kept back from a deadline for the reply to travel. */
const REPLY_MARGIN_MS = 50;

/**
 * Builds the variant's solver (once per variant: see `createVariant`) and warms it with one answer on a dealt position (a bot's `prepare`),
 * so the first real move does not pay for the tables. A solver that searches gets a short try only:
 * its positions are proved move by move, within each deadline.
 */
export function warmSolver(game: AnyGame): void {
  const solver = game.solver?.();
  if (!solver) return;
  const start = game.deal(createRng(0));
  try {
    if (solver.bestMoveBy) solver.bestMoveBy(start, Date.now() + 1000);
    else solver.bestMove(start);
  } catch (err) {
    if (!(err instanceof TooLargeError)) throw err; // a deal beyond the solver: left to the moves
  }
}

/** Wall-clock time a warm-up search may take (it runs in `prepare`, whose budget is far larger). */
const WARM_SEARCH_MS = 1000;

/**
 * Runs a bot's search once on a position dealt from a fixed seed (its `prepare`), so V8 has compiled
 * the search for this variant before the first timed move: a cold first search costs several times
 * a warm one, which on a busy machine can pass the move's deadline and make a game depend on the
 * load. `search` gets the position, its moves and when to stop (epoch ms); its answer is dropped,
 * and it must leave the bot's per-game state and generator alone.
 */
export function warmSearch<S, M>(game: Game<S, M>, search: (state: S, moves: readonly M[], stopAt: number) => unknown): void {
  const state = game.deal(createRng(0));
  const moves = game.moves(state);
  if (moves.length > 0) search(state, moves, Date.now() + WARM_SEARCH_MS);
}

/**
 * The solver's best move among `moves`, proved before the deadline; undefined when the variant has
 * no solver, the game is over, or a searching solver did not prove the position in time.
 */
export function solverMove<S, M>(game: Game<S, M>, state: S, moves: readonly M[], deadline: number): M | undefined {
  const solver = game.solver?.();
  if (!solver) return undefined;
  const best = solver.bestMoveBy ? solver.bestMoveBy(state, deadline - REPLY_MARGIN_MS) : solver.bestMove(state);
  if (best === undefined || best === null) return undefined;
  const i = findMove(game as unknown as AnyGame, moves, best);
  if (i < 0) throw new Error(`the solver's move ${game.formatMove(best)} is not legal in ${game.describe(state)}`);
  return moves[i];
}
