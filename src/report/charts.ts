import type { TopLevelSpec } from 'vega-lite';
import type { StandingsTable } from '../arena/fold/standings.ts';
import type { RatingPoint, ReportData, ReportVariant } from './data.ts';

/**
 * The report's charts as Vega-Lite specs, rendered to SVG at report time by Vega's headless view:
 * the page needs no script and no network to show them. Colours are mid-tones that read on a
 * light and a dark page; text and axis colours are set by the page's stylesheet, per scheme.
 */

/** A chart of the page: where it goes, and its spec. */
export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly spec: TopLevelSpec;
}

const WIDTH = 520;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

/** Settings every chart shares: transparent background, the page's font. */
const CONFIG = {
  background: null,
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, labelLimit: 220 },
  legend: { labelFontSize: 11, titleFontSize: 11 },
  title: { fontSize: 13, anchor: 'start' },
} as const;

/** Colour of each outcome class in the strips (P: the mover loses). */
const CLASS_COLORS = { P: '#d1495b', N: '#66a182', L: '#2e86ab', R: '#e39b3b' } as const;

const pct = (x: number): number => Math.round(x * 1000) / 10;

function withConfig(spec: Record<string, unknown>): TopLevelSpec {
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', config: CONFIG, ...spec } as unknown as TopLevelSpec;
}

/** Ratings with their 95 % intervals (best first), labelled with the LOS over the next bot down. */
export function ratingsChart(table: StandingsTable, id = 'ratings', title = 'Ratings (Elo, 95 % interval)'): ChartSpec {
  const values = table.ratings.ratings.map((r, i) => ({
    bot: r.bot,
    rank: i,
    elo: Math.round(r.elo),
    lo: Math.round(r.elo - r.ci95),
    hi: Math.round(r.elo + r.ci95),
    los: r.losNext === null ? '' : `LOS ${Math.round(r.losNext * 100)}%`,
  }));
  const y = { field: 'bot', type: 'nominal', sort: { field: 'rank' }, title: null };
  return {
    id,
    title,
    spec: withConfig({
      width: WIDTH - 160,
      height: { step: 26 },
      data: { values },
      layer: [
        { mark: { type: 'rule', strokeWidth: 2, color: '#2e86ab' }, encoding: { y, x: { field: 'lo', type: 'quantitative', title: 'Elo' }, x2: { field: 'hi' } } },
        {
          mark: { type: 'point', filled: true, size: 70, color: '#2e86ab' },
          encoding: { y, x: { field: 'elo', type: 'quantitative' }, tooltip: [{ field: 'bot' }, { field: 'elo' }, { field: 'lo' }, { field: 'hi' }] },
        },
        { mark: { type: 'text', align: 'left', dx: 6, dy: -9, fontSize: 10, color: '#8a929c' }, encoding: { y, x: { field: 'hi', type: 'quantitative' }, text: { field: 'los' } } },
      ],
    }),
  };
}

/** Each bot's rating over the tournaments of a ratings file: a line per bot, a point per tournament it played. */
export function ratingsHistoryChart(points: readonly RatingPoint[]): ChartSpec | null {
  if (points.length === 0) return null;
  const values = points.map((p) => ({ ...p, elo: Math.round(p.elo), lo: Math.round(p.elo - p.ci95), hi: Math.round(p.elo + p.ci95) }));
  const x = { field: 'tournament', type: 'ordinal', sort: { field: 'order' }, title: null, axis: { labelAngle: -30 } };
  const color = { field: 'bot', type: 'nominal', title: null };
  return {
    id: 'ratings-history',
    title: 'Ratings across tournaments (Elo, from the ratings file)',
    spec: withConfig({
      width: WIDTH - 160,
      height: 220,
      data: { values },
      layer: [
        { mark: { type: 'line', point: true }, encoding: { x, y: { field: 'elo', type: 'quantitative', title: 'Elo' }, color, tooltip: [{ field: 'bot' }, { field: 'tournament' }, { field: 'elo' }, { field: 'lo' }, { field: 'hi' }] } },
      ],
    }),
  };
}

