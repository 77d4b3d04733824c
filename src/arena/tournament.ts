import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ArenaError, SpecError } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { createHost, moduleFiles, resolveBot, supportedBy, workerScript, type BotEntry, type BotHost, type BotRegistry, type BotSpec } from '../hosting/index.ts';
import type { ArenaEvent, EventSink } from './events.ts';
import { LiveTracker } from './live.ts';
import { playMatch, type GameRecord, type MatchOptions, type Termination } from './match.ts';
import { createResultsDir, openResultsFolder, readLog, ResultsLog, RESULTS_FILES, writeFileAtomic } from './results.ts';
import { schedule, scheduleCount, scheduleKeyAt, scheduleSize, type ScheduleInput } from './schedule.ts';
import { resolveVariants, validateSpec, type TournamentSpec } from './spec.ts';
import { StandingsBuilder } from './standings.ts';
import { machineInfo, standingsCsv, type TournamentSummary } from './summary.ts';

/** A bot taking part: its schedule spec and where it comes from. */
export interface Entrant {
  readonly spec: BotSpec;
  readonly entry: BotEntry;
}

/** A validated tournament, ready to run: nothing has been written yet. */
export interface PreparedTournament {
  /** The spec as it will run (bots as labels, games as variant ids, concurrency filled). */
  readonly spec: TournamentSpec & { readonly concurrency: number; readonly bots: readonly string[]; readonly games: readonly string[] };
  readonly variants: readonly AnyGame[];
  readonly entrants: readonly Entrant[];
  /** Bot label → variant ids it does not support (those pairings are skipped). */
  readonly unsupported: ReadonlyMap<string, readonly string[]>;
}

/**
 * Validates a spec against the registered games and the discovered bots: every error a user can
 * make (unknown family, bad parameter, unknown bot, bad option) is thrown here, before any file
 * is touched.
 */
export function prepareTournament(spec: TournamentSpec, registry: BotRegistry, where = 'spec'): PreparedTournament {
  const variants = resolveVariants(spec.games, where);
  const texts = spec.bots === 'all' ? registry.bots.map((b) => b.name) : spec.bots;
  const entrants: Entrant[] = [];
  const labels = new Set<string>();
  texts.forEach((text, i) => {
    let choice;
    try {
      choice = resolveBot(registry, text);
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`bots${spec.bots === 'all' ? '' : `[${i}]`}\`: ${err.message}`);
      throw err;
    }
    if (labels.has(choice.label)) throw new SpecError(`${where}: \`bots[${i}]\`: bot ${choice.label} is listed twice`);
    labels.add(choice.label);
    entrants.push({ entry: choice.entry, spec: { label: choice.label, name: choice.entry.name, options: choice.options } });
  });
  if (entrants.length < 2) {
    throw new SpecError(`${where}: \`bots\`: expected at least 2 bots, got ${entrants.length}${spec.bots === 'all' ? ' (all discovered)' : ''}`);
  }
  const unsupported = new Map<string, string[]>();
  for (const e of entrants) {
    const no = variants.filter((g) => !supportedBy(e.entry.bot, g)).map((g) => g.id);
    if (no.length) unsupported.set(e.spec.label, no);
  }
  return {
    spec: {
      ...spec,
      bots: entrants.map((e) => e.spec.label),
      games: variants.map((g) => g.id),
      concurrency: spec.concurrency ?? availableParallelism(),
    },
    variants,
    entrants,
    unsupported,
  };
}

/**
 * Pauses a running tournament between games (the dashboard's `p`). While paused no new game
 * starts; games in flight play to their end. Nobody's clock runs while the runner waits, since
 * the gate sits between games, never inside one: a paused tournament charges no bot for the pause.
 */
export class PauseGate {
  #paused = false;
  #waiters: (() => void)[] = [];

  /** Whether new games are held back. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Holds back new games from now on. */
  pause(): void {
    this.#paused = true;
  }

  /** Lets the waiting lanes go on. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** Settles once the gate is open (null at once when it is), or when `signal` aborts. */
  whenOpen(signal?: AbortSignal): Promise<void> | null {
    if (!this.#paused || signal?.aborted) return null;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.push(done);
    });
  }
}

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
  /** The command that resumes, for the `finished` event when interrupted (default `arena tournament --resume <dir>`). */
  readonly resumeCommand?: (dir: string) => string;
}

/** What a run returns. */
export interface RunResult {
  readonly dir: string;
  readonly summary: TournamentSummary;
  readonly interrupted: boolean;
}

/** Games appended but not yet durable beyond which a lane waits for the disk. */
const MAX_PENDING = 4096;

