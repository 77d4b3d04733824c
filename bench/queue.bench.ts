/**
 * Queued tournaments (`npm run bench -- queue`): the same spec (random vs greedy on
 * `subtraction{moves=1,5,8,10;n=50..200}`, worker isolation) run by the local runner and by a
 * coordinator with 1, 2 and 4 `arena worker` processes on this machine, through a private
 * redis-server on a loopback port. Workers are started and connected before the clock starts, so
 * the figures are steady-state throughput; the overhead per game pair is what one worker adds over
 * the local runner with one lane (Redis round trips, BullMQ bookkeeping, the result's way back and
 * its fsync). All processes share this machine's cores: with more workers than cores the games
 * compete for the CPU, so the 2- and 4-worker figures measure the queue, not a cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { queueExecutor } from '../src/arena/queue/coordinator.ts';
import { WORKERS_KEY } from '../src/arena/queue/protocol.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { discoverBots } from '../src/hosting/index.ts';
import { TestRedis } from '../test/arena/redis-server.ts';
import { report } from './util.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARENA = join(ROOT, 'bin', 'arena.mjs');
const DEALS = Number(process.env['QUEUE_BENCH_DEALS'] ?? 400);
const registry = await discoverBots([]);
const redis = await TestRedis.start();
const client = new Redis(redis.url);

function spec(out: string, concurrency: number) {
  return validateSpec({
    name: 'bench-queue',
    seed: 1,
    games: ['subtraction{moves=1,5,8,10;n=50..200}'],
    bots: ['random', 'greedy'],
    deals: DEALS,
    timePerMoveMs: 1000,
    concurrency,
    out,
  });
}

async function timed(concurrency: number, executor?: ReturnType<typeof queueExecutor>): Promise<{ games: number; ms: number }> {
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-queue-'));
  try {
    const t0 = performance.now();
    const { summary } = await runTournament(prepareTournament(spec(out, concurrency), registry), executor ? { executor } : {});
    return { games: summary.games.played, ms: performance.now() - t0 };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function withWorkers<T>(n: number, f: () => Promise<T>): Promise<T> {
  await client.del(WORKERS_KEY);
  const workers: ChildProcess[] = Array.from({ length: n }, (_, i) =>
    spawn(process.execPath, [ARENA, 'worker', '--queue', redis.url, '--name', `bench${i + 1}`], { cwd: ROOT, stdio: 'ignore' }),
  );
  try {
    while (Object.keys(await client.hgetall(WORKERS_KEY)).length < n) await new Promise((r) => setTimeout(r, 50));
    return await f();
  } finally {
    await Promise.all(
      workers.map((w) => {
        const exited = new Promise((r) => w.once('exit', r));
        w.kill('SIGTERM');
        return exited;
      }),
    );
  }
}

const rate = (r: { games: number; ms: number }): number => (r.games / r.ms) * 1000;

/** Commands Redis has processed, by command (`INFO commandstats`; commands run by Lua scripts included). */
async function commandCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const m of (await client.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(m[1]!, Number(m[2]));
  return counts;
}

/** Per pair, what a run cost Redis: the commands clients sent (each a round trip unless pipelined) and all commands. */
function perPair(before: Map<string, number>, after: Map<string, number>): string {
  const delta = (name: string): number => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  let all = 0;
  for (const name of after.keys()) all += delta(name);
  // What clients send: scripts (BullMQ's and ours) and plain commands; what scripts run inside is in `all`.
  const scripts = delta('evalsha') + delta('eval');
  return `${(all / pairs).toFixed(1)} commands per pair in all, ${(scripts / pairs).toFixed(2)} Lua scripts per pair`;
}
const pairs = DEALS; // two bots, one variant: one pair per deal

try {
  report('machine', `${availableParallelism()} cores, shared with whatever else runs; ${DEALS * 2} games (${pairs} pairs) per run`);
  await timed(1); // warm-up: bundles, worker start
  const local1 = await timed(1);
  const local2 = await timed(2);
  report('local runner, 1 lane: games/s', rate(local1).toFixed(0));
  report('local runner, 2 lanes: games/s', rate(local2).toFixed(0));
  let one: { games: number; ms: number } | null = null;
  for (const n of [1, 2, 4]) {
    const before = await commandCounts();
    const r = await withWorkers(n, () => timed(1, queueExecutor(redis.url)));
    if (n === 1) {
      one = r;
      report('queue, 1 worker: Redis work', perPair(before, await commandCounts()));
    }
    report(`queue, ${n} worker${n === 1 ? '' : 's'} (concurrency 1 each): games/s`, `${rate(r).toFixed(0)} (${((100 * rate(r)) / rate(local2)).toFixed(0)} % of local 2 lanes)`);
  }
  report('queue overhead per game pair (1 worker vs local 1 lane)', `${((one!.ms - local1.ms) / pairs).toFixed(2)} ms`);
} finally {
  client.disconnect();
  await redis.stop();
}
