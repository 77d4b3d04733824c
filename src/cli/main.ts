import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../platform/paths.ts';
import { ArenaError, UsageError } from '../core/errors.ts';
import { visible } from '../core/text.ts';
import type { Argv, CommandModule } from 'yargs';
import { failureMessage, type ParseFailure } from './failure.ts';
import { joinNegativeValues, PARSER_CONFIGURATION } from './argv.ts';
import { processIo, RUN, type CliIo, type CliRun } from './io.ts';

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
    command: 'new-game <name>',
    describe: 'Write games/<name>.ts from a commented template (Kayles) that passes `arena games check`',
    load: async () => (await import('./commands/new-game.ts')).newGameCommand,
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
    command: 'starts <variant>',
    describe: "Write a suite of start positions chosen by the exact solver (for --starts): N first-player wins and N losses, each line citing the solver's verdict",
    load: async () => (await import('./commands/starts.ts')).startsCommand,
  },
  {
    command: 'tournament [spec]',
    describe: 'Run a tournament of bots: a round robin, a gauntlet, a Swiss or a knockout (a spec file in tournaments/, flags override it)',
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
    describe: "Show (status) or remove (clean) what queued tournaments and workers keep in Redis, or make a worker's credential",
    load: async () => (await import('./commands/queue.ts')).queueCommand,
  },
];

/** A command as `arena --help` lists it, and how to load its module. */
export interface LazyCommand {
  /** The usage line, e.g. `tournament [spec]`: its first word is the command's name. */
  readonly command: string;
  readonly describe: string;
  /** The command's module: a yargs `CommandModule` with a builder function, typed with its own arguments. */
  readonly load: () => Promise<Pick<CommandModule, 'command' | 'describe'>>;
}

/** The part of yargs' option table (its public `getOptions()`, which yargs also hands to `.check()`) that the CLI reads. */
interface DeclaredOptions {
  readonly key: Readonly<Record<string, unknown>>;
  readonly alias: Readonly<Record<string, readonly string[]>>;
  readonly array: readonly string[];
  readonly boolean: readonly string[];
}

/** The running command's declared options: yargs' instance holds the running command's table (its typings omit the getter). */
function declaredOptions(parser: Argv): DeclaredOptions {
  return (parser as unknown as { getOptions(): DeclaredOptions }).getOptions();
}

/** The flags of a command as a user types them (`--deals`, `-h`), for "did you mean". */
function flagSpellings(options: DeclaredOptions): string[] {
  const names = new Set<string>(Object.keys(options.key));
  for (const [key, aliases] of Object.entries(options.alias)) for (const a of [key, ...aliases]) names.add(a);
  return [...names].filter((n) => !/[A-Z]/.test(n)).map((n) => (n.length === 1 ? `-${n}` : `--${n}`));
}

const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * Before validation, in the running command: a flag given twice keeps its last value (yargs makes
 * a list of the repeats; a declared list flag keeps them all, joined), and a flag that takes a value
 * has no `--no-` form (yargs would hand the command `false`).
 */
function oneValuePerFlag(parsed: Record<string, unknown>, options: DeclaredOptions): void {
  const lists = new Set(options.array.flatMap((name) => [name, camelCase(name)]));
  const booleans = new Set(options.boolean.flatMap((name) => [name, camelCase(name)]));
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '_' || key === '$0') continue;
    if ((value === false || (Array.isArray(value) && value.includes(false))) && !booleans.has(key)) {
      throw new UsageError(`Unknown option --no-${key}: --${key} takes a value (only yes/no flags have a --no- form)`);
    }
    if (Array.isArray(value) && !lists.has(key)) parsed[key] = value[value.length - 1];
  }
}

/**
 * A command's argument written as an option (`arena bots check greedy --bot=minimax`): yargs would
 * keep the argument and drop the option without a word. Refused, naming how to write it.
 */
function refusePositionalFlags(words: readonly string[], parser: Argv): void {
  const groups = (parser as unknown as { getGroups(): Record<string, readonly string[]> }).getGroups();
  for (const name of groups['Positionals:'] ?? []) {
    if (words.some((w) => w === `--${name}` || w.startsWith(`--${name}=`))) {
      throw new UsageError(`Unknown option --${name}: \`${name}\` is this command's argument; write its value without --${name}`);
    }
  }
}

/** A parse that yargs refused, carried out of yargs to be worded (the help text is rendered as yargs would print it on failure). */
class ParseFailed extends Error {
  constructor(
    readonly failure: Omit<ParseFailure, 'help'>,
    readonly help: Promise<string>,
  ) {
    super(failure.message);
  }
}

