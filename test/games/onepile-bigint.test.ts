import { describe, expect, it } from 'vitest';
import { createRng, createVariant, ParamError, type Game, type Solver } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { noRepeat, type NoRepeatState } from '../../src/games/no-repeat.ts';
import { partizan, type PartizanState } from '../../src/games/partizan.ts';
import { dealPile, MAX_PILE, pileKey, pileRangeSchema, type Pile } from '../../src/games/pile.ts';
import { subtraction, type PileState } from '../../src/games/subtraction.ts';
import { bruteWins } from './onepile-brute.ts';
import { findPeriod } from '../../src/games/analysis.ts';

const E18 = 10n ** 18n;
const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];

const parsePile = (v: unknown): unknown => {
  const r = pileRangeSchema().safeParse(v);
  return r.success ? r.data : 'invalid';
};

describe('the bigint pile parameter', () => {
  it('keeps numbers up to 2^53 − 1 and exact bigints above, up to 2^63 − 1', () => {
    expect(parsePile('5')).toEqual({ min: 5, max: 5 });
    expect(parsePile(7)).toEqual({ min: 7, max: 7 });
    expect(parsePile('50..200')).toEqual({ min: 50, max: 200 });
    expect(parsePile([3, '1000000000000000001'])).toEqual({ min: 3, max: E18 + 1n });
    expect(parsePile('1000000000000000001')).toEqual({ min: E18 + 1n, max: E18 + 1n });
    expect(parsePile({ min: '9007199254740991', max: '9223372036854775807' })).toEqual({
      min: Number.MAX_SAFE_INTEGER,
      max: MAX_PILE,
    });
    expect(parsePile(E18)).toEqual({ min: E18, max: E18 });
  });

  it('refuses negatives, reversed ranges, 2^63 and numbers that may have lost digits', () => {
    for (const bad of ['-1', '9..3', '9223372036854775808', 2 ** 60, 1.5, 'x', '1e18', null]) {
      expect(parsePile(bad), String(bad)).toBe('invalid');
    }
    expect(() => createVariant(subtraction, { n: '9223372036854775808' })).toThrow(ParamError);
    expect(() => createVariant(subtraction, { n: '9223372036854775808' })).toThrow(/`n`.*2\^63 − 1.*got "9223372036854775808"/);
  });

  it('round-trips variant ids with big piles and keeps JSON valid (decimal strings)', () => {
    for (const family of ['subtraction', 'no-repeat', 'partizan']) {
      const game = parseVariant(`${family}{n=9000000000000000000..9223372036854775807}`);
      expect(game.id).toContain('n=9000000000000000000..9223372036854775807');
      expect(parseVariant(game.id).id).toBe(game.id);
      const s = game.deal(createRng(3));
      const json = JSON.stringify(game.toJSON(s));
      expect(JSON.parse(json).pile).toMatch(/^9\d{18}$/);
    }
    const small = createVariant(subtraction, { n: 100 });
    expect(small.toJSON(small.deal(createRng(1)))).toEqual({ pile: 100 });
  });

  it('deals number ranges as before and bigint ranges uniformly within bounds, deterministically', () => {
    const rng = createRng(42);
    const before = createRng(42);
    for (let i = 0; i < 50; i++) expect(dealPile({ min: 50, max: 200 }, rng)).toBe(before.int(50, 200));
    const range = { min: 2n ** 62n, max: MAX_PILE };
    const a = Array.from({ length: 200 }, ((r) => () => dealPile(range, r))(createRng(7)));
    const b = Array.from({ length: 200 }, ((r) => () => dealPile(range, r))(createRng(7)));
    expect(a).toEqual(b);
    for (const p of a) expect(p >= 2n ** 62n && p <= MAX_PILE).toBe(true);
    // Both halves of the range are hit (a draw that ignored the high bits would not).
    expect(a.some((p) => p < 3n * 2n ** 61n) && a.some((p) => p > 3n * 2n ** 61n)).toBe(true);
    const narrow = Array.from({ length: 100 }, ((r) => () => dealPile({ min: E18, max: E18 + 3n }, r))(createRng(1)));
    expect(new Set(narrow)).toEqual(new Set([E18, E18 + 1n, E18 + 2n, E18 + 3n]));
  });

  it('plays exactly across 2^53 and keys equal states equally', () => {
    const game = createVariant(subtraction, { moves: [1, 5, 8, 10], n: String(2n ** 53n + 4n) });
    let s: PileState = game.deal(createRng(0));
    expect(s.pile).toBe(2n ** 53n + 4n);
    s = game.play(s, 5);
    expect(s.pile).toBe(Number.MAX_SAFE_INTEGER);
    expect(game.key(s)).toBe(pileKey(2n ** 53n - 1n, 2, 1));
    expect(game.key(s)).not.toBe(game.key({ pile: s.pile, turn: 'first' }));
    expect(pileKey(3n, 2, 1)).toBe(7);
    expect(game.moves({ pile: MAX_PILE, turn: 'first' })).toEqual([1, 5, 8, 10]);
  });
});

