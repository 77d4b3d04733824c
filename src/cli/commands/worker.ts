import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { parseQueueUrl } from '../../arena/queue/url.ts';
import { DEFAULT_ISOLATION_FLOOR, parseCredential, QUEUE_KEY_ENV, WORKER_NAME } from '../../arena/queue/auth.ts';
import { UsageError } from '../../core/errors.ts';
import type { Isolation } from '../../hosting/index.ts';
import { sandboxProblem } from '../../platform/sandbox.ts';
import { queueKey } from '../queue-key.ts';
import { visible } from '../../core/text.ts';
import { flagValue, integerFlag } from '../flags.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ queue?: string; concurrency?: string; 'bots-dir'?: string[]; name?: string; 'lock-ms'?: string; isolation: Isolation; 'queue-key-file'?: string }>;

/** The worker's flags, read by their schemas. */
const CONCURRENCY = integerFlag(z.number().int().min(1).max(256)).default(1);
const LOCK_MS = integerFlag(z.number().int().min(1000).max(3_600_000)).default(30_000);
const NAME = z.string().regex(WORKER_NAME).optional();

/** `arena worker --queue redis://…`: plays the game pairs of queued tournaments until Ctrl-C. */
export const workerCommand: CommandModule<object, Args> = {
  command: 'worker',
  describe: 'Play the games of queued tournaments (arena tournament --queue) from a Redis queue, on this machine',
  builder: (y: Argv) =>
    y
      .option('queue', { type: 'string', describe: 'the Redis of the tournaments: redis://host:6379[/db]' })
      .option('concurrency', { type: 'string', describe: 'game pairs played at once per tournament (default 1)' })
      .option('bots-dir', { type: 'string', array: true, describe: 'extra folder of bots (external bots must be installed here under their names)' })
      .option('name', { type: 'string', describe: "this worker's name (default: its credential's, else <host>-<pid>); two live workers never share one" })
      .option('lock-ms', { type: 'string', describe: 'how long a job of a worker that stopped answering stays locked before another worker retries it (default 30000)' })
      .option('isolation', {
        choices: ['none', 'worker', 'sandbox'] as const,
        default: DEFAULT_ISOLATION_FLOOR,
        describe:
          "the least isolation a job may ask for its bots; jobs asking less are refused. Default worker: none would run a job's bot inside this process; sandbox (bubblewrap) is what a worker open to other people's bots must use, since a bot under worker can open network connections",
      })
      .option('queue-key-file', {
        type: 'string',
        describe: `file holding this worker's credential (\`arena queue credential --name NAME\` on the coordinator's machine) or the tournaments' key (else $TAKE_ARENA_QUEUE_KEY): only jobs signed by the coordinator are played, and results are signed with it`,
      }) as unknown as Argv<Args>,
  async handler(args) {
    if (args.queue === undefined) throw new UsageError('arena worker needs --queue redis://host:6379 (the Redis of the coordinator, `arena tournament --queue`)');
    const url = parseQueueUrl(args.queue);
    const concurrency = flagValue('--concurrency', CONCURRENCY, args.concurrency);
    const lockMs = flagValue('--lock-ms', LOCK_MS, args['lock-ms']);
    const name = flagValue('--name', NAME, args.name, "letters, digits, '.', '-' or '_'");
    const secret = queueKey(args['queue-key-file']);
    // A credential (this worker's name and secret) or the tournaments' key itself.
    const credential = secret ? parseCredential(secret.toString('utf8')) : null;
    const key = credential ? null : secret;
    if (credential && name !== undefined && name !== credential.name) throw new UsageError(`Expected --name ${credential.name}, the name of the credential in ${args['queue-key-file'] ?? QUEUE_KEY_ENV}, got ${name}`);
    if (args.isolation === 'sandbox') {
      const problem = sandboxProblem();
      if (problem !== null) throw new UsageError(`--isolation sandbox needs a working bubblewrap: ${problem}`);
    }
    const out = args[RUN].io;
    // Its lines may quote a bot (why it could not start): control characters made visible.
    const stamp = (line: string): void => out.out(visible(`[${new Date().toISOString().slice(11, 19)}] ${line}`));
    const { QueueWorker } = await import('../../arena/queue/worker.ts');
    const worker = new QueueWorker({
      url,
      concurrency,
      lockMs,
      botDirs: args['bots-dir'] ?? [],
      log: stamp,
      key,
      credential,
      isolation: args.isolation,
      ...(name !== undefined ? { id: name } : {}),
    });
    await worker.start();
    stamp(`worker ${worker.id}: waiting for game pairs (${concurrency} at a time; isolation at least ${args.isolation}; ${secret ? 'signed jobs only' : `unsigned jobs only: no key (${QUEUE_KEY_ENV})`}); Ctrl-C finishes the pairs in play, twice hands them back`);
    let signals = 0;
    let stopping: Promise<void> | null = null;
    let failure: Error | null = null;
    let stopped!: () => void;
    const asked = new Promise<void>((resolve) => (stopped = resolve));
    const onSignal = (sig: NodeJS.Signals): void => {
      signals++;
      const now = signals > 1 || sig === 'SIGTERM';
      stamp(now ? 'stopping now: the pairs in play go back to the queue' : 'stopping: finishing the pairs in play (Ctrl-C again to hand them back)');
      const stop = worker.stop(now);
      stopping ??= stop;
      stopped();
      // The bots' processes and Redis sockets hold no promise of ours: once stopped, exit.
      if (now) void stop.then(() => setTimeout(() => process.exit(130), 100).unref());
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // Given up on its own (Redis refused the credentials): stopped, and said in one line below.
    void worker.failed.then((err) => {
      failure = err;
      stopping ??= worker.stop(true);
      stopped();
    });
    await asked;
    await stopping;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (failure) throw failure;
    stamp('stopped');
  },
};
