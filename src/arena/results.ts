import { closeSync, existsSync, fdatasync, fstatSync, ftruncateSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, write, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SpecError, UsageError } from '../core/errors.ts';
import type { GameRecord } from './match.ts';
import type { LogChain } from './results-guard.ts';

/** File names inside a results folder. */
export const RESULTS_FILES = {
  spec: 'spec.json',
  games: 'games.jsonl',
  summary: 'summary.json',
  standings: 'standings.csv',
} as const;

/** `20261122-043525` in UTC. */
function timestamp(date: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
}

/**
 * Creates a new results folder `<out>/<name>-<timestamp>` (with `-2`, `-3`… when taken): created
 * exclusively, so an existing results folder is never overwritten.
 */
export function createResultsDir(out: string, name: string, now = new Date()): string {
  mkdirSync(out, { recursive: true });
  const base = join(resolve(out), `${name}-${timestamp(now)}`);
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Writes a small file atomically (temp file, fsync, rename). */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** A results folder opened for `--resume` (or any reader): its spec, and where its log is. */
export interface ResultsFolder {
  readonly dir: string;
  /** The spec saved when the tournament started (raw JSON). */
  readonly spec: unknown;
  /** The path of `games.jsonl`. */
  readonly gamesFile: string;
}

/** Checks that `dir` is a results folder and reads its spec; nothing in it is changed. `who` opens each message. */
export function openResultsFolder(dir: string, who = '--resume'): ResultsFolder {
  const specFile = join(dir, RESULTS_FILES.spec);
  const gamesFile = join(dir, RESULTS_FILES.games);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`${who}: ${dir} does not exist`);
  }
  if (!isDir || !existsSync(specFile) || !existsSync(gamesFile)) {
    throw new UsageError(`${who}: ${dir} is not a results folder (expected ${RESULTS_FILES.spec} and ${RESULTS_FILES.games} in it)`);
  }
  let spec: unknown;
  try {
    spec = JSON.parse(readFileSync(specFile, 'utf8')) as unknown;
  } catch {
    throw new SpecError(`${who}: ${specFile} is not valid JSON`);
  }
  return { dir, spec, gamesFile };
}

/**
 * The most lines the log leaves between two sealed lines (see results-guard.ts): every batch
 * written ends with a seal, and a longer batch is sealed every `SEAL_EVERY` lines, so a reader holds
 * only a few hundred lines waiting for their seal.
 */
export const SEAL_EVERY = 256;

/** A line of the log as a reader sees it. */
export interface LogEntry {
  readonly record: GameRecord;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset just past this line's newline: everything before it is whole lines. */
  readonly end: number;
}

/**
 * Decodes one log line (without its newline) into a record, or null when it is not a game line.
 * Reads the compact form (`moves` one string, `us` and, under a time control, `ovh` integer
 * microseconds) and the earlier one
 * (`moves` a list of `{ move, ms }`), so folders written before the compact record still resume.
 */
export function parseRecordLine(text: string): GameRecord | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object' || typeof raw['key'] !== 'string' || typeof raw['termination'] !== 'string') return null;
  if (typeof raw['index'] !== 'number' || typeof raw['variant'] !== 'string') return null;
  delete raw['chk']; // the line's checksum (results-guard.ts) is not part of the game
  const moves = raw['moves'];
  if (typeof moves === 'string') {
    const us = raw['us'];
    const list = moves === '' ? [] : moves.split(' ');
    if (!Array.isArray(us) || us.length !== list.length) return null;
    const ovh = raw['ovh'];
    if (ovh !== undefined && (!Array.isArray(ovh) || ovh.length !== list.length)) return null;
    raw['moves'] = list;
  } else if (Array.isArray(moves)) {
    const legacy = moves as { move?: unknown; ms?: unknown }[];
    if (!legacy.every((m) => m !== null && typeof m === 'object' && typeof m.move === 'string' && typeof m.ms === 'number')) return null;
    raw['moves'] = legacy.map((m) => m.move as string);
    raw['us'] = legacy.map((m) => Math.round((m.ms as number) * 1000));
  } else return null;
  return raw as unknown as GameRecord;
}

/** One whole line of a log file, as text. */
export interface LogLine {
  readonly text: string;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset just past this line's newline: everything before it is whole lines. */
  readonly end: number;
}

/**
 * Streams the whole lines of a log file in constant memory (one read buffer, one line at a time).
 * A last line without its newline (a write cut short by a crash) is not yielded: the caller sees
 * where the whole lines end (`end`) and truncates there.
 */
