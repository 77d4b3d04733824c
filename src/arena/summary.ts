import { cpus as cpuList, platform, release } from 'node:os';
import { WorkerResults, type WorkerCheck } from './worker-check.ts';
import type { GameRecord, Termination } from './match.ts';
import type { SprtStatus } from './fold/sprt.ts';
import type { Standings, StandingsTable } from './fold/standings.ts';
import type { StartEntry } from './starts.ts';
import type { FormatStandings } from './staged/format.ts';

/** A pairing's sequential test (`a` the champion, tested against `b`) as it ended. */
export interface SprtResult extends SprtStatus {
  readonly a: string;
  readonly b: string;
}

/** What `summary.json` holds (and `arena tournament --json` prints). */
export interface TournamentSummary {
  readonly name: string;
  readonly seed: number;
  /** The results folder. */
  readonly dir: string;
  /** The spec as run (bots as labels, games as variant ids, flags applied). */
  readonly spec: Readonly<Record<string, unknown>>;
  /** False when the run was interrupted before every game was played. */
  readonly complete: boolean;
  readonly games: {
    /** Games in the schedule. */
    readonly total: number;
    /** Games in the log. */
    readonly played: number;
    readonly byTermination: Readonly<Record<Exclude<Termination, 'interrupted'>, number>>;
    /** Games not played because their pairing's sequential test had already decided. */
    readonly skipped: number;
  };
  /** One sequential test per pairing, when the spec has `sprt`. */
  readonly sprt?: readonly SprtResult[];
  /** Under a time control: the bots' think time apart from the arena's overhead (clock-dependent, like `run`). */
  readonly time?: TimeTotals;
  /** A queued tournament: each `arena worker`'s games and faults, by worker name (games without one are not counted). */
  readonly workers?: Readonly<Record<string, WorkerHealth>>;
  /** Bots that could not be started (they forfeit every game). */
  readonly failedBots: readonly { readonly bot: string; readonly reason: string }[];
  readonly standings: Standings;
  /** Time odds: each bot's clock in words (`bank 10+0.1`, `500 ms a move`), when some bot had its own. */
  readonly clocks?: Readonly<Record<string, string>>;
  /** With a start suite: its starts in play order, each with the variant whose table in `standings.variants` holds its results. */
  readonly starts?: readonly StartEntry[];
  /** A Swiss's score table with its tie-breaks, or a knockout's bracket (those formats only). */
  readonly format?: FormatStandings;
  /**
   * When and where this run happened (clock- and machine-dependent, unlike everything above):
   * the start time (ISO, UTC) of the first run of this folder, the wall time of the last run
   * (ms; a resumed run counts only itself), and the machine.
   */
  readonly run?: RunInfo;
}

/**
 * The moves of a run under a time control, timed two ways: the bots' think time (what their banks
 * were charged, the records' `us`) and the arena's overhead on top (messages, copies, scheduling:
 * the records' `ovh`). Sums of whole microseconds, so exact in any order and after a resume.
 */
export interface TimeTotals {
  /** Moves with both times (every move played under the time control). */
  readonly moves: number;
  readonly thinkMs: number;
  readonly overheadMs: number;
  /** Mean and largest overhead of one move, in µs. */
  readonly meanOverheadUs: number;
  readonly maxOverheadUs: number;
}

/** Folds records' think and overhead times into `TimeTotals` (records without `ovh` are passed over). */
export class TimeTally {
  #moves = 0;
  #thinkUs = 0;
  #overheadUs = 0;
  #maxOverheadUs = 0;

