/**
 * The sequential probability ratio test on game pairs (the pentanomial GSPRT of fishtest and
 * fastchess, after Michel Van den Bergh's notes "Comments on Normalized Elo").
 *
 * A game pair is both seatings of one deal. Its result, for the tested bot, is one of five
 * pair scores in half points: 0 = LL, 1 = LD/DL, 2 = DD/WL/LW, 3 = WD/DW, 4 = WW. Pairs rather
 * than games are the sample because the two games of a pair share a deal and are correlated; the
 * pair scores are independent draws, so the model is a five-cell multinomial.
 *
 * The generalized LLR is `N · Σ p̂ᵢ (log p₁ᵢ − log p₀ᵢ)`, where `p̂` is the empirical distribution
 * and `pₖ` the distribution of largest likelihood among those that satisfy hypothesis `k`:
 * - `normalized` (the default, as in fishtest and fastchess): the hypothesis fixes the normalized
 *   Elo, i.e. the t-value `(μ − ½)/σ` of the pair score (σ its standard deviation) at
 *   `t = √2 · nelo / (800 / ln 10)`. Normalized Elo does not depend on how drawish the games are.
 * - `logistic`: the hypothesis fixes the expected score `μ = 1 / (1 + 10^(−elo/400))` (plain Elo).
 *
 * Empty cells are taken as they are: the most likely distribution under a hypothesis may give a
 * result no pair has had yet (see `tilt`), so the LLR is exact at the edges too (every pair lost or
 * won, one or two kinds of result). fishtest and fastchess count an empty cell as 0.001 pairs
 * instead, which their interior-point solvers need; where every cell is seen the two agree exactly.
 * This module is pure: no I/O, no clock; the same pairs in the same order give the same LLR, so an
 * executor may fold pairs anywhere as long as it folds them in schedule order ({@link InOrder} does
 * the reordering).
 */
import { ArenaError, show } from '../../core/errors.ts';

/** Pair counts indexed by the tested bot's pair score in half points (0 = LL … 4 = WW). */
export type Pentanomial = readonly [number, number, number, number, number];

/** A pair score in half points: 0 = LL, 1 = LD/DL, 2 = DD/WL/LW, 3 = WD/DW, 4 = WW. */
export type PairScore = 0 | 1 | 2 | 3 | 4;

/** Which Elo the hypotheses are stated in. */
export type SprtModel = 'normalized' | 'logistic';

/** The test's parameters (`--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized`). */
export interface SprtConfig {
  /** Elo of H0 (the tested bot is no better than this). */
  readonly elo0: number;
  /** Elo of H1 (the tested bot is at least this much better); must exceed `elo0`. */
  readonly elo1: number;
  /** Chance of accepting H1 when H0 holds. */
  readonly alpha: number;
  /** Chance of accepting H0 when H1 holds. */
  readonly beta: number;
  readonly model: SprtModel;
}

/** H0 or H1 accepted, or null while the test goes on. */
export type SprtDecision = 'H0' | 'H1' | null;

/** Where a test stands after its last folded pair. */
export interface SprtStatus {
  readonly config: SprtConfig;
  readonly counts: Pentanomial;
  readonly pairs: number;
  readonly games: number;
  readonly llr: number;
  /** `ln(β / (1 − α))`: at or below it H0 is accepted. */
  readonly lower: number;
  /** `ln((1 − β) / α)`: at or above it H1 is accepted. */
  readonly upper: number;
  readonly decision: SprtDecision;
  /** Logistic Elo of the tested bot from its mean score, with a 95 % half-width from the pair variance; null before any pair. */
  readonly elo: { readonly elo: number; readonly ci95: number } | null;
}

/** Defaults of the fields `--sprt` may leave out. */
export const SPRT_DEFAULTS: Readonly<Omit<SprtConfig, 'elo0' | 'elo1'>> = { alpha: 0.05, beta: 0.05, model: 'normalized' };

/** The empty pentanomial. */
export const NO_PAIRS: Pentanomial = [0, 0, 0, 0, 0];

