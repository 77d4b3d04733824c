/**
 * How long a test waits for something it expects before calling it a hang (ms). Only a hang ever
 * reaches it: a busy machine (a loaded CI runner, 16 busy loops beside the suite on 2 cores) makes
 * honest waits many times longer than on a quiet one, and no test may fail for that. The suite's
 * own timeouts (vitest.config.ts) are longer still.
 */
export const HANG_MS = 300_000;

/** Polls `done` every `everyMs` until it holds; throws naming `what` (a function: made then) after `HANG_MS`. */
export async function waitFor(done: () => boolean | Promise<boolean>, what: string | (() => string), everyMs = 50): Promise<void> {
  const end = Date.now() + HANG_MS;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
