/**
 * The terminal's input as the interactive screens read it: one key at a time, each handed to Ink
 * only once the screen has taken the one before.
 *
 * Ink reads whatever the terminal delivered in one go and gives it to every input handler in the
 * same turn of the event loop: a run of text (`9` then Enter, a paste) arrives as one string that
 * no handler recognises, and keys that arrive together (`↓ ↓ ↓ Enter` from a fast typist, a
 * macro or a busy machine) all reach handlers still holding the state from before the first, so
 * the menu moves once and Enter picks the old entry. This stream sits between the terminal and
 * Ink: it splits what arrives into keys (an escape sequence whole, any other character alone) and
 * releases the next key only after React has committed the last one and re-subscribed its
 * handlers: three turns of the event loop, an ordering rather than a time, so a loaded machine
 * changes how long it takes, never which keys count. Keys typed while a screen loads are kept
 * (and not echoed: the terminal is in raw mode from the stream's creation) until Ink reads input;
 * Ctrl-C before then stops the program as it would in a plain terminal.
 */
import { Readable } from 'node:stream';

const ESC = '\u001b';
const CTRL_C = '\u0003';

/**
 * Splits terminal input into keys: a CSI (`ESC [ … final`) or SS3 (`ESC O x`) sequence whole, with
 * an optional second ESC before it (Alt with an arrow); ESC with one character (Alt+key); any
 * other code point alone. `rest` is an escape sequence cut off at the end of the input, to be
 * completed by the next chunk (or taken as a lone Esc when none comes).
 */
export function splitKeys(text: string): { keys: string[]; rest: string } {
  const keys: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== ESC) {
      const cp = text.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      keys.push(text.slice(i, i + len));
      i += len;
      continue;
    }
    const end = sequenceEnd(text, i);
    if (end < 0) return { keys, rest: text.slice(i) };
    keys.push(text.slice(i, end));
    i = end;
  }
  return { keys, rest: '' };
}

/** The index after the escape sequence at `at` (which holds ESC), or −1 when the text ends inside it. */
function sequenceEnd(text: string, at: number): number {
  let i = at + 1;
  if (text[i] === ESC) i++; // ESC ESC [ …: Alt with a special key
  if (i >= text.length) return -1;
  const kind = text[i]!;
  if (kind === '[') {
    // Parameter and intermediate bytes, then a final byte; `ESC [ [ A` is the Linux console's F1.
    let j = i + 1;
    if (text[j] === '[') j++;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e) return j + 1;
      if (c < 0x20 || c > 0x3f) return j; // not a CSI after all: the bytes so far are the key
    }
    return -1;
  }
  if (kind === 'O') return i + 2 <= text.length ? i + 2 : -1;
  if (i > at + 1) return i; // ESC ESC then something else: Alt+Esc
  const cp = text.codePointAt(i)!;
  return i + (cp > 0xffff ? 2 : 1);
}

/** Turns of the event loop between two keys: React's commit, then its passive effects (where Ink's handlers are re-subscribed), then one to spare. */
const SETTLE_TURNS = 3;

/** The terminal's input, a key at a time (see the module's comment). Give it to Ink's `render` as `stdin`. */
export class KeyStdin extends Readable {
  readonly isTTY = true;
  readonly #tty: NodeJS.ReadStream;
  readonly #queue: string[] = [];
  /** An escape sequence cut off at the end of the last chunk. */
  #rest = '';
  #restTimer: NodeJS.Immediate | null = null;
  /** Whether Ink reads input now (it has asked for raw mode). */
  #reading = false;
  /** Whether a key was handed over and the screen has not yet settled. */
  #settling = false;
  #interrupted = false;
  readonly #onData = (chunk: string | Buffer): void => this.#take(String(chunk));

  constructor(tty: NodeJS.ReadStream) {
    super({ read: () => {}, encoding: 'utf8' });
    this.#tty = tty;
    tty.setRawMode(true);
    tty.setEncoding('utf8');
    tty.on('data', this.#onData);
  }

  /** Raw mode as Ink asks for it (Ink turns it off when no screen reads keys: the terminal is then as the user left it). */
  setRawMode(on: boolean): this {
    this.#tty.setRawMode(on);
    this.#reading = on;
    this.#pump();
    return this;
  }

  ref(): this {
    this.#tty.ref();
    return this;
  }

  unref(): this {
    this.#tty.unref();
    return this;
  }

  /** Whether a screen was given Ctrl-C (it quits on it): the command then exits as interrupted (130). */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Stops reading the terminal and gives it back in its normal mode. */
  close(): void {
    this.#tty.off('data', this.#onData);
    if (this.#restTimer) clearImmediate(this.#restTimer);
    if (this.#tty.isTTY) this.#tty.setRawMode(false);
    this.#tty.pause();
    this.#tty.unref();
  }

  #take(chunk: string): void {
    if (this.#restTimer) clearImmediate(this.#restTimer);
    this.#restTimer = null;
    const { keys, rest } = splitKeys(this.#rest + chunk);
    this.#rest = rest;
    for (const key of keys) {
      // Before a screen reads keys, Ctrl-C is what it is in a plain terminal.
      if (key === CTRL_C && !this.#reading) {
        process.kill(process.pid, 'SIGINT');
        continue;
      }
      this.#queue.push(key);
    }
    // A lone Esc (or a sequence the terminal never finished): taken as it is once nothing follows.
    if (rest !== '') {
      this.#restTimer = setImmediate(() => {
        this.#restTimer = null;
        this.#queue.push(this.#rest);
        this.#rest = '';
        this.#pump();
      });
    }
    this.#pump();
  }

  #pump(): void {
    if (this.#settling || !this.#reading || this.#queue.length === 0) return;
    this.#settling = true;
    const key = this.#queue.shift()!;
    if (key === CTRL_C) this.#interrupted = true;
    this.push(key);
    let turns = SETTLE_TURNS;
    const turn = (): void => {
      if (--turns > 0) {
        setImmediate(turn);
        return;
      }
      this.#settling = false;
      this.#pump();
    };
    setImmediate(turn);
  }
}

let shared: KeyStdin | null = null;

/**
 * The process's key stream on a terminal's stdin, made on first use and shared by every screen
 * the process shows (keys typed between two screens reach the second); undefined when stdin is
 * not a terminal (Ink then reads it itself).
 */
export function keyStdin(): KeyStdin | undefined {
  if (!process.stdin.isTTY) return undefined;
  if (shared === null) {
    shared = new KeyStdin(process.stdin);
    // However the program ends, the terminal is left as it was found.
    process.once('exit', releaseKeyStdin);
  }
  return shared;
}

/** Gives the terminal back (raw mode off, stdin released) if a key stream took it. */
export function releaseKeyStdin(): void {
  shared?.close();
  shared = null;
}
