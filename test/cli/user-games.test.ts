/**
 * Game families users drop in (docs/WRITE-A-GAME.md), through the real bin: `arena new-game`
 * writes a game that passes `arena games check` and plays a tournament (the bots in their own
 * processes), a report and an analysis; the check catches a `play` that mutates, a key that
 * collides, a solver that is wrong and a game that never ends; a broken game file is one line
 * naming it, whatever command meets it.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../arena/helpers.ts';
import { arena as spawnArena, isUsageError, type Ran } from './spawn.ts';

/** The real bin. */
const arena = (args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<Ran> => spawnArena(args, options);

const FIXTURES = 'test/fixtures/games';

/** A folder holding only the named fixture files (a folder is loaded whole). */
function folderOf(...names: string[]): string {
  const dir = tempDir('arena-games-');
  for (const name of names) copyFileSync(join(FIXTURES, name), join(dir, name));
  return dir;
}

interface BotLine {
  readonly bot: string;
  readonly games: number;
  readonly wins: number;
  readonly accuracy: { readonly moves: number; readonly accurate: number };
}

describe('a game from a temporary folder', () => {
  it('new-game writes Kayles that passes the check, plays a tournament, a report and an analysis', async () => {
    const dir = tempDir('arena-games-');
    const made = await arena(['new-game', 'kayles', '--dir', dir]);
    expect(made.code).toBe(0);
    expect(made.out).toContain(join(dir, 'kayles.ts'));

    // The check, the tournament (then its report) and the analysis each read the game on their own: side by side.
    const out = tempDir();
    const [check, t, analysis] = await Promise.all([
      arena(['games', 'check', join(dir, 'kayles.ts'), '--variant', 'kayles{rows=3;pins=1..6}']),
      arena(['tournament', '--games-dir', dir, '--games', 'kayles{rows=2}', '--bots', 'random,optimal,hybrid', '--deals', '4', '--plain', '--out', out]),
      arena(['analyze', 'kayles', '--games-dir', dir, '--rows', '2', '--pins', '4']),
    ]);
    expect(check.code).toBe(0);
    expect(check.out).toContain('pass  solver agrees with a brute-force search');
    expect(check.out).toMatch(/All checks passed\.\n$/);

    expect(t.err).toBe('');
    expect(t.code).toBe(0);
    const results = join(out, readdirSync(out)[0]!);
    const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8')) as { games: { played: number; byTermination: { normal: number } }; standings: { pooled: { bots: BotLine[] } } };
    expect(summary.games).toMatchObject({ played: 24, byTermination: { normal: 24 } });
    const optimal = summary.standings.pooled.bots.find((b) => b.bot === 'optimal')!;
    // The game's solver made `optimal` (and the accuracy column): it never gives a won position away.
    // (greedy sits out: Kayles gives no heuristic, and greedy says so through its `supports`.)
    expect(optimal.accuracy.accurate).toBe(optimal.accuracy.moves);
    expect(optimal.wins).toBeGreaterThanOrEqual(optimal.games / 2);

    // The saved spec names the folder, so the report finds the game without --games-dir.
    const report = await arena(['report', results]);
    expect(report.code).toBe(0);
    expect(readFileSync(join(results, 'report.html'), 'utf8')).toContain('kayles{rows=2;pins=5..12}');

    expect(analysis.code).toBe(0);
    expect(analysis.out).toContain('P — the player to move loses');
  });

  it('validates its parameters as the built-ins are: one line naming the field', async () => {
    const dir = folderOf('take.ts');
    const [bad, unknown] = await Promise.all([
      arena(['tournament', '--games-dir', dir, '--games', 'take{n=0}', '--bots', 'random,greedy', '--plain']),
      arena(['tournament', '--games-dir', dir, '--games', 'take{m=3}', '--bots', 'random,greedy', '--plain']),
    ]);
    expect(isUsageError(bad)).toBe(true);
    expect(bad.err).toContain('Expected `n` to be a size or a range within 1..1000, got "0"');
    expect(isUsageError(unknown)).toBe(true);
    expect(unknown.err).toContain('Unknown parameter `m` for take');
  });

  it("keeps what a game file's child said until the file changes", async () => {
    const dir = folderOf('take.ts');
    const env = { TAKE_ARENA_CACHE: tempDir('arena-cache-') };
    const first = await arena(['games', '--games-dir', dir], { env });
    expect(first.out).toContain(`take — take (${join(dir, 'take.ts')})`);
    const cache = join(env.TAKE_ARENA_CACHE, 'discovery');
    const entries = readdirSync(cache).filter((f) => f.startsWith('game-'));
    expect(entries).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(cache, entries[0]!), 'utf8'))).toMatchObject({ file: join(dir, 'take.ts'), answer: { meta: { name: 'take' } } });
    // While the file is unchanged the entry is believed: no child runs (a planted answer shows).
    const entry = join(cache, entries[0]!);
    writeFileSync(entry, JSON.stringify({ ...JSON.parse(readFileSync(entry, 'utf8')), answer: { reason: 'planted in the cache' } }));
    const cached = await arena(['games', '--games-dir', dir], { env });
    expect(cached.out).toContain(`not loaded: ${join(dir, 'take.ts')} planted in the cache`);
    // The file edited (the game renamed): the entry no longer matches it, and its child runs again.
    const file = join(dir, 'take.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace("name: 'take'", "name: 'take-two'"));
    const second = await arena(['games', '--games-dir', dir], { env });
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain(`take-two — take-two (${file})`);
    expect(second.out).not.toContain('take — take');
  });

  it("WRITE-A-GAME.md's twenty-line example passes the check", async () => {
    const page = readFileSync('docs/WRITE-A-GAME.md', 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(page)![1]!;
    expect(code.trim().split('\n').length).toBeLessThanOrEqual(25);
    const file = join(tempDir('arena-games-'), 'take.ts');
    writeFileSync(file, code);
    const check = await arena(['games', 'check', file]);
    expect(check.code, check.out).toBe(0);
    expect(check.out).toContain('pass  solver agrees with a brute-force search');
  });
});