/** The congruent pile of `n` that a small table answers, a few periods past the pre-period. */
function congruent(n: bigint, preperiod: number, period: number): number {
  // Whole periods only, enough to clear the largest take (so every option is in the periodic part too).
  return preperiod + Number((n - BigInt(preperiod)) % BigInt(period)) + period * (4 + Math.ceil(64 / period));
}

/** CPU time (ms) of `calls` answers at `state`, after the solver is built (load does not inflate it as it does wall time). */
function timeCalls<S>(solver: Solver<S, number>, state: S, calls: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) solver.bestMove(state);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('solvers at n = 10^18 through the period: instant and exact', () => {
  it('subtraction: the best move at 10^18 is the brute-force best move at the congruent pile', () => {
    for (const moves of [[1, 5, 8, 10], SEED_002, [2, 7, 9]]) {
      const big = createVariant(subtraction, { moves, n: String(E18) });
      const p = findPeriod(big);
      expect(p).toBeTruthy();
      const solver = big.solver?.();
      const at = (pile: Pile): PileState => ({ pile, turn: 'first' });
      const small = congruent(E18, p!.preperiod, p!.period);
      const game = createVariant(subtraction, { moves, n: small });
      const memo = new Map();
      const wins = bruteWins(game, at(small), memo);
      expect(solver?.value(at(E18))).toBe(wins ? 1 : -1);
      const best = solver?.bestMove(at(E18));
      expect(best).toBe(game.solver?.()?.bestMove(at(small)));
      if (wins) expect(bruteWins(game, game.play(at(small), best!), memo)).toBe(false);
      expect(timeCalls(solver!, at(E18), 10_000)).toBeLessThan(1000);
    }
  });

  it('no-repeat: every forbidden amount at 10^18 agrees with brute force at the congruent pile', () => {
    const moves = [1, 2, 3, 4, 5];
    const big = createVariant(noRepeat, { moves, n: String(E18) });
    const solver = big.solver?.();
    const small = congruent(E18, 9, 13);
    const game = createVariant(noRepeat, { moves, n: small });
    const memo = new Map();
    for (const forbidden of [null, ...moves]) {
      const s = (pile: Pile): NoRepeatState => ({ pile, forbidden, turn: 'second' });
      expect(solver?.value(s(E18))).toBe(bruteWins(game, s(small), memo) ? 1 : -1);
      expect(solver?.bestMove(s(E18))).toBe(game.solver?.()?.bestMove(s(small)));
    }
    expect(timeCalls(solver!, { pile: E18, forbidden: 3, turn: 'first' }, 10_000)).toBeLessThan(1000);
  });

  it('partizan: classes and best moves at 2^63 − 1 agree with the table at the congruent pile', () => {
    const big = createVariant(partizan, { left: [2, 5, 9], right: [2, 4, 8], n: String(MAX_PILE) });
    const solver = big.solver?.();
    const p = findPeriod(big);
    expect(p).toEqual({ preperiod: 24, period: 1 });
    const small = congruent(MAX_PILE, p!.preperiod, p!.period);
    const game: Game<PartizanState, number> = createVariant(partizan, { left: [2, 5, 9], right: [2, 4, 8], n: small });
    for (const turn of ['first', 'second'] as const) {
      expect(solver?.classify({ pile: MAX_PILE, turn })).toBe('R');
      expect(solver?.value({ pile: MAX_PILE, turn })).toBe(bruteWins(game, { pile: small, turn }) ? 1 : -1);
      expect(solver?.bestMove({ pile: MAX_PILE, turn })).toBe(game.solver?.()?.bestMove({ pile: small, turn }));
    }
  });

  it('table-only variants still refuse piles beyond their table', () => {
    const solver = createVariant(partizan, { n: 30 }).solver?.();
    expect(() => solver?.value({ pile: E18, turn: 'first' })).toThrow(/beyond the solver's table/);
  });
});
