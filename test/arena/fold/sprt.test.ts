import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  eloToScore,
  InOrder,
  NORMALIZED_ELO_LIMIT,
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

/** A constraint `g(p) = 0` on a distribution, with its gradient. */
interface Constraint {
  value(p: readonly number[]): number;
  gradient(p: readonly number[]): number[];
}

/**
 * An independent constrained maximum of `Σ nᵢ log pᵢ` subject to `Σ pᵢ = 1` and `g(p) = 0` with
 * `pᵢ = 0` outside `support`: Newton–Raphson on the whole Lagrange system (p, λ, κ) over the
 * support's cells with a finite-difference Jacobian, started from the empirical distribution blended
 * with the uniform one on the support (weight `blend`). Null when it does not settle on a point inside
 * the support that meets the constraint (the maximum is then on another support).
 * Nothing here is shared with src/arena/fold/sprt.ts.
 */
function constrainedMaxOn(n: readonly number[], g: Constraint, support: readonly number[], blend: number): number[] | null {
  const total = n.reduce((x, y) => x + y, 0);
  const k = support.length;
  const full = (q: readonly number[]): number[] => {
    const p = [0, 0, 0, 0, 0];
    support.forEach((cell, i) => (p[cell] = q[i]!));
    return p;
  };
  const residual = (x: readonly number[]): number[] => {
    const p = full(x.slice(0, k));
    const [lambda, kappa] = [x[k]!, x[k + 1]!];
    const grad = g.gradient(p);
    const r = support.map((cell) => (n[cell]! > 0 ? n[cell]! / p[cell]! : 0) - lambda - kappa * grad[cell]!);
    r.push(p.reduce((s, v) => s + v, 0) - 1, g.value(p));
    return r;
  };
  const start = support.map((cell) => ((1 - blend) * n[cell]!) / total + blend / k);
  let x = [...start, total, 0];
  for (let iter = 0; iter < 200; iter++) {
    const r = residual(x);
    if (Math.max(...r.map(Math.abs)) < 1e-10 * total) {
      const p = full(x.slice(0, k));
      return support.every((cell) => p[cell]! > 1e-9) ? p : null;
    }
    const jac = r.map(() => new Array<number>(k + 2).fill(0));
    for (let j = 0; j < k + 2; j++) {
      const xp = [...x];
      xp[j]! += 1e-7 * Math.max(1e-3, Math.abs(x[j]!));
      const rp = residual(xp);
      for (let i = 0; i < k + 2; i++) jac[i]![j] = (rp[i]! - r[i]!) / (xp[j]! - x[j]!);
    }
    const step = solve(jac, r.map((v) => -v));
    if (step.some((v) => !Number.isFinite(v))) return null;
    let t = 1;
    while (t > 1e-12 && x.slice(0, k).some((pi, i) => pi + t * step[i]! <= 0)) t /= 2;
    x = x.map((v, i) => v + t * step[i]!);
  }
  return null;
}

const logLikelihood = (n: readonly number[], p: readonly number[]): number =>
  n.reduce((s, v, i) => (v > 0 ? s + v * Math.log(p[i]!) : s), 0);

/**
 * The largest likelihood among distributions that meet `g = 0` (`feasible` says whether the data
 * themselves do), by brute force over supports: the seen cells plus at most one unseen cell, each
 * solved by its Lagrange condition, the best kept. One extra cell is enough: a zero cell with mass
 * must sit where the constraint's gradient takes its extreme value, which one cell does (or several
 * alike, any of which then gives the same likelihood).
 */
function constrainedMax(n: readonly number[], g: Constraint, feasible: (p: readonly number[]) => boolean): number {
  const total = n.reduce((x, y) => x + y, 0);
  const phat = n.map((v) => v / total);
  if (feasible(phat)) return logLikelihood(n, phat);
  const seen = [0, 1, 2, 3, 4].filter((i) => n[i]! > 0);
  const supports = [seen, ...[0, 1, 2, 3, 4].filter((i) => n[i] === 0).map((extra) => [...seen, extra].sort())];
  let best = -Infinity;
  for (const support of supports) {
    // Newton converges from near enough, and the maximum may be far from the data (a hypothesis
    // far from them): it starts from several blends of the data with the uniform distribution.
    for (const blend of [0.01, 0.5, 0.99]) {
      const p = constrainedMaxOn(n, g, support, blend);
      if (p) best = Math.max(best, logLikelihood(n, p));
    }
  }
  expect(best).toBeGreaterThan(-Infinity);
  return best;
}

