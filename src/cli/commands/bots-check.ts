import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { visible } from '../../core/text.ts';
import { checkBot, checkVariants, DEFAULT_CHECK, discoverBots, loadBotFileOrThrow, resolveBot, tempStderrLogPath, type BotEntry, type CheckRow } from '../../hosting/index.ts';
import { flagValue, integerFlag, SEED_FLAG } from '../flags.ts';
import { RUN, type WithRun } from '../io.ts';
import { CLOCK_KINDS, clockNote, type ClockKind } from '../../platform/cpu-clock.ts';

type Args = WithRun<{ bot: string; 'bots-dir': string[]; time: string; positions: string; seed: string; isolation: 'worker' | 'none'; family: string[]; clock: ClockKind }>;

/** The ranges of the check's numeric flags. */
const TIME_MS = integerFlag(z.number().int().min(1).max(600_000));
const POSITIONS = integerFlag(z.number().int().min(1).max(1000));
const SEED = SEED_FLAG;

/** A path rather than a name: it has a folder separator or a module extension. */
function looksLikeFile(text: string): boolean {
  return /[\\/]/.test(text) || /\.(ts|js|mjs)$/.test(text) || text.endsWith('.bot.json');
}

/** Renders the check's rows as an aligned table. */
export function checkTable(rows: readonly CheckRow[], positions: number): string {
  const head = ['family', 'variant', 'result', 'positions', 'slowest', 'detail'];
  const body = rows.map((r) => [
    r.family,
    r.variant,
    r.status === 'pass' ? 'pass' : r.status === 'fail' ? 'FAIL' : 'skip',
    r.status === 'skip' ? '-' : `${r.positions}/${positions}`,
    r.status === 'skip' ? '-' : `${Math.ceil(r.maxMs)} ms`,
    // What the bot answered or threw, shown with its control characters made visible.
    visible(r.detail),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

/** `arena bots check <name|file>`: the conformance check a bot should pass before a tournament. */
export const botsCheckCommand: CommandModule<object, Args> = {
  command: 'check <bot>',
  describe: 'Check a bot (by name, name:options or file): legal moves in time, no mutation, same answer for a seed',
  builder: (y: Argv) =>
    y
      .positional('bot', { type: 'string', describe: 'bot name (with :key=value options) or path to a bot file or .bot.json manifest' })
      .option('bots-dir', { type: 'string', array: true, default: [], describe: 'another folder of bot files (repeatable)' })
      .option('family', { type: 'string', array: true, default: [], describe: 'check only this game family (repeatable)' })
      .option('time', { type: 'string', default: String(DEFAULT_CHECK.timeMs), describe: 'time per move, ms' })
      .option('positions', { type: 'string', default: String(DEFAULT_CHECK.positions), describe: 'positions per variant' })
      .option('seed', { type: 'string', default: String(DEFAULT_CHECK.seed), describe: 'seed of the positions and the bot rng' })
      .option('isolation', {
        type: 'string',
        default: DEFAULT_CHECK.isolation,
        choices: ['worker', 'none'] as const,
        describe: 'worker: a hung bot is stopped; none: in-process only (faster)',
      })
      .option('clock', {
        type: 'string',
        default: DEFAULT_CHECK.clock,
        choices: CLOCK_KINDS,
        describe: "what a move is charged: cpu (the bot's CPU time, so a busy machine fails no move) or wall (the time that passed)",
      }) as unknown as Argv<Args>,
  async handler(args) {
    const timeMs = flagValue('`--time`', TIME_MS, args.time);
    const positions = flagValue('`--positions`', POSITIONS, args.positions);
    const seed = flagValue('`--seed`', SEED, args.seed);
    const out = args[RUN].io;
    let entry: BotEntry;
    let options: Readonly<Record<string, unknown>> = {};
    // Discovery asks the bot's `supports` about the check's variants at once (in its child process).
    const discovery = { variants: checkVariants(args.family).flatMap((v) => (v.game ? [v.game.id] : [])) };
    if (looksLikeFile(args.bot)) {
      entry = await loadBotFileOrThrow(args.bot, discovery);
      options = resolveBot({ bots: [entry], problems: [] }, entry.name).options;
    } else {
      const choice = resolveBot(await discoverBots(args['bots-dir'], discovery), args.bot);
      entry = choice.entry;
      options = choice.options;
    }
    const note = clockNote(args.clock);
    if (note !== null) out.err(`Note: ${note}`);
    out.out(`checking ${entry.name} (${entry.file}): ${positions} positions per variant, ${timeMs} ms ${args.clock === 'cpu' && note === null ? 'of CPU time ' : ''}per move`);
    let stderrLog: string | undefined;
    if (entry.transport === 'process') {
      stderrLog = tempStderrLogPath(entry.name);
      out.out(visible(`running: ${entry.command.join(' ')} (in ${entry.cwd}); its stderr goes to ${stderrLog}`));
    }
    const rows = await checkBot(entry, options, { timeMs, positions, seed, isolation: args.isolation, families: args.family, clock: args.clock, ...(stderrLog ? { stderrLog } : {}) });
    out.out(checkTable(rows, positions));
    const failed = rows.filter((r) => r.status === 'fail').length;
    const played = rows.filter((r) => r.status !== 'skip').length;
    const variants = (n: number): string => `${n} variant${n === 1 ? '' : 's'}`;
    if (failed > 0) {
      out.out(`${entry.name}: FAILED on ${failed} of ${variants(played)}`);
      args[RUN].exitCode = 1;
    } else if (played === 0) {
      out.out(`${entry.name}: supports none of the registered variants`);
      args[RUN].exitCode = 1;
    } else {
      out.out(`${entry.name}: passed on ${variants(played)}${rows.length > played ? ` (${rows.length - played} skipped)` : ''}`);
    }
  },
};
