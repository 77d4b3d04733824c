import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotSession, MoveReply } from '../../src/hosting/host.ts';
import { WorkerHost } from '../../src/hosting/worker-host.ts';
import { comparableLog, runSpec } from '../arena/helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const VARIANT = 'subtraction{n=12..30}';
const MOVES = [1, 5, 8, 10];
const pile = (n: number): unknown => ({ pile: n, turn: 'first' });

/** A host of the hanging fixture playing up to `concurrency` games at once. */
const host = (concurrency: number, file = join(FIXTURES, 'multiplex', 'fx-hangs-at-7.ts'), name = 'fx-hangs-at-7'): WorkerHost =>
  new WorkerHost(name, { file, name, options: {}, memoryMb: 64, graceMs: 20, concurrency });

/** Asks every session for a move at once (one batch when they share a process); `piles[i]` is game i's pile. */
function askAll(sessions: readonly BotSession[], piles: readonly number[], limitMs = 300): Promise<MoveReply[]> {
  return Promise.all(sessions.map((s, i) => Promise.resolve(s.move(pile(piles[i]!), MOVES, limitMs))));
}

const movesOf = (replies: readonly MoveReply[]): unknown[] => replies.map((r) => (r.ok ? r.move : r.kind));

describe("a bot's process playing many games at once", () => {
  const hosts: WorkerHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  it("cuts off a hanging request without costing its process's other games anything: they go on elsewhere, their generators where they were", async () => {
    // Four games on one process; in the second round game 0 hangs first in the batch, so the three
    // others are still waiting when its process is cut off.
    const shared = host(4);
    hosts.push(shared);
    await shared.start();
    const sessions = await Promise.all([0, 1, 2, 3].map((i) => shared.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 100 + i })));
    const rounds = [
      await askAll(sessions, [30, 29, 28, 27]),
      await askAll(sessions, [7, 26, 25, 24]),
      await askAll(sessions.slice(1), [23, 22, 21]),
      await askAll(sessions.slice(1), [20, 19, 18]),
    ];
    expect(rounds[1]![0]).toMatchObject({ ok: false, kind: 'timeout', reason: 'no move within 300 ms' });
    for (const round of rounds) for (const r of round.slice(round.length === 4 ? 1 : 0)) expect(r.ok).toBe(true);

    // The same three games, each alone on a process of its own (one game at a time): the same moves.
    const alone = host(1);
    hosts.push(alone);
    await alone.start();
    const reference: unknown[][] = [[], [], [], []];
    for (const i of [1, 2, 3]) {
      const s = await alone.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 100 + i });
      for (const [r, piles] of [[30, 29, 28, 27], [7, 26, 25, 24], [0, 23, 22, 21], [0, 20, 19, 18]].entries()) {
        const reply = await s.move(pile(piles[i]!), MOVES, 300);
        reference[r]!.push(reply.ok ? reply.move : reply.kind);
      }
      s.close();
    }
    expect(rounds.map((round) => movesOf(round.length === 4 ? round.slice(1) : round))).toEqual(reference);
  });

  for (const [fixture, fault] of [
    ['fx-hangs-at-7', { kind: 'timeout', reason: 'no move within 300 ms' }],
    ['fx-exits-at-7', { kind: 'crash', reason: 'exited with code 3' }],
    ['fx-killed-at-7', { kind: 'crash', reason: 'killed by SIGKILL' }],
  ] as const) {
    it(`charges a fault to the game whose move made it, not to one answered before it in the same batch (${fixture})`, async () => {
      // Four games on one process, asked together (their answers may wait in the process to leave
      // together); in the second round game 2 faults after games 0 and 1 have their moves.
      const shared = host(4, join(FIXTURES, 'multiplex', `${fixture}.ts`), fixture);
      hosts.push(shared);
      await shared.start();
      const sessions = await Promise.all([0, 1, 2, 3].map((i) => shared.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 200 + i })));
      const piles = [
        [30, 29, 28, 27],
        [26, 25, 7, 24],
        [23, 22, 0, 21],
      ];
      const rounds = [await askAll(sessions, piles[0]!), await askAll(sessions, piles[1]!), await askAll([sessions[0]!, sessions[1]!, sessions[3]!], [23, 22, 21])];
      expect(rounds[1]![2]).toMatchObject({ ok: false, ...fault });
      const others = rounds.map((round, r) => movesOf(r === 2 ? round : round.filter((_, i) => r === 0 || i !== 2)));
      for (const round of rounds) for (const reply of round) if (reply !== rounds[1]![2]) expect(reply.ok).toBe(true);

      // Each of the other games alone on a process of its own: the same moves.
      const alone = host(1, join(FIXTURES, 'multiplex', `${fixture}.ts`), fixture);
      hosts.push(alone);
      await alone.start();
      const reference: unknown[][] = [[], [], []];
      for (const i of [0, 1, 2, 3]) {
        const s = await alone.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 200 + i });
        for (let r = 0; r < 3; r++) {
          if (i === 2 && r > 0) continue;
          const reply = await s.move(pile(piles[r]![i]!), MOVES, 300);
          reference[r]!.push(reply.ok ? reply.move : reply.kind);
        }
        s.close();
      }
      expect(others).toEqual(reference);
    });
  }

  it('matches each reply to its game whichever way it comes back (the ring for plain integer moves, a message otherwise)', async () => {
    const file = join(FIXTURES, 'multiplex', 'fx-clock-odd.ts');
    const shared = host(8, file, 'fx-clock-odd');
    const alone = host(1, file, 'fx-clock-odd');
    hosts.push(shared, alone);
    await Promise.all([shared.start(), alone.start()]);
    const piles = (round: number): number[] => Array.from({ length: 8 }, (_, i) => 12 + ((i * 7 + round * 3) % 19));
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => shared.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 7 * i })));
    const got: unknown[] = [];
    for (let round = 0; round < 10; round++) {
      const replies = await askAll(sessions, piles(round));
      replies.forEach((r, i) => {
        expect(r.ok && r.clock === true, `round ${round}, game ${i}`).toBe(piles(round)[i]! % 2 === 1);
      });
      got.push(movesOf(replies));
    }
    const want: unknown[][] = Array.from({ length: 10 }, () => []);
    for (let i = 0; i < 8; i++) {
      const s = await alone.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: 7 * i });
      for (let round = 0; round < 10; round++) {
        const r = await s.move(pile(piles(round)[i]!), MOVES, 300);
        want[round]!.push(r.ok ? r.move : r.kind);
      }
      s.close();
    }
    expect(got).toEqual(want);
  });

  it("gives each game's bot a copy of its own of the state and moves, even where the arena's games share one array", async () => {
    // fx-mutates empties the list it is given and plays the move it saw first: a batch whose games
    // shared one list would leave every game after the first an empty list, and no move.
    const shared = host(8, join(FIXTURES, 'bots', 'fx-mutates.ts'), 'fx-mutates');
    hosts.push(shared);
    await shared.start();
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => shared.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: i })));
    const state = pile(20);
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(sessions.map((s) => Promise.resolve(s.move(state, MOVES, 1000))));
      expect(movesOf(replies)).toEqual(sessions.map(() => MOVES[0]));
    }
    expect(shared.threads).toBe(1);
  });

  it('gives a slow bot another process (for the games that open next) when a game waits behind another, and keeps a fast one on a single process', async () => {
    const slow = host(2, join(FIXTURES, 'multiplex', 'fx-ponders.ts'), 'fx-ponders');
    const fast = host(16, join(FIXTURES, 'bots', 'fx-random.ts'), 'fx-random');
    hosts.push(slow, fast);
    await Promise.all([slow.start(), fast.start()]);
    // Two games out of step: the second asks while the first's 30 ms move is under way. The second
    // process is started then, in the background: the rounds go on until it is up (a process takes
    // longer to start than a thread did, the more so on a loaded machine).
    const [a, b] = await Promise.all([0, 1].map((i) => slow.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: i })));
    for (let round = 0; round < 12 || (slow.threads < 2 && round < 400); round++) {
      const first = Promise.resolve(a!.move(pile(30), MOVES, 1000));
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const r of await Promise.all([first, Promise.resolve(b!.move(pile(30), MOVES, 1000))])) expect(r.ok).toBe(true);
    }
    expect(slow.threads).toBe(2);

    // A fast bot's sixteen games, asked together each round, go out in batches to one process.
    const sessions = await Promise.all(Array.from({ length: 16 }, (_, i) => fast.open({ key: `g${i}`, variant: VARIANT, seat: 'first', rngSeed: i })));
    for (let round = 0; round < 20; round++) for (const r of await askAll(sessions, sessions.map(() => 30))) expect(r.ok).toBe(true);
    expect(fast.threads).toBe(1);
  });

  it('plays a tournament under worker isolation move for move alike with 1 and 32 games in flight, minimax (a table per game) included', async () => {
    const spec = {
      name: 'multiplex',
      seed: 11,
      games: ['subtraction{moves=1,5,8,10;n=50..200}', 'piles{rule=squares;piles=3;size=1..12}'],
      bots: ['minimax', 'greedy', 'random'],
      deals: 6,
      timePerMoveMs: 5000,
      isolation: 'worker' as const,
    };
    const [one, many] = await Promise.all([runSpec({ ...spec, concurrency: 1 }), runSpec({ ...spec, concurrency: 32 })]);
    const log = comparableLog(many.dir);
    expect(log).toHaveLength(3 * 2 * 6 * 2);
    expect(JSON.stringify(log)).not.toContain('clockStops');
    expect(log).toEqual(comparableLog(one.dir));
  });
});
