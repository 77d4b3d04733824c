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
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { BotEntry, BotSpec } from '../hosting/index.ts';
import type { BotDataSettings } from '../platform/bot-store.ts';
import { bundleScript } from '../platform/bundle.ts';
import type { LiveGame, LiveSnapshot, WorkerStatus } from './events.ts';
import type { ExecutionContext, Executor } from './executor.ts';
import {
  bundleKey,
  connectRedis,
  contentHash,
  firstConnection,
  liveChannel,
  gamesKey,
  pairsQueueName,
  PREFIX,
  QueueError,
  resultsQueueName,
  TOURNAMENTS_KEY,
  WORKERS_KEY,
  type LinkState,
  type LiveMessage,
  type PairJobData,
  type PairResultData,
  type QueueBot,
  type QueueSettings,
  type ResultJobData,
  type TournamentEntry,
  type WorkerBeat,
} from './queue-protocol.ts';
import { QueueStores } from './queue-stores.ts';
import { RESULTS_FILES } from './results.ts';
import { scheduleCount, type PairJob } from './schedule.ts';
import { runBotData, type PreparedTournament } from './tournament.ts';

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
}

/** The tournament's id in Redis: the results folder's name and a hash of its spec (same on `--resume`). */
export function tournamentId(dir: string, specText: string): string {
  return `${basename(dir).replace(/[^\w.-]/g, '_')}-${contentHash(specText).slice(0, 8)}`;
}

/** Bundles a module bot into one self-contained ES module (the bot and everything it imports). */
export async function bundleBot(file: string, name: string): Promise<Buffer> {
  const url = await bundleScript(`export { default } from ${JSON.stringify(file)};`, dirname(file), `queue-${name}`);
  return readFileSync(fileURLToPath(url));
}

/** A game in flight on a worker, as its last live message showed it: what the dashboard polls. */
class RemoteLive implements LiveGame {
  readonly worker: string;
  over = false;
  #snapshot: LiveSnapshot;

  constructor(worker: string, snapshot: LiveSnapshot) {
    this.worker = worker;
    this.#snapshot = snapshot;
    this.over = snapshot.position.toMove === null;
  }

  get ply(): number {
    return this.#snapshot.ply;
  }

  update(snapshot: LiveSnapshot): void {
    this.#snapshot = snapshot;
    if (snapshot.position.toMove === null) this.over = true;
  }

  snapshot(): LiveSnapshot {
    return this.#snapshot;
  }
}

/** Plays a tournament's pairs on remote `arena worker` processes through Redis. */
export class QueueExecutor implements Executor {
  readonly concurrency: number;
  readonly id: string;
  readonly #o: QueueExecutorOptions;
  #redis: Redis | null = null;
  #pairs: Queue<PairJobData> | null = null;
  #results: Worker<ResultJobData> | null = null;
  #statusTimer: NodeJS.Timeout | null = null;
  #stores: QueueStores | null = null;
  /** The connection that listens to the workers' live games (only when the sink watches them). */
  #subscriber: Redis | null = null;
  /** Set when every pair was folded: the tournament's keys can leave Redis. */
  #complete = false;

