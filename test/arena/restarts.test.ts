/**
 * A game never moves to another process of its bot unrecorded: when one game's overrun ends the
 * process it shares with others, those go on in a new process without what the bot kept of them
 * there (minimax's table, say), and the first answer there says so (`MoveReply.restarted`), so
 * their records name the restart (`restarts`). A game the old process had not answered in yet lost
 * nothing and says nothing.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { playMatch } from '../../src/arena/match.ts';
import type { GameJob } from '../../src/arena/schedule.ts';
import { defineBot } from '../../src/core/bot.ts';
import { parseVariant } from '../../src/games/index.ts';
import { createHost, type BotHost, type BotSession, type BotSpec, type MoveReply } from '../../src/hosting/index.ts';
import { WorkerHost } from '../../src/hosting/worker-host.ts';

const FILE = join(import.meta.dirname, '..', 'fixtures', 'multiplex', 'fx-remembers.ts');
const MOVES = [1, 5, 8, 10];
const pile = (n: number): unknown => ({ pile: n, turn: 'first' });
const VARIANT = 'subtraction{n=12..30}';

/** The fixture's host: every game on its one process (one game at a time per core: here one process). */
const remembers = (concurrency: number): WorkerHost => new WorkerHost('fx-remembers', { file: FILE, name: 'fx-remembers', options: {}, memoryMb: 64, graceMs: 20, concurrency });

const hosts: BotHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** Asks every session for a move at once (one batch on their shared process). */
function askAll(sessions: readonly BotSession[], piles: readonly number[], limitMs = 300): Promise<MoveReply[]> {
  return Promise.all(sessions.map((s, i) => Promise.resolve(s.move(pile(piles[i]!), MOVES, limitMs))));
}

describe('a game whose process another game ended', () => {
  it("answers from the new process with why the old one ended, once, and only if the old one had answered in it", async () => {
    const host = remembers(4);
    hosts.push(host);
    await host.start();
    const open = (i: number): Promise<BotSession> => Promise.resolve(host.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: i }));
    const sessions = await Promise.all([0, 1, 2, 3].map(open));
    const first = await askAll(sessions, [30, 29, 28, 27]);
    expect(first.map((r) => r.ok && r.move)).toEqual([1, 1, 1, 1]);
    expect(first.some((r) => r.ok && r.restarted !== undefined)).toBe(false);
    // Opened on the same process, not yet asked when the process ends: it has nothing to lose.
    const late = await open(4);
    // Game 0 hangs first in the batch: its process is ended, the others go on in a new one.
    const second = await askAll(sessions, [7, 26, 25, 24]);
    expect(second[0]).toMatchObject({ ok: false, kind: 'timeout', reason: 'no move within 300 ms' });
    // Their second move, by the bot's count of moves in the game: lost with the process, it counts
    // from the start again (1, not 5), and the answer says why.
    for (const r of second.slice(1)) expect(r).toMatchObject({ ok: true, move: 1, restarted: 'no move within 300 ms' });
    const third = await askAll([...sessions.slice(1), late], [23, 22, 21, 30]);
    expect(third.map((r) => r.ok && r.move)).toEqual([5, 5, 5, 1]);
    expect(third.some((r) => r.ok && r.restarted !== undefined)).toBe(false);
  });
});

describe("a game's record", () => {
  const spec = (label: string): BotSpec => ({ label, name: label, options: {} });
  const job = (index: number, variant: string, timePerMoveMs: number): GameJob => ({
    index,
    key: `${variant}|0|fx-remembers|waiter|0`,
    variant,
    deal: 0,
    dealSeed: 1,
    seating: 0,
    seats: { first: spec('fx-remembers'), second: spec('waiter') },
    botSeeds: { first: 11 + index, second: 12 + index },
    timePerMoveMs,
  });

  it('names the restart: the seat, the move from which its bot went on afresh, and why', async () => {
    // Every game of the fixture on one process; the opponent, at its first move, has the fixture
    // hang in another game on that process and waits until that game is lost on time.
    const shared = remembers(1);
    let other: ReturnType<typeof playMatch> | null = null;
    const waiter = createHost(
      {
        transport: 'inline',
        bot: defineBot({
          name: 'waiter',
          description: 'fixture: takes the first move; before its first, has the other game hang',
          choose: async ({ moves }) => {
            other ??= playMatch(job(1, 'subtraction{moves=1,5,8,10;n=7}', 300), parseVariant('subtraction{moves=1,5,8,10;n=7}'), { first: shared, second: waiter });
            await other;
            return moves[0];
          },
        }),
      },
      spec('waiter'),
      { isolation: 'none', memoryMb: 64 },
    );
    hosts.push(shared, waiter);
    await Promise.all([shared.start(), waiter.start()]);
    const variant = 'subtraction{moves=1,5,8,10;n=30}';
    const rec = await playMatch(job(0, variant, 60_000), parseVariant(variant), { first: shared, second: waiter });
    expect(await other).toMatchObject({ termination: 'timeout', faulty: 'first', reason: 'no move within 300 ms' });
    expect(rec.termination).toBe('normal');
    expect(rec.restarts).toEqual([{ seat: 'first', ply: 2, reason: 'no move within 300 ms' }]);
    // Its third move is its first again by its own count (1, where 5 would have followed).
    expect(rec.moves.slice(0, 3)).toEqual(['1', '1', '1']);
  });
});
