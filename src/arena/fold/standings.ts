import type { Seat } from '../../core/game.ts';
import { parseVariant } from '../../games/index.ts';
import type { FaultKind } from '../../hosting/index.ts';
import type { GameRecord } from '../match.ts';
import { VariantJudge, type Accuracy, type GameJudgement } from './accuracy.ts';
import { nested, PairTracker, type CompletedPair, type HalfPair } from './pairs.ts';
import { anchorFit, fitRatings, type Anchor, type RatingFit, type SeatedResult } from './ratings.ts';
import type { Pentanomial } from './sprt.ts';

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

/** A standings builder's aggregates as plain data (`StandingsBuilder.state`). */
export interface StandingsState {
  readonly variants: readonly string[];
  readonly cells: readonly PairCell[];
  readonly pairCells: readonly PairsCell[];
  readonly halves: readonly HalfPair[];
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
export interface PairsCell {
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
const SEAT_INDICES = [0, 1] as const;

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
function addToCell(c: PairCell, rec: GameRecord, { startSeat, accuracy: judged }: GameJudgement, hasSolver: boolean): void {
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
  // Summed in locals, each seat's moves at every other ply, and written once (this runs for every game).
  const times = rec.us;
  const n = rec.moves.length;
  for (const seat of SEAT_INDICES) {
    let total = 0;
    let max = c.maxUs[seat];
    let moves = 0;
    for (let i = (seat - SEAT_INDEX[startSeat]) & 1; i < n; i += 2) {
      const us = times[i]!;
      total += us;
      if (us > max) max = us;
      moves++;
    }
    c.moves[seat] += moves;
    c.totalUs[seat] += total;
    c.maxUs[seat] = max;
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
  readonly #judges = new Map<string, VariantJudge>();
  /** Pair counts per variant and pairing (made when its first pair completes), in that order. */
  readonly #pairCells: PairsCell[] = [];
  /** The pair counts by variant, pairing's first bot `a`, then `b`. */
  readonly #pairIndex = new Map<string, Map<string, Map<string, PairsCell>>>();
  readonly #pairs = new PairTracker();
  readonly #bots: readonly string[];
  readonly #variants: string[];

  /** `bots` fixes the row set (bots with no games yet still appear); `variants` likewise. */
  constructor(bots: readonly string[], variants: readonly string[] = []) {
    this.#bots = bots;
    this.#variants = [...variants];
  }

  /** The accuracy judge of a variant's games (its solver built once). */
  judge(variant: string): VariantJudge {
    let j = this.#judges.get(variant);
    if (!j) this.#judges.set(variant, (j = new VariantJudge(parseVariant(variant))));
    return j;
  }

  /**
   * Adds one finished game (interrupted games are not results and are ignored). `judgement` is what
   * a judge that followed the game as it was played found (`MoveJudge.judgement`); without it the
   * game is replayed from its record. Returns the game's pair once both of its games are in.
   */
  add(rec: GameRecord, judgement: GameJudgement = this.judge(rec.variant).replay(rec)): CompletedPair | null {
    if (rec.termination === 'interrupted') return null;
    const { first, second } = rec.seats;
    const bySecond = nested(nested(this.#cellIndex, rec.variant), first);
    let cell = bySecond.get(second);
    if (!cell) {
      cell = newCell(rec.variant, first, second);
      bySecond.set(second, cell);
      this.#cells.push(cell);
      if (!this.#variants.includes(rec.variant)) this.#variants.push(rec.variant);
    }
    addToCell(cell, rec, judgement, this.judge(rec.variant).solver !== undefined);
    const pair = this.#pairs.add(rec);
    if (pair) this.#countPair(pair);
    return pair;
  }

  #countPair(pair: CompletedPair): void {
    const byB = nested(nested(this.#pairIndex, pair.variant), pair.a);
    let cell = byB.get(pair.b);
    if (!cell) {
      byB.set(pair.b, (cell = { variant: pair.variant, a: pair.a, b: pair.b, counts: [0, 0, 0, 0, 0] }));
      this.#pairCells.push(cell);
    }
    cell.counts[pair.score]++;
  }

  /** The aggregates folded so far, one per variant and seating of a pairing (copies). */
  cells(): PairCell[] {
    return this.#cells.map((c) => structuredClone(c));
  }

  /** Everything folded so far, as plain data (a checkpoint's; see `restore`). */
  state(): StandingsState {
    return { variants: [...this.#variants], cells: this.cells(), pairCells: this.#pairCells.map((c) => structuredClone(c)), halves: this.#pairs.state() };
  }

  /** Takes up a `state` on a builder that has folded nothing yet: it then stands where the one that made it stood. */
  restore(state: StandingsState): void {
    for (const v of state.variants) if (!this.#variants.includes(v)) this.#variants.push(v);
    for (const c of state.cells) {
      const cell = structuredClone(c);
      nested(nested(this.#cellIndex, cell.variant), cell.first).set(cell.second, cell);
      this.#cells.push(cell);
    }
    for (const c of state.pairCells) {
      const cell = structuredClone(c);
      nested(nested(this.#pairIndex, cell.variant), cell.a).set(cell.b, cell);
      this.#pairCells.push(cell);
    }
    this.#pairs.restore(state.halves);
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

/** Standings with every table's ratings shifted so the anchor bot has its value (see `anchorFit`). */
export function anchorStandings(s: Standings, anchor: Anchor): Standings {
  const pin = (t: StandingsTable): StandingsTable => ({ ...t, ratings: anchorFit(t.ratings, anchor) });
  return { pooled: pin(s.pooled), variants: Object.fromEntries(Object.entries(s.variants).map(([v, t]) => [v, pin(t)])) };
}