  add(rec: GameRecord): void {
    const ovh = rec.ovh;
    if (!ovh) return;
    this.#moves += ovh.length;
    for (let i = 0; i < ovh.length; i++) {
      const o = ovh[i]!;
      this.#overheadUs += o;
      if (o > this.#maxOverheadUs) this.#maxOverheadUs = o;
      this.#thinkUs += rec.us[i]!;
    }
  }

  /** The tally as [moves, think µs, overhead µs, most overhead µs] (a checkpoint's; see `restore`). */
  state(): [number, number, number, number] {
    return [this.#moves, this.#thinkUs, this.#overheadUs, this.#maxOverheadUs];
  }

  /** Takes up a `state` on a tally that has counted nothing yet. */
  restore([moves, thinkUs, overheadUs, maxOverheadUs]: readonly [number, number, number, number]): void {
    this.#moves = moves;
    this.#thinkUs = thinkUs;
    this.#overheadUs = overheadUs;
    this.#maxOverheadUs = maxOverheadUs;
  }

  /** The totals so far, or null before any timed move. */
  totals(): TimeTotals | null {
    if (this.#moves === 0) return null;
    return {
      moves: this.#moves,
      thinkMs: this.#thinkUs / 1000,
      overheadMs: this.#overheadUs / 1000,
      meanOverheadUs: Math.round(this.#overheadUs / this.#moves),
      maxOverheadUs: this.#maxOverheadUs,
    };
  }
}

/**
 * One worker's share of a queued tournament: what a cluster's keeper watches for a machine that
 * crashes bots or loses on time more than the others (fishtest's and OpenBench's worker health).
 */
export interface WorkerHealth {
  readonly games: number;
  /** Games forfeited by a crash, by time, by an illegal move (whichever bot forfeited). */
  readonly crashes: number;
  readonly timeouts: number;
  readonly illegal: number;
  /** Mean time of a move on that worker (ms, as the records' `us`). */
  readonly meanMoveMs: number;
  /** Why the coordinator paused it (it got no more jobs): its share of crashes and time losses. */
  readonly paused?: string;
  /** Its results against the others' (worker-check.ts); absent when it was not checked. */
  readonly check?: WorkerCheck;
}

/** A worker's health as sums (moves and their µs), which add up in any order; `healthOf` reads them. */
export interface WorkerCounts {
  games: number;
  crashes: number;
  timeouts: number;
  illegal: number;
  moves: number;
  us: number;
}

/** Counts one game into a worker's sums (made when `counts` is undefined); returns them. */
export function countGame(counts: WorkerCounts | undefined, rec: GameRecord): WorkerCounts {
  const w = counts ?? { games: 0, crashes: 0, timeouts: 0, illegal: 0, moves: 0, us: 0 };
  w.games++;
  if (rec.termination === 'crash') w.crashes++;
  else if (rec.termination === 'timeout') w.timeouts++;
  else if (rec.termination === 'illegal-move') w.illegal++;
  w.moves += rec.us.length;
  for (let i = 0; i < rec.us.length; i++) w.us += rec.us[i]!;
  return w;
}

/** A worker's health from its sums. */
export function healthOf({ games, crashes, timeouts, illegal, moves, us }: WorkerCounts): WorkerHealth {
  return { games, crashes, timeouts, illegal, meanMoveMs: moves ? Math.round(us / moves) / 1000 : 0 };
}

/** Each worker's health as a run's fold holds it so far (see `WorkerTally`): what a queue's coordinator reads to pause a worker and to show `queue status`. */
export interface WorkerHealthView {
  /** Each worker's sums, by name. */
  counts(): ReadonlyMap<string, WorkerCounts>;
  /** Each checked worker's results against the others' (worker-check.ts). */
  checks(): ReadonlyMap<string, WorkerCheck>;
}

/**
 * Folds records into each worker's `WorkerHealth` (sums: the same in any order and after a resume,
 * whose log is folded again first, so every figure covers the whole tournament).
 */
export class WorkerTally implements WorkerHealthView {
  readonly #by = new Map<string, WorkerCounts>();
  readonly #results = new WorkerResults();

  add(rec: GameRecord): void {
    if (rec.worker === undefined) return;
    this.#by.set(rec.worker, countGame(this.#by.get(rec.worker), rec));
    this.#results.add(rec);
  }

  counts(): ReadonlyMap<string, WorkerCounts> {
    return this.#by;
  }

  checks(): ReadonlyMap<string, WorkerCheck> {
    return this.#results.checks();
  }

  /** Each worker's health by name (sorted), with its check against the others, or null when no game was played on a worker. */
  totals(): Record<string, WorkerHealth> | null {
    if (this.#by.size === 0) return null;
    const checks = this.#results.checks();
    return Object.fromEntries(
      [...this.#by.keys()].sort().map((name) => {
        const check = checks.get(name);
        return [name, { ...healthOf(this.#by.get(name)!), ...(check ? { check } : {}) }];
      }),
    );
  }
}

/** Health in words: `12 games, 1 crash, 2 time losses, 0.4 ms a move`. */
export function healthText(h: WorkerHealth): string {
  const faults = [
    h.crashes ? `${h.crashes} crash${h.crashes === 1 ? '' : 'es'}` : '',
    h.timeouts ? `${h.timeouts} time loss${h.timeouts === 1 ? '' : 'es'}` : '',
    h.illegal ? `${h.illegal} illegal move${h.illegal === 1 ? '' : 's'}` : '',
  ].filter((f) => f !== '');
  const check = h.check ? [`results vs the others: chi-square ${h.check.chi2} on ${h.check.df} df, p ${h.check.p}${h.check.outlier ? ' (OUTLIER)' : ''}`] : [];
  return [`${h.games} game${h.games === 1 ? '' : 's'}`, ...faults, `${h.meanMoveMs} ms a move`, ...check, ...(h.paused ? [`PAUSED: ${h.paused}`] : [])].join(', ');
}

/** The clock and machine facts of a run, for reports. */
export interface RunInfo {
  readonly startedAt: string;
  readonly wallMs: number;
  /** The clock moves were charged on here (`cpu` asked for where there is none runs on `wall`); absent in summaries written before there was a choice. */
  readonly clock?: 'cpu' | 'wall';
  readonly machine: { readonly cpus: number; readonly cpu: string; readonly os: string; readonly node: string };
}

/** The machine this process runs on, as `RunInfo.machine`. */
export function machineInfo(): RunInfo['machine'] {
  const cpus = cpuList();
  return { cpus: cpus.length, cpu: (cpus[0]?.model ?? 'unknown CPU').trim(), os: `${platform()} ${release()}`, node: process.versions.node };
}

const CSV_HEADER = [
  'scope',
  'rank',
  'bot',
  'games',
  'wins',
  'draws',
  'losses',
  'points',
  'score_pct',
  'mean_margin',
  'forfeit_timeout',
  'forfeit_crash',
  'forfeit_illegal_move',
  'mean_move_ms',
  'max_move_ms',
  'elo',
  'elo_ci95',
  'los_next',
  'accuracy_pct',
  'blunders',
];

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v;
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function tableRows(scope: string, t: StandingsTable): string[] {
  const rating = new Map(t.ratings.ratings.map((r) => [r.bot, r]));
  return t.bots.map((b, i) => {
    const r = rating.get(b.bot);
    const cells: (string | number | null)[] = [
      scope,
      i + 1,
      b.bot,
      b.games,
      b.wins,
      b.draws,
      b.losses,
      b.points,
      b.games ? (100 * b.points) / b.games : null,
      b.scoredGames ? b.marginSum / b.scoredGames : null,
      b.forfeits.timeout,
      b.forfeits.crash,
      b.forfeits['illegal-move'],
      b.meanMoveMs,
      b.maxMoveMs,
      r ? r.elo : null,
      r ? r.ci95 : null,
      r?.losNext ?? null,
      b.accuracy && b.accuracy.moves ? (100 * b.accuracy.accurate) / b.accuracy.moves : null,
      b.accuracy ? b.accuracy.blunders : null,
    ];
    return cells.map(csvCell).join(',');
  });
}

/** `standings.csv`: the pooled table (scope `all`), then one table per variant (scope = variant id). */
export function standingsCsv(standings: Standings): string {
  const lines = [CSV_HEADER.join(','), ...tableRows('all', standings.pooled)];
  for (const [variant, t] of Object.entries(standings.variants)) lines.push(...tableRows(variant, t));
  return `${lines.join('\n')}\n`;
}
