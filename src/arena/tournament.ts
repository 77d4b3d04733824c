/**
 * The runner: a prepared tournament played from its first game to its summary. It owns the
 * schedule (cursor.ts), the results folder (results/), the fold (fold/) and the events; an
 * executor (executor.ts) plays the pairs it hands out.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeFileAtomic } from '../platform/files.ts';
import { GroupCommit } from './commit.ts';
import { ScheduleCursor } from './cursor.ts';
import type { ArenaEvent, EventSink, StandingsEvent } from './events.ts';
import type { ExecutionContext, Executor } from './executor.ts';
import type { GameJudgement } from './fold/accuracy.ts';
import { TournamentFold } from './fold/fold.ts';
import { sprtConfig } from './fold/sprt.ts';
import { LocalPool, type LocalPoolOptions } from './local-pool.ts';
import type { GameRecord } from './match.ts';
import type { PauseGate } from './pause.ts';
import { pairSettings, runBotData, savedSpec, scheduleOf, stagedFormatOf, type PreparedTournament } from './prepare.ts';
import { createRunFolder, openResultsFolder, RESULTS_FILES, resumeRunFolder, type RunFolder } from './results/index.ts';
import { appendRatings, parseAnchor, ratingsEntry } from './ratings-file.ts';
import { validateSpec, type TournamentSpec } from './spec.ts';
import { clockText } from './time-control.ts';
import { StagedCursor } from './staged/cursor.ts';
import type { StagedFormat } from './staged/format.ts';
import { machineInfo, standingsCsv, type SprtResult, type TournamentSummary } from './summary.ts';
import { usableClock } from '../platform/cpu-clock.ts';

export { PauseGate } from './pause.ts';
export { prepareTournament, runBotData, type Entrant, type PreparedTournament } from './prepare.ts';

/** Options of a run. */
export interface RunOptions {
  /** Holds back new games while paused (see `PauseGate`). */
  readonly pause?: PauseGate;
  /** Receives the events (default: none). */
  readonly sink?: EventSink;
  /** Aborting stops the tournament: running games are dropped (replayed on resume), the log is flushed. */
  readonly signal?: AbortSignal;
  /** Continue this results folder (from `readResults`) instead of creating one. */
  readonly resumeDir?: string;
  /** Extra time after a deadline before a bot is out of time (ms). */
  readonly graceMs?: number;
  /** Minimum time between two `standings` events while running (ms). */
  readonly standingsEveryMs?: number;
  /**
   * What plays the games, given the results folder (default: a local pool on this machine,
   * `spec.concurrency` matches at once or as many as pay).
   */
  readonly executor?: (t: PreparedTournament, dir: string) => Executor;
}

/** What a run returns. */
export interface RunResult {
  readonly dir: string;
  readonly summary: TournamentSummary;
  readonly interrupted: boolean;
}

/** Re-reads a results folder's spec for `--resume` (labels and variant ids, as saved). */
export function resumeSpec(dir: string): TournamentSpec {
  return validateSpec(openResultsFolder(dir).spec, join(dir, RESULTS_FILES.spec));
}

/**
 * The default executor: a pool of matches on this machine (`spec.concurrency` at once, or as many
 * as pay, decided by `flight` when given).
 */
export function localExecutor(t: PreparedTournament, dir: string, graceMs?: number, flight?: LocalPoolOptions['flight']): LocalPool {
  const { spec } = t;
  return new LocalPool({
    ...(flight ? { flight } : {}),
    entrants: t.entrants,
    variants: t.variants,
    ...(spec.concurrency !== undefined ? { concurrency: spec.concurrency } : {}),
    settings: pairSettings(spec, graceMs),
    resultsDir: dir,
    botData: runBotData(spec, dir),
  });
}

/**
 * Runs a prepared tournament: the results folder is created (or resumed: the games in its log
 * folded first), an executor plays the schedule's pairs, each finished game is appended to the
 * log once per schedule index and reported once durable (group commit), and a complete run ends
 * with `summary.json` and `standings.csv`.
 */
