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

/** Polls the last frame until it no longer shows `text`; throws with the frame on timeout. */
export async function untilGone(frame: () => string | undefined, text: string, ms = HANG_MS): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const f = frame() ?? '';
    if (!f.includes(text)) return f;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${text} to go; last frame:\n${f}`);
    await settle(20);
  }
}

/**
 * Presses keys one at a time, each once the frame has redrawn after the one before (however loaded
 * the machine): a key read before the redraw would go to the handler of the frame before. Every key
 * must change the frame.
 */
export async function press(r: { stdin: { write(s: string): void }; lastFrame: () => string | undefined }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    const before = r.lastFrame();
    r.stdin.write(k);
    await until(() => (r.lastFrame() === before ? '' : r.lastFrame()), /[^]/);
  }
}

/** Types a move and, once the screen shows it typed (however loaded the machine), presses enter. */
export async function typeMove(r: { stdin: { write(s: string): void }; lastFrame: () => string | undefined }, text: string): Promise<void> {
  r.stdin.write(text);
  await until(r.lastFrame, `Your move: ${text}`);
  r.stdin.write('\r');
}
