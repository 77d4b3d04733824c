/**
 * The worker side of a queued tournament (`arena worker --queue redis://…`): it watches the
 * registry of tournaments in Redis, serves each one's BullMQ queue of game pairs, plays every pair
 * with the same hosts, isolation and time rules as a local run, and sends the records of a job's
 * pairs back as its return value. Module bots come as bundles fetched from Redis and checked
 * against the job's content hash; external bots must be installed here under the same name.
 *
 * A worker killed mid-game holds its job's lock no longer: BullMQ's stalled-job check (run by the
 * other workers) puts the job back in the queue, and whoever plays it next reports how many times
 * it had been started before (`retries` in the record).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker as Thread } from 'node:worker_threads';
import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AnyGame } from '../../core/game.ts';
import { allFamilies, parseVariant } from '../../games/index.ts';
import { bundledBotWorkerScript, discoverBots, loadGameDirs, type BotEntry, type BotHost, type BotRegistry, type BotSpec, type HostedBot, type HostSettings, type Isolation } from '../../hosting/index.ts';
import { mirrorStoreFolder } from '../../platform/bot-store.ts';
import { writeFileAtomic } from '../../platform/files.ts';
import { bundleScript } from '../../platform/bundle.ts';
import { siblingModule } from '../../platform/paths.ts';
import { createStoreCall, type StoreBridgeEnd, type StoreCall } from '../../platform/store-bridge.ts';
import type { StoreHelperRequest } from './store-helper.ts';
import type { LiveTracker } from '../live.ts';
import type { GameRecord } from '../match.ts';
import type { PairJob } from '../schedule.ts';
import { isolationOf, PairPlayer, startHost } from '../pair-player.ts';
import {
  authRefused,
  authRefusedText,
  bundleKey,
  connectRedis,
  leftKey,
  RECONNECT_MAX_MS,
  type LinkState,
  firstConnection,
  LIVE_EVERY_MS,
  liveChannel,
  pairsQueueName,
  PREFIX,
  QueueError,
  redisAway,
  resultsQueueName,
  TOURNAMENTS_CHANNEL,
  TOURNAMENTS_KEY,
  verifiedBundle,
  WORKERS_KEY,
  type LiveGameData,
  type LiveMessage,
  type PairJobData,
  type PairRecords,
  type PairResultData,
  type QueueBot,
  type ResultJobData,
  type TournamentEntry,
  type WorkerBeat,
} from './protocol.ts';
import { liveStoreKey, redisStoreBackend, storeSnapshotKey, verifiedSnapshot } from './stores.ts';
import { shownUrl } from './url.ts';
import { queueVersion, versionMismatch, type QueueVersion } from './version.ts';
import { randomUUID } from 'node:crypto';
import { credentialOf, DEFAULT_ISOLATION_FLOOR, jobSignatureProblem, meetsFloor, signed, type WorkerCredential } from './auth.ts';

/** The store helper's script (store-helper.ts bundled with what it imports), built once per process. */
let helperScript: Promise<URL> | undefined;
function storeHelperScript(): Promise<URL> {
  helperScript ??= bundleScript(
    `import { runStoreHelper } from ${JSON.stringify(siblingModule(import.meta.url, 'store-helper'))};\nrunStoreHelper();\n`,
    dirname(fileURLToPath(import.meta.url)),
    'store-helper',
  );
  return helperScript;
}

/** The claim on a worker's name (see `QueueWorker.#claim`). */
const nameKey = (name: string): string => `${PREFIX}:worker-name:${name}`;