/**
 * Words yargs would misread, refused with what was meant: `--` (no command takes words after it;
 * yargs fails on it), and a long option with one dash (`-games`, read as `-g -a -m -e -s`), such as
 * cutechess's `-each tc=…`.
 */
function refuseStrayDashes(words: readonly string[]): void {
  for (const word of words) {
    if (word === '--') throw new UsageError('Unexpected `--`: no command takes words after it; write the command and its options without it (`arena games`)');
    const single = /^-([A-Za-z][\w-]+)(?:=.*)?$/.exec(word);
    if (!single) continue;
    if (single[1] === 'each') throw new UsageError('Unknown option -each: that is cutechess-cli\'s; here a time control is `--tc 10+0.1` and a limit per move `--time-per-move MS`');
    throw new UsageError(`Unknown option ${word}: long options take two dashes (\`-${word.split('=')[0]}\`)`);
  }
}

/** The values of `--games-dir` (`--games-dir D` or `--games-dir=D`, repeatable) among the words (a `--` is refused before). */
function gamesDirFlags(words: readonly string[]): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--games-dir' && words[i + 1] !== undefined) dirs.push(words[++i]!);
    else if (w.startsWith('--games-dir=')) dirs.push(w.slice('--games-dir='.length));
  }
  return dirs;
}

/** Exit code for a user's mistake (bad flag, bad spec, unknown name). */
export const EXIT_USAGE = 2;

/**
 * The parser of one run. Every command is listed; a command's module is loaded by its builder,
 * which yargs runs only for the command being run (`--help` lists them without loading any).
 */
function cliParser(words: readonly string[], io: CliIo): Argv {
  const parser: Argv = yargs()
    .scriptName('arena')
    .usage('$0 <command> [options]\n\nA terminal arena for two-player take-away games.')
    // English messages whatever the locale: failureMessage reads them.
    .locale('en')
    .strict()
    .parserConfiguration(PARSER_CONFIGURATION)
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
    .option('games-dir', {
      type: 'string',
      array: true,
      global: true,
      describe: 'another folder of game files (repeatable; games/ is always read): see docs/WRITE-A-GAME.md',
    })
    .wrap(Math.min(100, io.columns || 100))
    .middleware((parsed) => {
      refusePositionalFlags(words, parser);
      oneValuePerFlag(parsed, declaredOptions(parser));
    }, true)
    .fail((message, err) => {
      if (err) throw err;
      // Thrown, the failure stops the parse here (no command runs after it); runCli words it.
      throw new ParseFailed({ message, words, flags: flagSpellings(declaredOptions(parser)) }, parser.getHelp());
    });
  for (const c of COMMANDS) {
    let loaded: CommandModule | undefined;
    parser.command({
      command: c.command,
      describe: c.describe,
      builder: async (y: Argv) => {
        loaded = (await c.load()) as CommandModule;
        return (loaded.builder as (y: Argv) => Argv)(y);
      },
      handler: (args) => loaded!.handler(args),
    });
  }
  return parser;
}

/**
 * Runs the CLI on an argument list, writing to `io` (the process's streams by default). Resolves to
 * the exit code; a user's mistake prints one line (no stack trace) and gives 2. Only the CLI sets
 * exit codes.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  // `arena` alone: the home menu in a terminal, the help otherwise.
  if (argv.length === 0) {
    if (io.isTTY) return (await import('./commands/home.ts')).runHomeMenu((next) => runCli(next, io), io);
    argv = ['--help'];
  }
  const words = joinNegativeValues(argv);
  const run: CliRun = { io, exitCode: 0 };
  try {
    refuseStrayDashes(words);
    // Users' game families (games/, --games-dir), loaded before the parser is built: every command
    // takes their variants, and `analyze` declares their parameters as flags.
    await (await import('./user-games.ts')).loadUserGames(gamesDirFlags(words));
    // The parse callback receives what yargs prints itself (help, version) instead of the console.
    await cliParser(words, io).parseAsync(words, { [RUN]: run }, (_err, _args, output) => {
      if (output) io.out(output);
    });
  } catch (err) {
    if (err instanceof ParseFailed) {
      // Family ids (for an unquoted variant id the shell expanded) are loaded only on this path.
      const families = (await import('../games/index.ts')).allFamilies().map((f) => f.id);
      io.err(`arena: ${failureMessage({ ...err.failure, help: await err.help }, families)}`);
      return EXIT_USAGE;
    }
    if (err instanceof ArenaError) {
      // One line, which may quote a bot file (why it is not a bot): control characters made visible.
      io.err(`arena: ${visible(err.message)}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  return run.exitCode;
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
  runCli(hideBin(process.argv)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      processIo.err(`arena: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exitCode = 1;
    },
  );
}
