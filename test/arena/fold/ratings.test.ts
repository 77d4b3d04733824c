import { describe, expect, it } from 'vitest';
import { fitRatings, normalCdf } from '../../../src/arena/fold/ratings.ts';

describe('ratings', () => {
  it('normalCdf is the standard normal distribution', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655254, 6);
  });

  it('recovers a known Elo difference from expected scores', () => {
    // 400 Elo apart: the stronger scores 10/11 of the points in each seat; no seat advantage.
    const n = 1100;
    const p = 10 / 11;
    const fit = fitRatings(['strong', 'weak'], [
      { first: 0, second: 1, games: n, points: n * p },
      { first: 1, second: 0, games: n, points: n * (1 - p) },
    ]);
    const [a, b] = fit.ratings;
    expect(a!.bot).toBe('strong');
    expect(a!.elo - b!.elo).toBeGreaterThan(380); // the weak prior pulls it in a little
    expect(a!.elo - b!.elo).toBeLessThan(400);
    expect(a!.elo + b!.elo).toBeCloseTo(0, 6);
    expect(Math.abs(fit.firstSeatElo)).toBeLessThan(1);
    expect(a!.losNext).toBeGreaterThan(0.999);
    expect(b!.losNext).toBeNull();
  });

  it('separates the first-seat advantage from strength', () => {
    // Equal bots, the first seat wins 3 of 4.
    const fit = fitRatings(['x', 'y'], [
      { first: 0, second: 1, games: 400, points: 300 },
      { first: 1, second: 0, games: 400, points: 300 },
    ]);
    expect(fit.ratings[0]!.elo).toBeCloseTo(0, 3);
    expect(fit.firstSeatElo).toBeGreaterThan(170);
    expect(fit.firstSeatElo).toBeLessThan(195); // 400·log10(3) ≈ 191
    expect(fit.firstSeatCi95).toBeGreaterThan(0);
    expect(fit.ratings[0]!.losNext).toBeCloseTo(0.5, 3);
  });

  it('stays finite for perfect records and widens intervals with fewer games', () => {
    const few = fitRatings(['a', 'b', 'c'], [
      { first: 0, second: 1, games: 2, points: 2 },
      { first: 1, second: 2, games: 2, points: 2 },
    ]);
    const many = fitRatings(['a', 'b', 'c'], [
      { first: 0, second: 1, games: 200, points: 150 },
      { first: 1, second: 2, games: 200, points: 150 },
    ]);
    expect(few.ratings.map((r) => r.bot)).toEqual(['a', 'b', 'c']);
    for (const r of few.ratings) expect(Number.isFinite(r.elo)).toBe(true);
    expect(many.ratings[0]!.ci95).toBeLessThan(few.ratings[0]!.ci95);
  });
});
