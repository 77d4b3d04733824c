/**
 * Reading a log back: its lines streamed in constant memory, and the scan that resume trusts (each
 * line's checksum verified, each game judged against the schedule), with the repair that moves
 * every line resume cannot trust (garbage, a failed checksum, a duplicate key, a game that is not
 * in the schedule) to a quarantine file, with the counts, instead of blocking resume.
 */
import { closeSync, existsSync, fsyncSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SpecError } from '../../core/errors.ts';
import type { GameRecord } from '../match.ts';
import { isSealed, LogChain, SEAL_EVERY, SEALED } from './chain.ts';
import { parseRecordLine } from './codec.ts';
import { GUARD_FILES, readLogKey } from './folder.ts';

/** A line of the log as a reader sees it. */
export interface LogEntry {
  readonly record: GameRecord;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset just past this line's newline: everything before it is whole lines. */
  readonly end: number;
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
 * Streams the whole lines of a log file in constant memory (one read buffer, one line at a time),
 * each without its line end (`\n`, or `\r\n` in a log saved on Windows). A last line without its newline (a write cut short by a crash) is not yielded: the caller sees
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
        // A log saved with Windows line ends (CRLF) holds the same lines: the `\r` is not part of one.
        const text = buf.toString('utf8', pos, nl > pos && buf[nl - 1] === 13 ? nl - 1 : nl);
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
 * line. Checksums are not verified here: `scanLog` does that.
 */
export function* readLog(file: string, chunkBytes = 1 << 20): Generator<LogEntry> {
  for (const { text, line, end } of readLines(file, chunkBytes)) {
    const record = parseRecordLine(text);
    if (!record) throw new SpecError(`${file}:${line} is not a game line`);
    yield { record, line, end };
  }
}

/** Why resume dropped a line. */
export type DropReason = 'garbage' | 'checksum' | 'duplicate' | 'unscheduled' | 'partial';
/** Lines a reader holds waiting for a seal before it gives the oldest up as unverifiable (honest runs are far shorter). */
const MAX_WAITING = 8 * SEAL_EVERY;

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


/** What a reader of a log could vouch for (see `readFinishedGames`). */
export interface LogReading {
  /** False for folders without `games.key` (written before lines were checksummed): nothing verified. */
  readonly verified: boolean;
  /** Lines left out, e.g. `2 lines dropped (2 failed checksum)`, or null. */
  readonly dropped: string | null;
}

/**
 * Streams the finished games of a results folder's log `file` to `take`, in log order, as the
 * report and replay show them: with the folder's key, only lines whose checksum verifies and whose
 * key is new (as resume trusts them; the others, garbage included, are left out and counted);
 * without one (an older folder), every game line with a new key, unverified.
 */
export function readFinishedGames(dir: string, file: string, take: (rec: GameRecord) => void): LogReading {
  const seen = new Set<string>();
  if (!existsSync(join(dir, GUARD_FILES.key))) {
    for (const { record } of readLog(file)) {
      if (seen.has(record.key)) continue;
      seen.add(record.key);
      take(record);
    }
    return { verified: false, dropped: null };
  }
  const scan = scanLog(
    file,
    readLogKey(dir),
    (rec) => (seen.has(rec.key) ? 'duplicate' : (seen.add(rec.key), null)),
    (_text, rec) => {
      if (rec) take(rec);
    },
  );
  return { verified: true, dropped: scan.anyDropped ? droppedText(scan.dropped) : null };
}
