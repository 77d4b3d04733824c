import type { Argv, CommandModule } from 'yargs';
import { resumeSpec } from '../../arena/tournament.ts';
import type { TournamentSpec } from '../../arena/spec.ts';
import { parseQueueUrl } from '../../arena/queue/url.ts';
import { UsageError } from '../../core/errors.ts';
import { intFlag, last, runOptions, runSpecCommand, specFromArgs, type RunArgs } from '../run-tournament.ts';

export { EXIT_INTERRUPTED } from '../run-tournament.ts';

type Args = RunArgs & { spec?: string; resume?: RunArgs['out'] };

/** `arena tournament`: a round robin or a gauntlet of bots over game variants (see docs/TOURNAMENTS.md). */
export const tournamentCommand: CommandModule<object, Args> = {
  command: 'tournament [spec]',
  describe: 'Run a tournament of bots: a round robin or a gauntlet (a spec file in tournaments/, flags override it)',
  builder: (y: Argv) =>
    runOptions(
      y
        .positional('spec', { type: 'string', describe: 'tournament spec (JSON), e.g. tournaments/classic.json' })
        .option('bots', { type: 'string', array: true, nargs: 1, describe: 'bots with options, comma-separated: random,minimax:depth=6 (or all)' })
        .option('format', { type: 'string', describe: 'round-robin (default: every pair plays) or gauntlet (--champion against each other bot)' })
        .option('champion', { type: 'string', describe: "a gauntlet's champion, one of --bots (e.g. minimax:depth=6)" })
        .option('resume', { type: 'string', describe: 'continue an interrupted tournament from its results folder' }),
    ) as Argv<Args>,
  async handler(args) {
    let spec: TournamentSpec;
    let where: string;
    let resumeDir: string | undefined;
    if (args.resume !== undefined) {
      const clash = (['spec', 'bots', 'games', 'deals', 'seed', 'time-per-move', 'tc', 'time-margin', 'out', 'isolation', 'bots-dir', 'bot-data', 'format', 'champion', 'sprt', 'adjudicate'] as const).filter(
        (k) => args[k] !== undefined,
      );
      if (clash.length) {
        throw new UsageError(`--resume continues the saved spec; it takes no ${clash.map((k) => (k === 'spec' ? 'spec file' : `--${k}`)).join(', ')}`);
      }
      resumeDir = last(args.resume)!;
      spec = resumeSpec(resumeDir);
      const concurrency = intFlag('concurrency', args.concurrency, 1, 256);
      if (concurrency !== undefined) spec = { ...spec, concurrency };
      // The Redis may have moved since: --queue on resume overrides the saved one.
      const queue = last(args.queue);
      if (queue !== undefined) spec = { ...spec, queue: parseQueueUrl(queue) };
      where = `${resumeDir}/spec.json`;
    } else {
      ({ spec, where } = specFromArgs(args));
    }
    await runSpecCommand(spec, where, args, resumeDir);
  },
};
