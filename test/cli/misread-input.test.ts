/**
 * Input the CLI used to misread or die on with a stack trace (issue 34's fuzz): each is now one line
 * naming what was wrong and what was expected, exit code 2, and nothing runs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostilePaths } from './hostile-paths.ts';
import { run } from './run.ts';
import { isUsageError } from './spawn.ts';

describe('misread input gets one line', () => {
  it.each([
    [['--', 'games'], /^arena: Unexpected `--`: no command takes words after it/],
    [['--'], /^arena: Unexpected `--`/],
    [['tournament', 'tournaments/quick.json', '-games', 'piles'], /^arena: Unknown option -games: long options take two dashes \(`--games`\)$/],
    [['tournament', 'tournaments/quick.json', '-concurrency=4'], /^arena: Unknown option -concurrency=4: long options take two dashes \(`--concurrency`\)$/],
    [['match', 'random', 'greedy', '-each', 'tc=10+0.1'], /^arena: Unknown option -each: that is cutechess-cli's; here a time control is `--tc 10\+0\.1`/],
    [['tournament', 'tournaments'], /^arena: Cannot read tournament spec tournaments: it is a folder, not a file$/],
    [['tournament', '/dev/zero'], /^arena: Cannot read tournament spec \/dev\/zero: it is not a regular file/],
    [['bots', 'check', 'greedy', '--bot=minimax:depth=x'], /^arena: Unknown option --bot: `bot` is this command's argument; write its value without --bot$/],
    [['play', 'piles', '--bot', 'optimal', '--time-per-move', '3600001'], /^arena: Expected `--time-per-move` to be a whole number of ms from 1 to 3600000/],
    [['analyze', 'subtraction{moves=1,2;n=20}'], /^arena: Expected a family with its parameters as flags, got the variant `subtraction\{moves=1,2;n=20\}`: write `arena analyze subtraction --moves 1,2 --n 20`$/],
  ])('%j', async (args, message) => {
    const r = await run(...args);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toMatch(message);
  });

  it('a negative number is still a value (`--row -1 3 9 4` is not a one-dash option)', async () => {
    const r = await run('analyze', 'end-game', '--row', '-1 3 9 4');
    expect(r.code, r.err).toBe(0);
  });

  it('`__proto__` and `constructor` in a variant are unknown parameters, not "given twice"', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const r = await run('tournament', '--games', `subtraction{${key}=1}`, '--bots', 'random,greedy');
      expect(isUsageError(r), r.err).toBe(true);
      expect(r.err).toContain(`Unknown parameter \`${key}\` for subtraction`);
    }
  });

  it('a bot name past 64 characters is refused before any file is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-new-bot-'));
    const r = await run('new-bot', 'a'.repeat(300), '--dir', dir);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err).toMatch(/Expected the bot name to be 1 to 64 letters/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a report that cannot be written is said before the work', () => {
  it.each([
    ['a missing folder', '/tmp/arena-no-such-folder/r.html', /its folder \/tmp\/arena-no-such-folder does not exist/],
    ['a folder', '/tmp', /it is a folder; name a file in it/],
    ['a virtual file system', '/proc/arena-report.html', /no file can be created in \/proc/],
  ])('`tournament --report` naming %s: one line, no game played', async (_what, path, message) => {
    const out = mkdtempSync(join(tmpdir(), 'arena-report-out-'));
    const r = await run('tournament', '--bots', 'random,greedy', '--games', 'subtraction{n=10}', '--deals', '1', '--plain', '--out', out, '--report', path);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err).toMatch(message);
    expect(readdirSync(out)).toEqual([]);
  });
});

/** A results folder of random against greedy on subtraction, `deals` deals each way, in a new temporary folder (`dir`; `folder` the results folder in it). */
async function smallRun(prefix: string, deals: number): Promise<{ dir: string; folder: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const made = await run('tournament', '--bots', 'random,greedy', '--games', 'subtraction{n=10..30}', '--deals', String(deals), '--plain', '--out', dir);
  expect(made.code, made.err).toBe(0);
  return { dir, folder: join(dir, readdirSync(dir)[0]!) };
}