const SCORES = [0, 0.25, 0.5, 0.75, 1] as const;
const NELO_PER_T = 800 / Math.LN10;
const Z95 = 1.959963984540054;
/**
 * The largest normalized Elo a hypothesis may state. Past about t = 1 (some 250 nElo, pair results
 * further apart than any SPRT needs) the likelihood under the non-convex normalized constraint has
 * stationary points the fixed point cannot tell from its maximum; within it, the tests check the
 * maximum against a brute force.
 */
export const NORMALIZED_ELO_LIMIT = 200;

/** Checks a config and fills defaults; the message names the field. */
export function sprtConfig(input: Partial<SprtConfig> & Pick<SprtConfig, 'elo0' | 'elo1'>): SprtConfig {
  const c: SprtConfig = { ...SPRT_DEFAULTS, ...input };
  for (const k of ['elo0', 'elo1', 'alpha', 'beta'] as const) {
    if (typeof c[k] !== 'number' || !Number.isFinite(c[k])) throw new ArenaError(`Expected SPRT \`${k}\` to be a number, got ${show(c[k])}`);
  }
  if (!(c.elo0 < c.elo1)) throw new ArenaError(`Expected SPRT \`elo0\` < \`elo1\`, got elo0=${c.elo0}, elo1=${c.elo1}`);
  for (const k of ['alpha', 'beta'] as const) {
    if (!(c[k] > 0 && c[k] < 0.5)) throw new ArenaError(`Expected SPRT \`${k}\` between 0 and 0.5, got ${c[k]}`);
  }
  if (c.model !== 'normalized' && c.model !== 'logistic') {
    throw new ArenaError(`Expected SPRT \`model\` to be normalized or logistic, got ${show(c.model)}`);
  }
  if (c.model === 'normalized') {
    for (const k of ['elo0', 'elo1'] as const) {
      if (Math.abs(c[k]) > NORMALIZED_ELO_LIMIT) {
        throw new ArenaError(
          `Expected SPRT \`${k}\` within ±${NORMALIZED_ELO_LIMIT} normalized Elo (where the test's likelihood is solved exactly), got ${c[k]}; model=logistic takes any Elo`,
        );
      }
    }
  }
  return c;
}

/** Parses `elo0=0,elo1=10[,alpha=0.05][,beta=0.05][,model=normalized|logistic]`. */
export function parseSprt(text: string): SprtConfig {
  const fields: Record<string, string> = {};
  for (const part of text.split(',')) {
    const m = /^\s*(\w+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!m) throw new ArenaError(`Expected --sprt as key=value pairs (elo0=0,elo1=10,alpha=0.05,beta=0.05), got ${show(text)}`);
    const [, key, value] = m as unknown as [string, string, string];
    if (!['elo0', 'elo1', 'alpha', 'beta', 'model'].includes(key)) {
      throw new ArenaError(`Unknown SPRT field \`${key}\` (expected elo0, elo1, alpha, beta, model)`);
    }
    fields[key] = value;
  }
  if (fields.elo0 === undefined || fields.elo1 === undefined) throw new ArenaError(`Expected --sprt to give elo0 and elo1, got ${show(text)}`);
  const num = (k: string): number | undefined => {
    const v = fields[k];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new ArenaError(`Expected SPRT \`${k}\` to be a number, got ${show(v)}`);
    return n;
  };
  const out: Partial<SprtConfig> & Pick<SprtConfig, 'elo0' | 'elo1'> = { elo0: num('elo0')!, elo1: num('elo1')! };
  const alpha = num('alpha');
  const beta = num('beta');
  return sprtConfig({
    ...out,
    ...(alpha !== undefined ? { alpha } : {}),
    ...(beta !== undefined ? { beta } : {}),
    ...(fields.model !== undefined ? { model: fields.model as SprtModel } : {}),
  });
}

/** The config as `--sprt` writes it (for messages and the summary). */
export function formatSprt(c: SprtConfig): string {
  return `elo0=${c.elo0},elo1=${c.elo1},alpha=${c.alpha},beta=${c.beta},model=${c.model}`;
}

