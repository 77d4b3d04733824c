/**
 * `arena queue status|clean`: what queued tournaments and workers keep in Redis, read and removed
 * through BullMQ's own queue API (job counts, obliterate) and the registry hashes.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  checksKey,
  connectRedis,
  firstConnection,
  gamesKey,
  leaseKey,
  pairsQueueName,
  releaseShared,
  usersKey,
  PREFIX,
  redisAway,
  resultsQueueName,
  TOURNAMENTS_KEY,
  WORKERS_KEY,
  type TournamentEntry,
  type WorkerBeat,
} from './protocol.ts';
import { shownUrl } from './url.ts';
import { parseCounts } from './board.ts';
import { healthOf, healthText, type WorkerHealth } from '../summary.ts';
import type { WorkerCheck } from '../worker-check.ts';

/** One tournament as `queue status` shows it. */
export interface QueuedTournament extends TournamentEntry {
  readonly id: string;
  /** The pairs queue: waiting (and delayed for a retry), being played, failed for good. */
  readonly pairs: { readonly waiting: number; readonly active: number; readonly failed: number };
  /** Played pairs whose results the coordinator has not yet folded (completed jobs). */
  readonly results: number;
  /** Reports of jobs a worker could not play, not yet read by the coordinator. */
  readonly problems: number;
  /** Each worker's games and faults for this tournament, by worker id. */
  readonly workers: Readonly<Record<string, WorkerHealth>>;
  /** Whether its coordinator holds its lease (runs); false after it was stopped or killed. */
  readonly running: boolean;
}

/** What `queue status` reports. */
export interface QueueStatus {
  /** The Redis, its password masked. */
  readonly url: string;
  readonly tournaments: readonly QueuedTournament[];
  /** Workers with their last beat's age by their own clock (seconds). */
  readonly workers: readonly (WorkerBeat & { readonly ageS: number })[];
}

async function withRedis<T>(url: string, f: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = connectRedis(url, 'take-arena-admin');
  redis.on('error', redisAway); // `firstConnection` says in one line when Redis cannot be reached
  try {
    await firstConnection(redis, url);
    return await f(redis);
  } finally {
    redis.disconnect();
  }
}

async function counts(redis: Redis, name: string): Promise<Record<string, number>> {
  const queue = new Queue(name, { connection: redis, prefix: PREFIX });
  try {
    return await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'failed', 'completed');
  } finally {
    await queue.close();
  }
}

/** Reads the registry, each tournament's queues and the workers' heartbeats. */
export function queueStatus(url: string, only?: string): Promise<QueueStatus> {
  return withRedis(url, async (redis) => {
    const registry = await redis.hgetall(TOURNAMENTS_KEY);
    const tournaments: QueuedTournament[] = [];
    for (const [id, text] of Object.entries(registry).sort()) {
      if (only !== undefined && id !== only) continue;
      const entry = JSON.parse(text) as TournamentEntry;
      const p = await counts(redis, pairsQueueName(id));
      const r = await counts(redis, resultsQueueName(id));
      const checks = await redis.hgetall(checksKey(id));
      const health = Object.entries(await redis.hgetall(gamesKey(id))).flatMap(([w, text]) => {
        const counts = parseCounts(text);
        if (!counts) return [];
        const check = parseCheck(checks[w]);
        const paused = entry.paused?.[w];
        return [[w, { ...healthOf(counts), ...(check ? { check } : {}), ...(paused ? { paused } : {}) }] as const];
      });
      tournaments.push({
        ...entry,
        id,
        pairs: { waiting: (p['waiting'] ?? 0) + (p['delayed'] ?? 0) + (p['prioritized'] ?? 0), active: p['active'] ?? 0, failed: p['failed'] ?? 0 },
        results: p['completed'] ?? 0,
        problems: (r['waiting'] ?? 0) + (r['active'] ?? 0),
        workers: Object.fromEntries(health),
        running: (await redis.exists(leaseKey(id))) === 1,
      });
    }
    const now = Date.now();
    const workers = Object.values(await redis.hgetall(WORKERS_KEY))
      .map((t) => JSON.parse(t) as WorkerBeat)
      .map((w) => ({ ...w, ageS: Math.max(0, Math.round((now - w.at) / 1000)) }))
      .sort((a, b) => a.id.localeCompare(b.id));
    return { url: shownUrl(url), tournaments, workers };
  });
}

