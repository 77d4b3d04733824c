/**
 * Accuracy: each move judged by the variant's exact solver, in the runner's process (never inside
 * bots). A move is accurate when `-value(play(s, m)) === value(s)`, a blunder when it throws the
 * result away. The judge hears a game either from the match as it is played (a `MoveObserver`) or
 * from a replay of its logged line: the same positions either way, so the same numbers, and a game
 * just played needs no replay to be folded into the standings.
 */
import { ArenaError } from '../../core/errors.ts';
import type { AnyGame, Seat, Solver } from '../../core/game.ts';
import { createRng } from '../../core/rng.ts';
import type { GameRecord, MoveObserver } from '../match.ts';

/** Exact-play statistics of one bot: moves judged by the solver, how many kept the best result, blunders. */
export interface Accuracy {
  /** Moves judged (in variants with a solver). */
  readonly moves: number;
  /** Moves after which the solver's value stayed the best achievable: `-value(play(s, m)) === value(s)`. */
  readonly accurate: number;
  /** Moves that threw away the result: a won game no longer won, or (scored games) a drawn one lost. */
  readonly blunders: number;
}

/** What the standings take from a game's moves: the seat that moved first, and each seat's accuracy. */
export interface GameJudgement {
  readonly startSeat: Seat;
  /** Null when the variant has no exact solver, no move was played, or a position was beyond the solver. */
  readonly accuracy: Readonly<Record<Seat, Accuracy>> | null;
}

/**
 * The variant's exact solver, or undefined when it has none: no solver, a variant too large for
 * exact analysis, or a solver that searches within a time budget (it offers `bestMoveBy`), whose
 * answers depend on the machine's speed. The one rule for both uses of exactness: accuracy and
 * `--adjudicate` (the same spec and seed must end the same games at the same ply, and a resumed
 * run must judge as the first one did).
 */
export function exactSolver(game: AnyGame): Solver<unknown, unknown> | undefined {
  let solver: Solver<unknown, unknown> | undefined;
  try {
    solver = game.solver?.();
  } catch (err) {
    if (err instanceof ArenaError) return undefined; // too large for exact analysis
    throw err;
  }
  return solver && !solver.bestMoveBy ? solver : undefined;
}

/** A position's value by the solver, or NaN for a position beyond its tables (`TooLargeError`). */
function exactValue(solver: Solver<unknown, unknown>, state: unknown): number {
  try {
    return solver.value(state);
  } catch (err) {
    if (err instanceof ArenaError) return NaN;
    throw err;
  }
}

/**
 * The judge of `--adjudicate` for a variant: its exact solver's value of a position for the seat to
 * move, or null for a position beyond the solver; no judge at all without an exact solver.
 */
export function exactJudge(game: AnyGame): ((state: unknown) => number | null) | undefined {
  const solver = exactSolver(game);
  if (!solver) return undefined;
  return (state) => {
    const value = exactValue(solver, state);
    return Number.isNaN(value) ? null : value;
  };
}

/**
 * Judges one game's moves as it hears them (see the module's comment): the match tells it the
 * dealt position and every move, or a replay of a logged game does.
 */
export class MoveJudge implements MoveObserver {
  /** The seat to move in the dealt position. */
  startSeat: Seat = 'first';
  readonly #game: AnyGame;
  readonly #solver: Solver<unknown, unknown> | undefined;
  /** The value of the position reached for the seat to move: each position is valued once. NaN once one was beyond the solver. */
  #value = NaN;
  #moves = 0;
  /** Per seat as plain fields, not objects indexed by the seat's name: this runs on every move. */
  #firstJudged = 0;
  #firstAccurate = 0;
  #firstBlunders = 0;
  #secondJudged = 0;
  #secondAccurate = 0;
  #secondBlunders = 0;

  /** `solver` undefined: a variant without exact analysis (no accuracy). */
  constructor(game: AnyGame, solver: Solver<unknown, unknown> | undefined) {
    this.#game = game;
    this.#solver = solver;
  }

  dealt(start: unknown): void {
    this.startSeat = this.#game.toMove(start);
    this.#value = this.#solver ? exactValue(this.#solver, start) : NaN;
    this.#moves = this.#firstJudged = this.#firstAccurate = this.#firstBlunders = 0;
    this.#secondJudged = this.#secondAccurate = this.#secondBlunders = 0;
  }

