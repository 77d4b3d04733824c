/**
 * The queue executor: the coordinator side of `arena tournament --queue redis://…`. It publishes
 * the module bots' bundles (by content hash) and the tournament in Redis, feeds the schedule's
 * game pairs into a BullMQ queue a window at a time, and folds the results that `arena worker`
 * processes return with the completed jobs. A completed job is removed only once its two lines are
 * durable in the log, so a coordinator killed at any moment loses nothing: the resumed coordinator
 * finds the same completed jobs and folds each once, by its place in the schedule.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KeyObject } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { AnyGame } from '../../core/game.ts';
import { parseVariant, userFamilies } from '../../games/index.ts';
import type { Redis } from 'ioredis';
import { DEFAULT_GRACE_MS, PACKAGE_ENTRY, type BotEntry, type BotSpec } from '../../hosting/index.ts';
import type { BotDataSettings } from '../../platform/bot-store.ts';
import { bundleScript } from '../../platform/bundle.ts';
import type { WorkerStatus } from '../events.ts';
import type { ExecutionContext, Executor } from '../executor.ts';
import { exactJudge, type GameJudgement } from '../fold/accuracy.ts';
import type { GameRecord } from '../match.ts';
import { pairSettings, runBotData, type PreparedTournament } from '../prepare.ts';
import {
  bundleKey,
  checksKey,
  connectRedis,
  leaseKey,
  leftKey,
  putShared,
  releaseShared,
  contentHash,
  firstConnection,
  pairsQueueName,
  PREFIX,
  QueueError,
  redisAway,
  resultsQueueName,
  TOURNAMENTS_CHANNEL,
  TOURNAMENTS_KEY,
  gamesKey,
  type LinkState,
  jobIdOf,
  type PairJobData,
  type PairRecords,
  type PairResultData,
  type QueueBot,
  type QueueSettings,
  type ResultJobData,
  type TournamentEntry,
} from './protocol.ts';
import { QueueStores } from './stores.ts';
import { RESULTS_FILES } from '../results/index.ts';
import { scheduleCount, type PairJob } from '../schedule.ts';
import { WorkerBoard } from './board.ts';
import { RemoteBoards } from './remote-live.ts';
import { RecordRefusal, verifyRecord, type RecordRules } from './verify.ts';
import { jobSigningKey, signedJob, WORKER_NAME, workerSignatureProblem } from './auth.ts';
import { pauseReason, PAUSE_RULE, type PauseRule } from './health.ts';
import { shownUrl } from './url.ts';
import { CoordinatorLease } from './lease.ts';
import { queueVersion, versionMismatch, type QueueVersion } from './version.ts';

/** A worker whose heartbeat changed within this many seconds is alive. */
const LIVE_BEAT_S = 10;

/** Results of one pair refused (from any workers) before the run gives up on it. */
const MAX_REFUSALS = 5;

/** How long a job should take to play (ms): the batch size aims at it (see `Coordination.#batchSize`). */
const JOB_TARGET_MS = 250;
/** The most pairs in one job. */
const MAX_BATCH = 64;
/** Jobs timed before a pair's time is taken as known (one pair a job, this many queued, until then). */
const PROBE_PAIRS = 8;
/** The last jobs whose times make the estimate of a pair's time. */
const TIMED_JOBS = 32;

/** A pair of a completed job whose records replayed: ready to fold. */
interface GoodPair {
  readonly pair: PairJob;
  readonly records: readonly GameRecord[];
  readonly judgements: readonly GameJudgement[];
}

/** A completed job's result as checked (see `Coordination.#check`): its good pairs, and the refused ones with why. */
interface Checked {
  readonly worker: string;
  readonly retries: number;
  readonly good: readonly GoodPair[];
  readonly refused: readonly { readonly index: number | null; readonly reason: string }[];
}

/** What the coordinator needs from the prepared tournament. */
export interface QueueExecutorOptions {
  readonly url: string;
  readonly name: string;
  /** The results folder: with the saved spec, it names the tournament in Redis (stable across `--resume`). */
  readonly dir: string;
  readonly specText: string;
  readonly total: number;
  readonly entrants: readonly { readonly spec: BotSpec; readonly entry: BotEntry }[];
  readonly settings: QueueSettings;
  /** The bots' stores (`ctx.store`): snapshots shipped to the workers, live copies in Redis, copied back here. */
  readonly botData?: BotDataSettings;
  /** Pairs in the queue at once, not yet folded (default 512): bounds Redis memory however long the tournament. */
  readonly window?: number;
  /** How long a result job stays locked by a coordinator that stopped answering (ms, default 5000). */
  readonly resultLockMs?: number;
  /** How often the dashboard hears about the workers (ms, default 1000). */
  readonly statusEveryMs?: number;
  /** Pairs per job (default: as many as about `JOB_TARGET_MS` of play, from the pairs' times so far, within the caps of `#batchSize`). */
  readonly batch?: number;
  /** How long (ms, default 30000) no game may be folded, with no live worker, before the coordinator says so. */
  readonly idleWarnMs?: number;
  /** The tournament's key (auth.ts): jobs are signed with it, and only results signed with it are counted. */
  readonly key?: Buffer | null;
  /** This coordinator's version (default: this installation's, `queueVersion()`): results of another are refused. */
  readonly version?: QueueVersion;
  /** Workers refused by name (`--refuse-worker`): they are told not to serve the tournament, and their results are refused. */
  readonly refuseWorkers?: readonly string[];
  /** When a worker is paused for its crashes and time losses (default `PAUSE_RULE`). */
  readonly pause?: PauseRule;
  /** Users' game families the tournament plays (games/, --games-dir): bundled and shipped to the workers like bots. */
  readonly games?: readonly { readonly family: string; readonly file: string }[];
}

