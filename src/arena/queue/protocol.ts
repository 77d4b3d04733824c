/**
 * What the coordinator (`arena tournament --queue`) and the workers (`arena worker`) share through
 * Redis: the key names, the job and result shapes, and the bot bundles addressed by content hash.
 * The queues themselves are BullMQ's; nothing here is a protocol of our own beyond the names.
 *
 * Keys (all under the prefix `take-arena`):
 * - `take-arena:tournaments`: hash, tournament id → JSON `TournamentEntry` (workers poll it to find
 *   the queues to serve, and read it at once when a coordinator publishes on
 *   `take-arena:tournaments:changed`);
 * - BullMQ queues `pairs-<id>` (one job per batch of game pairs, `jobIdOf`; a completed job's
 *   return value is each pair's two records, kept until the coordinator has them on disk) and
 *   `results-<id>` (a worker's report of a job it cannot play);
 * - `take-arena:bundle:<sha256>`: the esbuild bundle of a module bot or of a user's game file
 *   (workers verify the hash);
 * - `take-arena:store:<sha256>`: a module bot's store as the run began (workers verify the hash), and
 *   `take-arena:t:<id>:live:<bot>`: its live copy during the run (see stores.ts);
 * - `take-arena:workers`: hash, worker id → JSON `WorkerBeat`;
 * - pub/sub channel `take-arena:t:<id>:live`: the games in flight on the workers, as `LiveMessage`s
 *   (only while the coordinator watches live games; a lost message costs a board update, never a result);
 * - `take-arena:t:<id>:games`: hash, worker id → games played for that tournament (counted by the
 *   coordinator from the results it folds, written with its status about once a second).
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { ArenaError } from '../../core/errors.ts';
import type { LiveSnapshot } from '../events.ts';
import type { PairSettings } from '../executor.ts';
import type { GameRecord } from '../match.ts';
import type { PairJob } from '../schedule.ts';
import type { QueueVersion } from './version.ts';

import { shownUrl } from './url.ts';

export { parseQueueUrl } from './url.ts';

/** The prefix of every key (BullMQ's `prefix` too). */
export const PREFIX = 'take-arena';
/** The registry of running tournaments. */
export const TOURNAMENTS_KEY = `${PREFIX}:tournaments`;
/** The pub/sub channel on which a coordinator announces that its registry entry changed (a new tournament, a worker paused, the tournament removed): workers read the registry at once rather than at their next poll. */
export const TOURNAMENTS_CHANNEL = `${PREFIX}:tournaments:changed`;
/** Worker heartbeats. */
export const WORKERS_KEY = `${PREFIX}:workers`;
/** Games played per worker for one tournament. */
export const gamesKey = (id: string): string => `${PREFIX}:t:${id}:games`;
/** Each worker's check against the others (worker-check.ts) for one tournament, as the coordinator last made it. */
export const checksKey = (id: string): string => `${PREFIX}:t:${id}:checks`;
/** The pub/sub channel of a tournament's live games. */
export const liveChannel = (id: string): string => `${PREFIX}:t:${id}:live`;
/** How often a worker publishes the positions of its games in flight (ms): at most one message per tick and tournament. */
export const LIVE_EVERY_MS = 100;
/** A bot bundle by its content hash. */
export const bundleKey = (hash: string): string => `${PREFIX}:bundle:${hash}`;
/** Times each job was left by a worker to another (hash, job id → count): not starts of its games, so not `retries`. */
export const leftKey = (id: string): string => `${PREFIX}:t:${id}:left`;
/** The lease of a tournament's coordinator: one coordinator per tournament. */
export const leaseKey = (id: string): string => `${PREFIX}:t:${id}:coordinator`;
/** The BullMQ queue of a tournament's game pairs. */
export const pairsQueueName = (id: string): string => `pairs-${id}`;
/** The BullMQ queue of a tournament's results. */
export const resultsQueueName = (id: string): string => `results-${id}`;

/** Raised for anything wrong with the queue that is not the user's typing (Redis gone, a refused bundle). */
export class QueueError extends ArenaError {
  override name = 'QueueError';
}

/** How a worker finds a bot of a job. */
export type QueueBot =
  /** A module bot: its esbuild bundle is in Redis under this hash. */
  | {
      readonly kind: 'module';
      readonly name: string;
      readonly bundle: string;
      /** Its store: the run's snapshot by hash (`take-arena:store:<hash>`) and the cap of its live copy. */
      readonly store?: { readonly snapshot: string; readonly capBytes: number };
    }
  /** An external program: it must be installed on the worker under this name. */
  | { readonly kind: 'external'; readonly name: string };

/** The host settings of a tournament, as every worker applies them. */
export type QueueSettings = PairSettings;