  moved(seat: Seat, next: unknown): void {
    this.#moves++;
    const before = this.#value;
    if (Number.isNaN(before)) return;
    const after = -(this.#value = exactValue(this.#solver!, next));
    const accurate = after === before ? 1 : 0;
    const blunder = accurate === 0 && Math.sign(after) < Math.sign(before) ? 1 : 0;
    if (seat === 'first') {
      this.#firstJudged++;
      this.#firstAccurate += accurate;
      this.#firstBlunders += blunder;
    } else {
      this.#secondJudged++;
      this.#secondAccurate += accurate;
      this.#secondBlunders += blunder;
    }
  }

  /** False once the game cannot be judged (no solver, or a position beyond it): further moves change nothing. */
  get judging(): boolean {
    return !Number.isNaN(this.#value);
  }

  /** The rest of the game cannot be judged: it gets no accuracy. */
  abandon(): void {
    this.#value = NaN;
  }

  /** Each seat's accuracy; null when the variant has no solver, no move was played, or a position was beyond the solver. */
  accuracy(): Record<Seat, Accuracy> | null {
    if (this.#moves === 0 || Number.isNaN(this.#value)) return null;
    return {
      first: { moves: this.#firstJudged, accurate: this.#firstAccurate, blunders: this.#firstBlunders },
      second: { moves: this.#secondJudged, accurate: this.#secondAccurate, blunders: this.#secondBlunders },
    };
  }

  /** What the standings take from the game heard. */
  judgement(): GameJudgement {
    return { startSeat: this.startSeat, accuracy: this.accuracy() };
  }
}

/** The notations of a frozen legal-move list. */
interface Notations {
  readonly texts: readonly string[];
  /** No two moves of the list share a notation (a text found once is the move). */
  readonly distinct: boolean;
}

/** A variant's game and exact solver: what judging its games needs. */
export interface VariantSolver {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
}

/**
 * The judge of one variant's games: a `MoveJudge` for each game played here, and a replay for a
 * game known only by its record (a resumed log, a remote worker's result).
 */
export class VariantJudge implements VariantSolver {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
  /**
   * The notation of each frozen legal-move list met so far (games that cache their lists hand out
   * the same frozen ones): a logged move is found among them without parsing its text.
   */
  readonly #texts = new WeakMap<readonly unknown[], Notations>();
  /** The list met last and its notations: consecutive positions often share one (no lookup then). */
  #lastList: readonly unknown[] | undefined;
  #lastNotations: Notations | undefined;

  constructor(game: AnyGame) {
    this.game = game;
    this.solver = exactSolver(game);
  }

  /** A judge to hand a match (`playMatch`'s observer). */
  follow(): MoveJudge {
    return new MoveJudge(this.game, this.solver);
  }

  /** Judges a finished game from its record, replayed from the dealt position. */
  replay(rec: GameRecord, start: unknown = this.game.deal(createRng(rec.dealSeed))): GameJudgement {
    return replay(this.game, this.solver, rec, start, (state, text) => this.#loggedMove(state, text)).judgement();
  }

  /**
   * The move a logged notation names in `state`: looked up among the legal moves' own notations when
   * the game hands out a cached (frozen) list and exactly one of them matches, else parsed, as
   * `parseMove` would (the log holds `formatMove` of the move played, so both give that move).
   */
  #loggedMove(state: unknown, text: string): unknown {
    const { game } = this;
    const legal = game.moves(state);
    if (Object.isFrozen(legal)) {
      let known = legal === this.#lastList ? this.#lastNotations : this.#texts.get(legal);
      if (known === undefined) {
        const all = legal.map((m) => game.formatMove(m));
        known = { texts: all, distinct: new Set(all).size === all.length };
        this.#texts.set(legal, known);
      }
      this.#lastList = legal;
      this.#lastNotations = known;
      const i = known.texts.indexOf(text);
      if (i >= 0 && (known.distinct || known.texts.indexOf(text, i + 1) < 0)) return legal[i];
    }
    return game.parseMove(text, state);
  }
}

/** A `MoveJudge` fed the moves of a record, replayed from the dealt position. */
function replay(game: AnyGame, solver: Solver<unknown, unknown> | undefined, rec: GameRecord, start: unknown, moveOf: (state: unknown, text: string) => unknown): MoveJudge {
  const judge = new MoveJudge(game, solver);
  judge.dealt(start);
  let state = start;
  try {
    for (const text of rec.moves) {
      if (!judge.judging) break;
      const seat = game.toMove(state);
      state = game.play(state, moveOf(state, text));
      judge.moved(seat, state);
    }
  } catch (err) {
    if (!(err instanceof ArenaError)) throw err;
    judge.abandon(); // a logged move this version cannot read: no accuracy for the game
  }
  return judge;
}

/**
 * Judges every move of a finished game from its record with a given solver (see `MoveJudge`). Null
 * when there is no solver or a position is beyond it. `start` is the dealt position, when the
 * caller has it.
 */
export function judgeGame({ game, solver }: VariantSolver, rec: GameRecord, start: unknown = game.deal(createRng(rec.dealSeed))): Record<Seat, Accuracy> | null {
  return replay(game, solver, rec, start, (state, text) => game.parseMove(text, state)).accuracy();
}
