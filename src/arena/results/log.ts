/**
 * The append-only results log with group commit (see `ResultsLog`).
 */
import { closeSync, fdatasync, fstatSync, ftruncateSync, openSync, write } from 'node:fs';
import type { GameRecord } from '../match.ts';
import { SEAL_EVERY, type LogChain } from './chain.ts';
import { encodedBound, encodeOpen, startText } from './codec.ts';

/** A promise with its settle functions (`Promise.withResolvers` is Node 22+). */
interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * The append-only results log with group commit: lines are appended as games finish and the
 * batch is fsynced every `intervalMs` (or every `maxBatch` lines); `append` resolves only once its
 * line is on disk, so a game is reported only after it is durable. A crash loses at most games
 * that were never reported, and resume replays exactly those.
 *
 * Lines are encoded straight into one preallocated buffer per batch (two in all: one filling while
 * the other is written), so a batch costs one `write` and one `fdatasync`, and no string or buffer
 * per line outlives its encoding.
 */
export class ResultsLog {
  readonly file: string;
  readonly #fd: number;
  readonly #intervalMs: number;
  readonly #maxBatch: number;
  /** The batch being filled, and the one that was written last (reused for the next batch). */
  #buf: Buffer;
  #spare: Buffer;
  #used = 0;
  #lines = 0;
  /** Where the run of lines not yet sealed begins in `#buf`, how many lines it has, and where its last line's closing brace goes. */
  #runStart = 0;
  #runLines = 0;
  #openEnd = 0;
  /** The batch being filled: every line in it is durable when its one promise settles. */
  #batch: Deferred | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** A flush of the full batch is queued (behind the one being written). */
  #fullQueued = false;
  #flushing: Promise<void> | null = null;
  #failed: Error | null = null;

  /** Seals each run of lines (each batch) with the tournament's checksum chain (absent: lines without `chk`). */
  readonly #chain: LogChain | null;

  /**
   * Opens `games.jsonl` for appending; `truncateTo` cuts a partial last line first (resume);
   * `chain` seals every batch (see chain.ts).
   */
  constructor(file: string, options: { truncateTo?: number; intervalMs?: number; maxBatch?: number; chain?: LogChain } = {}) {
    this.file = file;
    this.#chain = options.chain ?? null;
    this.#fd = openSync(file, 'a');
    if (options.truncateTo !== undefined && fstatSync(this.#fd).size > options.truncateTo) ftruncateSync(this.#fd, options.truncateTo);
    this.#intervalMs = options.intervalMs ?? 25;
    this.#maxBatch = options.maxBatch ?? 512;
    // About 400 bytes a game: a full batch fits without growing.
    this.#buf = Buffer.allocUnsafe(Math.max(64 << 10, this.#maxBatch * 1024));
    this.#spare = Buffer.allocUnsafe(this.#buf.length);
  }

  /**
   * Appends one finished game; resolves when its line is fsynced. Lines of one batch share one
   * promise (its callbacks run in append order), rather than a promise and a waiter per game.
   */
  append(record: GameRecord): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    const start = startText(record.start);
    // The checksum field and newline take 44 bytes more.
    const room = encodedBound(record, start.length) + 64;
    if (this.#used + room > this.#buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#used + room));
      this.#buf.copy(bigger, 0, 0, this.#used);
      this.#buf = bigger;
    }
    // The line is encoded once, straight into the batch buffer: no string of it is made. Its run is
    // sealed there when the batch is written (or every SEAL_EVERY lines), hashed from those bytes:
    // one keyed hash per batch rather than per line.
    const buf = this.#buf;
    const end = encodeOpen(buf, this.#used, record, start);
    buf[end] = 0x7d; // }
    buf[end + 1] = 0x0a;
    this.#used = end + 2;
    this.#openEnd = end;
    if (++this.#runLines >= SEAL_EVERY) this.#sealRun();
    this.#lines++;
    const done = (this.#batch ??= deferred()).promise;
    if (this.#lines >= this.#maxBatch) {
      // One flush per full batch: while the previous batch is still being written, the lines that
      // follow join this batch rather than each queueing a flush of its own.
      if (!this.#fullQueued) {
        this.#fullQueued = true;
        this.flush().catch(heardByBatch);
      }
    } else this.#timer ??= setTimeout(() => this.flush().catch(heardByBatch), this.#intervalMs);
    return done;
  }

  /**
   * Seals the run of lines appended since the last seal: its last line gets the `chk` field (in
   * place of its closing brace and newline, which the seal writes again). Room for the field was
   * kept when that line was appended.
   */
  #sealRun(): void {
    if (this.#runLines === 0) return;
    if (this.#chain) this.#used = this.#chain.sealInto(this.#buf, this.#runStart, this.#openEnd);
    this.#runStart = this.#used;
    this.#runLines = 0;
  }

  /** Writes and fsyncs everything appended so far. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (this.#flushing) await this.#flushing.catch(heardByBatch);
    if (this.#lines === 0) return;
    this.#fullQueued = false;
    // Every batch written ends with a seal: a crash mid-write leaves lines that resume cannot verify
    // only in a batch that was never reported.
    this.#sealRun();
    const data = this.#buf;
    const length = this.#used;
    const batch = this.#batch!;
    // The next batch fills the other buffer while this one is written.
    this.#buf = this.#spare;
    this.#spare = data;
    this.#used = 0;
    this.#runStart = 0;
    this.#lines = 0;
    this.#batch = null;
    const fd = this.#fd;
    this.#flushing = new Promise<void>((res, rej) => {
      // Whole lines in as few writes as the OS allows: a crash mid-write leaves at most one partial
      // line at the end, which resume drops.
      const from = (offset: number): void => {
        write(fd, data, offset, length - offset, null, (err, n) => {
          if (err) return rej(err);
          if (offset + n < length) return from(offset + n);
          fdatasync(fd, (err2) => (err2 ? rej(err2) : res()));
        });
      };
      from(0);
    });
    try {
      await this.#flushing;
    } catch (err) {
      this.#failed = err instanceof Error ? err : new Error(String(err));
      batch.reject(this.#failed);
      throw this.#failed;
    } finally {
      this.#flushing = null;
    }
    batch.resolve();
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    closeSync(this.#fd);
  }
}

/**
 * The failure handler of a flush no caller awaits (the timer's, a full batch's) or of the flush
 * before this one: a failed flush rejects its batch's promise, which every `append` of the batch
 * returned, and every later `append`, so the appender hears of it there.
 */
function heardByBatch(): void {}
