/**
 * Ratings with their 95 % intervals as text rows on one shared Elo axis, for the dashboard's
 * standings view beside the table. A chart of intervals is not something the terminal charting
 * libraries draw (asciichart draws line series), so this is the one small picture drawn here:
 * `├──●──┤` per bot, and an axis with a few round Elo ticks. Pure: returns the lines.
 */

/** One interval: a label (for tests and callers; not drawn), the estimate and the half-width. */
export interface IntervalRow {
  readonly label: string;
  readonly value: number;
  readonly halfWidth: number;
}

/** A round step (1, 2, 5 × 10^k) giving about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((k) => k * p >= raw) ?? 10) * p;
}

/**
 * One line per row (in the given order, so they sit beside a table's rows) of exactly `width`
 * columns, then an axis line and a tick-label line. Values outside the axis are clamped to it.
 */
export function intervalChart(rows: readonly IntervalRow[], width: number): string[] {
  const w = Math.max(12, width);
  if (rows.length === 0) return [];
  const lo = Math.min(...rows.map((r) => r.value - r.halfWidth));
  const hi = Math.max(...rows.map((r) => r.value + r.halfWidth));
  const span = Math.max(hi - lo, 1);
  const col = (x: number): number => Math.min(w - 1, Math.max(0, Math.round(((x - lo) / span) * (w - 1))));
  const lines = rows.map((r) => {
    const cells = Array<string>(w).fill(' ');
    const a = col(r.value - r.halfWidth);
    const b = col(r.value + r.halfWidth);
    for (let c = a; c <= b; c++) cells[c] = '─';
    cells[a] = '├';
    cells[b] = '┤';
    cells[col(r.value)] = '●';
    return cells.join('');
  });
  const step = tickStep(span, Math.max(2, Math.floor(w / 10)));
  const axis = Array<string>(w).fill('─');
  const labels = Array<string>(w).fill(' ');
  let free = 0;
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    const c = col(t);
    const text = `${t > 0 ? '+' : ''}${Math.round(t)}`;
    const at = Math.min(Math.max(0, c - Math.floor(text.length / 2)), w - text.length);
    if (at < free) continue;
    axis[c] = t === 0 ? '┼' : '┬';
    for (let i = 0; i < text.length; i++) labels[at + i] = text[i]!;
    free = at + text.length + 1;
  }
  lines.push(axis.join(''), labels.join(''));
  return lines;
}