/** Wald's bounds for the LLR. */
export function sprtBounds(c: Pick<SprtConfig, 'alpha' | 'beta'>): { readonly lower: number; readonly upper: number } {
  return { lower: Math.log(c.beta / (1 - c.alpha)), upper: Math.log((1 - c.beta) / c.alpha) };
}

/** The pair score of two games given the tested bot's points in each (1, ½ or 0). */
export function pairScore(firstGamePoints: number, secondGamePoints: number): PairScore {
  const half = Math.round(2 * (firstGamePoints + secondGamePoints));
  if (half < 0 || half > 4 || Math.abs(half - 2 * (firstGamePoints + secondGamePoints)) > 1e-9) {
    throw new RangeError(`Expected game points in {0, 0.5, 1}, got ${firstGamePoints} and ${secondGamePoints}`);
  }
  return half as PairScore;
}

/** Expected score of a logistic Elo difference. */
export function eloToScore(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** Logistic Elo of an expected score. */
export function scoreToElo(score: number): number {
  return -400 * Math.log10(1 / score - 1);
}

/**
 * The root of a function that decreases strictly on (lo, hi) and changes sign there (the Lagrange
 * equations below are of this kind): Newton steps while they stay inside the bracket, bisection
 * otherwise, so it always converges and usually in a handful of steps.
 */
function decreasingRoot(f: (x: number) => { value: number; slope: number }, lo: number, hi: number): number {
  let x = (lo + hi) / 2;
  for (let i = 0; i < 200; i++) {
    const { value, slope } = f(x);
    if (value === 0) return x;
    if (value > 0) lo = x;
    else hi = x;
    const newton = x - value / slope;
    const next = newton > lo && newton < hi ? newton : (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x)) || next === lo || next === hi) return next;
    x = next;
  }
  return x;
}

/** Cells a distribution may give mass to, one bit each (bit i: pair score i). */
const EVERY_CELL = 0b11111;

/**
 * The distribution of largest likelihood for the empirical distribution `phat` among those on
 * `cells` with `Σ pᵢ φᵢ = 0`; null when none on those cells meets it (φ of one sign there). By the
 * Lagrange condition `pᵢ = p̂ᵢ / (1 + θ φᵢ)`, where θ solves `Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0` inside the
 * interval where every `1 + θ φᵢ` is positive. When the data leave a result unseen and cannot meet
 * the constraint by themselves (every pair lost, say, against a hypothesis of an even score), the
 * root is not inside: the maximum then sits at the end of the interval, where the unseen result of
 * most extreme φ takes the mass the seen ones leave, `θ · Σ p̂ᵢ φᵢ / (1 + θ φᵢ)` (the
 * Karush–Kuhn–Tucker condition of a cell at zero). This is the exact maximum; no pseudo-counts.
 */
function tilt(phat: readonly number[], phi: readonly number[], cells = EVERY_CELL): number[] | null {
  let top = -1;
  let bottom = -1;
  for (let i = 0; i < phi.length; i++) {
    if (!(cells & (1 << i))) continue;
    if (top < 0 || phi[i]! > phi[top]!) top = i;
    if (bottom < 0 || phi[i]! < phi[bottom]!) bottom = i;
  }
  if (!(phi[top]! > 0 && phi[bottom]! < 0)) return null;
  // The Lagrange equation in θ over the seen cells, and its derivative.
  const equation = (x: number): { value: number; slope: number } => {
    let value = 0;
    let slope = 0;
    for (let i = 0; i < phi.length; i++) {
      if (phat[i] === 0) continue;
      const q = phi[i]! / (1 + x * phi[i]!);
      value += phat[i]! * q;
      slope -= phat[i]! * q * q;
    }
    return { value, slope };
  };
  const lo = -1 / phi[top]!;
  const hi = -1 / phi[bottom]!;
  // An end of the interval whose cell is unseen is a closed end: the maximum may sit there.
  const edge =
    phat[top] === 0 && equation(lo).value <= 0 ? { theta: lo, cell: top } : phat[bottom] === 0 && equation(hi).value >= 0 ? { theta: hi, cell: bottom } : null;
  const theta = edge?.theta ?? decreasingRoot(equation, lo, hi);
  const p = phat.map((v, i) => (v === 0 ? 0 : v / (1 + theta * phi[i]!)));
  if (edge) p[edge.cell] = theta * equation(theta).value;
  return p;
}