export async function runTournament(t: PreparedTournament, options: RunOptions = {}): Promise<RunResult> {
  const { spec } = t;
  const wallStart = performance.now();
  const input = scheduleOf(t);
  const fold = new TournamentFold({ bots: spec.bots, variants: input.variants, schedule: input, sprt: spec.sprt && sprtConfig(spec.sprt), anchor: spec.anchor === undefined ? undefined : parseAnchor(spec.anchor) });
  const staged = stagedFormatOf(t);
  const cursor = staged ? new StagedCursor(input, staged, options.signal) : new ScheduleCursor(input, (a, b) => fold.decided(a, b), options.signal);
  // A staged format plans its next stage from the games folded: each goes to it too.
  const add = (rec: GameRecord, judgement?: GameJudgement): SprtResult | null => {
    const sprt = fold.add(rec, judgement);
    if (cursor instanceof StagedCursor && rec.termination !== 'interrupted') cursor.folded(rec);
    return sprt;
  };
  // What a checkpoint keeps (results/checkpoint.ts): the fold and the games played, for a run
  // whose place in the schedule is those alone (no staged format, no sequential test, nothing skipped).
  const checkpointable = cursor instanceof ScheduleCursor && fold.state() !== null ? cursor : null;
  const restore = checkpointable && ((state: unknown) => restoreRun(state, fold, checkpointable));
  const folder = options.resumeDir ? resumeRunFolder(options.resumeDir, cursor, (rec) => add(rec), restore ?? undefined) : createRunFolder(spec.out, spec.name, savedSpec(spec));
  // A knockout's games to play shrink as matches end without their extra pairs.
  const total = cursor instanceof StagedCursor ? () => cursor.total - cursor.skipped : () => cursor.total;
  const events = new RunEvents(options, total, fold, staged);
  const commit = new GroupCommit(folder.log, (rec, judgement) => events.gameEnded(rec, add(rec, judgement)), () => cursor.stop());
  let executor: Executor;
  try {
    executor = options.executor ? options.executor(t, folder.dir) : localExecutor(t, folder.dir, options.graceMs);
  } catch (err) {
    await folder.close();
    throw err;
  }
  events.started(t, folder, executor.concurrency);
  // Whether every game handed over is durable and folded: only then may the fold be checkpointed.
  let settled = false;
  try {
    await executor.run(executionContext(options, events, cursor, fold, commit));
    await commit.drain();
    settled = true;
  } finally {
    try {
      await executor.close();
    } finally {
      const checkpoint = checkpointable && settled && !commit.failure && checkpointable.skipped === 0 ? () => ({ fold: fold.state(), played: checkpointable.played.toBase64() }) : undefined;
      await folder.close(checkpoint).catch((err: unknown) => (commit.failure ??= err));
    }
  }
  if (commit.failure) throw commit.failure;
  const interrupted = fold.done + cursor.skipped < cursor.total;
  const summary = summaryOf(t, folder, fold, cursor, events.failedBots, !interrupted, wallStart, executor.pausedWorkers?.());
  if (!interrupted) {
    writeFileAtomic(join(folder.dir, RESULTS_FILES.summary), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileAtomic(join(folder.dir, RESULTS_FILES.standings), standingsCsv(summary.standings));
    if (spec.ratingsOut !== undefined) {
      const pooled = summary.standings.pooled;
      const games = new Map(pooled.bots.map((b) => [b.bot, b.games]));
      appendRatings(spec.ratingsOut, ratingsEntry(spec.name, folder.dir, new Date().toISOString(), pooled.ratings, games));
    }
  }
  events.finished(summary, interrupted);
  return { dir: folder.dir, summary, interrupted };
}

/**
 * Takes up a checkpoint's state (`{ fold, played }`, as `runTournament` closes its folder with) on
 * a fresh fold and cursor; false, and neither changed, when it is not one.
 */
function restoreRun(state: unknown, fold: TournamentFold, cursor: ScheduleCursor): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const { fold: folded, played } = state as { fold?: unknown; played?: unknown };
  if (typeof played !== 'string' || !cursor.played.emptyCopy().load(played)) return false;
  return fold.restore(folded) && cursor.played.load(played);
}

/** What the runner offers its executor: the cursor as the pair source, the fold's judges, the group commit. */
function executionContext(options: RunOptions, events: RunEvents, cursor: ScheduleCursor | StagedCursor, fold: TournamentFold, commit: GroupCommit): ExecutionContext {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.pause ? { pause: options.pause } : {}),
    wantLive: options.sink?.detail === 'live',
    pairs: cursor,
    emit: (e) => events.emit(e),
    follow: (variant) => fold.follow(variant),
    finish: (rec: GameRecord, judgement?: GameJudgement) => (cursor.markPlayed(rec.index) ? commit.add(rec, judgement) : undefined),
    committed: () => commit.committed(),
    workers: fold.workerHealth,
  };
}