/** Takes or renews a name's claim for this instance (ARGV[2]) for ARGV[3] ms; returns nil, or the live holder's value. */
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held and not string.find(held, ARGV[2], 1, true) then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[3]))
return nil`;

/** Gives a name's claim up, if it is still this instance's (ARGV[1]). */
const RELEASE_CLAIM = `
local held = redis.call('GET', KEYS[1])
if held and string.find(held, ARGV[1], 1, true) then redis.call('DEL', KEYS[1]) end
return 1`;

/** How long a worker leaves a job whose result from it was refused to other workers before it plays it itself (ms). */
const LEAVE_MS = 30_000;

/** Settings of `arena worker`. */
export interface QueueWorkerOptions {
  readonly url: string;
  /** Pairs played at once per tournament (default 1). */
  readonly concurrency?: number;
  /** Folders of external bots (and module bots, for discovery) besides the built-in `bots/`. */
  readonly botDirs?: readonly string[];
  /** How long a job stays locked by a worker that stopped answering before it is retried elsewhere (ms, default 30000). */
  readonly lockMs?: number;
  /** This worker's name in the dashboard (default `<host>-<pid>`). */
  readonly id?: string;
  /** Status lines (connected, reconnecting, a refused bundle…). */
  readonly log?: (line: string) => void;
  /** How often the registry is read and the heartbeat written (ms, default 1000). */
  readonly pollMs?: number;
  /** The tournaments' key (auth.ts): this worker's credential is derived from it (see `credential`). */
  readonly key?: Buffer | null;
  /**
   * This worker's credential (auth.ts, `arena queue credential`): with one, only jobs signed by the
   * coordinator are played, and results are signed with its secret; without one (nor a key), only
   * unsigned jobs. Its name is the worker's.
   */
  readonly credential?: WorkerCredential | null;
  /** The least isolation a job may ask for its bots (default `DEFAULT_ISOLATION_FLOOR`); a job asking less is refused. */
  readonly isolation?: Isolation;
  /** This worker's version (default: this installation's, `queueVersion()`): jobs of another are refused. */
  readonly version?: QueueVersion;
}

/** A job this worker will not play (see `QueueWorker.#refusal`): it fails here for good and the coordinator is told. */
class JobRefused extends UnrecoverableError {}

/** What the worker holds for one tournament it serves. */
interface Served {
  /** The tournament's id. */
  readonly id: string;
  readonly worker: Worker<PairJobData, PairResultData>;
  readonly results: Queue<ResultJobData>;
  /** Plays the tournament's pairs under its settings (made with the first job). */
  player: PairPlayer | null;
  /** Bot label → its host (started once, kept while the tournament runs). */
  readonly hosts: Map<string, Promise<BotHost>>;
  /** External bots' stderr logs. */
  readonly dir: string;
  /** The coordinator watches live games: the games in flight are published every `LIVE_EVERY_MS`. */
  live: boolean;
  /** Games in flight (when `live`), by schedule index, with the ply last published. */
  readonly inFlight: Map<number, { readonly meta: Omit<LiveGameData, 'snapshot'>; readonly tracker: LiveTracker; sent: number }>;
  /** Games stopped since the last tick (handed back to the queue). */
  aborted: number[];
  readonly liveTimer: NodeJS.Timeout;
}

/** Plays queued game pairs until stopped. */
export class QueueWorker {
  readonly id: string;
  readonly #o: QueueWorkerOptions;
  readonly #served = new Map<string, Served>();
  readonly #games = new Map<string, AnyGame>();
  readonly #abort = new AbortController();
  #redis: Redis | null = null;
  #registry: Promise<BotRegistry> | null = null;
  /** The bots found here, once discovered (before any job is taken). */
  #found: BotRegistry | null = null;
  #cache: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** The connection that hears coordinators announce their tournaments (`TOURNAMENTS_CHANNEL`). */
  #sub: Redis | null = null;
  #played = 0;
  #beat = 0;
  #state = 'idle';
  #stopping = false;
  #polling: Promise<void> = Promise.resolve();
  #closing: Promise<void> | null = null;
  /** The thread that serves the stores of bots with isolation `none` (started when one needs it). */
  #helper: Promise<Thread> | null = null;
  /** The other workers' heartbeats as last read, with when (on this clock) each last changed. */
  readonly #others = new Map<string, { beat: number; changedAt: number; state: string }>();
  /** Jobs this worker leaves to others (`PairJobData.avoid`), with when it first did. */
  readonly #leaving = new Map<string, number>();

  readonly #version: QueueVersion;
  /** What it signs its results and checks jobs with (auth.ts), or null: unsigned jobs only. */
  readonly #cred: WorkerCredential | null;
  /** This process's claim on its name (see `#claim`). */
  readonly #instance = randomUUID();
  /** Users' game families loaded from jobs: family id → its bundle's hash, and the load. */
  readonly #shipped = new Map<string, { readonly hash: string; readonly loaded: Promise<void> }>();
  /** Tournaments that refused or paused this worker, said once each. */
  readonly #barred = new Set<string>();

