/**
 * A bot's persistent store (`ctx.store`, see `BotStore` in src/core/bot.ts): one folder per bot, one
 * file per key (`<key>.json` for a small JSON value, `<key>.bin` for a blob), each written to a
 * temporary name, fsynced and renamed over the old one, so a reader sees the old file or the new,
 * never half of one. Every file starts with a header (magic, length, CRC-32), so a torn or edited
 * file is noticed. The folder's total size is capped.
 *
 * Reads come from a snapshot taken once, when the host starts (before any game of the run), and
 * handed to every worker of the bot; writes go to disk at once and are read by the next run. So a
 * bot that learns plays the same games for the same spec, seed and starting store, however many
 * threads play its games and in whatever order they finish. `updateBlob` is the one read of the
 * live folder: a read–modify–write under a lock file, so concurrent threads merge their learning
 * instead of overwriting each other.
 *
 * A folder that is corrupt (a bad header, a checksum mismatch, unparsable JSON, a stray file, a
 * link) or over its cap when the snapshot is taken is emptied with a warning; it never stops a run.
 * Nothing in the bot-data tree is followed: a link in place of a bot's folder or of one of its files
 * is removed (never the file it points to), a file is read only when it is a regular file.
 */
import { closeSync, constants, existsSync, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import type { BotStore } from '../core/bot.ts';
import { visible } from '../core/text.ts';
import { makeDirs } from './files.ts';

/** Default cap of one bot's store folder: 4 MiB. */
export const DEFAULT_STORE_CAP_BYTES = 4 << 20;
/** Largest small value (`set`), serialised: 64 KiB. Bigger data goes in a blob. */
export const MAX_VALUE_BYTES = 64 << 10;

const KEY = /^[A-Za-z0-9_-]{1,64}$/;
const MAGIC = 0x31534154; // "TAS1" little-endian
const HEADER = 12;

/** A write the store refuses: a bad key, a value too big, or the cap exceeded. The bot may catch it. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** The snapshot of a store folder: each key's file contents (payload only), by file name. */
export type StoreSnapshot = ReadonlyMap<string, Uint8Array>;

function encode(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, payload.length, true);
  view.setUint32(8, crc32(payload), true);
  out.set(payload, HEADER);
  return out;
}

/** The payload of a store file, or a string saying what is wrong with it. */
function decode(file: Uint8Array): Uint8Array | string {
  if (file.length < HEADER) return 'shorter than its header';
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return 'not a store file';
  const len = view.getUint32(4, true);
  if (len !== file.length - HEADER) return `length ${file.length - HEADER}, header says ${len}`;
  const payload = file.subarray(HEADER);
  if (crc32(payload) !== view.getUint32(8, true)) return 'checksum mismatch';
  return payload;
}

/** A store file's name: `<key>.json` or `<key>.bin`. */
function fileName(key: string, kind: 'json' | 'bin'): string {
  return `${key}.${kind}`;
}

function checkKey(key: string): void {
  if (!KEY.test(key)) throw new StoreError(`Expected a store key of 1 to 64 letters, digits, - or _, got ${JSON.stringify(key)}`);
}

/** What a store asks of its live copy. Names are store file names (`<key>.json`, `<key>.bin`). */
export type StoreRequest =
  /** Write a file (cap checked by the backend). */
  | { readonly op: 'put'; readonly name: string; readonly payload: Uint8Array }
  /** Write a file only if it is still at `version` (a compare-and-set: `updateBlob`). */
  | { readonly op: 'cas'; readonly name: string; readonly version: number; readonly payload: Uint8Array }
  /** Read a file and its version (0: never written). */
  | { readonly op: 'get'; readonly name: string }
  /** Remove files. */
  | { readonly op: 'del'; readonly names: readonly string[] }
  /** Bytes the live copy takes (files with their 12-byte headers, as on disk). */
  | { readonly op: 'used' };

