/**
 * Waiting on rendered Ink frames rather than for fixed pauses: however loaded the machine, a test
 * goes on once the screen shows what it waits for (key handlers re-attach after each frame, see
 * TOOLCHAIN.md), and only a hang reaches `HANG_MS`.
 */
import { HANG_MS } from '../patience.ts';

/** Waits `ms` milliseconds (only where there is nothing on screen to wait for). */
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

/** Polls the last frame until it no longer shows `text`, then lets input handlers re-attach; throws with the frame on timeout. */
export async function untilGone(frame: () => string | undefined, text: string, ms = HANG_MS): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const f = frame() ?? '';
    if (!f.includes(text)) {
      await settle();
      return frame() ?? f;
    }
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${text} to go; last frame:\n${f}`);
    await settle(20);
  }
}

/** Polls until `done` holds (a side effect of a key, e.g. a control called); throws naming `what` (made then) on timeout. */
export async function untilTrue(done: () => boolean, what: string | (() => string), ms = HANG_MS): Promise<void> {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await settle(20);
  }
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
