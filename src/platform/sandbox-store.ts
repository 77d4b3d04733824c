/**
 * The store of a sandboxed bot: a real folder it writes with `fs`, capped against a bot that
 * bypasses the store's own checks. A module bot's folder holds `ctx.store`'s files; an external
 * program's (`kind: 'program'`, `TAKE_ARENA_STORE` inside the sandbox) holds files of its own,
 * which in the sandbox must be a flat folder of regular files.
 *
 * The bot's folder itself may be out of the sandbox's reach (as root the sandbox runs as nobody,
 * who cannot enter `/root` or a 0700 temporary folder, and bubblewrap resolves bind sources as that
 * user). So each sandboxed bot gets a staging folder in a world-traversable temporary folder of this
 * arena, filled with its store's files when its first process starts, bound read-write at `/store`
 * (the only writable path it has), and its store files copied back into the real folder when its
 * host closes and when the arena exits. Every process of the bot in this arena shares the one
 * staging folder, so `updateBlob`'s lock merges their writes as in a worker; reads come from the
 * run-start snapshot, which the arena writes beside the bundle (read-only in the sandbox).
 *
 * Caps, beyond the store's own: RLIMIT_FSIZE (set by the caller: no file over the cap), and a
 * watch on the folder: any change is followed by a measure of everything in it (any name, links
 * not followed); a subfolder, a link, or more than twice the cap (room for an atomic rewrite) is a
 * breach — the bot's processes are killed (`onBreach`), the staging folder is emptied and nothing
 * of it is copied back. Copying back takes only regular files with store names and valid headers
 * (never following a link), so a bot cannot smuggle a host file into its store; a program's copy
 * takes every regular file (its files are its own) within the cap.
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { NOBODY } from './sandbox.ts';
import { mirrorStoreFolder, ownFolder, prepareForeignStore, readRegularFile, runSnapshot, safeList, storeFileNames, storeFilePayload, writeAtomic, type StoreLocation } from './bot-store.ts';

/** Where the store appears inside the sandbox. */
export const STORE_IN_SANDBOX = '/store';

let root: string | undefined;

/** This arena's folder of staging folders (`take-arena-workers-<pid>-store-…`: removed as stale after a SIGKILL). */
function stagingRoot(): string {
  if (!root) {
    const made = mkdtempSync(join(tmpdir(), `take-arena-workers-${process.pid}-store-`));
    chmodSync(made, 0o711); // the sandbox's user may pass through, not list
    root = made;
    process.once('exit', () => {
      for (const s of stores.values()) s.syncBack();
      rmSync(made, { recursive: true, force: true });
    });
  }
  return root;
}

/** Whether the arena runs as root (the sandbox then runs as nobody). */
function asRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

const stores = new Map<string, SandboxStore>();
let count = 0;

/** Whose folder it is: a module bot's `ctx.store`, or an external program's own files. */
export type SandboxStoreKind = 'module' | 'program';

/** One sandboxed bot's staging folder in this arena. */
export class SandboxStore {
  /** The staging folder (bound read-write at `/store`). */
  readonly staging: string;
  /** The run-start snapshot, v8-serialized (bound read-only beside the bundle). */
  readonly snapshotFile: string;
  readonly capBytes: number;
  readonly kind: SandboxStoreKind;
  readonly #location: StoreLocation;
  readonly #warn: (message: string) => void;
  readonly #breachListeners = new Set<(reason: string) => void>();
  #watcher: FSWatcher | null = null;
  #breached: string | null = null;
  #users = 0;
  readonly #key: string;

  /**
   * The staging folder of the bot whose store is `location`, shared by every host of it in this
   * arena until the last one `release`s it (a later run starts afresh from the real folder).
   */
  static for(location: StoreLocation, warn: (message: string) => void, kind: SandboxStoreKind = 'module'): SandboxStore {
    const key = `${kind}\0${location.dir}\0${location.snapshotDir ?? ''}`;
    let s = stores.get(key);
    if (!s) {
      s = new SandboxStore(location, warn, key, kind);
      stores.set(key, s);
    }
    s.#users++;
    return s;
  }