/** The tournament's id in Redis: the results folder's name and a hash of its spec (same on `--resume`). */
export function tournamentId(dir: string, specText: string): string {
  return `${basename(dir).replace(/[^\w.-]/g, '_')}-${contentHash(specText).slice(0, 8)}`;
}

/** Bundles a module bot or a user's game file into one self-contained ES module (its default export and everything it imports). */
export async function bundleBot(file: string, name: string): Promise<Buffer> {
  // A bot outside the package imports `take-arena` by name: resolved to this package, as every bundler here does.
  const url = await bundleScript(`export { default } from ${JSON.stringify(file)};`, dirname(file), `queue-${name}`, { 'take-arena': PACKAGE_ENTRY });
  return readFileSync(fileURLToPath(url));
}

/** `pair 3`, or `pairs 3, 4, 9` for several. */
function pairsText(pairs: readonly PairJob[]): string {
  return `pair${pairs.length === 1 ? '' : 's'} ${pairs.map((p) => p.index).join(', ')}`;
}

/** Plays a tournament's pairs on remote `arena worker` processes through Redis. */
export class QueueExecutor implements Executor {
  readonly concurrency: number;
  readonly id: string;
  readonly #o: QueueExecutorOptions;
  #run: Coordination | null = null;

  constructor(options: QueueExecutorOptions) {
    this.#o = options;
    this.id = tournamentId(options.dir, options.specText);
    this.concurrency = options.window ?? 512;
  }

  async run(ctx: ExecutionContext): Promise<void> {
    const run = (this.#run = new Coordination(this.#o, this.id, this.concurrency, ctx));
    await run.play();
  }

  pausedWorkers(): Readonly<Record<string, string>> {
    return this.#run?.paused() ?? {};
  }

  /** Closes the queues; when the tournament is complete its keys are removed from Redis. */
  async close(): Promise<void> {
    await this.#run?.close();
  }
}

/** A job's options: see `Coordination.#jobOf`. */
type PairJobOptions = { jobId: string; attempts: number; backoff: { type: 'fixed'; delay: number }; removeOnComplete: false; removeOnFail: true };

/**
 * One run of the coordinator: the connection, the tournament published in Redis, the pairs fed
 * into the queue a window at a time, the results folded as workers complete their jobs.
 */
class Coordination {
  readonly #o: QueueExecutorOptions;
  readonly #id: string;
  readonly #window: number;
  readonly #ctx: ExecutionContext;
  #redis: Redis | null = null;
  #link: LinkState = 'connecting';
  #linkDetail = '';
  #stores: QueueStores | null = null;
  #bots: Record<string, QueueBot> = {};
  /** The bundles of the module bots and users' games, by file (see `#bundles`). */
  #bundled: Map<string, Promise<Buffer>> | null = null;
  /** The users' games shipped with the jobs: family id → bundle hash. */
  #games: Record<string, string> = {};
  #pairs: Queue<PairJobData> | null = null;
  #results: Worker<ResultJobData> | null = null;
  #board: WorkerBoard | null = null;
  readonly #boards = new RemoteBoards();
  #statusTimer: NodeJS.Timeout | null = null;
  /** Pairs handed to the queue and not yet folded, by pair index. */
  readonly #outstanding = new Map<number, PairJob>();
  /** The jobs this coordinator put in the queue and has not removed, by id, with their pairs. */
  readonly #jobs = new Map<string, readonly PairJob[]>();
  /** Jobs in the queue before this coordinator registered (its predecessor's, on `--resume`): their pairs are folded when this one has queued them too. */
  readonly #inherited = new Set<string>();
  /** Pairs taken from the schedule so far. */
  #queued = 0;
  /** A pair's time on a worker (ms) in each of the last `TIMED_JOBS` jobs folded. */
  readonly #pairTimes: number[] = [];
  /** Pairs whose completed jobs are being folded (not to be withdrawn meanwhile). */
  readonly #folding = new Set<number>();
  #exhausted = false;
  #failure: Error | null = null;
  #finish!: () => void;
  readonly #finished = new Promise<void>((resolve) => (this.#finish = resolve));
  /** Feeding steps, one after another. */
  #feeding: Promise<void> = Promise.resolve();
  #withdrawing = false;
  #intakeOpen = true;
  /** Bots a worker reported unable to start (reported once each). */
  readonly #failedBots = new Set<string>();
  /** Set when every pair was folded: the tournament's keys can leave Redis. */
  #complete = false;
  /** Each variant's game and the rules its records are checked by. */
  readonly #variants = new Map<string, { readonly game: AnyGame; readonly rules: RecordRules }>();
  readonly #version: QueueVersion;
  #lease: CoordinatorLease | null = null;
  /** When a game was last folded (or the run began), on this clock; and whether the stall since was said. */
  #progressAt = performance.now();
  #stallSaid = false;
  /** When the queued jobs were last checked, and the jobs missing then. */
  #auditAt = performance.now();
  #missing = new Set<string>();
  /** Pairs whose results were refused: the workers that sent them (the pair is then played elsewhere). */
  readonly #refused = new Map<number, string[]>();
  /** The key that signs jobs (from the tournament's key), or null for unsigned ones. */
  readonly #signer: KeyObject | null;
  /** Workers paused for their health, with why. */
  readonly #paused = new Map<string, string>();

  constructor(o: QueueExecutorOptions, id: string, window: number, ctx: ExecutionContext) {
    this.#o = o;
    this.#id = id;
    this.#window = window;
    this.#ctx = ctx;
    this.#version = o.version ?? queueVersion();
    this.#signer = o.key ? jobSigningKey(o.key) : null;
  }

