/** Helpers of the play tests: waiting on rendered Ink frames (key handlers re-attach after each frame, see TOOLCHAIN.md) and a solver opponent. */
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { PlayTable, type Opponent } from '../../src/play/index.ts';
import { until } from './frames.ts';

export { press, settle, until, untilGone } from './frames.ts';

/** An opponent playing the solver's move, as the built-in optimal bot does (largest winning take, else smallest take). */
export const solverOpponent: Opponent = {
  label: 'solverbot',
  name: 'solverbot',
  bot: defineBot({
    name: 'solverbot',
    description: 'plays the solver’s best move',
    choose: ({ game, state }) => game.solver!()!.bestMove(state),
  }) as AnyBot,
  options: {},
};

const tables: PlayTable[] = [];

/** A play table for one test (bots' stores in memory); `closeTables` closes it with its bots after the test. */
export function playTable(timePerMoveMs: number): PlayTable {
  const table = new PlayTable({ timePerMoveMs, botData: null });
  tables.push(table);
  return table;
}

/** Closes the tables the test opened: no bot's thread or process outlives its test. */
export async function closeTables(): Promise<void> {
  await Promise.all(tables.splice(0).map((t) => t.close()));
}

/** Types a move and, once the screen shows it typed (however loaded the machine), presses enter. */
export async function typeMove(r: { stdin: { write(s: string): void }; lastFrame: () => string | undefined }, text: string): Promise<void> {
  r.stdin.write(text);
  await until(r.lastFrame, `Your move: ${text}`);
  r.stdin.write('\r');
}
