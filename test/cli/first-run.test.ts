/**
 * A new user's first ten minutes (issue 17), through the real bin in a real process: a missing
 * argument, a misspelled flag, a stray word, a flag given twice or an unquoted variant id is one
 * line and exit 2, never a stack trace, never a half-run command.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, arena, isUsageError, shell } from './spawn.ts';
import { run } from './run.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// Each spawned bin starts Node and tsx: seconds when the machine is shared, hence the minute's timeout.
describe('a new user at the command line (real bin)', () => {
  it('new-bot with no name says so and writes no file (bots/undefined.ts)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-newbot-'));
    const r = await arena(['new-bot', '--dir', dir]);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err).toMatch(/Missing an argument; usage: arena new-bot <name>/);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(ROOT, 'bots', 'undefined.ts'))).toBe(false);
  });

  it.each([
    [['replay'], /usage: arena replay <dir>/],
    [['bots', 'check'], /usage: arena bots check <bot>/],
    [['analyze'], /usage: arena analyze <family>/],
  ])('%j with no argument: one line, exit 2, no internal error', async (args, usage) => {
    const r = await arena(args);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err).toMatch(usage);
  });

  it.each([
    [['tournament', 'tournaments/quick.json', '--deal', '3'], 'Unknown option --deal (did you mean `--deals`?)'],
    [['tournament', 'tournaments/quick.json', '--seeed', '3'], 'Unknown option --seeed (did you mean `--seed`?)'],
    [['games', '--jsno'], 'Unknown option --jsno (did you mean `--json`?)'],
    [['bots', '--jsn'], 'Unknown option --jsn (did you mean `--json`?)'],
    [['games', '--foo'], 'Unknown option --foo'],
    [['bots', 'check', 'mybot', '--famliy', 'coins'], 'Unknown option --famliy (did you mean `--family`?)'],
    [['play', 'piles', '--bto', 'optimal'], 'Unknown option --bto (did you mean `--bot`?)'],
    [['replay', 'somewhere', '--gmae', '3'], 'Unknown option --gmae (did you mean `--game`?)'],
    [['analyze', 'piles', '--pile', '3'], 'Unknown option --pile (did you mean `--piles`?)'],
    [['tournamnet'], 'Unknown command `tournamnet` (did you mean `tournament`?)'],
    [['bots', 'chek', 'greedy'], 'Unknown command `chek` (did you mean `check`?)'],
  ])('%j is an error with the closest name', async (args, message) => {
    // The first through the real bin; the rest in-process (the same runCli), to spare the machine.
    const r = args[2] === '--deal' ? await arena(args) : await run(...args);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toBe(`arena: ${message}`);
  });

  it('stray words are an error before anything runs: games subtraction, analyze --row -1 3 9 4', async () => {
    const games = await arena(['games', 'subtraction']);
    expect(isUsageError(games), games.err).toBe(true); // and the list is not printed after it
    expect(games.err).toMatch(/Unexpected argument `subtraction`; usage: arena games/);
    const row = await arena(['analyze', 'end-game', '--row', '-1', '3', '9', '4']);
    expect(isUsageError(row), row.err).toBe(true);
    expect(row.err.trim()).toBe('arena: Unexpected 3 9 4 after --row=-1 (a value with spaces must be quoted: --row "-1 3 9 4")');
  });

  it('an unquoted variant id that the shell expanded is recognised, with the quoted form to paste', async () => {
    // The real shell does the expansion, as it would for a user.
    const r = await shell('bash', ['-c', `node bin/arena.mjs tournament --games subtraction{moves=1,5,8,10} --deals 1`]);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err).toContain("quote variant ids: 'subtraction{moves=1,5,8,10}'");
    const play = await run('play', 'subtractionmoves=1', 'subtraction5', 'subtraction8', 'subtraction10');
    expect(isUsageError(play), play.err).toBe(true);
    expect(play.err).toContain("quote variant ids: 'subtraction{moves=1,5,8,10}'");
  });

  it('a flag given twice keeps its last value, never a crash', async () => {
    const bot = await arena(['play', 'piles', '--bot', 'nope', '--bot', '0']);
    expect(isUsageError(bot), bot.err).toBe(true);
    expect(bot.err).toMatch(/got "0"/);
    const seed = await run('analyze', 'subtraction', '--n', '12', '--n', '13', '--json');
    expect(seed.code, seed.err).toBe(0);
    expect(JSON.parse(seed.out)).toMatchObject({ variant: 'subtraction{moves=1,5,8,10;n=13}' });
  });

  it('output piped into head stops quietly (no EPIPE stack trace)', async () => {
    const r = await shell('bash', ['-c', 'node bin/arena.mjs games | head -1']);
    expect(r.out).toMatch(/^subtraction — /);
    expect(r.err).toBe('');
  });

  it('--version and -v print the version', async () => {
    for (const r of [await arena(['--version']), await arena(['-v'])]) {
      expect(r.code).toBe(0);
      expect(r.out.trim()).toBe(VERSION);
    }
  });
});

describe('the commands the arena prints are the ones that run (real bin)', () => {
  const hint = (r: { out: string }): string => /check it: {2}(.*) bots check/.exec(r.out)?.[1] ?? r.out;
  const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

  it('inside the project without a global install: npx arena; elsewhere: the bin by its path', async () => {
    const inside = await arena(['new-bot', 'hinted', '--dir', mkdtempSync(join(tmpdir(), 'arena-hint-'))], { env: { PATH } });
    expect(hint(inside)).toBe('npx arena');
    const outside = await arena(['new-bot', 'hinted', '--dir', mkdtempSync(join(tmpdir(), 'arena-hint-'))], { env: { PATH }, cwd: tmpdir() });
    expect(hint(outside)).toBe(`node ${join(ROOT, 'bin', 'arena.mjs')}`);
  });

  it('installed on PATH the way `npm link` / `npm install -g .` does it (a bin symlink): plain arena, from any folder', async () => {
    const prefix = mkdtempSync(join(tmpdir(), 'arena-global-'));
    mkdirSync(join(prefix, 'bin'));
    symlinkSync(join(ROOT, 'bin', 'arena.mjs'), join(prefix, 'bin', 'arena'));
    const env = { PATH: `${join(prefix, 'bin')}:${PATH}` };
    const version = await shell('arena', ['--version'], { env, cwd: tmpdir() });
    expect(version.code, version.err).toBe(0);
    expect(version.out.trim()).toBe(VERSION);
    const made = await shell('arena', ['new-bot', 'hinted', '--dir', mkdtempSync(join(tmpdir(), 'arena-hint-'))], { env, cwd: tmpdir() });
    expect(hint(made)).toBe('arena');
  });
});

describe('npm start', () => {
  it("runs tournaments/classic.json, whose description counts its games right", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toMatch(/tournament tournaments\/classic\.json$/);
    const spec = JSON.parse(readFileSync(join(ROOT, 'tournaments', 'classic.json'), 'utf8')) as { description: string; bots: string[]; games: unknown[]; deals: number };
    const pairs = (spec.bots.length * (spec.bots.length - 1)) / 2;
    const games = pairs * spec.games.length * spec.deals * 2;
    expect(spec.description).toContain(`${games.toLocaleString('en')} games`);
    expect(spec.description).toContain(`${spec.deals} deals`);
  });
});

describe('the documents a new user reads', () => {
  it('carry no notes left for the project’s authors (an HTML comment to a "lead" opened docs/EXTERNAL-BOTS.md)', async () => {
    const { readdirSync: list } = await import('node:fs');
    const files = ['README.md', ...list(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/<!--/);
      expect(text.trimStart(), file).toMatch(/^#/); // each opens with its title
    }
  });
});
