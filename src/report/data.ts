import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ArenaError, UsageError } from '../core/errors.ts';
import { otherSeat, type AnyGame, type Seat, type Solver } from '../core/game.ts';
import type { FaultKind } from '../core/referee.ts';
import { createRng } from '../core/rng.ts';
import { visible } from '../core/text.ts';
import { findPeriod, outcomeClasses, tabulate } from '../games/analysis.ts';
import { parseVariant } from '../games/index.ts';
import { startOdds, type StartOdds } from '../games/start-odds.ts';
import { startVerdict } from '../games/starts.ts';
import { expandStarts, type StartEntry } from '../arena/starts.ts';
import type { GameRecord } from '../arena/match.ts';
import { openResultsFolder, readFinishedGames, RESULTS_FILES, type LogReading } from '../arena/results/index.ts';
import { anchorStandings, StandingsBuilder, type Standings } from '../arena/fold/standings.ts';
import { parseAnchor, readRatingsFile } from '../arena/ratings-file.ts';
import type { FormatStandings } from '../arena/staged/format.ts';
import { healthText, type TimeTotals, type WorkerHealth } from '../arena/summary.ts';
import { DEFAULT_GRACE_MS } from '../hosting/index.ts';

/** Whether a summary's `time` block has the shape `TimeTotals` (a summary is read back from disk). */
function isTimeTotals(v: unknown): v is TimeTotals {
  if (v === null || typeof v !== 'object') return false;
  const t = v as Record<string, unknown>;
  return ['moves', 'thinkMs', 'overheadMs', 'meanOverheadUs', 'maxOverheadUs'].every((k) => typeof t[k] === 'number');
}

/**
 * The picture data of a position for the page's board drawer (the TUI's `boardView`, handed in by
 * the CLI: the report sits below the TUI and draws what the terminal draws from the same data).
 */
export type BoardViewFn = (game: AnyGame, state: unknown, prev?: unknown) => object;

/** One move of a replayable game. */
export interface ReportPly {
  readonly move: string;
  readonly seat: Seat;
  readonly ms: number;
  /** The solver's verdict: true kept the best result, false did not, null not judged. */
  readonly ok: boolean | null;
  /** The position after the move, as picture data. */
  readonly board: object;
}

/** One finished game, ready to step through in the page. */
export interface ReportGame {
  /** The game's number as `arena replay --game N` takes it. */
  readonly number: number;
  readonly variant: string;
  readonly seats: { readonly first: string; readonly second: string };
  /** `1-0`, `0-1` or `½-½` with scores. */
  readonly result: string;
  /** The winner's seat, null for a draw. */
  readonly winner: Seat | null;
  readonly termination: string;
  readonly reason: string | null;
  /** The seat to move in the dealt position (the first seat, or Right's in `partizan{start=right}`). */
  readonly mover: Seat;
  readonly start: object;
  readonly plies: readonly ReportPly[];
  /** Why the log's moves could not all be replayed, or null. */
  readonly problem: string | null;
}

/** What went wrong in a game: a bot forfeited it by a fault, or its process was replaced mid-game. */
export interface ReportIncident {
  /** The game's number as `arena replay --game N` takes it. */
  readonly number: number;
  readonly variant: string;
  /** The bot at fault, and its opponent. */
  readonly bot: string;
  readonly opponent: string;
  /** The fault that lost the game, or `restart`: the bot's process was replaced and it played on. */
  readonly kind: FaultKind | 'restart';
  /** Moves played before it. */
  readonly ply: number;
  /** Why, as the arena recorded it (control characters made visible: it may quote the bot). */
  readonly reason: string;
  /** Whether the game is among the page's replays. */
  readonly replayable: boolean;
}

/** Incidents listed one by one in a report; past that they are counted. */
export const MAX_INCIDENTS = 1000;