/**
 * One BullMQ job: a batch of game pairs with everything needed to play them anywhere (DESIGN.md
 * "Growing past one machine"): the pairs (variant with parameters, deal seed, both bot specs with
 * options and seeds), how to find each bot (bundle hash or external name), and the host settings.
 * Several pairs per job spare the queue's per-job work (BullMQ's scripts, a round trip each way);
 * each pair's result is still checked, signed and folded on its own.
 */
export interface PairJobData {
  readonly tournament: string;
  /** At least one pair, played in this order. */
  readonly pairs: readonly PairJob[];
  /** By bot label. */
  readonly bots: Readonly<Record<string, QueueBot>>;
  readonly settings: QueueSettings;
  /** The coordinator's version: a worker of another one refuses the job. */
  readonly version: QueueVersion;
  /** Users' game families the pair's variant needs (games/, --games-dir), by family id: the hash of each one's bundle. */
  readonly games?: Readonly<Record<string, string>>;
  /**
   * Workers whose results for these pairs the coordinator refused: each of them leaves the job to
   * another live worker when there is one (and plays it when none turns up).
   */
  readonly avoid?: readonly string[];
}

/** The id of the job of `pairs`: `p<index>` for one pair, `p<first index>+<more>` for a batch. */
export function jobIdOf(pairs: readonly { readonly index: number }[]): string {
  return `p${pairs[0]!.index}${pairs.length > 1 ? `+${pairs.length - 1}` : ''}`;
}

/** One pair's answer in a job's result. */
export interface PairRecords {
  readonly pairIndex: number;
  /** Exactly two records: seating 0, then seating 1. */
  readonly records: readonly [GameRecord, GameRecord];
}

/**
 * A worker's answer for a job: the return value of its completed job, signed as a whole. The
 * completed job stays in Redis until the coordinator has made its records durable, then the
 * coordinator removes it.
 */
export interface PairResultData {
  readonly kind: 'pairs';
  readonly worker: string;
  /** Times the job had been started before the run that produced this result. */
  readonly retries: number;
  /** Each pair of the job, in the job's order. */
  readonly pairs: readonly PairRecords[];
  /** The worker's version: the coordinator refuses a result of another one. */
  readonly version: QueueVersion;
}

/** A worker's report on the results queue: a job it cannot play, or a bot that cannot start there. */
export type ResultJobData = ProblemData | BotFailedData;

/** A worker cannot play a job (a refused bundle, a missing external bot). */
export interface ProblemData {
  readonly kind: 'problem';
  /** The job's first pair. */
  readonly pairIndex: number;
  readonly worker: string;
  readonly reason: string;
  /** No attempts are left: the tournament cannot finish. */
  readonly final: boolean;
  /**
   * The worker refused the job itself (not signed with its key, below its isolation floor, another
   * version): the job failed there for good, and the coordinator queues its pair again.
   */
  readonly refused?: boolean;
  /** The job's id (`jobIdOf` for the coordinator's own). */
  readonly job?: string;
}

/** A bot that cannot start on a worker: it forfeits the games it plays there, as in a local run. */
export interface BotFailedData {
  readonly kind: 'bot-failed';
  /** The bot's label. */
  readonly bot: string;
  readonly worker: string;
  readonly reason: string;
}

/** One game in flight on a worker, as it stood at the worker's last tick. */
export interface LiveGameData {
  readonly index: number;
  readonly key: string;
  readonly variant: string;
  readonly deal: number;
  readonly seats: { readonly first: string; readonly second: string };
  readonly snapshot: LiveSnapshot;
}

/**
 * A worker's tick of live games for one tournament: the games that started or moved since its last
 * tick, and those it stopped (a second Ctrl-C: handed back to the queue, to be replayed).
 */
export interface LiveMessage {
  readonly worker: string;
  readonly games: readonly LiveGameData[];
  readonly aborted: readonly number[];
}

/** A tournament in the registry. */
export interface TournamentEntry {
  readonly name: string;
  /** The coordinator watches live games (its dashboard): workers publish their games in flight. */
  readonly live?: boolean;
  /** The coordinator's results folder (on its machine). */
  readonly dir: string;
  readonly total: number;
  readonly host: string;
  readonly pid: number;
  /** Workers refused by name (`--refuse-worker`): they do not serve the tournament. */
  readonly refused?: readonly string[];
  /** Workers paused for their health, with why: they take no more of its jobs. */
  readonly paused?: Readonly<Record<string, string>>;
}

/** A worker's heartbeat. */
export interface WorkerBeat {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly concurrency: number;
  /** Games played since the worker started (all tournaments). */
  readonly games: number;
  /** Incremented at every beat: the coordinator notes when it changes (no clock is compared across machines). */
  readonly beat: number;
  /** `working`, `idle`, `stopping` or `reconnecting`. */
  readonly state: string;
  /** The worker's clock at the beat (ms since the epoch): only `arena queue status` shows it, as an age. */
  readonly at: number;
}

const RELEASE_SHARED = `
redis.call('SREM', KEYS[2], ARGV[1])
if redis.call('SCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1`;

