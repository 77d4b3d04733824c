import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ArenaError } from '../core/errors.ts';
import { analyzeCommand } from './commands/analyze.ts';
import { gamesCommand } from './commands/games.ts';
import { botsCommand } from './commands/bots.ts';
import { newBotCommand } from './commands/new-bot.ts';
import { playCommand } from './commands/play.ts';
import { replayCommand } from './commands/replay.ts';
import { reportCommand } from './commands/report.ts';
import { tournamentCommand } from './commands/tournament.ts';
import { io } from './io.ts';

/** Every CLI command, one module each under `src/cli/commands/`. */
const COMMANDS = [gamesCommand, analyzeCommand, botsCommand, newBotCommand, playCommand, replayCommand, reportCommand, tournamentCommand];

/**
 * Glues `--flag -1 3 9 4` into `--flag=-1 3 9 4`: a value that starts with a minus sign and a digit
 * (a negative number or a row of numbers) would otherwise be read as short options.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (/^--[A-Za-z][\w-]*$/.test(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Exit code for a user's mistake (bad flag, bad spec, unknown name). */
export const EXIT_USAGE = 2;

/**
 * Runs the CLI on an argument list. Resolves to the exit code; a user's mistake prints one line
 * (no stack trace) and gives 2. Only the CLI sets exit codes.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  process.exitCode = undefined;
  // `arena` alone: the home menu in a terminal, the help otherwise.
  if (argv.length === 0) {
    if (io().isTTY) return (await import('./commands/home.ts')).runHomeMenu(runCli);
    argv = ['--help'];
  }
  let failed: number | undefined;
  const parser = yargs(joinNegativeValues(argv))
    .scriptName('arena')
    .usage('$0 <command> [options]\n\nA terminal arena for two-player take-away games.')
    .strictCommands()
    .parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false })
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      io().err(`arena: ${msg}`);
      failed = EXIT_USAGE;
    });
  for (const command of COMMANDS) parser.command(command as never);
  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof ArenaError) {
      io().err(`arena: ${err.message}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  return failed ?? (typeof process.exitCode === 'number' ? process.exitCode : 0);
}

const isMain = process.argv[1] !== undefined && /[\\/](arena(\.mjs)?|main\.ts)$/.test(process.argv[1]);
if (isMain) {
  const args = hideBin(process.argv);
  runCli(args).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      io().err(`arena: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exitCode = 1;
    },
  );
}
