import type { Argv, CommandModule } from 'yargs';
import { parseQueueUrl } from '../../arena/queue/url.ts';
import { credentialOf, credentialText, QUEUE_KEY_ENV, WORKER_NAME } from '../../arena/queue/auth.ts';
import { UsageError } from '../../core/errors.ts';
import { coordinatorKey } from '../queue-key.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ action?: 'status' | 'clean' | 'credential'; queue?: string; tournament?: string; json: boolean; name?: string; 'queue-key-file'?: string }>;

/** `arena queue status|clean --queue redis://…`: what queued tournaments hold in Redis, and clearing it. */
export const queueCommand: CommandModule<object, Args> = {
  command: 'queue <action>',
  describe: "Show (status) or remove (clean) what queued tournaments and workers keep in Redis, or make a worker's credential",
  builder: (y: Argv) =>
    y
      .positional('action', {
        type: 'string',
        choices: ['status', 'clean', 'credential'] as const,
        describe: "status: tournaments, their queues and the workers; clean: remove them; credential: a worker's credential (--name) made from the tournaments' key, for its --queue-key-file",
      })
      .option('name', { type: 'string', describe: 'credential: the worker it is for' })
      .option('queue-key-file', { type: 'string', describe: `credential: file holding the tournaments' key (else $${QUEUE_KEY_ENV})` })
      .option('queue', { type: 'string', describe: 'the Redis: redis://host:6379[/db]' })
      .option('tournament', { type: 'string', describe: 'only this tournament id (as `status` lists them)' })
      .option('json', { type: 'boolean', default: false, describe: 'status as JSON' }) as unknown as Argv<Args>,
  async handler(args) {
    const out = args[RUN].io;
    if (args.action === 'credential') {
      if (args.name === undefined || !WORKER_NAME.test(args.name)) throw new UsageError(`arena queue credential needs --name, the worker's name (1 to 64 letters, digits, '.', '-' or '_')${args.name === undefined ? '' : `, got ${JSON.stringify(args.name)}`}`);
      const key = coordinatorKey(args['queue-key-file']);
      if (!key) throw new UsageError(`arena queue credential needs the tournaments' key: --queue-key-file FILE or ${QUEUE_KEY_ENV}`);
      out.out(credentialText(credentialOf(key, args.name)));
      return;
    }
    if (args.queue === undefined) throw new UsageError(`arena queue ${args.action} needs --queue redis://host:6379`);
    const url = parseQueueUrl(args.queue);
    const { queueStatus, queueClean, formatQueueStatus } = await import('../../arena/queue/admin.ts');
    if (args.action === 'status') {
      const status = await queueStatus(url, args.tournament);
      out.out(args.json ? JSON.stringify(status, null, 2) : formatQueueStatus(status));
      return;
    }
    const removed = await queueClean(url, args.tournament);
    out.out(removed.length ? `Removed ${removed.join(', ')}` : 'Nothing to remove');
  },
};
