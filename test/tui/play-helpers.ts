/** Helpers of the play tests: waiting on rendered Ink frames (key handlers re-attach after each frame, see TOOLCHAIN.md) and a solver opponent. */
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { PlayTable, type Opponent } from '../../src/play/index.ts';
import { HANG_MS } from '../patience.ts';

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

/** Waits `ms` milliseconds. */
export const settle = (ms = 60): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls the last frame until it shows `text`, then lets input handlers re-attach; throws with the frame on timeout. */
export async function until(frame: () => string | undefined, text: string | RegExp, ms = HANG_MS): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const f = frame() ?? '';
    if (typeof text === 'string' ? f.includes(text) : text.test(f)) {
      await settle(); // let input handlers re-attach before the next key
      return frame() ?? f;
    }
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${String(text)}; last frame:\n${f}`);
    await settle(20);
  }
}

/** Types a move and presses enter, letting the frame settle after each. */
export async function typeMove(stdin: { write(s: string): void }, text: string): Promise<void> {
  stdin.write(text);
  await settle();
  stdin.write('\r');
  await settle();
}