export function* readLines(file: string, chunkBytes = 1 << 20): Generator<LogLine> {
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(chunkBytes);
    let have = 0; // bytes in buf
    let base = 0; // file offset of buf[0]
    let line = 0;
    let eof = false;
    for (;;) {
      if (!eof) {
        if (have === buf.length) {
          const bigger = Buffer.allocUnsafe(buf.length * 2); // a line longer than the buffer
          buf.copy(bigger, 0, 0, have);
          buf = bigger;
        }
        const n = readSync(fd, buf, have, buf.length - have, base + have);
        if (n === 0) eof = true;
        have += n;
      }
      const view = buf.subarray(0, have);
      let pos = 0;
      for (;;) {
        const nl = view.indexOf(10, pos);
        if (nl < 0) break;
        line++;
        const text = buf.toString('utf8', pos, nl);
        pos = nl + 1;
        yield { text, line, end: base + pos };
      }
      // Keep the unfinished line at the front of the buffer for the next read.
      buf.copy(buf, 0, pos, have);
      base += pos;
      have -= pos;
      if (eof) return;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Streams the records of a `games.jsonl` in constant memory. A last line without its newline is a
 * write cut short by a crash: it ends the stream (the caller truncates to the last `end` and
 * replays that game). Any other line that is not a game record is an error naming the file and
 * line. Checksums are not verified here: resume does that (results-guard.ts `scanLog`).
 */
export function* readLog(file: string, chunkBytes = 1 << 20): Generator<LogEntry> {
  for (const { text, line, end } of readLines(file, chunkBytes)) {
    const record = parseRecordLine(text);
    if (!record) throw new SpecError(`${file}:${line} is not a game line`);
    yield { record, line, end };
  }
}

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
 * A JSON string literal's bytes written at `at` (returns the end): the characters copied as they are
 * when none needs escaping (the usual case: labels, keys, notations), else `JSON.stringify`'s
 * text as UTF-8, so the bytes are always those of `JSON.stringify(s)`.
 */
function putString(buf: Buffer, at: number, s: string): number {
  buf[at] = 0x22;
  let i = at + 1;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) return at + buf.write(JSON.stringify(s), at, 'utf8');
    buf[i++] = c;
  }
  buf[i] = 0x22;
  return i + 1;
}

/** The characters of an ASCII string with nothing to escape (field names, JSON text already made), written at `at`. */
function putAscii(buf: Buffer, at: number, s: string): number {
  for (let k = 0; k < s.length; k++) buf[at++] = s.charCodeAt(k);
  return at;
}

/** Text that may hold any character (JSON already made, e.g. the start position): as UTF-8. */
function putText(buf: Buffer, at: number, s: string): number {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x80) return at - k + buf.write(s, at - k, 'utf8');
    buf[at++] = c;
  }
  return at;
}

/**
 * A number as `${n}` (and JSON) writes it: integers of up to 32 bits (every count, time and seed
 * of a record) as digits straight into the buffer, anything else through `String`.
 */
function putNumber(buf: Buffer, at: number, n: number): number {
  let u = n < 0 ? -n : n;
  if (u <= 0xffffffff && u >>> 0 === u) {
    if (n < 0) buf[at++] = 0x2d;
    const digits = u < 10 ? 1 : u < 100 ? 2 : u < 1e3 ? 3 : u < 1e4 ? 4 : u < 1e5 ? 5 : u < 1e6 ? 6 : u < 1e7 ? 7 : u < 1e8 ? 8 : u < 1e9 ? 9 : 10;
    const end = at + digits;
    for (let i = end - 1; i > at; i--) {
      const q = (u / 10) >>> 0;
      buf[i] = 0x30 + u - q * 10;
      u = q;
    }
    buf[at] = 0x30 + u;
    return end;
  }
  return putAscii(buf, at, String(n));
}

/** A list of numbers as a JSON array. */
function putNumbers(buf: Buffer, at: number, list: readonly number[]): number {
  buf[at++] = 0x5b;
  for (let i = 0; i < list.length; i++) {
    if (i > 0) buf[at++] = 0x2c;
    at = putNumber(buf, at, list[i]!);
  }
  buf[at] = 0x5d;
  return at + 1;
}

/** The moves as one JSON string, space-separated (no notation has a space: the log could not store it). */
function putMoves(buf: Buffer, at: number, list: readonly string[]): number {
  buf[at] = 0x22;
  let i = at + 1;
  for (let m = 0; m < list.length; m++) {
    const s = list[m]!;
    if (m > 0) buf[i++] = 0x20;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x20) throw new Error(`move notation ${JSON.stringify(s)} has a space: the log cannot store it`);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) return at + buf.write(JSON.stringify(list.join(' ')), at, 'utf8');
      buf[i++] = c;
    }
  }
  buf[i] = 0x22;
  return i + 1;
}

/** A string, or `null`. */
function putStringOrNull(buf: Buffer, at: number, s: string | null): number {
  return s === null ? putAscii(buf, at, 'null') : putString(buf, at, s);
}

/**
 * An upper bound of the bytes `encodeOpen` writes for a record whose start position is the JSON
 * text `start`: every string character at most 6 bytes (a `\u00XX` escape), every number 24.
 */
function encodedBound(r: GameRecord, start: string): number {
  let chars = r.key.length + r.variant.length + r.seats.first.length + r.seats.second.length + (r.winner?.length ?? 0) + (r.reason?.length ?? 0);
  const list = r.moves;
  for (let i = 0; i < list.length; i++) chars += list[i]!.length + 1;
  return 6 * chars + 3 * start.length + 24 * (list.length + (r.ovh?.length ?? 0)) + 1024;
}

