import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../core/errors.ts';
import { loadUserGames, savedGameDirs } from '../user-games.ts';
import { FORMATS, runOptions, runSpecCommand, specFromArgs, withFlags, type RunArgs } from '../run-tournament.ts';

/** The flags `--resume` refuses: the saved spec is continued as it is (only `--concurrency` and `--queue`, where the games are played, may change). */
const SPEC_FLAGS_ON_RESUME = ['spec', 'bots', 'games', 'deals', 'seed', 'time-per-move', 'tc', 'time-margin', 'clock', 'out', 'isolation', 'bots-dir', 'games-dir', 'bot-data', 'format', 'champion', 'sprt', 'adjudicate', 'rounds', 'tiebreak-pairs', 'anchor', 'ratings-in', 'ratings-out'] as const;

/** The start suite's flags, refused on resume too: the saved spec holds the suite and its order. */
const SUITE_FLAGS_ON_RESUME = ['starts', 'starts-order', 'starts-per-pair'] as const;

/** `arena tournament`: a round robin, a gauntlet, a Swiss or a knockout of bots over game variants (see docs/TOURNAMENTS.md). */
export const tournamentCommand: CommandModule<object, RunArgs> = {
  command: 'tournament [spec]',
  describe: 'Run a tournament of bots: a round robin, a gauntlet, a Swiss or a knockout (a spec file in tournaments/, flags override it)',
  builder: (y: Argv) =>
    runOptions(
      y
        .positional('spec', { type: 'string', describe: 'tournament spec (JSON), e.g. tournaments/classic.json' })
        .option('bots', { type: 'string', array: true, describe: 'bots with options, comma-separated: random,minimax:depth=6 (or all); a bot\'s own clock (time odds): minimax:tc=10+0.1, random:time=500 (ms a move)' })
        .option('format', { choices: FORMATS, describe: 'round-robin (default: every pair plays), gauntlet (--champion against each other bot), swiss (--rounds paired by score) or knockout (a seeded bracket)' })
        .option('champion', { type: 'string', describe: "a gauntlet's champion, one of --bots (e.g. minimax:depth=6)" })
        .option('rounds', { type: 'string', describe: 'rounds of a Swiss (fewer than the bots); each round a match of --deals deals of every variant in both seatings' })
        .option('tiebreak-pairs', { type: 'string', describe: 'knockout: extra game pairs a level match plays until one bot leads (default 2), then the higher seed goes through' })
        .option('anchor', { type: 'string', describe: 'pin a bot\'s rating: random=0 shifts every rating so random has 0' })
        .option('ratings-in', { type: 'string', describe: 'ratings file (JSON) whose latest ratings seed a Swiss or knockout' })
        .option('ratings-out', { type: 'string', describe: "ratings file (JSON) to append this tournament's ratings to when it completes" })
        .option('resume', { type: 'string', describe: 'continue an interrupted tournament from its results folder' }),
    ) as Argv<RunArgs>,
  async handler(args) {
    if (args.resume === undefined) {
      const { spec, where } = await specFromArgs(args);
      return runSpecCommand(spec, where, args);
    }
    const clash = [...SPEC_FLAGS_ON_RESUME, ...SUITE_FLAGS_ON_RESUME].filter((k) => args[k] !== undefined);
    if (clash.length) {
      throw new UsageError(`--resume continues the saved spec; it takes no ${clash.map((k) => (k === 'spec' ? 'spec file' : `--${k}`)).join(', ')}`);
    }
    const where = `${args.resume}/spec.json`;
    await loadUserGames(savedGameDirs(args.resume));
    const { resumeSpec } = await import('../../arena/tournament.ts');
    await runSpecCommand(withFlags(resumeSpec(args.resume), args, where), where, args, args.resume);
  },
};
