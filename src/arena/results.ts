import { closeSync, existsSync, fdatasync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, statSync, write, writeFileSync, renameSync, fsyncSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SpecError, UsageError } from '../core/errors.ts';
import type { GameRecord } from './match.ts';

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

/** What a results folder holds when resuming. */
export interface ExistingResults {
  /** The spec saved when the tournament started (raw JSON). */
  readonly spec: unknown;
  /** The finished games, in log order. */
  readonly records: GameRecord[];
  /** Byte length of the complete lines: a truncated last line beyond it is cut before appending. */
  readonly validBytes: number;
  /** Whether a truncated last line was dropped (its game is replayed). */
  readonly droppedPartial: boolean;
}

/**
 * Reads a results folder for `--resume`. A last line without its newline (or not valid JSON) is a
 * write cut short by a crash: it is dropped and its game played again. Anything else unreadable
 * is an error, and nothing is changed in the folder here.
 */
export function readResults(dir: string): ExistingResults {
  const specFile = join(dir, RESULTS_FILES.spec);
  const gamesFile = join(dir, RESULTS_FILES.games);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--resume: ${dir} does not exist`);
  }
  if (!isDir || !existsSync(specFile) || !existsSync(gamesFile)) {
    throw new UsageError(`--resume: ${dir} is not a results folder (expected ${RESULTS_FILES.spec} and ${RESULTS_FILES.games} in it)`);
  }
  let spec: unknown;
  try {
    spec = JSON.parse(readFileSync(specFile, 'utf8')) as unknown;
  } catch {
    throw new SpecError(`--resume: ${specFile} is not valid JSON`);
  }
  const buf = readFileSync(gamesFile);
  const records: GameRecord[] = [];
  let pos = 0;
  let line = 0;
  let droppedPartial = false;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    line++;
    if (nl < 0) {
      droppedPartial = true; // cut short by a crash
      break;
    }
    const text = buf.toString('utf8', pos, nl);
    let rec: GameRecord;
    try {
      rec = JSON.parse(text) as GameRecord;
    } catch {
      throw new SpecError(`--resume: ${gamesFile}:${line} is not a valid game line`);
    }
    if (typeof rec?.key !== 'string' || typeof rec.termination !== 'string') {
      throw new SpecError(`--resume: ${gamesFile}:${line} is not a game line (no key or termination)`);
    }
    records.push(rec);
    pos = nl + 1;
  }
  return { spec, records, validBytes: pos, droppedPartial };
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
 * The append-only results log with group commit: lines are appended as games finish and the
 * batch is fsynced every `intervalMs` (or every `maxBatch` lines); `append` resolves only once its
 * line is on disk, so a game is reported only after it is durable. A crash loses at most games
 * that were never reported, and resume replays exactly those.
 */
export class ResultsLog {
  readonly file: string;
  readonly #fd: number;
  readonly #intervalMs: number;
  readonly #maxBatch: number;
  #lines: string[] = [];
  /** The batch being filled: every line in it is durable when its one promise settles. */
  #batch: Deferred | null = null;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #failed: Error | null = null;

  /** Opens `games.jsonl` for appending; `truncateTo` cuts a partial last line first (resume). */
  constructor(file: string, options: { truncateTo?: number; intervalMs?: number; maxBatch?: number } = {}) {
    this.file = file;
    this.#fd = openSync(file, 'a');
    if (options.truncateTo !== undefined && fstatSync(this.#fd).size > options.truncateTo) ftruncateSync(this.#fd, options.truncateTo);
    this.#intervalMs = options.intervalMs ?? 25;
    this.#maxBatch = options.maxBatch ?? 512;
  }

  /**
   * Appends one finished game; resolves when its line is fsynced. Lines of one batch share one
   * promise (its callbacks run in append order), rather than a promise and a waiter per game.
   */
  append(record: GameRecord): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    this.#lines.push(`${JSON.stringify(record)}\n`);
    const done = (this.#batch ??= deferred()).promise;
    if (this.#lines.length >= this.#maxBatch) this.flush().catch(() => {});
    else this.#timer ??= setTimeout(() => this.flush().catch(() => {}), this.#intervalMs);
    return done;
  }

  /** Writes and fsyncs everything appended so far. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (this.#flushing) await this.#flushing.catch(() => {});
    if (this.#lines.length === 0) return;
    const data = Buffer.from(this.#lines.join(''), 'utf8');
    const batch = this.#batch!;
    this.#lines = [];
    this.#batch = null;
    const fd = this.#fd;
    this.#flushing = new Promise<void>((res, rej) => {
      // Whole lines in as few writes as the OS allows: a crash mid-write leaves at most one partial
      // line at the end, which resume drops.
      const from = (offset: number): void => {
        write(fd, data, offset, data.length - offset, null, (err, n) => {
          if (err) return rej(err);
          if (offset + n < data.length) return from(offset + n);
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
