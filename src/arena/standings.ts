import { ArenaError } from '../core/errors.ts';
import type { AnyGame, Seat, Solver } from '../core/game.ts';
import { createRng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import type { FaultKind } from '../hosting/index.ts';
import type { GameRecord } from './match.ts';
import { fitRatings, type RatingFit, type SeatedResult } from './ratings.ts';
import { pairScore, type Pentanomial } from './sprt.ts';

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

/**
 * The game pairs of one pairing (both seatings of one deal), counted for its first bot `a` (the
 * champion in a gauntlet): `counts[k]` pairs where `a` scored k half points, so
 * [LL, LD/DL, DD/WL/LW, WD/DW, WW]. A pair counts once both of its games are in.
 */
export interface PairingPairs {
  readonly a: string;
  readonly b: string;
  readonly counts: Pentanomial;
}

/** A standings table (pooled or for one variant). */
export interface StandingsTable {
  /** Bots by points (then rating, then name). */
  readonly bots: readonly BotStanding[];
  readonly crosstable: Crosstable;
  readonly ratings: RatingFit;
  /** Games folded in. */
  readonly games: number;
  /** Pentanomial pair counts per pairing, in the order of the bots given to the builder. */
  readonly pairs: readonly PairingPairs[];
}

/** A pairing's pair counts in one variant: the aggregate each completed game pair is folded into. */
interface PairsCell {
  readonly variant: string;
  readonly a: string;
  readonly b: string;
  readonly counts: [number, number, number, number, number];
}

/** Sums pair cells per pairing (pairings ordered by their bots' places in `bots`, then by label). */
function pairsOf(bots: readonly string[], cells: readonly PairsCell[]): PairingPairs[] {
  const sums = new Map<string, { a: string; b: string; counts: [number, number, number, number, number] }>();
  for (const c of cells) {
    const key = `${c.a}\t${c.b}`;
    let sum = sums.get(key);
    if (!sum) sums.set(key, (sum = { a: c.a, b: c.b, counts: [0, 0, 0, 0, 0] }));
    for (let k = 0; k < 5; k++) sum.counts[k]! += c.counts[k]!;
  }
  const place = (bot: string): number => {
    const i = bots.indexOf(bot);
    return i < 0 ? bots.length : i;
  };
  return [...sums.values()].sort((x, y) => place(x.a) - place(y.a) || place(x.b) - place(y.b) || cmp(x.a, y.a) || cmp(x.b, y.b));
}

/** Standings pooled over all variants and per variant. */
export interface Standings {
  readonly pooled: StandingsTable;
  readonly variants: Readonly<Record<string, StandingsTable>>;
}

/** A seat's index in the per-seat arrays of a `PairCell`. */
const SEAT_INDEX = { first: 0, second: 1 } as const;

/**
 * Everything standings need from the games of one seating of one pairing in one variant: the
 * aggregate a tournament folds each game into. Tables, the crosstable and the ratings are all
 * sums over these cells, so memory grows with bots² × variants, never with games.
 */
export interface PairCell {
  readonly variant: string;
  /** Bot label in each seat. */
  readonly first: string;
  readonly second: string;
  games: number;
  /** Results from the first seat's side. */
  firstWins: number;
  draws: number;
  secondWins: number;
  /** Games in a scored variant that ended normally, and the sum of the first seat's margins in them. */
  scoredGames: number;
  firstMarginSum: number;
  /** Per seat (index 0: first, 1: second). */
  readonly forfeits: readonly [Record<FaultKind, number>, Record<FaultKind, number>];
  readonly moves: [number, number];
  /** Move times in whole microseconds: integer sums, so they are exact in any order. */
  readonly totalUs: [number, number];
  readonly maxUs: [number, number];
  readonly judged: [number, number];
  readonly accurate: [number, number];
  readonly blunders: [number, number];
  /** Whether the variant's games are judged by a solver (accuracy shown, even if zero moves). */
  hasSolver: boolean;
}

function newCell(variant: string, first: string, second: string): PairCell {
  return {
    variant,
    first,
    second,
    games: 0,
    firstWins: 0,
    draws: 0,
    secondWins: 0,
    scoredGames: 0,
    firstMarginSum: 0,
    forfeits: [
      { timeout: 0, crash: 0, 'illegal-move': 0 },
      { timeout: 0, crash: 0, 'illegal-move': 0 },
    ],
    moves: [0, 0],
    totalUs: [0, 0],
    maxUs: [0, 0],
    judged: [0, 0],
    accurate: [0, 0],
    blunders: [0, 0],
    hasSolver: false,
  };
}

/** Folds one finished game into its cell. */
function addToCell(c: PairCell, rec: GameRecord, startSeat: Seat, judged: Record<Seat, Accuracy> | null, hasSolver: boolean): void {
  c.games++;
  const w = rec.outcome.winner;
  if (w === null) c.draws++;
  else if (w === 'first') c.firstWins++;
  else c.secondWins++;
  if (rec.outcome.scores) {
    c.scoredGames++;
    c.firstMarginSum += rec.outcome.scores[0] - rec.outcome.scores[1];
  }
  if (rec.faulty !== null && rec.termination !== 'normal' && rec.termination !== 'interrupted' && rec.termination !== 'adjudicated') c.forfeits[SEAT_INDEX[rec.faulty]][rec.termination]++;
  // Seats alternate in every family, but a variant may let either side start: count by ply parity from the start seat.
  const startIndex = SEAT_INDEX[startSeat];
  for (let i = 0; i < rec.moves.length; i++) {
    const s = ((startIndex + i) & 1) as 0 | 1;
    const us = rec.us[i]!;
    c.moves[s]++;
    c.totalUs[s] += us;
    if (us > c.maxUs[s]) c.maxUs[s] = us;
  }
  if (hasSolver) c.hasSolver = true;
  if (judged) {
    for (const seat of ['first', 'second'] as const) {
      const s = SEAT_INDEX[seat];
      c.judged[s] += judged[seat].moves;
      c.accurate[s] += judged[seat].accurate;
      c.blunders[s] += judged[seat].blunders;
    }
  }
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
  totalUs = 0;
  maxUs = 0;
  judged = 0;
  accurate = 0;
  blunders = 0;
  hasSolver = false;

  /** Adds a cell's games from one seat's side (`s` 0: the cell's first seat, 1: its second). */
  addSide(c: PairCell, s: 0 | 1): void {
    const wins = s === 0 ? c.firstWins : c.secondWins;
    const losses = s === 0 ? c.secondWins : c.firstWins;
    this.games += c.games;
    this.wins += wins;
    this.draws += c.draws;
    this.losses += losses;
    this.points += wins + c.draws / 2;
    this.scoredGames += c.scoredGames;
    this.marginSum += s === 0 ? c.firstMarginSum : -c.firstMarginSum;
    const f = c.forfeits[s];
    this.forfeits.timeout += f.timeout;
    this.forfeits.crash += f.crash;
    this.forfeits['illegal-move'] += f['illegal-move'];
    this.moves += c.moves[s];
    this.totalUs += c.totalUs[s];
    if (c.maxUs[s] > this.maxUs) this.maxUs = c.maxUs[s];
    this.judged += c.judged[s];
    this.accurate += c.accurate[s];
    this.blunders += c.blunders[s];
    if (c.hasSolver) this.hasSolver = true;
  }
}

/**
 * A standings table summed from cells, taken in a fixed order (by seating, then variant) so the
 * floating-point sums, and so the ratings to the last bit, do not depend on the order games
 * finished in: a resumed run must end with identical standings.
 */
function tableOf(bots: readonly string[], cells: readonly PairCell[], pairCells: readonly PairsCell[]): StandingsTable {
  const all = [...bots];
  const extra = new Set<string>();
  for (const c of cells) for (const b of [c.first, c.second]) if (!bots.includes(b)) extra.add(b);
  all.push(...[...extra].sort());
  const index = new Map(all.map((b, i) => [b, i]));
  const rows = all.map(() => new MutableStanding());
  const cross = new Map<string, { points: number; games: number }>();
  const seated = new Map<string, SeatedResult & { games: number; points: number }>();
  let games = 0;
  for (const c of [...cells].sort(cellOrder)) {
    if (c.games === 0) continue;
    games += c.games;
    const i = index.get(c.first)!;
    const j = index.get(c.second)!;
    rows[i]!.addSide(c, 0);
    rows[j]!.addSide(c, 1);
    const firstPoints = c.firstWins + c.draws / 2;
    const secondPoints = c.secondWins + c.draws / 2;
    for (const [key, pts] of [
      [`${c.first}\t${c.second}`, firstPoints],
      [`${c.second}\t${c.first}`, secondPoints],
    ] as const) {
      const cell = cross.get(key) ?? { points: 0, games: 0 };
      cell.points += pts;
      cell.games += c.games;
      cross.set(key, cell);
    }
    const sk = `${c.first}\t${c.second}`;
    const s = seated.get(sk) ?? { first: i, second: j, games: 0, points: 0 };
    s.games += c.games;
    s.points += firstPoints;
    seated.set(sk, s);
  }
  const ratings = fitRatings(all, [...seated.values()]);
  const elo = new Map(ratings.ratings.map((r) => [r.bot, r.elo]));
  const lines: BotStanding[] = all.map((bot, k) => {
    const r = rows[k]!;
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
      meanMoveMs: r.moves ? r.totalUs / r.moves / 1000 : 0,
      maxMoveMs: r.maxUs / 1000,
      accuracy: r.hasSolver ? { moves: r.judged, accurate: r.accurate, blunders: r.blunders } : null,
    };
  });
  lines.sort((a, b) => b.points - a.points || elo.get(b.bot)! - elo.get(a.bot)! || a.bot.localeCompare(b.bot));
  const crosstable: Record<string, Record<string, { points: number; games: number }>> = {};
  for (const a of all) {
    crosstable[a] = {};
    for (const b of all) {
      const cell = cross.get(`${a}\t${b}`);
      if (cell) crosstable[a][b] = cell;
    }
  }
  return { bots: lines, crosstable, ratings, games, pairs: pairsOf(bots, pairCells) };
}