/** The answer: `ok` false with `error` for a refused write (over the cap), `conflict` for a stale compare-and-set. */
export interface StoreReply {
  readonly ok: boolean;
  readonly payload?: Uint8Array | null;
  readonly version?: number;
  readonly bytes?: number;
  readonly conflict?: boolean;
  readonly error?: string;
}

/** Serves a store's requests on the host's thread. */
export interface StoreBackend {
  handle(request: StoreRequest): Promise<StoreReply>;
}

/** A synchronous call to a store's live copy (from the bot's side: its process or thread). */
export type StoreCall = (request: StoreRequest) => StoreReply;

/** Whether `name` is a store file's name (`<key>.json` or `<key>.bin`). */
export function isStoreFileName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && KEY.test(name.slice(0, dot)) && (name.endsWith('.json') || name.endsWith('.bin'));
}

/** Bytes the folder's store files take (temporary and lock files excluded). */
function folderBytes(dir: string): number {
  let total = 0;
  for (const name of safeList(dir)) if (isStoreFileName(name)) total += lstatSync(join(dir, name)).size;
  return total;
}

/** The names in a folder, or none when it cannot be read (absent, removed meanwhile). */
export function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Reads a store folder once for a run: every file checked, the total against the cap. A corrupt or
 * over-cap folder is emptied and `warn` told why (the run goes on with an empty store). A missing
 * folder is an empty store.
 */
export function readStoreSnapshot(dir: string, capBytes: number, warn: (message: string) => void): StoreSnapshot {
  ownFolder(dir, warn);
  const snapshot = new Map<string, Uint8Array>();
  let total = 0;
  let problem: string | null = null;
  for (const name of safeList(dir).sort()) {
    if (name.includes('.tmp-') || name.endsWith('.lock')) continue; // a write or a lock in flight
    if (!isStoreFileName(name)) {
      problem = `unexpected file ${name}`;
      break;
    }
    const data = readRegularFile(join(dir, name));
    if (data === null) {
      problem = `${name} is not a regular file`;
      break;
    }
    total += data.length;
    const payload = decode(data);
    if (typeof payload === 'string') {
      problem = `${name}: ${payload}`;
      break;
    }
    if (name.endsWith('.json')) {
      try {
        JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
      } catch {
        problem = `${name}: not valid JSON`;
        break;
      }
    }
    snapshot.set(name, payload);
  }
  if (problem === null && total > capBytes) problem = `${total} bytes, over its cap of ${capBytes}`;
  if (problem !== null) {
    warn(`bot store ${dir} was reset (${problem})`);
    // (rmSync removes a link itself, never what it points to, and never follows one inside a folder.)
    for (const name of safeList(dir)) rmSync(join(dir, name), { force: true, recursive: true });
    return new Map();
  }
  return snapshot;
}

/**
 * Makes sure `dir`, a bot's folder in the bot-data tree, is a folder and not a link to one (or a
 * file): anything else in its place is removed, never followed, with a warning. With `create`, a
 * missing folder is made.
 */
export function ownFolder(dir: string, warn: (message: string) => void, create = false): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    // None yet: nothing to check.
    if (create) makeDirs(dir);
    return;
  }
  if (st.isDirectory()) return;
  warn(`bot store ${dir} was reset (${st.isSymbolicLink() ? 'a link' : 'a file'} in place of its folder, removed without following it)`);
  unlinkSync(dir);
  if (create) makeDirs(dir);
}