/**
 * Score of each row bot against each column bot, as a heat map with the percentage in each cell;
 * bots in `order` (the pooled standings' order, so every variant's table reads alike).
 */
export function crosstableChart(table: StandingsTable, id: string, title: string, small = false, order: readonly string[] = table.bots.map((b) => b.bot)): ChartSpec {
  const values: { bot: string; opponent: string; score: number; label: string }[] = [];
  for (const a of order) {
    for (const b of order) {
      const cell = table.crosstable[a]?.[b];
      if (!cell || cell.games === 0) continue;
      values.push({ bot: a, opponent: b, score: cell.points / cell.games, label: `${Math.round((100 * cell.points) / cell.games)}` });
    }
  }
  const step = small ? 32 : 40;
  return {
    id,
    title,
    spec: withConfig({
      width: { step },
      height: { step },
      data: { values },
      encoding: {
        y: { field: 'bot', type: 'nominal', sort: order, title: null },
        x: { field: 'opponent', type: 'nominal', sort: order, title: null, axis: { orient: 'top', labelAngle: -40 } },
      },
      layer: [
        {
          mark: 'rect',
          encoding: {
            color: { field: 'score', type: 'quantitative', title: 'score', scale: { scheme: 'blueorange', domain: [0, 1], reverse: true }, legend: small ? null : { format: '.0%' } },
            tooltip: [{ field: 'bot' }, { field: 'opponent' }, { field: 'score', format: '.0%' }],
          },
        },
        {
          mark: { type: 'text', fontSize: small ? 10 : 11 },
          encoding: {
            text: { field: 'label' },
            color: { condition: { test: 'datum.score < 0.2 || datum.score > 0.8', value: 'white' }, value: '#111' },
          },
        },
      ],
    }),
  };
}

/** Accuracy of each bot in each family (share of moves that kept the best result), blunders written in. */
export function accuracyChart(data: ReportData): ChartSpec | null {
  const sums = new Map<string, { bot: string; family: string; moves: number; accurate: number; blunders: number }>();
  for (const v of data.variants) {
    const t = data.standings.variants[v.id];
    if (!t) continue;
    for (const b of t.bots) {
      if (!b.accuracy || b.accuracy.moves === 0) continue;
      const key = `${b.bot}\t${v.family}`;
      const s = sums.get(key) ?? { bot: b.bot, family: v.family, moves: 0, accurate: 0, blunders: 0 };
      s.moves += b.accuracy.moves;
      s.accurate += b.accuracy.accurate;
      s.blunders += b.accuracy.blunders;
      sums.set(key, s);
    }
  }
  if (sums.size === 0) return null;
  const values = [...sums.values()].map((s) => ({ ...s, accuracy: s.accurate / s.moves, label: `${Math.round((100 * s.accurate) / s.moves)}% · ${s.blunders}✗` }));
  const order = data.standings.pooled.bots.map((b) => b.bot);
  return {
    id: 'accuracy',
    title: 'Accuracy by family (moves that kept the best result · blunders)',
    spec: withConfig({
      width: { step: 92 },
      height: { step: 28 },
      data: { values },
      encoding: {
        y: { field: 'bot', type: 'nominal', sort: order, title: null },
        x: { field: 'family', type: 'nominal', title: null, axis: { orient: 'top', labelAngle: 0 } },
      },
      layer: [
        {
          mark: 'rect',
          encoding: {
            color: { field: 'accuracy', type: 'quantitative', title: 'accuracy', scale: { scheme: 'redyellowgreen', domain: [0.5, 1] }, legend: { format: '.0%' } },
            tooltip: [{ field: 'bot' }, { field: 'family' }, { field: 'moves' }, { field: 'accuracy', format: '.1%' }, { field: 'blunders' }],
          },
        },
        { mark: { type: 'text', fontSize: 10, color: '#111' }, encoding: { text: { field: 'label' } } },
      ],
    }),
  };
}

