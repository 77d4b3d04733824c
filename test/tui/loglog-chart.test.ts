import { describe, expect, it } from 'vitest';
import { logLogChart } from '../../src/tui/charts/loglog-chart.ts';

describe('logLogChart', () => {
  const line = (a: number, b: number, m: number) => Array.from({ length: 30 }, (_, i) => ({ x: 2 ** (i * m), y: a * 2 ** (i * m * b) }));

  it('fits 80 columns, labels decades and powers of two, and draws a power law as a straight line', () => {
    const lines = logLogChart([{ label: 'c_n', mark: '*', points: line(1, 0.7, 1) }], { width: 80, height: 12, xTitle: 'n' });
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toContain('* c_n');
    expect(lines.join('\n')).toMatch(/^ +1\+/m); // y tick at 10^0
    expect(lines.join('\n')).toMatch(/^ +1M\+/m); // y runs from 1 to 2^(29·0.7) ≈ 1.3·10^6
    expect(lines.some((l) => l.includes('2^0') && /2\^2[4-9]/.test(l))).toBe(true);
    // A straight line on log–log axes: the mark's row falls (the chart rises) steadily left to right.
    const grid = lines.slice(1, 13);
    const rows: number[] = [];
    for (let c = 6; c < 80; c++) {
      const r = grid.findIndex((l) => l[c] === '*');
      if (r >= 0) rows.push(r);
    }
    expect(rows.length).toBeGreaterThan(20);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!).toBeLessThanOrEqual(rows[i - 1]!);
    expect(rows[0]).toBe(11);
    expect(rows[rows.length - 1]).toBe(0);
  });

  it('draws later series over earlier ones and lists both in the legend', () => {
    const pts = line(1, 0.5, 1);
    const lines = logLogChart([
      { label: 'fit', mark: '.', points: pts },
      { label: 'measured', mark: '*', points: pts },
    ]);
    expect(lines[0]).toContain('. fit');
    expect(lines[0]).toContain('* measured');
    expect(lines.slice(1).join('')).not.toContain('.');
  });

  it('skips non-positive points and says so when nothing is left', () => {
    expect(logLogChart([{ label: 'x', mark: '*', points: [{ x: 0, y: 5 }, { x: 3, y: 0 }] }])).toEqual(['(nothing to plot)']);
    const one = logLogChart([{ label: 'x', mark: '*', points: [{ x: 8, y: 5 }] }], { height: 5 });
    expect(one.join('\n')).toContain('*');
  });
});