  /** A host is done with the folder: the last one copies it back and removes it. */
  release(): void {
    if (--this.#users > 0) return;
    this.syncBack();
    this.#watcher?.close();
    this.#watcher = null;
    stores.delete(this.#key);
    rmSync(this.staging, { recursive: true, force: true });
    rmSync(this.snapshotFile, { force: true });
  }

  private constructor(location: StoreLocation, warn: (message: string) => void, key: string, kind: SandboxStoreKind) {
    this.#key = key;
    this.#location = location;
    this.#warn = warn;
    this.capBytes = location.capBytes;
    this.kind = kind;
    const dir = join(stagingRoot(), `s${count++}`);
    mkdirSync(dir, { mode: 0o700 });
    this.snapshotFile = `${dir}.snapshot`;
    if (kind === 'module') {
      // The snapshot first: it checks the real folder (resetting a corrupt one) before it is copied.
      const snapshot = runSnapshot(location, warn);
      ownFolder(location.dir, warn); // (a resumed run's snapshot is the kept copy: the folder is checked here)
      for (const name of storeFileNames(location.dir)) {
        const bytes = readRegularFile(join(location.dir, name));
        if (bytes !== null) writeFileSync(join(dir, name), bytes);
      }
      writeFileSync(this.snapshotFile, serialize(new Map(snapshot)), { mode: 0o644 });
    } else {
      // A program reads its files as they are (no snapshot); an over-cap folder is emptied first.
      prepareForeignStore(location, warn);
      const names = safeList(location.dir);
      for (const name of names) {
        const bytes = readRegularFile(join(location.dir, name));
        if (bytes !== null) writeFileSync(join(dir, name), bytes);
      }
      if (names.some((name) => !lstatSync(join(location.dir, name)).isFile())) {
        warn(`bot store ${location.dir}: a sandboxed program sees only the folder's files, not its subfolders or links`);
      }
    }
    if (asRoot()) {
      chownSync(dir, NOBODY, NOBODY);
      for (const name of readdirSync(dir)) chownSync(join(dir, name), NOBODY, NOBODY);
    }
    this.staging = dir;
    this.#watcher = watch(dir, () => this.#check());
    this.#watcher.on('error', () => this.#check());
    this.#watcher.unref();
  }

  /** Hears a breach (the host kills the bot's processes). */
  onBreach(listener: (reason: string) => void): () => void {
    this.#breachListeners.add(listener);
    return () => this.#breachListeners.delete(listener);
  }

  /** Why the folder was found breaching its cap, or null. */
  get breached(): string | null {
    return this.#breached;
  }

  /**
   * Measures the folder; a breach empties it and tells the listeners (the host kills the bot's
   * processes), every time: a bot restarted after a breach is watched as before.
   */
  #check(): void {
    const why = this.#problem();
    if (why === null) return;
    if (this.#breached === null) this.#warn(`bot store ${this.#location.dir}: the sandboxed bot ${why}; its writes of this run are discarded`);
    this.#breached ??= why;
    for (const l of this.#breachListeners) l(`wrote past its store's limits (${why})`);
    this.#empty();
  }

  #problem(): string | null {
    let total = 0;
    let names: string[];
    try {
      names = readdirSync(this.staging);
    } catch {
      return null; // the folder is gone (released): nothing left to measure
    }
    for (const name of names) {
      let st;
      try {
        st = lstatSync(join(this.staging, name));
      } catch {
        continue; // renamed meanwhile
      }
      if (st.isDirectory()) return `made a folder (${name}) in its store`;
      if (!st.isFile()) return `made a link or special file (${name}) in its store`;
      total += st.size;
    }
    const limit = 2 * this.capBytes + (64 << 10);
    return total > limit ? `filled its store folder with ${total} bytes (cap ${this.capBytes})` : null;
  }

  #empty(): void {
    for (const name of safeList(this.staging)) rmSync(join(this.staging, name), { recursive: true, force: true });
  }

  /** Checks the folder now (a watch event may still be on its way). */
  check(): void {
    this.#check();
  }

  /**
   * Copies the bot's store files back into its real folder (`mirrorStoreFolder`): regular files
   * with store names and valid headers, within the cap; keys it deleted are deleted. Nothing after
   * a breach.
   */
  syncBack(): void {
    this.#check();
    if (this.#breached !== null) return;
    const kept = new Map<string, Uint8Array>();
    let total = 0;
    for (const name of safeList(this.staging)) {
      const bytes = readRegularFile(join(this.staging, name));
      const payload = bytes === null || this.kind === 'program' ? bytes : storeFilePayload(name, bytes);
      if (payload === null) continue;
      kept.set(name, payload);
      total += bytes!.length;
    }
    if (total > this.capBytes) {
      this.#warn(`bot store ${this.#location.dir}: the sandboxed bot left ${total} bytes, over its cap of ${this.capBytes}; its writes of this run are discarded`);
      return;
    }
    if (this.kind === 'module') mirrorStoreFolder(this.#location.dir, kept, this.#warn);
    else mirrorFiles(this.#location.dir, kept, this.#warn);
  }
}

/**
 * Makes the top level of a program's folder hold exactly `files` (regular files only; its
 * subfolders, which the sandbox did not show, are left alone), each written atomically.
 */
function mirrorFiles(dir: string, files: ReadonlyMap<string, Uint8Array>, warn: (message: string) => void): void {
  ownFolder(dir, warn, true);
  for (const name of safeList(dir)) if (!files.has(name) && lstatSync(join(dir, name)).isFile()) rmSync(join(dir, name), { force: true });
  for (const [name, bytes] of files) writeAtomic(join(dir, name), bytes);
}
