/**
 * Bot stores (`ctx.store`) in a queued tournament. A local run gives every bot two things: the
 * snapshot of its folder taken when the run began (what every read sees) and the live folder (what
 * writes change, and what `updateBlob` reads and rewrites under a lock). A queued run keeps both
 * in Redis, so that a bot plays and learns the same on any worker:
 *
 * - the snapshot, serialised and stored under its SHA-256 (`take-arena:store:<sha256>`) like the
 *   bundles: a worker checks the hash and refuses a snapshot that does not match;
 * - the live copy, one hash per tournament and bot (`take-arena:t:<id>:live:<bot>`: field
 *   `f:<file>` the payload, `v:<file>` its version), which every worker's writes go to through
 *   small Lua scripts (`put`, compare-and-set for `updateBlob`, `del`), with the folder's cap;
 * - the coordinator copies the live copy back into the bot's folder whenever it changed (about
 *   once a second) and when the run ends, so the folder ends as a local run would leave it.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { mirrorStoreFolder, runSnapshot, storeLocation, type BotDataSettings, type StoreSnapshot } from '../../platform/bot-store.ts';
import type { StoreBackend, StoreReply, StoreRequest } from '../../platform/store-bridge.ts';
import { contentHash, PREFIX, putShared, QueueError, releaseShared } from './protocol.ts';

/** A store snapshot by its content hash. */
export const storeSnapshotKey = (hash: string): string => `${PREFIX}:store:${hash}`;
/** A bot's live store during a queued tournament. */
export const liveStoreKey = (tournament: string, bot: string): string => `${PREFIX}:t:${tournament}:live:${bot}`;

/** Bytes a file takes on disk besides its payload (bot-store.ts's header). */
const HEADER = 12;

/**
 * A snapshot as bytes, the same for the same files: the file names sorted, each as its name's
 * length, name, payload length and payload (lengths as 32-bit little-endian).
 */
export function encodeSnapshot(snapshot: StoreSnapshot): Buffer {
  const parts: Buffer[] = [];
  for (const name of [...snapshot.keys()].sort()) {
    const n = Buffer.from(name, 'utf8');
    const p = snapshot.get(name)!;
    const head = Buffer.alloc(8);
    head.writeUInt32LE(n.length, 0);
    head.writeUInt32LE(p.length, 4);
    parts.push(head.subarray(0, 4), n, head.subarray(4), Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  }
  return Buffer.concat(parts);
}

/** Reads `encodeSnapshot`'s bytes back (a QueueError when they are not such bytes). */
export function decodeSnapshot(bytes: Buffer): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new QueueError('a bot store snapshot in Redis is cut short');
  };
  while (at < bytes.length) {
    need(4);
    const nl = bytes.readUInt32LE(at);
    at += 4;
    need(nl + 4);
    const name = bytes.toString('utf8', at, at + nl);
    at += nl;
    const pl = bytes.readUInt32LE(at);
    at += 4;
    need(pl);
    out.set(name, new Uint8Array(bytes.subarray(at, at + pl)));
    at += pl;
  }
  return out;
}

/** Checks a snapshot fetched from Redis against the hash the job names: a mismatch is refused. */
export function verifiedSnapshot(hash: string, bytes: Buffer | null): Map<string, Uint8Array> {
  if (bytes === null) throw new QueueError(`bot store snapshot ${hash.slice(0, 12)}… is not in Redis (its coordinator has not published it, or Redis lost it)`);
  const got = contentHash(bytes);
  if (got !== hash) throw new QueueError(`refused bot store snapshot ${hash.slice(0, 12)}…: its content hashes to ${got.slice(0, 12)}…, not to the hash the job names (tampered or corrupted)`);
  return decodeSnapshot(bytes);
}

// The live copy's scripts. Every file is two fields: `f:<name>` (payload) and `v:<name>` (version,
// bumped by every write or removal). Sizes count the header each file has on disk, as the cap does.
const USED = `
local used = 0
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, 2) == 'f:' and f ~= ARGV[1] then used = used + redis.call('HSTRLEN', KEYS[1], f) + ${HEADER} end
end
return used`;
/** put/cas: ARGV name, payload, cap, expected version ('' for put). */
const WRITE = `
local f = 'f:' .. ARGV[1]
local v = 'v:' .. ARGV[1]
if ARGV[4] ~= '' and tonumber(redis.call('HGET', KEYS[1], v) or '0') ~= tonumber(ARGV[4]) then return {0, 'conflict'} end
local used = 0
for _, k in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(k, 1, 2) == 'f:' and k ~= f then used = used + redis.call('HSTRLEN', KEYS[1], k) + ${HEADER} end
end
local grown = used + string.len(ARGV[2]) + ${HEADER}
if grown > tonumber(ARGV[3]) then return {0, 'cap', grown} end
redis.call('HSET', KEYS[1], f, ARGV[2])
redis.call('HINCRBY', KEYS[1], v, 1)
redis.call('HINCRBY', KEYS[1], 'seq', 1)
return {1}`;
const DELETE = `
for _, name in ipairs(ARGV) do
  if redis.call('HDEL', KEYS[1], 'f:' .. name) == 1 then redis.call('HINCRBY', KEYS[1], 'v:' .. name, 1) end
end
redis.call('HINCRBY', KEYS[1], 'seq', 1)
return 1`;

