/**
 * What a module bot's process under isolation `worker` and its host say to each other (see
 * `worker-host.ts`, `bot-worker.ts`), over two pipes of the process's own, apart from its stdout
 * and stderr (the bot's log).
 *
 * Arena → bot, on fd 3: frames (platform/frames.ts) of v8-serialized values: first the `WorkerInit`,
 * then batches of requests (`RequestBatch`), every request made in one turn of the runner's event
 * loop in one frame (or, while the process is busy, every one made until it has answered all it
 * was sent), each request its own structured copy (no two games' bots share an object).
 *
 * Bot → arena: one reply record per request, preceded by one start record. A record is binary, so
 * that the commonest reply (a move that is a 32-bit integer) costs the arena no deserializing: a
 * 32-bit length, then `RECORD_HEAD` bytes (kind, flags, request id, think time, the bot's
 * generator for the game after the move), then the payload.
 *
 * When it writes them. An answer leaves the process before the next request begins, except in a
 * batch that says it may hold its answers (`newBatch`): all its requests are moves with one limit
 * and no clock, none asked again after a fault. There the process keeps its answers and writes
 * them together, when the batch is answered, or before a request that begins `HOLD_MS` or more
 * after the batch did, or before it waits on a bot's promise. A fast bot's batch of many games then
 * costs one write instead of one per answer. What the arena gives up: when such a process ends
 * (overruns, crashes, runs out of memory) while a request before the batch's last is unanswered,
 * the arena cannot tell which request was running, so it charges none of them: they are asked
 * again elsewhere in batches that hold nothing, and a fault that comes again is charged to its own
 * request (worker-host.ts).
 *
 * Where it writes them. Fd 4 is a socket the arena reads as data comes: the start record, and the
 * answers written when the process has nothing more to run (the batch answered, no other batch
 * read yet) go there, and wake the arena. Fd 5 (`HELD_FD`, when the init says `held`) is a pipe the
 * arena does not watch: answers written while there is more to run go there, and the arena reads
 * them when it wants them (when a record comes on fd 4, when its watchdog looks, when the process
 * ends). Writes that would leave more than `HELD_MAX_BYTES` waiting in the pipe go on fd 4.
 *
 * The arena believes none of it: every field is checked (`readRecord`), ids must answer its
 * requests in order across both channels (a record on fd 4 comes after every record written to fd
 * 5 before it, so after fd 5 is read the next record in order is at the head of one of them), and
 * times are measured on its side (worker-host.ts).
 */
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import type { StoreLocation, StoreSnapshot } from '../platform/bot-store.ts';

/** The bot process's fd for requests (arena → bot). */
export const REQUEST_FD = 3;
/** The bot process's fd for the replies that wake the arena (bot → arena). */
export const REPLY_FD = 4;
/** The bot process's fd for the replies the arena reads when it wants them (bot → arena). */
export const HELD_FD = 5;
/** The bot process's fds of its store bridge, when its store's live copy is held elsewhere (store-bridge.ts). */
export const STORE_CALL_FD = 6;
export const STORE_REPLY_FD = 7;

/** How long a batch that may hold its answers runs before they are written as each is made (ms, the process's own clock). */
export const HOLD_MS = 2;
/**
 * Most bytes written to `HELD_FD` between two records on fd 4 (half a pipe's capacity): the pipe
 * seldom fills, and when it does its writer waits only until the arena takes the record on fd 4
 * before and reads the pipe.
 */
export const HELD_MAX_BYTES = 32 << 10;

/** The first frame to a bot process: the bot module to load, its options and its store. */
export interface WorkerInit {
  readonly file: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The bot's store: its folder (null: in memory) and the snapshot every process of the run reads. */
  readonly store: { readonly location: StoreLocation | null; readonly snapshot: StoreSnapshot };
  /** Writes go to a live copy held elsewhere, through the store bridge's fds. */
  readonly storeBridge?: boolean;
  /** The process has `HELD_FD`. */
  readonly held?: boolean;
  /** `cpu`: think times are the process's CPU time (its JavaScript thread), and so is the bot's `ctx.now` (absent: wall time). */
  readonly clock?: 'cpu';
}

/**
 * A new game for the bot in a slot: its variant, seat and generator, from the seed (a game's first
 * move) or from where the generator had got to (`rng`: a game moved from a process that died).
 */
export interface OpenGame {
  readonly variant: string;
  readonly seat: Seat;
  readonly seed: number;
  readonly rng?: readonly number[];
}

/**
 * Arena → bot, in batches: run the bot's `prepare` for a variant, or ask for a move in a game
 * slot. Ids go up by one; the bot answers them in order. A batch is one flat array: whether it may
 * hold its answers, then each request a tag and its fields in a row (`newBatch`, `pushPrepare`,
 * `pushMove`, read back with `readRequest` from `FIRST_REQUEST`): no object per request, which
 * costs less to serialize and to read back than one with named fields.
 */
