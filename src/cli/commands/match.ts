import type { Argv, CommandModule } from 'yargs';
import { UsageError, show } from '../../core/errors.ts';
import { runOptions, runSpecCommand, specFromArgs, type RunArgs } from '../run-tournament.ts';

type Args = RunArgs & { a?: string; b?: string };

/** Deals when `--deals` is not given: a cap for a sequential test (it usually stops long before), a short match otherwise. */
export const MATCH_DEALS = { sprt: 5000, plain: 10 } as const;

/**
 * `arena match A B`: a two-bot gauntlet (A is the champion), the short form of
 * `arena tournament --format gauntlet --champion A --bots A,B`; with `--sprt` it stops when the
 * test decides whether A is better than B.
 */
export const matchCommand: CommandModule<object, Args> = {
  command: 'match <a> <b>',
  describe: 'Play bot A against bot B in pairs of games (both seatings of each deal); with --sprt, until a sequential test decides',
  builder: (y: Argv) =>
    runOptions(
      y
        .positional('a', { type: 'string', describe: 'the bot under test, with options (e.g. minimax:depth=6); tc=10+0.1 or time=500 (ms a move) gives it a clock of its own (time odds)' })
        .positional('b', { type: 'string', describe: 'its opponent (options and clock as for A)' }),
    ).option('deals', {
      type: 'string',
      describe: `deals per variant, each played in both seatings (default ${MATCH_DEALS.plain}; ${MATCH_DEALS.sprt} with --sprt); with --starts, plays of each start (default 1)`,
    }) as Argv<Args>,
  async handler(args) {
    const a = args.a ?? '';
    const b = args.b ?? '';
    for (const [name, v] of [
      ['A', a],
      ['B', b],
    ] as const) {
      if (v.trim() === '' || v.includes(',') && !v.includes(':')) throw new UsageError(`Expected bot ${name} to be one bot like \`minimax:depth=6\`, got ${show(v)}`);
    }
    const base = {
      name: 'match',
      bots: [a, b],
      format: 'gauntlet',
      champion: a,
      // With a start suite each start is played once (in both seatings) unless --deals says more.
      ...(args.starts === undefined ? { deals: args.sprt !== undefined ? MATCH_DEALS.sprt : MATCH_DEALS.plain } : {}),
    };
    const { spec, where } = await specFromArgs(args, base);
    await runSpecCommand(spec, where, args);
  },
};