/** A game's incidents: its forfeit (the faulty seat's), then each restart of a bot's process. */
function incidentsOf(rec: GameRecord, replayable: boolean): ReportIncident[] {
  const at = (seat: Seat, kind: ReportIncident['kind'], ply: number, reason: string): ReportIncident => ({
    number: rec.index + 1,
    variant: rec.variant,
    bot: rec.seats[seat],
    opponent: rec.seats[otherSeat(seat)],
    kind,
    ply,
    reason: visible(reason),
    replayable,
  });
  const out = (rec.restarts ?? []).map((r) => at(r.seat, 'restart', r.ply, r.reason));
  if (rec.faulty && rec.termination !== 'normal' && rec.termination !== 'adjudicated' && rec.termination !== 'interrupted') {
    out.unshift(at(rec.faulty, rec.termination, rec.moves.length, rec.reason ?? ''));
  }
  return out;
}

/** What the page shows about one variant. */
export interface ReportVariant {
  readonly id: string;
  readonly family: string;
  readonly title: string;
  /** The solver's first-mover odds over the variant's deals (null without an exact solver). */
  readonly odds: StartOdds | null;
  /** Games played, and the points the seat that moved first scored in them. */
  readonly observed: { readonly games: number; readonly moverPoints: number };
  /** One-pile families: the outcome class of every start pile 0..upto, and the dealt range. */
  readonly strip: {
    readonly classes: readonly string[];
    readonly dealt: readonly [number, number];
    readonly period: { readonly preperiod: number; readonly period: number } | null;
  } | null;
  /** Piles: nim-values of one pile 0..upto. */
  readonly nimValues: readonly number[] | null;
}

/** One start of a start suite: where it is in the suite, the variant its games are in, and the solver's verdict on it. */
export interface ReportStart extends StartEntry {
  /** `first player wins (N)`, `value -2`; null without an exact solver. */
  readonly verdict: string | null;
}

/** How and where the tournament ran, when `summary.json` recorded it. */
export interface ReportRun {
  readonly startedAt: string | null;
  readonly wallMs: number | null;
  readonly machine: string | null;
}

/** `summary.json`'s `workers` in words (healthText), those of a known shape; null when there are none. */
function workerHealthOf(value: unknown): Record<string, string> | null {
  const health = Object.entries(obj(value)).flatMap(([w, h]) => {
    const x = obj(h);
    const known = ['games', 'crashes', 'timeouts', 'illegal', 'meanMoveMs'].every((k) => typeof x[k] === 'number');
    return known ? [[w, healthText(x as unknown as WorkerHealth)] as const] : [];
  });
  return health.length ? Object.fromEntries(health) : null;
}

/** Whether the log's lines were checked against the folder's checksum chain, what was left out, and where games were played. */
export interface LogTrust extends LogReading {
  /**
   * Games played on `arena worker` processes (a queued tournament), by worker name: the coordinator
   * replayed each through the referee from its deal before logging it, and the checksums cover the
   * log from then on, not the workers' play.
   */
  readonly workers: Readonly<Record<string, number>>;
}

/** The games of a log the report may show (see `readFinishedGames`), the games played on workers counted. */
function readRecords(dir: string, file: string, take: (rec: GameRecord) => void): LogTrust {
  const workers: Record<string, number> = {};
  const reading = readFinishedGames(dir, file, (rec) => {
    if (rec.worker !== undefined) workers[rec.worker] = (workers[rec.worker] ?? 0) + 1;
    take(rec);
  });
  return { ...reading, workers };
}

/** Move-time quantiles of one bot (ms), for a box plot drawn from them rather than from every move. */
export interface MoveTimeStats {
  readonly bot: string;
  readonly moves: number;
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
}

