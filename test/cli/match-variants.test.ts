import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { readLog, tempDir } from '../arena/helpers.ts';
import { run } from './run.ts';

/** The per-variant tables the plain output printed: the lines `variant{…}:` that head one. */
const variantTables = (text: string): string[] => [...text.matchAll(/^(\S+):$/gm)].map((m) => m[1]!);

describe('arena match without --games', () => {
  it('with --sprt, spreads the pairs the test folds over every variant, deal by deal', async () => {
    const out = tempDir();
    const { code, out: text } = await run('match', 'optimal', 'random', '--sprt', 'elo0=0,elo1=50', '--isolation', 'none', '--concurrency', '1', '--out', out);
    expect(code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    const [test] = summary.sprt;
    expect(test.decision).toBe('H1');
    const variants: string[] = summary.spec.games;
    expect(variants).toHaveLength(FAMILIES.length);
    // The pairs the test folded are the schedule's first ones: they take the variants in turn.
    expect(test.pairs).toBeGreaterThanOrEqual(variants.length);
    const folded = readLog(dir).filter((r) => r.index < 2 * test.pairs);
    expect(folded).toHaveLength(2 * test.pairs);
    const perVariant = variants.map((v) => folded.filter((r) => r.variant === v).length / 2);
    expect(Math.max(...perVariant) - Math.min(...perVariant)).toBeLessThanOrEqual(1);
    expect(Math.min(...perVariant)).toBeGreaterThanOrEqual(1);
    // A table for each variant that has games, and for no other.
    const played = variants.filter((v) => summary.standings.variants[v].games > 0);
    expect(variantTables(text)).toEqual(played);
  });

  it('prints no table for a variant without games (here: the ones the bot does not support)', async () => {
    const out = tempDir();
    const { code, out: text } = await run('match', 'parity', 'random', '--deals', '1', '--isolation', 'none', '--out', out);
    expect(code).toBe(0);
    // parity plays end-game only: its table is the one printed, the seven others had no game.
    expect(variantTables(text)).toEqual([expect.stringMatching(/^end-game\{/)]);
  });
});
