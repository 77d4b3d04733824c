/**
 * A Swiss's score table and a knockout's bracket as text: the plain output, the dashboard and
 * the report show them alike (here, below both, as `droppedText` is for the results log).
 */
import type { BracketMatch, FormatStandings, SwissLine } from './format.ts';
import type { RatingFit } from '../fold/ratings.ts';

/** A half-point count as people write it: 3, 3½, ½. */
export function halves(v: number): string {
  const whole = Math.floor(v);
  const half = v - whole >= 0.5;
  return whole === 0 && half ? '½' : `${whole}${half ? '½' : ''}`;
}

/** The Swiss table rows: rank, bot, score, Buchholz, Sonneborn–Berger, game points, rounds (byes). */
export function swissRows(lines: readonly SwissLine[]): string[][] {
  return lines.map((l, i) => [String(i + 1), l.bot, halves(l.score), halves(l.buchholz), sbText(l.sonnebornBerger), halves(l.gamePoints), l.byes ? `${l.rounds} (${l.byes} bye)` : String(l.rounds)]);
}

/** The header of `swissRows`. */
export const SWISS_HEADER = ['#', 'bot', 'score', 'Buchholz', 'S-B', 'game pts', 'rounds'] as const;

/** Sonneborn–Berger sums quarter points (½ × ½): shown to two places when it needs them. */
function sbText(v: number): string {
  return Number.isInteger(v * 2) ? halves(v) : v.toFixed(2);
}

/** A round's name by how many rounds remain: Final, Semifinals, Quarterfinals, else Round k. */
export function roundName(k: number, rounds: number): string {
  const left = rounds - k;
  return left === 1 ? 'Final' : left === 2 ? 'Semifinals' : left === 3 ? 'Quarterfinals' : `Round ${k + 1}`;
}

/** One bracket match as a line: `[1] optimal 3½–½ [8] random → optimal`, with how it was decided unless on points. */
export function bracketMatchText(m: BracketMatch): string {
  if (m.b === null) return `[${m.seedA}] ${m.a}: bye`;
  const score = m.games ? ` ${halves(m.pointsA)}–${halves(m.pointsB)} ` : ' vs ';
  const result = m.winner === null ? (m.games ? ' (playing)' : '') : ` → ${m.winner}${m.decidedBy === 'points' ? '' : ` (${m.decidedBy === 'extra' ? 'after extra pairs' : 'level: higher seed'})`}`;
  return `[${m.seedA}] ${m.a}${score}[${m.seedB}] ${m.b}${result}`;
}

/** A knockout's standings. */
type Bracket = Extract<FormatStandings, { format: 'knockout' }>;

/** Rounds the whole bracket has (its first round holds half as many matches as places). */
export function bracketRounds(f: Bracket): number {
  return Math.log2((f.rounds[0]?.length ?? 1) * 2);
}

/** A bracket: each round's name, then its matches, indented; the champion last once known. */
export function bracketLines(f: Bracket): string[] {
  const out: string[] = [];
  const rounds = bracketRounds(f);
  f.rounds.forEach((round, k) => {
    out.push(`${roundName(k, rounds)}:`);
    for (const m of round) out.push(`  ${bracketMatchText(m)}`);
  });
  if (f.champion !== null) out.push(`Champion: ${f.champion}`);
  return out;
}

/** The line naming the anchor of a rating fit, or null without one. */
export function anchorLine(fit: RatingFit): string | null {
  return fit.anchor ? `ratings anchored: ${fit.anchor.bot} = ${fit.anchor.elo} Elo` : null;
}
