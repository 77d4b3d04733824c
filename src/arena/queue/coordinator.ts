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
  TOURNAMENTS_KEY,
  gamesKey,
  type LinkState,
  type PairJobData,
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

/** A completed job's result as checked (see `Coordination.#check`). */
type Checked =
  | { readonly ok: true; readonly pair: PairJob; readonly worker: string; readonly retries: number; readonly records: readonly GameRecord[]; readonly judgements: readonly GameJudgement[] }
  | { readonly ok: false; readonly index: number | null; readonly worker: string; readonly reason: string };

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
  /** The users' games shipped with the jobs: family id → bundle hash. */
  #games: Record<string, string> = {};
  #pairs: Queue<PairJobData> | null = null;
  #results: Worker<ResultJobData> | null = null;
  #board: WorkerBoard | null = null;
  readonly #boards = new RemoteBoards();
  #statusTimer: NodeJS.Timeout | null = null;
  /** Pairs handed to the queue and not yet folded, by pair index. */
  readonly #outstanding = new Map<number, PairJob>();
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
  /** When the queued jobs were last checked, and the pairs whose jobs were missing then. */
  #auditAt = performance.now();
  #missing = new Set<number>();
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
    const redis = await this.#connect();
    this.#lease = new CoordinatorLease(redis, this.#id, (err) => {
      this.#failure ??= new QueueError(`${err.message}: the games logged so far are kept; continue with \`arena tournament --resume ${this.#o.dir} --queue <url>\``);
      this.#checkDone();
    });
    await this.#lease.acquire((reason) => this.#ctx.emit({ type: 'queue-problem', reason }));
    await this.#publish(redis);
    this.#lease.registered();
    const pairs = new Queue<PairJobData>(pairsQueueName(this.#id), { connection: redis, prefix: PREFIX });
    pairs.on('error', redisAway); // connection errors: shown by the link status, retried
    this.#pairs = pairs;
    this.#board = await WorkerBoard.load(redis, this.#id);
    // Resumed: workers paused before are paused again (their counts carried over).
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
    return this.#redis!.hset(TOURNAMENTS_KEY, this.#id, JSON.stringify(entry));
  }

  /**
   * Bundles every module bot and stores it under its hash, with its store's snapshot and live copy;
   * external bots travel by name (their stores stay on the workers).
   */
  async #publishBots(redis: Redis): Promise<Record<string, QueueBot>> {
    const bots: Record<string, QueueBot> = {};
    await this.#stores?.publish();
    const bundles = new Map<string, Promise<Buffer>>();
    for (const e of this.#o.entrants) {
      if (e.entry.transport === 'process') {
        bots[e.spec.label] = { kind: 'external', name: e.entry.name };
        continue;
      }
      const file = e.entry.file;
      if (!bundles.has(file)) bundles.set(file, bundleBot(file, e.entry.name));
      const bytes = await bundles.get(file)!;
      const hash = contentHash(bytes);
      await putShared(redis, this.#id, bundleKey(hash), bytes);
      const store = this.#stores?.of(e.entry.name);
      bots[e.spec.label] = { kind: 'module', name: e.entry.name, bundle: hash, ...(store ? { store } : {}) };
    }
    return bots;
  }

  /** Bundles the users' game files the tournament plays and stores each under its hash, for the workers to load. */
  async #publishGames(redis: Redis): Promise<Record<string, string>> {
    const games: Record<string, string> = {};
    for (const { family, file } of this.#o.games ?? []) {
      const bytes = await bundleBot(file, `game-${family}`);
      const hash = contentHash(bytes);
      await putShared(redis, this.#id, bundleKey(hash), bytes);
      games[family] = hash;
    }
    return games;
  }

  /**
   * A pair's job. Its id is the pair's place in the schedule: adding it again while it waits, runs
   * or holds its result is a no-op. A completed job holds the result until the coordinator removes it.
   */
  #jobOf(pair: PairJob): { name: string; data: PairJobData; opts: PairJobOptions } {
    const avoid = this.#refused.get(pair.index);
    const family = this.#variant(pair.games[0].variant).game.family;
    const game = this.#games[family];
    return {
      name: 'pair',
      data: signedJob(this.#signer, { tournament: this.#id, pair, bots: this.#bots, settings: this.#o.settings, version: this.#version, ...(avoid ? { avoid } : {}), ...(game ? { games: { [family]: game } } : {}) }),
      opts: { jobId: `p${pair.index}`, attempts: 3, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: false, removeOnFail: true },
    };
  }

  /** Runs one feeding step after the others; a step that fails fails the run (rather than stall the feed). */
  #step(step: () => Promise<void>): void {
    this.#feeding = this.#feeding.then(step).catch((err: unknown) => {
      this.#failure ??= err instanceof Error ? err : new QueueError(String(err));
      this.#checkDone();
    });
  }

  /** Tops the queue up to the window with the schedule's next pairs. */
  #feed(): void {
    this.#step(async () => {
      if (this.#failure || this.#ctx.pause?.paused) return;
      const batch: PairJob[] = [];
      while (!this.#exhausted && this.#outstanding.size < this.#window) {
        const pair = this.#ctx.pairs.next();
        if (!pair) {
          this.#exhausted = true;
          break;
        }
        this.#outstanding.set(pair.index, pair);
        batch.push(pair);
      }
      if (batch.length) await this.#pairs!.addBulk(batch.map((p) => this.#jobOf(p)));
      this.#checkDone();
    });
  }

  /** After an outage: the registry, the bots and the pending pairs published again. */
  #republish(): void {
    this.#step(async () => {
      await this.#register();
      await this.#publishBots(this.#redis!);
      await this.#publishGames(this.#redis!);
      // Jobs still waiting or running are left alone (same ids); lost ones are queued again.
      const pending = [...this.#outstanding.values()];
      if (pending.length) await this.#pairs!.addBulk(pending.map((p) => this.#jobOf(p)));
      this.#ctx.emit({ type: 'queue-link', state: 'connected', detail: `republished ${pending.length} pending pairs`, url: shownUrl(this.#o.url) });
    });
  }

  #checkDone(): void {
    if (this.#failure || (this.#exhausted && this.#outstanding.size === 0) || (this.#ctx.signal?.aborted ?? false)) this.#finish();
  }

  /**
   * Early stop of a pairing (its sequential test decided): its queued pairs that no worker has
   * started are removed, so workers move on; those already started finish and are folded.
   */
  async #withdraw(): Promise<void> {
    if (this.#withdrawing) return;
    this.#withdrawing = true;
    const { pairs } = this.#ctx;
    try {
      for (const p of [...this.#outstanding.values()]) {
        if (!pairs.unwanted(p) || this.#folding.has(p.index)) continue;
        // A job that has just finished is gone too (remove says 1): its result may be folded
        // meanwhile, so the pair is asked again after the round trip.
        if ((await this.#pairs!.remove(`p${p.index}`)) === 1 && pairs.unwanted(p)) {
          this.#outstanding.delete(p.index);
          pairs.withdraw(p);
        }
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
   * Every job ends folded, retried or reported: a queued pair whose job is gone from Redis (BullMQ
   * fails and removes a job that stalled too often, e.g. with a `--lock-ms` shorter than a pair) is
   * queued again, and counts as a failure of the pair. Gone at two checks in a row, so a job
   * between its fold and its removal, or being withdrawn, is not taken for lost.
   */
  async #audit(): Promise<void> {
    const redis = this.#redis;
    if (redis?.status !== 'ready' || this.#link !== 'connected') return;
    const pairs = [...this.#outstanding.values()].filter((p) => !this.#folding.has(p.index));
    const pipe = redis.pipeline();
    for (const p of pairs) pipe.exists(`${PREFIX}:${pairsQueueName(this.#id)}:p${p.index}`);
    const found = (await pipe.exec()) ?? [];
    const missing = new Set<number>();
    pairs.forEach((p, k) => found[k]?.[1] === 0 && this.#outstanding.has(p.index) && missing.add(p.index));
    for (const index of missing) {
      if (!this.#missing.has(index)) continue;
      this.#ctx.emit({ type: 'queue-problem', reason: `pair ${index}'s job is gone from the queue (a job that stalls too often is dropped: is --lock-ms shorter than a pair?); queued again` });
      missing.delete(index);
      await this.#requeue(this.#outstanding.get(index)!, 'the queue', 'its job was dropped from the queue');
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
   * Checks a completed job's result before anything of it is folded: the job must be one of the
   * pairs this coordinator queued and has not folded, and its two records must replay through the
   * referee from the deal (verify.ts). Anything else a worker (or anyone with access to Redis)
   * wrote there is refused, whatever its shape.
   */
  #check(job: Job<PairJobData, unknown>): Checked {
    const result: unknown = job.returnvalue;
    const said = result !== null && typeof result === 'object' ? (result as Record<string, unknown>)['worker'] : undefined;
    const worker = typeof said === 'string' && WORKER_NAME.test(said) ? said : (job.processedBy ?? 'unknown');
    const index = /^p(\d+)$/.exec(job.id ?? '')?.[1];
    const refused = (reason: string, at: number | null = index === undefined ? null : Number(index)): Checked => ({ ok: false, index: at, worker, reason });
    const pair = index === undefined ? undefined : this.#outstanding.get(Number(index));
    if (!pair) return refused(`job ${JSON.stringify(job.id)} is not a pair this coordinator queued`);
    if (result === null || typeof result !== 'object') return refused(`its result is ${result === null ? 'null' : typeof result}, not a pair's records`);
    const forged = workerSignatureProblem(this.#o.key ?? null, 'result', result);
    if (forged) return refused(forged);
    const barred = this.#barred(worker);
    if (barred) return refused(barred);
    const other = versionMismatch(this.#version, (result as { version?: unknown }).version, 'the result', 'this coordinator');
    if (other) return refused(other);
    const data = result as Partial<Record<keyof PairResultData, unknown>>;
    if (data.kind !== 'pair' || data.pairIndex !== pair.index) return refused(`its result names pair ${JSON.stringify(data.pairIndex)}`);
    const retries = data.retries ?? 0;
    if (typeof retries !== 'number' || !Number.isSafeInteger(retries) || retries < 0) return refused('its `retries` is not a count');
    if (!Array.isArray(data.records) || data.records.length !== 2) return refused(`its \`records\` are ${JSON.stringify(data.records) ?? 'missing'}, not the pair's two games`);
    const records: GameRecord[] = [];
    const judgements: GameJudgement[] = [];
    for (const g of pair.games) {
      const { game, rules } = this.#variant(g.variant);
      const judge = this.#ctx.follow(g.variant);
      try {
        records.push(verifyRecord(g, game, data.records[g.seating], rules, judge));
      } catch (err) {
        if (!(err instanceof RecordRefusal)) throw err;
        return refused(`game ${g.index} (seating ${g.seating}): ${err.reason}`);
      }
      judgements.push(judge.judgement());
    }
    return { ok: true, pair, worker, retries, records, judgements };
  }

  /** Folds a checked pair's two records, each saying which worker played it. */
  async #foldPair({ pair, worker, retries, records, judgements }: Extract<Checked, { ok: true }>): Promise<void> {
    const { pairs } = this.#ctx;
    for (const rec of records) this.#boards.folded(rec.index);
    for (let s = 0; s < 2; s++) {
      const rec: GameRecord = { ...records[s]!, worker, ...(retries > 0 ? { retries } : {}) };
      const fresh = !pairs.isDone(rec.index);
      const behind = this.#ctx.finish(rec, judgements[s]);
      if (fresh) this.#board!.played(rec);
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
   * A refused result: said in one line naming the worker, its job removed, and its pair (when this
   * coordinator queued it) queued again for another worker.
   */
  async #refuse(job: Job<PairJobData, unknown>, { index, worker, reason }: Extract<Checked, { ok: false }>): Promise<void> {
    const pair = index === null ? undefined : this.#outstanding.get(index);
    // A second copy of a pair already folded (its job could not be removed then): nothing to say.
    const done = index !== null && !pair && this.#ctx.pairs.isDone(index * 2) && this.#ctx.pairs.isDone(index * 2 + 1);
    if (!done) this.#ctx.emit({ type: 'queue-problem', worker, reason: `refused its result${index === null ? '' : ` for pair ${index}`}: ${reason}${pair ? '; the pair is queued again' : ''}` });
    await job.remove().catch(redisAway);
    if (pair) await this.#requeue(pair, worker, reason);
  }

  /**
   * Queues a pair again after `worker` failed it (a refused result, or a job it refused to play),
   * to be played by another worker when there is one; a pair failed `MAX_REFUSALS` times ends the
   * run, saying why.
   */
  async #requeue(pair: PairJob, worker: string, reason: string): Promise<void> {
    const by = [...(this.#refused.get(pair.index) ?? []), worker];
    this.#refused.set(pair.index, by);
    if (by.length >= MAX_REFUSALS) {
      this.#failure ??= new QueueError(`pair ${pair.index} failed ${by.length} times (on ${[...new Set(by)].join(', ')}); the last: ${reason}`);
      this.#checkDone();
      return;
    }
    const { name, data, opts } = this.#jobOf(pair);
    // A new job under the old id: none of its starts was a worker leaving it yet.
    await this.#redis!.hdel(leftKey(this.#id), opts.jobId);
    await this.#pairs!.add(name, data, opts);
  }

  /**
   * A pair's result is its job's return value: the worker completes the job with its two records
   * (one round trip, which also fetches its next job), and the completed job stays in Redis until
   * its records are durable here. Completed jobs are read in batches, folded, and removed only
   * after one group commit, so a coordinator killed at any moment loses nothing: the resumed one
   * finds the same completed jobs and folds each once.
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
      const checked = jobs.map((job) => ({ job, result: this.#check(job) }));
      const good = checked.filter((c): c is { job: Job<PairJobData, unknown>; result: Extract<Checked, { ok: true }> } => c.result.ok);
      for (const { result } of good) this.#folding.add(result.pair.index);
      for (const { result } of good) await this.#foldPair(result);
      await this.#ctx.committed();
      await this.#checkHealth(new Set(good.map(({ result }) => result.worker)));
      // Durable: the jobs may go (one pipelined round trip for the batch). A job that cannot be
      // removed now (Redis away) is found completed again: its pair is no longer queued, so it is dropped.
      await Promise.all(good.map(({ job }) => job.remove().catch(redisAway)));
      for (const { result } of good) {
        const { pair } = result;
        this.#folding.delete(pair.index);
        if (this.#ctx.pairs.isDone(pair.games[0].index) && this.#ctx.pairs.isDone(pair.games[1].index)) this.#outstanding.delete(pair.index);
      }
      for (const { job, result } of checked) if (!result.ok) await this.#refuse(job, result);
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
      // A job the worker would not play (its key, floor or version): failed there for good, queued again if it is one of ours.
      const pair = this.#outstanding.get(data.pairIndex);
      const ours = pair !== undefined && data.job === `p${pair.index}`;
      this.#ctx.emit({ type: 'queue-problem', worker: data.worker, reason: `refused job ${data.job}: ${data.reason}${ours ? '; the pair is queued again' : ''}` });
      if (ours) this.#step(() => this.#requeue(pair, data.worker, data.reason));
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
export function queueExecutor(url: string, extra: Pick<QueueExecutorOptions, 'window' | 'resultLockMs' | 'statusEveryMs' | 'idleWarnMs' | 'key' | 'version' | 'refuseWorkers' | 'pause'> = {}): (t: PreparedTournament, dir: string) => Executor {
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
