import { describe, expect, it } from 'vitest';
import { createRng, type AnyGame } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { NO_SHORT_REASON, explainPosition } from '../../src/games/explain.ts';

/** Every position met in a few random games of the variant (start positions included). */
function positions(game: AnyGame, games: number, seed: number): unknown[] {
  const rng = createRng(seed);
  const out: unknown[] = [];
  for (let g = 0; g < games; g++) {
    let s = game.deal(rng);
    while (game.outcome(s) === null) {
      out.push(s);
      s = game.play(s, rng.pick(game.moves(s)));
    }
  }
  return out;
}

/** The explanation's verdict is the solver's, and its move keeps the solver's value. */
function agreesWithSolver(game: AnyGame, state: unknown): void {
  const solver = game.solver!()!;
  const e = explainPosition(game, state)!;
  expect(e.outcome, `${game.describe(state)}: ${e.lines.join(' / ')}`).toBe(solver.classify(state));
  const value = solver.value(state);
  if (e.outcome === 'P' && !solver.scored) expect(e.move).toBeNull();
  else {
    expect(e.move).not.toBeNull();
    const move = game.parseMove(e.move!, state);
    expect(0 - solver.value(game.play(state, move)), `${game.describe(state)}: ${e.move}`).toBe(value);
  }
  expect(e.lines.length).toBeGreaterThan(0);
}

const VARIANTS = [
  'subtraction{moves=1,5,8,10;n=0..200}',
  'subtraction{moves=15,16,17,18,19,20,21,22,23,24,25,26;n=0..300}',
  'subtraction{moves=1,20,30;n=0..400}',
  'piles{rule=nim;piles=3;size=0..20}',
  'piles{rule=squares;piles=2;size=0..60}',
  'piles{rule=squares;piles=1;size=0..200}',
  'piles{rule=1,3,4;piles=3;size=0..30}',
  'end-game{length=10;values=-10..10}',
  'end-game{length=7;values=-5..9}',
  'coins{board=triangle;rows=4}',
  'coins{board=square;side=3;start=0.7}',
  'coins{board=triangle;rows=4;scoring=points}',
  'no-repeat{moves=1,2,3,4,5;n=0..60}',
  'partizan{left=2,5,9;right=3,4,8;n=0..60}',
];

describe('explanations agree with the solver', () => {
  for (const id of VARIANTS) {
    it(id, () => {
      const game = parseVariant(id);
      for (const s of positions(game, 12, 7)) agreesWithSolver(game, s);
    });
  }
});

describe('explanations in the family’s own terms', () => {
  it('Nim: the piles in binary, the nim-sum and the move that zeroes it', () => {
    const game = parseVariant('piles{rule=nim;piles=3,4,5}');
    const e = explainPosition(game, game.deal(createRng(1)))!;
    expect(e.lines[0]).toBe('pile 1: 3 = 011');
    expect(e.lines[1]).toBe('pile 2: 4 = 100');
    expect(e.lines[2]).toBe('pile 3: 5 = 101');
    expect(e.lines[3]).toMatch(/^nim-sum +\= 010/);
    expect(e.move).toBe('1:2');
    expect(e.lines[4]).toContain('take 2 from pile 1 (3 → 1) and the nim-sum becomes 0');
  });

  it('subtraction: the period and n mod p', () => {
    const game = parseVariant('subtraction{moves=1,5,8,10;n=50}');
    const e = explainPosition(game, game.deal(createRng(1)))!;
    expect(e.lines[0]).toBe('outcomes repeat with period 13: the P-positions are the piles with pile mod 13 in {0 2 4 6}');
    expect(e.lines[1]).toBe('n = 50 mod 13 = 11: an N-position');
    expect(e.lines[2]).toBe('take 5: leaves 45 mod 13 = 6, a P-position for the opponent');
    expect(e.move).toBe('5');
    const p = explainPosition(game, { pile: 17, turn: 'first' })!;
    expect(p.outcome).toBe('P');
    expect(p.lines[1]).toBe('n = 17 mod 13 = 4: a P-position, every take leaves an N-position');
  });

  it('consecutive takes: n mod (a+b) < a, up to 2^63 − 1', () => {
    const game = parseVariant('subtraction{moves=15,16,17,18,19,20,21,22,23,24,25,26;n=1764}');
    const e = explainPosition(game, game.deal(createRng(1)))!;
    expect(e.outcome).toBe('P');
    expect(e.lines[1]).toContain('1764 mod 41 = 1');
    const big = explainPosition(game, { pile: 9223372036854775807n, turn: 'first' })!;
    // 2^63 − 1 = 41 · 224960293581823800 + 7: a P-position.
    expect(big.lines[1]).toContain('mod 41 = 7');
    expect(big.outcome).toBe('P');
  });

  it('pre-period: the offset from where the period starts', () => {
    const game = parseVariant('subtraction{moves=1,20,30;n=0..400}');
    const e = explainPosition(game, { pile: 400, turn: 'first' })!;
    expect(e.lines[0]).toMatch(/^(from pile \d+ on, outcomes repeat|outcomes repeat) with period \d+/);
  });

  it('squares: the cold positions around each pile', () => {
    const game = parseVariant('piles{rule=squares;piles=[20]}');
    const e = explainPosition(game, game.deal(createRng(1)))!;
    expect(e.lines[0]).toBe('pile 1: 20, nim-value 0; cold positions around it: 15 17 [20] 22 34');
    expect(e.outcome).toBe('P');
    const hot = explainPosition(parseVariant('piles{rule=squares;piles=[21]}'), { piles: [21], turn: 'first' })!;
    expect(hot.lines[0]).toContain('17 20 (21) 22 34');
    expect(hot.move).toBe('1:16'); // the largest zeroing take: 21 → 5, also cold
  });

  it('End Game: the parity sums and the DP value', () => {
    const game = parseVariant('end-game{row=-1,3,9,4}');
    const e = explainPosition(game, game.deal(createRng(1)))!;
    expect(e.lines[0]).toBe('4 numbers left (even): the 1st, 3rd, … sum to 8, the 2nd, 4th, … to 7');
    expect(e.lines[1]).toContain('at least 1 more');
    expect(e.lines[2]).toContain('final margin +1');
    expect(e.move).toBe('L');
    expect(e.outcome).toBe('N');
  });

  it('coins: the answer to each reply, the single-coin parity, or the solver', () => {
    const game = parseVariant('coins{board=square;side=4}');
    const row = { coins: 0b1111, turn: 'first' as const, scores: [0, 0] as const };
    const e = explainPosition(game, row)!;
    expect(e.move).toBe('1-3');
    expect(e.lines[1]).toBe('4 (takes the last coin)');
    // Coins 1, 3, 9, 11 (no two adjacent in any line): parity decides.
    const apart = { coins: 2 ** 0 + 2 ** 2 + 2 ** 8 + 2 ** 10, turn: 'first' as const, scores: [0, 0] as const };
    const p = explainPosition(game, apart)!;
    expect(p.lines[0]).toContain('every move takes one coin');
    expect(p.outcome).toBe('N');
    const full = parseVariant('coins{board=triangle;rows=5}');
    expect(explainPosition(full, full.deal(createRng(1)))!.lines.join(' ')).toContain(NO_SHORT_REASON);
  });

  it('a finished game has no explanation', () => {
    const game = parseVariant('subtraction{moves=1,5,8,10;n=0}');
    expect(explainPosition(game, game.deal(createRng(1)))).toBeUndefined();
  });
});
