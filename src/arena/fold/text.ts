/**
 * A standings table's rows and its game pairs' rows as text cells: the plain output lays them out
 * as aligned columns and the report as HTML tables (here, below both, as the staged formats' rows
 * are in `staged/text.ts`).
 */
import type { StandingsTable } from './standings.ts';

const num = (v: number, digits = 0): string => (Number.isFinite(v) ? v.toFixed(digits) : '-');

/** The header of `standingsRows`. */
export const STANDINGS_HEADER = ['#', 'bot', 'games', 'W', 'D', 'L', 'points', 'score%', 'elo', '95%', 'LOS', 'margin', 'forfeit T/C/I', 'acc%', 'blunders', 'ms mean', 'ms max'] as const;

/** Which columns of `STANDINGS_HEADER` hold numbers (aligned right). */
export const STANDINGS_NUMERIC: readonly boolean[] = STANDINGS_HEADER.map((_, i) => i !== 1 && i !== 12);

/**
 * One row per bot in standings order: rank, bot, games, W/D/L, points, score, rating with its
 * 95 % interval and the LOS over the next bot down, mean margin (scored games), forfeits by time,
 * crash and illegal move, accuracy and blunders (solved variants), mean and longest move (ms).
 */
export function standingsRows(t: StandingsTable): string[][] {
  const rating = new Map(t.ratings.ratings.map((r) => [r.bot, r]));
  return t.bots.map((b, i) => {
    const r = rating.get(b.bot);
    const acc = b.accuracy && b.accuracy.moves ? num((100 * b.accuracy.accurate) / b.accuracy.moves, 1) : '-';
    return [
      String(i + 1),
      b.bot,
      String(b.games),
      String(b.wins),
      String(b.draws),
      String(b.losses),
      num(b.points, 1),
      b.games ? num((100 * b.points) / b.games, 1) : '-',
      r ? num(r.elo) : '-',
      r ? `±${num(r.ci95)}` : '-',
      r?.losNext != null ? `${num(100 * r.losNext)}%` : '',
      b.scoredGames ? num(b.marginSum / b.scoredGames, 2) : '-',
      `${b.forfeits.timeout}/${b.forfeits.crash}/${b.forfeits['illegal-move']}`,
      acc,
      b.accuracy ? String(b.accuracy.blunders) : '-',
      num(b.meanMoveMs, 2),
      num(b.maxMoveMs, 1),
    ];
  });
}

/** The header of `pairsRows`: LL..WW count the pairs by the first bot's result in its two games. */
export const PAIRS_HEADER = ['bot', 'against', 'pairs', 'LL', 'LD', 'DD', 'WD', 'WW', 'score%'] as const;

/** One row per pairing: its pairs counted by the first bot's pair result, and that bot's score over them. */
export function pairsRows(t: StandingsTable): string[][] {
  return t.pairs.map((p) => {
    const n = p.counts.reduce((x, y) => x + y, 0);
    const score = n ? (100 * p.counts.reduce((s, c, k) => s + c * k, 0)) / (4 * n) : NaN;
    return [p.a, p.b, String(n), ...p.counts.map(String), num(score, 1)];
  });
}
