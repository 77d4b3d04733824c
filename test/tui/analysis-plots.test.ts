import { describe, expect, it } from 'vitest';
import { nimValueCurve, outcomeStrip } from '../../src/tui/analysis-plots.ts';
import { run } from '../cli/run.ts';

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