export type RequestBatch = unknown[];

/** A new batch: `hold`, whether the process may keep its answers and write them together (see above). */
export function newBatch(hold: boolean): RequestBatch {
  return [hold ? 1 : 0];
}

/** Whether a batch lets the process keep its answers. */
export function batchHolds(batch: RequestBatch): boolean {
  return batch[0] === 1;
}

/** Where a batch's first request begins. */
export const FIRST_REQUEST = 1;

/** The tag of a prepare request; a move's tag is `MOVE`, plus `OPEN` and `WITH_CLOCK` when those fields follow. */
const PREPARE = 0;
const MOVE = 1;
const OPEN = 2;
const WITH_CLOCK = 4;

/** Adds a prepare request: run the bot's `prepare` for `variant` within `limitMs`. */
export function pushPrepare(batch: RequestBatch, id: number, variant: string, limitMs: number): void {
  batch.push(PREPARE, id, limitMs, variant);
}

/**
 * Adds a move request: the bot's move in game `slot` at `state` among `moves`, within `limitMs`
 * (the bot's deadline is this long after the process begins the request); `open` the game, on its
 * first request in this slot; `clock` the bot's bank under a time control (`ctx.clock`).
 */
export function pushMove(batch: RequestBatch, id: number, slot: number, state: unknown, moves: readonly unknown[], limitMs: number, open: OpenGame | null, clock: BotClock | undefined): void {
  batch.push(MOVE | (open ? OPEN : 0) | (clock ? WITH_CLOCK : 0), id, slot, limitMs, state, moves);
  if (open) batch.push(open.variant, open.seat, open.seed, open.rng ?? null);
  if (clock) batch.push(clock);
}

/** A request as the bot's process reads it (one object, refilled by `readRequest` for each request). */
export interface Request {
  prepare: boolean;
  id: number;
  limitMs: number;
  /** The variant of a prepare. */
  variant: string;
  slot: number;
  state: unknown;
  moves: readonly unknown[];
  open: OpenGame | null;
  clock: BotClock | undefined;
}

/** An empty request to be filled by `readRequest`. */
export function newRequest(): Request {
  return { prepare: false, id: 0, limitMs: 0, variant: '', slot: 0, state: null, moves: [], open: null, clock: undefined };
}

/** Replaces the state and the moves of every move request of `batch` with what `f` makes of them. */
export function mapValues(batch: RequestBatch, f: (value: unknown) => unknown): void {
  const into = newRequest();
  for (let at = FIRST_REQUEST; at < batch.length; ) {
    const next = readRequest(batch, at, into);
    if (!into.prepare) {
      batch[at + 4] = f(into.state);
      batch[at + 5] = f(into.moves);
    }
    at = next;
  }
}

/** Reads the request at `at` in `batch` into `into` and returns where the next one begins. */
export function readRequest(batch: RequestBatch, at: number, into: Request): number {
  const tag = batch[at] as number;
  into.id = batch[at + 1] as number;
  if (tag === PREPARE) {
    into.prepare = true;
    into.limitMs = batch[at + 2] as number;
    into.variant = batch[at + 3] as string;
    return at + 4;
  }
  into.prepare = false;
  into.slot = batch[at + 2] as number;
  into.limitMs = batch[at + 3] as number;
  into.state = batch[at + 4];
  into.moves = batch[at + 5] as readonly unknown[];
  let next = at + 6;
  if (tag & OPEN) {
    const rng = batch[next + 3] as readonly number[] | null;
    const game = { variant: batch[next] as string, seat: batch[next + 1] as Seat, seed: batch[next + 2] as number };
    into.open = rng ? { ...game, rng } : game;
    next += 4;
  } else into.open = null;
  into.clock = tag & WITH_CLOCK ? (batch[next++] as BotClock) : undefined;
  return next;
}

/**
 * Kinds of reply record: start (`Ready`, payload 1 byte, whether the bot has a `prepare`; `Fatal`,
 * the reason it cannot load), then per request `Prepared`, `MoveInt` (a move that is a 32-bit
 * integer, 4 bytes), `MoveValue` (any other move, v8-serialized), `Error` (`choose` or `prepare`
 * threw: the reason) and `Garbage` (the bot returned something that cannot be sent: the reason).
 */
