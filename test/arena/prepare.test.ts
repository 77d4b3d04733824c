import { describe, expect, it } from 'vitest';
import { InProcessHost } from '../../src/hosting/index.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { readLog, runSpec } from './helpers.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';

const BASE = {
  name: 'prepare',
  seed: 5,
  games: ['subtraction{n=20..30}'],
  deals: 1,
  timePerMoveMs: 50,
  concurrency: 2,
};

/** The games a bot played, and those it forfeited. */
function of(log: readonly GameRecord[], bot: string): { played: GameRecord[]; forfeited: GameRecord[] } {
  const played = log.filter((r) => r.seats.first === bot || r.seats.second === bot);
  return { played, forfeited: played.filter((r) => r.faulty !== null && r.seats[r.faulty] === bot) };
}

// The sandbox runs each bot in a process of its own, which the arena asks to prepare before its first move there.
describe.each(['none', 'worker', ...(sandboxProblem() === null || process.env['CI'] ? (['sandbox'] as const) : [])] as const)('bot prepare (isolation %s)', (isolation) => {
  it('gives a slow warm-up its own budget: 300 ms of prepare with a 50 ms move limit forfeits nothing', async () => {
    const { dir, summary } = await runSpec({ ...BASE, isolation, bots: ['fx-prepare-slow', 'fx-first'] });
    const log = readLog(dir);
    expect(log).toHaveLength(2);
    expect(log.map((r) => [r.termination, r.reason])).toEqual(log.map(() => ['normal', null]));
    // The warm-up is not charged to the first move.
    const slow = log.flatMap((r) => r.us.filter((_, i) => (i % 2 === 0 ? r.seats.first : r.seats.second) === 'fx-prepare-slow'));
    expect(Math.max(...slow) / 1000).toBeLessThan(50);
    expect(summary.games.byTermination.normal).toBe(2);
  });

  it('forfeits the games of a bot whose prepare throws, as a crash with the reason', async () => {
    const { dir } = await runSpec({ ...BASE, isolation, bots: ['fx-prepare-throws', 'fx-first'] });
    const log = readLog(dir);
    const { played, forfeited } = of(log, 'fx-prepare-throws');
    expect(played).toHaveLength(2);
    expect(forfeited).toHaveLength(2);
    for (const r of forfeited) {
      expect(r.termination).toBe('crash');
      expect(r.reason).toBe('prepare failed: Error: fx-prepare-throws has no table');
      expect(r.winner).toBe('fx-first');
    }
  });

  it('forfeits on time when prepare overruns its budget (prepareTimeoutMs)', async () => {
    // Another variant: in-process, the bot module (and what it prepared) outlives a tournament.
    const games = ['subtraction{n=21..30}'];
    const { dir } = await runSpec({ ...BASE, games, isolation, prepareTimeoutMs: 100, bots: ['fx-prepare-slow', 'fx-first'] });
    const log = readLog(dir);
    const { played, forfeited } = of(log, 'fx-prepare-slow');
    // Seen once at load 19 (sandbox): one of the two games not forfeited by the slow bot; the games say how they ended.
    const ends = JSON.stringify(log.map((r) => ({ index: r.index, seats: r.seats, termination: r.termination, faulty: r.faulty, reason: r.reason, moves: r.moves.length })));
    expect(played, ends).toHaveLength(2);
    expect(forfeited, ends).toHaveLength(2);
    for (const r of forfeited) {
      expect(r.termination).toBe('timeout');
      expect(r.reason).toBe('prepare took longer than its 100 ms budget');
    }
  });
});

describe('InProcessHost prepare', () => {
  const info = (variant: string, key: string) => ({ key, variant, seat: 'first' as const, rngSeed: 1 });
  const spec = { label: 'warm', name: 'warm', options: {} };

  it("runs prepare once per variant, at the bot's first move in it", () => {
    const calls: string[] = [];
    const bot = defineBot({
      name: 'warm',
      description: 'test',
      prepare: (game) => void calls.push(game.id),
      choose: ({ moves }) => {
        calls.push('move');
        return moves[0];
      },
    });
    const host = new InProcessHost(spec, bot as AnyBot, 10, 1000);
    const a = host.open(info('subtraction{moves=1,5,8,10;n=20}', 'a'));
    expect(calls).toEqual([]); // opening a game does not prepare: the first move does
    const state = { pile: 20, turn: 'first' };
    expect(a.move(state, [1, 2, 3], 50)).toMatchObject({ ok: true, move: 1 });
    expect(a.move(state, [1, 2, 3], 50)).toMatchObject({ ok: true });
    host.open(info('subtraction{moves=1,5,8,10;n=20}', 'b')).move(state, [1, 2, 3], 50);
    host.open(info('subtraction{moves=1,5,8,10;n=30}', 'c')).move({ pile: 30, turn: 'first' }, [1, 2, 3], 50);
    expect(calls).toEqual(['subtraction{moves=1,5,8,10;n=20}', 'move', 'move', 'move', 'subtraction{moves=1,5,8,10;n=30}', 'move']);
  });

  it('judges a synchronous prepare after the fact: over budget is a timeout, remembered for the variant', () => {
    let prepares = 0;
    const bot = defineBot({
      name: 'warm',
      description: 'test',
      prepare: () => {
        prepares++;
        const until = performance.now() + 60;
        while (performance.now() < until);
      },
      choose: ({ moves }) => moves[0],
    });
    const host = new InProcessHost(spec, bot as AnyBot, 10, 20);
    const state = { pile: 20, turn: 'first' };
    const first = host.open(info('subtraction{moves=1,5,8,10;n=20}', 'a')).move(state, [1, 2, 3], 50);
    expect(first).toMatchObject({ ok: false, kind: 'timeout', reason: 'prepare took longer than its 20 ms budget' });
    const again = host.open(info('subtraction{moves=1,5,8,10;n=20}', 'b')).move(state, [1, 2, 3], 50);
    expect(again).toMatchObject({ ok: false, kind: 'timeout', reason: 'prepare took longer than its 20 ms budget' });
    expect(prepares).toBe(1);
  });
});

describe('InProcessHost move lists', () => {
  const spec = { label: 'cut', name: 'cut', options: {} };
  const info = { key: 'k', variant: 'subtraction{moves=1,5,8,10;n=20}', seat: 'first' as const, rngSeed: 1 };
  const cutter = defineBot({
    name: 'cut',
    description: 'test: empties its move list, then plays the first move it saw',
    choose: ({ moves }) => {
      const m = moves[0];
      (moves as unknown[]).length = 0;
      return m;
    },
  });

  it('hands a frozen list over as it is: a bot writing to it crashes', () => {
    const legal = Object.freeze([1, 5, 8, 10]);
    const session = new InProcessHost(spec, cutter as AnyBot).open(info);
    expect(session.move({ pile: 20, turn: 'first' }, legal, 50)).toMatchObject({ ok: false, kind: 'crash' });
    expect(legal).toEqual([1, 5, 8, 10]);
  });

  it("copies a list the runner could still change, so the runner's list stays whole", () => {
    const legal = [1, 5, 8, 10];
    const session = new InProcessHost(spec, cutter as AnyBot).open(info);
    expect(session.move({ pile: 20, turn: 'first' }, legal, 50)).toMatchObject({ ok: true, move: 1 });
    expect(session.move({ pile: 19, turn: 'first' }, legal, 50)).toMatchObject({ ok: true, move: 1 });
    expect(legal).toEqual([1, 5, 8, 10]);
  });
});
