import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { UsageError } from '../../core/errors.ts';
import { readGames } from '../../tui/replay/replay-data.ts';
import { requireTerminal } from './play.ts';
import { flagValue, integerFlag } from '../flags.ts';
import { loadUserGames, savedGameDirs } from '../user-games.ts';
import { EXIT_INTERRUPTED, RUN, type WithRun } from '../io.ts';
import { keyStdin } from '../../tui/ui/key-stdin.ts';
import { loadInk, type ScreenFlags } from '../load-ink.ts';

type Args = WithRun<ScreenFlags & { dir: string; game?: string; plain: boolean }>;

/** `arena replay <results dir> [--game N]`: step through a logged game, each move judged by the solver. */
export const replayCommand: CommandModule<object, Args> = {
  command: 'replay <dir>',
  describe: 'Step through a game of a results folder with the arrow keys, each move judged by the solver',
  builder: (y: Argv) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'a results folder, e.g. tournaments/results/classic-20261122-043525' })
      .option('game', { type: 'string', describe: 'open game number N (as listed: #N) at once' })
      .option('plain', { type: 'boolean', default: false, describe: 'for screen readers: no box drawing, plain ASCII pictures' }) as unknown as Argv<Args>,
  async handler(args) {
    // In a terminal, keys typed while the games and bots load wait for the screen (not echoed).
    if (args[RUN].io.isTTY) keyStdin();
    // The games of the tournament's `gameDirs` (its saved spec), besides games/ and --games-dir.
    await loadUserGames(savedGameDirs(args.dir));
    const records = readGames(args.dir);
    if (records.length === 0) throw new UsageError(`No finished games in ${args.dir} yet`);
    let initial: number | undefined;
    if (args.game !== undefined) {
      const numbers = records.map((r) => r.index + 1);
      const game = integerFlag(z.number().refine((n) => numbers.includes(n)));
      const n = flagValue('`--game`', game, args.game, `a game number in the log (${Math.min(...numbers)} to ${Math.max(...numbers)})`);
      initial = numbers.indexOf(n);
    }
    if (!requireTerminal(args[RUN], 'replay')) return;
    const { render, createElement, screen, ReplayApp } = await loadInk(args);
    const app = render(screen(createElement(ReplayApp, { records, ...(initial !== undefined ? { initial } : {}) })));
    await app.waitUntilExit();
    // Ctrl-C quits the screen as q does, and the exit code says it was an interrupt (as a tournament's does).
    if (keyStdin()?.interrupted) args[RUN].exitCode = EXIT_INTERRUPTED;
  },
};