/** The live copy of one bot's store, as a worker's bot threads reach it (see `openStoreBridge`). */
export function redisStoreBackend(redis: Redis, key: string, capBytes: number): StoreBackend {
  return {
    async handle(req: StoreRequest): Promise<StoreReply> {
      switch (req.op) {
        case 'get': {
          const [payload, version] = await redis.hmgetBuffer(key, `f:${req.name}`, `v:${req.name}`);
          return { ok: true, payload: payload ? new Uint8Array(payload) : null, version: Number(version?.toString() ?? 0) };
        }
        case 'put':
        case 'cas': {
          const expected = req.op === 'cas' ? String(req.version) : '';
          const r = (await redis.eval(WRITE, 1, key, req.name, Buffer.from(req.payload), String(capBytes), expected)) as [number, string?, number?];
          if (r[0] === 1) return { ok: true };
          if (r[1] === 'conflict') return { ok: false, conflict: true };
          return { ok: false, error: `Store over its cap: ${r[2]} bytes after writing ${req.name}, cap ${capBytes}` };
        }
        case 'del':
          await redis.eval(DELETE, 1, key, ...req.names);
          return { ok: true };
        case 'used':
          return { ok: true, bytes: Number(await redis.eval(USED, 1, key, '')) };
      }
    },
  };
}

/** One bot's store in a queued run, on the coordinator. */
export interface QueuedStore {
  /** The snapshot's hash (`take-arena:store:<hash>`). */
  readonly snapshot: string;
  readonly capBytes: number;
}

/**
 * The coordinator's side: publishes each bot's run snapshot (the one a local run would read:
 * kept in the results folder for `--resume`), seeds each live copy from the bot's folder unless
 * Redis already has it (a resumed coordinator continues the live copy its workers wrote), and copies
 * the live copies back into the folders.
 */
export class QueueStores {
  readonly #redis: Redis;
  readonly #tournament: string;
  readonly #data: BotDataSettings;
  readonly #snapshots = new Map<string, { readonly bytes: Buffer; readonly hash: string }>();
  /** Each bot's live copy's `seq` as last copied to its folder. */
  readonly #copied = new Map<string, string>();

  constructor(redis: Redis, tournament: string, data: BotDataSettings, bots: readonly string[], warn: (bot: string, reason: string) => void) {
    this.#redis = redis;
    this.#tournament = tournament;
    this.#data = data;
    for (const bot of new Set(bots)) {
      const bytes = encodeSnapshot(runSnapshot(storeLocation(data, bot), (reason) => warn(bot, reason)));
      this.#snapshots.set(bot, { bytes, hash: contentHash(bytes) });
    }
  }

  /** The store of a bot for its jobs. */
  of(bot: string): QueuedStore | undefined {
    const s = this.#snapshots.get(bot);
    return s ? { snapshot: s.hash, capBytes: this.#data.capBytes } : undefined;
  }

  /** Stores the snapshots and seeds the live copies that Redis does not hold (first run, or Redis restarted empty). */
  async publish(): Promise<void> {
    for (const [bot, s] of this.#snapshots) {
      // Content-addressed: another tournament may hold the same snapshot (an empty store, say).
      await putShared(this.#redis, this.#tournament, storeSnapshotKey(s.hash), s.bytes);
      const key = liveStoreKey(this.#tournament, bot);
      if ((await this.#redis.exists(key)) === 1) continue;
      // The live copy starts as the folder is now (a local run's live folder), not as the snapshot:
      // after a resume the folder holds what the interrupted run wrote.
      // Uncapped and unwarned: a folder over its cap or corrupt was reset, and reported, when its snapshot was taken.
      const folder = runSnapshot({ dir: join(this.#data.root, bot), capBytes: Number.MAX_SAFE_INTEGER }, () => {});
      const fields: (string | Buffer)[] = ['seq', '0'];
      for (const [name, payload] of folder) fields.push(`f:${name}`, Buffer.from(payload), `v:${name}`, '1');
      await this.#redis.hset(key, ...fields);
      this.#copied.set(bot, '0');
    }
  }

  /** Copies every live copy that changed since the last call into its bot's folder. */
  async copyBack(): Promise<void> {
    for (const bot of this.#snapshots.keys()) {
      const key = liveStoreKey(this.#tournament, bot);
      const seq = (await this.#redis.hget(key, 'seq')) ?? null;
      if (seq === null || seq === this.#copied.get(bot)) continue;
      const all = await this.#redis.hgetallBuffer(key);
      const files = new Map<string, Uint8Array>();
      for (const [field, value] of Object.entries(all)) if (field.startsWith('f:')) files.set(field.slice(2), new Uint8Array(value));
      mirrorStoreFolder(join(this.#data.root, bot), files);
      this.#copied.set(bot, seq);
    }
  }

  /** Removes the snapshots and live copies (the tournament is over and copied back). */
  async remove(): Promise<void> {
    for (const [bot, s] of this.#snapshots) {
      await releaseShared(this.#redis, this.#tournament, [storeSnapshotKey(s.hash)]);
      await this.#redis.del(liveStoreKey(this.#tournament, bot));
    }
  }
}
