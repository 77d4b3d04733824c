/**
 * A small in-process match for bot tests (the real runner, with isolation and faults, is
 * src/arena/match.ts and the referee in src/core/referee.ts): both seats ask their bot, every reply is checked against the legal list.
 */
import type { AnyBot, BotStore } from '../../src/core/bot.ts';
import { memoryStore } from '../../src/platform/bot-store.ts';
import { createRng, type AnyGame, type Outcome, type Seat } from '../../src/core/index.ts';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { BUILTIN_BOTS_DIR, botOptions } from '../../src/hosting/index.ts';
import { findMove } from '../../src/core/referee.ts';

/** A bot with validated options. */
export interface Player {
  readonly bot: AnyBot;
  readonly options: Readonly<Record<string, unknown>>;
  /** The bot's store (default: a fresh one in memory per call). */
  readonly store?: BotStore;
}

/** Loads a built-in bot by file name with raw options. */
export async function builtin(name: string, raw: Record<string, unknown> = {}): Promise<Player> {
  const mod = (await import(pathToFileURL(join(BUILTIN_BOTS_DIR, `${name}.ts`)).href)) as { default: AnyBot };
  return { bot: mod.default, options: botOptions(mod.default, raw) };
}

/** Asks a bot for a move and checks it is legal; returns the runner's copy of the move. */
export async function ask(player: Player, game: AnyGame, state: unknown, seed: number, timeMs = 2000): Promise<unknown> {
  const moves = game.moves(state);
  const reply = await player.bot.choose({
    game,
    state,
    moves,
    seat: game.toMove(state),
    rng: createRng(seed),
    deadline: Date.now() + timeMs,
    options: player.options,
    store: player.store ?? memoryStore(),
  });
  const i = findMove(game, moves, reply);
  if (i < 0) throw new Error(`${player.bot.name} returned an illegal move in ${game.describe(state)}`);
  return moves[i];
}

/**
 * CPU time (ms) this process spends in `work`. A bot that stops at a wall-clock deadline uses at
 * most that much CPU, and less when the machine is busy: a bound on it can fail only when the bot
 * thinks past its deadline, never because of load.
 */
export async function cpuMsOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** One finished game: the outcome and, per ply, the position before it and the seat that moved. */
export interface Played {
  readonly outcome: Outcome;
  readonly final: unknown;
  readonly turns: readonly { readonly state: unknown; readonly seat: Seat }[];
}

/** Plays `start` to the end; each seat's bot has its own generator. */
export async function playGame(game: AnyGame, start: unknown, seats: Record<Seat, Player>, seed: number): Promise<Played> {
  const rngs: Record<Seat, ReturnType<typeof createRng>> = { first: createRng(seed), second: createRng(seed + 1) };
  const turns: { state: unknown; seat: Seat }[] = [];
  let state = start;
  for (;;) {
    const outcome = game.outcome(state);
    if (outcome) return { outcome, final: state, turns };
    const seat = game.toMove(state);
    turns.push({ state, seat });
    const move = await ask(seats[seat], game, state, rngs[seat].int(0, 0x7fffffff));
    state = game.play(state, move);
  }
}

/** The final result for a seat: its score margin in scored games, else +1 win, -1 loss, 0 draw. */
export function resultFor(outcome: Outcome, seat: Seat): number {
  if (outcome.scores) return seat === 'first' ? outcome.scores[0] - outcome.scores[1] : outcome.scores[1] - outcome.scores[0];
  return outcome.winner === null ? 0 : outcome.winner === seat ? 1 : -1;
}