  constructor(options: QueueExecutorOptions) {
    this.#o = options;
    this.id = tournamentId(options.dir, options.specText);
    this.concurrency = options.window ?? 512;
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
      await redis.set(bundleKey(hash), bytes);
      const store = this.#stores?.of(e.entry.name);
      bots[e.spec.label] = { kind: 'module', name: e.entry.name, bundle: hash, ...(store ? { store } : {}) };
    }
    return bots;
  }

  async run(ctx: ExecutionContext): Promise<void> {
    const o = this.#o;
    const id = this.id;
    let link: LinkState = 'connecting';
    let linkDetail = '';
    let republish: (() => void) | null = null;
    const redis = connectRedis(o.url, `take-arena-coordinator-${id}`, (state, detail) => {
      const was = link;
      link = state;
      linkDetail = detail;
      if (state !== was) ctx.emit({ type: 'queue-link', state, detail, url: o.url });
      // Back after an outage: a Redis restarted without persistence has lost the registry, the
      // bundles and the queued pairs; publishing them again is harmless when it kept them.
      if (state === 'connected' && was === 'reconnecting') republish?.();
    });
    this.#redis = redis;
    await firstConnection(redis, o.url);
    link = 'connected';
    ctx.emit({ type: 'queue-link', state: 'connected', detail: '', url: o.url });
    if (o.botData) {
      // The snapshots a local run's hosts would take, now (before any game), reset stores reported alike.
      const modules = o.entrants.filter((e) => e.entry.transport !== 'process');
      const labelOf = new Map(modules.map((e) => [e.entry.name, e.spec.label]));
      this.#stores = new QueueStores(redis, id, o.botData, [...labelOf.keys()], (bot, reason) => ctx.storeReset(labelOf.get(bot) ?? bot, reason));
    }

    const bots = await this.#publishBots(redis);
    const entry: TournamentEntry = { name: o.name, dir: o.dir, total: o.total, host: hostname(), pid: process.pid, ...(ctx.wantLive ? { live: true } : {}) };
    const register = (): Promise<unknown> => redis.hset(TOURNAMENTS_KEY, id, JSON.stringify(entry));
    await register();
    const pairs = new Queue<PairJobData>(pairsQueueName(id), { connection: redis, prefix: PREFIX });
    pairs.on('error', () => {}); // connection errors: shown by the link status, retried
    this.#pairs = pairs;

    // Pairs handed to the queue and not yet folded, by pair index.
    const outstanding = new Map<number, PairJob>();
    let exhausted = false;
    let failure: Error | null = null;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const checkDone = (): void => {
      if (failure || (exhausted && outstanding.size === 0) || (ctx.signal?.aborted ?? false)) finish();
    };
    const jobOf = (pair: PairJob): { name: string; data: PairJobData; opts: { jobId: string; attempts: number; backoff: { type: 'fixed'; delay: number }; removeOnComplete: false; removeOnFail: true } } => ({
      name: 'pair',
      data: { tournament: id, pair, bots, settings: o.settings },
      // The id is the pair's place in the schedule: adding it again while it waits, runs or holds
      // its result is a no-op. A completed job holds the result until the coordinator removes it.
      opts: { jobId: `p${pair.index}`, attempts: 3, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: false, removeOnFail: true },
    });
    let feeding: Promise<void> = Promise.resolve();
    const feed = (): void => {
      feeding = feeding.then(async () => {
        if (failure || ctx.pause?.paused) return;
        const batch: PairJob[] = [];
        while (!exhausted && outstanding.size < this.concurrency) {
          const pair = ctx.nextPair();
          if (!pair) {
            exhausted = true;
            break;
          }
          outstanding.set(pair.index, pair);
          batch.push(pair);
        }
        if (batch.length) await pairs.addBulk(batch.map(jobOf));
        checkDone();
      });
    };
    republish = () => {
      feeding = feeding.then(async () => {
        await register();
        await this.#publishBots(redis);
        // Jobs still waiting or running are left alone (same ids); lost ones are queued again.
        if (outstanding.size) await pairs.addBulk([...outstanding.values()].map(jobOf));
        ctx.emit({ type: 'queue-link', state: 'connected', detail: `republished ${outstanding.size} pending pairs`, url: o.url });
      });
    };

    // Early stop of a pairing (its sequential test decided): its queued pairs that no worker has
    // started are removed, so workers move on; those already started finish and are folded.
    let withdrawing = false;
    const withdraw = async (): Promise<void> => {
      if (withdrawing) return;
      withdrawing = true;
      try {
        for (const p of [...outstanding.values()]) {
          if (!ctx.unwanted(p) || folding.has(p.index)) continue;
          // A job that has just finished is gone too (remove says 1): its result may be folded
          // meanwhile, so the pair is asked again after the round trip.
          if ((await pairs.remove(`p${p.index}`)) === 1 && ctx.unwanted(p)) {
            outstanding.delete(p.index);
            ctx.skip(p);
          }
        }
      } finally {
        withdrawing = false;
      }
    };

    // Games per worker (this tournament), counted here from the results folded (a worker spends no
    // round trip on it), carried over from before a `--resume`, and copied to Redis with the status
    // for `arena queue status`.
    const games = new Map<string, number>(Object.entries(await redis.hgetall(gamesKey(id))).map(([w, n]) => [w, Number(n)]));
    let gamesChanged = false;
    // When each worker's heartbeat last changed, on this clock.
    const seen = new Map<string, { beat: number; at: number }>();
    const status = async (): Promise<void> => {
      if (link !== 'connected') {
        ctx.emit({ type: 'queue-status', link, detail: linkDetail, workers: [], queued: outstanding.size });
        return;
      }
      await this.#stores?.copyBack();
      const beats = await redis.hgetall(WORKERS_KEY);
      if (gamesChanged) {
        gamesChanged = false;
        await redis.hset(gamesKey(id), Object.fromEntries(games));
      }
      const now = performance.now();
      const workers: WorkerStatus[] = [];
      for (const [wid, text] of Object.entries(beats)) {
        let beat: WorkerBeat;
        try {
          beat = JSON.parse(text) as WorkerBeat;
        } catch {
          continue;
        }
        const last = seen.get(wid);
        if (!last || last.beat !== beat.beat) seen.set(wid, { beat: beat.beat, at: now });
        const since = Math.round((now - seen.get(wid)!.at) / 1000);
        // A worker silent for a minute is gone; it drops off the list (and is retired from Redis by `queue clean`).
        const played = games.get(wid) ?? 0;
        if (since > 60 && played === 0) continue;
        workers.push({ id: wid, host: beat.host, state: beat.state, games: played, lastBeatS: since });
      }
      workers.sort((a, b) => a.id.localeCompare(b.id));
      ctx.emit({ type: 'queue-status', link, detail: linkDetail, workers, queued: outstanding.size });
    };
    const everyMs = o.statusEveryMs ?? 1000;
    this.#statusTimer = setInterval(() => void status().catch(() => {}), everyMs);
    this.#statusTimer.unref();

    // Live boards: the workers' games in flight, as they publish them (when the sink watches).
    const remote = new Map<number, RemoteLive>();
    if (ctx.wantLive) this.#subscriber = await this.#watchLive(ctx, remote);

    // A pair's result is its job's return value: the worker completes the job with its two records
    // (one round trip, which also fetches its next job), and the completed job stays in Redis until
    // its records are durable here. The coordinator reads completed jobs in batches, folds them,
    // waits for one group commit and only then removes them, so a coordinator killed at any moment
    // loses nothing: the resumed one finds the same completed jobs and folds each once.
    const folding = new Set<number>();
    const foldPair = async (data: PairResultData): Promise<void> => {
      for (const rec of data.records) remote.delete(rec.index);
      for (const rec of data.records) {
        // A record that names another place in the schedule is never folded.
        if (rec.index !== data.pairIndex * 2 + rec.seating || ctx.keyAt(rec.index) !== rec.key) {
          ctx.emit({ type: 'queue-problem', worker: data.worker, reason: `dropped a result that is not game ${data.pairIndex * 2 + rec.seating} of this schedule (${rec.key})` });
          return;
        }
        const fresh = !ctx.isDone(rec.index);
        const behind = ctx.finish(data.retries > 0 ? { ...rec, retries: data.retries } : rec);
        if (fresh) {
          games.set(data.worker, (games.get(data.worker) ?? 0) + 1);
          gamesChanged = true;
        }
        if (behind) await behind;
      }
    };
    let intakeOpen = true;
    const intake = async (): Promise<void> => {
      while (intakeOpen) {
        let jobs: Job<PairJobData, PairResultData>[] = [];
        if (link === 'connected') {
          try {
            jobs = ((await pairs.getJobs(['completed'], 0, 255, true)) as (Job<PairJobData, PairResultData> | undefined)[]).filter((j): j is Job<PairJobData, PairResultData> => j !== undefined && j.returnvalue?.kind === 'pair');
          } catch {
            jobs = []; // Redis went away: the link status says so; try again
          }
        }
        if (!intakeOpen) return;
        if (jobs.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        for (const job of jobs) folding.add(job.returnvalue.pairIndex);
        for (const job of jobs) await foldPair(job.returnvalue);
        await ctx.committed();
        // Durable: the jobs may go (one pipelined round trip for the batch).
        await Promise.all(jobs.map((job) => job.remove().catch(() => {})));
        for (const job of jobs) {
          const index = job.returnvalue.pairIndex;
          folding.delete(index);
          const pair = outstanding.get(index);
          if (pair && ctx.isDone(pair.games[0].index) && ctx.isDone(pair.games[1].index)) outstanding.delete(index);
        }
        await withdraw();
        feed();
        checkDone();
      }
    };

    // Problems: a worker that cannot play a job says why on the results queue.
    const onResult = async (job: Job<ResultJobData>): Promise<void> => {
      const data = job.data;
      ctx.emit({ type: 'queue-problem', worker: data.worker, reason: data.reason });
      if (data.final) {
        failure ??= new QueueError(`pair ${data.pairIndex} cannot be played: ${data.reason}`);
        checkDone();
      }
    };
    const results = new Worker<ResultJobData>(resultsQueueName(id), onResult, {
      connection: redis,
      prefix: PREFIX,
      concurrency: 8,
      lockDuration: o.resultLockMs ?? 5000,
      stalledInterval: Math.max(500, Math.round((o.resultLockMs ?? 5000) / 2)),
      maxStalledCount: 1000,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1000 },
    });
    results.on('error', () => {}); // connection errors: shown by the link status, retried by BullMQ
    this.#results = results;

    const onAbort = (): void => checkDone();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const unpause = ctx.pause ? setInterval(() => !ctx.pause!.paused && outstanding.size < this.concurrency && !exhausted && feed(), 200) : null;
    const intakeLoop = intake();
    try {
      feed();
      await status().catch(() => {});
      await finished;
    } finally {
      intakeOpen = false;
      ctx.signal?.removeEventListener('abort', onAbort);
      if (unpause) clearInterval(unpause);
    }
    await feeding.catch(() => {});
    // Results being folded finish first: nothing is handed over once `run` has returned.
    await intakeLoop;
    // No board after the run: late live messages are not heard.
    this.#subscriber?.disconnect();
    // The bots' folders end as a local run leaves them (what the workers wrote, up to now).
    if (link === 'connected') await this.#stores?.copyBack().catch(() => {});
    await results.close().catch(() => {});
    this.#complete = !failure && exhausted && outstanding.size === 0;
    if (ctx.signal?.aborted) {
      // Early stop: the pairs not started are removed (workers move on); the ones running finish and
      // wait, completed, for `--resume` (or `arena queue clean`).
      await pairs.drain().catch(() => {});
    }
    if (failure) throw failure;
  }

  /**
   * Subscribes to the workers' live games and maps them onto the events a local pool sends: a
   * `game-started` (with the worker's name) for each game first heard of, a view refreshed by every
   * later message, a `game-aborted` for a game a worker stopped. A game already folded is never
   * shown again (a late message), and anything malformed is ignored: live boards are only a view.
   */
  async #watchLive(ctx: ExecutionContext, remote: Map<number, RemoteLive>): Promise<Redis> {
    const sub = this.#redis!.duplicate({ connectionName: `take-arena-live-${this.id}` });
    sub.on('error', () => {}); // the link status reports outages; ioredis subscribes again on reconnecting
    sub.on('message', (_channel: string, text: string) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(text) as LiveMessage;
        if (!Array.isArray(message.games) || !Array.isArray(message.aborted)) return;
      } catch {
        return;
      }
      for (const g of message.games) {
        if (typeof g?.index !== 'number' || ctx.isDone(g.index) || ctx.keyAt(g.index) !== g.key) continue;
        const known = remote.get(g.index);
        if (known && known.worker === message.worker) {
          known.update(g.snapshot);
          continue;
        }
        // New, or played again elsewhere (a retried pair): a board of its own.
        const live = new RemoteLive(message.worker, g.snapshot);
        remote.set(g.index, live);
        ctx.emit({ type: 'game-started', index: g.index, key: g.key, variant: g.variant, deal: g.deal, seats: g.seats, live, worker: message.worker });
      }
      for (const index of message.aborted) {
        const known = remote.get(index);
        if (!known || known.worker !== message.worker) continue;
        remote.delete(index);
        known.over = true;
        ctx.emit({ type: 'game-aborted', index, key: ctx.keyAt(index) ?? '' });
      }
    });
    await sub.subscribe(liveChannel(this.id)).catch(() => {});
    return sub;
  }

  /** Removes a finished tournament's queues and keys. */
  async #cleanUp(): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status !== 'ready') return;
    if (this.#complete) {
      await this.#pairs?.obliterate({ force: true }).catch(() => {});
      const results = new Queue(resultsQueueName(this.id), { connection: redis, prefix: PREFIX });
      results.on('error', () => {});
      await results.obliterate({ force: true }).catch(() => {});
      await results.close().catch(() => {});
      await redis.hdel(TOURNAMENTS_KEY, this.id);
      await redis.del(gamesKey(this.id));
      await this.#stores?.remove();
    }
  }

  /** Closes the queues; when the tournament is complete its keys are removed from Redis. */
  async close(): Promise<void> {
    if (this.#statusTimer) clearInterval(this.#statusTimer);
    this.#subscriber?.disconnect();
    await this.#results?.close().catch(() => {});
    await this.#cleanUp().catch(() => {});
    await this.#pairs?.close().catch(() => {});
    this.#redis?.disconnect();
  }
}

