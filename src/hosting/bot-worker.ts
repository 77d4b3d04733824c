/**
 * The worker-thread side of a bot host (isolation `worker`): loads one bot module, keeps it for the
 * whole tournament (its module caches live on), rebuilds each variant's Game from its id so every
 * capability (solver, heuristic, size) is there, and answers move requests. It receives structured
 * copies, so nothing a bot does here can touch the runner's state.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { AnyBot, BotClock } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import { createBotStore } from '../platform/bot-store.ts';
import { createStoreCall } from '../platform/store-bridge.ts';
import { moduleBot } from './bot-registry.ts';
import { errorText, isThenable } from './host.ts';
import { REPLY, REQUEST, spinWhile, WORKER_SPIN_MS, type Reply, type StartMessage, type ToWorker, type WorkerData } from './worker-protocol.ts';

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
  const ctl = new Int32Array(init.channel.sab);
  /** Sends a reply on the channel and wakes the runner. */
  const post = (msg: Reply): void => {
    channel.postMessage(msg);
    Atomics.store(ctl, REPLY, msg.id);
    Atomics.notify(ctl, REPLY);
  };

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
  let game: AnyGame | undefined;
  let seat: Seat = 'first';
  let rng: Rng = createRng(0);

  const send = (id: number, move: unknown, clock: boolean, think: number | undefined): void => {
    try {
      if (think !== undefined) post(clock ? { t: 'move', id, move, clock: true, think } : { t: 'move', id, move, think });
      else post(clock ? { t: 'move', id, move, clock: true } : { t: 'move', id, move });
    } catch (err) {
      // Functions, symbols and the like cannot cross the thread boundary: not a move at all.
      post({ t: 'garbage', id, reason: `returned something that is not a move (${errorText(err)})` });
    }
  };

  /** Set through `ctx.clockStopped` during the current move: one function for the thread, not one per move. */
  let clock = false;
  const clockStopped = (): void => void (clock = true);

  /** Asks the bot for a move and replies; a promise when the bot answers asynchronously. */
  const onMove = (id: number, state: unknown, moves: readonly unknown[], deadline: number, bank: BotClock | undefined): Promise<void> | null => {
    if (!game) {
      post({ t: 'error', id, reason: 'internal: move requested before a game was opened' });
      return null;
    }
    let reply: unknown;
    clock = false;
    // Under a time control the bank is charged the think time timed here, on the bot's own thread,
    // apart from the messages both ways (the arena's overhead). Untimed otherwise: no clock reads.
    const t0 = bank ? performance.now() : 0;
    try {
      reply = bot.choose({ game, state, moves, seat, rng, deadline, options, store, clockStopped, clock: bank });
    } catch (err) {
      post({ t: 'error', id, reason: errorText(err) });
      return null;
    }
    if (isThenable(reply)) {
      return Promise.resolve(reply).then(
        (move) => send(id, move, clock, bank ? performance.now() - t0 : undefined),
        (err: unknown) => post({ t: 'error', id, reason: errorText(err) }),
      );
    }
    send(id, reply, clock, bank ? performance.now() - t0 : undefined);
    return null;
  };

  const gameOf = (variant: string): AnyGame => {
    let g = games.get(variant);
    if (!g) {
      g = parseVariant(variant);
      games.set(variant, g);
    }
    return g;
  };

  /** Runs the bot's `prepare` for a variant and replies; a promise when it is asynchronous. */
  const onPrepare = (id: number, variant: string): Promise<void> | null => {
    const failed = (err: unknown): void => post({ t: 'error', id, reason: `prepare failed: ${errorText(err)}` });
    let done: unknown;
    try {
      done = bot.prepare?.(gameOf(variant), options);
    } catch (err) {
      failed(err);
      return null;
    }
    if (isThenable(done)) return Promise.resolve(done).then(() => post({ t: 'prepared', id }), failed);
    post({ t: 'prepared', id });
    return null;
  };

  const handle = (msg: ToWorker): Promise<void> | null => {
    if (msg.t === 'prepare') return onPrepare(msg.id, msg.variant);
    if (msg.open) {
      game = gameOf(msg.open.variant);
      seat = msg.open.seat;
      rng = createRng(msg.open.seed);
    }
    return onMove(msg.id, msg.state, msg.moves, msg.deadline, msg.clock);
  };

  /**
   * Serves requests until a bot answers asynchronously: then the thread returns to its event loop
   * (so the bot's promises and timers run) and serving resumes once the reply is sent. Between
   * requests the thread spins briefly, then sleeps in `Atomics.wait`; `terminate()` still ends it.
   */
  let seen = 0;
  const serve = (): void => {
    for (;;) {
      if (!spinWhile(ctl, REQUEST, seen, WORKER_SPIN_MS)) while (Atomics.load(ctl, REQUEST) === seen) Atomics.wait(ctl, REQUEST, seen);
      seen = Atomics.load(ctl, REQUEST);
      const msg = receiveMessageOnPort(channel)?.message as ToWorker | undefined;
      if (!msg) continue; // cannot happen: the runner posts before it bumps the request id
      const pending = handle(msg);
      if (pending) {
        void pending.then(serve);
        return;
      }
    }
  };
  // Nothing comes on the worker's own port any more, but listening keeps the thread alive while an
  // asynchronous bot waits on a promise that nothing else holds (it then times out, as it should).
  port.on('message', () => {});
  start({ t: 'ready', prepares: typeof bot.prepare === 'function' });
  serve();
}
