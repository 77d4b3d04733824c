/**
 * The fold's checkpoint (`fold.state`): what the standings need, written when a run closes its
 * folder, so that resuming a folder whose log has not changed since reads the standings back
 * instead of reading, verifying and replaying every game of the log. It is sealed as a log line is
 * (chain.ts): keyed with the folder's secret and chained to the log's last checksum, and it records
 * the log's length and modification time. Resume trusts it only when all hold (its seal verifies
 * from the last checksum of the log as it is, and the log has that length and time); otherwise, and
 * for a checkpoint of another version, it reads and verifies the whole log as ever. So an edited,
 * forged or stale checkpoint, or a log written to since, costs a full read, never a wrong standing:
 * the state it holds is the fold of exactly the lines it was sealed after, as the runner that wrote
 * them folded them. (A log edited in place with its time set back is not read, and its standings
 * are those of the lines as the runner wrote them; any reader of the log still finds the edit.)
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/files.ts';
import { LogChain, SEALED } from './chain.ts';
import { GUARD_FILES, RESULTS_FILES } from './folder.ts';

/** The checkpoint's format: a file of another version is not read (the log is, instead). */
const VERSION = 1;

/** The longest last line looked for at the end of a log (a longer one: no checkpoint, the log is read). */
const MAX_LINE = 16 << 20;

/** Where the log stands: its length in bytes, its modification time (ms) and the checksum of its last line (which seals it). */
interface LogHead {
  readonly bytes: number;
  readonly mtimeMs: number;
  readonly last: string;
}

/** The log's head, read from its end: null when it does not end with a sealed whole line. */
function logHead(file: string): LogHead | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    const bytes = stat.size;
    // Whole milliseconds: what a copy that keeps times keeps.
    const mtimeMs = Math.floor(stat.mtimeMs);
    // The last line, from the newline before it: read backwards in growing pieces.
    for (let want = 4096; ; want *= 2) {
      const len = Math.min(bytes, want, MAX_LINE + 1);
      const buf = Buffer.allocUnsafe(len);
      const n = readSync(fd, buf, 0, len, bytes - len);
      if (n !== len || len === 0 || buf[len - 1] !== 10) return null;
      const start = buf.lastIndexOf(10, len - 2);
      if (start < 0 && len < bytes) {
        if (len > MAX_LINE) return null;
        continue;
      }
      const m = SEALED.exec(buf.toString('utf8', start + 1, len - 1));
      return m ? { bytes, mtimeMs, last: m[1]! } : null;
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes the checkpoint of `state` (JSON) for the folder's log as it is now; nothing when the log has no sealed line. */
export function writeCheckpoint(dir: string, key: Buffer, state: unknown): void {
  const head = logHead(join(dir, RESULTS_FILES.games));
  if (!head) return;
  const body = JSON.stringify({ v: VERSION, log: head, state });
  writeFileAtomic(join(dir, GUARD_FILES.checkpoint), `${new LogChain(key, head.last).seal(body)}\n`);
}

/**
 * The checkpoint's state and the log's head when the checkpoint can be trusted for the log as it
 * is now (see the module's comment), else null.
 */
export function readCheckpoint(dir: string, key: Buffer): { readonly state: unknown; readonly log: LogHead } | null {
  let text: string;
  try {
    text = readFileSync(join(dir, GUARD_FILES.checkpoint), 'utf8').trimEnd();
  } catch {
    return null; // none: the log is read
  }
  const head = logHead(join(dir, RESULTS_FILES.games));
  if (!head || !new LogChain(key, head.last).verify(text)) return null;
  let saved: { v?: unknown; log?: { bytes?: unknown; mtimeMs?: unknown; last?: unknown }; state?: unknown };
  try {
    saved = JSON.parse(text) as typeof saved;
  } catch {
    return null; // sealed, yet not JSON: not a checkpoint this arena wrote
  }
  if (saved.v !== VERSION || saved.log?.bytes !== head.bytes || saved.log.mtimeMs !== head.mtimeMs || saved.log.last !== head.last) return null;
  return { state: saved.state, log: head };
}
