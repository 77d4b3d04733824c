import type { ParamSpec } from './param-spec.ts';
import type { Rng } from './rng.ts';

/** `first` moves first in the starting position (unless a variant says otherwise), `second` replies. */
export type Seat = 'first' | 'second';

/** The other seat. */
export function otherSeat(seat: Seat): Seat {
  return seat === 'first' ? 'second' : 'first';
}

/** The result of a finished game: the winner (null for a draw) and, for scored games, the scores. */
export interface Outcome {
  readonly winner: Seat | null;
  /** Final scores `[first, second]` for scored games (End Game, coins on points). */
  readonly scores?: readonly [number, number];
}

/**
 * Outcome class of a position. `P`: the player to move loses; `N`: the player to move wins;
 * `L`/`R`: Left/Right wins whoever moves first (partizan games only); `D`: a draw with best play
 * (scored games only).
 */
export type OutcomeClass = 'P' | 'N' | 'L' | 'R' | 'D';

/**
 * Exact analysis of one game variant. `value` is always from the point of view of the player to
 * move, so a move `m` from `s` is optimal exactly when `-value(play(s, m)) === value(s)`
 * (turns alternate in every game of the arena).
 */
export interface Solver<S, M> {
  /** True when `value` is a score margin rather than win (+1) / loss (-1). */
  readonly scored: boolean;
  /**
   * The result for the player to move under perfect play: +1 win, -1 loss (0 draw) for win–loss
   * games; for scored games the final score margin, player to move minus opponent, counting the
   * points already scored.
   */
  value(s: S): number;
  /** The position's outcome class (L/R/N/P for partizan games; P/N, or D for a scored draw). */
  classify(s: S): OutcomeClass;
  /**
   * The reference optimal bot's move: a best move by the family's tie-break (subtraction: the
   * largest winning take); in a lost position the move that prolongs the game and leaves the
   * opponent the most room to err. Null when the game is over.
   */
  bestMove(s: S): M | null;
  /**
   * Optional, offered by solvers that search instead of looking up (the coins solver on boards
   * beyond its tables): `bestMove` that gives up at `deadline` (epoch ms, `Date.now()` clock) and
   * returns undefined when it has not proved the position by then. Such solvers' `value`,
   * `classify` and `bestMove` throw TooLargeError for a position they cannot prove within their
   * own budget; callers with a deadline (the optimal bot) call this and fall back on undefined.
   */
  bestMoveBy?(s: S, deadline: number): M | null | undefined;
}

/**
 * One game variant: a family with validated parameters. Rules are pure: `play` returns a new
 * state and never mutates its input. States and moves are plain structured-cloneable data
 * (numbers, strings, arrays, plain objects, typed arrays), so they cross worker boundaries.
 */
export interface Game<S, M> {
  /** The variant's stable, readable id, e.g. `subtraction{moves=1,5,8,10;n=50..200}`. */
  readonly id: string;
  /** The family id, e.g. `subtraction`. */
  readonly family: string;
  readonly title: string;
  /** The validated parameters, defaults filled in. */
  readonly params: Readonly<Record<string, unknown>>;
  /** A start position drawn with the given generator (deterministic for a seed). */
  deal(rng: Rng): S;
  /** The seat to move. */
  toMove(s: S): Seat;
  /** The legal moves; empty exactly when the game is over. */
  moves(s: S): readonly M[];
  /** The position after move `m` (which must be legal). Never mutates `s`. */
  play(s: S, m: M): S;
  /** Null while the game is on; the winner (or draw) and scores once it is over. */
  outcome(s: S): Outcome | null;
  /**
   * Identifies the state: equal states have equal keys and different states different keys (so
   * memo and transposition tables never confuse two positions, scores and side to move included).
   */
  key(s: S): string | number | bigint;
  /** The move in GAMES.md notation. */
  formatMove(m: M): string;
  /** Parses GAMES.md notation into one of `moves(s)`; throws MoveError with a clear message. */
  parseMove(text: string, s: S): M;
  /** A one-line text picture of the position for logs and plain output. */
  describe(s: S): string;
  /** The position as plain JSON (documented per family; used by logs and external bots). */
  toJSON(s: S): unknown;
  /** Exact analysis, when the variant is small enough for it. */
  solver?(): Solver<S, M> | undefined;
  /** Immediate gain of a move (greedy's measure): larger is better. */
  heuristic?(s: S, m: M): number;
  /** How much game is left (hybrid's switch), e.g. stones, coins or numbers remaining. */
  size?(s: S): number;
  /**
   * Heaps to draw as rows of stones, for a family without a board of its own (a user's game,
   * `games/`); without it the boards show `describe`.
   */
  view?(s: S): { readonly piles: readonly number[] };
  /** How the variant is won, in words (GAMES.md); screens say something generic without it. */
  readonly goal?: GameGoal<S>;
}

