import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { UsageError } from '../../core/errors.ts';
import { splitList } from '../../arena/spec.ts';
import { CHECK_CPU_SECONDS, checkGameFile } from '../../hosting/index.ts';
import { flagValue, integerFlag, SEED_FLAG } from '../flags.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ file: string; variant: string[]; games: string; seed: string; 'cpu-seconds': string; json: boolean }>;

const GAMES = integerFlag(z.number().int().min(1).max(100_000));
const SEED = SEED_FLAG;
const CPU_SECONDS = integerFlag(z.number().int().min(1).max(3600));

/** `arena games check <file>`: the conformance test of a game file; exit code 1 when a check fails. */
export const gamesCheckCommand: CommandModule<object, Args> = {
  command: 'check <file>',
  describe: 'Check a game file: random playouts for pure rules, stable keys, move notation, games that end, a right solver',
  builder: (y: Argv) =>
    y
      .positional('file', { type: 'string', describe: 'the game file (a module that default-exports defineGame({...}))' })
      .option('variant', { type: 'string', array: true, default: [], describe: 'variants to check, e.g. "my-game{rows=3}" (default: the game with its defaults)' })
      .option('games', { type: 'string', default: '200', describe: 'random playouts per variant' })
      .option('seed', { type: 'string', default: '1', describe: 'seed of the deals and the random moves' })
      .option('cpu-seconds', { type: 'string', default: String(CHECK_CPU_SECONDS), describe: 'CPU time the check may use: past it a rule is taken to loop' }) as unknown as Argv<Args>,
  async handler(args) {
    const games = flagValue('`--games`', GAMES, args.games);
    const seed = flagValue('`--seed`', SEED, args.seed);
    const cpuSeconds = flagValue('`--cpu-seconds`', CPU_SECONDS, args['cpu-seconds']);
    const variants = args.variant.flatMap((v) => splitList(v));
    const run = args[RUN];
    const checked = await checkGameFile(args.file, { variants, games, seed, cpuSeconds });
    if ('reason' in checked) throw new UsageError(`Game file ${args.file} ${checked.reason}`);
    const failed = checked.reduce((n, c) => n + c.items.filter((i) => !i.ok).length, 0);
    if (failed > 0) run.exitCode = 1;
    // `--json` is the `games` command's flag: here the report as one document.
    if (args.json) {
      run.io.out(JSON.stringify({ file: args.file, passed: failed === 0, variants: checked }, null, 2));
      return;
    }
    const lines: string[] = [];
    for (const { variant, items } of checked) {
      lines.push(variant);
      for (const item of items) {
        lines.push(`  ${item.ok ? 'pass' : 'FAIL'}  ${item.name}${item.ok ? '' : `: ${item.detail}`}`);
      }
      // The first check's detail, when it passed, is the sample's size.
      if (items[0]?.ok) lines.push(`  (${items[0].detail})`);
    }
    lines.push(failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`);
    run.io.out(lines.join('\n'));
  },
};
