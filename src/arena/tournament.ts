import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ArenaError, SpecError, UsageError, show } from '../core/errors.ts';
import { sandboxProblem } from '../platform/sandbox.ts';
import type { AnyGame } from '../core/game.ts';
import { resolveBot, supportedBy, type BotEntry, type BotRegistry, type BotSpec } from '../hosting/index.ts';
import type { ArenaEvent, EventSink } from './events.ts';
import type { ExecutionContext, Executor } from './executor.ts';
import { LocalPool } from './local-pool.ts';
import type { GameRecord, Termination } from './match.ts';
import type { PauseGate } from './pause.ts';
import { createResultsDir, openResultsFolder, ResultsLog, RESULTS_FILES, writeFileAtomic } from './results.ts';
import { createLogKey, GUARD_FILES, lockResultsDir, LogChain, readLogKey, repairLog, scanLog, type DropCounts, type LineJudge } from './results-guard.ts';
import { pairings, pairOf, scheduleCount, scheduleKeyAt, schedulePairs, scheduleSize, type ScheduleInput } from './schedule.ts';
import { InOrder, pairScore, sprtConfig, SprtTest, type PairScore, type SprtConfig } from './sprt.ts';
import { resolveVariants, validateSpec, type TournamentSpec } from './spec.ts';
import { parseTimeControl } from './time-control.ts';
import { StandingsBuilder } from './standings.ts';
import { machineInfo, standingsCsv, TimeTally, type SprtResult, type TournamentSummary } from './summary.ts';
import { defaultBotDataRoot, type BotDataSettings } from '../platform/bot-store.ts';

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
  // Sandboxed bots need bubblewrap: refuse here, in one line, rather than ever run them unsandboxed.
  const sandboxed = entrants.filter((e) => (spec.botIsolation[e.spec.name] ?? spec.isolation) === 'sandbox');
  if (sandboxed.length > 0) {
    const problem = sandboxProblem();
    if (problem) throw new UsageError(`Cannot sandbox ${sandboxed.map((e) => e.spec.label).join(', ')}: ${problem}`);
  }
  if (entrants.length < 2) {
    throw new SpecError(`${where}: \`bots\`: expected at least 2 bots, got ${entrants.length}${spec.bots === 'all' ? ' (all discovered)' : ''}`);
  }
  let champion: string | undefined;
  if (spec.format === 'gauntlet') {
    if (spec.champion === undefined) throw new SpecError(`${where}: \`champion\`: a gauntlet needs a champion (one of the bots)`);
    let label: string;
    try {
      label = resolveBot(registry, spec.champion).label;
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`champion\`: ${err.message}`);
      throw err;
    }
    if (!labels.has(label)) throw new SpecError(`${where}: \`champion\`: expected one of the bots (${[...labels].join(', ')}), got ${show(spec.champion)}`);
    champion = label;
  } else if (spec.champion !== undefined) {
    throw new SpecError(`${where}: \`champion\`: only a gauntlet has a champion (set \`format\` to "gauntlet")`);
  }
  if (spec.sprt) {
    if (spec.format !== 'gauntlet') throw new SpecError(`${where}: \`sprt\`: a sequential test needs a gauntlet or a match (it tests the champion)`);
    try {
      sprtConfig(spec.sprt);
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`sprt\`: ${err.message}`);
      throw err;
    }
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
      ...(champion !== undefined ? { champion } : {}),
      concurrency: spec.concurrency ?? availableParallelism(),
    },
    variants,
    entrants,
    unsupported,
  };
}

export { PauseGate } from './pause.ts';

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
   * What plays the games, given the results folder (default: a local pool of `spec.concurrency`
   * matches on this machine).
   */
  readonly executor?: (t: PreparedTournament, dir: string) => Executor;
}

/** What a run returns. */
export interface RunResult {
  readonly dir: string;
  readonly summary: TournamentSummary;
  readonly interrupted: boolean;
}

/** Games appended but not yet durable beyond which a lane waits for the disk (about 1 kB each while held; a fsync that takes 100 ms must not stall a runner doing 100,000 games/s). */
const MAX_PENDING = 16_384;