describe('arena games check', () => {
  it('passes a sound game and names the one check each broken fixture fails', async () => {
    const cases: [file: string, failing: string[]][] = [
      ['take.ts', []],
      ['mutating.ts', ['play and moves never mutate their input', 'solver agrees']],
      ['colliding.ts', ['key is stable and collision-free', 'solver agrees']],
      ['wrong-solver.ts', ['solver agrees with a brute-force search']],
      ['endless.ts', ['every game ends within the move bound', 'solver agrees']],
    ];
    const runs = await Promise.all(cases.map(([file]) => arena(['games', 'check', join(FIXTURES, file)])));
    for (const [i, [file, failing]] of cases.entries()) {
      const r = runs[i]!;
      const failed = r.out.split('\n').filter((l) => l.startsWith('  FAIL  '));
      expect(failed.length, `${file}:\n${r.out}`).toBe(failing.length);
      failing.forEach((name, j) => expect(failed[j]).toContain(name));
      expect(r.code, file).toBe(failing.length === 0 ? 0 : 1);
    }
    // The counterexamples say what went wrong.
    expect(runs[1]!.out).toMatch(/play\(\{"pile":\d+, "turn":"first"\}, \d\) changed its input/);
    expect(runs[2]!.out).toMatch(/key (\d+) is shared by \{"pile":\1, "turn":"\w+"\} and \{"pile":\1, "turn":"\w+"\}/);
    expect(runs[3]!.out).toMatch(/value\(\{"pile":\d+, "turn":"\w+"\}\) is -?1, brute force says -?1/);
  });

  it('a file that throws, loops or exports garbage is one line naming it, in the check and in a tournament', async () => {
    // One second of CPU time: tens of times what loading a sound game file costs (a busy machine
    // stretches the wall time, not that), and the least a loop must be let run.
    const env = { TAKE_ARENA_DISCOVERY_CPU_SECONDS: '1' };
    const expected: Record<string, string> = {
      'throws.ts': 'failed to load: the table file is missing',
      'loops.ts': 'did not finish within 1 s of CPU time',
      'garbage.ts': 'default export is not a valid game: the default export was not made with defineGame',
    };
    // In a folder: the other games still load, and naming the broken one says why it is missing.
    const dir = folderOf('take.ts', ...Object.keys(expected));
    const name = 'throws';
    const [checks, t, listing] = await Promise.all([
      Promise.all(Object.keys(expected).map((file) => arena(['games', 'check', join(FIXTURES, file), '--cpu-seconds', '1']))),
      arena(['tournament', '--games-dir', dir, '--games', name, '--bots', 'random,greedy', '--plain'], { env }),
      arena(['games', '--games-dir', dir], { env }),
    ]);
    for (const [i, [file, reason]] of Object.entries(expected).entries()) {
      expect(isUsageError(checks[i]!), `${file}: ${checks[i]!.err}`).toBe(true);
      expect(checks[i]!.err).toContain(`Game file ${join(FIXTURES, file)} ${reason}`);
    }
    expect(isUsageError(t), t.err).toBe(true);
    expect(t.err).toContain(`Game family \`${name}\` could not be loaded: ${join(dir, 'throws.ts')} failed to load: the table file is missing`);
    expect(listing.code).toBe(0);
    expect(listing.out).toContain(`take — take (${join(dir, 'take.ts')})`);
    for (const [file, reason] of Object.entries(expected)) expect(listing.out).toContain(`not loaded: ${join(dir, file)} ${reason}`);
  });
});
