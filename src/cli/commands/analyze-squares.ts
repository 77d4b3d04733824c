/**
 * `arena analyze piles --rule squares --count-cold N [--plot]`: the number c_N of cold positions
 * (single-pile P-positions) of subtract-a-square up to N, beside Eppstein's fit 0.897·N^0.698,
 * and optionally a log–log chart of c_n for n ≤ N.
 */
import { z } from 'zod';
import { MAX_SQUARES_SIEVE, logSpacedCounts, squaresColdFit, squaresColdList } from '../../solvers/grundy.ts';
import { logLogChart } from '../../tui/charts/loglog-chart.ts';
import { integerText } from '../flags.ts';

/** Plot points (one per chart column is plenty). */
const PLOT_SAMPLES = 73;

/** What `--count-cold` adds to the JSON document and the text report. */
export interface ColdCountReport {
  readonly doc: { coldCount: number; fit: number; plot?: { n: number; coldCount: number; fit: number }[] };
  readonly text: string[];
}

/** `--count-cold`: an integer in 0..2^30, decimal or a power written `2^k`. */
export const COLD_BOUND = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*2\^\d{1,2}\s*$/.test(v) ? 2 ** Number(v.trim().slice(2)) : integerText(v)),
  z.number().int().min(0).max(MAX_SQUARES_SIEVE),
);

/** What `--count-cold` takes, in words. */
export const COLD_BOUND_EXPECTED = `an integer in 0..${MAX_SQUARES_SIEVE} (or 2^k, k ≤ 30)`;

/** Sieves the cold positions up to `upto` and reports c_N, the fit and (with `plot`) the chart. */
export function coldCountReport(upto: number, plot: boolean): ColdCountReport {
  const cold = squaresColdList(upto);
  const coldCount = cold.length;
  const fit = squaresColdFit(upto);
  const text = [
    `cold positions (P-positions of one pile) up to ${upto}: c_N = ${coldCount}`,
    `Eppstein's fit 0.897·N^0.698 = ${fit.toFixed(1)} (measured/fit ${upto > 0 ? (coldCount / fit).toFixed(4) : '-'})`,
  ];
  if (!plot) return { doc: { coldCount, fit }, text };
  const curve = logSpacedCounts(cold, upto, PLOT_SAMPLES);
  const points = curve.map(({ n, count }) => ({ n, coldCount: count, fit: squaresColdFit(n) }));
  text.push(
    '',
    ...logLogChart(
      [
        { label: 'fit 0.897·n^0.698', mark: '.', points: points.map((p) => ({ x: p.n, y: p.fit })) },
        { label: 'c_n measured', mark: '*', points: points.map((p) => ({ x: p.n, y: p.coldCount })) },
      ],
      { width: 80, height: 16, yTitle: 'c_n', xTitle: 'n (log scale)' },
    ),
  );
  return { doc: { coldCount, fit, plot: points }, text };
}