/**
 * Writes a game's line without its closing brace and newline into `buf` at `at` (room for
 * `encodedBound` bytes is the caller's) and returns the end. The bytes are those of
 * `JSON.stringify` of the record's fields in a fixed order (the compact record: moves one
 * space-separated string, times integer microseconds), written straight into the batch buffer:
 * no string of the line is made. The log seals it there (results-guard.ts) by adding its checksum
 * field and the brace.
 */
function encodeOpen(buf: Buffer, at: number, r: GameRecord, start: string): number {
  at = putAscii(buf, at, '{"index":');
  at = putNumber(buf, at, r.index);
  at = putAscii(buf, at, ',"key":');
  at = putString(buf, at, r.key);
  at = putAscii(buf, at, ',"variant":');
  at = putString(buf, at, r.variant);
  at = putAscii(buf, at, ',"deal":');
  at = putNumber(buf, at, r.deal);
  at = putAscii(buf, at, ',"dealSeed":');
  at = putNumber(buf, at, r.dealSeed);
  at = putAscii(buf, at, ',"seating":');
  at = putNumber(buf, at, r.seating);
  at = putAscii(buf, at, ',"seats":{"first":');
  at = putString(buf, at, r.seats.first);
  at = putAscii(buf, at, ',"second":');
  at = putString(buf, at, r.seats.second);
  at = putAscii(buf, at, '},"botSeeds":{"first":');
  at = putNumber(buf, at, r.botSeeds.first);
  at = putAscii(buf, at, ',"second":');
  at = putNumber(buf, at, r.botSeeds.second);
  at = putAscii(buf, at, '},"start":');
  at = putText(buf, at, start);
  at = putAscii(buf, at, ',"moves":');
  at = putMoves(buf, at, r.moves);
  at = putAscii(buf, at, ',"us":');
  at = putNumbers(buf, at, r.us);
  if (r.ovh) {
    at = putAscii(buf, at, ',"ovh":');
    at = putNumbers(buf, at, r.ovh);
    at = putAscii(buf, at, ',"timeControl":{"baseMs":');
    at = putNumber(buf, at, r.timeControl!.baseMs);
    at = putAscii(buf, at, ',"incMs":');
    at = putNumber(buf, at, r.timeControl!.incMs);
    buf[at++] = 0x7d;
  }
  const o = r.outcome;
  at = putAscii(buf, at, ',"outcome":{"winner":');
  at = putStringOrNull(buf, at, o.winner);
  if (o.scores) {
    at = putAscii(buf, at, ',"scores":[');
    at = putNumber(buf, at, o.scores[0]);
    buf[at++] = 0x2c;
    at = putNumber(buf, at, o.scores[1]);
    buf[at++] = 0x5d;
  }
  at = putAscii(buf, at, '},"winner":');
  at = putStringOrNull(buf, at, r.winner);
  at = putAscii(buf, at, ',"termination":');
  at = putString(buf, at, r.termination);
  at = putAscii(buf, at, ',"faulty":');
  at = putStringOrNull(buf, at, r.faulty);
  at = putAscii(buf, at, ',"reason":');
  at = putStringOrNull(buf, at, r.reason);
  if (r.adjudicated) {
    at = putAscii(buf, at, ',"adjudicated":{"value":');
    at = putNumber(buf, at, r.adjudicated.value);
    at = putAscii(buf, at, ',"ply":');
    at = putNumber(buf, at, r.adjudicated.ply);
    buf[at++] = 0x7d;
  }
  if (r.retries) {
    at = putAscii(buf, at, ',"retries":');
    at = putNumber(buf, at, r.retries);
  }
  if (r.clockStops) {
    at = putAscii(buf, at, ',"clockStops":{"first":');
    at = putNumber(buf, at, r.clockStops.first);
    at = putAscii(buf, at, ',"second":');
    at = putNumber(buf, at, r.clockStops.second);
    buf[at++] = 0x7d;
  }
  return at;
}

/**
 * One game as its compact log line: one self-describing JSON object (the bytes `JSON.stringify`
 * would write for its fields in this order), with the moves as one space-separated string (no
 * notation has a space) and the move times as integer microseconds.
 */
export function recordLine(r: GameRecord): string {
  const start = JSON.stringify(r.start);
  const buf = Buffer.allocUnsafe(encodedBound(r, start) + 2);
  const end = encodeOpen(buf, 0, r, start);
  buf[end] = 0x7d;
  buf[end + 1] = 0x0a;
  return buf.toString('utf8', 0, end + 2);
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
   * `chain` seals every batch (see results-guard.ts).
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
    const start = JSON.stringify(record.start);
    // The checksum field and newline take 44 bytes more.
    const room = encodedBound(record, start) + 64;
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
        this.flush().catch(() => {});
      }
    } else this.#timer ??= setTimeout(() => this.flush().catch(() => {}), this.#intervalMs);
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
    while (this.#flushing) await this.#flushing.catch(() => {});
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
