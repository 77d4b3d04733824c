import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  eloToScore,
  InOrder,
  pairScore,
  parseSprt,
  pentanomialElo,
  pentanomialLlr,
  sprtBounds,
  sprtConfig,
  SprtTest,
  type PairScore,
  type Pentanomial,
  type SprtConfig,
} from '../../../src/arena/fold/sprt.ts';

const A = [0, 0.25, 0.5, 0.75, 1];
const C = 800 / Math.LN10;

/** Solves M x = r by Gaussian elimination with partial pivoting. */
function solve(m: number[][], r: number[]): number[] {
  const n = r.length;
  const a = m.map((row, i) => [...row, r[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i]![c]!) > Math.abs(a[piv]![c]!)) piv = i;
    [a[c], a[piv]] = [a[piv]!, a[c]!];
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = a[i]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[i]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/**
 * An independent constrained maximum of `Σ nᵢ log pᵢ` subject to `Σ pᵢ = 1` and `g(p) = 0`:
 * Newton–Raphson on the whole Lagrange system (p, λ, κ) with a finite-difference Jacobian,
 * started from the empirical distribution. Nothing here is shared with src/arena/sprt.ts.
 */
function constrainedMax(n: readonly number[], g: (p: readonly number[]) => number): number[] {
  const total = n.reduce((x, y) => x + y, 0);
  const grad = (p: readonly number[], i: number): number => {
    const h = 1e-7;
    const q = [...p];
    q[i]! += h;
    const up = g(q);
    q[i]! -= 2 * h;
    return (up - g(q)) / (2 * h);
  };
  const residual = (x: readonly number[]): number[] => {
    const p = x.slice(0, 5);
    const [lambda, kappa] = [x[5]!, x[6]!];
    const r = p.map((pi, i) => n[i]! / pi - lambda - kappa * grad(p, i));
    r.push(p.reduce((s, v) => s + v, 0) - 1, g(p));
    return r;
  };
  let x = [...n.map((v) => v / total), total, 0];
  for (let iter = 0; iter < 100; iter++) {
    const r = residual(x);
    if (Math.max(...r.map(Math.abs)) < 1e-9 * total) break;
    const h = 1e-8;
    const jac = r.map(() => new Array<number>(7).fill(0));
    for (let j = 0; j < 7; j++) {
      const xp = [...x];
      xp[j]! += h * Math.max(1, Math.abs(x[j]!));
      const rp = residual(xp);
      for (let i = 0; i < 7; i++) jac[i]![j] = (rp[i]! - r[i]!) / (xp[j]! - x[j]!);
    }
    const step = solve(jac, r.map((v) => -v));
    let t = 1;
    while (x.slice(0, 5).some((pi, i) => pi + t * step[i]! <= 0)) t /= 2;
    x = x.map((v, i) => v + t * step[i]!);
  }
  const p = x.slice(0, 5);
  expect(Math.abs(g(p))).toBeLessThan(1e-9);
  return p;
}

const mean = (p: readonly number[]): number => p.reduce((s, v, i) => s + v * A[i]!, 0);
const sd = (p: readonly number[]): number => Math.sqrt(p.reduce((s, v, i) => s + v * (A[i]! - mean(p)) ** 2, 0));

function independentLlr(counts: Pentanomial, c: Pick<SprtConfig, 'elo0' | 'elo1' | 'model'>): number {
  const n = counts.map((v) => (v === 0 ? 1e-3 : v));
  const constraint = (elo: number) =>
    c.model === 'logistic'
      ? (p: readonly number[]) => mean(p) / p.reduce((s, v) => s + v, 0) - eloToScore(elo)
      : (p: readonly number[]) => mean(p) - 0.5 - ((Math.SQRT2 * elo) / C) * sd(p);
  const p0 = constrainedMax(n, constraint(c.elo0));
  const p1 = constrainedMax(n, constraint(c.elo1));
  return n.reduce((s, v, i) => s + v * (Math.log(p1[i]!) - Math.log(p0[i]!)), 0);
}

describe('pentanomial LLR', () => {
  const cases: [Pentanomial, number, number][] = [
    [[12, 90, 230, 110, 18], 0, 5],
    [[30, 41, 20, 60, 51], -3, 7],
    [[0, 3, 17, 9, 4], 0, 20],
    [[5, 5, 5, 5, 5], 0, 10],
    [[400, 1200, 3000, 1300, 420], 0, 2],
  ];
  for (const model of ['normalized', 'logistic'] as const) {
    for (const [counts, elo0, elo1] of cases) {
      it(`${model} [${counts.join(', ')}] elo0=${elo0} elo1=${elo1} agrees with a direct Lagrange solve`, () => {
        const cfg = { elo0, elo1, model };
        const ours = pentanomialLlr(counts, cfg);
        const theirs = independentLlr(counts, cfg);
        expect(Math.abs(ours - theirs)).toBeLessThan(1e-6 * Math.max(1, Math.abs(theirs)));
      });
    }
  }

  it('is zero when the hypotheses coincide in what the data can tell, and signs follow the data', () => {
    const better: Pentanomial = [10, 40, 100, 80, 30];
    const worse: Pentanomial = [30, 80, 100, 40, 10];
    const cfg = { elo0: 0, elo1: 10, model: 'normalized' as const };
    expect(pentanomialLlr(better, cfg)).toBeGreaterThan(0);
    expect(pentanomialLlr(worse, cfg)).toBeLessThan(0);
  });

  it('Wald bounds for alpha = beta = 0.05 are ±ln 19', () => {
    const { lower, upper } = sprtBounds({ alpha: 0.05, beta: 0.05 });
    expect(upper).toBeCloseTo(Math.log(19), 12);
    expect(lower).toBeCloseTo(-Math.log(19), 12);
  });

  it('Elo estimate: an even score is 0 Elo; a 75 % mean score is about 191 Elo', () => {
    expect(pentanomialElo([10, 20, 40, 20, 10])!.elo).toBeCloseTo(0, 9);
    const e = pentanomialElo([0, 0, 50, 0, 50])!;
    expect(e.elo).toBeCloseTo(-400 * Math.log10(1 / 0.75 - 1), 9);
    expect(e.ci95).toBeGreaterThan(0);
    expect(pentanomialElo([0, 0, 0, 0, 0])).toBeNull();
  });
});

/** The pentanomial distribution of two independent games with win/draw/loss chances w, d, l. */
function pairDistribution(w: number, d: number): number[] {
  const l = 1 - w - d;
  return [l * l, 2 * l * d, d * d + 2 * w * l, 2 * w * d, w * w];
}

/** The game win chance (draw chance d) whose pairs have normalized Elo `nelo`. */
function winChanceFor(nelo: number, d: number): number {
  let lo = 0;
  let hi = 1 - d;
  for (let i = 0; i < 100; i++) {
    const w = (lo + hi) / 2;
    const p = pairDistribution(w, d);
    const t = (mean(p) - 0.5) / sd(p);
    if (t * (C / Math.SQRT2) < nelo) lo = w;
    else hi = w;
  }
  return (lo + hi) / 2;
}

/** Fraction of seeded SPRT runs that accept H1 when pairs are drawn from `dist`. */
function h1Rate(cfg: SprtConfig, dist: readonly number[], runs: number, seed: number): { rate: number; meanPairs: number } {
  const rng = createRng(seed);
  let h1 = 0;
  let pairs = 0;
  for (let r = 0; r < runs; r++) {
    const test = new SprtTest(cfg);
    while (!test.decided) {
      let u = rng.float();
      let k = 0;
      while (k < 4 && u >= dist[k]!) u -= dist[k++]!;
      test.update(k as PairScore);
    }
    if (test.status.decision === 'H1') h1++;
    pairs += test.status.pairs;
  }
  return { rate: h1 / runs, meanPairs: pairs / runs };
}

describe('SPRT error rates (seeded Monte Carlo)', () => {
  const cfg = sprtConfig({ elo0: 0, elo1: 60, alpha: 0.05, beta: 0.05 });
  const runs = 300;
  // Tolerance ±0.04 is about 3.5 binomial standard deviations at these rates and run counts; Wald's
  // bounds overshoot a little, so the true error rates sit slightly under the nominal ones.
  it('true Elo = elo1: accepts H1 in about 1 − β of runs', () => {
    const { rate } = h1Rate(cfg, pairDistribution(winChanceFor(60, 0.3), 0.3), runs, 11);
    expect(rate).toBeGreaterThanOrEqual(0.95 - 0.04);
  });
  it('true Elo = elo0: accepts H1 in about α of runs', () => {
    const { rate } = h1Rate(cfg, pairDistribution(winChanceFor(0, 0.3), 0.3), runs, 12);
    expect(rate).toBeLessThanOrEqual(0.05 + 0.04);
  });
  it('true Elo halfway: accepts H1 about half the time (α = β makes the midpoint symmetric)', () => {
    const { rate } = h1Rate(cfg, pairDistribution(winChanceFor(30, 0.3), 0.3), runs, 13);
    expect(rate).toBeGreaterThan(0.5 - 0.1);
    expect(rate).toBeLessThan(0.5 + 0.1);
  });
  it('normalized Elo does not depend on the draw rate: same rates with no draws', () => {
    const { rate } = h1Rate(cfg, pairDistribution(winChanceFor(60, 0), 0), runs, 14);
    expect(rate).toBeGreaterThanOrEqual(0.95 - 0.04);
  });
});

describe('SprtTest and InOrder', () => {
  it('stops folding once decided; a resumed test from saved counts continues identically', () => {
    const cfg = parseSprt('elo0=0,elo1=20');
    const seq: PairScore[] = Array.from({ length: 400 }, (_, i) => ([4, 3, 2, 4, 1, 3, 2, 4] as const)[i % 8]!);
    const whole = new SprtTest(cfg);
    for (const s of seq) whole.update(s);
    expect(whole.status.decision).toBe('H1');
    const stopped = whole.status.pairs;
    expect(stopped).toBeLessThan(seq.length);
    const first = new SprtTest(cfg);
    for (const s of seq.slice(0, 10)) first.update(s);
    const resumed = new SprtTest(cfg, first.status.counts);
    for (const s of seq.slice(10)) resumed.update(s);
    expect(resumed.status).toEqual(whole.status);
  });

  it('InOrder releases values only when every earlier index has come', () => {
    const o = new InOrder<string>();
    expect(o.offer(2, 'c')).toEqual([]);
    expect(o.offer(1, 'b')).toEqual([]);
    expect(o.offer(0, 'a')).toEqual(['a', 'b', 'c']);
    expect(o.offer(3, 'd')).toEqual(['d']);
    expect(o.next).toBe(4);
    expect(() => o.offer(1, 'x')).toThrow(RangeError);
  });

  it('pairScore counts half points; parseSprt fills defaults and rejects bad input', () => {
    expect(pairScore(1, 1)).toBe(4);
    expect(pairScore(1, 0)).toBe(2);
    expect(pairScore(0.5, 0)).toBe(1);
    expect(parseSprt('elo0=0,elo1=10')).toEqual({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: 'normalized' });
    expect(parseSprt('elo0=-5,elo1=5,alpha=0.1,beta=0.2,model=logistic').model).toBe('logistic');
    expect(() => parseSprt('elo0=10,elo1=0')).toThrow(/elo0.*elo1/);
    expect(() => parseSprt('elo1=10')).toThrow(/elo0 and elo1/);
    expect(() => parseSprt('elo0=0,elo1=10,gamma=3')).toThrow(/gamma/);
    expect(() => parseSprt('elo0=0,elo1=x')).toThrow(/elo1/);
    expect(() => parseSprt('elo0=0,elo1=10,model=bayes')).toThrow(/model/);
  });
});