/**
 * Move times per bot as box plots on a log scale (whiskers min to max, box the quartiles, tick the
 * median: drawn from quantiles computed over every move, so a million-game log makes the same small
 * chart), with the time limit and the time forfeits marked.
 */
export function moveTimeChart(data: ReportData): ChartSpec | null {
  if (data.moveTimes.length === 0) return null;
  const order = data.standings.pooled.bots.map((b) => b.bot);
  // Sub-microsecond moves read as 0 on a clock: shown at 1 µs so the log scale can place them.
  const floor = (x: number): number => Math.max(x, 0.001);
  const values = data.moveTimes.map((t) => ({ bot: t.bot, moves: t.moves, min: floor(t.min), q1: floor(t.q1), median: floor(t.median), q3: floor(t.q3), max: floor(t.max) }));
  const limit = data.timePerMoveMs;
  const forfeits = Object.entries(data.timeForfeits).map(([bot, n]) => ({ bot, ms: limit ?? Math.max(...values.map((v) => v.max)), n, label: `${n} lost on time` }));
  const y = { field: 'bot', type: 'nominal', sort: order, title: null };
  const x = (field: string, extra: Record<string, unknown> = {}) => ({ field, type: 'quantitative', scale: { type: 'log' }, ...extra });
  const tooltip = [{ field: 'bot' }, { field: 'moves' }, { field: 'min', format: '.3f' }, { field: 'q1', format: '.3f' }, { field: 'median', format: '.3f' }, { field: 'q3', format: '.3f' }, { field: 'max', format: '.3f' }];
  const layers: Record<string, unknown>[] = [
    { data: { values }, mark: { type: 'rule', color: '#2e86ab' }, encoding: { y, x: x('min', { axis: { tickCount: 6, labelOverlap: 'greedy' }, title: 'move time (ms, log scale)' }), x2: { field: 'max' }, tooltip } },
    { data: { values }, mark: { type: 'bar', size: 14, color: '#2e86ab' }, encoding: { y, x: x('q1'), x2: { field: 'q3' }, tooltip } },
    { data: { values }, mark: { type: 'tick', color: '#f4a259', thickness: 2, size: 14 }, encoding: { y, x: x('median'), tooltip } },
  ];
  if (limit !== null) layers.push({ data: { values: [{ limit }] }, mark: { type: 'rule', color: '#d1495b', strokeDash: [4, 3] }, encoding: { x: { field: 'limit', type: 'quantitative' } } });
  if (forfeits.length > 0) {
    layers.push({ data: { values: forfeits }, mark: { type: 'point', shape: 'cross', size: 120, color: '#d1495b', filled: true }, encoding: { y, x: { field: 'ms', type: 'quantitative' } } });
    layers.push({ data: { values: forfeits }, mark: { type: 'text', align: 'left', dx: 8, color: '#d1495b', fontSize: 10 }, encoding: { y, x: { field: 'ms', type: 'quantitative' }, text: { field: 'label' } } });
  }
  return {
    id: 'move-times',
    title: `Move times per bot: min–max, quartiles, median${limit !== null ? ` (dashed: the ${limit} ms limit; ✕ time forfeits)` : ''}`,
    spec: withConfig({ width: WIDTH - 160, height: { step: 30 }, layer: layers }),
  };
}

