/**
 * optimal never does worse than the solver's value: from every position where it is to move, the
 * final result (win/loss, or the score margin in scored games) is at least that position's value,
 * against every built-in bot, in both seatings, over many dealt starts of every registered family.
 */
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed, otherSeat, type AnyGame, type Seat } from '../../src/core/index.ts';
import { FAMILIES, makeGame } from '../../src/games/index.ts';
import { SAMPLES } from '../games/samples.ts';
import { builtin, playGame, resultFor, type Player } from './play.ts';

const BUDGET_MS = 150;
const optimal = await builtin('optimal');
// Search bots with small budgets so the suite stays fast; their strength is not what is tested.
const opponents: Record<string, { player: Player; deals: number }> = {
  random: { player: await builtin('random'), deals: 6 },
  greedy: { player: await builtin('greedy'), deals: 6 },
  hybrid: { player: await builtin('hybrid', { threshold: 6 }), deals: 4 },
  optimal: { player: optimal, deals: 3 },
  minimax: { player: await builtin('minimax', { depth: 3 }), deals: 2 },
  mcts: { player: await builtin('mcts', { iterations: 30 }), deals: 2 },
};

const variants: { label: string; game: AnyGame }[] = [];
for (const family of FAMILIES) {
  (SAMPLES[family.id] ?? [{}]).forEach((params, i) => {
    const game = makeGame(family.id, params);
    if (game.solver?.()) variants.push({ label: `${family.id} #${i}`, game });
  });
}

describe.each(variants)('optimal on $label', ({ game }) => {
  const solver = game.solver!()!;
  it.each(Object.keys(opponents))('never does worse than the solver value against %s', async (name) => {
    const { player, deals } = opponents[name]!;
    let checked = 0;
    const t0 = performance.now();
    // At least one deal; further deals while the test is inside its time budget (the 36-cell coin
    // boards cost the solver far more per position than the one-pile games).
    for (let d = 0; d < deals && (d === 0 || performance.now() - t0 < BUDGET_MS); d++) {
      const start = game.deal(createRng(deriveSeed(7, game.id, d)));
      if (game.outcome(start)) continue;
      for (const seat of ['first', 'second'] as Seat[]) {
        const seats = { [seat]: optimal, [otherSeat(seat)]: player } as Record<Seat, Player>;
        const played = await playGame(game, start, seats, deriveSeed(9, game.id, d, seat));
        const final = resultFor(played.outcome, seat);
        for (const turn of played.turns) {
          if (turn.seat !== seat) continue;
          const value = solver.value(turn.state);
          checked++;
          expect(final, `${name} vs optimal from ${game.describe(turn.state)}`).toBeGreaterThanOrEqual(value);
        }
      }
    }
    // Optimal must have had turns to check, or the test proves nothing.
    expect(checked).toBeGreaterThan(0);
  });
});

describe('optimal on End Game (GAMES.md 6)', () => {
  it('row -1 3 9 4: opens with L and the first player wins 8 to 7', async () => {
    const game = makeGame('end-game', { row: [-1, 3, 9, 4] });
    const start = game.deal(createRng(0));
    const played = await playGame(game, start, { first: optimal, second: optimal }, 1);
    expect(game.formatMove(game.moves(start).find((m) => game.key(game.play(start, m)) === game.key(played.turns[1]!.state)))).toBe('L');
    expect(played.outcome.scores).toEqual([8, 7]);
  });
});
