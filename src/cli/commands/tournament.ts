import type { Argv, CommandModule } from 'yargs';
import { resumeSpec } from '../../arena/tournament.ts';
import { UsageError } from '../../core/errors.ts';
import { loadUserGames, savedGameDirs } from '../user-games.ts';
import { FORMATS, runOptions, runSpecCommand, specFromArgs, withFlags, type RunArgs } from '../run-tournament.ts';

/** The flags `--resume` refuses: the saved spec is continued as it is (only `--concurrency` and `--queue`, where the games are played, may change). */
const SPEC_FLAGS_ON_RESUME = ['spec', 'bots', 'games', 'deals', 'seed', 'time-per-move', 'tc', 'time-margin', 'out', 'isolation', 'bots-dir', 'games-dir', 'bot-data', 'format', 'champion', 'sprt', 'adjudicate'] as const;

/** `arena tournament`: a round robin or a gauntlet of bots over game variants (see docs/TOURNAMENTS.md). */
export const tournamentCommand: CommandModule<object, RunArgs> = {
  command: 'tournament [spec]',
  describe: 'Run a tournament of bots: a round robin or a gauntlet (a spec file in tournaments/, flags override it)',
  builder: (y: Argv) =>
    runOptions(
      y
        .positional('spec', { type: 'string', describe: 'tournament spec (JSON), e.g. tournaments/classic.json' })
        .option('bots', { type: 'string', array: true, describe: 'bots with options, comma-separated: random,minimax:depth=6 (or all)' })
        .option('format', { choices: FORMATS, describe: 'round-robin (default: every pair plays) or gauntlet (--champion against each other bot)' })
        .option('champion', { type: 'string', describe: "a gauntlet's champion, one of --bots (e.g. minimax:depth=6)" })
        .option('resume', { type: 'string', describe: 'continue an interrupted tournament from its results folder' }),
    ) as Argv<RunArgs>,
  async handler(args) {
    if (args.resume === undefined) {
      const { spec, where } = await specFromArgs(args);
      return runSpecCommand(spec, where, args);
    }
    const clash = SPEC_FLAGS_ON_RESUME.filter((k) => args[k] !== undefined);
    if (clash.length) {
      throw new UsageError(`--resume continues the saved spec; it takes no ${clash.map((k) => (k === 'spec' ? 'spec file' : `--${k}`)).join(', ')}`);
    }
    const where = `${args.resume}/spec.json`;
    await loadUserGames(savedGameDirs(args.resume));
    await runSpecCommand(withFlags(resumeSpec(args.resume), args, where), where, args, args.resume);
  },
};
