/**
 * Waiting on rendered Ink frames rather than for fixed pauses: however loaded the machine, a test
 * goes on once the screen shows what it waits for (key handlers re-attach after each frame, see
 * TOOLCHAIN.md), and only a hang reaches `HANG_MS`.
 */
import { waitFor } from '../patience.ts';

/** Waits `ms` milliseconds (only where there is nothing on screen to wait for). */
export const settle = (ms = 60): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls the last frame until it shows `text`, then lets input handlers re-attach; throws with the frame after `HANG_MS`. */
export async function until(frame: () => string | undefined, text: string | RegExp): Promise<string> {
  const shows = (f: string): boolean => (typeof text === 'string' ? f.includes(text) : text.test(f));
  await waitFor(() => shows(frame() ?? ''), () => `${String(text)}; last frame:\n${frame() ?? ''}`, 20);
  await settle(); // let input handlers re-attach before the next key
  return frame() ?? '';
}

/** Polls the last frame until it no longer shows `text`, then lets input handlers re-attach; throws with the frame after `HANG_MS`. */
export async function untilGone(frame: () => string | undefined, text: string): Promise<string> {
  await waitFor(() => !(frame() ?? '').includes(text), () => `${text} to go; last frame:\n${frame() ?? ''}`, 20);
  await settle();
  return frame() ?? '';
}

/**
 * Presses keys one at a time, each once the frame has redrawn after the one before: a key read
 * before the redraw would go to the handler of the frame before. Every key must change the frame.
 */
export async function press(r: { stdin: { write(s: string): void }; lastFrame: () => string | undefined }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    const before = r.lastFrame();
    r.stdin.write(k);
    await until(() => (r.lastFrame() === before ? '' : r.lastFrame()), /[^]/);
  }
}
