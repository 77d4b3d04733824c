/**
 * A log–log chart as plain text lines (no colour, no terminal control), for `arena analyze piles
 * --rule squares --count-cold N --plot`: every series is drawn with its own character on a grid
 * with decade ticks on the y axis and power-of-two ticks on the x axis. Pure: returns the lines.
 */

/** One series to draw: `mark` (one character) at each point; points with x ≤ 0 or y ≤ 0 are skipped. */
export interface ChartSeries {
  readonly label: string;
  readonly mark: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/** Layout of the chart: total width in characters (default 80), plot rows (default 16), axis titles. */
export interface ChartOptions {
  readonly width?: number;
  readonly height?: number;
  readonly xTitle?: string;
  readonly yTitle?: string;
}

/** A compact label for a power of ten: 1, 10, 100, 1k, 10k, 100k, 1M, …, 1G. */
function decadeLabel(k: number): string {
  const units = ['', 'k', 'M', 'G', 'T'];
  const unit = units[Math.floor(k / 3)];
  return unit === undefined ? `1e${k}` : `${10 ** (k % 3)}${unit}`;
}

/**
 * Draws the series on one log–log grid. Later series are drawn over earlier ones where they meet,
 * so put the measured data last. Every line is at most `width` characters; no trailing spaces.
 */
export function logLogChart(series: readonly ChartSeries[], options: ChartOptions = {}): string[] {
  const width = Math.max(30, options.width ?? 80);
  const height = Math.max(4, options.height ?? 16);
  const points = series.flatMap((s) => s.points.filter((p) => p.x > 0 && p.y > 0));
  if (points.length === 0) return ['(nothing to plot)'];
  const lx = points.map((p) => Math.log10(p.x));
  const ly = points.map((p) => Math.log10(p.y));
  const x0 = Math.min(...lx);
  const y0 = Math.min(...ly);
  // A degenerate range (one point, or a flat series) still gets a usable scale.
  const x1 = Math.max(Math.max(...lx), x0 + 1e-9);
  const y1 = Math.max(Math.max(...ly), y0 + 1e-9);
  const margin = 6; // y labels ("100k") and the axis bar
  const cols = width - margin - 1;
  const grid = Array.from({ length: height }, () => Array<string>(cols).fill(' '));
  const col = (x: number): number => Math.round(((Math.log10(x) - x0) / (x1 - x0)) * (cols - 1));
  const row = (y: number): number => height - 1 - Math.round(((Math.log10(y) - y0) / (y1 - y0)) * (height - 1));
  for (const s of series) {
    const mark = s.mark.charAt(0) || '*';
    for (const p of s.points) if (p.x > 0 && p.y > 0) grid[row(p.y)]![col(p.x)] = mark;
  }
  // y ticks at powers of ten inside the range.
  const yLabels = new Map<number, string>();
  for (let k = Math.ceil(y0 - 1e-9); k <= y1 + 1e-9; k++) yLabels.set(row(10 ** k), decadeLabel(k));
  const lines: string[] = [];
  const legend = series.map((s) => `${s.mark.charAt(0) || '*'} ${s.label}`).join('   ');
  lines.push(((options.yTitle ? `${options.yTitle}   ` : '') + legend).slice(0, width));
  grid.forEach((cells, r) => {
    const label = (yLabels.get(r) ?? '').padStart(margin - 1);
    lines.push(`${label}${yLabels.has(r) ? '+' : '|'}${cells.join('')}`.trimEnd());
  });
  // x axis: a tick under each power of two that gets its own room, labelled 2^k.
  const axis = Array<string>(cols).fill('-');
  const labels = Array<string>(cols).fill(' ');
  const firstK = Math.ceil(x0 / Math.log10(2) - 1e-9);
  const lastK = Math.floor(x1 / Math.log10(2) + 1e-9);
  const stepK = Math.max(1, Math.ceil(((lastK - firstK + 1) * 5) / cols)); // about 5 columns per label
  let free = 0; // first column a new label may use
  for (let k = firstK; k <= lastK; k += stepK) {
    const c = col(2 ** k);
    const text = `2^${k}`;
    const at = Math.min(Math.max(0, c - Math.floor(text.length / 2)), cols - text.length);
    if (at < free) continue;
    axis[c] = '+';
    for (let i = 0; i < text.length; i++) labels[at + i] = text[i]!;
    free = at + text.length + 1;
  }
  lines.push(`${' '.repeat(margin - 1)}+${axis.join('')}`);
  lines.push(`${' '.repeat(margin)}${labels.join('')}`.trimEnd());
  if (options.xTitle) lines.push(`${' '.repeat(margin)}${options.xTitle}`.slice(0, width));
  return lines;
}
