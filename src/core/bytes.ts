/**
 * Text written straight into a byte buffer, for output made once per game (the results log's line,
 * the plain reporter's line): no string of the whole is made. Each function writes at `at`, into
 * room the caller has made, and returns where it stopped.
 */

/** An ASCII string's characters (field names, text known to be ASCII). */
export function putAscii(buf: Uint8Array, at: number, s: string): number {
  for (let k = 0; k < s.length; k++) buf[at++] = s.charCodeAt(k);
  return at;
}

/** Any string as UTF-8 (copied character by character while it is ASCII): at most 3 bytes a character. */
export function putText(buf: Buffer, at: number, s: string): number {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x80) return at - k + buf.write(s, at - k, 'utf8');
    buf[at++] = c;
  }
  return at;
}

/** "00" to "99": two digits a step (half the divisions of one at a time). */
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 0x30 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));

/**
 * A number as `String(n)` writes it: integers of up to 32 bits as digits straight into the buffer,
 * anything else through `String`. At most 24 bytes.
 */
export function putNumber(buf: Uint8Array, at: number, n: number): number {
  // A single digit first: most in-process moves take under 10 µs, and their times are these.
  if (n >= 0 && n < 10 && (n | 0) === n) {
    buf[at] = 0x30 + n;
    return at + 1;
  }
  let u = n < 0 ? -n : n;
  if (u <= 0xffffffff && u >>> 0 === u) {
    if (n < 0) buf[at++] = 0x2d;
    const end = at + digitsOf(u);
    let i = end;
    while (u >= 100) {
      const q = Math.floor(u / 100);
      const r = (u - q * 100) << 1;
      buf[--i] = PAIRS[r + 1]!;
      buf[--i] = PAIRS[r]!;
      u = q;
    }
    if (u >= 10) {
      buf[--i] = PAIRS[(u << 1) + 1]!;
      buf[--i] = PAIRS[u << 1]!;
    } else buf[--i] = 0x30 + u;
    return end;
  }
  return putAscii(buf, at, String(n));
}

/** How many characters `String(u)` has, for an integer `u` from 0 to 2^32 − 1. */
function digitsOf(u: number): number {
  return u < 10 ? 1 : u < 100 ? 2 : u < 1e3 ? 3 : u < 1e4 ? 4 : u < 1e5 ? 5 : u < 1e6 ? 6 : u < 1e7 ? 7 : u < 1e8 ? 8 : u < 1e9 ? 9 : 10;
}

/** How many characters `String(n)` has (without making it for the integers `putNumber` writes as digits). */
export function numberLength(n: number): number {
  return n >= 0 && n <= 0xffffffff && n >>> 0 === n ? digitsOf(n) : String(n).length;
}

/**
 * The bytes of strings that recur from one line to the next (a variant, a bot's label), each made
 * once by `encode` (its text as written, e.g. escaped or made visible) and then copied with one
 * `set`: a copy costs a few nanoseconds, where writing the characters one by one costs one to two a
 * character. Holds at most `limit` strings (then starts afresh), so strings that never recur (a
 * reason) cost one encoding each and no memory.
 */
export class ByteMemo {
  readonly #encode: (s: string) => string;
  readonly #limit: number;
  #bytes = new Map<string, Uint8Array>();
  /** The last two strings asked for and their bytes: a game's two labels, its variant, found without hashing. */
  #last0 = '';
  #bytes0: Uint8Array | null = null;
  #last1 = '';
  #bytes1: Uint8Array | null = null;

  constructor(encode: (s: string) => string, limit = 256) {
    this.#encode = encode;
    this.#limit = limit;
  }

  /** Writes `encode(s)` as UTF-8 at `at`; returns the end. */
  put(buf: Uint8Array, at: number, s: string): number {
    let b: Uint8Array;
    if (s === this.#last0 && this.#bytes0 !== null) b = this.#bytes0;
    else if (s === this.#last1 && this.#bytes1 !== null) b = this.#bytes1;
    else {
      b = this.#lookUp(s);
      this.#last1 = this.#last0;
      this.#bytes1 = this.#bytes0;
      this.#last0 = s;
      this.#bytes0 = b;
    }
    buf.set(b, at);
    return at + b.length;
  }

  #lookUp(s: string): Uint8Array {
    let b = this.#bytes.get(s);
    if (b === undefined) {
      if (this.#bytes.size >= this.#limit) this.#bytes = new Map();
      b = Buffer.from(this.#encode(s), 'utf8');
      this.#bytes.set(s, b);
    }
    return b;
  }
}