/** A regular file's bytes, never through a link (null for a link, a folder, a pipe or a missing file). */
export function readRegularFile(path: string): Uint8Array | null {
  let fd: number;
  try {
    // O_NONBLOCK: opening a named pipe must not wait for a writer (it is then refused below).
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return new Uint8Array(buf.buffer, buf.byteOffset, off);
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` to `path` atomically: a temporary file, fsynced, renamed over the old one. */
export function writeAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.floor(performance.now() * 1000)}-${(tmpCounter = (tmpCounter + 1) >>> 0)}`;
  const fd = openSync(tmp, 'w');
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    try {
      fsyncSync(fd);
    } catch (err) {
      // Node's permission model (a sandboxed bot) refuses fsync on Node 20: the rename stays atomic,
      // and the arena's copy into the real folder is fsynced.
      if ((err as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw err;
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
let tmpCounter = 0;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Runs `fn` holding `<path>.lock` (an exclusive create); a lock older than 10 s is taken over as stale. */
function withLock<T>(path: string, fn: () => T): T {
  const lock = `${path}.lock`;
  const until = Date.now() + 5000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10_000) unlinkSync(lock);
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > until) throw new StoreError(`Store key locked for 5 s: ${lock}`);
      Atomics.wait(sleeper, 0, 0, 2);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Where a store keeps its files and how big it may grow. */
export interface StoreLocation {
  /** The bot's folder (created on the first write). */
  readonly dir: string;
  readonly capBytes: number;
  /**
   * Where this run keeps the snapshot it started from (a tournament's results folder): read from
   * there when it exists (a resumed run starts from the same store as the interrupted one, so it
   * plays the same games), else taken from `dir` and copied there.
   */
  readonly snapshotDir?: string;
}

/**
 * The snapshot a run of one bot reads: the copy kept for the run when there is one (resume),
 * else the bot's folder (checked, reset if it must be), copied for the run when it keeps copies.
 */
export function runSnapshot(location: StoreLocation, warn: (message: string) => void): StoreSnapshot {
  const kept = location.snapshotDir;
  if (kept !== undefined && existsSync(kept)) return readStoreSnapshot(kept, location.capBytes, warn);
  const snapshot = readStoreSnapshot(location.dir, location.capBytes, warn);
  if (kept !== undefined) {
    makeDirs(kept);
    for (const [name, payload] of snapshot) writeAtomic(join(kept, name), encode(payload));
  }
  return snapshot;
}

/**
 * Makes a folder hold exactly `files` (name → payload): files that differ are written atomically,
 * store files that are not in `files` are removed. How a queued run's live copy lands in the bot's
 * folder (src/arena/queue/stores.ts).
 */
export function mirrorStoreFolder(dir: string, files: StoreSnapshot, warn: (message: string) => void = warnOnStderr): void {
  ownFolder(dir, warn, true);
  for (const name of safeList(dir)) if (isStoreFileName(name) && !files.has(name)) rmSync(join(dir, name), { force: true });
  for (const [name, payload] of files) {
    if (!isStoreFileName(name)) continue;
    const path = join(dir, name);
    const bytes = readRegularFile(path);
    const now = bytes === null ? null : decode(bytes);
    if (now === null || typeof now === 'string' || Buffer.compare(now, payload) !== 0) writeAtomic(path, encode(payload));
  }
}

/** Where a store's writes go, and what `updateBlob` reads: its folder, memory, or a copy held elsewhere. */
interface LiveStore {
  write(name: string, payload: Uint8Array): void;
  remove(name: string): void;
  used(): number;
  update(name: string, update: (current: Uint8Array | undefined) => Uint8Array): void;
}

/** The bot's folder (or, without a location, memory): writes checked against the cap, `updateBlob` under a lock. */
function localLive(snapshot: StoreSnapshot, location: StoreLocation | null, capBytes: number): LiveStore {
  const memory = location === null ? new Map(snapshot) : null;
  const used = (): number => {
    if (memory) {
      let t = 0;
      for (const v of memory.values()) t += v.length + HEADER;
      return t;
    }
    return folderBytes(location!.dir);
  };
  const sizeOf = (name: string): number => {
    if (memory) {
      const v = memory.get(name);
      return v === undefined ? 0 : v.length + HEADER;
    }
    try {
      return lstatSync(join(location!.dir, name)).size;
    } catch {
      return 0; // not written yet
    }
  };
  const write = (name: string, payload: Uint8Array): void => {
    const grown = used() - sizeOf(name) + payload.length + HEADER;
    if (grown > capBytes) throw new StoreError(`Store over its cap: ${grown} bytes after writing ${name}, cap ${capBytes}`);
    if (memory) {
      memory.set(name, payload.slice());
      return;
    }
    makeDirs(location!.dir);
    writeAtomic(join(location!.dir, name), encode(payload));
  };
  return {
    write,
    used,
    remove(name) {
      if (memory) memory.delete(name);
      else rmSync(join(location!.dir, name), { force: true });
    },
    update(name, update) {
      if (memory) {
        write(name, update(memory.get(name)?.slice()));
        return;
      }
      const path = join(location!.dir, name);
      makeDirs(location!.dir);
      withLock(path, () => {
        const bytes = readRegularFile(path);
        const payload = bytes === null ? null : decode(bytes);
        const current = payload === null || typeof payload === 'string' ? undefined : payload; // a bad file is replaced
        write(name, update(current));
      });
    },
  };
}

/** A live copy held elsewhere (a queued run's Redis), reached synchronously through `call`. */
function remoteLive(call: StoreCall): LiveStore {
  const check = (reply: StoreReply): StoreReply => {
    if (!reply.ok && !reply.conflict) throw new StoreError(reply.error ?? 'store write refused');
    return reply;
  };
  return {
    write: (name, payload) => void check(call({ op: 'put', name, payload: payload.slice() })),
    remove: (name) => void check(call({ op: 'del', names: [name] })),
    used: () => check(call({ op: 'used' })).bytes ?? 0,
    // A compare-and-set loop: the function may run again when another thread or machine wrote the
    // blob between the read and the write (it must be a function of `current` alone, as it is for
    // a merge).
    update: (name, update) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const got = check(call({ op: 'get', name }));
        const next = update(got.payload ? got.payload.slice() : undefined);
        if (check(call({ op: 'cas', name, version: got.version ?? 0, payload: next })).ok) return;
      }
      throw new StoreError(`Store key ${name} kept changing under 100 attempts to update it`);
    },
  };
}

/**
 * The store a bot sees: reads from `snapshot`, writes to `location.dir` — or, without a location
 * (`bots check`, tests), to memory, with the same rule: reads still see the snapshot, and only
 * `updateBlob` sees what was written since. With `remote`, writes and `updateBlob` go to a live
 * copy held elsewhere (a queued tournament's Redis, see store-bridge.ts), and reads still see the
 * snapshot.
 */
export function createBotStore(snapshot: StoreSnapshot, location: StoreLocation | null, remote?: StoreCall): BotStore {
  const capBytes = location?.capBytes ?? DEFAULT_STORE_CAP_BYTES;
  const live = remote ? remoteLive(remote) : localLive(snapshot, location, capBytes);
  const read = (name: string): Uint8Array | undefined => snapshot.get(name);
  return Object.freeze({
    capBytes,
    usedBytes: live.used,
    get(key: string): unknown {
      checkKey(key);
      const bytes = read(fileName(key, 'json'));
      return bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
    },
    set(key: string, value: unknown): void {
      live.write(fileName(key, 'json'), jsonPayload(key, value));
    },
    getBlob(key: string): Uint8Array | undefined {
      checkKey(key);
      return read(fileName(key, 'bin'))?.slice();
    },
    setBlob(key: string, bytes: Uint8Array): void {
      checkKey(key);
      if (!(bytes instanceof Uint8Array)) throw new StoreError(`Expected a Uint8Array for store blob ${key}`);
      live.write(fileName(key, 'bin'), bytes);
    },
    updateBlob(key: string, update: (current: Uint8Array | undefined) => Uint8Array): void {
      checkKey(key);
      live.update(fileName(key, 'bin'), update);
    },
    delete(key: string): void {
      checkKey(key);
      live.remove(fileName(key, 'json'));
      live.remove(fileName(key, 'bin'));
    },
    keys(): string[] {
      return [...new Set([...snapshot.keys()].map((n) => n.slice(0, n.lastIndexOf('.'))))].sort();
    },
  });
}

/** A `set` value as its file's payload (key and size checked). */
function jsonPayload(key: string, value: unknown): Uint8Array {
  checkKey(key);
  const text = JSON.stringify(value);
  if (text === undefined) throw new StoreError(`Expected a JSON value for store key ${key}, got ${typeof value}`);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_VALUE_BYTES) throw new StoreError(`Store value ${key} is ${bytes.length} bytes; values are at most ${MAX_VALUE_BYTES} (use a blob)`);
  return bytes;
}

/** Where the bots of a run keep their stores: one folder per bot name under `root`. */
export interface BotDataSettings {
  /** The folder holding one sub-folder per bot. */
  readonly root: string;
  /** Cap of each bot's folder (bytes). */
  readonly capBytes: number;
  /** Where a reset store's warning goes (default: one line on stderr). */
  readonly warn?: (message: string) => void;
  /** Where the run keeps a copy of each bot's starting store (`<results>/bot-data`), for resume. */
  readonly snapshotRoot?: string;
}

/** The store files of a folder (names only; temporary and lock files excluded). */
export function storeFileNames(dir: string): string[] {
  return safeList(dir).filter(isStoreFileName).sort();
}

/** The payload of a sound store file named `name` (a valid header and checksum, JSON for a value), or null. */
export function storeFilePayload(name: string, bytes: Uint8Array): Uint8Array | null {
  if (!isStoreFileName(name)) return null;
  const payload = decode(bytes);
  if (typeof payload === 'string') return null;
  if (!name.endsWith('.json')) return payload;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    return payload;
  } catch {
    return null;
  }
}

