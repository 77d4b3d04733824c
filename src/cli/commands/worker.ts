import type { Argv, CommandModule } from 'yargs';
import { parseQueueUrl } from '../../arena/queue/url.ts';
import { UsageError, show } from '../../core/errors.ts';
import { io } from '../io.ts';
import { intFlag } from '../run-tournament.ts';

type Args = { queue?: string; concurrency?: string; 'bots-dir'?: string[]; name?: string; 'lock-ms'?: string };

/** `arena worker --queue redis://…`: plays the game pairs of queued tournaments until Ctrl-C. */
export const workerCommand: CommandModule<object, Args> = {
  command: 'worker',
  describe: 'Play the games of queued tournaments (arena tournament --queue) from a Redis queue, on this machine',
  builder: (y: Argv) =>
    y
      .option('queue', { type: 'string', describe: 'the Redis of the tournaments: redis://host:6379[/db]' })
      .option('concurrency', { type: 'string', describe: 'game pairs played at once per tournament (default 1)' })
      .option('bots-dir', { type: 'string', array: true, describe: 'extra folder of bots (external bots must be installed here under their names)' })
      .option('name', { type: 'string', describe: 'this worker\'s name on the dashboard (default <host>-<pid>)' })
      .option('lock-ms', { type: 'string', describe: 'how long a job of a worker that stopped answering stays locked before another worker retries it (default 30000)' }) as unknown as Argv<Args>,
  async handler(args) {
    if (args.queue === undefined) throw new UsageError('arena worker needs --queue redis://host:6379 (the Redis of the coordinator, `arena tournament --queue`)');
    const url = parseQueueUrl(Array.isArray(args.queue) ? (args.queue.at(-1) as string) : args.queue);
    const concurrency = intFlag('concurrency', args.concurrency, 1, 256) ?? 1;
    const lockMs = intFlag('lock-ms', args['lock-ms'], 1000, 3_600_000) ?? 30_000;
    if (args.name !== undefined && !/^[\w.-]{1,64}$/.test(args.name)) throw new UsageError(`Expected --name to be letters, digits, '.', '-' or '_', got ${show(args.name)}`);
    const out = io();
    const stamp = (line: string): void => out.out(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
    const { QueueWorker } = await import('../../arena/queue/worker.ts');
    const worker = new QueueWorker({
      url,
      concurrency,
      lockMs,
      botDirs: args['bots-dir'] ?? [],
      log: stamp,
      ...(args.name !== undefined ? { id: args.name } : {}),
    });
    await worker.start();
    stamp(`worker ${worker.id}: waiting for game pairs (${concurrency} at a time); Ctrl-C finishes the pairs in play, twice hands them back`);
    let signals = 0;
    let stopping: Promise<void> | null = null;
    await new Promise<void>((resolve) => {
      const onSignal = (sig: NodeJS.Signals): void => {
        signals++;
        const now = signals > 1 || sig === 'SIGTERM';
        stamp(now ? 'stopping now: the pairs in play go back to the queue' : 'stopping: finishing the pairs in play (Ctrl-C again to hand them back)');
        stopping = worker.stop(now).then(() => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          resolve();
        });
        // The pool's worker threads and Redis sockets hold no promise of ours: once stopped, exit.
        if (now) void stopping.then(() => setTimeout(() => process.exit(130), 100).unref());
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    await stopping;
    stamp('stopped');
  },
};
