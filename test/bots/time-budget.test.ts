/**
 * Bots under a time control spend a share of their bank on a move, not the whole bank
 * (`budgetDeadline`), and say so when that share, not their own budget, ended the search.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { makeGame } from '../../src/games/index.ts';
import { memoryStore } from '../../src/platform/bot-store.ts';
import { BANK_MOVES, budgetDeadline } from '../../src/strategies/play.ts';
import { builtin, cpuMsOf } from './play.ts';

describe('budgetDeadline', () => {
  it('is the deadline without a clock, else a share of the bank plus most of the increment, never past the deadline', () => {
    expect(budgetDeadline(10_000, undefined, 0)).toBe(10_000);
    expect(budgetDeadline(10_000, { remainingMs: 4000, incrementMs: 100, opponentRemainingMs: 4000 }, 0)).toBe(4000 / BANK_MOVES + 90);
    expect(budgetDeadline(50, { remainingMs: 4000, incrementMs: 100, opponentRemainingMs: 4000 }, 0)).toBe(50);
  });
});

describe('search bots on a bank', () => {
  it.each([
    ['minimax', { nodes: '100000000' }],
    ['mcts', { iterations: '10000000' }],
  ])('%s thinks a share of a 5 s bank on a position it cannot finish, and reports the clock stop', async (name, raw) => {
    const game = makeGame('coins', { board: 'square', side: 6 });
    const state = game.deal(createRng(1));
    const bot = await builtin(name, raw);
    let stopped = false;
    const t0 = Date.now();
    const cpuMs = await cpuMsOf(async () => bot.bot.choose({
      game,
      state,
      moves: game.moves(state),
      seat: game.toMove(state),
      rng: createRng(1),
      deadline: t0 + 5000,
      clock: { remainingMs: 5000, incrementMs: 0, opponentRemainingMs: 5000 },
      options: bot.options,
      store: memoryStore(),
      clockStopped: () => void (stopped = true),
    }));
    // A twentieth of the bank is 250 ms; the whole bank would be 5 s. In CPU time, which a busy
    // machine can only shrink (the bot stops by the wall clock).
    expect(cpuMs).toBeLessThan(2500);
    expect(stopped).toBe(true);
  });
});