const mean = (p: readonly number[]): number => p.reduce((s, v, i) => s + v * A[i]!, 0);
const sd = (p: readonly number[]): number => Math.sqrt(p.reduce((s, v, i) => s + v * (A[i]! - mean(p)) ** 2, 0));

function independentLlr(counts: Pentanomial, c: Pick<SprtConfig, 'elo0' | 'elo1' | 'model'>): number {
  const best = (elo: number): number => {
    if (c.model === 'logistic') {
      // Σ pᵢ (aᵢ − s) = 0: the mean score is s.
      const s = eloToScore(elo);
      const g: Constraint = { value: (p) => p.reduce((acc, v, i) => acc + v * (A[i]! - s), 0), gradient: () => A.map((a) => a - s) };
      return constrainedMax(counts, g, (p) => Math.abs(g.value(p)) < 1e-12);
    }
    // μ − ½ − t σ = 0 with μ = Σ pᵢ aᵢ and σ² = Σ pᵢ (aᵢ − μ)².
    const t = (Math.SQRT2 * elo) / C;
    const g: Constraint = {
      value: (p) => mean(p) - 0.5 - t * sd(p),
      gradient: (p) => {
        const m = mean(p);
        const sigma = sd(p);
        const centred = p.reduce((acc, v, j) => acc + v * (A[j]! - m), 0);
        return A.map((a) => a - (t * ((a - m) ** 2 - 2 * a * centred)) / (2 * sigma));
      },
    };
    // A point mass at ½ has no t-value (σ = 0); it is the limit of distributions with t = 0 only.
    return constrainedMax(counts, g, (p) => Math.abs(g.value(p)) < 1e-12 && (sd(p) > 0 || t === 0));
  };
  return best(c.elo1) - best(c.elo0);
}

