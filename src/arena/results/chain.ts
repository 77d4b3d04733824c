/**
 * The checksum chain that keeps a results log the arena's own: resume trusts only lines this
 * tournament's runner wrote, in the order it wrote them. A `chk` field seals the lines since the
 * previous `chk` (one per line in folders written before take-arena sealed runs of lines, at most
 * `SEAL_EVERY` lines since).
 */
import { createHmac } from 'node:crypto';

/**
 * The most lines the log leaves between two sealed lines (see `LogChain`): every batch
 * written ends with a seal, and a longer batch is sealed every `SEAL_EVERY` lines, so a reader holds
 * only a few hundred lines waiting for their seal.
 */
export const SEAL_EVERY = 256;

/** The number of hex digits of a line's checksum (128 bits of HMAC-SHA256). */
const SUM_HEX = 32;
/** A sealed line's end: its `chk` field (the checksum captured) and the closing brace. */
export const SEALED = new RegExp(`,"chk":"([0-9a-f]{${SUM_HEX}})"\\}$`);

/**
 * The checksum sealing a run of lines: HMAC-SHA256, keyed by the tournament's secret, of the
 * previous checksum (`''` before the first line), a newline, then the run's lines as written, each
 * followed by a newline, but for the last one's body (the sealed line without its `chk` field, with
 * its closing brace). A run of one line is the checksum of one line as take-arena wrote it for
 * every line before runs were sealed, so folders of both kinds verify alike.
 */
function sumOf(key: Buffer, prev: string, run: readonly string[], body: string): string {
  const h = createHmac('sha256', key).update(prev).update('\n');
  for (const line of run) h.update(line).update('\n');
  return h.update(body).digest('hex').slice(0, SUM_HEX);
}

/** The two lowercase hex digits of each byte value, as character codes. */
const HEX = Buffer.from('0123456789abcdef');

/** `,"chk":"` and `"}` + newline, the bytes around a line's checksum. */
const CHK_OPEN = Buffer.from(',"chk":"');
const CHK_CLOSE = Buffer.from('"}\n');

/**
 * The running hash chain of one log: lines are their records' JSON, and a line that ends a run
 * (a batch as written, or one line) has a last field `chk`, the keyed hash of the previous `chk`
 * and the run's bytes (see `sumOf`). A line moved, edited, inserted or copied from another
 * tournament fails it.
 */
export class LogChain {
  readonly #key: Buffer;
  /** The last checksum as text, and as its ASCII bytes (what `sealInto` hashes: the same bytes). */
  #last: string;
  #lastBytes: Buffer;
  /** `sealInto` updated only the bytes; the text is made when asked for. */
  #stale = false;

  constructor(key: Buffer, last = '') {
    this.#key = key;
    this.#last = last;
    this.#lastBytes = Buffer.from(last, 'latin1');
  }

  #lastText(): string {
    if (this.#stale) {
      this.#last = this.#lastBytes.toString('latin1');
      this.#stale = false;
    }
    return this.#last;
  }

  #advance(sum: string): void {
    this.#last = sum;
    this.#stale = false;
    this.#lastBytes = Buffer.from(sum, 'latin1');
  }

  /** The checksum of the last line sealed or verified. */
  get last(): string {
    return this.#lastText();
  }

  /**
   * The sealed line (without newline) for a record's JSON text `body` (an object with fields) that
   * ends the run of unsealed lines `run` (as written, without newlines; none: sealed alone);
   * advances the chain.
   */
  seal(body: string, run: readonly string[] = []): string {
    const sum = sumOf(this.#key, this.#lastText(), run, body);
    this.#advance(sum);
    return `${body.slice(0, -1)},"chk":"${sum}"}`;
  }

  /**
   * Seals a run of lines encoded in place: `buf[start, end)` holds whole lines, each with its
   * newline, then the last line's JSON without its closing brace (the body is that and `}`); writes
   * `,"chk":"…"}` and the newline after it and returns the new end. The checksum `sumOf` gives,
   * hashed from the bytes already in the batch buffer, so no string of a line, of its sealed form or
   * of the digest is made. `buf` must have 44 bytes free past `end`.
   */
  sealInto(buf: Buffer, start: number, end: number): number {
    const digest = createHmac('sha256', this.#key).update(this.#lastBytes).update('\n').update(buf.subarray(start, end)).update('}').digest();
    let at = end + CHK_OPEN.copy(buf, end);
    if (this.#lastBytes.length !== SUM_HEX) this.#lastBytes = Buffer.allocUnsafe(SUM_HEX); // its own bytes, hashed above already
    const last = this.#lastBytes;
    for (let i = 0; i < SUM_HEX / 2; i++) {
      const b = digest[i]!;
      const hi = HEX[b >>> 4]!;
      const lo = HEX[b & 15]!;
      buf[at++] = hi;
      buf[at++] = lo;
      last[2 * i] = hi;
      last[2 * i + 1] = lo;
    }
    this.#stale = true;
    return at + CHK_CLOSE.copy(buf, at);
  }

  /**
   * Whether a sealed line, with the unsealed lines `run` before it (as written, without newlines),
   * follows the chain (which then advances). A line alone is `verify(line)`.
   */
  verify(line: string, run: readonly string[] = []): boolean {
    const m = SEALED.exec(line);
    if (!m) return false;
    if (sumOf(this.#key, this.#lastText(), run, `${line.slice(0, m.index)}}`) !== m[1]) return false;
    this.#advance(m[1]!);
    return true;
  }
}

/** Whether a line ends with a `chk` field (ends a run), from its last bytes, without a match. */
export function isSealed(line: string): boolean {
  return line.length > SUM_HEX + 10 && line.charCodeAt(line.length - SUM_HEX - 3) === 0x22 && line.endsWith('"}') && SEALED.test(line);
}

