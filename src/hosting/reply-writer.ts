/**
 * How a module bot's process writes its reply records to the arena (the rules are in
 * worker-protocol.ts, "When it writes them" and "Where it writes them"): records that may wait are
 * kept here, and each write carries every record kept before it, so the records leave in order.
 */
import { writeAllSync } from '../platform/frames.ts';
import { HELD_FD, HELD_MAX_BYTES, REPLY_FD } from './worker-protocol.ts';

/** What is to become of a record: kept for a later write, written now, or written now on fd 4 (the process has nothing more to run). */
export const Send = { Keep: 0, Now: 1, Wake: 2 } as const;
export type Send = (typeof Send)[keyof typeof Send];

/** The records of one process, kept until they are written. */
export class ReplyWriter {
  /** Whether the arena reads `HELD_FD`. */
  readonly #held: boolean;
  /** Records kept, from 0 to `#used`. */
  readonly #kept = Buffer.allocUnsafe(HELD_MAX_BYTES);
  #used = 0;
  /** Bytes written to `HELD_FD` since the last write on fd 4. */
  #heldBytes = 0;

  constructor(held: boolean) {
    this.#held = held;
  }

  /** Takes the record in the first `n` bytes of `buf` (it may be reused at once). */
  put(buf: Buffer, n: number, send: Send): void {
    if (this.#used + n > this.#kept.length) this.flush(false);
    if (n > this.#kept.length) {
      // Too long to keep: it goes alone, on fd 4 (the arena reads that socket as it comes).
      writeAllSync(REPLY_FD, buf, n);
      this.#heldBytes = 0;
      return;
    }
    buf.copy(this.#kept, this.#used, 0, n);
    this.#used += n;
    if (send !== Send.Keep) this.flush(send === Send.Wake);
  }

  /** Writes the records kept, in one write: on fd 4 when `wake` (or when the held pipe has had enough), else on the held pipe. */
  flush(wake: boolean): void {
    const n = this.#used;
    if (n === 0) return;
    this.#used = 0;
    if (!wake && this.#held && this.#heldBytes + n <= HELD_MAX_BYTES) {
      writeAllSync(HELD_FD, this.#kept, n);
      this.#heldBytes += n;
    } else {
      writeAllSync(REPLY_FD, this.#kept, n);
      this.#heldBytes = 0;
    }
  }
}
