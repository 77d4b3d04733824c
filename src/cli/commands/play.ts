import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { UsageError } from '../../core/errors.ts';
import type { AnyFamily, AnyGame } from '../../core/game.ts';
import { allFamilies, parseVariant } from '../../games/index.ts';
import { discoverBots, resolveBot, type Isolation } from '../../hosting/index.ts';
import { sandboxProblem } from '../../platform/sandbox.ts';
import { opponentOf, opponentsOf, plays, PlayTable, type Opponent } from '../../play/index.ts';
import { flagValue, integerFlag, SEED_FLAG } from '../flags.ts';
import { EXIT_INTERRUPTED, RUN, type CliRun, type WithRun } from '../io.ts';
import { keyStdin } from '../../tui/ui/key-stdin.ts';
import { loadInk, type ScreenFlags } from '../load-ink.ts';

type Args = WithRun<ScreenFlags & { variant?: string; bot?: string; first?: 'me' | 'bot'; seed?: string; 'time-per-move': string; isolation: Isolation; 'bots-dir': string[]; plain: boolean }>;

/** Exit code of an interactive command run without a terminal. */
const EXIT_NO_TTY = 2;

/** Prints the one line an interactive command says without a terminal; returns false then. */
export function requireTerminal(run: CliRun, command: string): boolean {
  if (run.io.isTTY) return true;
  run.io.err(`arena ${command} is interactive and needs a terminal (stdin and stdout must be a TTY)`);
  run.exitCode = EXIT_NO_TTY;
  return false;
}

/** `--seed`: a 32-bit unsigned integer. */
const SEED = SEED_FLAG.optional();

/** `--time-per-move`: whole milliseconds, up to an hour (as a tournament's). */
const TIME_PER_MOVE = integerFlag(z.number().int().min(1).max(3_600_000));

/** `arena play [variant] [--bot NAME] [--first me|bot] [--seed S] [--isolation worker|sandbox|none]`: play a bot in the terminal. */
export const playCommand: CommandModule<object, Args> = {
  command: 'play [variant]',
  describe: 'Play a game against a bot in the terminal (menus for whatever is not given)',
  builder: (y: Argv) =>
    y
      .positional('variant', { type: 'string', describe: 'the game, e.g. "subtraction{moves=1,2,3;n=10}"' })
      .option('bot', { type: 'string', describe: 'the opponent, e.g. optimal or minimax:depth=6' })
      .option('first', { choices: ['me', 'bot'] as const, describe: 'who moves first' })
      .option('seed', { type: 'string', describe: 'seed of the deals and the bot (default: from the clock)' })
      .option('time-per-move', { type: 'string', default: '2000', describe: 'the bot’s time per move, ms' })
      .option('isolation', {
        choices: ['worker', 'sandbox', 'none'] as const,
        default: 'worker' as const,
        describe: 'where the bot runs, as in a tournament: worker (a process of its own), sandbox (a process in bubblewrap: bots written by others) or none (this process: trusted bots); external programs always run as processes',
      })
      .option('bots-dir', { type: 'string', array: true, default: [], describe: 'another folder of bot files (repeatable)' })
      .option('plain', { type: 'boolean', default: false, describe: 'for screen readers: a running transcript, a line per prompt and per move, answered a line at a time (no terminal needed)' }) as unknown as Argv<Args>,
  async handler(args) {
    // In a terminal, keys typed while the games and bots load wait for the screen (not echoed);
    // --plain reads whole lines, as the terminal (or a pipe) gives them.
    if (args[RUN].io.isTTY && !args.plain) keyStdin();
    const game = args.variant !== undefined ? parseVariant(args.variant) : undefined;
    const seed = flagValue('`--seed`', SEED, args.seed) ?? Date.now() >>> 0;
    const time = flagValue('`--time-per-move`', TIME_PER_MOVE, args['time-per-move'], 'a whole number of ms from 1 to 3600000');
    // A sandboxed bot needs bubblewrap: refuse in one line rather than ever run it unsandboxed.
    const sandbox = args.isolation === 'sandbox';
    const problem = sandbox ? sandboxProblem() : null;
    if (problem) throw new UsageError(`Cannot play with --isolation sandbox: ${problem}`);
    const registry = await discoverBots(args['bots-dir'], { ...(game ? { variants: [game.id] } : {}), ...(sandbox ? { sandbox } : {}) });
    let opponent: Opponent | undefined;
    if (args.bot !== undefined) {
      const choice = resolveBot(registry, args.bot);
      opponent = opponentOf(choice);
      if (game && !plays(opponent, game)) {
        throw new UsageError(`Bot \`${choice.label}\` does not play ${game.id}`);
      }
    }
    if (args.plain) {
      await playPlain(args[RUN], { families: allFamilies(), opponents: opponentsOf(registry), seed, time, isolation: args.isolation, game, opponent, first: args.first });
      return;
    }
    if (!requireTerminal(args[RUN], 'play')) return;
    const { render, createElement, screen, PlayApp } = await loadInk(args);
    const table = new PlayTable({ timePerMoveMs: time, isolation: args.isolation });
    try {
      const app = render(
        screen(createElement(PlayApp, {
          families: allFamilies(),
          opponents: opponentsOf(registry),
          table,
          seed,
          ...(game ? { game } : {}),
          ...(opponent ? { opponent } : {}),
          ...(args.first ? { first: args.first } : {}),
        })),
      );
      await app.waitUntilExit();
      // Ctrl-C quits the screen as q does, and the exit code says it was an interrupt (as a tournament's does).
      if (keyStdin()?.interrupted) args[RUN].exitCode = EXIT_INTERRUPTED;
    } finally {
      // Quit, Ctrl-C or a crash of the screen: no bot's thread or process outlives the game.
      await table.close();
    }
  },
};

/**
 * `--plain`: the game as a transcript (src/tui/play/transcript.ts) on stdout, the player's answers
 * read a line at a time from stdin; works in a terminal (its own echo and line editing) and on pipes.
 */
async function playPlain(
  run: CliRun,
  o: { families: readonly AnyFamily[]; opponents: readonly Opponent[]; seed: number; time: number; isolation: Isolation; game: AnyGame | undefined; opponent: Opponent | undefined; first: 'me' | 'bot' | undefined },
): Promise<void> {
  const { createInterface } = await import('node:readline');
  const { playTranscript } = await import('../../tui/play/transcript.ts');
  const lines = createInterface({ input: process.stdin, terminal: false });
  const table = new PlayTable({ timePerMoveMs: o.time, isolation: o.isolation });
  try {
    await playTranscript({
      families: o.families,
      opponents: o.opponents,
      table,
      seed: o.seed,
      ...(o.game ? { game: o.game } : {}),
      ...(o.opponent ? { opponent: o.opponent } : {}),
      ...(o.first ? { first: o.first } : {}),
      io: { lines: lines[Symbol.asyncIterator](), write: (line) => run.io.out(line) },
    });
  } finally {
    lines.close();
    await table.close();
  }
}
