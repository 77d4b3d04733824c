import { describe, expect, it } from 'vitest';
import { run } from './run.ts';

describe('arena analyze piles --rule squares --count-cold', () => {
  it('prints c_N beside the fit: 13952 cold positions up to 10^6', async () => {
    const { code, out } = await run('analyze', 'piles', '--rule', 'squares', '--count-cold', '1000000');
    expect(code).toBe(0);
    expect(out).toMatch(/^cold positions \(P-positions of one pile\) up to 1000000: c_N = 13952$/m);
    expect(out).toMatch(/^Eppstein's fit 0\.897·N\^0\.698 = 13829\.1 /m);
  });

  it('--json gives { coldCount, fit } and, with --plot, the plot points ending at N', async () => {
    const { code, out } = await run('analyze', 'piles', '--rule', 'squares', '--count-cold', '267', '--json', '--plot');
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.coldCount).toBe(49); // GAMES.md's A030193 prefix: 49 cold positions up to 267
    expect(doc.fit).toBeCloseTo(0.897 * 267 ** 0.698, 6);
    expect(doc.plot.at(-1)).toEqual({ n: 267, coldCount: 49, fit: doc.fit });
  });

  it('--plot draws a chart within 80 columns; 2^k is accepted', async () => {
    const { code, out } = await run('analyze', 'piles', '--rule', 'squares', '--count-cold', '2^16', '--plot');
    expect(code).toBe(0);
    expect(out).toMatch(/up to 65536: c_N = /);
    expect(out).toContain('* c_n measured');
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('names the flag on bad input', async () => {
    const big = await run('analyze', 'piles', '--rule', 'squares', '--count-cold', '2^31');
    expect(big.code).not.toBe(0);
    expect(big.err).toMatch(/Expected `--count-cold` to be an integer in 0\.\.1073741824 \(or 2\^k, k ≤ 30\), got "2\^31"/);
    const nim = await run('analyze', 'piles', '--rule', 'nim', '--count-cold', '100');
    expect(nim.err).toMatch(/`--count-cold` is for piles --rule squares, got piles\{rule=nim/);
    const plot = await run('analyze', 'piles', '--rule', 'squares', '--plot');
    expect(plot.code).not.toBe(0);
    expect(plot.err).toMatch(/`--plot` goes with `--upto N` or `--count-cold N`/);
  });
});