/** Most likely distribution with mean score `s` (a linear constraint: the maximum is unique). */
function mleMean(phat: readonly number[], s: number): number[] {
  return tilt(
    phat,
    SCORES.map((a) => a - s),
  )!;
}

/**
 * A distribution with `(μ − ½)/σ = t` on `cells` where the likelihood is stationary, or null when
 * the iteration finds none there. The constraint is not linear; Van den Bergh's fixed point
 * linearises it around the current estimate (μ, σ) and tilts again until it settles.
 */
function stationaryT(phat: readonly number[], t: number, cells: number): number[] | null {
  // Start from a distribution that meets the constraint, LL and WW alone (t = (w − ½)/√(w(1 − w))):
  // the linearisation at such a point has φ of both signs, which fastchess's uniform start lacks
  // once |t| passes about 0.9; and the data themselves may be a point mass (σ = 0).
  const w = (1 + t / Math.hypot(1, t)) / 2;
  let p: number[] = [1 - w, 0, 0, 0, w];
  for (let iter = 0; iter < 1000; iter++) {
    let mu = 0;
    for (let i = 0; i < p.length; i++) mu += p[i]! * SCORES[i]!;
    let v = 0;
    for (let i = 0; i < p.length; i++) v += p[i]! * (SCORES[i]! - mu) ** 2;
    const sigma = Math.sqrt(v);
    const next = tilt(
      phat,
      SCORES.map((a) => a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2)),
      cells,
    );
    if (!next) return null;
    let diff = 0;
    for (let i = 0; i < p.length; i++) diff = Math.max(diff, Math.abs(next[i]! - p[i]!));
    p = next;
    if (diff < 1e-12) break;
  }
  let mu = 0;
  for (let i = 0; i < p.length; i++) mu += p[i]! * SCORES[i]!;
  let v = 0;
  for (let i = 0; i < p.length; i++) v += p[i]! * (SCORES[i]! - mu) ** 2;
  return Math.abs(mu - 0.5 - t * Math.sqrt(v)) < 1e-9 ? p : null;
}

/**
 * Most likely distribution with `(μ − ½)/σ = t`. The set of such distributions is not convex, so a
 * stationary point need not be the maximum; which unseen results take mass is where they differ.
 * So the fixed point runs on the seen results alone, on those with each unseen one, and with all,
 * and the likeliest wins. At t = 0 it is the linear `μ = ½` (a point mass at ½ has no t, but
 * distributions as close to it as one likes have t = 0, so the supremum is the mean constraint's).
 */
function mleT(phat: readonly number[], t: number): number[] {
  if (t === 0) return mleMean(phat, 0.5);
  let seen = 0;
  for (let i = 0; i < phat.length; i++) if (phat[i]! > 0) seen |= 1 << i;
  const supports = new Set([EVERY_CELL, seen]);
  for (let i = 0; i < phat.length; i++) supports.add(seen | (1 << i));
  let best: number[] | null = null;
  let bestLog = -Infinity;
  for (const cells of supports) {
    const p = stationaryT(phat, t, cells);
    if (!p) continue;
    let log = 0;
    for (let i = 0; i < p.length; i++) if (phat[i]! > 0) log += phat[i]! * Math.log(p[i]!);
    if (log > bestLog) [best, bestLog] = [p, log];
  }
  if (!best) throw new RangeError(`No distribution of normalized Elo t = ${t} found for ${phat.join(', ')}`);
  return best;
}

/**
 * The generalized log-likelihood ratio of H1 against H0 for pentanomial counts: exact for every
 * count, empty cells included (all pairs lost, all won, one or two kinds of result), since the
 * maximum under each hypothesis is found with its zero cells rather than around pseudo-counts.
 */
