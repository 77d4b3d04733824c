/** greedy's choice per family and its tie-breaking; random's determinism and coverage. */
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed, type AnyGame } from '../../src/core/index.ts';
import { FAMILIES, makeGame } from '../../src/games/index.ts';
import { SAMPLES } from '../games/samples.ts';
import { ask, builtin } from './play.ts';

const greedy = await builtin('greedy');
const random = await builtin('random');

/** A few positions of a variant reached by seeded random play. */
function positions(game: AnyGame, count: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const rng = createRng(deriveSeed(5, game.id, i));
    let s = game.deal(rng);
    for (let p = rng.int(0, 6); p > 0 && !game.outcome(s); p--) {
      const next = game.play(s, rng.pick(game.moves(s)));
      if (game.outcome(next)) break;
      s = next;
    }
    if (!game.outcome(s)) out.push(s);
  }
  return out;
}

const variants = FAMILIES.flatMap((f) => (SAMPLES[f.id] ?? [{}]).map((p, i) => ({ label: `${f.id} #${i}`, game: makeGame(f.id, p) })));

describe.each(variants)('greedy on $label', ({ game }) => {
  it('plays a move of largest heuristic gain, every tied one for some seed', async () => {
    for (const s of positions(game, 4)) {
      const moves = game.moves(s);
      const gains = moves.map((m) => game.heuristic!(s, m));
      const best = Math.max(...gains);
      const tied = new Set(moves.filter((_, i) => gains[i] === best).map((m) => game.formatMove(m)));
      const seen = new Set<string>();
      for (let seed = 0; seed < 8 * tied.size; seed++) {
        const m = await ask(greedy, game, s, seed);
        expect(game.heuristic!(s, m)).toBe(best);
        seen.add(game.formatMove(m));
      }
      expect(seen).toEqual(tied);
    }
  });
});

describe('greedy per family', () => {
  it('subtraction: the largest legal take', async () => {
    const game = makeGame('subtraction', { moves: [1, 5, 8, 10], n: 9 });
    expect(await ask(greedy, game, game.deal(createRng(0)), 0)).toBe(8);
  });
  it('no-repeat: the largest take that is not forbidden', async () => {
    const game = makeGame('no-repeat', { moves: [1, 2, 3], n: 10 });
    const s = game.play(game.deal(createRng(0)), 3); // the opponent took 3: 3 is forbidden now
    expect(game.formatMove(await ask(greedy, game, s, 0))).toBe('2');
  });
  it('end-game: the larger end (row -1 3 9 4 takes the 4)', async () => {
    const game = makeGame('end-game', { row: [-1, 3, 9, 4] });
    expect(game.formatMove(await ask(greedy, game, game.deal(createRng(0)), 0))).toBe('R');
  });
  it('coins: a full line of 6 on the full 6-row triangle', async () => {
    const game = makeGame('coins', {});
    const s = game.deal(createRng(0));
    const text = game.formatMove(await ask(greedy, game, s, 0));
    expect(['1-16', '16-1', '16-21', '21-16', '1-21', '21-1']).toContain(text);
  });
  it('piles: the largest take (nim 3,4,5 takes all of the 5)', async () => {
    const game = makeGame('piles', { rule: 'nim', piles: [3, 4, 5] });
    expect(game.formatMove(await ask(greedy, game, game.deal(createRng(0)), 0))).toBe('3:5');
  });
});

describe('random', () => {
  it('replays the same moves under the same seed and differs under another', async () => {
    const game = makeGame('subtraction', { moves: [1, 2, 3, 4, 5, 6, 7], n: 200 });
    const line = async (seed: number): Promise<string[]> => {
      const rng = createRng(seed);
      let s = game.deal(createRng(0));
      const out: string[] = [];
      while (!game.outcome(s)) {
        const m = await ask(random, game, s, rng.int(0, 1e9));
        out.push(game.formatMove(m));
        s = game.play(s, m);
      }
      return out;
    };
    expect(await line(11)).toEqual(await line(11));
    expect(await line(11)).not.toEqual(await line(12));
  });

  it('covers every legal move, about uniformly', async () => {
    for (const { game } of variants.filter((_, i) => i % 2 === 0)) {
      const s = positions(game, 1)[0];
      if (s === undefined) continue;
      const moves = game.moves(s);
      const counts = new Map<string, number>();
      const draws = 40 * moves.length;
      for (let seed = 0; seed < draws; seed++) {
        const text = game.formatMove(await ask(random, game, s, seed));
        counts.set(text, (counts.get(text) ?? 0) + 1);
      }
      expect(counts.size, game.id).toBe(moves.length);
      // 40 expected per move: a fair generator stays well inside [15, 70].
      for (const c of counts.values()) {
        expect(c).toBeGreaterThan(15);
        expect(c).toBeLessThan(70);
      }
    }
  });
});
