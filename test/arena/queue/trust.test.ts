/**
 * A queue open to other people's machines, against a real redis-server (one for the file, on a free
 * loopback port): results checked before they are folded, rogue clients refused.
 */
import { Queue, DelayedError, Worker, type Job } from 'bullmq';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../../src/arena/events.ts';
import type { GameRecord } from '../../../src/arena/match.ts';
import { queueExecutor } from '../../../src/arena/queue/coordinator.ts';
import { formatQueueStatus, queueClean, queueStatus } from '../../../src/arena/queue/admin.ts';
import { bundleKey, contentHash, pairsQueueName, PREFIX } from '../../../src/arena/queue/protocol.ts';
import { credentialOf, signed } from '../../../src/arena/queue/auth.ts';
import { PROTOCOL_VERSION, queueVersion } from '../../../src/arena/queue/version.ts';
import { QueueWorker } from '../../../src/arena/queue/worker.ts';
import { loadReportData, reportHtml } from '../../../src/report/index.ts';
import { boardView } from '../../../src/tui/boards/board-view.ts';
import { workersText } from '../../../src/tui/dashboard/dashboard-store.ts';
import { discoverBots } from '../../../src/hosting/index.ts';
import { validateSpec } from '../../../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../../../src/arena/tournament.ts';
import { run } from '../../cli/run.ts';
import { FIXTURE_BOTS, readLog, runSpec, tempDir } from '../helpers.ts';
import { HAVE_REDIS, TestRedis } from '../redis-server.ts';
import { comparableDir, registeredId, until } from './queue-helpers.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ARENA = join(ROOT, 'bin', 'arena.mjs');

/** Four pairs of quick in-process bots. */
const SMALL = { name: 'trusted', seed: 3, games: ['subtraction{n=20..40}'], bots: ['fx-random', 'greedy'], deals: 4, isolation: 'none' as const };

/** The password of the file's Redis. */
const PASSWORD = 'hunter2-of-the-queue';

/** The tournament's key of the signed runs (shared by the coordinator and the honest worker). */
const KEY = Buffer.from('a shared secret of the tournament');

/** A job's result as a worker sends it: each pair's index and two records. */
function batchResult(pairs: readonly (readonly [number, unknown])[], worker = 'rogue'): unknown {
  return { kind: 'pairs', worker, retries: 0, pairs: pairs.map(([pairIndex, records]) => ({ pairIndex, records })), version: queueVersion() };
}

/** A one-pair job's result as a worker sends it, with the pair's two records. */
function pairResult(pairIndex: number, records: unknown, worker = 'rogue'): unknown {
  return batchResult([[pairIndex, records]], worker);
}

/** A version of take-arena other than this one. */
const OLD = { protocol: PROTOCOL_VERSION, build: '0.0.9+0123456789ab' };

/**
 * A rogue client on a tournament's pairs queue: it answers each job with the next forged result
 * listed for its id, and leaves the jobs it has nothing for (they wait for an honest worker).
 */
function rogueWorker(url: string, id: string, forged: Map<string, unknown[]>): { close(): Promise<void> } {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const rogue = new Worker(
    pairsQueueName(id),
    async (job: Job, token?: string) => {
      const next = forged.get(String(job.id))?.shift();
      if (next !== undefined) return next;
      await job.moveToDelayed(Date.now() + 200, token);
      throw new DelayedError();
    },
    { connection, prefix: PREFIX, name: 'rogue', drainDelay: 1 },
  );
  rogue.on('error', () => {});
  return {
    async close() {
      await rogue.close();
      connection.disconnect();
    },
  };
}

