import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CHART_MIN_WIDTH, Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { recordedEvents, recording } from './recorded-stream.ts';
import { nimValueCurve, outcomeStrip } from '../../src/tui/charts/analysis-plots.ts';
import { intervalChart } from '../../src/tui/charts/interval-chart.ts';
import { run } from '../cli/run.ts';
import { until } from './frames.ts';

describe('analysis plots', () => {
  it('draws the P-positions as a strip, whole periods per row so they line up in columns', () => {
    // subtraction {1,3,4}: P exactly at n ≡ 0, 2 (mod 7).
    const classes = Array.from({ length: 50 }, (_, n) => (n % 7 === 0 || n % 7 === 2 ? 'P' : 'N'));
    const lines = outcomeStrip(classes, 30, 7);
    expect(lines[0]).toBe(' 0 █·█····█·█····█·█····');
    expect(lines[1]).toBe('21 █·█····█·█····█·█····');
    expect(lines[2]).toBe('42 █·█····█');
    expect(lines.at(-1)).toContain('█ P: the mover loses');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(30);
  });

  it('draws nim-values as a curve whose rows are whole values, the top one the largest value', () => {
    const values = Array.from({ length: 40 }, (_, n) => n % 5);
    const lines = nimValueCurve(values, 80);
    expect(lines[0]).toMatch(/^\s*4[┤┼]/);
    expect(lines[4]).toMatch(/^\s*0[┤┼]/);
    expect(lines.at(-1)).toMatch(/pile 0\s+39$/);
  });

  it('covers many piles with one column each for several, showing the largest', () => {
    const values = Array.from({ length: 1000 }, (_, n) => (n === 777 ? 9 : 1));
    const lines = nimValueCurve(values, 60);
    expect(lines[0]).toMatch(/^\s*9[┤┼]/);
    expect(lines.at(-1)).toMatch(/each column: the largest of \d+ piles/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
  });

  it('arena analyze --upto --plot prints the strip (and puts it in --json)', async () => {
    const { code, out } = await run('analyze', 'subtraction', '--moves', '1,3,4', '--upto', '20', '--plot', '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(out) as { plot: string[] };
    expect(doc.plot[0]).toMatch(/^ ?0 █·█····█·█····█·█····$/);
    const bad = await run('analyze', 'subtraction', '--plot');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--plot` goes with `--upto N` or `--count-cold N`/);
  });
});

describe('ratings interval chart', () => {
  it('draws each interval on one shared axis, the estimate inside it, ticks at round Elo values', () => {
    const lines = intervalChart(
      [
        { label: 'a', value: 200, halfWidth: 100 },
        { label: 'b', value: 0, halfWidth: 50 },
        { label: 'c', value: -200, halfWidth: 100 },
      ],
      41,
    );
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l.length).toBe(41);
    // The axis runs -300..300 over 41 columns: 15 Elo a column.
    expect(lines[0]).toBe(`${' '.repeat(27)}├─────●──────┤`); // 100 → column 26.7, 200 → 33.3
    expect(lines[1]).toBe(`${' '.repeat(17)}├──●──┤${' '.repeat(17)}`);
    expect(lines[2]).toBe(`├──────●─────┤${' '.repeat(27)}`);
    expect(lines[3]!.charAt(20)).toBe('┼');
    expect(lines[4]).toMatch(/^ +-200 +0 +\+200 *$/);
  });
});

describe('dashboard standings view with the ratings chart', () => {
  for (const width of [130, 100]) {
    it(`${width >= CHART_MIN_WIDTH ? 'draws the chart beside the table, a row per bot' : 'shows only the table'} at ${width} columns`, async () => {
      const store = new DashboardStore(5);
      const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={width} height={40} />);
      try {
        for (const e of recordedEvents()) store.push(e);
        await until(r.lastFrame, 'Finished');
        r.stdin.write('2');
        const lines = (await until(r.lastFrame, /^#\s+bot/m)).split('\n');
        const head = lines.findIndex((l) => /^#\s+bot/.test(l));
        expect(head).toBeGreaterThan(0);
        const table = recording().finished.summary.standings.pooled;
        if (width >= CHART_MIN_WIDTH) {
          expect(lines[head]).toMatch(/Elo, 95 % interval$/);
          for (const [i, bot] of table.bots.entries()) expect(lines[head + 1 + i]).toMatch(new RegExp(`^${i + 1}\\s+${bot.bot}\\s.*├─*●─*┤`));
        } else {
          expect(r.lastFrame()).not.toContain('Elo, 95 % interval');
          expect(r.lastFrame()).not.toMatch(/├─*●/);
        }
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
      } finally {
        r.unmount();
      }
    });
  }
});