/** Quantiles by linear interpolation between the order statistics of a sorted sample. */
function quantile(sorted: Float64Array, q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function moveTimeStats(bot: string, ms: readonly number[]): MoveTimeStats {
  const sorted = Float64Array.from(ms).sort();
  return { bot, moves: sorted.length, min: sorted[0]!, q1: quantile(sorted, 0.25), median: quantile(sorted, 0.5), q3: quantile(sorted, 0.75), max: sorted[sorted.length - 1]! };
}

/** Options of `loadReportData`. */
export interface ReportOptions {
  /**
   * Most games made replayable (default 5,000; `Infinity` for every one): the first of each
   * variant in the log, an equal share per variant of the spec.
   */
  readonly replays?: number;
}

/** One bot's rating in one tournament of a ratings file. */
export interface RatingPoint {
  /** The tournament's place in the file (0 the oldest) and its label (`#1 name`). */
  readonly order: number;
  readonly tournament: string;
  readonly bot: string;
  readonly elo: number;
  readonly ci95: number;
}

/** A staged format's standings as `summary.json` holds them, when it has a known shape. */
function formatOf(v: unknown): FormatStandings | null {
  if (v === null || typeof v !== 'object') return null;
  const f = v as Record<string, unknown>;
  if (f['format'] === 'swiss' && Array.isArray(f['lines'])) return v as FormatStandings;
  if (f['format'] === 'knockout' && Array.isArray(f['rounds'])) return v as FormatStandings;
  return null;
}

/** The ratings file the spec wrote to (or read from), as rating points per bot and tournament. */
function ratingsHistoryOf(spec: Readonly<Record<string, unknown>>): ReportData['ratingsHistory'] {
  const file = typeof spec['ratingsOut'] === 'string' ? spec['ratingsOut'] : typeof spec['ratingsIn'] === 'string' ? spec['ratingsIn'] : null;
  if (file === null) return null;
  try {
    const { tournaments } = readRatingsFile(file, 'ratings file');
    const points = tournaments.flatMap((t, order) => Object.entries(t.ratings).map(([bot, r]) => ({ order, tournament: `#${order + 1} ${t.name}`, bot, elo: r.elo, ci95: r.ci95 })));
    return { file, points };
  } catch (err) {
    // The report is still made without the chart; the page says why it is missing.
    if (err instanceof ArenaError) return { file, problem: err.message };
    throw err;
  }
}

/** Games replayable in a report by default: every game of an ordinary tournament (packed, about 50 bytes a game). */
export const DEFAULT_REPLAYS = 5000;

/** Everything the page is built from. */
export interface ReportData {
  readonly name: string;
  readonly seed: number | null;
  readonly dir: string;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly complete: boolean;
  readonly gamesTotal: number | null;
  readonly run: ReportRun;
  /** How far the log's lines were verified (`games.key` checksums), and what was left out. */
  readonly trust: LogTrust;
  /** The SPRT decision recorded in `summary.json`, when the tournament ran one. */
  readonly sprt: unknown;
  readonly timePerMoveMs: number | null;
  /** How far past its limit a bot may answer before it loses on time (ms: `timeMarginMs`). */
  readonly timeMarginMs: number;
  /** The time control (`--tc` notation) and its margin (ms), when the tournament had one. */
  readonly timeControl: { readonly notation: string; readonly marginMs: number } | null;
  /** Time odds: each bot's own clock in words (`summary.json` `clocks`), when some bot had one. */
  readonly clocks: Readonly<Record<string, string>> | null;
  /** Think time and arena overhead of the moves under the time control (`summary.json` `time`). */
  readonly time: TimeTotals | null;
  /** Each queue worker's health in words (`summary.json` `workers`: faults, pause, check against the others), when workers played. */
  readonly workerHealth: Readonly<Record<string, string>> | null;
  /** The standings from the log, ratings shifted to the spec's anchor when it has one. */
  readonly standings: Standings;
  /** A Swiss's score table or a knockout's bracket (`summary.json` `format`), with those formats. */
  readonly format: FormatStandings | null;
  /** Each bot's rating over the tournaments of the spec's ratings file, oldest first; or why it could not be read. */
  readonly ratingsHistory: { readonly file: string; readonly points: readonly RatingPoint[] } | { readonly file: string; readonly problem: string } | null;
  readonly variants: readonly ReportVariant[];
  /** The start suite in play order, when the tournament played one (its results: `standings.variants[start.variant]`). */
  readonly starts: readonly ReportStart[] | null;
  readonly games: readonly ReportGame[];
  /** Every move's time by bot (ms). */
  readonly moveTimes: readonly MoveTimeStats[];
  /** Finished games shown in the standings (every trusted line of the log). */
  readonly played: number;
  /** Games lost on time, by bot. */
  readonly timeForfeits: Readonly<Record<string, number>>;
  /** Forfeits and restarts in log order, the first `MAX_INCIDENTS`. */
  readonly incidents: readonly ReportIncident[];
  /** All of them counted by bot and kind (bots without any left out). */
  readonly incidentCounts: Readonly<Record<string, Readonly<Partial<Record<ReportIncident['kind'], number>>>>>;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** The seat that makes move `i` of a game whose first move is `mover`'s (turns alternate). */
function moverAt(mover: Seat, i: number): Seat {
  return i % 2 === 0 ? mover : otherSeat(mover);
}

/** Largest start pile drawn in a P-position strip (the period shows well before). */
const STRIP_MAX = 400;

/** `1-0`, `0-1` or `½-½`, with scores when the game has them. */
function resultOf(rec: GameRecord): string {
  const w = rec.outcome.winner;
  const score = w === null ? '½-½' : w === 'first' ? '1-0' : '0-1';
  return rec.outcome.scores ? `${score} (${rec.outcome.scores[0]}:${rec.outcome.scores[1]})` : score;
}

/** The variant's solver when its verdicts do not depend on the machine (no time-budgeted search). */
function exactSolver(game: AnyGame): Solver<unknown, unknown> | undefined {
  const s = game.solver?.(); // never throws: a variant too large to solve has none
  return s && !s.bestMoveBy ? s : undefined;
}

/** Replays a logged game move by move, judging each move with the solver. */
function replayGame(rec: GameRecord, game: AnyGame, solver: Solver<unknown, unknown> | undefined, view: BoardViewFn): ReportGame {
  const start = game.deal(createRng(rec.dealSeed));
  const base = {
    number: rec.index + 1,
    variant: rec.variant,
    seats: rec.seats,
    result: resultOf(rec),
    winner: rec.outcome.winner,
    termination: rec.termination,
    // The reason may quote a bot: the page shows it as text, its control characters made visible.
    reason: rec.reason === null ? null : visible(rec.reason),
    mover: game.toMove(start),
    start: view(game, start),
  };
  if (JSON.stringify(game.toJSON(start)) !== JSON.stringify(rec.start)) {
    return { ...base, plies: [], problem: 'the deal does not match the log (the variant’s rules changed since)' };
  }
  const plies: ReportPly[] = [];
  let state = start;
  // Each position is valued once: the value after a move is the one before the next.
  let value: number | null = null;
  let judged = solver !== undefined;
  const valueOf = (s: unknown): number | null => {
    if (!judged) return null;
    try {
      return solver!.value(s);
    } catch (err) {
      if (!(err instanceof ArenaError)) throw err;
      judged = false; // beyond the solver's tables: the rest of the game goes unjudged
      return null;
    }
  };
  value = valueOf(state);
  for (let i = 0; i < rec.moves.length; i++) {
    const m = rec.moves[i]!;
    const seat = game.toMove(state);
    let next: unknown;
    try {
      next = game.play(state, game.parseMove(m, state));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ...base, plies, problem: `move ${plies.length + 1} (${m}) does not replay: ${why}` };
    }
    const before = value;
    value = valueOf(next);
    const ok = before === null || value === null ? null : -value === before;
    plies.push({ move: m, seat, ms: (rec.us[i] ?? 0) / 1000, ok, board: view(game, next, state) });
    state = next;
  }
  return { ...base, plies, problem: null };
}

/** The outcome class of each start pile 0..upto of a one-pile family, from its tabulation. */
function stripOf(game: AnyGame): ReportVariant['strip'] {
  if (!['subtraction', 'no-repeat', 'partizan'].includes(game.family)) return null;
  const n = obj(game.params)['n'];
  const range = obj(n);
  const lo = Number(range['min']);
  const hi = Number(range['max']);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null;
  let period: { preperiod: number; period: number } | null = null;
  try {
    period = findPeriod(game) ?? null;
  } catch (err) {
    if (!(err instanceof ArenaError)) throw err;
  }
  // Far enough to show the dealt range, and a few periods where the period is short.
  const want = Math.max(Math.min(hi, STRIP_MAX), period ? Math.min(STRIP_MAX, period.preperiod + 4 * period.period) : 0, 40);
  const upto = Math.min(want, STRIP_MAX);
  const tab = tabulate(game, upto);
  const classes = tab && outcomeClasses(tab, upto);
  if (!classes) return null;
  return { classes, dealt: [lo, hi], period };
}

/** Nim-values of one pile 0..upto (piles family). */
function nimValuesOf(game: AnyGame): readonly number[] | null {
  if (game.family !== 'piles') return null;
  const size = obj(obj(game.params)['size']);
  const hi = Math.min(Math.max(Number(size['max']) || 0, 40), STRIP_MAX);
  return tabulate(game, hi)?.nimValues ?? null;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The `run` block of `summary.json` (start time, wall time, machine), when it has one. */
function runOf(summary: Json, dir: string): ReportRun {
  const run = obj(summary['run']);
  const machine = obj(run['machine']);
  const machineText =
    typeof machine['cpu'] === 'string'
      ? `${String(machine['cpus'])} × ${machine['cpu']}, ${String(machine['os'])}, Node ${String(machine['node'])}`
      : null;
  let startedAt = typeof run['startedAt'] === 'string' ? run['startedAt'] : null;
  // Folders from before the run block: the spec file is written when the tournament starts.
  if (startedAt === null) startedAt = statSync(join(dir, RESULTS_FILES.spec)).mtime.toISOString();
  return { startedAt, wallMs: typeof run['wallMs'] === 'number' ? run['wallMs'] : null, machine: machineText };
}

/** The start suite of a saved spec as it was played (same seed, order and count), with the solver's verdict on each start; null without one. */
function suiteOf(spec: Json, where: string): ReportStart[] | null {
  const lines = spec['starts'];
  if (!Array.isArray(lines) || !Array.isArray(spec['games'])) return null;
  const bases = spec['games'].filter((g): g is string => typeof g === 'string').map((id) => parseVariant(id));
  const { starts, variants } = expandStarts(
    {
      starts: lines.map(String),
      seed: typeof spec['seed'] === 'number' ? spec['seed'] : 1,
      startsOrder: spec['startsOrder'] === 'random' ? 'random' : 'sequential',
      ...(typeof spec['startsPerPair'] === 'number' ? { startsPerPair: spec['startsPerPair'] } : {}),
    },
    bases,
    where,
  );
  return starts.map((st, i) => ({ ...st, verdict: startVerdict(variants[i]!) }));
}

/**
 * Reads a results folder and prepares everything the report shows: standings folded from the
 * log, each variant's exact first-mover odds, move-time quantiles, and the games (up to
 * `options.replays`) replayed and judged by the solver.
 */
export function loadReportData(dir: string, view: BoardViewFn, options: ReportOptions = {}): ReportData {
  if (!existsSync(join(dir, RESULTS_FILES.games)) || !existsSync(join(dir, RESULTS_FILES.spec))) {
    throw new UsageError(`Expected a results folder (with ${RESULTS_FILES.spec} and ${RESULTS_FILES.games} in it), got ${JSON.stringify(dir)}`);
  }
  const folder = openResultsFolder(dir, 'report');
  const spec = obj(folder.spec);
  const summary = obj(readJson(join(dir, RESULTS_FILES.summary)));
  const starts = suiteOf(spec, join(dir, RESULTS_FILES.spec));
  // With a start suite the games are in its start variants, not in the spec's.
  const specGames = starts ? starts.map((st) => st.variant) : Array.isArray(spec['games']) ? spec['games'].filter((g): g is string => typeof g === 'string') : [];
  const specBots = Array.isArray(spec['bots']) ? spec['bots'].filter((b): b is string => typeof b === 'string') : [];
  // Bots and variants the log adds beyond the spec's get their rows as they come.
  const builder = new StandingsBuilder(specBots, specGames);
  const variantIds = new Set(specGames);

  const gamesOf = new Map<string, { game: AnyGame; solver: Solver<unknown, unknown> | undefined }>();
  const variantOf = (id: string) => {
    let v = gamesOf.get(id);
    if (!v) {
      const game = parseVariant(id);
      gamesOf.set(id, (v = { game, solver: exactSolver(game) }));
    }
    return v;
  };
  const maxReplays = options.replays ?? DEFAULT_REPLAYS;
  // The replays are shared out evenly over the spec's variants (the log is variant-major).
  const quota = Math.max(1, Math.ceil(maxReplays / Math.max(1, specGames.length)));
  const perVariant = new Map<string, number>();
  const games: ReportGame[] = [];
  const times = new Map<string, number[]>();
  const timeForfeits: Record<string, number> = {};
  const incidents: ReportIncident[] = [];
  const incidentCounts: Record<string, Partial<Record<ReportIncident['kind'], number>>> = {};
  const observed = new Map<string, { games: number; moverPoints: number }>();
  let played = 0;
  // One pass over the log in constant memory but for the replays and the move times.
  const trust = readRecords(dir, folder.gamesFile, (rec) => {
    if (rec.termination === 'interrupted') return;
    played++;
    builder.add(rec);
    variantIds.add(rec.variant);
    const { game, solver } = variantOf(rec.variant);
    let mover: Seat;
    const replayed = perVariant.get(rec.variant) ?? 0;
    const replayable = games.length < maxReplays && replayed < quota;
    if (replayable) {
      perVariant.set(rec.variant, replayed + 1);
      const g = replayGame(rec, game, solver, view);
      games.push(g);
      mover = g.mover;
    } else mover = game.toMove(game.deal(createRng(rec.dealSeed)));
    for (const i of incidentsOf(rec, replayable)) {
      const counts = (incidentCounts[i.bot] ??= {});
      counts[i.kind] = (counts[i.kind] ?? 0) + 1;
      if (incidents.length < MAX_INCIDENTS) incidents.push(i);
    }
    for (let i = 0; i < rec.us.length; i++) {
      const seat = moverAt(mover, i);
      const bot = rec.seats[seat];
      let list = times.get(bot);
      if (!list) times.set(bot, (list = []));
      list.push(rec.us[i]! / 1000);
    }
    if (rec.termination === 'timeout' && rec.faulty) timeForfeits[rec.seats[rec.faulty]] = (timeForfeits[rec.seats[rec.faulty]] ?? 0) + 1;
    const o = observed.get(rec.variant) ?? { games: 0, moverPoints: 0 };
    o.games++;
    o.moverPoints += rec.outcome.winner === null ? 0.5 : rec.outcome.winner === mover ? 1 : 0;
    observed.set(rec.variant, o);
  });
  games.sort((a, b) => a.number - b.number);
  const moveTimes = [...times].map(([bot, ms]) => moveTimeStats(bot, ms));
  const variants: ReportVariant[] = [...variantIds].map((id) => {
    const { game } = variantOf(id);
    return {
      id,
      family: game.family,
      title: game.title,
      odds: startOdds(game),
      observed: observed.get(id) ?? { games: 0, moverPoints: 0 },
      strip: stripOf(game),
      nimValues: nimValuesOf(game),
    };
  });
  const totalGames = obj(summary['games'])['total'];
  const timeMarginMs = typeof spec['timeMarginMs'] === 'number' ? spec['timeMarginMs'] : DEFAULT_GRACE_MS;
  return {
    name: typeof spec['name'] === 'string' ? spec['name'] : 'tournament',
    seed: typeof spec['seed'] === 'number' ? spec['seed'] : null,
    dir,
    spec,
    complete: summary['complete'] === true,
    gamesTotal: typeof totalGames === 'number' ? totalGames : null,
    run: runOf(summary, dir),
    trust,
    sprt: summary['sprt'] ?? null,
    timePerMoveMs: typeof spec['timePerMoveMs'] === 'number' ? spec['timePerMoveMs'] : null,
    timeMarginMs,
    timeControl: typeof spec['timeControl'] === 'string' ? { notation: spec['timeControl'], marginMs: timeMarginMs } : null,
    clocks: Object.keys(obj(summary['clocks'])).length ? (obj(summary['clocks']) as Record<string, string>) : null,
    time: isTimeTotals(summary['time']) ? summary['time'] : null,
    workerHealth: workerHealthOf(summary['workers']),
    standings: typeof spec['anchor'] === 'string' ? anchorStandings(builder.snapshot(), parseAnchor(spec['anchor'])) : builder.snapshot(),
    format: formatOf(summary['format']),
    ratingsHistory: ratingsHistoryOf(spec),
    variants,
    starts,
    games,
    played,
    moveTimes,
    timeForfeits,
    incidents,
    incidentCounts,
  };
}
