/**
 * How the CLI reads its words (issue 30): each run writes to the channel it was given, a flag
 * value is judged by its schema (for a tournament flag, the spec's own field), yargs picks the
 * command, and a list flag takes one value each time it is given.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BOTS, tempDir } from '../arena/helpers.ts';
import { run } from './run.ts';

describe('the output channel', () => {
  it('two runs at once each write to their own channel and end with their own exit code', async () => {
    const [games, typo, analysis] = await Promise.all([run('games'), run('games', '--jsno'), run('analyze', 'subtraction', '--n', '13', '--json')]);
    expect(games.code).toBe(0);
    expect(games.out).toMatch(/^subtraction — /);
    expect(games.err).toBe('');
    expect(typo).toEqual({ code: 2, out: '', err: 'arena: Unknown option --jsno (did you mean `--json`?)\n' });
    expect(analysis.code).toBe(0);
    expect(JSON.parse(analysis.out)).toMatchObject({ variant: 'subtraction{moves=1,5,8,10;n=13}' });
  });
});

describe('flags', () => {
  it('a tournament flag is judged by the spec field it sets: its range, worded as the flag', async () => {
    const deals = await run('tournament', '--games', 'subtraction', '--deals', '1000001');
    expect(deals.err.trim()).toBe('arena: Expected --deals to be an integer from 1 to 1000000, got "1000001"');
    const concurrency = await run('tournament', '--games', 'subtraction', '--concurrency=0x10');
    expect(concurrency.err.trim()).toBe('arena: Expected --concurrency to be an integer from 1 to 256, got "0x10"');
  });

  it('a flag that takes a value has no --no- form', async () => {
    const r = await run('play', 'piles', '--no-bot');
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^arena: Unknown option --no-bot: --bot takes a value/);
  });

  it('a global flag before the command leaves the command to yargs', async () => {
    const r = await run('--theme', 'dark', 'games', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)[0]).toMatchObject({ id: 'subtraction' });
  });

  it('a list flag takes one value each time: the word after it is the spec file, not a second folder', async () => {
    const out = tempDir();
    const spec = join(tempDir(), 'small.json');
    writeFileSync(spec, JSON.stringify({ name: 'small', games: ['subtraction{n=12}'], bots: ['fx-random', 'fx-first'], deals: 1, isolation: 'none' }));
    const r = await run('tournament', '--bots-dir', FIXTURE_BOTS, spec, '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).spec).toMatchObject({ name: 'small', botDirs: [FIXTURE_BOTS] });
    expect(readdirSync(out)).toHaveLength(1);
  });
});
