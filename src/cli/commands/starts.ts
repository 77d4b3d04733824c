import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { UsageError } from '../../core/errors.ts';
import { parseVariant } from '../../games/index.ts';
import { balancedStarts } from '../../games/starts.ts';
import { writeFileAtomic } from '../../platform/files.ts';
import { flagValue, integerFlag, SEED_FLAG } from '../flags.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ variant: string; balanced: string; depth?: string; seed: string; out?: string }>;

/** Most positions of each kind a suite asks for. */
const MAX_BALANCED = 10_000;
const BALANCED = integerFlag(z.number().int().min(1).max(MAX_BALANCED));
const DEPTH = integerFlag(z.number().int().min(1)).optional();
const SEED = SEED_FLAG;

/**
 * `arena starts <variant> --balanced N [--depth D] [--seed S] [--out FILE]`: a start suite chosen
 * by the exact solver, each line with the solver's verdict as a comment (src/games/starts.ts).
 */
export const startsCommand: CommandModule<object, Args> = {
  command: 'starts <variant>',
  describe: "Write a suite of start positions chosen by the exact solver (for --starts): N first-player wins and N losses, each line citing the solver's verdict",
  builder: (y: Argv) =>
    y
      .positional('variant', { type: 'string', describe: 'the variant whose positions are drawn, e.g. "subtraction{moves=1,5,8,10;n=50..200}"' })
      .option('balanced', {
        type: 'string',
        demandOption: true,
        describe: 'N: N positions the first player wins and N it loses; in scored games (End Game, coins on points) the 2N of exact value nearest 0',
      })
      .option('depth', { type: 'string', describe: 'instead: 2N positions whose game lasts exactly D plies when both sides play the solver\'s moves' })
      .option('seed', { type: 'string', default: '1', describe: 'seed of the positions drawn (the same seed writes the same suite)' })
      .option('out', { type: 'string', describe: 'write the suite to this file (default: stdout)' }) as unknown as Argv<Args>,
  handler(args) {
    const { io } = args[RUN];
    const game = parseVariant(args.variant);
    const count = flagValue('`--balanced`', BALANCED, args.balanced);
    const depth = flagValue('`--depth`', DEPTH, args.depth);
    const seed = flagValue('`--seed`', SEED, args.seed);
    const suite = balancedStarts(game, { count, seed, ...(depth !== undefined ? { depth } : {}) });
    const width = Math.max(...suite.lines.map((l) => l.text.length));
    const text = [...suite.header.map((h) => `# ${h}`), ...suite.lines.map((l) => `${l.text.padEnd(width)}  # ${l.comment}`)].join('\n');
    if (args.out === undefined) return io.out(text);
    try {
      writeFileAtomic(args.out, `${text}\n`);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(err));
      throw new UsageError(`Cannot write the suite to ${args.out}: ${why}`);
    }
    io.out(`${suite.lines.length} start positions of ${game.id} in ${resolve(args.out)}`);
  },
};
