/**
 * Pauses a running tournament between games (the dashboard's `p`). While paused no new game
 * starts; games in flight play to their end. Nobody's clock runs while the runner waits, since
 * the gate sits between games, never inside one: a paused tournament charges no bot for the pause.
 */
export class PauseGate {
  #paused = false;
  #waiters: (() => void)[] = [];

  /** Whether new games are held back. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Holds back new games from now on. */
  pause(): void {
    this.#paused = true;
  }

  /** Lets the waiting lanes go on. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** Settles once the gate is open (null at once when it is), or when `signal` aborts. */
  whenOpen(signal?: AbortSignal): Promise<void> | null {
    if (!this.#paused || signal?.aborted) return null;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.push(done);
    });
  }
}
