/**
 * Queued tournaments against a real redis-server (started by the tests on a free loopback port,
 * without persistence) and real `arena worker` processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../../src/arena/events.ts';
import { queueExecutor } from '../../../src/arena/queue/coordinator.ts';
import { bundleKey, contentHash, pairsQueueName, PREFIX, TOURNAMENTS_KEY, verifiedBundle } from '../../../src/arena/queue/protocol.ts';
import { encodeSnapshot, verifiedSnapshot } from '../../../src/arena/queue/stores.ts';
import { QueueWorker } from '../../../src/arena/queue/worker.ts';
import { BUILTIN_BOTS_DIR, loadGameDirs } from '../../../src/hosting/index.ts';
import { DashboardStore, type LiveBoard } from '../../../src/tui/dashboard/dashboard-store.ts';
import { run } from '../../cli/run.ts';
import { readLog, runSpec, tempDir, timeless } from '../helpers.ts';
import { botsOf, comparableDir, coordinatorKilledAfter, registeredId, runWith, until } from './queue-helpers.ts';
import { HAVE_REDIS, TestRedis } from '../redis-server.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ARENA = join(ROOT, 'bin', 'arena.mjs');

/** Small and deterministic: seeded random bots, one of them slow enough to be caught mid-game. */
const SPEC = {
  name: 'queued',
  seed: 7,
  games: ['subtraction{n=30..60}'],
  bots: ['fx-slow', 'fx-random', 'greedy'],
  deals: 8,
  timePerMoveMs: 2000,
  concurrency: 2,
};

