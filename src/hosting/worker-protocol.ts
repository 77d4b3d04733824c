/**
 * What a module bot's process under isolation `worker` and its host say to each other (see
 * `worker-host.ts`, `bot-worker.ts`), over two pipes of the process's own, apart from its stdout
 * and stderr (the bot's log).
 *
 * Arena → bot, on fd 3: frames (platform/frames.ts) of v8-serialized values: first the `WorkerInit`,
 * then batches of requests, every request made in one turn of the runner's event loop in one
 * frame, each request its own structured copy (no two games' bots share an object).
 *
 * Bot → arena, on fd 4: one reply record per request, written as soon as the request is answered
 * (so an answer made before the process is cut off is never lost with it, and the arena sees each
 * answer when it is made, whatever the bot does next), preceded by one start record. A record is
 * binary, so that the commonest reply (a move that is a 32-bit integer) costs the arena no
 * deserializing: a 32-bit length, then `RECORD_HEAD` bytes (kind, flags, request id, think time,
 * the bot's generator for the game after the move), then the payload. The arena believes none of
 * it: every field is checked (`readRecord`), ids must answer its requests in order, and times are
 * measured on its side (worker-host.ts).
 */
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import type { StoreLocation, StoreSnapshot } from '../platform/bot-store.ts';

/** The bot process's fd for requests (arena → bot). */
export const REQUEST_FD = 3;
/** The bot process's fd for replies (bot → arena). */
export const REPLY_FD = 4;
/** The bot process's fds of its store bridge, when its store's live copy is held elsewhere (store-bridge.ts). */
export const STORE_CALL_FD = 5;
export const STORE_REPLY_FD = 6;

/** The first frame to a bot process: the bot module to load, its options and its store. */
export interface WorkerInit {
  readonly file: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The bot's store: its folder (null: in memory) and the snapshot every process of the run reads. */
  readonly store: { readonly location: StoreLocation | null; readonly snapshot: StoreSnapshot };
  /** Writes go to a live copy held elsewhere, through the store bridge's fds. */
  readonly storeBridge?: boolean;
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
 * slot. Ids go up by one; the bot answers them in order.
 */
export type Request =
  | { readonly t: 'prepare'; readonly id: number; readonly variant: string; readonly limitMs: number }
  | {
      readonly t: 'move';
      readonly id: number;
      readonly slot: number;
      readonly state: unknown;
      readonly moves: readonly unknown[];
      /** The move's limit: the bot's deadline is this long after the process begins the request. */
      readonly limitMs: number;
      /** The game, on its first request in this slot. */
      readonly open?: OpenGame;
      /** The bot's bank under a time control (`ctx.clock`). */
      readonly clock?: BotClock;
    };

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
 * Reads one record's body (`body`: what follows its length). Returns the record, or a sentence
 * saying what is wrong with it; `decodeValue` turns a MoveValue payload into the move (it may
 * throw).
 */
export function readRecord(body: Buffer, decodeValue: (bytes: Buffer) => unknown): ReplyRecord | string {
  if (body.length < RECORD_HEAD) return `a reply of ${body.length} bytes, shorter than its ${RECORD_HEAD}-byte head`;
  const kind = body.readUInt8(0) as Kind;
  const flags = body.readUInt8(1);
  const payload = body.subarray(RECORD_HEAD);
  const text = (): string => {
    const s = payload.toString('utf8');
    return s.length > MAX_REASON ? `${s.slice(0, MAX_REASON)}…` : s;
  };
  switch (kind) {
    case Kind.Ready:
      return payload.length === 1 && payload[0]! <= 1 ? { kind, prepares: payload[0] === 1 } : 'a malformed ready record';
    case Kind.Fatal:
      return { kind, reason: text() };
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
  const think = body.readDoubleLE(8);
  const rng = flags & RNG_FLAG ? [body.readInt32LE(16), body.readInt32LE(20), body.readInt32LE(24), body.readInt32LE(28)] : null;
  let value: unknown;
  if (kind === Kind.MoveInt) {
    if (payload.length !== 4) return 'an integer move that is not 4 bytes';
    value = payload.readInt32LE(0);
  } else if (kind === Kind.MoveValue) {
    try {
      value = decodeValue(payload);
    } catch (err) {
      return `a move that cannot be read (${err instanceof Error ? err.message : String(err)})`;
    }
  } else if (kind === Kind.Error || kind === Kind.Garbage) {
    value = text();
  } else if (payload.length !== 0) {
    return 'a prepared record with a payload';
  }
  return { kind, id: body.readInt32LE(4), think: Number.isFinite(think) && think > 0 ? think : 0, clock: (flags & CLOCK_FLAG) !== 0, rng, value };
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
