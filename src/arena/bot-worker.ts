/**
 * The worker-thread side of a bot host (isolation `worker`): loads one bot module, keeps it for the
 * whole tournament (its module caches live on), rebuilds each variant's Game from its id so every
 * capability (solver, heuristic, size) is there, and answers move requests. It receives structured
 * copies, so nothing a bot does here can touch the runner's state.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { botProblem, type AnyBot } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import { botOptions } from './bot-registry.ts';
import { errorText } from './host.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';

/**
 * Runs the worker: `load` imports the bot module (a dynamic import of the file under tsx, or of
 * the module bundled into this worker's script). Posts `ready`, or `fatal` with the reason.
 */
export async function runBotWorker(load: () => Promise<unknown>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('bot-worker.ts must run in a worker thread');
  const init = workerData as WorkerInit;
  const post = (msg: FromWorker): void => port.postMessage(msg);

  let bot: AnyBot;
  let options: Record<string, unknown>;
  try {
    const mod = (await load()) as { default?: unknown };
    let value = mod.default;
    // A TypeScript file compiled to CommonJS arrives as `{ default: { default: bot } }`.
    if (value !== null && typeof value === 'object' && !('choose' in value) && 'default' in value) value = (value as { default: unknown }).default;
    const problem = botProblem(value);
    if (problem) throw new Error(problem);
    bot = value as AnyBot;
    if (bot.name !== init.name) throw new Error(`expected the module to export bot \`${init.name}\`, found \`${bot.name}\``);
    options = botOptions(bot, init.options);
  } catch (err) {
    post({ t: 'fatal', reason: errorText(err) });
    return; // the host terminates the thread
  }

  const games = new Map<string, AnyGame>();
  let game: AnyGame | undefined;
  let seat: Seat = 'first';
  let rng: Rng = createRng(0);

  const send = (id: number, move: unknown): void => {
    try {
      post({ t: 'move', id, move });
    } catch (err) {
      // Functions, symbols and the like cannot cross the thread boundary: not a move at all.
      post({ t: 'garbage', id, reason: `returned something that is not a move (${errorText(err)})` });
    }
  };

  const onMove = (id: number, state: unknown, moves: readonly unknown[], deadline: number): void => {
    if (!game) {
      post({ t: 'error', id, reason: 'internal: move requested before a game was opened' });
      return;
    }
    let reply: unknown;
    try {
      reply = bot.choose({ game, state, moves, seat, rng, deadline, options });
    } catch (err) {
      post({ t: 'error', id, reason: errorText(err) });
      return;
    }
    if (reply !== null && typeof reply === 'object' && typeof (reply as { then?: unknown }).then === 'function') {
      (reply as PromiseLike<unknown>).then(
        (move) => send(id, move),
        (err: unknown) => post({ t: 'error', id, reason: errorText(err) }),
      );
    } else {
      send(id, reply);
    }
  };

  const gameOf = (variant: string): AnyGame => {
    let g = games.get(variant);
    if (!g) {
      g = parseVariant(variant);
      games.set(variant, g);
    }
    return g;
  };

  const onPrepare = (id: number, variant: string): void => {
    const failed = (err: unknown): void => post({ t: 'error', id, reason: `prepare failed: ${errorText(err)}` });
    let done: unknown;
    try {
      done = bot.prepare?.(gameOf(variant), options);
    } catch (err) {
      failed(err);
      return;
    }
    if (done !== null && typeof done === 'object' && typeof (done as { then?: unknown }).then === 'function') {
      (done as PromiseLike<unknown>).then(() => post({ t: 'prepared', id }), failed);
    } else {
      post({ t: 'prepared', id });
    }
  };

  port.on('message', (msg: ToWorker) => {
    if (msg.t === 'prepare') {
      onPrepare(msg.id, msg.variant);
      return;
    }
    if (msg.open) {
      game = gameOf(msg.open.variant);
      seat = msg.open.seat;
      rng = createRng(msg.open.seed);
    }
    onMove(msg.id, msg.state, msg.moves, msg.deadline);
  });
  post({ t: 'ready', prepares: typeof bot.prepare === 'function' });
}
