import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { boardView } from '../../tui/boards/board-view.ts';
import { UsageError, show } from '../../core/errors.ts';
import { z } from 'zod';
import { DEFAULT_REPLAYS, writeReport } from '../../report/index.ts';
import { flagValue, integerFlag, refuseReportPath } from '../flags.ts';
import { loadUserGames, savedGameDirs } from '../user-games.ts';
import { RUN, type CliIo, type WithRun } from '../io.ts';

type Args = WithRun<{ dir: string; out?: string; open: boolean; replays?: string }>;

/** `--replays`: a count of games, or `all`. */
const REPLAYS = z.union([z.literal('all').transform(() => Infinity), integerFlag(z.number().int().min(0))]).optional();

/** Opens a file with the desktop's viewer (best effort: a machine without one just has the file). */
function openFile(file: string, io: CliIo): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [file], { stdio: 'ignore', detached: true });
  child.on('error', () => io.err(`Could not open the report with ${cmd}; it is at ${file}`));
  child.unref();
}

/** Writes the report of a results folder and returns its path (shared with `tournament --report`). */
export function reportOf(dir: string, out?: string, replays?: number): Promise<string> {
  return writeReport(dir, out ?? join(dir, 'report.html'), boardView, replays === undefined ? {} : { replays });
}

/** `arena report <results dir> [--out report.html] [--open]`: a self-contained HTML page of a tournament. */
export const reportCommand: CommandModule<object, Args> = {
  command: 'report <dir>',
  describe: 'Write a self-contained HTML report of a results folder: charts, the exact first-mover advantage, every game replayable',
  builder: (y: Argv) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'a results folder, e.g. tournaments/results/classic-20261122-043525' })
      .option('out', { type: 'string', describe: 'the HTML file to write (default: report.html in the results folder)' })
      .option('open', { type: 'boolean', default: false, describe: 'open the report in the default viewer' })
      .option('replays', { type: 'string', describe: `games made replayable, shared over the variants: a number or all (default ${DEFAULT_REPLAYS})` }) as unknown as Argv<Args>,
  async handler(args) {
    if (args.out !== undefined) refuseReportPath(args.out);
    // The games of the tournament's `gameDirs` (its saved spec), besides games/ and --games-dir.
    await loadUserGames(savedGameDirs(args.dir));
    const file = await reportOf(args.dir, args.out, flagValue('--replays', REPLAYS, args.replays, 'a number of games or `all`'));
    args[RUN].io.out(file);
    if (args.open) openFile(file, args[RUN].io);
  },
};
