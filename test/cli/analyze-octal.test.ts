import { describe, expect, it } from 'vitest';
import { run } from './run.ts';

describe('arena games and arena analyze for octal games', () => {
  it('lists the octal and grundy families with their parameters', async () => {
    const { code, out } = await run('games');
    expect(code).toBe(0);
    expect(out).toMatch(/^octal — Octal games/m);
    expect(out).toMatch(/^grundy — Grundy's game/m);
    expect(out).toMatch(/--code\s+the octal code d0\.d1d2… .*\(default 0\.77\)/);
    expect(out).toMatch(/--misere\s+misère play/);
  });

  it('proves Kayles’ period by Guy–Smith and says what the proof needed', async () => {
    const { code, out } = await run('analyze', 'octal', '--code', 'kayles', '--period', '--upto', '15');
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7$/m);
    expect(out).toMatch(/^period: 12 from heap 71 \(pre-period 71; last exception 70\)$/m);
    expect(out).toMatch(/needs 167\)$/m);
  });

  it('gives the proof in --json, and says when the search limit is too short', async () => {
    const json = await run('analyze', 'octal', '--code', '0.07', '--period', '--json');
    expect(JSON.parse(json.out).period).toMatchObject({ preperiod: 53, period: 34, lastException: 52 });
    const short = await run('analyze', 'octal', '--code', '0.127', '--period', '--period-limit', '2^14');
    expect(short.out).toMatch(/^period: not proven within 16384 heaps/m);
    const grundy = await run('analyze', 'grundy', '--period', '--period-limit', '5000');
    expect(grundy.out).toMatch(/no periodicity theorem covers Grundy's game/);
  });

  it('refuses a bad code and a bad limit in one line', async () => {
    const bad = await run('analyze', 'octal', '--code', '0.78');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/^arena: Expected `code` to be an octal code/m);
    const limit = await run('analyze', 'octal', '--period', '--period-limit', 'lots');
    expect(limit.code).not.toBe(0);
    expect(limit.err).toMatch(/Expected `--period-limit` to be a number of heaps/);
  });
});
