/**
 * Start-position suites through the real CLI: `arena starts --balanced` writes suites the solver
 * stands behind, `--starts` plays every start in both seatings (in order or shuffled by the seed,
 * `--starts-per-pair` of them), a bad line is one line naming the file, the line and the notation,
 * results show per start in the plain output and the report, and a resume after `kill -9` plays
 * the same suite in the same order, even with the suite file gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyGame } from '../../src/core/game.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { startVariant, suitePositions } from '../../src/games/starts.ts';
import { FIXTURE_BOTS, comparableLog, readLog, tempDir, timeless } from '../arena/helpers.ts';
import { run } from './run.ts';
import { isUsageError, ROOT } from './spawn.ts';

const SUBTRACTION = 'subtraction{moves=1,5,8,10;n=50..200}';

/** A suite's positions with their comments, as `arena starts` wrote them. */
function suiteOf(file: string): { text: string; comment: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => {
      const [text, comment] = l.split('#') as [string, string];
      return { text: text.trim(), comment: comment.trim() };
    });
}

/** A start's exact value for the first player and its game's length when both sides play the solver's moves, computed here from the solver alone. */
function judged(base: AnyGame, text: string): { value: number; plies: number } {
  const game = startVariant(base, text);
  const solver = game.solver!()!;
  let s = game.deal(createRng(0));
  const value = solver.value(s);
  let plies = 0;
  for (let m = solver.bestMove(s); m !== null; m = solver.bestMove(s)) {
    s = game.play(s, m);
    plies++;
  }
  return { value, plies };
}

describe('arena starts --balanced', () => {
  it('writes 10 first-player wins and 10 losses, alternating, each line citing the verdict the solver gives it', async () => {
    const file = join(tempDir(), 'balanced.txt');
    const r = await run('starts', SUBTRACTION, '--balanced', '10', '--seed', '7', '--out', file);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^20 start positions of subtraction\{moves=1,5,8,10;n=50\.\.200\} in /);
    const lines = suiteOf(file);
    expect(lines).toHaveLength(20);
    expect(new Set(lines.map((l) => l.text)).size).toBe(20);
    const base = parseVariant(SUBTRACTION);
    lines.forEach(({ text, comment }, i) => {
      const { value, plies } = judged(base, text);
      // Wins at even places, losses at odd ones: any prefix of the suite is balanced.
      expect(value, `${text}: ${comment}`).toBe(i % 2 === 0 ? 1 : -1);
      expect(comment).toMatch(value > 0 ? /^first player wins \(N\): \d+ leaves \d+ \(P\); / : /^first player loses \(P\): /);
      expect(comment).toContain(`; ${plies} ${plies === 1 ? 'ply' : 'plies'} with best play`);
      // The move cited leaves what the comment says, and the solver calls it lost for the mover.
      const cited = /^first player wins \(N\): (\d+) leaves (\d+)/.exec(comment);
      if (cited) expect(Number(text) - Number(cited[1])).toBe(Number(cited[2]));
      if (cited) expect(base.solver!()!.value({ pile: Number(cited[2]) })).toBe(-1);
    });
    // Deterministic by the seed; another seed draws another suite.
    const again = join(tempDir(), 'again.txt');
    expect((await run('starts', SUBTRACTION, '--balanced', '10', '--seed', '7', '--out', again)).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(file, 'utf8'));
    const other = await run('starts', SUBTRACTION, '--balanced', '10', '--seed', '8');
    expect(other.out.trim()).not.toBe(readFileSync(file, 'utf8').trim());
  });

  it('keeps, in a scored game, the positions of exact value nearest 0, each value as the solver has it', async () => {
    const r = await run('starts', 'end-game{length=8}', '--balanced', '5');
    expect(r.code, r.err).toBe(0);
    const file = join(tempDir(), 'end-game.txt');
    writeFileSync(file, r.out);
    const lines = suiteOf(file);
    expect(lines).toHaveLength(10);
    const bound = Number(/within ±(\d+) \(the nearest 0 of (\d+) drawn\)/.exec(r.out)![1]);
    const base = parseVariant('end-game{length=8}');
    for (const { text, comment } of lines) {
      const { value } = judged(base, text);
      expect(Math.abs(value)).toBeLessThanOrEqual(bound);
      expect(comment).toMatch(new RegExp(`^value ${value > 0 ? '\\+' : ''}${value}: `));
    }
  });

  it('with --depth keeps only positions whose game lasts exactly that many plies', async () => {
    const r = await run('starts', SUBTRACTION, '--balanced', '3', '--depth', '9');
    expect(r.code, r.err).toBe(0);
    const file = join(tempDir(), 'depth.txt');
    writeFileSync(file, r.out);
    const base = parseVariant(SUBTRACTION);
    const lines = suiteOf(file);
    expect(lines).toHaveLength(6);
    for (const { text } of lines) expect(judged(base, text).plies).toBe(9);
  });

  it('says in one line when the deals hold too few positions of a kind, or the count is bad', async () => {
    const lost = await run('starts', 'partizan{left=2,5,9;right=3,4,8}', '--balanced', '2');
    expect(isUsageError(lost), lost.err).toBe(true);
    expect(lost.err).toMatch(/found \d+ first-player wins and 0 losses among \d+ positions drawn from partizan/);
    const zero = await run('starts', SUBTRACTION, '--balanced', '0');
    expect(zero.err.trim()).toBe('arena: Expected `--balanced` to be an integer from 1 to 10000, got "0"');
  });
});

