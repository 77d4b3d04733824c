/**
 * What keeps a results log the arena's own: a keyed checksum chained through the log, so that
 * resume trusts only lines this tournament's runner wrote, in the order it wrote them (a `chk`
 * seals the lines since the previous `chk`: one per line in folders written before take-arena
 * sealed runs of lines, at most `SEAL_EVERY` lines since); a lock file, so that two runners never
 * append to one folder; and the repair that moves every line resume cannot trust (garbage, a failed checksum, a duplicate key, a game that
 * is not in the schedule) to a quarantine file, with the counts, instead of blocking resume.
 *
 * The key is a random secret in `games.key` (mode 0600) beside the log. Under isolation `sandbox`
 * no bot can see the results folder at all; under `worker` and `process` a bot runs with the
 * user's rights and could read the key, so there the chain detects corruption and naive forgery,
 * not a bot that knows this file (docs/SECURITY.md).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { pidAlive } from '../platform/bundle.ts';
import type { GameRecord } from './match.ts';
import { parseRecordLine, readLines, SEAL_EVERY } from './results.ts';

/** The guard's files inside a results folder. */
export const GUARD_FILES = {
  /** The tournament's chain key (hex, mode 0600). */
  key: 'games.key',
  /** The pid of the runner using the folder; removed when it finishes. */
  lock: 'runner.lock',
  /** Lines resume dropped, appended as they were. */
  quarantine: 'games.quarantine.jsonl',
} as const;

/** Why resume dropped a line. */
export type DropReason = 'garbage' | 'checksum' | 'duplicate' | 'unscheduled' | 'partial';

/** The number of hex digits of a line's checksum (128 bits of HMAC-SHA256). */
const SUM_HEX = 32;
const SEALED = new RegExp(`,"chk":"([0-9a-f]{${SUM_HEX}})"\\}$`);

/** Lines a reader holds waiting for a seal before it gives the oldest up as unverifiable (honest runs are far shorter). */
const MAX_WAITING = 8 * SEAL_EVERY;

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
function isSealed(line: string): boolean {
  return line.length > SUM_HEX + 10 && line.charCodeAt(line.length - SUM_HEX - 3) === 0x22 && line.endsWith('"}') && SEALED.test(line);
}