/** How a variant is won, in words a new player reads: what the play screen and its help show. */
export interface GameGoal<S = unknown> {
  /** One or two short sentences: what wins, and how points are scored where they are. */
  readonly short: string;
  /** The rules of winning in full, one sentence a line: who may take what, the end, the scoring. */
  readonly full: readonly string[];
  /**
   * The rule that decided a finished game, as a sentence about the players, e.g. `you took the
   * last coin: who takes the last coin loses`. `names` says what to call each seat; turns
   * alternate, so the seat that moved last is the one not to move in `s`.
   */
  ending?(s: S, names: Readonly<Record<Seat, string>>): string;
}

/** Pre-period and period of a sequence over piles: value(n) = value(n + period) for n ≥ preperiod. */
export interface PeriodSummary {
  readonly preperiod: number;
  readonly period: number;
}

/** What `tabulate` returns; each family fills the fields that apply to it. */
export interface Tabulation {
  /** One-pile impartial families: the P-positions (player to move loses) in 0..upto. */
  readonly pPositions?: readonly number[];
  /** Partizan: the start positions 0..upto in each outcome class. */
  readonly classes?: Readonly<Record<'L' | 'R' | 'N' | 'P', readonly number[]>>;
  /** Piles: the nim-value of a single pile of each size 0..upto. */
  readonly nimValues?: readonly number[];
}

/** A game with its types erased, as held by registries, schedules and bots. */
export type AnyGame = Game<unknown, unknown>;

/**
 * A game family (GAMES.md 1–6): its parameters (each a zod schema with a default and the texts
 * `arena games` shows) and a constructor of variants. Families are listed in one registry array
 * in `src/games/index.ts`; `createVariant` validates raw parameters and calls `create`.
 */
export interface GameFamily<P extends object = Record<string, unknown>, S = unknown, M = unknown> {
  readonly id: string;
  readonly title: string;
  /** The rules in one or two sentences. */
  readonly summary: string;
  /** Move notation, e.g. "the number taken, e.g. `5`". */
  readonly notation: string;
  /** The parameters in display order. */
  readonly params: { readonly [K in keyof P]-?: ParamSpec<P[K]> };
  /** Builds a variant from validated parameters (may throw ParamError for cross-field checks). */
  create(params: P): Game<S, M>;
  /** Whole-family analysis for `arena analyze` (not part of the game a bot receives). */
  readonly analysis?: FamilyAnalysis<P>;
}

/** What `arena analyze` can compute over a family's start positions, from a variant's parameters. */
export interface FamilyAnalysis<P> {
  /** Tables over start positions 0..upto for `--upto` (one-pile and piles families). */
  tabulate?(params: P, upto: number): Tabulation;
  /**
   * The `pPositions` of `tabulate` in order, a batch at a time, in constant memory (for `--upto` of
   * a pile so large that the list would not fit); `upto` is checked as `tabulate` checks it.
   */
  pPositionBatches?(params: P, upto: number): Iterable<readonly number[]>;
  /**
   * The eventual period of the outcome (or nim-value) sequence over start piles, for `--period`;
   * null when it is not found within the solver's table limits, undefined when the variant has no
   * such sequence (piles under Nim or squares, whose nim-values grow without bound).
   */
  period?(params: P): PeriodSummary | null | undefined;
}

/** A family with its types erased. */
export type AnyFamily = GameFamily<Record<string, unknown>, unknown, unknown>;
