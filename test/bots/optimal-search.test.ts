/**
 * The optimal bot and accuracy judging on a board its solver can only search (the full 6×6 coin
 * square without its table file): moves within the deadline, no accuracy column.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { StandingsBuilder } from '../../src/arena/fold/standings.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { ask, builtin, cpuMsOf } from './play.ts';

const VARIANT = 'coins{board=square;side=6;start=full;scoring=last-coin}';
let saved: string | undefined;

beforeAll(() => {
  // No table file: the solver must search.
  saved = process.env.TAKE_ARENA_CACHE;
  process.env.TAKE_ARENA_CACHE = mkdtempSync(join(tmpdir(), 'take-arena-empty-cache-'));
});
afterAll(() => {
  if (saved === undefined) delete process.env.TAKE_ARENA_CACHE;
  else process.env.TAKE_ARENA_CACHE = saved;
});

describe('a solver that searches (36-coin square, no table file)', () => {
  it('is offered with bestMoveBy, and optimal answers a legal move before a short deadline', async () => {
    const game = parseVariant(VARIANT);
    expect(game.solver?.()?.bestMoveBy).toBeTypeOf('function');
    const optimal = await builtin('optimal');
    const state = game.deal(createRng(1));
    let move: unknown;
    // CPU time, which a busy machine can only shrink: the search stops at its 300 ms deadline.
    expect(await cpuMsOf(async () => (move = await ask(optimal, game, state, 1, 300)))).toBeLessThan(1000);
    expect(game.moves(state).map((m) => game.formatMove(m))).toContain(game.formatMove(move));
  });

  it('gets no accuracy column, so standings never depend on the machine speed', () => {
    const game = parseVariant(VARIANT);
    const start = game.deal(createRng(1));
    const move = game.formatMove(game.moves(start)[0]);
    const rec: GameRecord = {
      index: 0, key: 'k', variant: VARIANT, deal: 0, dealSeed: 1, seating: 0,
      seats: { first: 'a', second: 'b' }, botSeeds: { first: 1, second: 2 }, start: game.toJSON(start),
      moves: [move], us: [1000], outcome: { winner: 'first' }, winner: 'a', termination: 'normal', faulty: null, reason: null,
    };
    const b = new StandingsBuilder(['a', 'b'], [VARIANT]);
    b.add(rec);
    const a = b.snapshot().pooled.bots.find((x) => x.bot === 'a');
    expect(a?.accuracy).toBeNull();
  });
});