/** Creates a new tournament's key file; returns the key. */
export function createLogKey(dir: string): Buffer {
  const key = randomBytes(32);
  const fd = openSync(join(dir, GUARD_FILES.key), 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
  return key;
}

/** Reads a results folder's key; a UsageError when there is none (its lines cannot be verified). */
export function readLogKey(dir: string): Buffer {
  const file = join(dir, GUARD_FILES.key);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    throw new UsageError(`--resume: ${dir} has no ${GUARD_FILES.key} (written by an older take-arena, or the key was removed), so its lines cannot be verified; start the tournament again`);
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new UsageError(`--resume: ${file} is not a key (expected 64 hex digits)`);
  return Buffer.from(text, 'hex');
}

/** Folders this process holds the lock of (a second run in the same process is refused too). */
const HELD = new Set<string>();

/**
 * Takes the folder's lock file (created exclusively, holding this pid), taking over a lock whose
 * runner is gone (killed with SIGKILL, say). A live runner's lock is a UsageError. Returns the
 * release function (also run at exit).
 */
export function lockResultsDir(dir: string): () => void {
  const file = join(dir, GUARD_FILES.lock);
  if (HELD.has(file)) throw new UsageError(`${dir} is in use by another tournament in this process; wait for it to finish`);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && pidAlive(owner)) {
        throw new UsageError(`${dir} is in use by another runner (pid ${owner}); wait for it to finish or stop it (lock: ${file})`);
      }
      unlinkSync(file); // its runner is gone: the lock is stale
    }
  }
  HELD.add(file);
  const release = (): void => {
    if (!HELD.delete(file)) return;
    process.off('exit', release);
    try {
      if (Number.parseInt(readFileSync(file, 'utf8'), 10) === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}

/** What a scan of a log found. */
export interface LogScan {
  /** Lines dropped per reason (a partial last line is not counted: it is routine after a crash). */
  readonly dropped: DropCounts;
  /** Whether any whole line was dropped (the log must then be rewritten without it). */
  readonly anyDropped: boolean;
  /** The checksum of the last verified line: where the chain goes on. */
  readonly last: string;
  /** Byte length of the whole lines (a partial last line lies beyond it). */
  readonly validBytes: number;
}

/**
 * Judges a game line for resume: null to keep it, or why it is dropped. Called only for lines
 * that parse and verify; it decides `unscheduled` and `duplicate` (and remembers what it kept).
 */
export type LineJudge = (record: GameRecord) => 'unscheduled' | 'duplicate' | null;

/** A line read but not yet judged: it waits for the line that seals its run. */
interface Waiting {
  readonly text: string;
  readonly record: GameRecord | null;
  /** Why it is dropped whatever its run's seal says (garbage; a seal that failed), else null. */
  why: DropReason | null;
}

/**
 * A run whose seal failed may be honest but for one line slipped in (a forgery inserted between two
 * honest lines): if the seal verifies without one of the run's lines, that line alone is marked
 * failed and the chain advances. Tried only when a seal fails: a run's length in verifications.
 */
function dropSlippedIn(chain: LogChain, sealed: string, waiting: Waiting[]): boolean {
  const inRun = waiting.filter((w) => w.why === null);
  if (inRun.length < 2) return false;
  for (const out of inRun) {
    if (chain.verify(sealed, inRun.filter((w) => w !== out).map((w) => w.text))) {
      out.why = 'checksum';
      return true;
    }
  }
  return false;
}

/**
 * Streams a log once, in constant memory, checking each line: garbage (not a game line), a
 * checksum that fails (a line's run is trusted only when the line sealing it verifies), then
 * `judge` (a game not in the schedule, a key already kept). Lines wait for their run's seal (at
 * most a few hundred, see `SEAL_EVERY`). Garbage lines and seals that fail are left out of the run
 * being checked and do not advance the chain, so honest lines around a forged or garbled one still
 * verify. Whole lines after the last seal are a batch whose write was cut short (`partial`); lines
 * whose seal never verifies fail the checksum. `onLine` hears every whole line, in file order, with
 * its record (null when dropped) and why it was dropped.
 */
export function scanLog(file: string, key: Buffer, judge: LineJudge, onLine: (text: string, record: GameRecord | null, why: DropReason | null) => void): LogScan {
  const chain = new LogChain(key);
  const dropped: Partial<Record<DropReason, number>> = {};
  let anyDropped = false;
  let validBytes = 0;
  const emit = (text: string, record: GameRecord | null, why: DropReason | null): void => {
    if (why !== null) {
      dropped[why] = (dropped[why] ?? 0) + 1;
      anyDropped = true;
    }
    onLine(text, why === null ? record : null, why);
  };
  let waiting: Waiting[] = [];
  /** A seal failed while lines were waiting: if no later seal takes them, they failed it too. */
  let failedSeal = false;
  /** Settles the waiting lines: those in the run judged (when its seal verified), the others dropped as `why`. */
  const settle = (verified: boolean, why: DropReason): void => {
    for (const w of waiting) {
      if (w.why !== null) emit(w.text, w.record, w.why);
      else emit(w.text, w.record, verified ? judge(w.record!) : why);
    }
    waiting = [];
    failedSeal = false;
  };
  for (const { text, end } of readLines(file)) {
    validBytes = end;
    if (text.trim() === '') continue;
    const record = parseRecordLine(text);
    if (record === null) {
      waiting.push({ text, record, why: 'garbage' });
    } else if (!isSealed(text)) {
      waiting.push({ text, record, why: null });
    } else {
      const run: string[] = [];
      for (const w of waiting) if (w.why === null) run.push(w.text);
      if (chain.verify(text, run) || dropSlippedIn(chain, text, waiting)) {
        settle(true, 'checksum');
        emit(text, record, judge(record));
        continue;
      }
      // A seal that fails is dropped alone: the lines before it may still be sealed by the next one.
      waiting.push({ text, record, why: 'checksum' });
      failedSeal ||= run.length > 0;
    }
    // No honest run is this long: the oldest lines can no longer be sealed.
    while (waiting.length > MAX_WAITING) {
      const w = waiting.shift()!;
      emit(w.text, w.record, w.why ?? 'checksum');
    }
  }
  settle(false, failedSeal ? 'checksum' : 'partial');
  return { dropped, anyDropped, last: chain.last, validBytes };
}

/**
 * Rewrites a log with only the lines `judge` keeps, chained afresh (a dropped line may have been a
 * link), streaming, and appends the dropped ones as they were to the quarantine file. The new log
 * is fsynced and renamed over the old one. Returns the chain positioned after the last kept line.
 */
export function repairLog(dir: string, file: string, key: Buffer, judge: LineJudge): LogChain {
  const chain = new LogChain(key);
  const tmp = `${file}.repair`;
  const out = openSync(tmp, 'w');
  const quarantine = openSync(join(dir, GUARD_FILES.quarantine), 'a');
  try {
    scanLog(file, key, judge, (text, record, why) => {
      if (why === null && record !== null) writeSync(out, `${chain.seal(text.replace(SEALED, '}'))}\n`);
      else writeSync(quarantine, `${text}\n`);
    });
    fsyncSync(out);
    fsyncSync(quarantine);
  } finally {
    closeSync(out);
    closeSync(quarantine);
  }
  renameSync(tmp, file);
  return chain;
}

/** Lines dropped per reason. */
export type DropCounts = Readonly<Partial<Record<DropReason, number>>>;

/** `3 lines dropped (1 garbage, 2 failed checksum)`. */
export function droppedText(counts: DropCounts): string {
  const names: Record<DropReason, string> = {
    garbage: 'garbage',
    checksum: 'failed checksum',
    duplicate: 'duplicate key',
    unscheduled: 'not in the schedule',
    partial: 'cut short by a crash',
  };
  const entries = Object.entries(counts) as [DropReason, number][];
  const total = entries.reduce((n, [, k]) => n + k, 0);
  return `${total} line${total === 1 ? '' : 's'} dropped (${entries.map(([why, n]) => `${n} ${names[why]}`).join(', ')})`;
}