export function pentanomialLlr(counts: Pentanomial, c: Pick<SprtConfig, 'elo0' | 'elo1' | 'model'>): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const phat = counts.map((n) => n / total);
  const [p0, p1] =
    c.model === 'logistic'
      ? [mleMean(phat, eloToScore(c.elo0)), mleMean(phat, eloToScore(c.elo1))]
      : [mleT(phat, (Math.SQRT2 * c.elo0) / NELO_PER_T), mleT(phat, (Math.SQRT2 * c.elo1) / NELO_PER_T)];
  let llr = 0;
  for (let i = 0; i < phat.length; i++) if (counts[i]! > 0) llr += counts[i]! * (Math.log(p1[i]!) - Math.log(p0[i]!));
  return llr;
}

/** Logistic Elo and 95 % half-width from pentanomial counts (the delta method on the mean pair score). */
export function pentanomialElo(counts: Pentanomial): { readonly elo: number; readonly ci95: number } | null {
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  let mu = 0;
  for (let i = 0; i < 5; i++) mu += (counts[i]! * SCORES[i]!) / n;
  let v = 0;
  for (let i = 0; i < 5; i++) v += (counts[i]! * (SCORES[i]! - mu) ** 2) / n;
  const clamp = (s: number): number => Math.min(1 - 1e-6, Math.max(1e-6, s));
  const se = Math.sqrt(v / n);
  const elo = scoreToElo(clamp(mu));
  const ci95 = (scoreToElo(clamp(mu + Z95 * se)) - scoreToElo(clamp(mu - Z95 * se))) / 2;
  return { elo, ci95 };
}

/** The status of a test given its counts (recomputed from scratch: the counts are the whole state). */
export function sprtStatus(config: SprtConfig, counts: Pentanomial): SprtStatus {
  const pairs = counts.reduce((a, b) => a + b, 0);
  const { lower, upper } = sprtBounds(config);
  const llr = pairs === 0 ? 0 : pentanomialLlr(counts, config);
  const decision: SprtDecision = llr >= upper ? 'H1' : llr <= lower ? 'H0' : null;
  return { config, counts, pairs, games: 2 * pairs, llr, lower, upper, decision, elo: pentanomialElo(counts) };
}

/**
 * One running test: feed it pair scores in schedule order with {@link SprtTest.update}. Once it
 * has decided, further pairs are not folded (the decision belongs to the prefix that made it).
 * Its only state is the counts, so a resumed test is `new SprtTest(config, savedCounts)`, or the
 * same pairs folded again.
 */
export class SprtTest {
  #status: SprtStatus;

  constructor(config: SprtConfig, counts: Pentanomial = NO_PAIRS) {
    this.#status = sprtStatus(config, counts);
  }

  /** Folds the next pair in schedule order and returns the new status (unchanged once decided). */
  update(score: PairScore): SprtStatus {
    if (this.#status.decision !== null) return this.#status;
    const counts = [...this.#status.counts] as [number, number, number, number, number];
    counts[score]++;
    this.#status = sprtStatus(this.#status.config, counts);
    return this.#status;
  }

  get status(): SprtStatus {
    return this.#status;
  }

  get decided(): boolean {
    return this.#status.decision !== null;
  }
}

/**
 * Puts results that finish in any order back into schedule order: `offer(i, v)` returns the values
 * that have become foldable (every earlier index offered), in order. A distributed tester that folds
 * pairs as they finish favours the side that finishes faster; this is the cure.
 */
export class InOrder<T> {
  #next: number;
  readonly #waiting = new Map<number, T>();

  /** `start`: the first index not yet folded (0, or where a resumed run stands). */
  constructor(start = 0) {
    this.#next = start;
  }

  offer(index: number, value: T): T[] {
    if (index < this.#next || this.#waiting.has(index)) throw new RangeError(`Pair ${index} was already offered`);
    this.#waiting.set(index, value);
    const ready: T[] = [];
    while (this.#waiting.has(this.#next)) {
      ready.push(this.#waiting.get(this.#next) as T);
      this.#waiting.delete(this.#next++);
    }
    return ready;
  }

  /** The first index not yet folded. */
  get next(): number {
    return this.#next;
  }

  /** Indices offered but waiting for an earlier one. */
  get pending(): number {
    return this.#waiting.size;
  }
}
