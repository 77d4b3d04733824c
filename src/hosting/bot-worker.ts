/**
 * The process side of a module bot under isolation `worker` (see `worker-host.ts`): loads one bot
 * module, keeps it for the whole tournament (its module caches live on), rebuilds each variant's
 * Game from its id so every capability (solver, heuristic, size) is there, and answers the
 * requests on its fd 3 with one reply record each on its fd 4 or 5 (worker-protocol.ts). It gets
 * structured copies, so nothing a bot does here can touch the arena's state; and the arena checks
 * everything that comes back, so nothing it writes there is believed unchecked either.
 */
import { serialize } from 'node:v8';
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, rngFromState, saveRngState, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import { createBotStore } from '../platform/bot-store.ts';
import { ThreadCpuClock } from '../platform/cpu-clock.ts';
import { FrameReader, readFrameSync } from '../platform/frames.ts';
import { pipeStoreCall } from '../platform/store-bridge.ts';
import { moduleBot } from './bot-module.ts';
import { errorText, isThenable } from './host.ts';
import { ReplyWriter, Send } from './reply-writer.ts';
import { batchHolds, CLOCK_FLAG, FIRST_REQUEST, HOLD_MS, Kind, mapValues, newRequest, readRequest, REQUEST_FD, RNG_FLAG, STORE_CALL_FD, STORE_REPLY_FD, writeRecord, type Request, type RequestBatch, type WorkerInit } from './worker-protocol.ts';

/**
 * Runs the bot process: reads its `WorkerInit`, loads the bot with `load(file)` (a dynamic import
 * of the file under tsx, or of the module bundled into this script), writes `Ready` or `Fatal`,
 * then serves requests until the arena closes fd 3.
 */
