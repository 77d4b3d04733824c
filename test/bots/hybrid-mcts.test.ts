/** hybrid: exact at or below its threshold, greedy or random above; mcts beats random on the coin board. */
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed, otherSeat, type AnyGame, type Seat } from '../../src/core/index.ts';
import { FAMILIES, makeGame } from '../../src/games/index.ts';
import { SAMPLES } from '../games/samples.ts';
import { ask, builtin, playGame, type Player } from './play.ts';

const variants = FAMILIES.flatMap((f) => (SAMPLES[f.id] ?? [{}]).map((p, i) => ({ label: `${f.id} #${i}`, game: makeGame(f.id, p) })));

/** Positions along seeded random games, with the size left at each. */
function line(game: AnyGame, seed: number): unknown[] {
  const rng = createRng(seed);
  const out: unknown[] = [];
  let s = game.deal(rng);
  while (!game.outcome(s)) {
    out.push(s);
    s = game.play(s, rng.pick(game.moves(s)));
  }
  return out;
}

describe.each(variants.filter(({ game }) => game.solver?.() && game.size))('hybrid on $label', ({ game }) => {
  const threshold = 8;
  it('plays the solver move at or below the threshold and the greedy gain above it', async () => {
    const hybrid = await builtin('hybrid', { threshold });
    const solver = game.solver!()!;
    let exact = 0;
    let early = 0;
    for (const s of line(game, deriveSeed(2, game.id)).slice(0, 40)) {
      const m = await ask(hybrid, game, s, 1);
      if (game.size!(s) <= threshold) {
        exact++;
        expect(game.formatMove(m), game.describe(s)).toBe(game.formatMove(solver.bestMove(s)));
      } else {
        early++;
        const best = Math.max(...game.moves(s).map((x) => game.heuristic!(s, x)));
        expect(game.heuristic!(s, m)).toBe(best);
      }
    }
    expect(exact + early).toBeGreaterThan(0);
  });
});

describe('hybrid', () => {
  it('early=random plays the random bot’s move above the threshold', async () => {
    const game = makeGame('subtraction', { moves: [1, 2, 3, 4, 5], n: 100 });
    const s = game.deal(createRng(0));
    const hybrid = await builtin('hybrid', { threshold: 10, early: 'random' });
    const random = await builtin('random');
    for (let seed = 0; seed < 10; seed++) expect(await ask(hybrid, game, s, seed)).toBe(await ask(random, game, s, seed));
  });

  it('plays exactly by search when the game has no solver', async () => {
    const base = makeGame('subtraction', { moves: [1, 3, 4], n: 12 });
    const solver = base.solver!()!;
    const { solver: _dropped, ...rest } = base;
    const game: AnyGame = rest;
    const hybrid = await builtin('hybrid', { threshold: 12 });
    for (let n = 1; n <= 12; n++) {
      const s = { pile: n, turn: 'first' };
      const m = await ask(hybrid, game, s, 0);
      expect(0 - solver.value(game.play(s, m)), `pile ${n}`).toBe(solver.value(s));
    }
  });

  it('rejects a negative threshold and an unknown early mode', async () => {
    await expect(builtin('hybrid', { threshold: '-1' })).rejects.toThrow(/Expected `threshold`/);
    await expect(builtin('hybrid', { early: 'smart' })).rejects.toThrow(/Expected `early` to be greedy or random/);
  });
});

describe('mcts on the coin board', () => {
  it('beats random clearly on the 5-row triangle', async () => {
    const game = makeGame('coins', { rows: 5 });
    const mcts = await builtin('mcts', { iterations: 300 });
    const random: Player = await builtin('random');
    let wins = 0;
    let games = 0;
    for (let d = 0; d < 6; d++) {
      for (const seat of ['first', 'second'] as Seat[]) {
        const seats = { [seat]: mcts, [otherSeat(seat)]: random } as Record<Seat, Player>;
        const played = await playGame(game, game.deal(createRng(d)), seats, deriveSeed(4, d, seat));
        games++;
        if (played.outcome.winner === seat) wins++;
      }
    }
    expect(wins / games, `${wins} of ${games}`).toBeGreaterThanOrEqual(0.8);
  });
});