describe.skipIf(!HAVE_REDIS && !process.env['CI'])('a queue open to other machines (real redis-server)', () => {
  let redis: TestRedis;
  let client: Redis;
  let local: Awaited<ReturnType<typeof runSpec>>;
  let localLog: GameRecord[];

  beforeAll(async () => {
    // A Redis with a password, as a shared one has: it must never reach a results folder.
    redis = await TestRedis.start(PASSWORD);
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on('error', () => {});
    local = await runSpec(SMALL);
    localLog = readLog(local.dir).sort((a, b) => a.index - b.index);
  });

  /** A queued run ended complete with the local run's games, every one played by `worker`. */
  function expectLocalGames(dir: string, complete: boolean, worker: string): void {
    expect(complete).toBe(true);
    expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
    expect(readLog(dir).every((r) => r.worker === worker)).toBe(true);
  }

  afterEach(async () => {
    // A failed run leaves its tournament registered: the next test starts from an empty Redis.
    await queueClean(redis.url);
  });

  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('replays every remote record before folding it: forged, malformed and unqueued results are refused, named and played again elsewhere', async () => {
    const events: ArenaEvent[] = [];
    // A window of two pairs: pairs 2 and 3 are not queued while 0 and 1 wait for an honest worker.
    const running = runSpec({ ...SMALL, queue: redis.url }, { executor: queueExecutor(redis.url, { window: 2 }), sink: { emit: (e) => events.push(e) } });
    const id = await registeredId(client);
    const [g0, g1, g2, g3] = localLog as [GameRecord, GameRecord, GameRecord, GameRecord];
    const { seats: _s, ...seatless } = g2;
    const forged = new Map<string, unknown[]>([
      [
        'p0',
        [
          pairResult(0, null),
          pairResult(0, [{ ...g0, moves: 5 }, g1]),
          'ok',
          // A legal opening move played in the wrong notation, then nothing.
          pairResult(0, [{ ...g0, moves: [g0.moves[0]!.padStart(3, '0')], us: [1], wus: [1] }, g1]),
        ],
      ],
      [
        'p1',
        [
          pairResult(1, [seatless, g3]),
          // The rogue client of the issue: no moves from a pile of 1, the random bot the winner.
          pairResult(1, [g2, g3].map((r) => ({ ...r, moves: [], us: [], start: { pile: 1 }, winner: 'fx-random' }))),
          // A whole game whose last move is illegal.
          pairResult(1, [g2, { ...g3, moves: [...g3.moves.slice(0, -1), '999'] }]),
          // The very games, from a worker of another version.
          { ...(pairResult(1, [g2, g3]) as object), version: OLD },
        ],
      ],
      // Pair 3 has not been queued: a perfectly legal copy of its games is refused all the same.
      ['p3', [pairResult(3, [localLog[6]!, localLog[7]!])]],
    ]);
    const expected = [...forged.values()].reduce((n, list) => n + list.length, 0);
    const pairs = new Queue(pairsQueueName(id), { connection: client, prefix: PREFIX });
    await pairs.add('pair', {}, { jobId: 'p3' });
    const rogue = rogueWorker(redis.url, id, forged);
    const refusals = (): ArenaEvent[] => events.filter((e) => e.type === 'queue-problem' && /refused its result/.test(e.reason));
    try {
      await until(() => refusals().length >= expected, 'the forged results to be refused');
    } finally {
      await rogue.close();
      await pairs.close();
    }
    const honest = new QueueWorker({ url: redis.url, id: 'honest', lockMs: 5000, pollMs: 200, isolation: 'none' });
    await honest.start();
    try {
      const { dir, summary } = await running;
      expectLocalGames(dir, summary.complete, 'honest');
      expect(summary.workers).toEqual({ honest: { games: 8, crashes: 0, timeouts: 0, illegal: 0, meanMoveMs: expect.any(Number) } });
      // The finished tournament took its bundles with it.
      expect(await client.keys(`${PREFIX}:*bundle*`)).toEqual([]);
      // The report says what was verified of them, and what the checksums cover.
      const html = await reportHtml(loadReportData(dir, boardView));
      // The Redis password is in none of what the run keeps or shows; the spec keeps the URL without it.
      const saved = JSON.parse(readFileSync(join(dir, 'spec.json'), 'utf8')) as { queue?: string };
      expect(saved.queue).toBe(`redis://127.0.0.1:${redis.port}`);
      for (const text of [readFileSync(join(dir, 'spec.json'), 'utf8'), readFileSync(join(dir, 'summary.json'), 'utf8'), html]) expect(text).not.toContain(PASSWORD);
      const links = events.filter((e) => e.type === 'queue-link');
      expect(links.length).toBeGreaterThan(0);
      expect(links.every((e) => e.type === 'queue-link' && e.url === `redis://:***@127.0.0.1:${redis.port}`)).toBe(true);
      expect(formatQueueStatus(await queueStatus(redis.url))).toMatch(new RegExp(`^Redis redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}\n`));
      expect(html).toContain('8 games played on arena workers (honest 8), each replayed through the referee from its deal before it was logged; the checksums cover the log from then on');
    } finally {
      await honest.stop(true);
    }
    // One line per refusal, naming the rogue and what was wrong.
    const reasons = refusals().map((e) => (e.type === 'queue-problem' ? `${e.worker}: ${e.reason}` : ''));
    expect(reasons).toHaveLength(expected);
    expect(reasons.every((r) => r.startsWith('rogue: refused its result for pair '))).toBe(true);
    for (const pattern of [
      /pair 0: its `records` are null/,
      /pair 0: game 0 \(seating 0\): `moves` is not a list/,
      /pair 0: its result is string/,
      /pair 0: game 0 \(seating 0\): move 1 \(0\d\d\) is not (legal|a move)/,
      /pair 1: game 2 \(seating 0\): its `seats` are missing/,
      /pair 1: game 2 \(seating 0\): its start position is not the deal of its seed/,
      /pair 1: game 3 \(seating 1\): move \d+ \(999\) is not/,
      /pair 3: job "p3" is not a job this coordinator queued/,
      /pair 1: the result is from take-arena 0\.0\.9\+0123456789ab \(queue protocol \d+\), this coordinator runs take-arena \S+\+[0-9a-f]{12} \(queue protocol \d+\): run the same version/,
    ]) {
      expect(reasons.some((r) => pattern.test(r)), String(pattern)).toBe(true);
    }
  });

  it('several pairs in one job: a result refused as a whole refuses each pair, named; within a batch each pair is checked on its own, the good ones folded, the bad ones played again', async () => {
    const events: ArenaEvent[] = [];
    // One job of the four pairs: p0+3.
    const running = runSpec({ ...SMALL, queue: redis.url }, { executor: queueExecutor(redis.url, { batch: 4 }), sink: { emit: (e) => events.push(e) } });
    const id = await registeredId(client);
    const [g0, g1, g2, g3, g4, g5] = localLog as [GameRecord, GameRecord, GameRecord, GameRecord, GameRecord, GameRecord];
    const rogue = rogueWorker(
      redis.url,
      id,
      new Map([
        [
          'p0+3',
          [
            // The very games of every pair, from a worker of another version: each pair refused.
            { ...(batchResult([[0, [g0, g1]], [1, [g2, g3]], [2, [g4, g5]], [3, [localLog[6], localLog[7]]]]) as object), version: OLD },
            // Pairs 0 and 2 right, pair 1 with an illegal last move, pair 3 left out, and a pair the job does not hold.
            batchResult([[0, [g0, g1]], [1, [g2, { ...g3, moves: [...g3.moves.slice(0, -1), '999'] }]], [2, [g4, g5]], [7, [g0, g1]]]),
          ],
        ],
      ]),
    );
    const refusals = (): string[] => events.flatMap((e) => (e.type === 'queue-problem' && /refused its result/.test(e.reason) ? [`${e.worker}: ${e.reason}`] : []));
    try {
      await until(() => refusals().length >= 6, 'the forged results to be refused');
    } finally {
      await rogue.close();
    }
    const honest = new QueueWorker({ url: redis.url, id: 'honest', lockMs: 5000, pollMs: 200, isolation: 'none' });
    await honest.start();
    try {
      const { dir, summary } = await running;
      expect(summary.complete).toBe(true);
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
      // The good pairs of the second answer were folded from it; the refused ones were played again.
      expect(Object.fromEntries(readLog(dir).map((r) => [r.index, r.worker]))).toEqual({ 0: 'rogue', 1: 'rogue', 2: 'honest', 3: 'honest', 4: 'rogue', 5: 'rogue', 6: 'honest', 7: 'honest' });
    } finally {
      await honest.stop(true);
    }
    const old = /the result is from take-arena 0\.0\.9\+0123456789ab \(queue protocol \d+\), this coordinator runs .*; the pair is queued again$/;
    const lines = refusals();
    expect(lines).toHaveLength(6);
    for (const index of [0, 1, 2, 3]) expect(lines.some((l) => l.startsWith(`rogue: refused its result for pair ${index}: `) && old.test(l)), `pair ${index}`).toBe(true);
    expect(lines.slice(4).sort()).toEqual([
      expect.stringMatching(/^rogue: refused its result for pair 1: game 3 \(seating 1\): move \d+ \(999\) is not .*; the pair is queued again$/),
      'rogue: refused its result for pair 3: its result has no records for it; the pair is queued again',
    ]);
  });

  it('with a key, a worker runs only signed jobs and the coordinator counts only results signed by the worker they name: a forged job is never run, a forged result never folded, a refused worker never counted', async () => {
    const events: ArenaEvent[] = [];
    const running = runSpec(SMALL, { executor: queueExecutor(redis.url, { window: 2, key: KEY, refuseWorkers: ['mallory'] }), sink: { emit: (e) => events.push(e) } });
    const id = await registeredId(client);
    // A job written straight into Redis: its bot (published as a bundle) leaves a mark when loaded.
    const marker = join(tempDir(), 'ran');
    const bundle = Buffer.from(`import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'evil', description: 'forged', choose: ({ moves }) => moves[0] };\n`);
    await client.set(bundleKey(contentHash(bundle)), bundle);
    const seat = { name: 'evil', label: 'evil', options: {} };
    const game = { index: 0, key: 'forged', variant: 'subtraction{n=20..40}', deal: 0, dealSeed: 1, seating: 0, seats: { first: seat, second: seat }, botSeeds: { first: 1, second: 2 }, timePerMoveMs: 1000 };
    const pairs = new Queue(pairsQueueName(id), { connection: client, prefix: PREFIX });
    await pairs.add(
      'pair',
      { tournament: id, pairs: [{ id: 'forged', index: 0, games: [game, { ...game, seating: 1 }] }], bots: { evil: { kind: 'module', name: 'evil', bundle: contentHash(bundle) } }, settings: { isolation: 'none', memoryMb: 256, prepareTimeoutMs: 5000 } },
      { jobId: 'evil' },
    );
    await pairs.close();
    // A rogue without the key answers pair 0 with a perfect copy of its games: unsigned, refused.
    // Mallory holds a credential of her own: she cannot sign as the honest worker, and this run refuses her by name.
    const mallory = credentialOf(KEY, 'mallory');
    const copy = pairResult(1, [localLog[2], localLog[3]], 'mallory') as object;
    const rogue = rogueWorker(
      redis.url,
      id,
      new Map([
        ['p0', [pairResult(0, [localLog[0], localLog[1]])]],
        ['p1', [signed(mallory.secret, 'result', { ...copy, worker: 'honest' }), signed(mallory.secret, 'result', copy)]],
      ]),
    );
    const refused = (worker: string, pattern: RegExp): boolean => events.some((e) => e.type === 'queue-problem' && e.worker === worker && pattern.test(e.reason));
    try {
      await until(() => refused('rogue', /refused its result for pair 0: the result is not signed with the tournament's key/), 'the unsigned result to be refused');
      await until(() => refused('honest', /refused its result for pair 1: the result's signature does not verify with the tournament's key/), "the result signed with another's credential to be refused");
      await until(() => refused('mallory', /refused its result for pair 1: worker mallory is refused by this tournament \(--refuse-worker\)/), "the refused worker's result to be refused");
    } finally {
      await rogue.close();
    }
    const lines: string[] = [];
    const malloryLines: string[] = [];
    // The honest worker's floor lets this run's bots play in its process: only the key keeps the forged job out.
    // It holds its credential, not the key: the coordinator's signature of a job is checked with the credential's public key.
    const honest = new QueueWorker({ url: redis.url, pollMs: 200, lockMs: 5000, isolation: 'none', credential: credentialOf(KEY, 'honest'), log: (l) => lines.push(l) });
    const refusedWorker = new QueueWorker({ url: redis.url, pollMs: 200, lockMs: 5000, isolation: 'none', credential: mallory, log: (l) => malloryLines.push(l) });
    await Promise.all([honest.start(), refusedWorker.start()]);
    try {
      // Two live workers never share a name.
      await expect(new QueueWorker({ url: redis.url, credential: credentialOf(KEY, 'honest') }).start()).rejects.toThrow(/^a worker named honest is already running \(on \S+, pid \d+\): give this one another --name$/);
      const { dir, summary } = await running;
      expectLocalGames(dir, summary.complete, 'honest');
      await until(() => lines.some((l) => /refused job evil/.test(l)), 'the forged job to be refused');
      expect(malloryLines).toContain(`tournament ${id} refuses this worker (--refuse-worker): not serving it`);
    } finally {
      await Promise.all([honest.stop(true), refusedWorker.stop(true)]);
    }
    expect(existsSync(marker)).toBe(false);
    expect(lines.filter((l) => /refused job evil/.test(l))).toEqual(["refused job evil: the job is not signed with the tournament's key"]);
  });

  it("a worker refuses jobs asking for less isolation than its floor, and the run says so rather than run them", async () => {
    const lines: string[] = [];
    // The default floor: `worker`.
    const guarded = new QueueWorker({ url: redis.url, id: 'guarded', lockMs: 5000, pollMs: 200, log: (l) => lines.push(l) });
    await guarded.start();
    const events: ArenaEvent[] = [];
    try {
      const run = runSpec({ ...SMALL, deals: 1 }, { executor: queueExecutor(redis.url), sink: { emit: (e) => events.push(e) } });
      await expect(run).rejects.toThrow(/^pair 0 failed 5 times \(on guarded\); the last: bot fx-random asks for isolation `none`, below this worker's floor `worker`/);
    } finally {
      await guarded.stop(true);
    }
    expect(lines).toContain("refused job p0: bot fx-random asks for isolation `none`, below this worker's floor `worker` (arena worker --isolation)");
    expect(events.some((e) => e.type === 'queue-problem' && e.worker === 'guarded' && /^refused job p0: .*; the pair is queued again$/.test(e.reason))).toBe(true);
  });

  it('a worker of another version refuses every job, naming both versions, and the run ends saying so', async () => {
    const lines: string[] = [];
    const old = new QueueWorker({ url: redis.url, id: 'old', lockMs: 5000, pollMs: 200, isolation: 'none', version: OLD, log: (l) => lines.push(l) });
    await old.start();
    try {
      const run = runSpec({ ...SMALL, deals: 1 }, { executor: queueExecutor(redis.url) });
      await expect(run).rejects.toThrow(/^pair 0 failed 5 times \(on old\); the last: the job is from take-arena \S+\+[0-9a-f]{12} \(queue protocol \d+\), this worker runs take-arena 0\.0\.9\+0123456789ab \(queue protocol \d+\)/);
    } finally {
      await old.stop(true);
    }
    expect(lines.filter((l) => l.startsWith('refused job p0: the job is from take-arena '))).toHaveLength(5);
  });

  it('no silent hang: a coordinator with no worker says so, a second coordinator of the tournament is refused, `queue clean` during the run ends it saying how to go on', async () => {
    const events: ArenaEvent[] = [];
    const out = tempDir();
    const running = runSpec({ ...SMALL, out, botDirs: [FIXTURE_BOTS] }, { executor: queueExecutor(redis.url, { idleWarnMs: 300, statusEveryMs: 100 }), sink: { emit: (e) => events.push(e) } });
    const failed = running.then(
      () => null,
      (err: unknown) => err,
    );
    const id = await registeredId(client);
    const idle = (): string | undefined => events.flatMap((e) => (e.type === 'queue-problem' && e.worker === undefined ? [e.reason] : []))[0];
    await until(() => idle() !== undefined, 'the coordinator to say it has no worker');
    // A job dropped from the queue (as BullMQ drops one that stalled too often) is queued again, saying so.
    const pairs = new Queue(pairsQueueName(id), { connection: client, prefix: PREFIX });
    expect(await pairs.remove('p0')).toBe(1);
    const gone = (): boolean => events.some((e) => e.type === 'queue-problem' && /^pair 0's job is gone from the queue .*; queued again$/.test(e.reason));
    await until(gone, 'the coordinator to queue the dropped job again');
    await until(async () => (await pairs.getJob('p0')) !== undefined, 'pair 0 queued again');
    await pairs.close();
    expect(idle()).toMatch(new RegExp(`^no game folded for \\d+ s and no worker alive: start one with \`arena worker --queue redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}\`, or stop here \\(Ctrl-C\\) and continue later with \`arena tournament --resume `));
    // The same tournament (its results folder copied elsewhere) under a second coordinator: refused in one line.
    const dir = join(out, readdirSync(out)[0]!);
    const copy = join(tempDir(), basename(dir));
    cpSync(dir, copy, { recursive: true, filter: (f) => !f.endsWith('runner.lock') });
    const second = await run('tournament', '--resume', copy, '--queue', redis.url, '--plain');
    expect(second.code).not.toBe(0);
    expect(second.err.trim()).toMatch(new RegExp(`^arena: tournament ${id} already has a coordinator \\(on \\S+, pid ${process.pid}\\): stop it before starting another`));
    expect(second.err.trim().split('\n')).toHaveLength(1);
    expect(`${second.out}${second.err}`).not.toContain(PASSWORD);
    // The first goes on until its tournament is removed under it, then ends saying so.
    expect((await run('queue', 'clean', '--queue', redis.url, '--tournament', id)).code).toBe(0);
    const err = await failed;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^the tournament was removed from Redis while it ran \(`arena queue clean`\?\): the games logged so far are kept; continue with `arena tournament --resume /);
  });

  it('a bot from a folder outside the package, importing take-arena, is bundled for the workers', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'outsider.ts'), "import { defineBot } from 'take-arena';\nexport default defineBot({ name: 'outsider', description: 'lives outside the package', choose: ({ moves }) => moves[0] });\n");
    const spec = validateSpec({ ...SMALL, bots: ['outsider', 'greedy'], deals: 1, out: tempDir() });
    const worker = new QueueWorker({ url: redis.url, id: 'w', lockMs: 5000, pollMs: 200, isolation: 'none' });
    await worker.start();
    try {
      const { summary } = await runTournament(prepareTournament(spec, await discoverBots([dir])), { executor: queueExecutor(redis.url) });
      expect(summary.complete).toBe(true);
      expect(readLog(summary.dir).map((r) => r.termination)).toEqual(['normal', 'normal']);
    } finally {
      await worker.stop(true);
    }
  });

  it('a worker refused its password exits with one line at once, and one refused it later stops saying so', async () => {
    const bad = `redis://:not-the-password@127.0.0.1:${redis.port}`;
    const child = spawn(process.execPath, [ARENA, 'worker', '--queue', bad], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.resume();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(err.trim()).toMatch(new RegExp(`^arena: Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port} refused the credentials \\(WRONGPASS[^)]*\\): give its password in the URL`));
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).not.toContain('not-the-password');
    // Connected, then the password changes under it (a Redis restarted with another one): it gives up with the same line.
    const worker = new QueueWorker({ url: redis.url, id: 'w', pollMs: 200 });
    await worker.start();
    const admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    admin.on('error', () => {});
    try {
      await admin.config('SET', 'requirepass', 'another-password');
      await admin.call('CLIENT', 'KILL', 'TYPE', 'normal');
      const why = await Promise.race([worker.failed, new Promise((resolve) => setTimeout(() => resolve(null), 10_000))]);
      expect(String(why)).toMatch(/refused the credentials \((WRONGPASS|NOAUTH)/);
    } finally {
      const restore = new Redis(`redis://:another-password@127.0.0.1:${redis.port}`);
      restore.on('error', () => {});
      await restore.config('SET', 'requirepass', PASSWORD);
      restore.disconnect();
      admin.disconnect();
      await worker.stop(true);
    }
  });

  it('a pair whose external bot is missing on one worker is played by a worker that has it; missing on every worker, the run ends naming the pair and why', async () => {
    const external = join(ROOT, 'test', 'fixtures', 'external');
    const lines: string[] = [];
    const has = new QueueWorker({ url: redis.url, id: 'has', lockMs: 5000, pollMs: 200, botDirs: [external] });
    const lacks = new QueueWorker({ url: redis.url, id: 'lacks', lockMs: 5000, pollMs: 200, log: (l) => lines.push(l) });
    await Promise.all([has.start(), lacks.start()]);
    try {
      const spec = validateSpec({ name: 'routed', seed: 5, games: ['subtraction{n=20..40}'], bots: ['fx-ext-first', 'random'], deals: 6, out: tempDir() });
      const { summary } = await runTournament(prepareTournament(spec, await discoverBots([external])), { executor: queueExecutor(redis.url) });
      expect(summary.complete).toBe(true);
      const log = readLog(summary.dir);
      expect(log).toHaveLength(12);
      // Played at once where they could be: a worker leaving a pair to another is no retry.
      expect(log.every((r) => r.worker === 'has' && r.termination === 'normal' && r.retries === undefined)).toBe(true);
      expect(Object.keys(summary.workers ?? {})).toEqual(['has']);
      expect(lines.some((l) => /^refused job p\d+: external bot `fx-ext-first` is not installed on worker lacks \(looked for fx-ext-first\.bot\.json in bots\/\)$/.test(l))).toBe(true);
      // No worker left that has it: the pair is refused by every worker, and the run ends saying so.
      await has.stop(true);
      const alone = validateSpec({ name: 'unplayable', seed: 5, games: ['subtraction{n=20..40}'], bots: ['fx-ext-first', 'random'], deals: 1, out: tempDir() });
      await expect(runTournament(prepareTournament(alone, await discoverBots([external])), { executor: queueExecutor(redis.url) })).rejects.toThrow(
        /^pair 0 failed 5 times \(on lacks\); the last: external bot `fx-ext-first` is not installed on worker lacks/,
      );
    } finally {
      await Promise.all([has.stop(true), lacks.stop(true)]);
    }
  });

  it('a worker that crashes its bots far more than the others is paused: it gets no more jobs, and the dashboard, the summary and the report name it', async () => {
    const external = join(ROOT, 'test', 'fixtures', 'external');
    // A broken machine: its fx-ext-first crashes at every move request.
    const broken = tempDir();
    writeFileSync(join(broken, 'fx-ext-first.bot.json'), JSON.stringify({ name: 'fx-ext-first', description: 'broken here', command: ['sh', join(external, 'fx-ext.sh'), 'exit'] }));
    const badLines: string[] = [];
    const good = new QueueWorker({ url: redis.url, id: 'good', lockMs: 5000, pollMs: 200, botDirs: [external] });
    const bad = new QueueWorker({ url: redis.url, id: 'bad', lockMs: 5000, pollMs: 200, botDirs: [broken], log: (l) => badLines.push(l) });
    await Promise.all([good.start(), bad.start()]);
    const events: ArenaEvent[] = [];
    try {
      const spec = validateSpec({ name: 'health', seed: 9, games: ['subtraction{n=20..40}'], bots: ['fx-ext-first', 'random'], deals: 16, out: tempDir() });
      const { summary } = await runTournament(prepareTournament(spec, await discoverBots([external])), {
        executor: queueExecutor(redis.url, { pause: { minGames: 4, share: 0.25 } }),
        sink: { emit: (e) => events.push(e) },
      });
      expect(summary.complete).toBe(true);
      const paused = events.flatMap((e) => (e.type === 'queue-problem' && /^paused: /.test(e.reason) ? [`${e.worker}: ${e.reason}`] : []));
      expect(paused).toHaveLength(1);
      expect(paused[0]).toMatch(/^bad: paused: (\d+) of its \1 games lost by a crash or on time \(100 %; the other workers 0 %\); it gets no more jobs$/);
      expect(badLines.some((l) => /^tournament \S+ paused this worker: \d+ of its \d+ games lost by a crash or on time/.test(l))).toBe(true);
      const workers = summary.workers!;
      expect(workers['bad']!.paused).toMatch(/^\d+ of its \d+ games lost by a crash or on time/);
      expect(workers['good']!.paused).toBeUndefined();
      // From its pause on, its results were refused (played again by the good worker): its count stopped there.
      expect(workers['bad']!.games).toBe(Number(/of its (\d+) games/.exec(paused[0]!)![1]));
      expect(workers['good']!.games + workers['bad']!.games).toBe(32);
      // The dashboard's last word on the workers is the run's end: every game folded, the bad one paused.
      const last = events.filter((e) => e.type === 'queue-status').at(-1);
      expect(last?.type === 'queue-status' && Object.fromEntries(last.workers.map((w) => [w.id, [w.games, w.state]]))).toEqual({ good: [workers['good']!.games, expect.any(String)], bad: [workers['bad']!.games, 'paused'] });
      expect(last?.type === 'queue-status' && workersText(last)).toMatch(/bad \d+ games \(\d+ s, paused\)/);
      // The report's page names it too, from summary.json.
      const html = await reportHtml(loadReportData(summary.dir, boardView));
      expect(html).toMatch(/worker health.*bad: \d+ games, \d+ crash(es)?, [^;]*PAUSED: \d+ of its \d+ games lost by a crash or on time/s);
    } finally {
      await Promise.all([good.stop(true), bad.stop(true)]);
    }
  });

  it('queue status shows each worker\'s health for a tournament: games, crashes, time losses, mean move time, its check, a pause', () => {
    const status = {
      url: 'redis://127.0.0.1:6379',
      tournaments: [
        {
          id: 't-1',
          name: 't',
          dir: '/r/t-1',
          total: 10,
          host: 'h',
          pid: 1,
          pairs: { waiting: 0, active: 1, failed: 0 },
          results: 0,
          problems: 0,
          running: false,
          refused: ['mallory'],
          workers: {
            w1: { games: 6, crashes: 1, timeouts: 2, illegal: 0, meanMoveMs: 0.4, paused: '3 of its 6 games lost by a crash or on time (50 %; the other workers 0 %)' },
            w2: { games: 12, crashes: 0, timeouts: 0, illegal: 1, meanMoveMs: 12, check: { chi2: 11.5, df: 2, p: 0.00318, outlier: false } },
          },
        },
      ],
      workers: [],
    };
    expect(formatQueueStatus(status).split('\n').slice(1, 6)).toEqual([
      'tournament t-1 (t; coordinator h pid 1, not running; results in /r/t-1)',
      '  pairs: 0 waiting, 1 being played, 0 failed; results not yet folded: 0',
      '  refused workers: mallory',
      '  worker w1: 6 games, 1 crash, 2 time losses, 0.4 ms a move, PAUSED: 3 of its 6 games lost by a crash or on time (50 %; the other workers 0 %)',
      '  worker w2: 12 games, 1 illegal move, 12 ms a move, results vs the others: chi-square 11.5 on 2 df, p 0.00318',
    ]);
  });
});