  constructor(options: QueueWorkerOptions) {
    this.#o = options;
    this.#version = options.version ?? queueVersion();
    this.failed = new Promise((resolve) => (this.#fail = resolve));
    const named = options.credential?.name;
    if (named !== undefined && options.id !== undefined && options.id !== named) throw new QueueError(`the credential is worker ${named}'s, not ${options.id}'s: run it as --name ${named} (or without --name)`);
    this.id = options.id ?? named ?? `${hostname()}-${process.pid}`;
    this.#cred = options.credential ?? (options.key ? credentialOf(options.key, this.id) : null);
  }

  /** The secret this worker signs with, or null. */
  get #secret(): Buffer | null {
    return this.#cred?.secret ?? null;
  }

  /** How long a claim on a name outlives its last renewal (ms): a worker gone this long frees its name. */
  #claimMs(): number {
    return Math.max(10_000, 3 * (this.#o.pollMs ?? 1000));
  }

  /**
   * Claims this worker's name in Redis (at start, then at every poll): two live workers never share
   * a name (fishtest's rule), so every result, every health count and every refusal names one
   * machine. Returns the holder's description when another live worker holds it.
   */
  async #claim(): Promise<string | null> {
    const value = JSON.stringify({ instance: this.#instance, host: hostname(), pid: process.pid });
    const got = (await this.#redis!.eval(CLAIM, 1, nameKey(this.id), value, this.#instance, String(this.#claimMs()))) as string | null;
    if (got === null) return null;
    try {
      const holder = JSON.parse(got) as { host?: string; pid?: number };
      return `on ${String(holder.host)}, pid ${String(holder.pid)}`;
    } catch {
      return 'unknown';
    }
  }

  #log(line: string): void {
    this.#o.log?.(line);
  }

  /**
   * Settles when the worker gives up on its own (Redis refused its credentials after a reconnect:
   * retrying cannot help), with the one line that says why; it is then stopping.
   */
  readonly failed: Promise<QueueError>;
  #fail!: (err: QueueError) => void;
  /** The link as last said, and since when it has been down (this clock). */
  #link: LinkState = 'connecting';
  #downSince = 0;

  /** Connects (failing with one line when Redis cannot be reached or refuses the credentials) and starts serving. */
  async start(): Promise<void> {
    const { url } = this.#o;
    const redis = connectRedis(url, `take-arena-worker-${this.id}`, (state, detail) => this.#linkChanged(state, detail));
    redis.on('error', (err: Error) => {
      if (this.#link !== 'connecting' && authRefused(err.message)) this.#giveUp(new QueueError(authRefusedText(url, err.message)));
    });
    this.#redis = redis;
    try {
      await firstConnection(redis, url);
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    this.#link = 'connected';
    const holder = await this.#claim();
    if (holder !== null) {
      redis.disconnect();
      throw new QueueError(`a worker named ${this.id} is already running (${holder}): give this one another --name`);
    }
    this.#registry = discoverBots(this.#o.botDirs ?? []);
    this.#found = await this.#registry;
    const tick = (): void => {
      // A poll cut short by Redis going away is made again at the next tick.
      this.#polling = this.#polling.then(() => this.#poll()).catch(redisAway);
    };
    tick();
    this.#timer = setInterval(tick, this.#o.pollMs ?? 1000);
    // A coordinator announces each change of its registry entry: read at once (a message lost costs one poll's wait).
    const sub = (this.#sub = redis.duplicate({ connectionName: `take-arena-worker-${this.id}-sub` }));
    sub.on('error', redisAway); // the main connection says when Redis is away; this one reconnects and subscribes again by itself
    sub.on('message', tick);
    await Promise.all([this.#polling, sub.subscribe(TOURNAMENTS_CHANNEL)]);
  }

  /** Says when the link to Redis is lost and found again (once each, not at every attempt between). */
  #linkChanged(state: LinkState, detail: string): void {
    const at = shownUrl(this.#o.url);
    if (state === this.#link || this.#link === 'connecting') return;
    this.#link = state;
    if (state === 'reconnecting') {
      this.#downSince = performance.now();
      this.#log(`Redis at ${at}: connection lost${detail ? ` (${detail})` : ''}; retrying, backing off to one attempt every ${RECONNECT_MAX_MS / 1000} s (Ctrl-C stops)`);
    } else if (state === 'connected') this.#log(`Redis at ${at}: connected again after ${Math.round((performance.now() - this.#downSince) / 1000)} s`);
  }

  /** Gives up for good: says why (the worker's `failed`) and stops at once. */
  #giveUp(err: QueueError): void {
    if (this.#stopping) return;
    this.#fail(err);
    void this.stop(true);
  }

  /** Reads the registry: serves new tournaments, drops finished ones, writes the heartbeat. */
  async #poll(): Promise<void> {
    const redis = this.#redis!;
    if (redis.status !== 'ready' || this.#stopping) return;
    const holder = await this.#claim();
    if (holder !== null) {
      // Its claim lapsed (Redis away, the process stopped) and another worker took the name.
      this.#giveUp(new QueueError(`another worker named ${this.id} started (${holder}) while this one was away: stopped; give one of them another --name`));
      return;
    }
    this.#beat++;
    const state = redis.status === 'ready' ? this.#state : 'reconnecting';
    await redis.hset(
      WORKERS_KEY,
      this.id,
      JSON.stringify({ id: this.id, host: hostname(), pid: process.pid, concurrency: this.#o.concurrency ?? 1, games: this.#played, beat: this.#beat, state, at: Date.now() } satisfies WorkerBeat),
    );
    this.#heardOthers(await redis.hgetall(WORKERS_KEY));
    const registry = await redis.hgetall(TOURNAMENTS_KEY);
    const entries = new Map<string, Partial<TournamentEntry>>();
    for (const [id, text] of Object.entries(registry)) {
      try {
        entries.set(id, JSON.parse(text) as Partial<TournamentEntry>);
      } catch {
        entries.set(id, {}); // not an entry of ours: served as one that says nothing more
      }
    }
    // A tournament that refused or paused this worker is not served (jobs in play finish).
    const ids = [...entries.keys()].filter((id) => {
      const why = this.#barredBy(entries.get(id)!);
      if (why === null) return true;
      if (!this.#barred.has(id)) this.#log(`tournament ${id} ${why}: not serving it`);
      this.#barred.add(id);
      return false;
    });
    for (const id of ids) if (!this.#served.has(id)) this.#serve(id);
    for (const [id, served] of this.#served) served.live = entries.get(id)?.live === true;
    for (const [id, served] of this.#served) {
      if (ids.includes(id)) continue;
      this.#served.delete(id);
      void this.#retire(served);
    }
  }

  /** Why a tournament's entry bars this worker (refused by name, or paused), or null. */
  #barredBy(entry: Partial<TournamentEntry>): string | null {
    if (Array.isArray(entry.refused) && entry.refused.includes(this.id)) return 'refuses this worker (--refuse-worker)';
    const paused = entry.paused && typeof entry.paused === 'object' ? entry.paused[this.id] : undefined;
    return typeof paused === 'string' ? `paused this worker: ${paused}` : null;
  }

  /** Notes the other workers' heartbeats (a beat that changes is a worker alive: no clocks are compared across machines). */
  #heardOthers(beats: Record<string, string>): void {
    const now = performance.now();
    for (const [id, text] of Object.entries(beats)) {
      if (id === this.id) continue;
      let beat: Partial<WorkerBeat>;
      try {
        beat = JSON.parse(text) as Partial<WorkerBeat>;
      } catch {
        continue; // not a heartbeat of ours
      }
      const known = this.#others.get(id);
      if (!known || known.beat !== beat.beat) this.#others.set(id, { beat: Number(beat.beat), changedAt: now, state: String(beat.state) });
    }
  }

  /**
   * Whether to leave a job to another worker: its results from this one were refused, and another
   * worker not refused for it has beaten lately. Left for at most `LEAVE_MS`: with no taker, this
   * worker plays it after all.
   */
  #leaves(job: Job<PairJobData>): boolean {
    const avoid: unknown = job.data.avoid;
    if (!Array.isArray(avoid) || !avoid.includes(this.id) || job.id === undefined) return false;
    const now = performance.now();
    const since = this.#leaving.get(job.id) ?? now;
    // Jobs another worker took meanwhile are forgotten once their time is up.
    for (const [id, at] of this.#leaving) if (now - at > LEAVE_MS) this.#leaving.delete(id);
    this.#leaving.set(job.id, since);
    const alive = [...this.#others].some(([id, o]) => !avoid.includes(id) && o.state !== 'stopping' && now - o.changedAt < 3 * (this.#o.pollMs ?? 1000) + 2000);
    if (alive && now - since < LEAVE_MS) return true;
    this.#leaving.delete(job.id);
    return false;
  }

  /**
   * Why this worker will not play a job, or null: it must be signed with the tournament's key (when
   * this worker has one; unsigned when it has none), be of this worker's version and of the
   * tournament it came from, ask no less isolation for each bot than this worker's floor, and name
   * only external bots installed here (else the pair goes to a worker that has them). Nothing of
   * the job is run or fetched first.
   */
  #refusal(job: Job<PairJobData>, served: Served): string | null {
    const forged = jobSignatureProblem(this.#cred?.jobKey ?? null, job.data);
    if (forged) return forged;
    const data = job.data;
    const other = versionMismatch(this.#version, data.version, 'the job', 'this worker');
    if (other) return other;
    if (!Array.isArray(data.pairs) || data.pairs.length === 0 || !data.pairs.every((p) => p?.games?.[0]?.seats && p.games[1]) || !data.settings || !data.bots) return 'the job is not a batch of game pairs this worker can read';
    if (data.tournament !== served.id) return `the job names tournament ${JSON.stringify(data.tournament)}, its queue is ${served.id}'s`;
    const floor = this.#o.isolation ?? DEFAULT_ISOLATION_FLOOR;
    const seats = new Map(data.pairs.flatMap((p) => [p.games[0].seats.first, p.games[0].seats.second]).map((spec) => [spec.label, spec]));
    for (const spec of seats.values()) {
      const asked = isolationOf(data.settings, spec);
      if (!meetsFloor(asked, floor)) return `bot ${spec.label} asks for isolation \`${asked}\`, below this worker's floor \`${floor}\` (arena worker --isolation)`;
      // An external bot this worker lacks: the pair goes to a worker that has it.
      const bot = data.bots[spec.label];
      const missing = bot?.kind === 'external' ? this.#external(bot.name) : null;
      if (typeof missing === 'string') return missing;
    }
    // A user's game runs in this process (the referee plays by its rules), outside any bot's
    // isolation: behind a sandbox, only a game its coordinator signed, never one anyone could queue.
    const games = Object.keys(data.games ?? {});
    if (floor === 'sandbox' && this.#cred === null && games.length > 0) {
      return `the job ships game ${games.join(', ')}, whose rules would run in this worker's own process, outside the sandbox: a worker with --isolation sandbox plays users' games only from signed jobs (--queue-key-file)`;
    }
    return null;
  }

  #serve(tournament: string): void {
    const redis = this.#redis!;
    const lockMs = this.#o.lockMs ?? 30_000;
    const dir = mkdtempSync(join(tmpdir(), 'take-arena-queue-'));
    const results = new Queue<ResultJobData>(resultsQueueName(tournament), { connection: redis, prefix: PREFIX });
    const worker = new Worker<PairJobData, PairResultData>(pairsQueueName(tournament), (job, token) => this.#play(job, token, served), {
      connection: redis,
      prefix: PREFIX,
      concurrency: this.#o.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.round(lockMs / 2)),
      // A pair may be stranded several times (workers killed, Redis restarts) and still be played.
      maxStalledCount: 20,
      name: this.id,
      drainDelay: 1,
    });
    // Connection errors: reported by the link status, retried by BullMQ.
    worker.on('error', redisAway);
    // A refused job is told to the coordinator once it has failed here (not before: the coordinator
    // queues its pairs again under the same id, which must then be free).
    worker.on('failed', (job, err) => {
      if (!(err instanceof JobRefused) || !job) return;
      const pairIndex = (job.data as Partial<PairJobData> | undefined)?.pairs?.[0]?.index;
      const report = { kind: 'problem' as const, pairIndex: typeof pairIndex === 'number' ? pairIndex : -1, worker: this.id, reason: err.message, final: false, refused: true, job: job.id ?? '' };
      results.add('problem', signed(this.#secret, 'report', report)).catch(redisAway);
    });
    results.on('error', redisAway);
    const served: Served = { id: tournament, worker, results, player: null, hosts: new Map(), dir, live: false, inFlight: new Map(), aborted: [], liveTimer: setInterval(() => this.#publishLive(tournament, served), LIVE_EVERY_MS) };
    served.liveTimer.unref();
    this.#served.set(tournament, served);
    this.#log(`serving tournament ${tournament}`);
  }

  /**
   * Publishes the games in flight that started or moved since the last tick (one message per tick
   * and tournament, whatever the number of moves): the coordinator's dashboard draws them. Fire and
   * forget: a message lost (nobody subscribed, Redis away) costs a board update, never a result.
   */
  #publishLive(tournament: string, served: Served): void {
    const redis = this.#redis;
    if (!served.live || redis?.status !== 'ready') return;
    const games: LiveGameData[] = [];
    for (const g of served.inFlight.values()) {
      if (g.sent === g.tracker.ply && g.sent >= 0) continue;
      g.sent = g.tracker.ply;
      games.push({ ...g.meta, snapshot: g.tracker.snapshot() });
    }
    const aborted = served.aborted;
    if (games.length === 0 && aborted.length === 0) return;
    served.aborted = [];
    const message: LiveMessage = { worker: this.id, games, aborted };
    redis.publish(liveChannel(tournament), JSON.stringify(message)).catch(redisAway);
  }

  async #retire(served: Served): Promise<void> {
    clearInterval(served.liveTimer);
    await served.worker.close().catch(redisAway);
    await served.results.close().catch(redisAway);
    // A host whose bot was never fetched (its promise rejected) has nothing to close.
    await Promise.all([...served.hosts.values()].map((h) => h.then((x) => x.close(), () => undefined)));
    rmSync(served.dir, { recursive: true, force: true });
  }

  /** The folder where fetched bundles are written (removed at exit). */
  #cacheDir(): string {
    if (!this.#cache) {
      const made = mkdtempSync(join(tmpdir(), 'take-arena-bundles-'));
      this.#cache = made;
      process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    }
    return this.#cache;
  }

  /** An external bot installed here under `name`, or why there is none. */
  #external(name: string): BotEntry | string {
    const entry = this.#found?.bots.find((b) => b.name === name && b.transport === 'process');
    return entry ?? `external bot \`${name}\` is not installed on worker ${this.id} (looked for ${name}.bot.json in ${['bots/', ...(this.#o.botDirs ?? [])].join(', ')})`;
  }

  /**
   * The entry of a job's bot: a verified bundle, or an external program installed here. A bundle is
   * not read here: its host loads it at the job's isolation and checks that it exports the bot the
   * job names (a bundle that does not load is that bot's failure to start, reported as `bot-failed`).
   */
  async #entry(bot: QueueBot): Promise<HostedBot> {
    if (bot.kind === 'external') {
      const entry = this.#external(bot.name);
      if (typeof entry === 'string') throw new QueueError(entry);
      return entry;
    }
    const bytes = verifiedBundle(bot.bundle, await this.#redis!.getBuffer(bundleKey(bot.bundle)));
    const file = join(this.#cacheDir(), `${bot.bundle}.mjs`);
    // Named by its content: a host may be loading the file already (another bot label of the same module), so it is replaced whole.
    writeFileAtomic(file, bytes, { fsync: false });
    return { transport: 'module', name: bot.name, file };
  }

  /**
   * Loads the users' game families a job ships (bundles checked against their hashes), once each,
   * as the arena loads `games/`: this worker and its bots' processes then build their variants. A
   * family this worker knows from another file is refused rather than played by other rules.
   */
  async #userGames(games: Readonly<Record<string, string>> | undefined): Promise<void> {
    for (const [family, hash] of Object.entries(games ?? {})) {
      let shipped = this.#shipped.get(family);
      if (shipped && shipped.hash !== hash) throw new QueueError(`game ${family} is another file on worker ${this.id} (loaded for another tournament): restart the worker to play this one`);
      if (!shipped) {
        if (allFamilies().some((f) => f.id === family)) throw new QueueError(`game ${family} is already a game of worker ${this.id} (built in, or in its games/): the tournament's file is not loaded over it`);
        shipped = { hash, loaded: this.#loadGame(family, hash) };
        this.#shipped.set(family, shipped);
        // A bundle that did not load is fetched again by the next job (it may have been republished).
        shipped.loaded.catch(() => this.#shipped.delete(family));
      }
      await shipped.loaded;
    }
  }

  async #loadGame(family: string, hash: string): Promise<void> {
    const bytes = verifiedBundle(hash, await this.#redis!.getBuffer(bundleKey(hash)));
    const dir = join(this.#cacheDir(), `game-${hash}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${family}.mjs`), bytes);
    const { games, problems } = await loadGameDirs([dir], null);
    const problem = problems.find((p) => p.file.startsWith(dir));
    if (problem) throw new QueueError(`the game file of ${family} did not load on worker ${this.id}: ${problem.reason}`);
    if (!games.some((g) => g.id === family)) throw new QueueError(`the game file shipped as ${family} holds another game`);
  }

  /**
   * A module bot's store on this worker: its run snapshot, fetched and checked against the job's
   * hash, laid out as the run's kept snapshot (what every read sees), and its live copy in Redis
   * (where every write goes, `updateBlob` by compare-and-set).
   */
  async #store(served: Served, tournament: string, bot: QueueBot, isolation: Isolation): Promise<Pick<HostSettings, 'botData' | 'storeBackend' | 'storeCall'>> {
    if (bot.kind !== 'module' || !bot.store) return {};
    const redis = this.#redis!;
    const snapshot = verifiedSnapshot(bot.store.snapshot, await redis.getBuffer(storeSnapshotKey(bot.store.snapshot)));
    const snapshotRoot = join(served.dir, 'store-snapshots');
    mirrorStoreFolder(join(snapshotRoot, bot.name), snapshot);
    const botData = { root: join(served.dir, 'store-unused'), capBytes: bot.store.capBytes, snapshotRoot, warn: () => {} };
    const key = liveStoreKey(tournament, bot.name);
    // A bot on this thread (isolation `none`) cannot wait for this thread's Redis: the helper serves it.
    if (isolation === 'none') return { botData, storeCall: await this.#helperStore(key, bot.store.capBytes) };
    return { botData, storeBackend: redisStoreBackend(redis, key, bot.store.capBytes) };
  }

  /** A synchronous store call for a bot on the main thread, served by the store helper thread (started once). */
  async #helperStore(key: string, capBytes: number): Promise<StoreCall> {
    this.#helper ??= storeHelperScript().then((script) => {
      const helper = new Thread(script, { workerData: this.#o.url });
      helper.unref();
      return helper;
    });
    const helper = await this.#helper;
    const { port1, port2 } = new MessageChannel();
    const end = new Promise<StoreBridgeEnd>((resolve) => port1.once('message', resolve));
    helper.postMessage({ key, capBytes, reply: port2 } satisfies StoreHelperRequest, [port2]);
    const got = await end;
    port1.close();
    return createStoreCall(got);
  }

  /** The pair player of a tournament, made from the settings its jobs carry. */
  #player(served: Served, data: PairJobData): PairPlayer {
    return (served.player ??= new PairPlayer(data.settings, this.#abort.signal));
  }

  /**
   * The host of a bot for one tournament, started once. A bot that cannot start forfeits its
   * games, as in a local run (the match records why), and the coordinator is told (`bot-failed`).
   */
  #host(served: Served, spec: BotSpec, data: PairJobData): Promise<BotHost> {
    let host = served.hosts.get(spec.label);
    if (!host) {
      host = (async () => {
        const bot = data.bots[spec.label]!;
        const entry = await this.#entry(bot);
        const isolation = isolationOf(data.settings, spec);
        const script = isolation === 'worker' && entry.transport !== 'process' ? bundledBotWorkerScript() : undefined;
        const store = await this.#store(served, data.tournament, bot, isolation);
        const h = this.#player(served, data).host(entry, spec, { concurrency: this.#o.concurrency ?? 1, resultsDir: served.dir, ...store, ...(script ? { script } : {}) });
        const failure = await startHost(h);
        if (failure !== null) {
          this.#log(`bot ${spec.label} cannot start: ${failure}`);
          await served.results.add('bot-failed', signed(this.#secret, 'report', { kind: 'bot-failed', bot: spec.label, worker: this.id, reason: failure }));
        }
        return h;
      })();
      served.hosts.set(spec.label, host);
      // A refused bundle is not cached: the next job fetches it again (it may have been republished).
      host.catch(() => served.hosts.delete(spec.label));
    }
    return host;
  }

  #game(variant: string): AnyGame {
    let game = this.#games.get(variant);
    if (!game) {
      game = parseVariant(variant);
      this.#games.set(variant, game);
    }
    return game;
  }

  /** Plays a job's pairs and sends their records; a job it cannot play is reported and retried. */
  async #play(job: Job<PairJobData>, token: string | undefined, served: Served): Promise<PairResultData> {
    // Left to another worker first: a job this worker would refuse again is not refused twice.
    if (this.#leaves(job)) {
      await this.#redis!.hincrby(leftKey(served.id), job.id!, 1);
      await job.moveToDelayed(Date.now() + 250, token);
      throw new DelayedError();
    }
    const refusal = this.#refusal(job, served);
    if (refusal !== null) {
      this.#log(`refused job ${job.id ?? '?'}: ${refusal}`);
      throw new JobRefused(refusal);
    }
    this.#state = 'working';
    // Starts of this job that were only a worker leaving it to another are not retries.
    const left = job.data.avoid ? Number((await this.#redis!.hget(leftKey(served.id), job.id ?? '')) ?? 0) : 0;
    const retries = Math.max(0, (job.attemptsStarted ?? 1) - 1 - left);
    const results: PairRecords[] = [];
    let interrupted = false;
    for (const pair of job.data.pairs) {
      let records: GameRecord[];
      try {
        records = await this.#playPair(pair, job.data, served);
      } catch (err) {
        if (!(err instanceof QueueError)) throw err;
        const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        this.#log(`cannot play pair ${pair.index}: ${err.message}`);
        await served.results.add('problem', signed(this.#secret, 'report', { kind: 'problem', pairIndex: pair.index, worker: this.id, reason: err.message, final }));
        throw err;
      }
      if ((interrupted = records.some((r) => r.termination === 'interrupted'))) break;
      results.push({ pairIndex: pair.index, records: [records[0]!, records[1]!] });
      this.#played += 2;
    }
    if (interrupted) {
      // Stopped now (a second Ctrl-C): the job goes back to the queue for another worker.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    this.#state = 'idle';
    // The results travel as the job's return value: completing the job stores them (one round trip).
    return signed(this.#secret, 'result', { kind: 'pairs', worker: this.id, retries, pairs: results, version: this.#version });
  }

  /** Plays one pair of a job: its two games, seating 0 then seating 1. */
  async #playPair(pair: PairJob, data: PairJobData, served: Served): Promise<GameRecord[]> {
    await this.#userGames(data.games);
    const [first, second] = pair.games;
    // Both bots start at once (a bundle is read in a child, a host starts its thread or process).
    const [a, b] = await Promise.all([this.#host(served, first.seats.first, data), this.#host(served, first.seats.second, data)]);
    const hosts = { a, b };
    const game = this.#game(first.variant);
    const player = this.#player(served, data);
    const records: GameRecord[] = [];
    for (const g of [first, second]) {
      const seats = g === first ? { first: hosts.a, second: hosts.b } : { first: hosts.b, second: hosts.a };
      // Watched: the match writes its moves into a live view, published by the tick.
      const meta = { index: g.index, key: g.key, variant: g.variant, deal: g.deal, seats: { first: g.seats.first.label, second: g.seats.second.label } };
      const watch = served.live ? (tracker: LiveTracker) => void served.inFlight.set(g.index, { meta, tracker, sent: -1 }) : undefined;
      try {
        const rec = await player.play(g, game, seats, undefined, watch);
        if (watch && rec.termination === 'interrupted') served.aborted.push(g.index);
        records.push(rec);
      } finally {
        served.inFlight.delete(g.index);
      }
    }
    return records;
  }

  /**
   * Stops: `now` false finishes the pairs in play first (the first Ctrl-C); `now` true stops their
   * games and hands the jobs back to the queue at once (the second). With Redis away, nothing can
   * be handed back: a stop `now` gives up after a couple of seconds and the stalled-job check
   * returns the jobs once Redis is back.
   */
  async stop(now = false): Promise<void> {
    this.#stopping = true;
    this.#state = 'stopping';
    if (this.#timer) clearInterval(this.#timer);
    if (now) this.#abort.abort();
    this.#closing ??= (async () => {
      await this.#polling;
      await Promise.all([...this.#served.values()].map((s) => this.#retire(s)));
      this.#served.clear();
      // With Redis away the heartbeat and the name's claim stay; the coordinator drops a silent worker from its list, the claim lapses.
      await this.#redis?.hdel(WORKERS_KEY, this.id).catch(redisAway);
      await this.#redis?.eval(RELEASE_CLAIM, 1, nameKey(this.id), this.#instance).catch(redisAway);
      if (this.#helper) await (await this.#helper).terminate();
    })();
    const closing = this.#closing;
    if (now) await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    else await closing;
    this.#sub?.disconnect();
    this.#redis?.disconnect();
  }
}