/** The schedule's input (pairs with a bot that does not support a variant are skipped). */
function scheduleOf(t: PreparedTournament): ScheduleInput {
  const { spec, unsupported } = t;
  return {
    seed: spec.seed,
    variants: spec.games,
    bots: t.entrants.map((e) => e.spec),
    deals: spec.deals,
    timePerMoveMs: spec.timePerMoveMs,
    supports: (bot: BotSpec, variant: string) => !(unsupported.get(bot.label) ?? []).includes(variant),
  };
}

/** Re-reads a results folder's spec for `--resume` (labels and variant ids, as saved). */
export function resumeSpec(dir: string): TournamentSpec {
  return validateSpec(openResultsFolder(dir).spec, join(dir, RESULTS_FILES.spec));
}

/**
 * Runs a prepared tournament: a pool of `concurrency` matches pulling jobs from the schedule,
 * each finished game appended to `games.jsonl` (group commit) and only then reported and folded
 * into the standings; at the end `summary.json` and `standings.csv`.
 */
export async function runTournament(t: PreparedTournament, options: RunOptions = {}): Promise<RunResult> {
  const { spec } = t;
  const sink = options.sink;
  const emit = (e: ArenaEvent): void => sink?.emit(e);
  const wantLive = sink?.detail === 'live';
  const signal = options.signal;

  // Clock facts for the summary's `run` block only: nothing in play or standings reads them.
  const wallStart = performance.now();
  let startedAt = new Date();
  const input = scheduleOf(t);
  const total = scheduleCount(input);
  // The games already played, one bit per schedule index: all the runner keeps per game.
  const finished = new Uint8Array(Math.ceil(scheduleSize(input) / 8));
  const isFinished = (index: number): boolean => (finished[index >>> 3]! & (1 << (index & 7))) !== 0;
  const markFinished = (index: number): void => void (finished[index >>> 3]! |= 1 << (index & 7));
  const standings = new StandingsBuilder(spec.bots, spec.games);
  const byTermination: Record<Exclude<Termination, 'interrupted'>, number> = { normal: 0, timeout: 0, crash: 0, 'illegal-move': 0 };
  let done = 0;

  // Results folder: a new one, or the one being resumed. Its log is streamed once, in constant
  // memory: each line is checked against the schedule, marked done and folded into the standings.
  let dir: string;
  let log: ResultsLog;
  if (options.resumeDir) {
    const folder = openResultsFolder(options.resumeDir);
    dir = folder.dir;
    startedAt = statSync(join(dir, RESULTS_FILES.spec)).mtime; // written when the first run started
    let validBytes = 0;
    for (const { record: rec, line, end } of readLog(folder.gamesFile)) {
      validBytes = end;
      if (scheduleKeyAt(input, rec.index) !== rec.key) {
        throw new SpecError(`--resume: ${folder.gamesFile}:${line} is not a game of this tournament's schedule (${rec.key} at index ${rec.index})`);
      }
      if (isFinished(rec.index) || rec.termination === 'interrupted') continue;
      markFinished(rec.index);
      done++;
      standings.add(rec);
      byTermination[rec.termination]++;
    }
    log = new ResultsLog(folder.gamesFile, { truncateTo: validBytes });
  } else {
    dir = createResultsDir(spec.out, spec.name);
    const { concurrency: _c, ...saved } = spec;
    writeFileAtomic(join(dir, RESULTS_FILES.spec), `${JSON.stringify(saved, null, 2)}\n`);
    log = new ResultsLog(join(dir, RESULTS_FILES.games));
  }

  emit({
    type: 'tournament-started',
    name: spec.name,
    dir,
    bots: spec.bots,
    variants: spec.games,
    total,
    done,
    concurrency: spec.concurrency,
    isolation: spec.isolation,
  });

  // One host per bot for the whole tournament.
  const hosts = new Map<string, BotHost>();
  // The transport comes from the entry: modules per `isolation`, external programs in processes.
  const modules = moduleFiles(t.entrants.map((e) => e.entry));
  const script = spec.isolation === 'worker' && modules.length > 0 ? workerScript(modules) : undefined;
  for (const e of t.entrants) {
    hosts.set(
      e.spec.label,
      createHost(e.entry, e.spec, {
        isolation: spec.isolation,
        memoryMb: spec.memoryMb,
        prepareTimeoutMs: spec.prepareTimeoutMs,
        resultsDir: dir,
        ...(script ? { script } : {}),
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
      }),
    );
  }
  const failedBots: { bot: string; reason: string }[] = [];
  await Promise.all(
    [...hosts.values()].map((h) =>
      h.start().catch((err: unknown) => {
        const reason = err instanceof Error ? err.message : String(err);
        failedBots.push({ bot: h.label, reason });
      }),
    ),
  );
  failedBots.sort((a, b) => a.bot.localeCompare(b.bot));
  for (const f of failedBots) emit({ type: 'bot-failed', bot: f.bot, reason: f.reason });

  const games: ReadonlyMap<string, AnyGame> = new Map(t.variants.map((g) => [g.id, g]));

  const everyMs = options.standingsEveryMs ?? 500;
  let lastStandings = performance.now();
  // Games appended but not yet durable; `drained` settles when the count returns to zero.
  let pending = 0;
  let drained: (() => void) | null = null;
  // The records of the batch being filled (the log settles one promise per batch): kept only until
  // their batch is durable and reported, so the runner holds no finished game for longer.
  let batch: GameRecord[] = [];
  let batchDurable: Promise<void> | null = null;
  const report = (rec: GameRecord): void => {
    done++;
    byTermination[rec.termination as Exclude<Termination, 'interrupted'>]++;
    standings.add(rec);
    emit({ type: 'game-ended', record: rec, done, total });
    if (sink && performance.now() - lastStandings >= everyMs) {
      lastStandings = performance.now();
      emit({ type: 'standings', standings: standings.snapshot(), done, total });
    }
  };

  const it = schedule(input);
  // The options of every match when nobody watches live games: made once, not per game.
  const plainOptions: MatchOptions = signal ? { signal } : {};
  let logError: unknown = null;
  const lane = async (): Promise<void> => {
    let lastYield = performance.now();
    for (;;) {
      const gate = options.pause?.whenOpen(signal);
      if (gate) {
        await gate;
        lastYield = performance.now();
      }
      if (signal?.aborted || logError) return;
      const next = it.next();
      if (next.done) return;
      const job = next.value;
      if (isFinished(job.index)) continue;
      markFinished(job.index);
      const game = games.get(job.variant)!;
      const seats = { first: job.seats.first.label, second: job.seats.second.label };
      const hostsOf = { first: hosts.get(seats.first)!, second: hosts.get(seats.second)! };
      let rec: GameRecord;
      if (!wantLive) rec = await playMatch(job, game, hostsOf, plainOptions);
      else {
        // Watchers poll the match's live view when they draw: nothing is built per move.
        const live = new LiveTracker(game, seats);
        // The match deals (into `live`) before its first await, so the view is never empty when
        // the sink sees it.
        const playing = playMatch(job, game, hostsOf, signal ? { signal, live } : { live });
        emit({ type: 'game-started', index: job.index, key: job.key, variant: job.variant, deal: job.deal, seats, live });
        rec = await playing;
      }
      if (rec.termination === 'interrupted') {
        emit({ type: 'game-aborted', index: job.index, key: job.key });
        return;
      }
      pending++;
      const durable = log.append(rec);
      if (durable !== batchDurable) {
        // A new batch: one callback reports all its games once they are on disk, in append order.
        batchDurable = durable;
        const games = (batch = []);
        durable.then(
          () => {
            for (const r of games) report(r);
            if ((pending -= games.length) === 0) drained?.();
          },
          (err: unknown) => {
            logError ??= err;
            if ((pending -= games.length) === 0) drained?.();
          },
        );
      }
      batch.push(rec);
      // Games outrun a slow disk: past a few batches in flight, wait for this one to be durable, so
      // the records waiting for their fsync stay a bounded number however long the tournament.
      if (pending >= MAX_PENDING) {
        await durable.catch(() => {});
        lastYield = performance.now();
      }
      // Trusted in-process bots never yield to the event loop on their own: let timers (the group
      // commit, SIGINT) run every few milliseconds.
      if (performance.now() - lastYield > 8) {
        await nextTurn();
        lastYield = performance.now();
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: spec.concurrency }, lane));
    await log.flush().catch((err: unknown) => {
      logError ??= err;
    });
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
  } finally {
    await Promise.all([...hosts.values()].map((h) => h.close()));
    await log.close().catch(() => {});
  }
  if (logError) throw logError;

  const interrupted = done < total;
  const snapshot = standings.snapshot();
  const { concurrency: _c, ...savedSpec } = spec;
  const summary: TournamentSummary = {
    name: spec.name,
    seed: spec.seed,
    dir,
    spec: savedSpec,
    complete: !interrupted,
    games: { total, played: done, byTermination },
    failedBots,
    standings: snapshot,
    run: { startedAt: startedAt.toISOString(), wallMs: Math.round(performance.now() - wallStart), machine: machineInfo() },
  };
  if (!interrupted) {
    writeFileAtomic(join(dir, RESULTS_FILES.summary), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileAtomic(join(dir, RESULTS_FILES.standings), standingsCsv(snapshot));
  }
  emit({ type: 'standings', standings: snapshot, done, total });
  const resume = interrupted ? (options.resumeCommand ?? ((d: string) => `arena tournament --resume ${JSON.stringify(d)}`))(dir) : null;
  emit({ type: 'finished', summary, dir, interrupted, resume });
  return { dir, summary, interrupted };
}