/** Cells by seating (first, then second label), then variant: plain code-unit order, locale-free. */
function cellOrder(x: PairCell, y: PairCell): number {
  return cmp(x.first, y.first) || cmp(x.second, y.second) || cmp(x.variant, y.variant);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Per-variant replay context for accuracy. */
interface Judge {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
  /**
   * The notation of each frozen legal-move list met so far (games that cache their lists hand out
   * the same frozen ones): a logged move is found among them without parsing its text.
   */
  readonly texts?: WeakMap<readonly unknown[], Notations>;
  /** The list met last and its notations: consecutive positions often share one (no lookup then). */
  lastList?: readonly unknown[];
  lastNotations?: Notations;
}

/** The notations of a frozen legal-move list. */
interface Notations {
  readonly texts: readonly string[];
  /** No two moves of the list share a notation (a text found once is the move). */
  readonly distinct: boolean;
}

/**
 * The move a logged notation names in `state`: looked up among the legal moves' own notations when
 * the game hands out a cached (frozen) list and exactly one of them matches, else parsed, as
 * `parseMove` would (the log holds `formatMove` of the move played, so both give that move).
 */
function loggedMove(judge: Judge, state: unknown, text: string): unknown {
  const { game, texts } = judge;
  if (texts) {
    const legal = game.moves(state);
    if (Object.isFrozen(legal)) {
      let known = legal === judge.lastList ? judge.lastNotations : texts.get(legal);
      if (known === undefined) {
        const all = legal.map((m) => game.formatMove(m));
        known = { texts: all, distinct: new Set(all).size === all.length };
        texts.set(legal, known);
      }
      judge.lastList = legal;
      judge.lastNotations = known;
      const i = known.texts.indexOf(text);
      if (i >= 0 && (known.distinct || known.texts.indexOf(text, i + 1) < 0)) return legal[i];
    }
  }
  return game.parseMove(text, state);
}

/** A position's value by the solver, or NaN for a position beyond its tables (`TooLargeError`). */
function valueOf(solver: Solver<unknown, unknown>, state: unknown): number {
  try {
    return solver.value(state);
  } catch (err) {
    if (err instanceof ArenaError) return NaN;
    throw err;
  }
}

/**
 * Judges a game's moves one by one with the variant's exact solver (in the runner process, never
 * inside bots): a move is accurate when `-value(play(s, m)) === value(s)`, a blunder when it throws
 * the result away. Fed either by a replay of a finished game's record (`judgeGame`) or by the match
 * itself as it plays (`MatchOptions.judgeInPlay`): the same positions either way, so the same
 * numbers, and a game just played needs no replay to be folded into the standings.
 */
export class MoveJudge {
  /** The seat to move in the dealt position. */
  readonly startSeat: Seat;
  readonly #solver: Solver<unknown, unknown> | undefined;
  /** The value of the position reached for the seat to move: each position is valued once. NaN once one was beyond the solver. */
  #value: number;
  #moves = 0;
  /** Per seat as plain fields, not objects indexed by the seat's name: this runs on every move. */
  #firstJudged = 0;
  #firstAccurate = 0;
  #firstBlunders = 0;
  #secondJudged = 0;
  #secondAccurate = 0;
  #secondBlunders = 0;

  /** `solver` undefined: a variant without exact analysis (no accuracy). */
  constructor(game: AnyGame, solver: Solver<unknown, unknown> | undefined, start: unknown) {
    this.startSeat = game.toMove(start);
    this.#solver = solver;
    this.#value = solver ? valueOf(solver, start) : NaN;
  }

  /** `seat` moved, reaching `next`. */
  played(seat: Seat, next: unknown): void {
    this.#moves++;
    const before = this.#value;
    if (Number.isNaN(before)) return;
    const after = -(this.#value = valueOf(this.#solver!, next));
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
  judged(): Record<Seat, Accuracy> | null {
    if (this.#moves === 0 || Number.isNaN(this.#value)) return null;
    return {
      first: { moves: this.#firstJudged, accurate: this.#firstAccurate, blunders: this.#firstBlunders },
      second: { moves: this.#secondJudged, accurate: this.#secondAccurate, blunders: this.#secondBlunders },
    };
  }
}

/**
 * Judges every move of a finished game from its record (see `MoveJudge`). Null when the variant
 * has no solver or a position is beyond it. `start` is the dealt position, when the caller has it.
 */
export function judgeGame(judge: Judge, rec: GameRecord, start: unknown = judge.game.deal(createRng(rec.dealSeed))): Record<Seat, Accuracy> | null {
  return replay(judge, rec, start).judged();
}

/** A `MoveJudge` fed the moves of a record, replayed from the dealt position. */
function replay(judge: Judge, rec: GameRecord, start: unknown): MoveJudge {
  const { game, solver } = judge;
  const moves = new MoveJudge(game, solver, start);
  let state = start;
  try {
    for (const text of rec.moves) {
      if (!moves.judging) break;
      const seat = game.toMove(state);
      state = game.play(state, loggedMove(judge, state, text));
      moves.played(seat, state);
    }
  } catch (err) {
    if (!(err instanceof ArenaError)) throw err;
    moves.abandon(); // a logged move this version cannot read: no accuracy for the game
  }
  return moves;
}

/**
 * The key under which a record the match judged as it played carries its judge
 * (`MatchOptions.judgeInPlay`): the standings fold such a record without a replay. A symbol, so
 * neither the log nor JSON carries it: a record read back from a log, or sent by a remote worker,
 * has none and is replayed.
 */
export const JUDGED: unique symbol = Symbol('take-arena.judged');

/** One pairing's pairs in one variant: its pair counts (once a pair completes) and the first finished game of each pair still waiting for its other seating (`a`'s points, by deal). */
interface PairingFold {
  cell: PairsCell | null;
  readonly halves: Map<number, number>;
}

/** The inner map under `key`, made when missing. */
function nested<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}

/**
 * Folds finished games into standings, pooled and per variant, through one `PairCell` per
 * variant and seating of each pairing: memory stays constant however many games are added, and
 * every table, crosstable and rating fit is summed from the cells when asked for. Order-independent,
 * so a resumed tournament ends with exactly the standings of an uninterrupted one (move times aside).
 */
export class StandingsBuilder {
  /** Cells in the order they were made. */
  readonly #cells: PairCell[] = [];
  /** The cells by variant, first seat's label, second seat's label (no key string built per game). */
  readonly #cellIndex = new Map<string, Map<string, Map<string, PairCell>>>();
  readonly #judges = new Map<string, Judge>();
  /** Pair counts per variant and pairing (made when its first pair completes), in that order. */
  readonly #pairCells: PairsCell[] = [];
  /** Per variant, pairing's first bot `a`, then `b`: its pair counts and its halves. */
  readonly #pairings = new Map<string, Map<string, Map<string, PairingFold>>>();
  readonly #bots: readonly string[];
  readonly #variants: string[];

  /** `bots` fixes the row set (bots with no games yet still appear); `variants` likewise. */
  constructor(bots: readonly string[], variants: readonly string[] = []) {
    this.#bots = bots;
    this.#variants = [...variants];
  }

  #judge(variant: string): Judge {
    let j = this.#judges.get(variant);
    if (!j) {
      const game = parseVariant(variant);
      // Undefined when the variant is too large for exact analysis: no accuracy column.
      let solver: Solver<unknown, unknown> | undefined = game.solver?.();
      // A solver that searches (it offers `bestMoveBy`) answers within a time budget: judging with it
      // would make accuracy depend on the machine's speed, and a resumed run could then differ.
      if (solver?.bestMoveBy) solver = undefined;
      j = { game, solver, texts: new WeakMap() };
      this.#judges.set(variant, j);
    }
    return j;
  }

  /**
   * The judge of each game of `variant` about to be played, given its dealt position: the match
   * feeds it every move (`MatchOptions.judgeInPlay`), and `add` then takes the game's accuracy from
   * it, without a replay.
   */
  judgeInPlay(variant: string, game: AnyGame): (start: unknown) => MoveJudge {
    const { solver } = this.#judge(variant);
    return (start) => new MoveJudge(game, solver, start);
  }

  /** Adds one finished game (interrupted games are not results and are ignored). */
  add(rec: GameRecord): void {
    if (rec.termination === 'interrupted') return;
    const judge = this.#judge(rec.variant);
    const moves = rec[JUDGED] ?? replay(judge, rec, judge.game.deal(createRng(rec.dealSeed)));
    const { first, second } = rec.seats;
    const bySecond = nested(nested(this.#cellIndex, rec.variant), first);
    let cell = bySecond.get(second);
    if (!cell) {
      cell = newCell(rec.variant, first, second);
      bySecond.set(second, cell);
      this.#cells.push(cell);
      if (!this.#variants.includes(rec.variant)) this.#variants.push(rec.variant);
    }
    addToCell(cell, rec, moves.startSeat, moves.judged(), judge.solver !== undefined);
    this.#addHalf(rec);
  }

  /** Completes a game pair when its other seating is in (games of a pair may finish in either order). */
  #addHalf(rec: GameRecord): void {
    // The pairing's bots, the seating swap undone (`pairOf`, without its array).
    const a = rec.seating === 0 ? rec.seats.first : rec.seats.second;
    const b = rec.seating === 0 ? rec.seats.second : rec.seats.first;
    const points = rec.winner === null ? 0.5 : rec.winner === a ? 1 : 0;
    const byB = nested(nested(this.#pairings, rec.variant), a);
    let fold = byB.get(b);
    if (!fold) byB.set(b, (fold = { cell: null, halves: new Map() }));
    const other = fold.halves.get(rec.deal);
    if (other === undefined) {
      fold.halves.set(rec.deal, points);
      return;
    }
    fold.halves.delete(rec.deal);
    if (!fold.cell) this.#pairCells.push((fold.cell = { variant: rec.variant, a, b, counts: [0, 0, 0, 0, 0] }));
    fold.cell.counts[pairScore(other, points)]++;
  }

  /** The aggregates folded so far, one per variant and seating of a pairing (copies). */
  cells(): PairCell[] {
    return this.#cells.map((c) => structuredClone(c));
  }

  /** The current standings with ratings. */
  snapshot(): Standings {
    const all = this.#cells;
    const pairs = this.#pairCells;
    const variants: Record<string, StandingsTable> = {};
    for (const v of this.#variants) {
      variants[v] = tableOf(
        this.#bots,
        all.filter((c) => c.variant === v),
        pairs.filter((c) => c.variant === v),
      );
    }
    return { pooled: tableOf(this.#bots, all, pairs), variants };
  }
}
