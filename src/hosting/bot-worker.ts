/**
 * The worker-thread side of a bot host (isolation `worker`): loads one bot module, keeps it for the
 * whole tournament (its module caches live on), rebuilds each variant's Game from its id so every
 * capability (solver, heuristic, size) is there, and answers move requests. It receives structured
 * copies, so nothing a bot does here can touch the runner's state.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, rngFromState, saveRngState, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import { createBotStore } from '../platform/bot-store.ts';
import { createStoreCall } from '../platform/store-bridge.ts';
import { moduleBot } from './bot-registry.ts';
import { errorText, isThenable } from './host.ts';
import { channelMemory, CURRENT, REPLY, REQUEST, RING_READ, RING_WRITE, sharedNow, SLEEPING, type Reply, type Request, type StartMessage, type WorkerData } from './worker-protocol.ts';

/**
 * Runs the worker: `load` imports the bot module (a dynamic import of the file under tsx, or of
 * the module bundled into this worker's script). Posts `ready`, or `fatal` with the reason.
 */
export async function runBotWorker(load: () => Promise<unknown>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('bot-worker.ts must run in a worker thread');
  const init = workerData as WorkerData;
  const start = (msg: StartMessage): void => port.postMessage(msg);
  const { port: channel } = init.channel;
  const { ctl, start: begun, rng: rngStates, ringInts, ringThink, ringSize } = channelMemory(init.channel.sab);
  /** Sends a reply on the channel (the runner takes it once this thread runs out of work, or when it cuts the thread off). */
  const post = (msg: Reply): void => channel.postMessage(msg);

  let bot: AnyBot;
  let options: Record<string, unknown>;
  try {
    ({ bot, options } = moduleBot(await load(), init.name, init.options));
  } catch (err) {
    start({ t: 'fatal', reason: errorText(err) });
    return; // the host terminates the thread
  }

  const store = createBotStore(init.store.snapshot, init.store.location, init.storeBridge ? createStoreCall(init.storeBridge) : undefined);
  const games = new Map<string, AnyGame>();
  /** The games this thread plays, by slot: the variant's Game, the bot's seat and its generator. */
  const slots: { game: AnyGame; seat: Seat; rng: Rng }[] = [];

  const send = (id: number, move: unknown, clock: boolean, think: number): void => {
    // A 32-bit integer move goes in the ring when there is room (see worker-protocol.ts).
    if (!clock && typeof move === 'number' && (move | 0) === move && !Object.is(move, -0)) {
      const w = Atomics.load(ctl, RING_WRITE);
      if (w - Atomics.load(ctl, RING_READ) < ringSize) {
        const at = w % ringSize;
        ringInts[2 * at] = id;
        ringInts[2 * at + 1] = move;
        ringThink[at] = think;
        Atomics.store(ctl, RING_WRITE, w + 1);
        return;
      }
    }
    try {
      post(clock ? { t: 'move', id, move, think, clock: true } : { t: 'move', id, move, think });
    } catch (err) {
      // Functions, symbols and the like cannot cross the thread boundary: not a move at all.
      post({ t: 'garbage', id, reason: `returned something that is not a move (${errorText(err)})`, think });
    }
  };

  /** Set through `ctx.clockStopped` during the current move: one function for the thread, not one per move. */
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

  /**
   * Asks the bot for a move and replies; a promise when the bot answers asynchronously. The think
   * time is timed here, on the bot's own thread, apart from the messages both ways (the arena's
   * overhead), and the generator's state is kept in shared memory after the move.
   */
  const onMove = (r: Extract<Request, { t: 'move' }>, t0: number): Promise<void> | null => {
    if (r.open) {
      const { variant, seat, seed, rng } = r.open;
      slots[r.slot] = { game: gameOf(variant), seat, rng: rng ? rngFromState(seed, rng) : createRng(seed) };
    }
    const played = slots[r.slot];
    if (!played) {
      post({ t: 'error', id: r.id, reason: 'internal: move requested before a game was opened', think: 0 });
      return null;
    }
    const { id, slot } = r;
    let reply: unknown;
    clock = false;
    try {
      reply = bot.choose({ game: played.game, state: r.state, moves: r.moves, seat: played.seat, rng: played.rng, deadline: t0 + r.limitMs, options, store, clockStopped, clock: r.clock });
    } catch (err) {
      saveRngState(played.rng, rngStates, slot * 4);
      post({ t: 'error', id, reason: errorText(err), think: sharedNow() - t0 });
      return null;
    }
    if (isThenable(reply)) {
      return Promise.resolve(reply).then(
        (move) => {
          saveRngState(played.rng, rngStates, slot * 4);
          send(id, move, clock, sharedNow() - t0);
        },
        (err: unknown) => {
          saveRngState(played.rng, rngStates, slot * 4);
          post({ t: 'error', id, reason: errorText(err), think: sharedNow() - t0 });
        },
      );
    }
    saveRngState(played.rng, rngStates, slot * 4);
    send(id, reply, clock, sharedNow() - t0);
    return null;
  };

  /** Runs the bot's `prepare` for a variant and replies; a promise when it is asynchronous. */
  const onPrepare = (id: number, variant: string, t0: number): Promise<void> | null => {
    const failed = (err: unknown): void => post({ t: 'error', id, reason: `prepare failed: ${errorText(err)}`, think: sharedNow() - t0 });
    let done: unknown;
    try {
      done = bot.prepare?.(gameOf(variant), options);
    } catch (err) {
      failed(err);
      return null;
    }
    if (isThenable(done)) return Promise.resolve(done).then(() => post({ t: 'prepared', id, think: sharedNow() - t0 }), failed);
    post({ t: 'prepared', id, think: sharedNow() - t0 });
    return null;
  };

  /** Begins a request: says which one and when in shared memory (the runner's watchdog reads them), then runs it. */
  const handle = (r: Request): Promise<void> | null => {
    const t0 = sharedNow();
    begun[0] = t0;
    Atomics.store(ctl, CURRENT, r.id);
    return r.t === 'prepare' ? onPrepare(r.id, r.variant, t0) : onMove(r, t0);
  };

  /**
   * Serves requests until a bot answers asynchronously: then the thread returns to its event loop
   * (so the bot's promises and timers run) and serving resumes once the reply is sent. Out of work,
   * it tells the runner the last request answered and sleeps in `Atomics.wait` until the next
   * (`terminate()` still ends it). The request id is read before the port is found empty, so a
   * request posted in between is never slept through.
   */
  let last = 0;
  const serve = (): void => {
    for (;;) {
      const seen = Atomics.load(ctl, REQUEST);
      const msg = receiveMessageOnPort(channel);
      if (msg) {
        const r = msg.message as Request;
        last = r.id;
        const pending = handle(r);
        if (pending) {
          void pending.then(serve);
          return;
        }
        continue;
      }
      if (Atomics.load(ctl, REPLY) !== last) {
        Atomics.store(ctl, REPLY, last);
        Atomics.notify(ctl, REPLY);
      }
      Atomics.store(ctl, SLEEPING, 1);
      while (Atomics.load(ctl, REQUEST) === seen) Atomics.wait(ctl, REQUEST, seen);
      Atomics.store(ctl, SLEEPING, 0);
    }
  };
  // Nothing comes on the worker's own port any more, but listening keeps the thread alive while an
  // asynchronous bot waits on a promise that nothing else holds (it then times out, as it should).
  port.on('message', () => {});
  start({ t: 'ready', prepares: typeof bot.prepare === 'function' });
  serve();
}
