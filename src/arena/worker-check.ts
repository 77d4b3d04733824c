/**
 * Fishtest's check of a cluster's workers: a worker whose results differ from the others' more than
 * chance allows is flagged (a broken machine, a worker of another build that slipped through, a
 * rogue). Games are compared within strata of the same variant and seating (the same two bots in
 * the same seats), so a worker that happened to play another mix of pairings is not flagged for
 * it: in each stratum, a 2×2 table (this worker, the others) × (first seat won, second seat won)
 * gives a chi-square of one degree of freedom, and the strata's sum is tested against the
 * chi-square distribution of as many degrees. Tables with an empty row or column carry no evidence
 * and are left out. With few games per stratum the approximation is rough, hence a strict level.
 */
import type { GameRecord } from './match.ts';

/** A worker's check: the statistic, its degrees of freedom, the p-value and whether it is flagged. */
export interface WorkerCheck {
  readonly chi2: number;
  readonly df: number;
  readonly p: number;
  /** `p` below `OUTLIER_P`: its results differ from the others' beyond chance. */
  readonly outlier: boolean;
}

/** The level below which a worker is flagged. */
export const OUTLIER_P = 0.001;
/** Games a worker must have played before it is checked. */
export const CHECK_MIN_GAMES = 10;

/** Tallies games by stratum and worker, and checks each worker against the others (see the module's comment). */
export class WorkerResults {
  /** Stratum → worker → [first seat won, second seat won]. */
  readonly #strata = new Map<string, Map<string, [number, number]>>();
  readonly #games = new Map<string, number>();

  /** Counts a game played on a worker (others are not counted). */
  add(rec: GameRecord): void {
    if (rec.worker === undefined || !rec.seats) return;
    const { first, second } = rec.seats;
    if (rec.winner !== first && rec.winner !== second) return;
    const col = rec.winner === first ? 0 : 1;
    const key = `${rec.variant}\t${first}\t${second}`;
    let byWorker = this.#strata.get(key);
    if (!byWorker) this.#strata.set(key, (byWorker = new Map()));
    const cell = byWorker.get(rec.worker) ?? [0, 0];
    cell[col]++;
    byWorker.set(rec.worker, cell);
    this.#games.set(rec.worker, (this.#games.get(rec.worker) ?? 0) + 1);
  }

  /** Each checked worker's check (workers with fewer than `CHECK_MIN_GAMES` games, or alone, are not checked). */
  checks(): Map<string, WorkerCheck> {
    const out = new Map<string, WorkerCheck>();
    if (this.#games.size < 2) return out;
    for (const [worker, games] of this.#games) {
      if (games < CHECK_MIN_GAMES) continue;
      let chi2 = 0;
      let df = 0;
      for (const byWorker of this.#strata.values()) {
        const mine = byWorker.get(worker) ?? [0, 0];
        let b0 = 0;
        let b1 = 0;
        for (const [w, [x, y]] of byWorker) if (w !== worker) ((b0 += x), (b1 += y));
        const [a0, a1] = mine;
        const r1 = a0 + a1;
        const r2 = b0 + b1;
        const c1 = a0 + b0;
        const c2 = a1 + b1;
        if (r1 === 0 || r2 === 0 || c1 === 0 || c2 === 0) continue;
        const d = a0 * b1 - a1 * b0;
        chi2 += ((r1 + r2) * d * d) / (r1 * r2 * c1 * c2);
        df++;
      }
      if (df === 0) continue;
      const p = chiSquareTail(chi2, df);
      out.set(worker, { chi2: Math.round(chi2 * 100) / 100, df, p: Number(p.toPrecision(3)), outlier: p < OUTLIER_P });
    }
    return out;
  }
}

/** P(X ≥ x) for X chi-square with `df` degrees of freedom: the regularized upper incomplete gamma Q(df/2, x/2). */
export function chiSquareTail(x: number, df: number): number {
  if (x <= 0) return 1;
  return gammaQ(df / 2, x / 2);
}

/** ln Γ(a) for a > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
function lnGamma(a: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (a < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * a)) - lnGamma(1 - a);
  const z = a - 1;
  let s = c[0]!;
  for (let i = 1; i < 9; i++) s += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** Q(a, x) = Γ(a, x) / Γ(a): by its series below a + 1, by its continued fraction above (Numerical Recipes' split). */
function gammaQ(a: number, x: number): number {
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 500 && Math.abs(term) > Math.abs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * front);
  }
  // Lentz's method for the continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, front * h);
}
