/**
 * A results folder as a run holds it: created, or reopened for `--resume` (its log verified line by
 * line, repaired when a line cannot be trusted, cut after its last whole line), locked for the
 * whole run, and its log open for appending.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/files.ts';
import type { IndexSet } from '../index-set.ts';
import type { GameRecord } from '../match.ts';
import { LogChain } from './chain.ts';
import { readCheckpoint, writeCheckpoint } from './checkpoint.ts';
import { createLogKey, createResultsDir, GUARD_FILES, lockResultsDir, openResultsFolder, readLogKey, RESULTS_FILES } from './folder.ts';
import { ResultsLog } from './log.ts';
import { repairLog, scanLog, type DropCounts, type LineJudge } from './scan.ts';

/** A results folder open for a run. */
export interface RunFolder {
  readonly dir: string;
  /** The log, open for appending (group commit). */
  readonly log: ResultsLog;
  /** When the tournament first started: now, or when a resumed folder's spec was written. */
  readonly startedAt: Date;
  /** Lines a resume could not trust: how many per reason, and the file they were moved to. */
  readonly repaired?: { readonly dropped: DropCounts; readonly quarantine: string };
  /**
   * Flushes and closes the log, then releases the folder's lock (also when the flush fails). With
   * `checkpoint`, the run's state (JSON) is sealed for the log as closed (checkpoint.ts), for a
   * later resume to take up instead of reading the log.
   */
  close(checkpoint?: () => unknown): Promise<void>;
}

/** Creates a new results folder `<out>/<name>-<timestamp>` with the spec as it will run, a new chain key and an empty log. */
export function createRunFolder(out: string, name: string, spec: unknown): RunFolder {
  const dir = createResultsDir(out, name);
  const release = lockResultsDir(dir);
  try {
    writeFileAtomic(join(dir, RESULTS_FILES.spec), `${JSON.stringify(spec, null, 2)}\n`);
    const key = createLogKey(dir);
    const log = new ResultsLog(join(dir, RESULTS_FILES.games), { chain: new LogChain(key) });
    return runFolder(dir, key, log, new Date(), release);
  } catch (err) {
    release();
    throw err;
  }
}

/** What a resume checks each verified line against: the schedule. */
export interface ResumeCheck {
  /** The key of the game at a schedule index, or null when the schedule has no such index. */
  keyAt(index: number): string | null;
  /** Filled with the index of every game kept (played: not interrupted). */
  readonly played: IndexSet;
}

/**
 * Reopens a results folder for `--resume`. When the folder's checkpoint holds for its log as it is
 * (checkpoint.ts) and `restore` takes up its state, the log is not read. Otherwise the log is
 * streamed once in constant memory: each line's checksum is verified and its game checked against
 * the schedule (the first line of each scheduled game is kept); each kept game is handed to
 * `onRecord` and its index added to `check.played`. Lines that cannot be trusted are moved to the
 * quarantine file and the log is rewritten without them (a second pass); a partial last line is cut off.
 */
export function resumeRunFolder(dir: string, check: ResumeCheck, onRecord: (record: GameRecord) => void, restore?: (state: unknown) => boolean): RunFolder {
  const { gamesFile } = openResultsFolder(dir);
  const release = lockResultsDir(dir);
  try {
    const startedAt = statSync(join(dir, RESULTS_FILES.spec)).mtime; // written when the first run started
    const key = readLogKey(dir);
    const saved = restore && readCheckpoint(dir, key);
    if (saved && restore(saved.state)) {
      const log = new ResultsLog(gamesFile, { truncateTo: saved.log.bytes, chain: new LogChain(key, saved.log.last) });
      return runFolder(dir, key, log, startedAt, release);
    }
    const scan = scanLog(gamesFile, key, keepFirst(check, check.played), (_text, rec) => {
      if (rec && rec.termination !== 'interrupted') onRecord(rec);
    });
    if (!scan.anyDropped) {
      const log = new ResultsLog(gamesFile, { truncateTo: scan.validBytes, chain: new LogChain(key, scan.last) });
      return runFolder(dir, key, log, startedAt, release);
    }
    const chain = repairLog(dir, gamesFile, key, keepFirst(check, check.played.emptyCopy()));
    const repaired = { dropped: scan.dropped, quarantine: join(dir, GUARD_FILES.quarantine) };
    return runFolder(dir, key, new ResultsLog(gamesFile, { chain }), startedAt, release, repaired);
  } catch (err) {
    release();
    throw err;
  }
}

/** Keeps the first line of each scheduled game, remembering its index in `seen` (interrupted games are not results). */
function keepFirst(schedule: Pick<ResumeCheck, 'keyAt'>, seen: IndexSet): LineJudge {
  return (rec) => {
    if (schedule.keyAt(rec.index) !== rec.key) return 'unscheduled';
    if (seen.has(rec.index)) return 'duplicate';
    if (rec.termination !== 'interrupted') seen.add(rec.index);
    return null;
  };
}

function runFolder(dir: string, key: Buffer, log: ResultsLog, startedAt: Date, release: () => void, repaired?: RunFolder['repaired']): RunFolder {
  return {
    dir,
    log,
    startedAt,
    ...(repaired ? { repaired } : {}),
    async close(checkpoint) {
      try {
        await log.close();
        // Sealed while the folder is still locked: no other runner appends between.
        if (checkpoint) writeCheckpoint(dir, key, checkpoint());
      } finally {
        release();
      }
    },
  };
}