/** The schedule's input (pairs with a bot that does not support a variant are skipped). */
function scheduleOf(t: PreparedTournament): ScheduleInput {
  const { spec, unsupported } = t;
  return {
    seed: spec.seed,
    variants: spec.games,
    bots: t.entrants.map((e) => e.spec),
    deals: spec.deals,
    ...(spec.timePerMoveMs !== undefined ? { timePerMoveMs: spec.timePerMoveMs } : {}),
    ...(spec.timeControl !== undefined ? { timeControl: parseTimeControl(spec.timeControl) } : {}),
    supports: (bot: BotSpec, variant: string) => !(unsupported.get(bot.label) ?? []).includes(variant),
    ...(spec.champion !== undefined ? { champion: spec.champion } : {}),
  };
}

/** A pairing's sequential test as the runner keeps it. */
interface PairingTest {
  readonly a: string;
  readonly b: string;
  readonly test: SprtTest;
  /** Completed pairs wait here until every earlier pair of the pairing is folded. */
  readonly order: InOrder<PairScore>;
  /** The pairing's first pair ordinal in each variant it plays (pairs are numbered variant by variant, deal by deal). */
  readonly offsets: ReadonlyMap<string, number>;
  /** The first finished game of each pair, by ordinal: the pairing's first bot's points. */
  readonly halves: Map<number, number>;
}

/**
 * One sequential test per pairing of a gauntlet (the champion against each other bot), fed whole
 * pairs in schedule order: a pair's place is fixed by the schedule, so the decision never depends
 * on which game finished first, and a resumed run folds the same pairs again to the same state.
 */
class SprtBook {
  readonly #tests = new Map<string, PairingTest>();

  constructor(t: PreparedTournament, config: SprtConfig) {
    const input = scheduleOf(t);
    const bots = input.bots;
    for (const [i, j] of pairings(bots, input.champion)) {
      const a = bots[i]!;
      const b = bots[j]!;
      const offsets = new Map<string, number>();
      let next = 0;
      for (const v of input.variants) {
        if (input.supports && (!input.supports(a, v) || !input.supports(b, v))) continue;
        offsets.set(v, next);
        next += input.deals;
      }
      this.#tests.set(`${a.label}\t${b.label}`, { a: a.label, b: b.label, test: new SprtTest(config), order: new InOrder(), offsets, halves: new Map() });
    }
  }

  /** Whether the pairing of these two bots has decided (its remaining games are not played). */
  decided(a: string, b: string): boolean {
    return this.#tests.get(`${a}\t${b}`)?.test.decided ?? false;
  }

  /** Folds a finished game; returns the pairing's test when it moved (a pair was folded). */
  add(rec: GameRecord): PairingTest | null {
    const [a, b] = pairOf(rec.seating, rec.seats);
    const p = this.#tests.get(`${a}\t${b}`);
    if (!p) return null;
    const ordinal = p.offsets.get(rec.variant)! + rec.deal;
    const points = rec.winner === null ? 0.5 : rec.winner === a ? 1 : 0;
    const other = p.halves.get(ordinal);
    if (other === undefined) {
      p.halves.set(ordinal, points);
      return null;
    }
    p.halves.delete(ordinal);
    const ready = p.order.offer(ordinal, pairScore(other, points));
    for (const score of ready) p.test.update(score);
    return ready.length > 0 ? p : null;
  }

