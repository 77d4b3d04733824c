import { ArenaError } from '../core/errors.ts';
import type { AnyGame, Seat, Solver } from '../core/game.ts';
import { createRng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import type { FaultKind } from '../hosting/index.ts';
import type { GameRecord } from './match.ts';
import { fitRatings, type RatingFit, type SeatedResult } from './ratings.ts';

/** Exact-play statistics of one bot: moves judged by the solver, how many kept the best result, blunders. */
export interface Accuracy {
  /** Moves judged (in variants with a solver). */
  readonly moves: number;
  /** Moves after which the solver's value stayed the best achievable: `-value(play(s, m)) === value(s)`. */
  readonly accurate: number;
  /** Moves that threw away the result: a won game no longer won, or (scored games) a drawn one lost. */
  readonly blunders: number;
}

/** One bot's line in a standings table. */
export interface BotStanding {
  readonly bot: string;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** 1 per win, ½ per draw. */
  readonly points: number;
  /** Games in scored variants that ended normally, and the sum of this bot's margins in them. */
  readonly scoredGames: number;
  readonly marginSum: number;
  /** Games this bot forfeited, by kind. */
  readonly forfeits: Readonly<Record<FaultKind, number>>;
  /** Moves played and their times (ms). */
  readonly moves: number;
  readonly meanMoveMs: number;
  readonly maxMoveMs: number;
  /** Null when none of its games had a solver. */
  readonly accuracy: Accuracy | null;
}

/** Pairwise scores: `crosstable[a][b]` is a's points and games against b. */
export type Crosstable = Readonly<Record<string, Readonly<Record<string, { readonly points: number; readonly games: number }>>>>;

/** A standings table (pooled or for one variant). */
export interface StandingsTable {
  /** Bots by points (then rating, then name). */
  readonly bots: readonly BotStanding[];
  readonly crosstable: Crosstable;
  readonly ratings: RatingFit;
  /** Games folded in. */
  readonly games: number;
}

/** Standings pooled over all variants and per variant. */
export interface Standings {
  readonly pooled: StandingsTable;
  readonly variants: Readonly<Record<string, StandingsTable>>;
}

class MutableStanding {
  games = 0;
  wins = 0;
  draws = 0;
  losses = 0;
  points = 0;
  scoredGames = 0;
  marginSum = 0;
  forfeits: Record<FaultKind, number> = { timeout: 0, crash: 0, 'illegal-move': 0 };
  moves = 0;
  totalMs = 0;
  maxMs = 0;
  judged = 0;
  accurate = 0;
  blunders = 0;
  hasSolver = false;
}

class Table {
  readonly rows = new Map<string, MutableStanding>();
  readonly cross = new Map<string, Map<string, { points: number; games: number }>>();
  /** Seated results keyed `first\tsecond`. */
  readonly seated = new Map<string, { first: string; second: string; games: number; points: number }>();
  games = 0;

  constructor(readonly bots: readonly string[]) {
    for (const b of bots) this.rows.set(b, new MutableStanding());
  }

  row(bot: string): MutableStanding {
    let r = this.rows.get(bot);
    if (!r) {
      r = new MutableStanding();
      this.rows.set(bot, r);
    }
    return r;
  }

  add(rec: GameRecord, judged: Record<Seat, Accuracy> | null, hasSolver: boolean): void {
    this.games++;
    const labels: Record<Seat, string> = rec.seats;
    for (const seat of ['first', 'second'] as const) {
      const me = labels[seat];
      const them = labels[seat === 'first' ? 'second' : 'first'];
      const r = this.row(me);
      r.games++;
      const w = rec.outcome.winner;
      const pts = w === null ? 0.5 : w === seat ? 1 : 0;
      if (w === null) r.draws++;
      else if (w === seat) r.wins++;
      else r.losses++;
      r.points += pts;
      if (rec.outcome.scores) {
        r.scoredGames++;
        const [a, b] = rec.outcome.scores;
        r.marginSum += seat === 'first' ? a - b : b - a;
      }
      if (rec.faulty === seat && rec.termination !== 'normal' && rec.termination !== 'interrupted') r.forfeits[rec.termination]++;
      // Seats alternate in every family, but a variant may let either side start: count by ply parity from the start seat.
      for (let i = 0; i < rec.moves.length; i++) {
        if (moverOf(rec, i) !== seat) continue;
        const ms = rec.moves[i]!.ms;
        r.moves++;
        r.totalMs += ms;
        if (ms > r.maxMs) r.maxMs = ms;
      }
      if (hasSolver) r.hasSolver = true;
      if (judged) {
        r.judged += judged[seat].moves;
        r.accurate += judged[seat].accurate;
        r.blunders += judged[seat].blunders;
      }
      let row = this.cross.get(me);
      if (!row) this.cross.set(me, (row = new Map()));
      const cell = row.get(them) ?? { points: 0, games: 0 };
      cell.points += pts;
      cell.games++;
      row.set(them, cell);
    }
    const key = `${labels.first}\t${labels.second}`;
    const s = this.seated.get(key) ?? { first: labels.first, second: labels.second, games: 0, points: 0 };
    s.games++;
    s.points += rec.outcome.winner === null ? 0.5 : rec.outcome.winner === 'first' ? 1 : 0;
    this.seated.set(key, s);
  }

  snapshot(): StandingsTable {
    const bots = [...this.rows.keys()];
    const index = new Map(bots.map((b, i) => [b, i]));
    // In a fixed order, so the fit's floating-point sums (and so the ratings, to the last bit) do not
    // depend on the order games finished in: a resumed run must end with identical standings.
    const seated = [...this.seated.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
    const results: SeatedResult[] = seated.map((s) => ({
      first: index.get(s.first)!,
      second: index.get(s.second)!,
      games: s.games,
      points: s.points,
    }));
    const ratings = fitRatings(bots, results);
    const elo = new Map(ratings.ratings.map((r) => [r.bot, r.elo]));
    const lines: BotStanding[] = bots.map((bot) => {
      const r = this.rows.get(bot)!;
      return {
        bot,
        games: r.games,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        points: r.points,
        scoredGames: r.scoredGames,
        marginSum: r.marginSum,
        forfeits: { ...r.forfeits },
        moves: r.moves,
        meanMoveMs: r.moves ? r.totalMs / r.moves : 0,
        maxMoveMs: r.maxMs,
        accuracy: r.hasSolver ? { moves: r.judged, accurate: r.accurate, blunders: r.blunders } : null,
      };
    });
    lines.sort((a, b) => b.points - a.points || elo.get(b.bot)! - elo.get(a.bot)! || a.bot.localeCompare(b.bot));
    const crosstable: Record<string, Record<string, { points: number; games: number }>> = {};
    for (const a of bots) {
      crosstable[a] = {};
      const row = this.cross.get(a);
      for (const b of bots) {
        const cell = row?.get(b);
        if (cell) crosstable[a][b] = { ...cell };
      }
    }
    return { bots: lines, crosstable, ratings, games: this.games };
  }
}

/** The seat that made move `i` of a game (turns alternate from the start position's mover). */
function moverOf(rec: GameRecord & { readonly startSeat?: Seat }, i: number): Seat {
  const start = rec.startSeat ?? 'first';
  return i % 2 === 0 ? start : start === 'first' ? 'second' : 'first';
}

/** Per-variant replay context for accuracy. */
interface Judge {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
}

/**
 * Judges every move of a finished game with the variant's exact solver (in the runner process,
 * never inside bots): a move is accurate when `-value(play(s, m)) === value(s)`. Null when the
 * variant has no solver or the position is beyond it. `start` is the dealt position, when the
 * caller has it already.
 */
export function judgeGame(judge: Judge, rec: GameRecord, start: unknown = judge.game.deal(createRng(rec.dealSeed))): Record<Seat, Accuracy> | null {
  const { game, solver } = judge;
  if (!solver || rec.moves.length === 0) return null;
  const acc = { first: { moves: 0, accurate: 0, blunders: 0 }, second: { moves: 0, accurate: 0, blunders: 0 } };
  try {
    let state = start;
    // Each position is valued once: the value after a move is the one before the next.
    let value = solver.value(state);
    for (const { move } of rec.moves) {
      const seat = game.toMove(state);
      const m = game.parseMove(move, state);
      const before = value;
      const next = game.play(state, m);
      value = solver.value(next);
      const after = -value;
      const a = acc[seat];
      a.moves++;
      if (after === before) a.accurate++;
      else if (Math.sign(after) < Math.sign(before)) a.blunders++;
      state = next;
    }
  } catch (err) {
    if (err instanceof ArenaError) return null; // TooLargeError: beyond the solver's tables
    throw err;
  }
  return acc;
}

/**
 * Folds finished games into standings, pooled and per variant. Order-independent, so a resumed
 * tournament ends with exactly the standings of an uninterrupted one (move times aside).
 */
export class StandingsBuilder {
  readonly #pooled: Table;
  readonly #variants = new Map<string, Table>();
  readonly #judges = new Map<string, Judge>();
  readonly #bots: readonly string[];

  /** `bots` fixes the row set (bots with no games yet still appear); `variants` likewise. */
  constructor(bots: readonly string[], variants: readonly string[] = []) {
    this.#bots = bots;
    this.#pooled = new Table(bots);
    for (const v of variants) this.#variants.set(v, new Table(bots));
  }

  #judge(variant: string): Judge {
    let j = this.#judges.get(variant);
    if (!j) {
      const game = parseVariant(variant);
      let solver: Solver<unknown, unknown> | undefined;
      try {
        solver = game.solver?.();
      } catch (err) {
        if (!(err instanceof ArenaError)) throw err; // too large for exact analysis: no accuracy column
      }
      // A solver that searches (it offers `bestMoveBy`) answers within a time budget: judging with it
      // would make accuracy depend on the machine's speed, and a resumed run could then differ.
      if (solver?.bestMoveBy) solver = undefined;
      j = { game, solver };
      this.#judges.set(variant, j);
    }
    return j;
  }

  /** Adds one finished game (interrupted games are not results and are ignored). */
  add(rec: GameRecord): void {
    if (rec.termination === 'interrupted') return;
    const judge = this.#judge(rec.variant);
    const start = judge.game.deal(createRng(rec.dealSeed));
    const judged = judgeGame(judge, rec, start);
    const startSeat = judge.game.toMove(start);
    const r = startSeat === 'first' ? rec : { ...rec, startSeat };
    this.#pooled.add(r, judged, judge.solver !== undefined);
    let t = this.#variants.get(rec.variant);
    if (!t) this.#variants.set(rec.variant, (t = new Table(this.#bots)));
    t.add(r, judged, judge.solver !== undefined);
  }

  /** The current standings with ratings. */
  snapshot(): Standings {
    const variants: Record<string, StandingsTable> = {};
    for (const [v, t] of this.#variants) variants[v] = t.snapshot();
    return { pooled: this.#pooled.snapshot(), variants };
  }
}
