/**
 * The program a module bot runs as under isolation `sandbox`: bundled with the bot into one plain
 * `.mjs` file and started by Node inside the sandbox (platform/sandbox.ts) under Node's permission
 * model, it speaks the external bots' JSON-lines protocol (docs/PROTOCOL.md) on stdin and stdout,
 * so the sandbox host is the process host. Two additions, for module bots only: a move request
 * carries the position and the legal moves as the runner's own values (`native`: v8-serialized,
 * base64), so the bot gets real states and moves as in a worker; and a bot that throws answers
 * `{"type":"error"}`, a crash with its reason.
 */
import { createInterface } from 'node:readline';
import { deserialize } from 'node:v8';
import type { AnyBot, BotClock } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import { readFileSync } from 'node:fs';
import { createBotStore, memoryStore } from '../platform/bot-store.ts';
import { moduleBot } from './bot-module.ts';
import { errorText } from './host.ts';

/** What the host passes on the command line (JSON): the bot's expected name and raw options, and its store. */
export interface RunnerArgs {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The store's folder and run-start snapshot inside the sandbox, and its cap; absent: a store in memory. */
  readonly store?: { readonly dir: string; readonly snapshot: string; readonly capBytes: number };
}

/** The clock as the runner reads it before any bot code runs (a bot cannot swap it for its own). */
const now = performance.now.bind(performance);

/** The bot's clock from a move request's time-control fields, or undefined without a time control. */
function clockOf(msg: Readonly<Record<string, unknown>>): BotClock | undefined {
  const left = msg['timeLeftMs'];
  if (typeof left !== 'number') return undefined;
  return { remainingMs: left, incrementMs: msg['incrementMs'] as number, opponentRemainingMs: msg['opponentTimeLeftMs'] as number };
}

/** Runs the bot loaded by `load` until stdin closes or `quit` arrives. */
export async function runSandboxedBot(load: () => Promise<unknown>): Promise<void> {
  const write = (msg: unknown): void => void process.stdout.write(`${JSON.stringify(msg)}\n`);
  const args = JSON.parse(process.argv[2] ?? '{}') as RunnerArgs;
  let bot: AnyBot;
  let options: Record<string, unknown>;
  try {
    ({ bot, options } = moduleBot(await load(), args.name, args.options));
  } catch (err) {
    process.stderr.write(`cannot start: ${errorText(err)}\n`);
    process.exit(1);
  }

  // The store: its folder bound at `args.store.dir` (the one place Node lets this process write),
  // read through the run-start snapshot the arena wrote beside the bundle; in memory without one.
  const store = args.store
    ? createBotStore(deserialize(readFileSync(args.store.snapshot)) as Map<string, Uint8Array>, { dir: args.store.dir, capBytes: args.store.capBytes })
    : memoryStore();
  const games = new Map<string, AnyGame>();
  const prepared = new Map<string, Promise<string | null>>();
  let game: AnyGame | undefined;
  let seat: Seat = 'first';
  let rng: Rng = createRng(0);
  /** The warm-up of the current variant: null when ready, else why it failed. */
  let ready: Promise<string | null> = Promise.resolve(null);

  const prepare = (variant: string, g: AnyGame): Promise<string | null> => {
    let p = prepared.get(variant);
    if (!p) {
      p = (async () => {
        try {
          await bot.prepare?.(g, options);
          return null;
        } catch (err) {
          return `prepare failed: ${errorText(err)}`;
        }
      })();
      prepared.set(variant, p);
    }
    return p;
  };

  const onMove = async (id: number, native: string, timeMs: number, bank: BotClock | undefined): Promise<void> => {
    const t0 = Date.now();
    const failed = await ready;
    if (failed) return write({ type: 'error', id, reason: failed });
    if (!game) return write({ type: 'error', id, reason: 'internal: move requested before a game was opened' });
    const { state, moves } = deserialize(Buffer.from(native, 'base64')) as { state: unknown; moves: readonly unknown[] };
    let move: unknown;
    let clock = false;
    // Under a time control, the think time is timed here around `choose` and reported (`thinkMs`):
    // the arena believes it to within its margin (docs/PROTOCOL.md).
    const started = now();
    try {
      move = await bot.choose({ game, state, moves, seat, rng, deadline: t0 + timeMs, options, store, clockStopped: () => void (clock = true), clock: bank });
    } catch (err) {
      return write({ type: 'error', id, reason: errorText(err) });
    }
    const thinkMs = now() - started;
    let text: string;
    try {
      text = game.formatMove(move);
    } catch (err) {
      return write({ type: 'error', id, reason: `returned something that is not a move (${errorText(err)})` });
    }
    const answer = clock ? { type: 'move', id, move: text, clock: true } : { type: 'move', id, move: text };
    write(bank ? { ...answer, thinkMs } : answer);
  };

  // One request at a time, in order: a move waits for the previous message's work.
  let queue: Promise<void> = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const msg = JSON.parse(line) as { type: string; [k: string]: unknown };
    queue = queue.then(async () => {
      switch (msg.type) {
        case 'hello':
          return write({ type: 'hello', protocol: 1, name: bot.name });
        case 'new-game': {
          const variant = msg['variant'] as string;
          let g = games.get(variant);
          if (!g) {
            g = parseVariant(variant);
            games.set(variant, g);
          }
          game = g;
          seat = msg['seat'] as Seat;
          rng = createRng(msg['seed'] as number);
          ready = prepare(variant, g);
          return;
        }
        case 'move-request':
          if (msg['prepare'] === true) {
            const failed = await ready;
            return write(failed ? { type: 'error', id: msg['id'], reason: failed } : { type: 'move', id: msg['id'], move: '' });
          }
          return onMove(msg['id'] as number, msg['native'] as string, msg['timeMs'] as number, clockOf(msg));
        case 'quit':
          process.exit(0);
      }
    });
  });
  lines.on('close', () => void queue.then(() => process.exit(0)));
}