/** The default bot-data folder: `$TAKE_ARENA_CACHE/bot-data`, else `$XDG_CACHE_HOME/take-arena/bot-data`, else `~/.cache/take-arena/bot-data`. */
export function defaultBotDataRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env['TAKE_ARENA_CACHE']) return join(env['TAKE_ARENA_CACHE'], 'bot-data');
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'take-arena', 'bot-data');
}

/** One bot's store folder under a bot-data root (the one path a host hands its bot). */
export function storeLocation(data: BotDataSettings, botName: string): StoreLocation {
  return {
    dir: join(data.root, botName),
    capBytes: data.capBytes,
    ...(data.snapshotRoot !== undefined ? { snapshotDir: join(data.snapshotRoot, botName) } : {}),
  };
}

/** The default warning: one line on stderr (it may name a bot's files: control characters made visible). */
export function warnOnStderr(message: string): void {
  process.stderr.write(`arena: warning: ${visible(message)}\n`);
}

/**
 * An external program's store folder, checked before it starts: its files are its own format, so
 * only the cap is enforced (an over-cap folder is emptied with a warning). Returns the folder,
 * created, for the program's `TAKE_ARENA_STORE` environment variable.
 */
export function prepareForeignStore(location: StoreLocation, warn: (message: string) => void): string {
  ownFolder(location.dir, warn);
  const total = treeBytes(location.dir);
  if (total > location.capBytes) {
    warn(`bot store ${location.dir} was reset (${total} bytes, over its cap of ${location.capBytes})`);
    rmSync(location.dir, { recursive: true, force: true });
  }
  makeDirs(location.dir);
  return location.dir;
}

function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of safeEntries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

function safeEntries(dir: string): import('node:fs').Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // absent or unreadable: it holds nothing to count
  }
}

/** A store in memory only (nothing persists): for `bots check`, tests, and hosts without a data folder. */
export function memoryStore(): BotStore {
  return createBotStore(new Map(), null);
}