  /** Every pairing's result, for the summary. */
  results(): SprtResult[] {
    return [...this.#tests.values()].map((p) => ({ a: p.a, b: p.b, ...p.test.status }));
  }
}



/** Re-reads a results folder's spec for `--resume` (labels and variant ids, as saved). */
export function resumeSpec(dir: string): TournamentSpec {
  return validateSpec(openResultsFolder(dir).spec, join(dir, RESULTS_FILES.spec));
}

/**
 * Where a run's bots keep their stores: the spec's bot-data folder, with the stores as the run
 * began kept in the results folder (`bot-data/`), so a resume starts from them too.
 */
export function runBotData(spec: Pick<TournamentSpec, 'botData' | 'botDataCapKb'>, dir: string): BotDataSettings {
  return { root: resolve(spec.botData ?? defaultBotDataRoot()), capBytes: spec.botDataCapKb * 1024, snapshotRoot: join(dir, 'bot-data') };
}

/** The default executor: a pool of `spec.concurrency` matches on this machine. */
export function localExecutor(t: PreparedTournament, dir: string, graceMs?: number): Executor {
  const { spec } = t;
  return new LocalPool({
    entrants: t.entrants,
    variants: t.variants,
    concurrency: spec.concurrency,
    isolation: spec.isolation,
    botIsolation: spec.botIsolation,
    cpuSeconds: spec.cpuSeconds,
    revealOpponents: spec.revealOpponents,
    memoryMb: spec.memoryMb,
    prepareTimeoutMs: spec.prepareTimeoutMs,
    resultsDir: dir,
    botData: runBotData(spec, dir),
    // A test's grace first, else the spec's margin: how far past its limit a bot may answer.
    ...((graceMs ?? spec.timeMarginMs) !== undefined ? { graceMs: (graceMs ?? spec.timeMarginMs)! } : {}),
    ...(spec.adjudicate ? { adjudicate: true } : {}),
  });
}

/**
 * Runs a prepared tournament: an executor (a local pool by default) plays the schedule's game
 * pairs; each finished game is appended to `games.jsonl` once per schedule index (group commit)
 * and only then reported and folded into the standings; at the end `summary.json` and
 * `standings.csv`.
 */
export async function runTournament(t: PreparedTournament, options: RunOptions = {}): Promise<RunResult> {
  const { spec } = t;
  const sink = options.sink;
  const emit = (e: ArenaEvent): void => sink?.emit(e);
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
  const sprt = spec.sprt ? new SprtBook(t, sprtConfig(spec.sprt)) : null;
  // Think time and arena overhead of the moves played under the time control (`ovh` in the records).
  const time = spec.timeControl !== undefined ? new TimeTally() : null;
  // Games not played because their pairing's test has decided.
  let skipped = 0;
  const byTermination: Record<Exclude<Termination, 'interrupted'>, number> = { normal: 0, timeout: 0, crash: 0, 'illegal-move': 0, adjudicated: 0 };
  let done = 0;

  // Results folder: a new one, or the one being resumed, locked against a second runner for the
  // whole run. A resumed log is streamed in constant memory: each line's checksum is verified and
  // its game checked against the schedule, then marked done and folded into the standings. Lines
  // that cannot be trusted are dropped (the log is then rewritten without them, a second pass).
  let dir: string;
  let log: ResultsLog;
  let release: () => void;
  let repaired: { dropped: DropCounts; quarantine: string } | undefined;
  if (options.resumeDir) {
    const folder = openResultsFolder(options.resumeDir);
    dir = folder.dir;
    release = lockResultsDir(dir);
    try {
      startedAt = statSync(join(dir, RESULTS_FILES.spec)).mtime; // written when the first run started
      const key = readLogKey(dir);
      /** Keeps the first line of each scheduled game; `seen` has one bit per schedule index. */
      const judge = (seen: Uint8Array): LineJudge => (rec) => {
        if (scheduleKeyAt(input, rec.index) !== rec.key) return 'unscheduled';
        if ((seen[rec.index >>> 3]! & (1 << (rec.index & 7))) !== 0) return 'duplicate';
        if (rec.termination !== 'interrupted') seen[rec.index >>> 3]! |= 1 << (rec.index & 7);
        return null;
      };
      const scan = scanLog(folder.gamesFile, key, judge(finished), (_text, rec) => {
        if (!rec || rec.termination === 'interrupted') return;
        done++;
        standings.add(rec);
        sprt?.add(rec);
        time?.add(rec);
        byTermination[rec.termination]++;
      });
      if (scan.anyDropped) {
        const chain = repairLog(dir, folder.gamesFile, key, judge(new Uint8Array(finished.length)));
        repaired = { dropped: scan.dropped, quarantine: join(dir, GUARD_FILES.quarantine) };
        log = new ResultsLog(folder.gamesFile, { chain });
      } else log = new ResultsLog(folder.gamesFile, { truncateTo: scan.validBytes, chain: new LogChain(key, scan.last) });
    } catch (err) {
      release();
      throw err;
    }
  } else {
    dir = createResultsDir(spec.out, spec.name);
    release = lockResultsDir(dir);
    const { concurrency: _c, ...saved } = spec;
    writeFileAtomic(join(dir, RESULTS_FILES.spec), `${JSON.stringify(saved, null, 2)}\n`);
    log = new ResultsLog(join(dir, RESULTS_FILES.games), { chain: new LogChain(createLogKey(dir)) });
  }

  const executor = options.executor ? options.executor(t, dir) : localExecutor(t, dir, options.graceMs);
  emit({
    type: 'tournament-started',
    name: spec.name,
    seed: spec.seed,
    dir,
    bots: spec.bots,
    variants: spec.games,
    total,
    done,
    concurrency: executor.concurrency,
    isolation: spec.isolation,
    ...(repaired ? { repaired } : {}),
  });
  for (const result of sprt?.results() ?? []) emit({ type: 'sprt', result });

  const failedBots: { bot: string; reason: string }[] = [];
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
    time?.add(rec);
    emit({ type: 'game-ended', record: rec, done, total });
    const moved = sprt?.add(rec);
    if (moved) emit({ type: 'sprt', result: { a: moved.a, b: moved.b, ...moved.test.status } });
    if (sink && performance.now() - lastStandings >= everyMs) {
      lastStandings = performance.now();
      emit({ type: 'standings', standings: standings.snapshot(), done, total });
    }
  };