export const Kind = { Ready: 1, Fatal: 2, Prepared: 3, MoveInt: 4, MoveValue: 5, Error: 6, Garbage: 7 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Flags of a reply record. */
export const CLOCK_FLAG = 1;
export const RNG_FLAG = 2;

/** Bytes of a record after its length, before its payload: kind, flags, 2 spare, id, think (f64), the generator (4 × i32). */
export const RECORD_HEAD = 32;

/** Longest record the arena accepts (a move's value or a reason past this is garbage). */
export const MAX_RECORD = 1 << 20;

/** Longest reason the arena keeps from a bot (characters). */
const MAX_REASON = 1000;

/** A reply record as the arena reads it, every field checked. */
export type ReplyRecord =
  | { readonly kind: typeof Kind.Ready; readonly prepares: boolean }
  | { readonly kind: typeof Kind.Fatal; readonly reason: string }
  | {
      readonly kind: typeof Kind.Prepared | typeof Kind.MoveInt | typeof Kind.MoveValue | typeof Kind.Error | typeof Kind.Garbage;
      readonly id: number;
      /** The bot's own think time (ms): finite and not negative, else 0. */
      readonly think: number;
      readonly clock: boolean;
      /** The bot's generator for the game after this request, or null. */
      readonly rng: readonly number[] | null;
      /** The move (MoveInt, MoveValue) or the reason (Error, Garbage). */
      readonly value: unknown;
    };

/**
 * Reads one record's body: the `len` bytes at `at` in `buf` (what follows its length). Returns the
 * record, or a sentence saying what is wrong with it; `decodeValue` turns a MoveValue payload into
 * the move (it may throw).
 */
export function readRecord(buf: Buffer, at: number, len: number, decodeValue: (bytes: Buffer) => unknown): ReplyRecord | string {
  if (len < RECORD_HEAD) return `a reply of ${len} bytes, shorter than its ${RECORD_HEAD}-byte head`;
  const kind = buf.readUInt8(at) as Kind;
  const flags = buf.readUInt8(at + 1);
  const from = at + RECORD_HEAD;
  const end = at + len;
  switch (kind) {
    case Kind.Ready:
      return end - from === 1 && buf[from]! <= 1 ? { kind, prepares: buf[from] === 1 } : 'a malformed ready record';
    case Kind.Fatal:
      return { kind, reason: reasonText(buf, from, end) };
    case Kind.Prepared:
    case Kind.MoveInt:
    case Kind.MoveValue:
    case Kind.Error:
    case Kind.Garbage:
      break;
    default:
      return `a reply of unknown kind ${kind}`;
  }
  if ((flags & ~(CLOCK_FLAG | RNG_FLAG)) !== 0) return `a reply with unknown flags ${flags}`;
  const think = buf.readDoubleLE(at + 8);
  const rng = flags & RNG_FLAG ? [buf.readInt32LE(at + 16), buf.readInt32LE(at + 20), buf.readInt32LE(at + 24), buf.readInt32LE(at + 28)] : null;
  let value: unknown;
  if (kind === Kind.MoveInt) {
    if (end - from !== 4) return 'an integer move that is not 4 bytes';
    value = buf.readInt32LE(from);
  } else if (kind === Kind.MoveValue) {
    try {
      value = decodeValue(buf.subarray(from, end));
    } catch (err) {
      return `a move that cannot be read (${err instanceof Error ? err.message : String(err)})`;
    }
  } else if (kind === Kind.Error || kind === Kind.Garbage) {
    value = reasonText(buf, from, end);
  } else if (end !== from) {
    return 'a prepared record with a payload';
  }
  return { kind, id: buf.readInt32LE(at + 4), think: Number.isFinite(think) && think > 0 ? think : 0, clock: (flags & CLOCK_FLAG) !== 0, rng, value };
}

/** A reason a bot wrote, as text of at most `MAX_REASON` characters. */
function reasonText(buf: Buffer, from: number, end: number): string {
  const s = buf.toString('utf8', from, end);
  return s.length > MAX_REASON ? `${s.slice(0, MAX_REASON)}…` : s;
}

/**
 * Writes a record into `out` (from 0) and returns its length with the 4-byte prefix. `payload` is
 * the move (MoveInt), its serialized bytes or a reason's UTF-8 bytes, or a ready flag.
 */
export function writeRecord(out: Buffer, kind: Kind, id: number, think: number, flags: number, rng: Int32Array | null, payload: number | Uint8Array | null): number {
  let n = RECORD_HEAD;
  if (typeof payload === 'number') n += kind === Kind.Ready ? 1 : 4;
  else if (payload !== null) n += payload.length;
  out.writeUInt32LE(n, 0);
  out.writeUInt8(kind, 4);
  out.writeUInt8(flags, 5);
  out.writeUInt16LE(0, 6);
  out.writeInt32LE(id | 0, 8);
  out.writeDoubleLE(think, 12);
  for (let i = 0; i < 4; i++) out.writeInt32LE(rng ? rng[i]! : 0, 20 + 4 * i);
  if (typeof payload === 'number') {
    if (kind === Kind.Ready) out.writeUInt8(payload, 36);
    else out.writeInt32LE(payload, 36);
  } else if (payload !== null) out.set(payload, 36);
  return 4 + n;
}
