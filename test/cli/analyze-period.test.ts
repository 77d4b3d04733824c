import { describe, expect, it } from 'vitest';
import { run } from './run.ts';

describe('arena analyze --period and piles up to 2^63 − 1', () => {
  it('prints the period of the subtraction outcomes, {1,5,8,10}: period 13 from 0', async () => {
    const { code, out } = await run('analyze', 'subtraction', '--moves', '1,5,8,10', '--period');
    expect(code).toBe(0);
    expect(out).toMatch(/^period: preperiod 0, period 13$/m);
  });

  it('gives {preperiod, period} in --json for no-repeat (seed 000: S = {1..5}, period 13)', async () => {
    const { code, out } = await run('analyze', 'no-repeat', '--moves', '1,2,3,4,5', '--period', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out).period).toEqual({ preperiod: 9, period: 13 });
  });

  it('finds partizan and finite-set nim-value periods', async () => {
    const pz = await run('analyze', 'partizan', '--left', '2,5,9', '--right', '3,4,8', '--period', '--json');
    expect(JSON.parse(pz.out).period).toEqual({ preperiod: 10, period: 1 });
    const piles = await run('analyze', 'piles', '--rule', '1,3,4', '--period');
    expect(piles.out).toMatch(/^period: preperiod 0, period 7$/m);
  });

  it('refuses --period where no period exists, naming the flag', async () => {
    const { code, err } = await run('analyze', 'piles', '--rule', 'squares', '--period');
    expect(code).not.toBe(0);
    expect(err).toMatch(/`--period` is not available for piles\{rule=squares/);
  });

  it('answers n = 10^18 exactly, keeping every digit of the pile in text and JSON', async () => {
    const text = await run('analyze', 'subtraction', '--moves', '1,5,8,10', '--n', '1000000000000000000');
    expect(text.code).toBe(0);
    // 10^18 ≡ 1 (mod 13): not a P-residue {0,2,4,6}, and taking 10 leaves ≡ 4, a P-position.
    expect(text.out).toMatch(/pile 1000000000000000000, first to move/);
    expect(text.out).toMatch(/outcome: +N/);
    expect(text.out).toMatch(/best move: +10\b/);
    const json = await run('analyze', 'subtraction', '--moves', '1,5,8,10', '--n', '1000000000000000001', '--json');
    const doc = JSON.parse(json.out);
    expect(doc.variant).toBe('subtraction{moves=1,5,8,10;n=1000000000000000001}');
    expect(doc.params.n).toEqual({ min: '1000000000000000001', max: '1000000000000000001' });
    expect(doc.position.state).toEqual({ pile: '1000000000000000001' });
    // 10^18 + 1 ≡ 2 (mod 13): a P-position, so the best move is the smallest take.
    expect(doc.position).toMatchObject({ outcome: 'P', bestMove: '1' });
  });

  it('rejects a pile above 2^63 − 1 with the field named', async () => {
    const { code, err } = await run('analyze', 'subtraction', '--n', '9223372036854775808');
    expect(code).not.toBe(0);
    expect(err).toMatch(/Expected `n` to be .*got "9223372036854775808"/);
  });
});