  // Pairs already played (both games in the log) are passed over without building their jobs.
  const pairs = schedulePairs(input, (p) => isFinished(2 * p) && isFinished(2 * p + 1));
  let logError: unknown = null;
  // Pairs an executor withdrew after handing them out (counted as skipped until a result comes).
  const withdrawn = new Set<number>();
  const ctx: ExecutionContext = {
    ...(signal ? { signal } : {}),
    ...(options.pause ? { pause: options.pause } : {}),
    wantLive: sink?.detail === 'live',
    emit,
    judgeInPlay: (variant, game) => standings.judgeInPlay(variant, game),
    nextPair() {
      if (signal?.aborted || logError) return null;
      for (;;) {
        const next = pairs.next();
        if (next.done) return null;
        const pair = next.value;
        const [first, second] = pair.games.map((g) => isFinished(g.index));
        if (first && second) continue;
        // Once a pairing's test has decided, its remaining pairs are not played (a pair already
        // begun, e.g. half of it in a resumed log, is completed: every game belongs to a whole pair).
        const g = pair.games[0];
        if (!first && !second && sprt?.decided(...pairOf(g.seating, { first: g.seats.first.label, second: g.seats.second.label }))) {
          skipped += 2;
          continue;
        }
        return pair;
      }
    },
    isDone: isFinished,
    unwanted(pair) {
      const g = pair.games[0];
      if (isFinished(g.index) || isFinished(pair.games[1].index)) return false;
      return sprt?.decided(...pairOf(g.seating, { first: g.seats.first.label, second: g.seats.second.label })) ?? false;
    },
    skip(pair) {
      if (withdrawn.has(pair.index)) return;
      withdrawn.add(pair.index);
      skipped += 2;
    },
    finish(rec) {
      if (isFinished(rec.index)) return undefined;
      markFinished(rec.index);
      // A withdrawn pair that was played after all (its job had just finished): it counts as played.
      if (withdrawn.size && withdrawn.delete(Math.floor(rec.index / 2))) skipped -= 2;
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
      // Games outrun a slow disk: past a few batches in flight, the executor waits for this one to
      // be durable, so the records waiting for their fsync stay a bounded number.
      return pending >= MAX_PENDING ? durable.catch(() => {}) : undefined;
    },
    committed: () => batchDurable?.then(() => {}) ?? Promise.resolve(),
    keyAt: (index) => scheduleKeyAt(input, index),
    botFailed(bot, reason) {
      failedBots.push({ bot, reason });
      emit({ type: 'bot-failed', bot, reason });
    },
    storeReset(bot, reason) {
      emit({ type: 'bot-store-reset', bot, reason });
    },
  };

  try {
    await executor.run(ctx);
    await log.flush().catch((err: unknown) => {
      logError ??= err;
    });
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
  } finally {
    await executor.close();
    await log.close().catch(() => {});
    release();
  }
  if (logError) throw logError;

  const interrupted = done + skipped < total;
  const snapshot = standings.snapshot();
  const { concurrency: _c, ...savedSpec } = spec;
  const summary: TournamentSummary = {
    name: spec.name,
    seed: spec.seed,
    dir,
    spec: savedSpec,
    complete: !interrupted,
    games: { total, played: done, byTermination, skipped },
    failedBots,
    standings: snapshot,
    ...(sprt ? { sprt: sprt.results() } : {}),
    ...(time?.totals() ? { time: time.totals()! } : {}),
    run: { startedAt: startedAt.toISOString(), wallMs: Math.round(performance.now() - wallStart), machine: machineInfo() },
  };
  if (!interrupted) {
    writeFileAtomic(join(dir, RESULTS_FILES.summary), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileAtomic(join(dir, RESULTS_FILES.standings), standingsCsv(snapshot));
  }
  emit({ type: 'standings', standings: snapshot, done, total });
  emit({ type: 'finished', summary, dir, interrupted });
  return { dir, summary, interrupted };
}