/** The summary of a run as it stands. */
function summaryOf(
  t: PreparedTournament,
  folder: RunFolder,
  fold: TournamentFold,
  cursor: ScheduleCursor | StagedCursor,
  failedBots: TournamentSummary['failedBots'],
  complete: boolean,
  wallStart: number,
  paused: Readonly<Record<string, string>> = {},
): TournamentSummary {
  const { spec } = t;
  const sprt = fold.sprt();
  const time = fold.time();
  const folded = fold.workers();
  const workers = folded && Object.fromEntries(Object.entries(folded).map(([name, h]) => [name, paused[name] ? { ...h, paused: paused[name] } : h]));
  return {
    name: spec.name,
    seed: spec.seed,
    dir: folder.dir,
    spec: savedSpec(spec),
    complete,
    games: { total: cursor.total, played: fold.done, byTermination: fold.byTermination, skipped: cursor.skipped },
    failedBots,
    standings: fold.snapshot(),
    ...(t.starts ? { starts: t.starts } : {}),
    ...(t.clocks ? { clocks: Object.fromEntries(t.entrants.map((e, i) => [e.spec.label, clockText(t.clocks![i]!)])) } : {}),
    ...(cursor instanceof StagedCursor ? { format: cursor.format.standings() } : {}),
    ...(sprt ? { sprt } : {}),
    ...(time ? { time } : {}),
    ...(workers ? { workers } : {}),
    // Clock facts for the record only: nothing in play or standings reads them.
    run: { startedAt: folder.startedAt.toISOString(), wallMs: Math.round(performance.now() - wallStart), clock: usableClock(spec.clock), machine: machineInfo() },
  };
}

/** The run's events, as its sink hears them: standings at most every `standingsEveryMs`, failed bots kept for the summary. */
class RunEvents {
  readonly failedBots: { bot: string; reason: string }[] = [];
  readonly #sink: EventSink | undefined;
  readonly #total: () => number;
  readonly #fold: TournamentFold;
  readonly #everyMs: number;
  readonly #staged: StagedFormat | null;
  #lastStandings = performance.now();

  constructor(options: RunOptions, total: () => number, fold: TournamentFold, staged: StagedFormat | null) {
    this.#staged = staged;
    this.#sink = options.sink;
    this.#total = total;
    this.#fold = fold;
    this.#everyMs = options.standingsEveryMs ?? 500;
  }

  emit(e: ArenaEvent): void {
    if (e.type === 'bot-failed') this.failedBots.push({ bot: e.bot, reason: e.reason });
    this.#sink?.emit(e);
  }

  started(t: PreparedTournament, folder: RunFolder, concurrency: number): void {
    const { spec } = t;
    const { dir, repaired } = folder;
    const done = this.#fold.done;
    const standingsNow = (): Omit<StandingsEvent, 'type'> => this.#standings(this.#fold.done);
    this.emit({ type: 'tournament-started', name: spec.name, seed: spec.seed, dir, bots: spec.bots, variants: t.variants.map((g) => g.id), total: this.#total(), done, concurrency, isolation: spec.isolation, standingsNow, ...(repaired ? { repaired } : {}) });
    for (const result of this.#fold.sprt() ?? []) this.emit({ type: 'sprt', result });
  }

  /** A game is durable and folded; `sprt` is its pairing's test when the game moved it. */
  gameEnded(record: GameRecord, sprt: SprtResult | null): void {
    const sink = this.#sink;
    if (!sink) return;
    const done = this.#fold.done;
    sink.emit({ type: 'game-ended', record, done, total: this.#total() });
    if (sprt) sink.emit({ type: 'sprt', result: sprt });
    if (performance.now() - this.#lastStandings >= this.#everyMs) {
      this.#lastStandings = performance.now();
      sink.emit({ type: 'standings', ...this.#standings(done) });
    }
  }

  /** The standings after `done` games, as a `standings` event carries them. */
  #standings(done: number): Omit<StandingsEvent, 'type'> {
    const format = this.#staged?.standings();
    return { standings: this.#fold.snapshot(), ...(format ? { format } : {}), done, total: this.#total() };
  }

  finished(summary: TournamentSummary, interrupted: boolean): void {
    this.emit({ type: 'standings', standings: summary.standings, ...(summary.format ? { format: summary.format } : {}), done: summary.games.played, total: this.#total() });
    this.emit({ type: 'finished', summary, dir: summary.dir, interrupted });
  }
}
