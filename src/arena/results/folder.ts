/**
 * A results folder on disk: its files, its creation, its lock (two runners never append to one
 * folder) and its chain key. The key is a random secret in `games.key` (mode 0600) beside the log.
 * Under isolation `sandbox` no bot can see the results folder at all; under `worker` and `process`
 * a bot runs with the user's rights and could read the key, so there the chain detects corruption
 * and naive forgery, not a bot that knows this file (docs/SECURITY.md).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SpecError, UsageError } from '../../core/errors.ts';
import { pidAlive } from '../../platform/bundle.ts';
import { fsErrorText, makeDirs, MAX_SPEC_BYTES, textFileProblem } from '../../platform/files.ts';
import { parseJsonText } from '../spec.ts';

/** File names inside a results folder. */
export const RESULTS_FILES = {
  spec: 'spec.json',
  games: 'games.jsonl',
  summary: 'summary.json',
  standings: 'standings.csv',
} as const;

/** The guard's files inside a results folder. */
export const GUARD_FILES = {
  /** The tournament's chain key (hex, mode 0600). */
  key: 'games.key',
  /** The pid of the runner using the folder; removed when it finishes. */
  lock: 'runner.lock',
  /** Lines resume dropped, appended as they were. */
  quarantine: 'games.quarantine.jsonl',
  /** What the standings need, sealed for the log as it was when the run closed (checkpoint.ts). */
  checkpoint: 'fold.state',
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
  try {
    makeDirs(out);
  } catch (err) {
    throw new UsageError(`Cannot create the results folder ${out}: ${fsErrorText(err)}`);
  }
  const base = join(resolve(out), `${name}-${timestamp(now)}`);
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`Cannot create a results folder in ${out}: ${fsErrorText(err)}`);
    }
  }
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
  // Each must be a regular file (a link to /dev/zero or a pipe would never end or block), the spec a small one.
  const specProblem = textFileProblem(specFile, MAX_SPEC_BYTES);
  const logProblem = textFileProblem(gamesFile, Number.MAX_SAFE_INTEGER);
  if (specProblem !== null) throw new SpecError(`${who}: cannot read ${specFile}: ${specProblem}`);
  if (logProblem !== null) throw new SpecError(`${who}: cannot read ${gamesFile}: ${logProblem}`);
  return { dir, spec: parseJsonText(readFileSync(specFile, 'utf8'), `${who}: ${specFile}`), gamesFile };
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
    throw new UsageError(`${dir} has no ${GUARD_FILES.key} (written by an older take-arena, or the key was removed), so its lines cannot be verified; run the tournament again`);
  }
  // Read by --resume, report and replay alike: the message names the file, not the command.
  if (!/^[0-9a-f]{64}$/.test(text)) throw new UsageError(`${file} is not a key (expected 64 hex digits): the folder's lines cannot be verified`);
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

