/**
 * A user's game (games/, --games-dir) on a worker whose floor is the sandbox: the game's file
 * travels as a bundle, the worker loads it, and every sandboxed bot process gets it in its own
 * bundle (the only file it can read). The game's rules run in the worker's own process (its
 * referee's), so such a worker takes a game only from a job its coordinator signed. A bot's bundle
 * runs only inside the sandbox there, even while it loads. Real redis-server, real `arena worker
 * --isolation sandbox`, real bubblewrap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialOf, credentialText } from '../../../src/arena/queue/auth.ts';
import { queueExecutor } from '../../../src/arena/queue/coordinator.ts';
import { QueueWorker } from '../../../src/arena/queue/worker.ts';
import { BUILTIN_BOTS_DIR, loadBotFile, loadGameDirs } from '../../../src/hosting/index.ts';
import { sandboxProblem } from '../../../src/platform/sandbox.ts';
import { readLog, tempDir } from '../helpers.ts';
import { freePort, HAVE_REDIS, TestRedis } from '../redis-server.ts';
import { botsOf, comparableDir, runWith } from './queue-helpers.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ARENA = join(ROOT, 'bin', 'arena.mjs');
/** The tournaments' key of these tests. */
const KEY = Buffer.from('the key of the sandboxed-worker tests');

/**
 * A bot that tries once, as its module loads, to open a TCP connection to `port` on the loopback,
 * then plays like `random`: wherever its code runs with a network, the listener hears it.
 */
function probeBot(port: number): string {
  return `import { connect } from 'node:net';
import { defineBot } from 'take-arena';

await new Promise((resolve) => {
  const socket = connect(${port}, '127.0.0.1');
  const done = () => (socket.destroy(), resolve(undefined));
  socket.once('connect', done);
  socket.once('error', done);
  setTimeout(done, 2000);
});

export default defineBot({
  name: 'net-probe',
  description: 'fixture: reaches for the network as it loads, then plays a random move',
  choose: ({ moves, rng }) => rng.pick(moves),
});
`;
}

// Skipped only on a developer machine without redis-server or bubblewrap: CI installs both, and fails without them.
describe.skipIf((!HAVE_REDIS || sandboxProblem() !== null) && !process.env['CI'])("a user's game on a sandboxed worker", () => {
  let redis: TestRedis;
  let listener: Server;
  let port = 0;
  /** Connections the probe bot made. */
  let reached = 0;

  beforeAll(async () => {
    redis = await TestRedis.start();
    port = await freePort();
    listener = createServer((socket) => {
      reached++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
    await redis?.stop();
  });

  it('is played in the sandbox from a signed job, move for move as the local sandboxed run; refused unsigned; no bot code runs outside the sandbox', async () => {
    // A user's folder: a game and a bot, with `take-arena` found as an installed package would be.
    const home = tempDir();
    mkdirSync(join(home, 'node_modules'));
    symlinkSync(ROOT, join(home, 'node_modules', 'take-arena'));
    mkdirSync(join(home, 'games'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'games', 'take.ts'), join(home, 'games', 'take.ts'));
    mkdirSync(join(home, 'bots'));
    const probe = join(home, 'bots', 'net-probe.ts');
    writeFileSync(probe, probeBot(port));
    // Loaded here as the CLI loads --games-dir (the worker process has no copy of the file), and the
    // bots read inside bubblewrap and asked about the game, as the CLI reads them for a sandboxed run.
    await loadGameDirs([join(home, 'games')]);
    const variant = 'take{n=10..20}';
    const registry = await botsOf([probe, join(BUILTIN_BOTS_DIR, 'optimal.ts')], { sandbox: true, variants: [variant] });
    const spec = { name: 'user-game-sandbox', seed: 11, games: [variant], bots: ['net-probe', 'optimal'], deals: 3, isolation: 'sandbox' as const };

    const local = await runWith(registry, spec);
    expect(readLog(local.dir).map((r) => [r.variant, r.termination])).toEqual(Array.from({ length: 6 }, () => [variant, 'normal']));

    // Unsigned, the game could come from anyone who can write to the Redis: refused before anything of it runs.
    const lines: string[] = [];
    const unsigned = new QueueWorker({ url: redis.url, id: 'unsigned', isolation: 'sandbox', lockMs: 5000, pollMs: 200, log: (l) => lines.push(l) });
    await unsigned.start();
    try {
      await expect(runWith(registry, { ...spec, deals: 1 }, { executor: queueExecutor(redis.url) })).rejects.toThrow(
        /^pair 0 failed 5 times \(on unsigned\); the last: the job ships game take, whose rules would run in this worker's own process, outside the sandbox: a worker with --isolation sandbox plays users' games only from signed jobs/,
      );
    } finally {
      await unsigned.stop(true);
    }
    expect(lines.some((l) => /^refused job p0: the job ships game take/.test(l))).toBe(true);

    // Signed by the coordinator, whose credential the worker holds: played in the sandbox.
    const credential = join(tempDir(), 'sandboxed.cred');
    writeFileSync(credential, credentialText(credentialOf(KEY, 'sandboxed')));
    let output = '';
    const worker: ChildProcess = spawn(process.execPath, [ARENA, 'worker', '--queue', redis.url, '--queue-key-file', credential, '--isolation', 'sandbox'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    worker.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const { dir, interrupted } = await runWith(registry, spec, { executor: queueExecutor(redis.url, { key: KEY }) });
      expect(interrupted, output).toBe(false);
      expect(readLog(dir).map((r) => [r.worker, r.termination, r.reason ?? '']), output).toEqual(readLog(local.dir).map(() => ['sandboxed', 'normal', '']));
      expect(comparableDir(dir)).toEqual(comparableDir(local.dir));
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    // Neither the coordinator's discovery, nor the worker, nor any bot process let the probe out.
    expect(reached).toBe(0);
    // The probe does reach the listener where nothing holds it in: read outside bubblewrap.
    expect(await loadBotFile(probe, { cacheDir: null })).toMatchObject({ name: 'net-probe' });
    expect(reached).toBeGreaterThan(0);
  });
});
