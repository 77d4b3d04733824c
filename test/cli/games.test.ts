import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { run } from './run.ts';

describe('arena games', () => {
  it('lists every family with its parameters and notation', async () => {
    const { code, out } = await run('games');
    expect(code).toBe(0);
    for (const f of FAMILIES) {
      expect(out).toContain(`${f.id} — `);
      for (const name of Object.keys(f.params)) expect(out).toContain(`--${name}`);
    }
  });

  it('prints JSON with --json', async () => {
    const { out } = await run('games', '--json');
    const doc = JSON.parse(out) as { id: string; params: { name: string }[] }[];
    expect(doc.map((f) => f.id)).toEqual(FAMILIES.map((f) => f.id));
  });

  it('rejects an unknown command with exit code 2', async () => {
    const { code, err } = await run('gmaes');
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown command/);
  });
});
