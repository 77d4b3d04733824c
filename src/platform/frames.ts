/**
 * Length-prefixed frames over a pipe between the arena and a process of its own (a module bot's
 * process, its store bridge): a 32-bit little-endian length, then that many bytes. The arena reads
 * a bot's frames with `FrameReader`, which never holds more than its cap for one frame, so nothing
 * a bot writes can make it buffer without bound; the bot's side reads and writes synchronously
 * (`readFrameSync`, `writeAllSync`), so it never returns to its event loop to wait for the arena.
 */
import { execFile } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultSerializer, deserialize } from 'node:v8';

/** What `FrameReader.next` returns while a frame is incomplete. */
export const INCOMPLETE: unique symbol = Symbol('incomplete frame');

/** A frame that breaks the format (too long, or not a value): the writer is out of step. */
export class FrameError extends Error {
  override name = 'FrameError';
}

const LENGTH_PLACEHOLDER = new Uint8Array(4);

/** A value as one frame (v8-serialized, as `serialize` does, after room for the length: the body is never copied). */
export function valueFrame(value: unknown): Buffer {
  const ser = new DefaultSerializer();
  ser.writeRawBytes(LENGTH_PLACEHOLDER);
  ser.writeHeader();
  ser.writeValue(value);
  const out = ser.releaseBuffer();
  out.writeUInt32LE(out.length - 4, 0);
  return out;
}

/** Collects a stream's chunks and cuts them into frames of at most `maxBytes` each. */
export class FrameReader {
  readonly maxBytes: number;
  #buf: Buffer | null = null;

  constructor(maxBytes = 0xffff_ffff) {
    this.maxBytes = maxBytes;
  }

  /** Whether a whole frame is waiting to be taken. */
  get ready(): boolean {
    const b = this.#buf;
    return b !== null && b.length >= 4 && b.length >= 4 + b.readUInt32LE(0);
  }

  /** Whether bytes of a frame not yet taken are waiting. */
  get pending(): boolean {
    return this.#buf !== null && this.#buf.length > 0;
  }

  push(chunk: Buffer): void {
    this.#buf = this.#buf === null || this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
  }

  /** The next whole frame's bytes, or INCOMPLETE; throws FrameError for a frame over the cap. */
  next(): Buffer | typeof INCOMPLETE {
    const b = this.#buf;
    if (b === null || b.length < 4) return INCOMPLETE;
    const len = b.readUInt32LE(0);
    if (len > this.maxBytes) throw new FrameError(`a frame of ${len} bytes, more than ${this.maxBytes}`);
    if (b.length < 4 + len) return INCOMPLETE;
    const frame = b.subarray(4, 4 + len);
    this.#buf = b.length === 4 + len ? null : b.subarray(4 + len);
    return frame;
  }

  /** The next whole frame as a value, or INCOMPLETE; throws FrameError for bytes that are no value. */
  nextValue(): unknown {
    const frame = this.next();
    if (frame === INCOMPLETE) return INCOMPLETE;
    try {
      return deserialize(frame);
    } catch (err) {
      throw new FrameError(`a frame that is not a value (${err instanceof Error ? err.message : String(err)})`);
    }
  }
}

const chunk = Buffer.allocUnsafe(1 << 16);

/** Blocks until `reader` has a whole frame from `fd` and returns its value; null at the end of the stream. */
export function readFrameSync(fd: number, reader: FrameReader): unknown {
  for (;;) {
    const value = reader.nextValue();
    if (value !== INCOMPLETE) return value;
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return null;
    reader.push(Buffer.from(chunk.subarray(0, n)));
  }
}

/** Writes all of `data` to `fd` (blocking). */
export function writeAllSync(fd: number, data: Uint8Array, length = data.length): void {
  for (let off = 0; off < length; ) off += writeSync(fd, data, off, length - off);
}

/**
 * An anonymous pipe as two file descriptors of this process, outside Node's event loop: the read
 * end non-blocking (read it with `readSync` when it suits, it never wakes this process), the write
 * end blocking, for a child process (pass it in `spawn`'s `stdio`, then close it here). Made from a
 * named FIFO in a private folder that is removed at once. Null where `mkfifo` is not available.
 */
export async function openPipe(): Promise<{ readonly read: number; readonly write: number } | null> {
  const dir = mkdtempSync(join(tmpdir(), 'take-arena-pipe-'));
  const path = join(dir, 'p');
  try {
    const made = await new Promise<boolean>((resolve) => execFile('mkfifo', ['-m', '600', path], (err) => resolve(err === null)));
    if (!made) return null;
    // Opening the read end first and without blocking lets the write end open at once.
    const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      return { read, write: openSync(path, constants.O_WRONLY) };
    } catch (err) {
      closeSync(read);
      throw err;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