describe('a damaged results folder', () => {
  it('`arena report` on a folder whose key is damaged names the file, not `--resume`', async () => {
    const { dir, folder } = await smallRun('arena-bad-key-', 1);
    writeFileSync(join(folder, 'games.key'), 'garbage\n');
    const r = await run('report', folder, '--out', join(dir, 'r.html'));
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toBe(`arena: ${join(folder, 'games.key')} is not a key (expected 64 hex digits): the folder's lines cannot be verified`);
  });
});

describe('a log saved with Windows line ends', () => {
  it('resumes as the same log: every game kept, none played again', async () => {
    const { folder } = await smallRun('arena-crlf-', 3);
    const log = join(folder, 'games.jsonl');
    const lf = readFileSync(log, 'utf8');
    writeFileSync(log, lf.replaceAll('\n', '\r\n'));
    rmSync(join(folder, 'summary.json'));
    const resumed = await run('tournament', '--resume', folder, '--plain');
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain('6 games (6 already played)');
    expect(resumed.err).not.toContain('dropped');
    expect(readFileSync(log, 'utf8').replaceAll('\r', '')).toBe(lf);
  });
});

describe('a log with a line that is not a game', () => {
  it('replays the other games, as the report shows them and resume keeps them', async () => {
    const { folder } = await smallRun('arena-bad-line-', 1);
    const log = join(folder, 'games.jsonl');
    writeFileSync(log, `{"broken\n${readFileSync(log, 'utf8')}`);
    // Not a terminal: replay stops at that, but only after reading the log (--game is checked against it).
    const r = await run('replay', folder, '--game', '3');
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toMatch(/^arena: Expected `--game` to be a game number in the log \(1 to 2\)/);
  });
});

describe('paths that are not what a command expects get one line, before any work', () => {
  const { dir, file, fifo, planted, nested, long } = hostilePaths();

  it.each([
    [['tournament', 'tournaments/quick.json', '--out', '/proc/nope'], /^arena: Cannot create the results folder \/proc\/nope: a folder on the way does not exist, or takes no new entries/],
    [['tournament', 'tournaments/quick.json', '--out', file], /^arena: Cannot create the results folder .*file\.json: a file is in the way where a folder should be$/],
    [['tournament', 'tournaments/quick.json', '--out', '/dev/null/x'], /^arena: Cannot create the results folder \/dev\/null\/x: a file is in the way/],
    [['tournament', fifo], /^arena: Cannot read tournament spec .*fifo: it is not a regular file/],
    [['tournament', '--resume', planted], /^arena: --resume: cannot read .*spec\.json: it is not a regular file/],
    [['tournament', '--resume', nested], /^arena: --resume: .*spec\.json:1:\d+: nested deeper than/],
    [['match', 'random', 'greedy', '--starts', '/dev/zero'], /cannot read the start suite \/dev\/zero: it is not a regular file/],
    [['match', 'random', 'greedy', '--starts', dir], /cannot read the start suite .*: it is a folder, not a file/],
    [['tournament', 'tournaments/quick.json', '--ratings-in', '/dev/zero'], /--ratings-in \/dev\/zero: it is not a regular file/],
    [['new-bot', 'x', '--dir', '/proc/nope'], /^arena: Cannot write \/proc\/nope\/x\.ts: a folder on the way does not exist/],
    [['new-game', 'x', '--dir', '/proc/nope'], /^arena: Cannot write \/proc\/nope\/x\.ts: a folder on the way does not exist/],
    [['new-game', long], /^arena: Expected the game name to be 1 to 64 letters/],
  ])('%j', async (args, message) => {
    const r = await run(...args);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toMatch(message);
  });
});
