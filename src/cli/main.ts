import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../platform/paths.ts';
import { ArenaError, UsageError } from '../core/errors.ts';
import type { CommandModule } from 'yargs';
import { io } from './io.ts';
import { setThemeFromCli } from './load-ink.ts';
import { checkFlags, failureMessage, lastOfRepeated, type DeclaredOptions, type FailureContext } from './strict.ts';

/** The package's version, for `--version`. */
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Every CLI command, one module each under `src/cli/commands/`, loaded only when it runs: a
 * command's module brings in what it needs (the games and solvers, the tournament, Ink), and
 * `arena --help` or one command should not pay for all of them. The usage line and description
 * here are what `arena --help` lists; a test checks them against each module's own.
 */
export const COMMANDS: readonly LazyCommand[] = [
  { command: 'games', describe: 'List the game families, their parameters, defaults and move notation', load: async () => (await import('./commands/games.ts')).gamesCommand },
  {
    command: 'analyze <family>',
    describe: 'Exact analysis: P-positions / classes / nim-values up to N, or one position with its best move',
    load: async () => (await import('./commands/analyze.ts')).analyzeCommand,
  },
  {
    command: 'bots',
    describe: 'List the bots in bots/ (and --bots-dir folders): modules and .bot.json external programs, options, families',
    load: async () => (await import('./commands/bots.ts')).botsCommand,
  },
  {
    command: 'new-bot <name>',
    describe: 'Write bots/<name>.ts from a commented template that passes `arena bots check`',
    load: async () => (await import('./commands/new-bot.ts')).newBotCommand,
  },
  {
    command: 'play [variant]',
    describe: 'Play a game against a bot in the terminal (menus for whatever is not given)',
    load: async () => (await import('./commands/play.ts')).playCommand,
  },
  {
    command: 'replay <dir>',
    describe: 'Step through a game of a results folder with the arrow keys, each move judged by the solver',
    load: async () => (await import('./commands/replay.ts')).replayCommand,
  },
  {
    command: 'report <dir>',
    describe: 'Write a self-contained HTML report of a results folder: charts, the exact first-mover advantage, every game replayable',
    load: async () => (await import('./commands/report.ts')).reportCommand,
  },
  {
    command: 'tournament [spec]',
    describe: 'Run a tournament of bots: a round robin or a gauntlet (a spec file in tournaments/, flags override it)',
    load: async () => (await import('./commands/tournament.ts')).tournamentCommand,
  },
  {
    command: 'match <a> <b>',
    describe: 'Play bot A against bot B in pairs of games (both seatings of each deal); with --sprt, until a sequential test decides',
    load: async () => (await import('./commands/match.ts')).matchCommand,
  },
  {
    command: 'worker',
    describe: 'Play the games of queued tournaments (arena tournament --queue) from a Redis queue, on this machine',
    load: async () => (await import('./commands/worker.ts')).workerCommand,
  },
  {
    command: 'queue <action>',
    describe: 'Show (status) or remove (clean) what queued tournaments and workers keep in Redis',
    load: async () => (await import('./commands/queue.ts')).queueCommand,
  },
];

/** A command as `arena --help` lists it, and how to load its module. */
export interface LazyCommand {
  /** The usage line, e.g. `tournament [spec]`: its first word is the command's name. */
  readonly command: string;
  readonly describe: string;
  /** The command's module (a yargs `CommandModule`, each typed with its own arguments). */
  readonly load: () => Promise<Pick<CommandModule, 'command' | 'describe'>>;
}

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

/** The part of the yargs instance a middleware receives that strict checking reads (yargs' typings omit it). */
interface CommandContext {
  getOptions(): DeclaredOptions;
  getStrict(): boolean;
  getStrictOptions(): boolean;
}

/** Before validation, inside each command: unknown flags fail with the closest one, repeated scalars keep the last value. */
function strictMiddleware(words: readonly string[]) {
  return (parsed: Record<string, unknown>, y: CommandContext): void => {
    const options = y.getOptions();
    if (y.getStrict() || y.getStrictOptions()) checkFlags(words, options);
    lastOfRepeated(parsed, options);
    const theme = parsed['theme'];
    if (theme === 'light' || theme === 'dark' || theme === 'auto') setThemeFromCli({ theme });
  };
}

/** A yargs validation failure, with what its message needs from the command it happened in. */
class ParseFailure extends Error {
  constructor(
    message: string,
    readonly usage: string | undefined,
    readonly commands: readonly string[],
  ) {
    super(message);
  }
}

/** The part of yargs' internals that caches a command's help text (yargs' typings omit it). */
interface HelpCacheInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } | undefined } | undefined;
}

/**
 * yargs renders the running command's whole help page right after starting its handler (before
 * the handler's first await resumes), to keep it for a failure that would print help: about 15 ms
 * of text layout before a tournament's first frame. Our `.fail()` never prints help and no command
 * shows help from its handler, so that page is never read; `--help` renders its own as before.
 * Skipped when yargs' internals are not as expected (then the page is rendered, as before).
 */
function skipHelpCache(parser: object): void {
  const usage = (parser as HelpCacheInternals).getInternalMethods?.()?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
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
  const words = joinNegativeValues(argv);
  const parser = yargs(words)
    .scriptName('arena')
    .usage('$0 <command> [options]\n\nA terminal arena for two-player take-away games.')
    // English messages whatever the locale: the failure handler below reads them.
    .locale('en')
    .strict()
    .parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false })
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(VERSION)
    .alias('v', 'version')
    .option('theme', {
      choices: ['auto', 'light', 'dark'],
      global: true,
      describe: 'colours for a light or dark terminal background (auto: from COLORFGBG, else dark; also ARENA_THEME)',
    })
    .wrap(Math.min(100, process.stdout.columns || 100))
    // Runs inside each command with that command's own options, before yargs validates.
    .middleware(strictMiddleware(words) as never, true)
    .fail((msg, err, usage) => {
      if (err) throw err;
      // The failure stops the parse here (a command must not run after it); the message is written below.
      const context = usage as unknown as FailureContext;
      throw new ParseFailure(msg, context.getUsage()[0]?.[0], context.getCommands().map((c) => c[0]));
    });
  skipHelpCache(parser);
  // Only the command being run is loaded; the others are listed for help and for "did you mean".
  const name = argv.find((a) => !a.startsWith('-'));
  for (const c of COMMANDS) {
    if (c.command.split(' ')[0] === name) parser.command((await c.load()) as never);
    else parser.command(c.command, c.describe, {}, () => {});
  }
  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof ParseFailure) {
      // Family ids (for an unquoted variant id the shell expanded) are loaded only on this path.
      const families = (await import('../games/index.ts')).FAMILIES.map((f) => f.id);
      io().err(`arena: ${failureMessage(err.message, words, { usage: err.usage, commands: err.commands }, 'arena', families)}`);
      return EXIT_USAGE;
    }
    if (err instanceof ArenaError) {
      io().err(`arena: ${err.message}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

const isMain = process.argv[1] !== undefined && /[\\/](arena(\.mjs)?|main\.ts)$/.test(process.argv[1]);
if (isMain) {
  // `arena … | head`: the reader went away; stop quietly, as Unix tools do, instead of a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
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
