import type { Argv, CommandModule } from 'yargs';
import { parseQueueUrl } from '../../arena/queue/url.ts';
import { UsageError } from '../../core/errors.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ action?: 'status' | 'clean'; queue?: string; tournament?: string; json: boolean }>;

/** `arena queue status|clean --queue redis://…`: what queued tournaments hold in Redis, and clearing it. */
export const queueCommand: CommandModule<object, Args> = {
  command: 'queue <action>',
  describe: 'Show (status) or remove (clean) what queued tournaments and workers keep in Redis',
  builder: (y: Argv) =>
    y
      .positional('action', { type: 'string', choices: ['status', 'clean'] as const, describe: 'status: tournaments, their queues and the workers; clean: remove them' })
      .option('queue', { type: 'string', describe: 'the Redis: redis://host:6379[/db]' })
      .option('tournament', { type: 'string', describe: 'only this tournament id (as `status` lists them)' })
      .option('json', { type: 'boolean', default: false, describe: 'status as JSON' }) as unknown as Argv<Args>,
  async handler(args) {
    if (args.queue === undefined) throw new UsageError(`arena queue ${args.action} needs --queue redis://host:6379`);
    const url = parseQueueUrl(args.queue);
    const { queueStatus, queueClean, formatQueueStatus } = await import('../../arena/queue/admin.ts');
    const out = args[RUN].io;
    if (args.action === 'status') {
      const status = await queueStatus(url, args.tournament);
      out.out(args.json ? JSON.stringify(status, null, 2) : formatQueueStatus(status));
      return;
    }
    const removed = await queueClean(url, args.tournament);
    out.out(removed.length ? `Removed ${removed.join(', ')}` : 'Nothing to remove');
  },
};