/** An `arena worker` process. */
function startWorker(url: string, name: string): ChildProcess {
  const child = spawn(process.execPath, [ARENA, 'worker', '--queue', url, '--name', name, '--lock-ms', '1500'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      if (w.exitCode !== null || w.signalCode !== null) return;
      const exited = new Promise((resolve) => w.once('exit', resolve));
      w.kill('SIGTERM');
      const timer = setTimeout(() => w.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/** A bot-data folder's files and their bytes, sorted by path. */
function storeFiles(root: string): [string, string][] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => statSync(join(root, f)).isFile())
    .sort()
    .map((f) => [f, readFileSync(join(root, f)).toString('base64')]);
}

// Skipped only on a developer machine without redis-server: CI installs it, and fails without it.
describe.skipIf(!HAVE_REDIS && !process.env['CI'])('queued tournaments (real redis-server, real workers)', () => {
  let redis: TestRedis;
  let client: Redis;
  let local: Awaited<ReturnType<typeof runSpec>>;

  beforeAll(async () => {
    redis = await TestRedis.start();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on('error', () => {});
    local = await runSpec(SPEC);
  });

  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('refuses a bundle whose content does not match its hash', () => {
    const bytes = Buffer.from('export default {}');
    expect(verifiedBundle(contentHash(bytes), bytes)).toBe(bytes);
    expect(() => verifiedBundle(contentHash(bytes), Buffer.from('export default {} '))).toThrow(/refused bundle .* hashes to/);
    expect(() => verifiedBundle(contentHash(bytes), null)).toThrow(/not in Redis/);
    // Bot store snapshots likewise.
    const snapshot = encodeSnapshot(new Map([['b.bin', new Uint8Array([1, 2])], ['a.json', new TextEncoder().encode('{"x":1}')]]));
    expect([...verifiedSnapshot(contentHash(snapshot), snapshot).keys()]).toEqual(['a.json', 'b.bin']);
    const tampered = Buffer.from(snapshot);
    tampered[tampered.length - 1] = 9;
    expect(() => verifiedSnapshot(contentHash(snapshot), tampered)).toThrow(/refused bot store snapshot .* hashes to/);
  });

  it("a user's game (games/, --games-dir) travels to the workers as a bundle, as bots do: the same games as the local run", async () => {
    const games = tempDir();
    copyFileSync(join(ROOT, 'test', 'fixtures', 'games', 'take.ts'), join(games, 'take.ts'));
    // `take-arena` as a user's folder finds it when the package is installed (the CLI resolves it itself).
    mkdirSync(join(games, 'node_modules'));
    symlinkSync(ROOT, join(games, 'node_modules', 'take-arena'));
    // Loaded here as the CLI loads --games-dir; the worker process has no copy of the file.
    await loadGameDirs([games]);
    // Bots read now, asked about the game (greedy would not play it: the game has no heuristic).
    const spec = { name: 'user-game', seed: 4, games: ['take{n=10..20}'], bots: ['random', 'optimal'], deals: 3 };
    const registry = await botsOf(spec.bots.map((b) => join(BUILTIN_BOTS_DIR, `${b}.ts`)), { variants: spec.games });
    const local = await runWith(registry, spec);
    expect(readLog(local.dir)).toHaveLength(6);
    const worker = startWorker(redis.url, 'gw');
    try {
      const { dir, interrupted } = await runWith(registry, spec, { executor: queueExecutor(redis.url) });
      expect(interrupted).toBe(false);
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
      expect(readLog(dir).every((r) => r.worker === 'gw' && r.termination === 'normal')).toBe(true);
    } finally {
      await stopWorkers([worker]);
    }
  });

  it("a learning bot's store travels with the queue: same games as the local run from the same store, same store after", async () => {
    // The learner proves positions within a small node budget and merges them into its store
    // (`updateBlob`) every move; its reads see the store as the run began.
    const learn = {
      name: 'learning',
      seed: 5,
      games: ['subtraction{moves=1,2,3;n=30..60}'],
      bots: ['learner:nodes=40', 'greedy'],
      deals: 6,
      concurrency: 2,
      timePerMoveMs: 5000,
    };
    // A starting store that already knows something: one local run from an empty one.
    const start = tempDir();
    await runSpec({ ...learn, botData: start });
    expect(storeFiles(start).length).toBeGreaterThan(0);
    const localData = tempDir();
    const queuedData = tempDir();
    cpSync(start, localData, { recursive: true });
    cpSync(start, queuedData, { recursive: true });
    const localRun = await runSpec({ ...learn, botData: localData });
    // The local run learned more: the store changed.
    expect(storeFiles(localData)).not.toEqual(storeFiles(start));
    // Floor `none`: the second run below plays the bot on the workers' main threads.
    const workers = ['l1', 'l2'].map((id) => new QueueWorker({ url: redis.url, id, lockMs: 5000, pollMs: 200, isolation: 'none' }));
    await Promise.all(workers.map((w) => w.start()));
    try {
      const queued = await runSpec({ ...learn, botData: queuedData }, { executor: queueExecutor(redis.url) });
      expect(comparableDir(queued.dir)).toEqual(comparableDir(localRun.dir));
      expect(storeFiles(queuedData)).toEqual(storeFiles(localData));
      // The run kept the snapshot it started from (for --resume), as a local run does.
      expect(storeFiles(join(queued.dir, 'bot-data'))).toEqual(storeFiles(start));
      expect(await client.keys(`${PREFIX}:*store*`)).toEqual([]);
      expect(await client.keys(`${PREFIX}:t:*`)).toEqual([]);
      // With isolation `none` the bot runs on each worker's main thread: its store calls are served
      // by the worker's helper thread, with the same games and the same store at the end.
      const noneData = tempDir();
      cpSync(start, noneData, { recursive: true });
      const inProcess = await runSpec({ ...learn, isolation: 'none', botData: noneData }, { executor: queueExecutor(redis.url) });
      expect(comparableDir(inProcess.dir)).toEqual(comparableDir(localRun.dir));
      expect(storeFiles(noneData)).toEqual(storeFiles(localData));
    } finally {
      await Promise.all(workers.map((w) => w.stop(true)));
    }
  });

  it('three workers, one killed with SIGKILL mid-game: the log equals the local run, the retried pair says so; the dashboard draws the workers\' games', async () => {
    const events: ArenaEvent[] = [];
    // The dashboard's store, fed as the dashboard is: its boards are read while the games run.
    const store = new DashboardStore(1e9);
    const boards: LiveBoard[] = [];
    const running = runSpec(SPEC, {
      executor: queueExecutor(redis.url, { statusEveryMs: 200 }),
      sink: { detail: 'live', emit: (e) => (events.push(e), store.push(e)) },
    });
    const drawing = setInterval(() => {
      store.flush();
      boards.push(...store.getSnapshot().live);
    });
    const workers = ['w1', 'w2', 'w3'].map((n) => startWorker(redis.url, n));
    try {
      const id = await registeredId(client);
      const pairs = new Queue(pairsQueueName(id), { connection: client, prefix: PREFIX });
      pairs.on('error', () => {});
      // Kill w1 while it holds a pair.
      await until(async () => (await pairs.getJobs(['active'])).some((j) => j.processedBy === 'w1'), 'w1 to play a pair');
      workers[0]!.kill('SIGKILL');
      await pairs.close();
      const { dir, interrupted } = await running;
      expect(interrupted).toBe(false);
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
      const log = readLog(dir);
      expect(new Set(log.map((r) => r.index)).size).toBe(log.length);
      // The pair w1 held was retried elsewhere, and its records say how often it had been started.
      expect(log.some((r) => (r.retries ?? 0) >= 1)).toBe(true);
      // The dashboard heard of the workers and their games.
      const status = events.filter((e) => e.type === 'queue-status').at(-1);
      expect(status?.type === 'queue-status' && status.workers.filter((w) => w.games > 0).length).toBeGreaterThanOrEqual(2);
      // A finished tournament leaves nothing of its own in Redis.
      expect(await client.hgetall(TOURNAMENTS_KEY)).toEqual({});
      // Live boards: games started on the workers, named by worker, drawn with their moves, and
      // only games of this schedule (a board's key is the key of its place in the log).
      const started = events.filter((e) => e.type === 'game-started');
      expect(started.length).toBeGreaterThan(0);
      expect(started.every((e) => e.type === 'game-started' && ['w1', 'w2', 'w3'].includes(e.worker ?? ''))).toBe(true);
      const keys = new Map(log.map((r) => [r.index, r.key]));
      expect(started.every((e) => e.type === 'game-started' && keys.get(e.index) === e.key)).toBe(true);
      expect(boards.some((b) => b.worker !== undefined && b.ply > 0 && b.last !== null)).toBe(true);
    } finally {
      clearInterval(drawing);
      await stopWorkers(workers);
    }
  });

  it('survives a Redis restart mid-run (stopped and started empty on the same port): nothing is lost', async () => {
    const events: ArenaEvent[] = [];
    let ended = 0;
    const running = runSpec(SPEC, {
      executor: queueExecutor(redis.url, { statusEveryMs: 200 }),
      sink: { emit: (e) => (events.push(e), e.type === 'game-ended' && ended++) },
    });
    const workers = ['r1', 'r2'].map((n) => startWorker(redis.url, n));
    try {
      await until(() => ended >= 6, 'some games to be logged');
      await redis.stop();
      // Down until the coordinator has seen it go (not a fixed time, which a loaded machine may not notice within).
      await until(() => events.some((e) => e.type === 'queue-link' && e.state === 'reconnecting'), 'the coordinator to lose Redis');
      await redis.start();
      const { dir, interrupted } = await running;
      expect(interrupted).toBe(false);
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
      // The outage was visible, and the coordinator put its pending pairs back.
      expect(events.some((e) => e.type === 'queue-link' && e.state === 'reconnecting')).toBe(true);
      expect(events.some((e) => e.type === 'queue-link' && e.state === 'connected' && /republished/.test(e.detail))).toBe(true);
    } finally {
      await stopWorkers(workers);
    }
  });

  it('a coordinator killed with SIGKILL and resumed ends with the same standings', async () => {
    const out = tempDir();
    const specFile = join(out, 'spec.json');
    await import('node:fs').then((fs) => fs.writeFileSync(specFile, JSON.stringify({ ...SPEC, out, botDirs: [join(ROOT, 'test', 'fixtures', 'bots')] })));
    const workers = ['c1', 'c2'].map((n) => startWorker(redis.url, n));
    try {
      const dir = await coordinatorKilledAfter(specFile, redis.url, 10);
      expect(existsSync(join(dir, 'summary.json'))).toBe(false);
      const resumed = spawn(process.execPath, [ARENA, 'tournament', '--resume', dir, '--plain'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      resumed.stdout!.resume();
      let err = '';
      resumed.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise((resolve) => resumed.once('exit', resolve));
      expect(code, err).toBe(0);
      const log = readLog(dir);
      expect(new Set(log.map((r) => r.index)).size).toBe(log.length);
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { standings: unknown };
      expect(timeless(summary.standings)).toEqual(timeless(local.summary.standings));
    } finally {
      await stopWorkers(workers);
    }
  });

  it('a gauntlet with SPRT stops each pairing at its decision: unstarted pairs are withdrawn from the queue', async () => {
    const gauntlet = {
      name: 'sprt-queued',
      seed: 7,
      games: ['subtraction{moves=1,2,3;n=20..40}'],
      bots: ['optimal', 'random', 'greedy'],
      format: 'gauntlet' as const,
      champion: 'optimal',
      sprt: { elo0: 0, elo1: 50 },
      deals: 300,
      isolation: 'none' as const,
    };
    const localRun = await runSpec({ ...gauntlet, concurrency: 1 });
    // One worker playing one pair at a time takes the pairs in queue order, so the decisions come
    // while most pairs are still unqueued, however slow the machine (with more pairs in flight, a
    // pair held up on a loaded machine kept the in-order fold from deciding until every pair had
    // been queued and played, and nothing was left to withdraw).
    const workers = [new QueueWorker({ url: redis.url, id: 's1', concurrency: 1, lockMs: 5000, pollMs: 200, isolation: 'none' })];
    await Promise.all(workers.map((w) => w.start()));
    try {
      const { summary } = await runSpec(gauntlet, { executor: queueExecutor(redis.url, { window: 64 }) });
      expect(summary.complete).toBe(true);
      expect(summary.games.skipped).toBeGreaterThan(0);
      expect(summary.games.played + summary.games.skipped).toBe(summary.games.total);
      // The decisions are those of the local run: whole pairs folded in schedule order.
      expect(summary.sprt).toEqual(localRun.summary.sprt);
      expect(summary.sprt!.every((r) => r.decision === 'H1')).toBe(true);
      expect(await client.hgetall(TOURNAMENTS_KEY)).toEqual({});
    } finally {
      await Promise.all(workers.map((w) => w.stop(true)));
    }
  });

  it('time controls and the margin travel with queued jobs: a bot past its bank loses on time on a worker', async () => {
    const worker = new QueueWorker({ url: redis.url, id: 't1', concurrency: 2, lockMs: 5000, pollMs: 200 });
    await worker.start();
    try {
      // 1 s a game, 400 ms a move: the third move overruns the bank, on the worker.
      const { dir, summary } = await runSpec(
        { name: 'tc-queued', games: ['subtraction{moves=1,2;n=30..40}'], bots: ['fx-clock:ms=400', 'fx-first'], deals: 1, timeControl: '1', timeMarginMs: 30, isolation: 'worker' },
        { executor: queueExecutor(redis.url) },
      );
      expect(summary.complete).toBe(true);
      for (const rec of readLog(dir)) {
        expect(rec.termination, rec.reason ?? '').toBe('timeout');
        expect(rec.seats[rec.faulty!]).toBe('fx-clock:ms=400');
        expect(rec.reason).toMatch(/^time bank exhausted \(\d+\.\d ms left \+ 30 ms margin\): /);
        expect(rec.timeControl).toEqual({ baseMs: 1000, incMs: 0 });
        expect(rec.ovh).toHaveLength(rec.moves.length);
      }
      expect(summary.time!.moves).toBeGreaterThan(0);
    } finally {
      await worker.stop(true);
    }
  });

  it('a bot that cannot start on a worker forfeits its games there and is reported once, as in a local run', async () => {
    const spec = { ...SPEC, name: 'nostart', bots: ['fx-nostart', 'fx-random'], deals: 2 };
    const events: ArenaEvent[] = [];
    const lines: string[] = [];
    const workers = ['w1', 'w2'].map((id) => new QueueWorker({ url: redis.url, id, lockMs: 1500, log: (l) => lines.push(l) }));
    await Promise.all(workers.map((w) => w.start()));
    try {
      const { summary } = await runSpec(spec, { executor: queueExecutor(redis.url), sink: { emit: (e) => events.push(e) } });
      expect(summary.complete).toBe(true);
      const failed = events.filter((e) => e.type === 'bot-failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ bot: 'fx-nostart', reason: expect.stringMatching(/^on worker w[12]: .*fx-nostart cannot start here/) });
      expect(summary.failedBots).toEqual([{ bot: 'fx-nostart', reason: (failed[0] as { reason: string }).reason }]);
      const log = readLog(summary.dir);
      expect(log).toHaveLength(4);
      expect(log.every((r) => r.termination === 'crash' && r.winner === 'fx-random' && /failed to start: .*fx-nostart cannot start here/.test(r.reason ?? ''))).toBe(true);
      expect(lines.some((l) => /bot fx-nostart cannot start: .*fx-nostart cannot start here/.test(l))).toBe(true);
    } finally {
      await Promise.all(workers.map((w) => w.stop(true)));
    }
  });

  it('a worker refuses a tampered bundle, and the coordinator stops saying so', async () => {
    const running = runSpec({ ...SPEC, deals: 1 }, { executor: queueExecutor(redis.url) });
    const failed = running.then(
      () => null,
      (err: unknown) => err,
    );
    await registeredId(client);
    // Every published bundle is replaced by other code under the same hash.
    const keys = await client.keys(bundleKey('*'));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) await client.set(key, `${await client.get(key)}\nglobalThis.tampered = true;\n`);
    const lines: string[] = [];
    const worker = new QueueWorker({ url: redis.url, id: 'honest', lockMs: 1500, log: (l) => lines.push(l) });
    await worker.start();
    try {
      const err = await failed;
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/cannot be played: refused bundle .* hashes to/);
      expect(lines.some((l) => /refused bundle/.test(l))).toBe(true);
      expect((globalThis as { tampered?: boolean }).tampered).toBeUndefined();
    } finally {
      await worker.stop(true);
    }
    // The failed tournament is still in Redis: `queue status` shows it, `queue clean` removes everything.
    const status = await run('queue', 'status', '--queue', redis.url);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/tournament queued-\S+ \(queued; coordinator/);
    expect(status.out).toMatch(/pairs: \d+ waiting/);
    const clean = await run('queue', 'clean', '--queue', redis.url);
    expect(clean.out).toMatch(/Removed tournament queued-/);
    expect(await client.keys(`${PREFIX}:*`)).toEqual([]);
    expect((await run('queue', 'status', '--queue', redis.url)).out).toMatch(/No queued tournament\.\nNo worker has reported\./);
  });
});
