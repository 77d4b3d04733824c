import type { Argv, CommandModule } from 'yargs';
import { resumeSpec } from '../../arena/tournament.ts';
import type { TournamentSpec } from '../../arena/spec.ts';
import { UsageError } from '../../core/errors.ts';
import { intFlag, last, runSpecCommand, specFromArgs, type RunArgs } from '../run-tournament.ts';

export { EXIT_INTERRUPTED } from '../run-tournament.ts';

type Args = RunArgs & { spec?: string; resume?: RunArgs['out'] };

/** `arena tournament`: a round robin or a gauntlet of bots over game variants (see docs/TOURNAMENTS.md). */
export const tournamentCommand: CommandModule<object, Args> = {
  command: 'tournament [spec]',
  describe: 'Run a tournament of bots: a round robin or a gauntlet (a spec file in tournaments/, flags override it)',
  builder: (y: Argv) =>
    y
      .positional('spec', { type: 'string', describe: 'tournament spec (JSON), e.g. tournaments/classic.json' })
      .option('bots', { type: 'string', describe: 'bots with options, comma-separated: random,minimax:depth=6 (or all)' })
      .option('games', { type: 'string', describe: 'variants, comma-separated: "subtraction{moves=1,5,8,10;n=50..200},piles"' })
      .option('deals', { type: 'string', describe: 'deals per pairing and variant (each played in both seatings)' })
      .option('seed', { type: 'string', describe: 'master seed' })
      .option('concurrency', { type: 'string', describe: 'games played at once (default: CPU cores)' })
      .option('time-per-move', { type: 'string', describe: 'time limit per move, ms' })
      .option('out', { type: 'string', describe: 'folder for the results folder (default tournaments/results)' })
      .option('resume', { type: 'string', describe: 'continue an interrupted tournament from its results folder' })
      .option('isolation', { type: 'string', describe: 'worker (default: each bot in worker threads), none (in-process, trusted bots) or sandbox (each bot a process in bubblewrap: bots written by others)' })
      .option('bots-dir', { type: 'string', array: true, describe: 'extra folder of bot files' })
      .option('bot-data', { type: 'string', describe: "folder of the bots' stores, one sub-folder per bot (default ~/.cache/take-arena/bot-data)" })
      .option('format', { type: 'string', describe: 'round-robin (default: every pair plays) or gauntlet (--champion against each other bot)' })
      .option('champion', { type: 'string', describe: "a gauntlet's champion, one of --bots (e.g. minimax:depth=6)" })
      .option('sprt', { type: 'string', describe: 'sequential test per gauntlet pairing: elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]' })
      .option('adjudicate', { type: 'boolean', describe: "end a game once the solver knows its exact result (both bots having moved)" })
      .option('plain', { type: 'boolean', default: false, describe: 'plain text output (no dashboard)' })
      .option('json', { type: 'boolean', default: false, describe: 'print summary.json at the end instead of tables' })
      .option('report', { type: 'string', describe: 'write the HTML report when the tournament ends (default: report.html in the results folder)' }) as Argv<Args>,
  async handler(args) {
    let spec: TournamentSpec;
    let where: string;
    let resumeDir: string | undefined;
    if (args.resume !== undefined) {
      const clash = (['spec', 'bots', 'games', 'deals', 'seed', 'time-per-move', 'out', 'isolation', 'bots-dir', 'bot-data', 'format', 'champion', 'sprt', 'adjudicate'] as const).filter(
        (k) => args[k] !== undefined,
      );
      if (clash.length) {
        throw new UsageError(`--resume continues the saved spec; it takes no ${clash.map((k) => (k === 'spec' ? 'spec file' : `--${k}`)).join(', ')}`);
      }
      resumeDir = last(args.resume)!;
      spec = resumeSpec(resumeDir);
      const concurrency = intFlag('concurrency', args.concurrency, 1, 256);
      if (concurrency !== undefined) spec = { ...spec, concurrency };
      where = `${resumeDir}/spec.json`;
    } else {
      ({ spec, where } = specFromArgs(args));
    }
    await runSpecCommand(spec, where, args, resumeDir);
  },
};