/** A worker's check as the coordinator saved it, or undefined when there is none (or it is not one). */
function parseCheck(text: string | undefined): WorkerCheck | undefined {
  if (text === undefined) return undefined;
  try {
    const c = JSON.parse(text) as Partial<WorkerCheck> | null;
    return c && typeof c.chi2 === 'number' && typeof c.df === 'number' && typeof c.p === 'number' && typeof c.outlier === 'boolean' ? (c as WorkerCheck) : undefined;
  } catch {
    return undefined; // not a check of ours: shown without one
  }
}

/** `queue status` as text. */
export function formatQueueStatus(s: QueueStatus): string {
  const lines: string[] = [`Redis ${s.url}`];
  if (s.tournaments.length === 0) lines.push('No queued tournament.');
  for (const t of s.tournaments) {
    lines.push(`tournament ${t.id} (${t.name}; coordinator ${t.host} pid ${t.pid}${t.running ? '' : ', not running'}; results in ${t.dir})`);
    lines.push(`  pairs: ${t.pairs.waiting} waiting, ${t.pairs.active} being played, ${t.pairs.failed} failed; results not yet folded: ${t.results}${t.problems ? `; problem reports: ${t.problems}` : ''}`);
    if (t.refused?.length) lines.push(`  refused workers: ${t.refused.join(', ')}`);
    for (const [w, h] of Object.entries(t.workers)) lines.push(`  worker ${w}: ${healthText(h)}`);
  }
  if (s.workers.length === 0) lines.push('No worker has reported.');
  for (const w of s.workers) lines.push(`worker ${w.id} on ${w.host}: ${w.state}, ${w.games} games, concurrency ${w.concurrency}, last heartbeat ${w.ageS} s ago (its clock)`);
  return lines.join('\n');
}

/** The keys matching a pattern (SCAN, a batch at a time). */
async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  let cursor = '0';
  const keys: string[] = [];
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Deletes the keys matching a pattern; returns how many. */
async function deleteMatching(redis: Redis, pattern: string): Promise<number> {
  const keys = await keysMatching(redis, pattern);
  let removed = 0;
  for (let i = 0; i < keys.length; i += 500) removed += await redis.del(...keys.slice(i, i + 500));
  return removed;
}

/**
 * Removes one tournament's queues and keys, or (without `only`) everything take-arena keeps in
 * this Redis: tournaments, queues, bundles, bot store snapshots and live copies, worker heartbeats. Returns what was removed.
 */
export function queueClean(url: string, only?: string): Promise<string[]> {
  return withRedis(url, async (redis) => {
    const removed: string[] = [];
    const ids = Object.keys(await redis.hgetall(TOURNAMENTS_KEY)).filter((id) => only === undefined || id === only);
    for (const id of ids) {
      for (const name of [pairsQueueName(id), resultsQueueName(id)]) {
        const queue = new Queue(name, { connection: redis, prefix: PREFIX });
        await queue.obliterate({ force: true });
        await queue.close();
      }
      await redis.hdel(TOURNAMENTS_KEY, id);
      await redis.del(gamesKey(id));
      // Its bots' live stores (`take-arena:t:<id>:live:<bot>`, copied back by the coordinator) and its coordinator's lease.
      await deleteMatching(redis, `${PREFIX}:t:${id}:*`);
      // Its bundles and store snapshots, unless another tournament uses them.
      const users = await keysMatching(redis, usersKey('*'));
      await releaseShared(redis, id, users.map((k) => k.slice(usersKey('').length)));
      removed.push(`tournament ${id}`);
    }
    if (only === undefined) {
      // Whatever is left under the prefix: bundles, heartbeats, queues of tournaments no longer registered.
      const keys = await deleteMatching(redis, `${PREFIX}:*`);
      if (keys) removed.push(`${keys} other keys (bundles, store snapshots, heartbeats, stale queues)`);
    }
    return removed;
  });
}
