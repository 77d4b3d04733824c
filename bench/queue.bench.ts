/**
 * Queued tournaments (`npm run bench -- queue`): the same spec (random vs greedy on
 * `subtraction{moves=1,5,8,10;n=50..200}`, worker isolation) run by the local runner and by a
 * coordinator with 1, 2 and 4 `arena worker` processes on this machine, through a private
 * redis-server on a loopback port. Like with like: each figure is one whole tournament, timed from
 * `runTournament`'s call to its summary, and each side has played one smaller tournament before
 * (the local runner in this process, the queue through the same coordinator process and the same
 * workers), so neither pays for loading code the other has loaded. Both start their bots' hosts
 * inside the clock; the workers themselves are started and connected before it, as a cluster's
 * workers wait for tournaments. The one-worker run is timed between two local runs with one lane
 * and compared with their mean, so that a load that drifts meanwhile (a shared machine) weighs on
 * both sides alike. The overhead per game pair is what one worker adds over the local runner with
 * one lane, start-up included. The CPU time of each run (every process: the runner or the
 * coordinator, the workers, the bots' processes, redis-server) is what a loaded machine does not
 * blur. All processes share this machine's cores: with more workers than cores the games compete
 * for the CPU, so the 2- and 4-worker figures measure the queue, not a cluster.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
/** Deals of the warm-up tournament each side plays first. */
const WARM_DEALS = Math.min(DEALS, 50);
const registry = await discoverBots([]);
const redis = await TestRedis.start();
const client = new Redis(redis.url);

function spec(out: string, concurrency: number, deals: number) {
  return validateSpec({
    name: 'bench-queue',
    seed: 1,
    games: ['subtraction{moves=1,5,8,10;n=50..200}'],
    bots: ['random', 'greedy'],
    deals,
    timePerMoveMs: 1000,
    concurrency,
    out,
  });
}

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * The CPU time (ms) of this process and every process below it, live or ended (`/proc/<pid>/stat`:
 * user and system time of each, and of its children it has reaped), with how many are live: during
 * a queued run that is the coordinator, the workers, their bots' processes and redis-server.
 */
function treeCpu(): { ms: number; live: number } {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile: its time is in its parent's children's time
    }
    // After the command's name (in parentheses, which may hold spaces): state, ppid, …, utime, stime, cutime, cstime.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
  }
  let ticks = 0;
  let live = 0;
  const visit = (pid: number): void => {
    ticks += procs.get(pid)?.ticks ?? 0;
    live++;
    for (const [child, p] of procs) if (p.ppid === pid) visit(child);
  };
  visit(process.pid);
  return { ms: (ticks * 1000) / TICKS, live };
}

/**
 * `treeCpu` once the processes below this one are back to `live` (a tournament's bots' processes
 * end after it, and a process ending while the tree is read would be counted twice or not at all).
 */
async function settledCpu(live: number): Promise<number> {
  const until = performance.now() + 10_000;
  for (;;) {
    const t = treeCpu();
    if (t.live <= live || performance.now() > until) return t.ms;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One whole tournament of `deals` deals, local or (with `queued`) on the workers: its games, wall
 * time, when its first game was reported, and the CPU time it took in all its processes.
 */
async function timed(concurrency: number, queued = false, deals = DEALS): Promise<{ games: number; ms: number; firstMs: number; cpuMs: number }> {
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-queue-'));
  try {
    // The processes that stay (this one, redis-server, the workers, esbuild's service): counted
    // once their number has held for half a second (the last run's bots have ended).
    let live = treeCpu().live;
    for (let held = 0; held < 10; held++) {
      await new Promise((r) => setTimeout(r, 50));
      const now = treeCpu().live;
      if (now < live) {
        live = now;
        held = 0;
      }
    }
    const cpu0 = await settledCpu(live);
    const t0 = performance.now();
    let firstMs = NaN;
    const sink = { emit: (e: { type: string }) => void (e.type === 'game-ended' && Number.isNaN(firstMs) && (firstMs = performance.now() - t0)) };
    const { summary } = await runTournament(prepareTournament(spec(out, concurrency, deals), registry), { sink, ...(queued ? { executor: queueExecutor(redis.url) } : {}) });
    const ms = performance.now() - t0;
    return { games: summary.games.played, ms, firstMs, cpuMs: (await settledCpu(live)) - cpu0 };
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
  report('each figure', `one tournament from its call to its summary: prepare, start both bots' hosts, play, log, fold`);
  report('queue figures also include', `bundling and publishing the bots, the workers hearing of the tournament and fetching the bundles, each result's check`);
  report('before each side\'s figures', `one ${WARM_DEALS}-deal tournament (local: in this process; queue: on the same workers)`);
  await timed(1, false, WARM_DEALS);
  /** A queued run on `n` fresh workers, after its warm-up on them. */
  const queued = (n: number): Promise<Awaited<ReturnType<typeof timed>>> =>
    withWorkers(n, async () => {
      await timed(1, true, WARM_DEALS);
      const before = await commandCounts();
      const run = await timed(1, true);
      if (n === 1) report('queue, 1 worker: Redis work', perPair(before, await commandCounts()));
      return run;
    });
  // The one-worker run between two local ones: on a machine whose load drifts, it is compared with their mean.
  const localBefore = await timed(1);
  const one = await queued(1);
  const localAfter = await timed(1);
  const local1 = { games: localBefore.games, ms: (localBefore.ms + localAfter.ms) / 2, firstMs: (localBefore.firstMs + localAfter.firstMs) / 2, cpuMs: (localBefore.cpuMs + localAfter.cpuMs) / 2 };
  const local2 = await timed(2);
  report('local runner, 1 lane: games/s (before, after the queued run)', `${rate(localBefore).toFixed(0)}, ${rate(localAfter).toFixed(0)}`);
  report('local runner, 2 lanes: games/s', rate(local2).toFixed(0));
  for (const n of [1, 2, 4]) {
    const r = n === 1 ? one : await queued(n);
    report(`queue, ${n} worker${n === 1 ? '' : 's'} (concurrency 1 each): games/s`, `${rate(r).toFixed(0)} (${((100 * rate(r)) / rate(local2)).toFixed(0)} % of local 2 lanes)`);
  }
  report('queue 1 worker ÷ local 1 lane, time (target ≤ 1.5)', `${(one.ms / local1.ms).toFixed(2)}× (${(one.ms / 1000).toFixed(2)} s against ${(local1.ms / 1000).toFixed(2)} s, the local runs' mean)`);
  report('queue overhead per game pair (1 worker vs local 1 lane)', `${((one.ms - local1.ms) / pairs).toFixed(2)} ms`);
  // What a tournament pays once before its first game (start-up), apart from the pace of its games.
  report('first game reported after (1 worker vs local 1 lane)', `${(one.firstMs / 1000).toFixed(2)} s against ${(local1.firstMs / 1000).toFixed(2)} s`);
  // What the load does not change: the CPU time of every process of each run.
  report('CPU time, all processes (1 worker vs local 1 lane)', `${(one.cpuMs / 1000).toFixed(2)} s against ${(local1.cpuMs / 1000).toFixed(2)} s (${(one.cpuMs / local1.cpuMs).toFixed(2)}×)`);
} finally {
  client.disconnect();
  await redis.stop();
}
