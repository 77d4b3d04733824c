/**
 * Text of sequential tests and pair counts, shared by the plain reporter and the dashboard: the
 * LLR bar from the lower bound (H0) to the upper one (H1), the one-line status and the decision.
 */
import type { SprtResult } from '../../arena/summary.ts';

const fixed = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '-');

/** Where the LLR stands between the bounds, as a bar of `width` cells: `H0 [----|--#----] H1`. */
export function sprtBar(r: Pick<SprtResult, 'llr' | 'lower' | 'upper'>, width: number): string {
  const cells = Math.max(5, width);
  const at = (x: number): number => Math.round(((Math.min(r.upper, Math.max(r.lower, x)) - r.lower) / (r.upper - r.lower)) * (cells - 1));
  const zero = at(0);
  const mark = at(r.llr);
  let out = '';
  for (let i = 0; i < cells; i++) out += i === mark ? '#' : i === zero ? '|' : '-';
  return `H0 [${out}] H1`;
}

/** `LL 0 LD 3 DD 10 WD 4 WW 1`: pair counts by the first bot's pair score. */
export function pentanomialText(counts: readonly number[]): string {
  const names = ['LL', 'LD', 'DD', 'WD', 'WW'];
  return counts.map((n, i) => `${names[i]} ${n}`).join(' ');
}

/** `Elo 41.3 ±22.0`; `Elo +inf` when every pair was won (no finite Elo fits), `Elo -` before the first pair. */
function eloText(r: Pick<SprtResult, 'elo' | 'counts' | 'pairs'>): string {
  if (!r.elo) return 'Elo -';
  if (r.counts[4] === r.pairs) return 'Elo +inf (every pair won)';
  if (r.counts[0] === r.pairs) return 'Elo -inf (every pair lost)';
  return `Elo ${fixed(r.elo.elo, 1)} ±${fixed(r.elo.ci95, 1)}`;
}

/** The decision in words: `H1 accepted` (the first bot is better by at least elo1), `H0 accepted`, or `running`. */
export function decisionText(r: Pick<SprtResult, 'decision'>): string {
  return r.decision === 'H1' ? 'H1 accepted' : r.decision === 'H0' ? 'H0 accepted' : 'running';
}

/** One line of a test in progress: bar, LLR and bounds, pairs, counts, Elo. */
export function sprtLine(r: SprtResult, barWidth = 21): string {
  return (
    `SPRT ${r.a} vs ${r.b}: ${sprtBar(r, barWidth)} LLR ${fixed(r.llr, 2)} (${fixed(r.lower, 2)}, ${fixed(r.upper, 2)}), ` +
    `${r.pairs} pairs [${pentanomialText(r.counts)}], ${eloText(r)}`
  );
}

/** The result of a test: decision, LLR, games and pairs, Elo ± 95 %, and the hypotheses. */
export function sprtResultLine(r: SprtResult): string {
  const { elo0, elo1, alpha, beta, model } = r.config;
  const what = r.decision === null ? 'no decision (the deals ran out)' : decisionText(r);
  return (
    `SPRT ${r.a} vs ${r.b}: ${what}, LLR ${fixed(r.llr, 2)} (${fixed(r.lower, 2)}, ${fixed(r.upper, 2)}), ` +
    `${r.games} games, ${r.pairs} pairs, ${eloText(r)}; ${model} Elo [${elo0}, ${elo1}], alpha ${alpha}, beta ${beta}`
  );
}