/** A Wilson 95 % interval for a share of `n` trials (draws count half). */
function wilson(share: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
  const d = 1 + (z * z) / n;
  const c = (share + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((share * (1 - share)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

/** Longest line of a variant's label in the first-mover chart (characters), and its line height (px). */
const LABEL_LINE = 22;
const LINE = 13;

/**
 * A variant's id as label lines, never cut (variants of one family differ only at the end of their
 * ids): the family, then its parameters, broken after a `;` where a line would pass `LABEL_LINE`.
 */
export function labelLines(id: string): string[] {
  const brace = id.indexOf('{');
  if (brace <= 0) return [id];
  const lines = [id.slice(0, brace)];
  let line = '';
  for (const part of id.slice(brace).split(/(?<=;)/)) {
    if (line && line.length + part.length > LABEL_LINE) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  lines.push(line);
  return lines;
}

/**
 * Per variant: the share of start positions the first mover wins with perfect play (the solver's,
 * over the variant's deals) beside the score the first mover's seat made in the tournament.
 */
export function firstMoverChart(variants: readonly ReportVariant[]): ChartSpec | null {
  const values: Record<string, unknown>[] = [];
  // Every label padded to the same number of lines, half above and half below, so that a constant
  // offset centres each on its row.
  const lines = Math.max(...variants.map((v) => labelLines(v.id).length));
  for (const v of variants) {
    const own = labelLines(v.id);
    const above = Math.floor((lines - own.length) / 2);
    const row = [...Array<string>(above).fill(''), ...own, ...Array<string>(lines - own.length - above).fill('')].join('\n');
    if (v.odds) {
      const share = v.odds.win + v.odds.draw / 2;
      values.push({ variant: v.id, row, kind: v.odds.exact ? 'solver: every deal' : `solver: ${v.odds.positions} sampled deals`, share, lo: share, hi: share, label: `${pct(v.odds.win)}% won${v.odds.draw > 0 ? `, ${pct(v.odds.draw)}% drawn` : ''}` });
    }
    if (v.observed.games > 0) {
      const share = v.observed.moverPoints / v.observed.games;
      const [lo, hi] = wilson(share, v.observed.games);
      values.push({ variant: v.id, row, kind: 'observed in this tournament', share, lo, hi, label: `${pct(share)}% of ${v.observed.games} games` });
    }
  }
  if (values.length === 0) return null;
  const y = { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0, labelExpr: "split(datum.label, '\\n')", labelLineHeight: LINE, labelOffset: (-(lines - 1) * LINE) / 2 } };
  const color = {
    field: 'kind',
    type: 'nominal',
    title: null,
    scale: { range: ['#f4a259', '#2e86ab', '#66a182', '#8e7dbe'] },
    legend: { orient: 'bottom', direction: 'vertical', labelLimit: 400 },
  };
  // A row per variant, tall enough for its label's lines.
  const rows = new Set(values.map((v) => v['variant'])).size;
  return {
    id: 'first-mover',
    title: 'First-mover advantage: exact (solver) and observed (first mover’s score, 95 % interval)',
    spec: withConfig({
      width: WIDTH - 200,
      height: rows * Math.max(40, LINE * lines + 8),
      data: { values },
      encoding: { y, yOffset: { field: 'kind' }, color },
      layer: [
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lo', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'share of points to the player who moves first' }, x2: { field: 'hi' } } },
        { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'share', type: 'quantitative' }, tooltip: [{ field: 'variant' }, { field: 'kind' }, { field: 'label' }] } },
        { data: { values: [{ x: 0.5 }] }, mark: { type: 'rule', strokeDash: [2, 3], color: '#888' }, encoding: { x: { field: 'x', type: 'quantitative' }, y: null, yOffset: null, color: null } },
      ],
    }),
  };
}

/** The outcome class of every start pile of a one-pile variant, as a strip; the dealt range bracketed. */
export function stripChart(v: ReportVariant, index: number): ChartSpec | null {
  const s = v.strip;
  if (!s) return null;
  const values = s.classes.map((c, n) => ({ n, n1: n + 1, class: c }));
  const classes = [...new Set(s.classes)].sort();
  const period = s.period ? ` · period ${s.period.period}${s.period.preperiod > 0 ? ` after ${s.period.preperiod}` : ''}` : '';
  const [lo, hi] = s.dealt;
  const last = s.classes.length - 1;
  const band = lo <= last ? [{ lo, hi: Math.min(hi, last) + 1, label: `dealt ${lo}..${hi}` }] : [];
  return {
    id: `strip-${index}`,
    title: `${v.id}: outcome of each start pile 0..${last}${period}${band.length ? ' (grey bar: the dealt range)' : ''}`,
    spec: withConfig({
      width: WIDTH,
      height: 40,
      layer: [
        {
          data: { values },
          mark: { type: 'rect' },
          encoding: {
            y: { value: 0 },
            y2: { value: 28 },
            x: { field: 'n', type: 'quantitative', title: 'start pile n', scale: { domain: [0, last + 1], nice: false } },
            x2: { field: 'n1' },
            color: {
              field: 'class',
              type: 'nominal',
              title: 'mover',
              scale: { domain: classes, range: classes.map((c) => CLASS_COLORS[c as keyof typeof CLASS_COLORS] ?? '#999') },
              legend: { orient: 'right', labelExpr: "{P: 'P loses', N: 'N wins', L: 'Left wins', R: 'Right wins'}[datum.label]" },
            },
            tooltip: [{ field: 'n' }, { field: 'class' }],
          },
        },
        ...band.map((b) => ({
          data: { values: [b] },
          mark: { type: 'rule', strokeWidth: 4, color: '#888' },
          encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' }, y: { value: 35 }, tooltip: [{ field: 'label' }] },
        })),
      ],
    }),
  };
}

/** Nim-values of one pile 0..N (piles family), as a line with points. */
export function nimValueChart(v: ReportVariant, index: number): ChartSpec | null {
  if (!v.nimValues) return null;
  const values = v.nimValues.map((g, n) => ({ n, g }));
  return {
    id: `nim-${index}`,
    title: `${v.id}: nim-value of one pile (a position is lost for the mover when the piles' values XOR to 0)`,
    spec: withConfig({
      width: WIDTH,
      height: 120,
      data: { values },
      mark: { type: 'line', point: { size: 14 }, color: '#2e86ab', interpolate: 'step-after' },
      encoding: { x: { field: 'n', type: 'quantitative', title: 'pile size n' }, y: { field: 'g', type: 'quantitative', title: 'nim-value' } },
    }),
  };
}

/** Every chart of the report, in page order by section. */
export function reportCharts(data: ReportData): {
  readonly ratings: ChartSpec;
  readonly ratingsHistory: ChartSpec | null;
  readonly crosstable: ChartSpec;
  /** Each variant's crosstable, in `data.variants` order (null for a variant without games). */
  readonly variantCrosstables: readonly (ChartSpec | null)[];
  readonly accuracy: ChartSpec | null;
  readonly moveTimes: ChartSpec | null;
  readonly firstMover: ChartSpec | null;
  readonly patterns: readonly ChartSpec[];
} {
  const order = data.standings.pooled.bots.map((b) => b.bot);
  const variantCrosstables = data.variants.map((v, i) => {
    const t = data.standings.variants[v.id];
    return t && t.games > 0 ? crosstableChart(t, `cross-${i}`, v.id, true, order) : null;
  });
  const patterns = data.variants.flatMap((v, i) => [stripChart(v, i), nimValueChart(v, i)].filter((c): c is ChartSpec => c !== null));
  return {
    ratings: ratingsChart(data.standings.pooled),
    ratingsHistory: data.ratingsHistory && 'points' in data.ratingsHistory ? ratingsHistoryChart(data.ratingsHistory.points) : null,
    crosstable: crosstableChart(data.standings.pooled, 'cross-pooled', 'All variants'),
    variantCrosstables,
    accuracy: accuracyChart(data),
    moveTimes: moveTimeChart(data),
    firstMover: firstMoverChart(data.variants),
    patterns,
  };
}

/**
 * Renders a spec to an SVG string with Vega's headless view (no DOM, no canvas). Ids inside the
 * SVG (gradients, clips) get the chart's id as a prefix, so several charts can share one page.
 */
export async function renderSvg(chart: ChartSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vl.compile(chart.spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg
    .replace(/\bid="([^"]+)"/g, (_m, id: string) => `id="${chart.id}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${chart.id}-${id})`)
    .replace('<svg ', `<svg role="img" aria-label="${escapeHtml(chart.title)}" data-chart="${chart.id}" `);
}

/** Text safe inside HTML and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
