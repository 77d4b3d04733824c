/**
 * Files written whole: a reader (another process, a resume after a crash) sees the old content or
 * the new one, never half of either.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Options of `writeFileAtomic`. */
export interface AtomicWriteOptions {
  /** Mode of a file that did not exist (default 0o644, less the umask). */
  readonly mode?: number;
  /** Fsync the data before the rename (default true): off only for caches, which may be lost. */
  readonly fsync?: boolean;
}

/** Temporary names are unique within the process; the pid makes them unique between processes. */
let counter = 0;

/**
 * Writes `data` to `path` atomically: a temporary file beside it (so the rename stays on one file
 * system), fsynced, then renamed over `path`. Where fsync is refused (Node's permission model
 * refuses it on Node 20, as in a sandboxed bot) the rename is still atomic. The temporary file is
 * removed when anything fails.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  counter = (counter + 1) >>> 0;
  const tmp = `${path}.${process.pid}-${counter}.tmp`;
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    const fd = openSync(tmp, 'w', options.mode ?? 0o644);
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      if (options.fsync !== false) fsyncWherePermitted(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Fsyncs a file, unless the permission model refuses it (the data then reaches the disk in its own time). */
function fsyncWherePermitted(fd: number): void {
  try {
    fsyncSync(fd);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw err;
  }
}

/** The largest tournament spec read, fresh or saved in a results folder (a spec is a few kB; the limit keeps a damaged or planted file from filling memory). */
export const MAX_SPEC_BYTES = 16 << 20;

/**
 * What is wrong with `path` as a small text file to read whole (a spec, a manifest), or null: it
 * must be there, be a regular file (not a folder, a device such as /dev/zero, or a pipe, which would
 * block or never end) and hold at most `maxBytes`. Links are followed.
 */
export function textFileProblem(path: string, maxBytes: number): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (stat.isDirectory()) return 'it is a folder, not a file';
  if (!stat.isFile()) return 'it is not a regular file (a device, a pipe or a socket)';
  if (stat.size > maxBytes) return `it holds ${stat.size} bytes, more than the ${maxBytes} expected at most`;
  return null;
}

/**
 * What is wrong with `path` as a file to write (a report), or null: checked before the work that
 * makes its content, so that a run never ends in an error it could have said at once. An existing
 * regular file is overwritten; a folder, a device or a place where no file can be created (a missing
 * folder, a read-only or virtual file system such as /proc) is refused. The folder is probed by
 * creating and removing an empty file of its own.
 */
export function outputFileProblem(path: string): string | null {
  const file = resolve(path);
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) return 'it is a folder; name a file in it';
    if (!stat.isFile()) return 'it is not a regular file (a device, a pipe or a socket)';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `it cannot be reached (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  const folder = dirname(file);
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `its folder ${folder} does not exist`;
  }
  const probe = join(folder, `.take-arena-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    rmSync(probe, { force: true });
    return null;
  } catch (err) {
    return `no file can be created in ${folder} (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

/**
 * Creates folder `path` and the missing folders above it, as `mkdirSync(path, { recursive: true })`
 * does, one level at a time from the nearest one that exists. (Node's recursive mkdir loops for
 * ever where a parent refuses new entries with ENOENT, as `/proc` does: `--out /proc/nope` hung.)
 * Throws the first level's error (ENOENT, EACCES, ENOTDIR, EEXIST for a file in the way).
 */
export function makeDirs(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    let isDir: boolean | null = null;
    try {
      isDir = statSync(dir).isDirectory();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (isDir === true) break;
    if (isDir === false) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path: dir });
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, mode === undefined ? undefined : { mode });
    } catch (err) {
      // Made meanwhile by another process (two runs writing to one folder): as good as made here.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw err;
    }
  }
}

/** What a file-system error means, in a few words for a one-line message (its code when it is not one of the usual ones). */
export function fsErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'a folder on the way does not exist, or takes no new entries (a virtual file system such as /proc)';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder should be';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENAMETOOLONG':
      return 'a name in the path is too long';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}
