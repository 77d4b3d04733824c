/**
 * Terminal pictures of `arena analyze --upto N --plot`: the outcome of every start pile as a strip
 * (the period made visible) and the nim-values of one pile as a curve (drawn by asciichart). Pure:
 * they return plain text lines, no colour and no terminal control.
 */
import { plot } from 'asciichart';

/** Glyph of each outcome class in a strip: P (the mover loses) stands out, N recedes. */
const STRIP_GLYPH: Readonly<Record<string, string>> = { P: '█', N: '·', L: 'L', R: 'R' };

/**
 * The outcome class of piles 0..N as rows of a strip, `perRow` piles per row (a multiple of the
 * period lines the pattern up in columns), each row labelled with its first pile.
 */
export function outcomeStrip(classes: readonly string[], width = 80, period?: number): string[] {
  const label = String(Math.max(0, classes.length - 1)).length;
  const room = Math.max(10, width - label - 1);
  // Rows of whole periods when the period fits, so P-positions stand in columns.
  const perRow = period && period <= room ? period * Math.floor(room / period) : Math.min(room, 10 * Math.floor(room / 10) || room);
  const lines: string[] = [];
  for (let start = 0; start < classes.length; start += perRow) {
    const row = classes.slice(start, start + perRow).map((c) => STRIP_GLYPH[c] ?? '?');
    lines.push(`${String(start).padStart(label)} ${row.join('')}`);
  }
  const used = [...new Set(classes)].sort();
  const legend: Record<string, string> = { P: '█ P: the mover loses', N: '· N: the mover wins', L: 'L: Left wins', R: 'R: Right wins' };
  // The legend, wrapped to the width.
  let line = '';
  for (const entry of used.map((c) => legend[c] ?? c)) {
    if (line && label + 1 + line.length + 3 + entry.length > width) {
      lines.push(`${' '.repeat(label + 1)}${line}`);
      line = entry;
    } else line = line ? `${line}   ${entry}` : entry;
  }
  if (line) lines.push(`${' '.repeat(label + 1)}${line}`);
  return lines;
}

/**
 * The nim-value of one pile 0..N as an asciichart curve `height` rows tall. When there are more
 * piles than columns, each column shows the largest value among the piles it covers.
 */
export function nimValueCurve(values: readonly number[], width = 80, height = 10): string[] {
  if (values.length === 0) return ['(nothing to plot)'];
  const max = Math.max(...values);
  const axis = String(max).length + 3; // asciichart's labels and its axis bar
  const cols = Math.max(10, width - axis - 1);
  const per = Math.ceil(values.length / cols);
  const series: number[] = [];
  for (let i = 0; i < values.length; i += per) series.push(Math.max(...values.slice(i, i + per)));
  // Whole-number rows: each row is `step` values, and the top row is a multiple of it.
  const step = Math.max(1, Math.ceil(max / Math.max(1, height)));
  const rows = Math.max(1, Math.ceil(max / step));
  const chart = plot(series, { min: 0, max: rows * step, height: rows, format: (x) => String(Math.round(x)).padStart(axis - 2) })
    .split('\n')
    .map((l) => l.trimEnd());
  const last = values.length - 1;
  const foot = `pile 0${' '.repeat(Math.max(1, series.length - 6 - String(last).length))}${last}`;
  chart.push(`${' '.repeat(axis - 1)}${foot}`);
  if (per > 1) chart.push(`${' '.repeat(axis - 1)}each column: the largest of ${per} piles`);
  return chart;
}