/** The set of tournaments that use a content-addressed key (a bundle, a store snapshot): it leaves Redis with the last of them. */
export const usersKey = (key: string): string => `${PREFIX}:users:${key}`;

/** Stores a content-addressed value for tournament `id`, noting that it uses it. */
export async function putShared(redis: Redis, id: string, key: string, bytes: Buffer): Promise<void> {
  await redis.set(key, bytes);
  await redis.sadd(usersKey(key), id);
}

/** Tournament `id` no longer uses these content-addressed keys: each leaves Redis when no other tournament uses it. */
export async function releaseShared(redis: Redis, id: string, keys: Iterable<string>): Promise<void> {
  for (const key of keys) await redis.eval(RELEASE_SHARED, 2, key, usersKey(key), id);
}

/** The SHA-256 of a bundle, in hex: its name in Redis. */
export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Checks a bundle fetched from Redis against the hash the job names; a mismatch (a tampered or
 * corrupted bundle) is refused: the code is never written to disk nor run.
 */
export function verifiedBundle(hash: string, bytes: Buffer | null): Buffer {
  if (bytes === null) throw new QueueError(`bundle ${hash.slice(0, 12)}… is not in Redis (its coordinator has not published it, or Redis lost it)`);
  const got = contentHash(bytes);
  if (got !== hash) throw new QueueError(`refused bundle ${hash.slice(0, 12)}…: its content hashes to ${got.slice(0, 12)}…, not to the hash the job names (tampered or corrupted)`);
  return bytes;
}

/**
 * The failure handler of a Redis call that only tidies up or informs (a board, a status line, a
 * copy made again at the next tick): with Redis away, the link status already says so to the
 * user, and there is nothing else to do.
 */
export function redisAway(): void {}

/** Connection state as the dashboard and the worker show it. */
export type LinkState = 'connecting' | 'connected' | 'reconnecting';

/** The longest wait between two attempts to reach a Redis that went away (ms). */
export const RECONNECT_MAX_MS = 5000;

/** Whether a Redis error is a refusal of the credentials (a wrong or missing password): retrying cannot help. */
export function authRefused(message: string): boolean {
  return /\b(NOAUTH|WRONGPASS|NOPERM)\b|invalid password|invalid username-password/i.test(message);
}

/** The one line for a Redis that refused the credentials of `url`. */
export function authRefusedText(url: string, message: string): string {
  return `Redis at ${shownUrl(url)} refused the credentials (${message.split('\n')[0]}): give its password in the URL, as in redis://:password@host:6379`;
}

/**
 * A Redis connection that waits and reconnects forever (BullMQ's workers need
 * `maxRetriesPerRequest: null`): commands issued while Redis is away wait for it, attempts backing
 * off to one every `RECONNECT_MAX_MS`. `onState` hears every change, so the user sees
 * "reconnecting" rather than a hang.
 */
export function connectRedis(url: string, name: string, onState?: (state: LinkState, detail: string) => void): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    connectionName: name,
    // Back off by 200 ms an attempt up to RECONNECT_MAX_MS: a restarted Redis is found within a
    // second or two, one gone for long is not hammered.
    retryStrategy: (times) => Math.min(200 * times, RECONNECT_MAX_MS),
    lazyConnect: false,
  });
  let last = '';
  redis.on('ready', () => onState?.('connected', ''));
  redis.on('error', (err: Error) => {
    last = err.message;
  });
  redis.on('reconnecting', () => onState?.('reconnecting', last));
  return redis;
}

/**
 * Waits for the first connection, failing with one clear line when Redis cannot be reached within
 * `timeoutMs` (a typo in the URL, no server started), and at once when it refuses the credentials:
 * reconnecting forever is for a server that went away, not for one that was never there.
 */
export async function firstConnection(redis: Redis, url: string, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  let lastError = '';
  let refuse: (err: QueueError) => void = () => {};
  const onError = (err: Error): void => {
    lastError = err.message;
    if (authRefused(err.message)) refuse(new QueueError(authRefusedText(url, err.message)));
  };
  redis.on('error', onError);
  try {
    await new Promise<void>((resolve, reject) => {
      refuse = (err) => {
        clearTimeout(timer);
        reject(err);
      };
      const timer = setTimeout(() => reject(new QueueError(`Cannot reach Redis at ${shownUrl(url)}${lastError ? `: ${lastError}` : ''} (start one with \`redis-server --port 6379\`; see README "Across machines")`)), timeoutMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } finally {
    redis.off('error', onError);
  }
  const info = await redis.info('server');
  const version = /redis_version:([\d.]+)/.exec(info)?.[1] ?? '0';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < 6 || (major === 6 && minor < 2)) throw new QueueError(`Redis ${version} at ${shownUrl(url)} is too old: take-arena needs Redis 6.2 or later (7.x tested)`);
}