/** Our LLR and the brute force's agree (to 1e-6, relative above 1). */
function expectAgreement(counts: Pentanomial, c: Pick<SprtConfig, 'elo0' | 'elo1' | 'model'>): void {
  const ours = pentanomialLlr(counts, c);
  const theirs = independentLlr(counts, c);
  expect(Math.abs(ours - theirs), `${c.model} [${counts.join(', ')}] ${c.elo0}..${c.elo1}: ${ours} vs ${theirs}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(theirs)));
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
      it(`${model} [${counts.join(', ')}] elo0=${elo0} elo1=${elo1} agrees with a direct Lagrange solve`, () => expectAgreement(counts, { elo0, elo1, model }));
    }
  }

  // The edges: every pair lost or won, one kind of result, two kinds. The maximum under a
  // hypothesis the data cannot meet alone gives mass to a result not seen.
  const edges: Pentanomial[] = [
    [1, 0, 0, 0, 0],
    [5, 0, 0, 0, 0],
    [638, 0, 0, 0, 0],
    [0, 0, 0, 0, 74],
    [0, 0, 40, 0, 0],
    [0, 9, 0, 0, 0],
    [0, 0, 0, 9, 0],
    [30, 0, 12, 0, 0],
    [0, 0, 12, 0, 30],
    [20, 0, 0, 0, 3],
    [0, 7, 0, 7, 0],
    [0, 0, 50, 2, 0],
    [6, 40, 0, 0, 0],
  ];
  for (const model of ['normalized', 'logistic'] as const) {
    for (const [elo0, elo1] of [
      [0, 10],
      [-5, 5],
      [-30, -10],
      [20, 60],
    ] as const) {
      it(`${model} elo0=${elo0} elo1=${elo1}: exact at the edges (agrees with a brute force over supports)`, () => {
        for (const counts of edges) expectAgreement(counts, { elo0, elo1, model });
      });
    }
  }

  it('agrees with the brute force on random counts with empty cells, for Elo bounds up to the limit', () => {
    const rng = createRng(21);
    for (let k = 0; k < 12; k++) {
      const counts = [0, 1, 2, 3, 4].map(() => (rng.float() < 0.4 ? 0 : 1 + Math.floor(rng.float() * 40))) as unknown as Pentanomial;
      if (counts.every((v) => v === 0)) continue;
      const e = [5, 20, 60, NORMALIZED_ELO_LIMIT][k % 4]!;
      for (const model of ['normalized', 'logistic'] as const) {
        expectAgreement(counts, { elo0: -e, elo1: e, model });
        expectAgreement(counts, { elo0: 0, elo1: e, model });
      }
    }
  });

  it('edges in closed form: all lost, all won, all even', () => {
    // Logistic: the most likely way to score s with every pair lost puts 1 − s on LL and s on WW.
    const s = eloToScore;
    expect(pentanomialLlr([50, 0, 0, 0, 0], { elo0: 0, elo1: 10, model: 'logistic' })).toBeCloseTo(50 * Math.log((1 - s(10)) / (1 - s(0))), 9);
    expect(pentanomialLlr([0, 0, 0, 0, 50], { elo0: 0, elo1: 10, model: 'logistic' })).toBeCloseTo(50 * Math.log(s(10) / s(0)), 9);
    expect(pentanomialLlr([0, 0, 50, 0, 0], { elo0: 0, elo1: 10, model: 'logistic' })).toBeCloseTo(50 * Math.log(2 * (1 - s(10))), 9);
    // Normalized: LL with mass q and WW with 1 − q has t = (½ − q)/√(q(1 − q)), so q = (1 − t/√(1 + t²))/2;
    // every pair even (DD) meets t = 0 and needs mass t²/(1 + t²) off the middle for t ≠ 0.
    const t = (elo: number): number => (Math.SQRT2 * elo) / C;
    const lost = (elo: number): number => (1 - t(elo) / Math.hypot(1, t(elo))) / 2;
    const cfg = { elo0: 0, elo1: 10, model: 'normalized' as const };
    expect(pentanomialLlr([50, 0, 0, 0, 0], cfg)).toBeCloseTo(50 * Math.log(lost(10) / lost(0)), 9);
    expect(pentanomialLlr([0, 0, 0, 0, 50], cfg)).toBeCloseTo(50 * Math.log((1 - lost(10)) / (1 - lost(0))), 9);
    expect(pentanomialLlr([0, 0, 50, 0, 0], cfg)).toBeCloseTo(-50 * Math.log(1 + t(10) ** 2), 9);
  });

  it('a bot that loses every pair is rejected about as soon as one that wins every pair is accepted', () => {
    const cfg = parseSprt('elo0=0,elo1=10');
    const run = (score: PairScore): SprtTest => {
      const test = new SprtTest(cfg);
      while (!test.decided && test.status.pairs < 10_000) test.update(score);
      return test;
    };
    const lost = run(0);
    const won = run(4);
    expect(lost.status.decision).toBe('H0');
    expect(won.status.decision).toBe('H1');
    // Per pair, the LLR moves by ln(q₁/q₀) (lost) or ln((1 − q₁)/(1 − q₀)) (won), as in the closed forms above.
    const t = (Math.SQRT2 * 10) / C;
    const q = (1 - t / Math.hypot(1, t)) / 2;
    expect(lost.status.pairs).toBe(Math.ceil(lost.status.lower / Math.log(q / 0.5)));
    expect(won.status.pairs).toBe(Math.ceil(won.status.upper / Math.log((1 - q) / 0.5)));
    expect(lost.status.pairs).toBeLessThanOrEqual(won.status.pairs);
  });

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
    expect(() => parseSprt('elo0=0,elo1=400')).toThrow(/Expected SPRT `elo1` within ±200 normalized Elo .*, got 400; model=logistic takes any Elo/);
    expect(parseSprt('elo0=0,elo1=400,model=logistic').elo1).toBe(400);
  });
});