describe('arena tournament --starts', () => {
  const bots = ['--bots-dir', FIXTURE_BOTS, '--bots', 'fx-random,fx-first,optimal', '--isolation', 'none', '--plain'];

  /** A suite file with comments, a blank line and four starts (on lines 2, 3, 5 and 6). */
  function suiteFile(): string {
    const file = join(tempDir(), 'suite.txt');
    writeFileSync(file, '# four piles\n57  # a win\n58\n\n13\n100\n');
    return file;
  }

  it('plays every start of the suite in both seatings for every pairing, and shows results per start', async () => {
    const out = tempDir();
    const r = await run('tournament', '--games', SUBTRACTION, '--starts', suiteFile(), ...bots, '--out', out);
    expect(r.code, r.err).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const log = readLog(dir);
    // 3 pairings × 4 starts × 2 seatings, each start once (deals default to 1 with a suite).
    expect(log).toHaveLength(24);
    const pairings = [['fx-random', 'fx-first'], ['fx-random', 'optimal'], ['fx-first', 'optimal']];
    for (const pile of [57, 58, 13, 100]) {
      const variant = `subtraction{moves=1,5,8,10;n=${pile}}`;
      for (const [a, b] of pairings) {
        const games = log.filter((g) => g.variant === variant && [g.seats.first, g.seats.second].sort().join() === [a, b].sort().join());
        expect(games.map((g) => g.seats.first).sort(), `${variant} ${a}-${b}`).toEqual([a, b].sort());
        for (const g of games) expect(g.start).toEqual({ pile });
      }
    }
    // As written: the schedule plays line 2's start first, line 6's last.
    expect(log.sort((x, y) => x.index - y.index).map((g) => g.variant.match(/n=(\d+)/)![1])).toEqual(['57', '58', '13', '100'].flatMap((p) => Array(6).fill(p)));
    expect(r.out).toMatch(/^Start positions \(points\/games of each bot on each start, both seatings\):$/m);
    expect(r.out).toMatch(/^line\s+position\s+games(\s+(optimal|fx-random|fx-first)){3}$/m);
    for (const [line, pile] of [[2, 57], [3, 58], [5, 13], [6, 100]]) expect(r.out).toMatch(new RegExp(`^\\s*${line}\\s+${pile}\\s+6\\s`, 'm'));
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.starts.map((s: { line: number; position: string }) => [s.line, s.position])).toEqual([[2, '57'], [3, '58'], [5, '13'], [6, '100']]);
    expect(summary.spec.starts).toEqual(['# four piles', '57  # a win', '58', '', '13', '100', '']);

    // The report has a row per start with the solver's verdict (57 and 100 are won for the first player, 58 and 13 lost).
    const report = await run('report', dir);
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const section = html.slice(html.indexOf('<section id="starts">'), html.indexOf('</section>', html.indexOf('<section id="starts">')));
    const rows = [...section.matchAll(/<tr><td>(\d+)<\/td><td class="left">(\d+)<\/td><td class="left">([^<]+)<\/td><td>(\d+)<\/td>/g)].map((m) => m.slice(1));
    expect(rows).toEqual([
      ['2', '57', 'first player wins (N)', '6'],
      ['3', '58', 'first player loses (P)', '6'],
      ['5', '13', 'first player loses (P)', '6'],
      ['6', '100', 'first player wins (N)', '6'],
    ]);
  });

  it('shuffles the suite by the seed with --starts-order random, and plays the first --starts-per-pair of it', async () => {
    const order = async (seed: string): Promise<string[]> => {
      const out = tempDir();
      const r = await run('tournament', '--games', SUBTRACTION, '--starts', suiteFile(), '--starts-order', 'random', '--starts-per-pair', '3', '--seed', seed, ...bots, '--out', out);
      expect(r.code, r.err).toBe(0);
      const log = readLog(join(out, readdirSync(out)[0]!)).sort((x, y) => x.index - y.index);
      expect(log).toHaveLength(3 * 3 * 2);
      return [...new Set(log.map((g) => g.variant.match(/n=(\d+)/)![1]!))];
    };
    const first = await order('5');
    expect(first).toHaveLength(3);
    expect(await order('5')).toEqual(first);
    // Some seed of a few orders the suite otherwise (4! orders, 24 ways to cut three).
    const others = await Promise.all(['6', '7', '8'].map(order));
    expect(others.some((o) => o.join() !== first.join())).toBe(true);
  });

  it('refuses a bad line in one line naming the file, the line and the notation, before anything is written', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.txt');
    writeFileSync(file, '57\n# fine\n50..60\n');
    const out = join(dir, 'results');
    const r = await run('tournament', '--games', SUBTRACTION, '--starts', file, ...bots, '--out', out);
    expect(isUsageError(r), r.err).toBe(true);
    expect(r.err.trim()).toBe(`arena: ${file}:3: expected a start of subtraction (one pile size, e.g. 57), got "50..60"`);
    expect(existsSync(out)).toBe(false);

    writeFileSync(file, '1,2,3\n1,2,11\n');
    const coins = await run('tournament', '--games', 'coins{board=triangle;rows=4}', '--starts', file, ...bots, '--out', out);
    expect(isUsageError(coins), coins.err).toBe(true);
    expect(coins.err).toMatch(new RegExp(`^arena: ${file}:2: expected a start of coins \\(the numbers of the coins on the board, e\\.g\\. 1,2,5,8\\): .*coin numbers from 1 to 10`));

    writeFileSync(file, '57\n58\n57\n');
    const twice = await run('tournament', '--games', SUBTRACTION, '--starts', file, ...bots, '--out', out);
    expect(twice.err.trim()).toBe(`arena: ${file}:3: the position 57 is already in the suite (line 1); each start is played once per deal`);
    const many = await run('tournament', '--games', SUBTRACTION, '--starts', file.replace('bad', 'missing'), ...bots, '--out', out);
    expect(many.err.trim()).toBe(`arena: arguments: \`starts\`: cannot read the start suite ${file.replace('bad', 'missing')}: no such file`);
  });

  it('resumes after kill -9 with the same suite in the same order, the suite file gone, to exactly the uninterrupted result', async () => {
    const dir = tempDir();
    const suite = join(dir, 'suite.txt');
    writeFileSync(suite, `${Array.from({ length: 12 }, (_, i) => String(30 + 7 * i)).join('\n')}\n`);
    const spec = join(dir, 'slow.json');
    writeFileSync(
      spec,
      JSON.stringify({ name: 'slow', seed: 11, games: [SUBTRACTION], starts: suite, startsOrder: 'random', startsPerPair: 10, bots: ['fx-slow', 'fx-random', 'fx-first'], isolation: 'none', concurrency: 2, botDirs: [FIXTURE_BOTS] }),
    );
    const whole = join(dir, 'whole');
    expect((await run('tournament', spec, '--out', whole)).code).toBe(0);
    const wholeDir = join(whole, readdirSync(whole)[0]!);

    const out = join(dir, 'cut');
    const child = spawn(process.execPath, ['bin/arena.mjs', 'tournament', spec, '--out', out, '--plain'], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    for (;;) {
      await new Promise((r) => setTimeout(r, 25));
      const dirs = existsSync(out) ? readdirSync(out) : [];
      const log = dirs[0] ? join(out, dirs[0], 'games.jsonl') : '';
      if (log && existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 8) break;
    }
    child.kill('SIGKILL');
    await exited;
    const cut = join(out, readdirSync(out)[0]!);
    expect(readLog(cut).length).toBeLessThan(60);
    rmSync(suite); // the saved spec holds the suite's lines
    const resumed = await run('tournament', '--resume', cut);
    expect(resumed.code, resumed.err).toBe(0);
    expect(comparableLog(cut)).toEqual(comparableLog(wholeDir));
    const standings = (d: string): unknown => timeless(JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')).standings);
    expect(standings(cut)).toEqual(standings(wholeDir));
    expect(JSON.parse(readFileSync(join(cut, 'summary.json'), 'utf8')).starts).toEqual(JSON.parse(readFileSync(join(wholeDir, 'summary.json'), 'utf8')).starts);
  });
});

describe('start notation', () => {
  it('reads every line of a suite but comments and blanks, keeping line numbers', () => {
    expect(suitePositions(['# x', ' 57 # y', '', '3,4,5'])).toEqual([
      { line: 2, text: '57' },
      { line: 4, text: '3,4,5' },
    ]);
  });
});