/**
 * The `executor` option of `runTournament` for a queued tournament: the coordinator side, on the
 * Redis at `url`. Loaded only when `--queue` is given (BullMQ is not imported otherwise).
 */
export function queueExecutor(url: string, extra: Pick<QueueExecutorOptions, 'window' | 'resultLockMs' | 'statusEveryMs'> = {}): (t: PreparedTournament, dir: string) => Executor {
  return (t, dir) =>
    new QueueExecutor({
      url,
      name: t.spec.name,
      dir,
      specText: readFileSync(join(dir, RESULTS_FILES.spec), 'utf8'),
      total: scheduleCount({ variants: t.spec.games, bots: t.entrants.map((e) => e.spec), deals: t.spec.deals }),
      entrants: t.entrants,
      settings: {
        isolation: t.spec.isolation,
        botIsolation: t.spec.botIsolation,
        ...(t.spec.cpuSeconds !== undefined ? { cpuSeconds: t.spec.cpuSeconds } : {}),
        ...(t.spec.revealOpponents ? { revealOpponents: true } : {}),
        memoryMb: t.spec.memoryMb,
        prepareTimeoutMs: t.spec.prepareTimeoutMs,
        ...(t.spec.adjudicate ? { adjudicate: true } : {}),
        ...(t.spec.timeMarginMs !== undefined ? { graceMs: t.spec.timeMarginMs } : {}),
      },
      botData: runBotData(t.spec, dir),
      ...extra,
    });
}
