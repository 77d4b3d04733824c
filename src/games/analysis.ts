import { TooLargeError } from '../core/errors.ts';
import type { AnyGame, Game, OutcomeClass, PeriodSummary, Tabulation } from '../core/game.ts';
import { getFamily } from './index.ts';

/**
 * The family's table over start positions 0..upto of a variant (`arena analyze --upto`); undefined
 * when the family has none. Throws ParamError or TooLargeError for a bad `upto`.
 */
export function tabulate<S, M>(game: Game<S, M>, upto: number): Tabulation | undefined {
  return getFamily(game.family).analysis?.tabulate?.(game.params, upto);
}

/**
 * The eventual period of a variant's outcome (or nim-value) sequence over start piles (`arena
 * analyze --period`): null when not found within the table limits, undefined when the variant has
 * no such sequence.
 */
export function findPeriod<S, M>(game: Game<S, M>): PeriodSummary | null | undefined {
  return getFamily(game.family).analysis?.period?.(game.params);
}

/** Exact verdict on one position, as `arena analyze`, hints and reviews show it. */
export interface PositionAnalysis {
  /** Outcome class of the position (P/N, L/R for partizan, D for a scored draw). */
  readonly outcome: OutcomeClass;
  /** The reference optimal move in GAMES.md notation, or null when the game is over. */
  readonly bestMove: string | null;
  /** Scored games: the optimal final margin for the player to move. */
  readonly value?: number;
  /**
   * Every move that keeps the best achievable result, in notation; empty when every move loses
   * (an unscored game lost for the player to move: all its moves would be listed, millions of them
   * in a large Nim position, and none is better than another).
   */
  readonly bestMoves: readonly string[];
  /** Whether the position is lost for the player to move whatever it plays (unscored games). */
  readonly everyMoveLoses: boolean;
}

/** Analyses a position with the variant's exact solver; TooLargeError when it has none. */
export function analyzePosition(game: AnyGame, state: unknown): PositionAnalysis {
  const solver = game.solver?.();
  if (!solver) throw new TooLargeError(`No exact solver for ${game.id}: the variant is too large to solve exactly`);
  const value = solver.value(state);
  const best = solver.bestMove(state);
  const everyMoveLoses = !solver.scored && value < 0 && best !== null;
  const bestMoves = everyMoveLoses
    ? []
    : game
        .moves(state)
        .filter((m) => -solver.value(game.play(state, m)) === value)
        .map((m) => game.formatMove(m));
  return {
    outcome: solver.classify(state),
    bestMove: best === null ? null : game.formatMove(best),
    ...(solver.scored ? { value } : {}),
    bestMoves,
    everyMoveLoses,
  };
}

/** Whether `move` keeps the best achievable result from `state` (accuracy, reviews, replays). */
export function isOptimalMove(game: AnyGame, state: unknown, move: unknown): boolean {
  const solver = game.solver?.();
  if (!solver) throw new TooLargeError(`No exact solver for ${game.id}`);
  return -solver.value(game.play(state, move)) === solver.value(state);
}

/**
 * The outcome class of every start pile 0..upto from a tabulation: its classes (partizan), or its
 * P-positions with every other pile N. Null when the tabulation has neither.
 */
export function outcomeClasses(table: Tabulation, upto: number): string[] | null {
  const classes = Array.from({ length: upto + 1 }, () => 'N');
  if (table.classes) for (const c of ['L', 'R', 'N', 'P'] as const) for (const i of table.classes[c]) classes[i] = c;
  else if (table.pPositions) for (const i of table.pPositions) classes[i] = 'P';
  else return null;
  return classes;
}
