/** Waiting on rendered Ink frames (see TOOLCHAIN.md: key handlers re-attach after each frame). */

/** Waits `ms` milliseconds. */
export const settle = (ms = 60): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls the last frame until it shows `text`, then lets input handlers re-attach; throws with the frame on timeout. */
export async function until(frame: () => string | undefined, text: string | RegExp, ms = 3000): Promise<string> {
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
