import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { otherSeat, type Seat } from '../../src/core/game.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { loadBotFileOrThrow, resolveBot } from '../../src/hosting/index.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';
import { dealGame, opponentOf, PlayTable, type Isolation, type Opponent, type PlaySession, type PlayState } from '../../src/play/index.ts';
import { HANG_MS } from '../patience.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const game = parseVariant('subtraction{moves=1,2,3;n=10}');
const start = game.deal(createRng(1));

let tables: PlayTable[] = [];
afterEach(async () => {
  await Promise.all(tables.map((t) => t.close()));
  tables = [];
});

/** A table with the bots' stores in memory, closed after the test. */
function table(timePerMoveMs: number, isolation?: Isolation): PlayTable {
  const t = new PlayTable({ timePerMoveMs, botData: null, ...(isolation ? { isolation } : {}) });
  tables.push(t);
  return t;
}

/** A fixture bot read by discovery (its file alone), as `arena play --bot` would choose it. */
async function fixture(dir: string, name: string): Promise<Opponent> {
  const entry = await loadBotFileOrThrow(join(FIXTURES, dir, `${name}.ts`));
  return opponentOf(resolveBot({ bots: [entry], problems: [] }, name));
}

/** Resolves with the first state that passes `test` (the current one included). */
function until(session: PlaySession, test: (s: PlayState) => boolean, ms = HANG_MS): Promise<PlayState> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const s = session.getSnapshot();
      if (!test(s)) return false;
      clearTimeout(timer);
      off();
      resolve(s);
      return true;
    };
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out; state: ${JSON.stringify({ ...session.getSnapshot(), history: session.getSnapshot().history.map((p) => p.text) })}`));
    }, ms);
    const off = session.subscribe(() => void check());
    check();
  });
}

/** Seats so that the bot moves first from `start`. */
const botFirst: Seat = otherSeat(game.toMove(start));

/** The solver's move, as the built-in optimal bot plays it. */
const solver: Opponent = {
  label: 'solverbot',
  name: 'solverbot',
  bot: defineBot({ name: 'solverbot', description: 'the solver’s move', choose: ({ game: g, state }) => g.solver!()!.bestMove(state) }) as AnyBot,
  options: {},
};

/** Where this test runs, as fx-where words it. */
const here = `pid ${process.pid}, ${isMainThread ? 'main thread' : `worker thread ${threadId}`}`;

describe('a play session hosts its bot as a tournament does', () => {
  it('in a process of its own by default (isolation worker), on this very thread only with isolation none', async () => {
    const where = await fixture('play', 'fx-where');
    const t = table(5000);
    expect(t.isolation).toBe('worker');
    const s = await until(t.open({ game, start, human: botFirst, opponent: where, seed: 1 }), (x) => x.forfeit !== null);
    const m = /crash \(Error: pid (\d+), (main thread|worker thread (\d+))\)/.exec(s.forfeit!);
    expect(m, s.forfeit!).not.toBeNull();
    expect(Number(m![1])).not.toBe(process.pid);

    const inProcess = await until(table(5000, 'none').open({ game, start, human: botFirst, opponent: where, seed: 1 }), (x) => x.forfeit !== null);
    expect(inProcess.forfeit).toContain(`crash (Error: ${here})`);
  });

  it.skipIf(sandboxProblem() !== null)('in a process of its own under sandbox', async () => {
    const where = await fixture('play', 'fx-where');
    const s = await until(table(10_000, 'sandbox').open({ game, start, human: botFirst, opponent: where, seed: 1 }), (x) => x.forfeit !== null, 30_000);
    const m = /pid (\d+), main thread/.exec(s.forfeit!);
    expect(m, s.forfeit!).not.toBeNull();
    expect(Number(m![1])).not.toBe(process.pid);
  });

  it('a bot that calls process.exit ends only its own process: it forfeits, and after undo plays on a new one', async () => {
    const exits = await fixture('bots', 'fx-exits');
    const session = table(5000).open({ game, start, human: otherSeat(botFirst), opponent: exits, seed: 2 });
    expect(session.play(session.getSnapshot().moves[0])).toBe(true);
    let s = await until(session, (x) => x.forfeit !== null);
    expect(s.forfeit).toMatch(/^fx-exits forfeits: crash \(/);
    expect(s.outcome).toEqual({ winner: session.human });
    expect(session.undo()).toBe(true);
    s = session.getSnapshot();
    expect(s.forfeit).toBeNull();
    expect(s.history).toEqual([]);
    expect(session.play(s.moves[1])).toBe(true);
    s = await until(session, (x) => x.forfeit !== null);
    expect(s.forfeit).toMatch(/^fx-exits forfeits: crash \(/);
  });

  it('a bot that never answers loses on time, and closing the table ends its process', async () => {
    const loops = await fixture('bots', 'fx-loops');
    const t = table(200);
    const s = await until(t.open({ game, start, human: botFirst, opponent: loops, seed: 3 }), (x) => x.forfeit !== null);
    expect(s.forfeit).toMatch(/^fx-loops forfeits: timeout \(/);
    await t.close();
  });

  it('a bot that cannot start forfeits with the reason', async () => {
    const nostart = await fixture('bots', 'fx-nostart');
    const s = await until(table(2000).open({ game, start, human: botFirst, opponent: nostart, seed: 4 }), (x) => x.forfeit !== null);
    expect(s.forfeit).toMatch(/^fx-nostart forfeits: crash \(failed to start: .*fx-nostart cannot start here/);
  });
});

describe('the session as a screen uses it', () => {
  it('deals game k of a run the same every time, with the human in the seat asked for', () => {
    const readme = parseVariant('subtraction{moves=1,5,8,10;n=50..200}');
    const me = dealGame({ game: readme, opponent: solver, first: 'me' }, 2, 0);
    const bot = dealGame({ game: readme, opponent: solver, first: 'bot' }, 2, 0);
    expect(me.start).toEqual({ pile: 179, turn: 'first' }); // the README's `--seed 2`
    expect(bot.start).toEqual(me.start);
    expect(me.human).toBe('first');
    expect(bot.human).toBe('second');
    const next = dealGame({ game: readme, opponent: solver, first: 'me' }, 2, 1);
    expect(next.seed).not.toBe(me.seed);
    expect(dealGame({ game: readme, opponent: solver, first: 'me' }, 2, 1)).toEqual(next);
  });

  it('plays the human’s legal moves only, in turn; the bot replies; undo takes back a move and its reply', async () => {
    const session = table(1000).open({ game, start, human: 'first', opponent: solver, seed: 5 });
    let changes = 0;
    session.subscribe(() => changes++);
    const first = session.getSnapshot();
    expect(first.state).toBe(start);
    expect(first.toMove).toBe('first');
    expect(first.moves).toEqual([1, 2, 3]);
    expect(session.play(4)).toBe(false); // not a legal move
    expect(session.undo()).toBe(false); // nothing to undo yet
    expect(session.getSnapshot()).toBe(first); // refused: no change at all

    expect(session.play(1)).toBe(true); // 10 → 9: the bot may take 1 to leave 8
    const asked = session.getSnapshot();
    expect(asked.thinking).toBe(true);
    expect(asked.toMove).toBe('second');
    expect(session.play(1)).toBe(false); // the bot's turn
    expect(session.undo()).toBe(false); // not while it thinks
    const replied = await until(session, (x) => !x.thinking);
    expect(replied.history.map((p) => [p.seat, p.text])).toEqual([
      ['first', '1'],
      ['second', '1'],
    ]);
    expect(replied.prev).toBe(replied.history[1]!.before);
    expect(changes).toBeGreaterThanOrEqual(3);

    expect(session.undo()).toBe(true);
    const undone = session.getSnapshot();
    expect(undone.history).toEqual([]);
    expect(undone.state).toBe(start);
  });

  it('ends by the rules, takes back the losing move after the end, and stops at close', async () => {
    const session = table(1000).open({ game, start, human: 'first', opponent: solver, seed: 6 });
    // 10 → 8 is lost for the mover; the solver then takes the smallest, and 4 - k keeps the win.
    for (const take of [2, 3, 3]) {
      expect(session.play(take)).toBe(true);
      await until(session, (x) => !x.thinking);
    }
    const over = session.getSnapshot();
    expect(over.outcome).toEqual({ winner: 'first' });
    expect(over.moves).toEqual([]);
    expect(session.play(1)).toBe(false);
    expect(session.undo()).toBe(true); // back before the winning take
    expect(session.getSnapshot().outcome).toBeNull();
    session.close();
    expect(session.closed).toBe(true);
    expect(session.play(session.getSnapshot().moves[0])).toBe(false);
  });

  it('the table closes its open games; no game opens after', async () => {
    const t = table(1000);
    const session = t.open({ game, start, human: botFirst, opponent: solver, seed: 7 });
    expect(session.getSnapshot().thinking).toBe(true);
    await t.close();
    expect(session.closed).toBe(true);
    expect(() => t.open({ game, start, human: botFirst, opponent: solver, seed: 7 })).toThrow(/after close/);
  });
});
