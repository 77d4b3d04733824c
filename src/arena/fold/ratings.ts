/**
 * Ratings on the Elo scale from a Bradley–Terry fit with a first-seat advantage term:
 * P(the bot in the first seat scores) = 1 / (1 + 10^(-(R_first - R_second + H) / 400)), draws
 * counting half a win for each side. Fitted by Newton's method on the log-likelihood with a weak
 * Gaussian prior (sd 400 Elo) on every term, so perfect records (common between an exact bot and
 * a random one) give finite ratings; the 95 % intervals come from the inverse of the Hessian.
 */

/** Games between two bots with a given seating, aggregated. */
export interface SeatedResult {
  /** Index of the bot in the first seat. */
  readonly first: number;
  /** Index of the bot in the second seat. */
  readonly second: number;
  readonly games: number;
  /** Points of the first-seat bot (1 per win, ½ per draw). */
  readonly points: number;
}

/** One bot's rating. */
export interface Rating {
  readonly bot: string;
  /** Elo relative to the field's mean (0). */
  readonly elo: number;
  /** Half-width of the 95 % interval, in Elo. */
  readonly ci95: number;
  /**
   * Likelihood of superiority over the next bot down the table (the probability that this bot is
   * really the stronger of the two), or null for the last bot.
   */
  readonly losNext: number | null;
}

/** A bot and the Elo it is pinned to (`--anchor random=0`). */
export interface Anchor {
  readonly bot: string;
  readonly elo: number;
}

/** The fit: ratings best first, and the first-seat advantage. */
export interface RatingFit {
  readonly ratings: readonly Rating[];
  /** The bot whose rating is pinned (absent: ratings are relative to the field's mean, 0). */
  readonly anchor?: Anchor;
  /** Elo advantage of moving first (positive: the first seat scores more). */
  readonly firstSeatElo: number;
  readonly firstSeatCi95: number;
}

const ELO = 400 / Math.LN10;
const PRIOR_SD = 400 / ELO; // in natural log-odds units
const Z95 = 1.959963984540054;

/** The standard normal distribution function (erfc by Numerical Recipes' Chebyshev fit, |ε| < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Solves A x = b in place by Gaussian elimination with partial pivoting (A is n×n, row-major). */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[p * n + c]!)) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) {
        const t = m[c * n + k]!;
        m[c * n + k] = m[p * n + k]!;
        m[p * n + k] = t;
      }
      const t = x[c]!;
      x[c] = x[p]!;
      x[p] = t;
    }
    const d = m[c * n + c]!;
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c]! / d;
      if (f === 0) continue;
      for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let k = r + 1; k < n; k++) s -= m[r * n + k]! * x[k]!;
    x[r] = s / m[r * n + r]!;
  }
  return x;
}

/** Fits ratings to aggregated results. `bots` names the indices used in `results`. */
export function fitRatings(bots: readonly string[], results: readonly SeatedResult[]): RatingFit {
  const n = bots.length;
  const dim = n + 1; // one strength per bot, then the first-seat term
  const theta = new Float64Array(dim);
  const info = new Float64Array(dim * dim); // minus the Hessian of the log-posterior
  const grad = new Float64Array(dim);
  const prior = 1 / (PRIOR_SD * PRIOR_SD);
  const evaluate = (): void => {
    info.fill(0);
    grad.fill(0);
    for (let k = 0; k < dim; k++) {
      info[k * dim + k] = prior;
      grad[k] = -theta[k]! * prior;
    }
    for (const r of results) {
      if (r.games === 0) continue;
      const i = r.first;
      const j = r.second;
      const p = 1 / (1 + Math.exp(-(theta[i]! - theta[j]! + theta[n]!)));
      const g = r.points - r.games * p;
      const w = r.games * p * (1 - p);
      // x = e_i - e_j + e_H; info += w x xᵀ; grad += g x
      const idx = [i, j, n];
      const sign = [1, -1, 1];
      for (let a = 0; a < 3; a++) {
        grad[idx[a]!]! += sign[a]! * g;
        for (let b = 0; b < 3; b++) info[idx[a]! * dim + idx[b]!]! += sign[a]! * sign[b]! * w;
      }
    }
  };
  for (let iter = 0; iter < 100; iter++) {
    evaluate();
    const step = solve(info, grad, dim);
    let size = 0;
    for (let k = 0; k < dim; k++) {
      theta[k]! += step[k]!;
      size = Math.max(size, Math.abs(step[k]!));
    }
    if (size < 1e-10) break;
  }
  evaluate();
  // Variance of a contrast cᵀθ is cᵀ C c with C = info⁻¹; solve info y = c instead of inverting.
  const contrastSd = (c: Float64Array): number => {
    const y = solve(info, c, dim);
    let v = 0;
    for (let k = 0; k < dim; k++) v += c[k]! * y[k]!;
    return Math.sqrt(Math.max(0, v));
  };
  let mean = 0;
  for (let k = 0; k < n; k++) mean += theta[k]! / n;
  const order = bots.map((_, k) => k).sort((a, b) => theta[b]! - theta[a]! || bots[a]!.localeCompare(bots[b]!));
  const ratings: Rating[] = order.map((k, rank) => {
    const c = new Float64Array(dim);
    for (let q = 0; q < n; q++) c[q] = -1 / n;
    c[k]! += 1;
    const next = order[rank + 1];
    let losNext: number | null = null;
    if (next !== undefined) {
      const d = new Float64Array(dim);
      d[k] = 1;
      d[next] = -1;
      const sd = contrastSd(d);
      const diff = theta[k]! - theta[next]!;
      losNext = sd > 0 ? normalCdf(diff / sd) : 0.5;
    }
    return { bot: bots[k]!, elo: (theta[k]! - mean) * ELO, ci95: Z95 * contrastSd(c) * ELO, losNext };
  });
  const h = new Float64Array(dim);
  h[n] = 1;
  return { ratings, firstSeatElo: theta[n]! * ELO, firstSeatCi95: Z95 * contrastSd(h) * ELO };
}

/**
 * The fit shifted so the anchor bot has its value: every rating moves by the same amount, so
 * differences (and the first-seat term, and each bot's interval about the field's mean) are kept.
 * A fit without the anchor bot is returned as it is.
 */
export function anchorFit(fit: RatingFit, anchor: Anchor): RatingFit {
  const pinned = fit.ratings.find((r) => r.bot === anchor.bot);
  if (!pinned) return fit;
  const shift = anchor.elo - pinned.elo;
  return { ...fit, anchor, ratings: fit.ratings.map((r) => ({ ...r, elo: r.elo + shift })) };
}