export async function runBotWorker(load: (file: string) => Promise<unknown>): Promise<void> {
  // Taken before any bot code runs: the clock and the exit this loop uses are its own.
  const now = performance.now.bind(performance);
  const exit = process.exit.bind(process);
  const frames = new FrameReader();
  const init = readFrameSync(REQUEST_FD, frames) as WorkerInit | null;
  if (init === null) exit(0);
  // The bot's stdout and stderr (pipes to its log) written through at once, as a blocking write:
  // this process blocks on its requests between moves, so output left queued would wait until the
  // process is ended, and be lost with it (and a flood would pile up here instead of reaching its cap).
  for (const stream of [process.stdout, process.stderr]) (stream as { _handle?: { setBlocking?(on: boolean): number } })._handle?.setBlocking?.(true);
  const out = Buffer.allocUnsafe(64 << 10);
  const rngOut = new Int32Array(4);
  const encoder = new TextEncoder();

  // Under the CPU clock a request's think time is this thread's CPU time (the host checks their sum
  // against its own reading of the process), read lazily: a fast bot's many answers share a read.
  const cpu = init!.clock === 'cpu' ? new ThreadCpuClock() : null;
  const tick = cpu ? () => cpu.now() : now;
  /** The running move's start on `Date.now()`'s scale and on `tick`'s: `ctx.now` counts from them. */
  let moveEpoch = 0;
  let moveTick = 0;
  const moveNow = cpu ? (): number => moveEpoch + (cpu.now() - moveTick) : Date.now;

  const replies = new ReplyWriter(init!.held === true);
  /** What becomes of the record being written (set for each request, see the loop below). */
  let send: Send = Send.Wake;

  /** Writes one record (a record too big for `out` gets its own buffer), as `send` says. */
  const record = (kind: Kind, id: number, think: number, flags: number, rng: Int32Array | null, payload: number | Uint8Array | null): void => {
    const size = 36 + (payload instanceof Uint8Array ? payload.length : 4);
    const buf = size <= out.length ? out : Buffer.allocUnsafe(size);
    replies.put(buf, writeRecord(buf, kind, id, think, flags, rng, payload), send);
  };
  // A bot that ends its process mid-batch (`process.exit`) leaves with the answers it made.
  process.on('exit', () => replies.flush(false));
  const text = (reason: string): Uint8Array => encoder.encode(reason.slice(0, 1000));

  let bot: AnyBot;
  let options: Record<string, unknown>;
  try {
    ({ bot, options } = moduleBot(await load(init!.file), init!.name, init!.options));
  } catch (err) {
    record(Kind.Fatal, 0, 0, 0, null, text(errorText(err)));
    return exit(1);
  }

  const store = createBotStore(init!.store.snapshot, init!.store.location, init!.storeBridge ? pipeStoreCall(STORE_CALL_FD, STORE_REPLY_FD) : undefined);
  const games = new Map<string, AnyGame>();
  /** The games this process plays, by slot: the variant's Game, the bot's seat and its generator. */
  const slots: { game: AnyGame; seat: Seat; rng: Rng }[] = [];

  /** The reply to a move: a 32-bit integer in 4 bytes, any other value serialized, an unsendable one as garbage. */
  const answer = (id: number, rng: Rng, move: unknown, think: number): void => {
    saveRngState(rng, rngOut, 0);
    const flags = (clock ? CLOCK_FLAG : 0) | RNG_FLAG;
    if (typeof move === 'number' && (move | 0) === move && !Object.is(move, -0)) return record(Kind.MoveInt, id, think, flags, rngOut, move);
    let bytes: Uint8Array;
    try {
      bytes = serialize(move);
    } catch (err) {
      // Functions, symbols and the like cannot leave the process: not a move at all.
      return record(Kind.Garbage, id, think, RNG_FLAG, rngOut, text(`returned something that is not a move (${errorText(err)})`));
    }
    if (bytes.length + 36 > 1 << 20) return record(Kind.Garbage, id, think, RNG_FLAG, rngOut, text(`returned a move of ${bytes.length} bytes`));
    record(Kind.MoveValue, id, think, flags, rngOut, bytes);
  };
  /** Stacks of the bot's errors written to its log so far (the first few only: a bot that throws every move must not fill it). */
  let stacks = 0;
  const failed = (id: number, rng: Rng | null, err: unknown, think: number, prefix = ''): void => {
    if (err instanceof Error && err.stack && stacks++ < MAX_STACKS) logStack(err.stack);
    if (rng) saveRngState(rng, rngOut, 0);
    record(Kind.Error, id, think, rng ? RNG_FLAG : 0, rng ? rngOut : null, text(`${prefix}${errorText(err)}`));
  };

  /** Set through `ctx.clockStopped` during the current move: one function for the process, not one per move. */
  let clock = false;
  const clockStopped = (): void => void (clock = true);

  const gameOf = (variant: string): AnyGame => {
    let g = games.get(variant);
    if (!g) {
      g = parseVariant(variant);
      games.set(variant, g);
    }
    return g;
  };

  /** Asks the bot for a move and replies; a promise when the bot answers asynchronously. */
  const onMove = (r: Request, t0: number): Promise<void> | null => {
    moveTick = t0;
    moveEpoch = Date.now();
    if (r.open) {
      const { variant, seat, seed, rng } = r.open;
      slots[r.slot] = { game: gameOf(variant), seat, rng: rng ? rngFromState(seed, rng) : createRng(seed) };
    }
    const played = slots[r.slot];
    if (!played) {
      record(Kind.Error, r.id, 0, 0, null, text('internal: move requested before a game was opened'));
      return null;
    }
    const { id } = r;
    let reply: unknown;
    clock = false;
    try {
      reply = bot.choose({ game: played.game, state: r.state, moves: r.moves, seat: played.seat, rng: played.rng, deadline: moveEpoch + r.limitMs, now: moveNow, options, store, clockStopped, clock: r.clock });
    } catch (err) {
      failed(id, played.rng, err, tick() - t0);
      return null;
    }
    if (isThenable(reply)) {
      return Promise.resolve(reply).then(
        (move) => answer(id, played.rng, move, tick() - t0),
        (err: unknown) => failed(id, played.rng, err, tick() - t0),
      );
    }
    answer(id, played.rng, reply, tick() - t0);
    return null;
  };

  /** Runs the bot's `prepare` for a variant and replies; a promise when it is asynchronous. */
  const onPrepare = (id: number, variant: string, t0: number): Promise<void> | null => {
    const prepared = (): void => record(Kind.Prepared, id, tick() - t0, 0, null, null);
    const broke = (err: unknown): void => failed(id, null, err, tick() - t0, 'prepare failed: ');
    let done: unknown;
    try {
      done = bot.prepare?.(gameOf(variant), options);
    } catch (err) {
      broke(err);
      return null;
    }
    if (isThenable(done)) return Promise.resolve(done).then(prepared, broke);
    prepared();
    return null;
  };

  record(Kind.Ready, 0, 0, 0, null, typeof bot.prepare === 'function' ? 1 : 0);

  /**
   * Serves requests in order, blocking on fd 3 while there are none (the bot's timers wait
   * meanwhile, as they would in a thread asleep); when a bot answers with a promise, the process
   * returns to its event loop until it settles (so the bot's promises and timers run).
   */
  const r = newRequest();
  for (;;) {
    const batch = readFrameSync(REQUEST_FD, frames) as RequestBatch | null;
    if (batch === null) return exit(0); // the arena is done with this process
    // Before any bot code runs: a bot that changes what it is given must find every other game's copy as it came.
    mapValues(batch, own);
    claimed.clear();
    const hold = batchHolds(batch);
    const start = now();
    for (let at = FIRST_REQUEST; at < batch.length; ) {
      at = readRequest(batch, at, r);
      const t0 = now();
      if (at === batch.length) {
        // The next batch is read only once this one is answered: one already whole in the reader means more to run.
        send = frames.ready ? Send.Now : Send.Wake;
      } else if (hold && t0 - start < HOLD_MS) send = Send.Keep;
      else {
        replies.flush(false);
        send = Send.Now;
      }
      const c0 = tick();
      const pending = r.prepare ? onPrepare(r.id, r.variant, c0) : onMove(r, c0);
      if (pending) {
        replies.flush(false);
        await pending;
      }
    }
  }
}