  /** Workers paused for their health, with why. */
  paused(): Record<string, string> {
    return Object.fromEntries(this.#paused);
  }

  /** Why results from `worker` are not taken (refused by name, or paused), or null. */
  #barred(worker: string): string | null {
    if (this.#o.refuseWorkers?.includes(worker)) return `worker ${worker} is refused by this tournament (--refuse-worker)`;
    const paused = this.#paused.get(worker);
    return paused === undefined ? null : `worker ${worker} is paused: ${paused}`;
  }

  async play(): Promise<void> {
    const ctx = this.#ctx;
    this.#bundles();
    const redis = await this.#connect();
    this.#lease = new CoordinatorLease(redis, this.#id, (err) => {
      this.#failure ??= new QueueError(`${err.message}: the games logged so far are kept; continue with \`arena tournament --resume ${this.#o.dir} --queue <url>\``);
      this.#checkDone();
    });
    await this.#lease.acquire((reason) => this.#ctx.emit({ type: 'queue-problem', reason }));
    const pairs = new Queue<PairJobData>(pairsQueueName(this.#id), { connection: redis, prefix: PREFIX });
    pairs.on('error', redisAway); // connection errors: shown by the link status, retried
    this.#pairs = pairs;
    // Before registering: a job there now is the tournament's earlier coordinator's, not a worker's answer to this one.
    for (const job of await pairs.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed'])) if (job?.id) this.#inherited.add(job.id);
    await this.#publish(redis);
    this.#lease.registered();
    this.#board = new WorkerBoard(redis, this.#id, ctx.workers);
    // Resumed: workers paused before are paused again (their counts folded from the log).
    await this.#checkHealth(this.#board.counts().keys());
    this.#statusTimer = setInterval(() => void this.#status().catch(redisAway), this.#o.statusEveryMs ?? 1000);
    this.#statusTimer.unref();
    // Live boards: the workers' games in flight, as they publish them (when the sink watches).
    if (ctx.wantLive) await this.#boards.watch(redis, this.#id, ctx);
    this.#results = this.#listen(redis);
    const onAbort = (): void => this.#checkDone();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const unpause = ctx.pause ? setInterval(() => !ctx.pause!.paused && this.#outstanding.size < this.#window && !this.#exhausted && this.#feed(), 200) : null;
    this.#feed();
    const intake = this.#intake(pairs);
    try {
      await this.#status().catch(redisAway);
      await this.#finished;
    } finally {
      this.#intakeOpen = false;
      ctx.signal?.removeEventListener('abort', onAbort);
      if (unpause) clearInterval(unpause);
    }
    await this.#feeding;
    // Results being folded finish first: nothing is handed over once `run` has returned.
    await intake;
    // The dashboard's worker lines end with every game folded, not as the last tick left them.
    if (this.#link === 'connected') await this.#workerStatus().catch(redisAway);
    await this.#wrapUp(pairs);
  }

  /** Connects to Redis (failing with one line when it cannot be reached), following the link's state. */
  async #connect(): Promise<Redis> {
    const { url } = this.#o;
    const redis = connectRedis(url, `take-arena-coordinator-${this.#id}`, (state, detail) => {
      const was = this.#link;
      this.#link = state;
      this.#linkDetail = detail;
      if (state !== was) this.#ctx.emit({ type: 'queue-link', state, detail, url: shownUrl(url) });
      // Back after an outage: a Redis restarted without persistence has lost the registry, the
      // bundles and the queued pairs; publishing them again is harmless when it kept them.
      if (state === 'connected' && was === 'reconnecting') {
        this.#lease?.relinked();
        this.#republish();
      }
    });
    this.#redis = redis;
    await firstConnection(redis, url);
    this.#link = 'connected';
    this.#ctx.emit({ type: 'queue-link', state: 'connected', detail: '', url: shownUrl(url) });
    return redis;
  }

  /** Publishes the bots (bundles and stores) and registers the tournament for the workers. */
  async #publish(redis: Redis): Promise<void> {
    const o = this.#o;
    if (o.botData) {
      // The snapshots a local run's hosts would take, now (before any game), reset stores reported alike.
      const modules = o.entrants.filter((e) => e.entry.transport !== 'process');
      const labelOf = new Map(modules.map((e) => [e.entry.name, e.spec.label]));
      this.#stores = new QueueStores(redis, this.#id, o.botData, [...labelOf.keys()], (bot, reason) => this.#ctx.emit({ type: 'bot-store-reset', bot: labelOf.get(bot) ?? bot, reason }));
    }
    this.#bots = await this.#publishBots(redis);
    this.#games = await this.#publishGames(redis);
    await this.#register();
  }

  #register(): Promise<unknown> {
    const o = this.#o;
    const refused = o.refuseWorkers ?? [];
    const entry: TournamentEntry = {
      name: o.name,
      dir: o.dir,
      total: o.total,
      host: hostname(),
      pid: process.pid,
      ...(this.#ctx.wantLive ? { live: true } : {}),
      ...(refused.length ? { refused } : {}),
      ...(this.#paused.size ? { paused: Object.fromEntries(this.#paused) } : {}),
    };
    const redis = this.#redis!;
    // Announced: the workers serve a new tournament (or stop serving a worker paused) now, not at their next poll.
    return redis.hset(TOURNAMENTS_KEY, this.#id, JSON.stringify(entry)).then(() => redis.publish(TOURNAMENTS_CHANNEL, this.#id));
  }

  /**
   * Bundles every module bot and stores it under its hash, with its store's snapshot and live copy;
   * external bots travel by name (their stores stay on the workers).
   */
  async #publishBots(redis: Redis): Promise<Record<string, QueueBot>> {
    const bots: Record<string, QueueBot> = {};
    await this.#stores?.publish();
    const bundles = this.#bundles();
    for (const e of this.#o.entrants) {
      if (e.entry.transport === 'process') {
        bots[e.spec.label] = { kind: 'external', name: e.entry.name };
        continue;
      }
      const bytes = await bundles.get(e.entry.file)!;
      const hash = contentHash(bytes);
      await putShared(redis, this.#id, bundleKey(hash), bytes);
      const store = this.#stores?.of(e.entry.name);
      bots[e.spec.label] = { kind: 'module', name: e.entry.name, bundle: hash, ...(store ? { store } : {}) };
    }
    return bots;
  }

  /**
   * The bundles of the module bots and of the users' game files, by file: all built at once, once
   * per run (started before Redis is reached, and kept for a republish after an outage).
   */
  #bundles(): ReadonlyMap<string, Promise<Buffer>> {
    if (!this.#bundled) {
      const bundled = (this.#bundled = new Map<string, Promise<Buffer>>());
      const add = (file: string, name: string): void => void (bundled.has(file) || bundled.set(file, bundleBot(file, name)));
      for (const e of this.#o.entrants) if (e.entry.transport !== 'process') add(e.entry.file, e.entry.name);
      for (const { family, file } of this.#o.games ?? []) add(file, `game-${family}`);
      // A failure is handled where each bundle is awaited (the run fails there); until then it is no unhandled rejection.
      for (const bytes of bundled.values()) bytes.catch(() => undefined);
    }
    return this.#bundled;
  }

  /** Bundles the users' game files the tournament plays and stores each under its hash, for the workers to load. */
  async #publishGames(redis: Redis): Promise<Record<string, string>> {
    const games: Record<string, string> = {};
    const bundles = this.#bundles();
    for (const { family, file } of this.#o.games ?? []) {
      const bytes = await bundles.get(file)!;
      const hash = contentHash(bytes);
      await putShared(redis, this.#id, bundleKey(hash), bytes);
      games[family] = hash;
    }
    return games;
  }

  /**
   * A job of `pairs`. Its id is made from the first pair's place in the schedule (`jobIdOf`): adding
   * it again while it waits, runs or holds its result is a no-op. A completed job holds the result
   * until the coordinator removes it.
   */
  #jobOf(pairs: readonly PairJob[]): { name: string; data: PairJobData; opts: PairJobOptions } {
    const avoid = [...new Set(pairs.flatMap((p) => this.#refused.get(p.index) ?? []))];
    const games: Record<string, string> = {};
    for (const p of pairs) {
      const family = this.#variant(p.games[0].variant).game.family;
      const hash = this.#games[family];
      if (hash) games[family] = hash;
    }
    return {
      name: 'pairs',
      data: signedJob(this.#signer, { tournament: this.#id, pairs, bots: this.#bots, settings: this.#o.settings, version: this.#version, ...(avoid.length ? { avoid } : {}), ...(Object.keys(games).length ? { games } : {}) }),
      opts: { jobId: jobIdOf(pairs), attempts: 3, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: false, removeOnFail: true },
    };
  }

  /** Queues a job for each batch of pairs (one round trip), noting them as this coordinator's. */
  async #addJobs(batches: readonly (readonly PairJob[])[]): Promise<void> {
    if (batches.length === 0) return;
    for (const b of batches) this.#jobs.set(jobIdOf(b), b);
    await this.#pairs!.addBulk(batches.map((b) => this.#jobOf(b)));
  }

  /**
   * Pairs per job: the `batch` option, or as many as take about `JOB_TARGET_MS` on a worker (one
   * until a pair's time is known), at most `MAX_BATCH`, an eighth of the window and an eighth of
   * the pairs not yet queued, so that the window still holds jobs for several workers and the
   * jobs shrink towards the end of the run (the last ones spread over the workers).
   */
  #batchSize(): number {
    const rest = Math.ceil((this.#o.total / 2 - this.#queued) / 8);
    const cap = Math.max(1, Math.min(MAX_BATCH, Math.floor(this.#window / 8), rest));
    if (this.#o.batch !== undefined) return Math.max(1, Math.min(this.#o.batch, this.#window));
    const ms = this.#pairMs();
    if (ms === null) return 1;
    return Math.max(1, Math.min(cap, Math.round(JOB_TARGET_MS / Math.max(ms, 0.01))));
  }

  /**
   * A pair's time on a worker (ms): the median of the last jobs' (a worker's first job, which
   * also starts its bots, does not pull it up), or null before `PROBE_PAIRS` jobs were timed.
   */
  #pairMs(): number | null {
    if (this.#pairTimes.length < PROBE_PAIRS) return null;
    const sorted = [...this.#pairTimes].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  }

  /** Notes a pair's time from a completed job of `n` pairs (both times on the worker's clock). */
  #learn(job: Job<PairJobData, unknown>, n: number): void {
    if (!job.processedOn || !job.finishedOn || n === 0) return;
    this.#pairTimes.push(Math.max(0, job.finishedOn - job.processedOn) / n);
    if (this.#pairTimes.length > TIMED_JOBS) this.#pairTimes.shift();
  }

  /** Runs one feeding step after the others; a step that fails fails the run (rather than stall the feed). */
  #step(step: () => Promise<void>): void {
    this.#feeding = this.#feeding.then(step).catch((err: unknown) => {
      this.#failure ??= err instanceof Error ? err : new QueueError(String(err));
      this.#checkDone();
    });
  }

  /**
   * Tops the queue up to the window with the schedule's next pairs, `#batchSize()` a job; until a
   * pair's time is known (and no `batch` is set), only `PROBE_PAIRS`, one a job.
   */
  #feed(): void {
    this.#step(async () => {
      if (this.#failure || this.#ctx.pause?.paused) return;
      const limit = this.#pairMs() === null && this.#o.batch === undefined ? Math.min(this.#window, PROBE_PAIRS) : this.#window;
      const batches: PairJob[][] = [];
      let batch: PairJob[] = [];
      while (!this.#exhausted && this.#outstanding.size < limit) {
        const pair = this.#ctx.pairs.next();
        if (!pair) {
          this.#exhausted = true;
          break;
        }
        this.#outstanding.set(pair.index, pair);
        const size = this.#batchSize();
        this.#queued++;
        batch.push(pair);
        if (batch.length >= size) {
          batches.push(batch);
          batch = [];
        }
      }
      if (batch.length) batches.push(batch);
      await this.#addJobs(batches);
      this.#checkDone();
    });
  }

  /** After an outage: the registry, the bots and the pending pairs published again. */
  #republish(): void {
    this.#step(async () => {
      await this.#register();
      await this.#publishBots(this.#redis!);
      await this.#publishGames(this.#redis!);
      // Jobs still waiting or running are left alone (same ids, same pairs); lost ones are queued again.
      const jobs = [...this.#jobs.values()];
      await this.#addJobs(jobs);
      this.#ctx.emit({ type: 'queue-link', state: 'connected', detail: `republished ${this.#outstanding.size} pending pairs`, url: shownUrl(this.#o.url) });
    });
  }

  #checkDone(): void {
    if (this.#failure || (this.#exhausted && this.#outstanding.size === 0) || (this.#ctx.signal?.aborted ?? false)) this.#finish();
  }

  /**
   * Early stop of a pairing (its sequential test decided): its queued pairs that no worker has
   * started are removed, so workers move on; those already started finish and are folded. A job
   * not started that also holds wanted pairs is queued again with those alone.
   */
  async #withdraw(): Promise<void> {
    if (this.#withdrawing) return;
    this.#withdrawing = true;
    const { pairs } = this.#ctx;
    try {
      for (const [id, job] of [...this.#jobs]) {
        const left = job.filter((p) => this.#outstanding.has(p.index));
        if (!left.some((p) => pairs.unwanted(p)) || left.some((p) => this.#folding.has(p.index))) continue;
        // A job that has just finished is gone too (remove says 1): its result may be folded
        // meanwhile, so each pair is asked again after the round trip.
        if ((await this.#pairs!.remove(id)) !== 1 || this.#jobs.get(id) !== job) continue;
        this.#jobs.delete(id);
        const wanted: PairJob[] = [];
        for (const p of left) {
          if (!this.#outstanding.has(p.index)) continue;
          if (!pairs.unwanted(p)) {
            wanted.push(p);
            continue;
          }
          this.#outstanding.delete(p.index);
          pairs.withdraw(p);
        }
        await this.#addJobs(wanted.length ? [wanted] : []);
      }
    } finally {
      this.#withdrawing = false;
    }
  }

  /** The dashboard's view of the queue: the link, the workers, the pairs queued. */
  async #status(): Promise<void> {
    const queued = this.#outstanding.size;
    if (this.#link !== 'connected') {
      this.#ctx.emit({ type: 'queue-status', link: this.#link, detail: this.#linkDetail, workers: [], queued });
      return;
    }
    await this.#stores?.copyBack();
    this.#stalled(await this.#workerStatus());
    // Every fifth status (about every 5 s): the queued pairs' jobs are still in Redis.
    if (performance.now() - this.#auditAt >= 5 * (this.#o.statusEveryMs ?? 1000)) {
      this.#auditAt = performance.now();
      this.#step(() => this.#audit());
    }
  }

  /** Reads the workers and tells the dashboard (the workers' games as folded up to now); returns them. */
  async #workerStatus(): Promise<WorkerStatus[]> {
    const workers = await this.#board!.workers(this.#paused);
    this.#ctx.emit({ type: 'queue-status', link: this.#link, detail: this.#linkDetail, workers, queued: this.#outstanding.size });
    return workers;
  }

  /**
   * Every job ends folded, retried or reported: a queued job gone from Redis (BullMQ fails and
   * removes a job that stalled too often, e.g. with a `--lock-ms` shorter than a job) is queued
   * again, and counts as a failure of its pairs. Gone at two checks in a row, so a job between its
   * fold and its removal, or being withdrawn, is not taken for lost.
   */
  async #audit(): Promise<void> {
    const redis = this.#redis;
    if (redis?.status !== 'ready' || this.#link !== 'connected') return;
    const jobs = [...this.#jobs].filter(([, job]) => !job.some((p) => this.#folding.has(p.index)));
    const pipe = redis.pipeline();
    for (const [id] of jobs) pipe.exists(`${PREFIX}:${pairsQueueName(this.#id)}:${id}`);
    const found = (await pipe.exec()) ?? [];
    const missing = new Set<string>();
    jobs.forEach(([id, job], k) => found[k]?.[1] === 0 && this.#jobs.get(id) === job && missing.add(id));
    for (const id of missing) {
      const job = this.#jobs.get(id);
      if (!this.#missing.has(id) || !job) continue;
      missing.delete(id);
      this.#jobs.delete(id);
      const left = job.filter((p) => this.#outstanding.has(p.index));
      if (left.length === 0) continue;
      this.#ctx.emit({ type: 'queue-problem', reason: `${pairsText(left)}'s job is gone from the queue (a job that stalls too often is dropped: is --lock-ms shorter than a job?); queued again` });
      await this.#requeue(left, 'the queue', 'its job was dropped from the queue');
    }
    this.#missing = missing;
  }

  /**
   * Says once, when no game has been folded for `idleWarnMs` and no worker has beaten lately, that
   * the run waits for workers and how to go on (a stall with workers alive is theirs to report).
   */
  #stalled(workers: readonly WorkerStatus[]): void {
    const idleMs = this.#o.idleWarnMs ?? 30_000;
    if (this.#stallSaid || this.#outstanding.size === 0 || this.#ctx.pause?.paused || performance.now() - this.#progressAt < idleMs) return;
    if (workers.some((w) => w.lastBeatS < LIVE_BEAT_S && w.state !== 'stopping')) return;
    this.#stallSaid = true;
    const key = this.#o.key ? ' and the tournament\'s key' : '';
    this.#ctx.emit({
      type: 'queue-problem',
      reason: `no game folded for ${Math.round((performance.now() - this.#progressAt) / 1000)} s and no worker alive: start one with \`arena worker --queue ${shownUrl(this.#o.url)}\`${key}, or stop here (Ctrl-C) and continue later with \`arena tournament --resume ${this.#o.dir} --queue <url>\``,
    });
  }

  /** The game of a variant and the rules its remote records are checked by (made once per variant). */
  #variant(id: string): { readonly game: AnyGame; readonly rules: RecordRules } {
    let v = this.#variants.get(id);
    if (!v) {
      const game = parseVariant(id);
      const judge = this.#o.settings.adjudicate ? exactJudge(game) : undefined;
      v = { game, rules: { judge, marginMs: this.#o.settings.graceMs ?? DEFAULT_GRACE_MS } };
      this.#variants.set(id, v);
    }
    return v;
  }

  /**
   * Checks a completed job's result before anything of it is folded: the job must be one this
   * coordinator queued (or its predecessor's, for the pairs this one queued too), the result must be
   * signed by the worker it names, of this version, and each of its pairs' two records must replay
   * through the referee from the deal (verify.ts). A pair is refused on its own (the others of its
   * job are folded); a result that fails as a whole refuses every pair of the job. Anything else a
   * worker (or anyone with access to Redis) wrote there is refused, whatever its shape. Pairs in
   * `taken` (folded from another job of the same intake) are left out, and the good ones are added.
   */
  #check(job: Job<PairJobData, unknown>, taken: Set<number>): Checked {
    const result: unknown = job.returnvalue;
    const said = result !== null && typeof result === 'object' ? (result as Record<string, unknown>)['worker'] : undefined;
    const worker = typeof said === 'string' && WORKER_NAME.test(said) ? said : (job.processedBy ?? 'unknown');
    const id = job.id ?? '';
    const known = this.#jobs.get(id);
    // A job this coordinator queued: its pairs still outstanding (a pair may have been folded from its predecessor's job).
    const mine = known?.filter((p) => this.#outstanding.has(p.index) && !taken.has(p.index));
    const all = (reason: string): Checked => {
      const unknown = /^p(\d+)/.exec(id)?.[1];
      const indices = mine ? mine.map((p) => p.index) : [unknown === undefined ? null : Number(unknown)];
      return { worker, retries: 0, good: [], refused: indices.map((index) => ({ index, reason })) };
    };
    if (!known && !this.#inherited.has(id)) return all(`job ${JSON.stringify(id)} is not a job this coordinator queued`);
    if (result === null || typeof result !== 'object') return all(`its result is ${result === null ? 'null' : typeof result}, not the records of its pairs`);
    const forged = workerSignatureProblem(this.#o.key ?? null, 'result', result);
    if (forged) return all(forged);
    const barred = this.#barred(worker);
    if (barred) return all(barred);
    const other = versionMismatch(this.#version, (result as { version?: unknown }).version, 'the result', 'this coordinator');
    if (other) return all(other);
    const data = result as Partial<Record<keyof PairResultData, unknown>>;
    if (data.kind !== 'pairs' || !Array.isArray(data.pairs)) return all(`its result is not a job's pairs (kind ${JSON.stringify(data.kind) ?? 'missing'})`);
    const retries = data.retries ?? 0;
    if (typeof retries !== 'number' || !Number.isSafeInteger(retries) || retries < 0) return all('its `retries` is not a count');
    const named = new Map<number, unknown>();
    for (const entry of data.pairs as unknown[]) {
      const index = entry !== null && typeof entry === 'object' ? (entry as Partial<PairRecords>).pairIndex : undefined;
      if (typeof index === 'number' && !named.has(index)) named.set(index, (entry as Partial<PairRecords>).records);
    }
    // Its predecessor's job: the pairs of it this coordinator has queued (the others are played when it queues them).
    const pairs = mine ?? [...named.keys()].flatMap((i) => (taken.has(i) ? [] : [this.#outstanding.get(i) ?? []].flat()));
    const good: GoodPair[] = [];
    const refused: { index: number; reason: string }[] = [];
    for (const pair of pairs) {
      const records = named.get(pair.index);
      if (!named.has(pair.index)) refused.push({ index: pair.index, reason: 'its result has no records for it' });
      else if (!Array.isArray(records) || records.length !== 2) refused.push({ index: pair.index, reason: `its \`records\` are ${JSON.stringify(records) ?? 'missing'}, not the pair's two games` });
      else {
        const checked = this.#checkPair(pair, records);
        if (typeof checked === 'string') refused.push({ index: pair.index, reason: checked });
        else {
          good.push(checked);
          taken.add(pair.index);
        }
      }
    }
    return { worker, retries, good, refused };
  }

  /** A pair's two records replayed through the referee (verify.ts), or why one is refused. */
  #checkPair(pair: PairJob, given: readonly unknown[]): GoodPair | string {
    const records: GameRecord[] = [];
    const judgements: GameJudgement[] = [];
    for (const g of pair.games) {
      const { game, rules } = this.#variant(g.variant);
      const judge = this.#ctx.follow(g.variant);
      try {
        records.push(verifyRecord(g, game, given[g.seating], rules, judge));
      } catch (err) {
        if (!(err instanceof RecordRefusal)) throw err;
        return `game ${g.index} (seating ${g.seating}): ${err.reason}`;
      }
      judgements.push(judge.judgement());
    }
    return { pair, records, judgements };
  }

  /** Folds a checked pair's two records, each saying which worker played it. */
  async #foldPair({ pair, records, judgements }: GoodPair, worker: string, retries: number): Promise<void> {
    for (const rec of records) this.#boards.folded(rec.index);
    for (let s = 0; s < 2; s++) {
      const rec: GameRecord = { ...records[s]!, worker, ...(retries > 0 ? { retries } : {}) };
      const behind = this.#ctx.finish(rec, judgements[s]);
      if (behind) await behind;
    }
    this.#refused.delete(pair.index);
    this.#progressAt = performance.now();
    this.#stallSaid = false;
  }

  /**
   * Pauses the workers among `workers` whose crashes and time losses are past the rule (health.ts):
   * said in one line, and the registry tells them to take no more of this tournament's jobs.
   */
  async #checkHealth(workers: Iterable<string>): Promise<void> {
    const counts = this.#board!.counts();
    let changed = false;
    for (const worker of workers) {
      if (this.#paused.has(worker)) continue;
      const reason = pauseReason(counts, worker, this.#o.pause ?? PAUSE_RULE);
      if (reason === null) continue;
      this.#paused.set(worker, reason);
      changed = true;
      this.#ctx.emit({ type: 'queue-problem', worker, reason: `paused: ${reason}; it gets no more jobs` });
    }
    if (changed) await this.#register().catch(redisAway);
  }

  /**
   * A result's refused pairs (its job already removed): each said in one line naming the worker,
   * and those this coordinator queued that no other job of its holds queued again together, for
   * another worker.
   */
  async #refuse({ worker, refused }: Checked): Promise<void> {
    const again: PairJob[] = [];
    const why = new Map<number, string>();
    for (const { index, reason } of refused) {
      const pair = index === null ? undefined : this.#outstanding.get(index);
      const held = pair !== undefined && [...this.#jobs.values()].some((job) => job.includes(pair));
      if (pair && !held) {
        again.push(pair);
        why.set(pair.index, reason);
      }
      // A second copy of a pair already folded (its job could not be removed then): nothing to say.
      const done = index !== null && !pair && this.#ctx.pairs.isDone(index * 2) && this.#ctx.pairs.isDone(index * 2 + 1);
      if (!done) this.#ctx.emit({ type: 'queue-problem', worker, reason: `refused its result${index === null ? '' : ` for pair ${index}`}: ${reason}${pair && !held ? '; the pair is queued again' : ''}` });
    }
    if (again.length) await this.#requeue(again, worker, why);
  }

  /**
   * Queues pairs again, as one job, after `worker` failed them (a refused result, or a job it
   * refused to play), to be played by another worker when there is one; a pair failed
   * `MAX_REFUSALS` times ends the run, saying why (`reason`, or its own in a map).
   */
  async #requeue(pairs: readonly PairJob[], worker: string, reason: string | ReadonlyMap<number, string>): Promise<void> {
    for (const pair of pairs) {
      const by = [...(this.#refused.get(pair.index) ?? []), worker];
      this.#refused.set(pair.index, by);
      if (by.length >= MAX_REFUSALS) {
        const last = typeof reason === 'string' ? reason : reason.get(pair.index);
        this.#failure ??= new QueueError(`pair ${pair.index} failed ${by.length} times (on ${[...new Set(by)].join(', ')}); the last: ${last}`);
        this.#checkDone();
        return;
      }
    }
    // A new job under its id: none of its starts was a worker leaving it yet.
    await this.#redis!.hdel(leftKey(this.#id), jobIdOf(pairs));
    await this.#addJobs([pairs]);
  }

  /**
   * A job's result is its return value: the worker completes the job with its pairs' records (one
   * round trip, which also fetches its next job), and the completed job stays in Redis until its
   * records are durable here. Completed jobs are read in batches, folded, and removed only after
   * one group commit, so a coordinator killed at any moment loses nothing: the resumed one finds
   * the same completed jobs and folds each pair once.
   */
  async #intake(pairs: Queue<PairJobData>): Promise<void> {
    // The first window is queued before any result is read: a result is folded only for a pair queued.
    await this.#feeding;
    while (this.#intakeOpen) {
      const jobs = await this.#completedJobs(pairs);
      if (!this.#intakeOpen) return;
      if (jobs.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const taken = new Set<number>();
      const checked = jobs.map((job) => ({ job, result: this.#check(job, taken) }));
      for (const index of taken) this.#folding.add(index);
      for (const { result } of checked) for (const good of result.good) await this.#foldPair(good, result.worker, result.retries);
      await this.#ctx.committed();
      await this.#checkHealth(new Set(checked.flatMap(({ result }) => (result.good.length ? [result.worker] : []))));
      for (const { job, result } of checked) if (result.refused.length === 0 && this.#jobs.has(job.id ?? '')) this.#learn(job, result.good.length);
      // Durable: the jobs may go (one pipelined round trip for the batch). A job that cannot be
      // removed now (Redis away) is found completed again: its pairs are no longer queued, so they are dropped.
      await Promise.all(checked.map(({ job }) => job.remove().catch(redisAway)));
      for (const { job } of checked) this.#jobs.delete(job.id ?? '');
      for (const index of taken) {
        this.#folding.delete(index);
        if (this.#ctx.pairs.isDone(index * 2) && this.#ctx.pairs.isDone(index * 2 + 1)) this.#outstanding.delete(index);
      }
      for (const { result } of checked) if (result.refused.length) await this.#refuse(result);
      await this.#withdraw();
      this.#feed();
      this.#checkDone();
    }
  }

  /** Up to 256 completed jobs (none while Redis is away: the link status says so; asked again). */
  async #completedJobs(pairs: Queue<PairJobData>): Promise<Job<PairJobData, unknown>[]> {
    if (this.#link !== 'connected') return [];
    try {
      const jobs = (await pairs.getJobs(['completed'], 0, 255, true)) as (Job<PairJobData, unknown> | undefined)[];
      return jobs.filter((j): j is Job<PairJobData, unknown> => j !== undefined);
    } catch {
      return []; // Redis went away meanwhile: asked again
    }
  }

  /** Listens to the workers' reports: a job that cannot be played, a bot that cannot start. */
  #listen(redis: Redis): Worker<ResultJobData> {
    const lockMs = this.#o.resultLockMs ?? 5000;
    const results = new Worker<ResultJobData>(resultsQueueName(this.#id), async (job) => this.#onReport(job.data, job.id), {
      connection: redis,
      prefix: PREFIX,
      concurrency: 8,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.round(lockMs / 2)),
      maxStalledCount: 1000,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1000 },
    });
    results.on('error', redisAway); // connection errors: shown by the link status, retried by BullMQ
    return results;
  }

  /** A worker's report, counted only when signed with the tournament's key (a rogue's report could otherwise stop the run). */
  async #onReport(data: ResultJobData, id: string | undefined): Promise<void> {
    const forged = workerSignatureProblem(this.#o.key ?? null, 'report', data);
    if (forged) {
      const said = (data as Partial<ResultJobData> | null)?.worker;
      this.#ctx.emit({ type: 'queue-problem', worker: typeof said === 'string' && WORKER_NAME.test(said) ? said : 'unknown', reason: `ignored report ${id ?? ''}: ${forged}` });
      return;
    }
    if (data.kind === 'bot-failed') {
      // Reported once, like a local run's: the bot forfeits its games wherever it cannot start.
      if (this.#failedBots.has(data.bot)) return;
      this.#failedBots.add(data.bot);
      this.#ctx.emit({ type: 'bot-failed', bot: data.bot, reason: `on worker ${data.worker}: ${data.reason}` });
      return;
    }
    if (data.refused) {
      // A job the worker would not play (its key, floor or version): failed there for good, its pairs queued again if it is one of ours.
      const job = this.#jobs.get(data.job ?? '');
      const left = job?.filter((p) => this.#outstanding.has(p.index)) ?? [];
      if (job) this.#jobs.delete(data.job!);
      this.#ctx.emit({ type: 'queue-problem', worker: data.worker, reason: `refused job ${data.job}: ${data.reason}${left.length === 1 ? '; the pair is queued again' : left.length ? '; its pairs are queued again' : ''}` });
      if (left.length) this.#step(() => this.#requeue(left, data.worker, data.reason));
      return;
    }
    this.#ctx.emit({ type: 'queue-problem', worker: data.worker, reason: data.reason });
    if (data.final) {
      this.#failure ??= new QueueError(`pair ${data.pairIndex} cannot be played: ${data.reason}`);
      this.#checkDone();
    }
  }

  /** After the last fold: the boards stopped, the stores copied back, unstarted pairs drained on an early stop. */
  async #wrapUp(pairs: Queue<PairJobData>): Promise<void> {
    this.#boards.stop();
    // The bots' folders end as a local run leaves them (what the workers wrote, up to now).
    if (this.#link === 'connected') await this.#stores?.copyBack().catch(redisAway);
    await this.#results?.close().catch(redisAway);
    this.#complete = !this.#failure && this.#exhausted && this.#outstanding.size === 0;
    // Early stop: the pairs not started are removed (workers move on); the ones running finish and
    // wait, completed, for `--resume` (or `arena queue clean`).
    if (this.#ctx.signal?.aborted) await pairs.drain().catch(redisAway);
    if (this.#failure) throw this.#failure;
  }

  /** Removes a finished tournament's queues and keys. */
  async #cleanUp(): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status !== 'ready' || !this.#complete) return;
    await this.#pairs?.obliterate({ force: true }).catch(redisAway);
    const results = new Queue(resultsQueueName(this.#id), { connection: redis, prefix: PREFIX });
    results.on('error', redisAway);
    await results.obliterate({ force: true }).catch(redisAway);
    await results.close().catch(redisAway);
    await redis.hdel(TOURNAMENTS_KEY, this.#id);
    // Announced too: the workers retire the tournament (its bots' processes) now, not at their next poll.
    await redis.publish(TOURNAMENTS_CHANNEL, this.#id);
    await redis.del(gamesKey(this.#id), checksKey(this.#id), leaseKey(this.#id), leftKey(this.#id));
    await this.#stores?.remove();
    const bundles = [...Object.values(this.#bots).flatMap((b) => (b.kind === 'module' ? [b.bundle] : [])), ...Object.values(this.#games)];
    await releaseShared(redis, this.#id, bundles.map(bundleKey));
  }

  async close(): Promise<void> {
    if (this.#statusTimer) clearInterval(this.#statusTimer);
    if (this.#redis?.status === 'ready') await this.#lease?.release().catch(redisAway);
    this.#lease?.stop();
    this.#boards.stop();
    await this.#results?.close().catch(redisAway);
    // Whatever is left (Redis gone before the keys could be removed) is for `arena queue clean`.
    await this.#cleanUp().catch(redisAway);
    await this.#pairs?.close().catch(redisAway);
    this.#redis?.disconnect();
  }
}

/**
 * The `executor` option of `runTournament` for a queued tournament: the coordinator side, on the
 * Redis at `url`. Loaded only when `--queue` is given (BullMQ is not imported otherwise).
 */
export function queueExecutor(url: string, extra: Pick<QueueExecutorOptions, 'window' | 'batch' | 'resultLockMs' | 'statusEveryMs' | 'idleWarnMs' | 'key' | 'version' | 'refuseWorkers' | 'pause'> = {}): (t: PreparedTournament, dir: string) => Executor {
  return (t, dir) =>
    new QueueExecutor({
      url,
      name: t.spec.name,
      dir,
      specText: readFileSync(join(dir, RESULTS_FILES.spec), 'utf8'),
      total: scheduleCount({ variants: t.variants.map((g) => g.id), bots: t.entrants.map((e) => e.spec), deals: t.spec.deals }),
      entrants: t.entrants,
      settings: pairSettings(t.spec),
      botData: runBotData(t.spec, dir),
      games: userFamilies().flatMap((e) => (t.variants.some((v) => v.family === e.family.id) ? [{ family: e.family.id, file: e.file }] : [])),
      ...extra,
    });
}