/** How many of a process's errors get their stack in the bot's log (the game's record has the message). */
const MAX_STACKS = 20;

/** Writes an error's stack to the bot's log, where its author can find where it was thrown. */
function logStack(stack: string): void {
  process.stderr.write(`${stack.slice(0, 4000)}\n`);
}

/** The objects given to the requests of the batch being made their own so far (`own`). */
const claimed = new Set<object>();

/**
 * A request's value as its own: a batch is deserialized at once, which keeps the arena's sharing
 * (two games whose move lists were one cached array get one array here too), so a value that
 * shares an object with an earlier request of the batch (`claimed`: the objects those hold) is
 * copied. No game's bot sees what another game's bot did to its copy.
 */
function own(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || claim(value)) return value;
  return Array.isArray(value) && value.every(isPrimitive) ? value.slice() : structuredClone(value);
}

/** Whether a value holds no object (a copy of it is itself). */
function isPrimitive(x: unknown): boolean {
  return typeof x !== 'object' || x === null;
}

/** Adds the objects reachable from `value` to `claimed`; false (stopping there) at the first already claimed. */
function claim(value: object): boolean {
  if (claimed.has(value)) return false;
  claimed.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!claimValue(value[i])) return false;
  } else if (ArrayBuffer.isView(value)) return claim(value.buffer);
  else if (value instanceof Map) {
    for (const [k, v] of value) if (!claimValue(k) || !claimValue(v)) return false;
  } else if (value instanceof Set) {
    for (const x of value) if (!claimValue(x)) return false;
  } else for (const key in value) if (!claimValue((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** `claim` for any value: a primitive claims nothing. */
function claimValue(x: unknown): boolean {
  return isPrimitive(x) || claim(x as object);
}
