import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BOTS, comparableLog, readLog, tempDir, timeless } from '../arena/helpers.ts';
import { run } from './run.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GOOD = ['--bots-dir', FIXTURE_BOTS, '--bots', 'fx-random,fx-first', '--isolation', 'none', '--deals', '1'];
const BASE = ['--bots-dir', FIXTURE_BOTS];

/** Every file under a folder with its content, to prove nothing was touched. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    if (statSync(p).isFile()) out[name] = `${statSync(p).mtimeMs}:${readFileSync(p, 'utf8')}`;
  }
  return out;
}

describe('arena match (CLI)', () => {
  it('plays A against B in game pairs until the sequential test decides, and prints the decision', async () => {
    const out = tempDir();
    const { code, out: text } = await run(
      'match', 'optimal', 'random', '--games', 'subtraction{moves=1,2,3;n=20..40}', '--sprt', 'elo0=0,elo1=50', '--isolation', 'none', '--out', out,
    );
    expect(code).toBe(0);
    expect(text).toMatch(/^SPRT optimal vs random: H0 \[[-|#]+\] H1 LLR -?\d+\.\d\d \(-2\.94, 2\.94\), 1 pairs \[LL \d+ LD \d+ DD \d+ WD \d+ WW \d+\]/m);
    expect(text).toMatch(/^SPRT optimal vs random: H1 accepted, LLR \d+\.\d\d \(-2\.94, 2\.94\), \d+ games, \d+ pairs, Elo .*; normalized Elo \[0, 50\], alpha 0\.05, beta 0\.05$/m);
    expect(text).toMatch(/^Game pairs/m);
    expect(text).toMatch(/^optimal\s+random\s+\d+/m);
    expect(text).toMatch(/not played: the sequential test had decided/);
    const [dir] = readdirSync(out);
    const summary = JSON.parse(readFileSync(join(out, dir!, 'summary.json'), 'utf8'));
    expect(summary.sprt[0]).toMatchObject({ a: 'optimal', b: 'random', decision: 'H1' });
    expect(summary.spec).toMatchObject({ format: 'gauntlet', champion: 'optimal', deals: 5000, sprt: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'normalized' } });
  });

  it('without --sprt plays a fixed number of pairs; a gauntlet shows per-opponent pair counts', async () => {
    const out = tempDir();
    const m = await run('match', 'fx-first', 'fx-random', ...BASE, '--games', 'subtraction{n=15..30}', '--deals', '3', '--isolation', 'none', '--out', out);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/^fx-first\s+fx-random\s+3\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+/m);
    const g = await run(
      'tournament', ...BASE, '--bots', 'fx-random,fx-first,greedy', '--format', 'gauntlet', '--champion', 'greedy', '--games', 'subtraction{n=15..30}', '--deals', '2', '--isolation', 'none', '--out', out,
    );
    expect(g.code).toBe(0);
    expect(g.out).toMatch(/^greedy\s+fx-random\s+2\s/m);
    expect(g.out).toMatch(/^greedy\s+fx-first\s+2\s/m);
    expect(g.out).not.toMatch(/fx-random vs fx-first|fx-first vs fx-random/);
  });

  it('--adjudicate ends games with the solver\'s result and says so in the game lines', async () => {
    const out = tempDir();
    const { code, out: text } = await run('match', 'random', 'greedy', '--games', 'subtraction{moves=1,3,4;n=30..60}', '--deals', '3', '--adjudicate', '--isolation', 'none', '--out', out);
    expect(code).toBe(0);
    expect(text).toMatch(/: random vs greedy [01]-[01], adjudicated after \d+ moves \(solver: (won|lost) for (first|second) to move \(value -?1\) at ply \d+\)$/m);
    const [dir] = readdirSync(out);
    const summary = JSON.parse(readFileSync(join(out, dir!, 'summary.json'), 'utf8'));
    expect(summary.games.byTermination.adjudicated).toBeGreaterThan(0);
  });

  it('--tc plays on time banks and prints think time apart from the arena overhead', async () => {
    const out = tempDir();
    const { code, out: text } = await run('match', 'fx-random', 'fx-first', ...BASE, '--games', 'subtraction{n=20..30}', '--deals', '2', '--tc', '2+0.05', '--time-margin', '80', '--isolation', 'worker', '--out', out);
    expect(code).toBe(0);
    expect(text).toMatch(/^Time \(time control 2\+0.05\): think \d+(\.\d+)? m?s, arena overhead \d+(\.\d+)? m?s over \d+ moves \(\d+ µs a move on average, at most \d+(\.\d+)? m?s\)$/m);
    const [dir] = readdirSync(out);
    const spec = JSON.parse(readFileSync(join(out, dir!, 'spec.json'), 'utf8'));
    expect(spec).toMatchObject({ timeControl: '2+0.05', timeMarginMs: 80 });
    expect(spec.timePerMoveMs).toBeUndefined();
    const summary = JSON.parse(readFileSync(join(out, dir!, 'summary.json'), 'utf8'));
    expect(summary.time.moves).toBeGreaterThan(0);
    // A spec's per-move limit stays beside the bank, unless `--time-per-move none` drops it.
    const specFile = join(tempDir(), 'limited.json');
    writeFileSync(specFile, JSON.stringify({ games: ['subtraction{n=20}'], bots: ['fx-random', 'fx-first'], deals: 1, timePerMoveMs: 100, isolation: 'none' }));
    const kept = await run('tournament', specFile, ...BASE, '--tc', '2', '--out', out, '--json');
    expect(JSON.parse(kept.out).spec).toMatchObject({ timePerMoveMs: 100, timeControl: '2' });
    const dropped = await run('tournament', specFile, ...BASE, '--tc', '2', '--time-per-move', 'none', '--out', out, '--json');
    expect(dropped.code).toBe(0);
    expect(JSON.parse(dropped.out).spec.timePerMoveMs).toBeUndefined();
  });

  it('rejects a bad --sprt with one line and exit 2', async () => {
    const { code, err } = await run('match', 'optimal', 'random', '--games', 'subtraction', '--sprt', 'elo0=0,elo1=x');
    expect(code).toBe(2);
    expect(err.trim()).toBe('arena: Expected SPRT `elo1` to be a number, got "x"');
  });
});

describe('arena tournament (CLI)', () => {
  it('runs a spec and prints one line per game, the standings and the crosstable', async () => {
    const out = tempDir();
    const { code, out: text } = await run('tournament', '--games', 'subtraction{n=15..30},end-game{length=4}', ...GOOD, '--out', out);
    expect(code).toBe(0);
    expect(text).toMatch(/^\[1\/4\] /m);
    expect(text).toMatch(/^#\s+bot\s+games\s+W\s+D\s+L\s+points/m);
    expect(text).toMatch(/^Crosstable/m);
    const [dir] = readdirSync(out);
    expect(readdirSync(join(out, dir!)).sort()).toEqual(['bot-data', 'fold.state', 'games.jsonl', 'games.key', 'spec.json', 'standings.csv', 'summary.json']);
    const json = await run('tournament', '--games', 'subtraction{n=15..30}', ...GOOD, '--out', out, '--json');
    expect(JSON.parse(json.out)).toMatchObject({ complete: true, games: { total: 2, played: 2 } });
    expect(readdirSync(out)).toHaveLength(2); // a new folder each run, never overwritten
  });

  it.each([
    [['--games', 'sutraction'], /Unknown game family `sutraction` \(did you mean `subtraction`\?\)/],
    [['--games', 'subtraction{moves=3,0}'], /Expected `moves` to be/],
    [['--games', 'subtraction', '--bots', 'fx-random,nobody'], /`bots\[1\]`: Unknown bot `nobody`/],
    [['--games', 'subtraction', '--isolation', 'process'], /Expected --isolation to be worker, none or sandbox, got "process"/],
    [['--games', 'subtraction', '--deals', '0'], /Expected --deals to be an integer from 1/],
    [['--games', 'subtraction', '--time-per-move=-5'], /Expected --time-per-move to be a positive number/],
    [['--games', 'subtraction', '--format', 'ladder'], /Expected --format to be round-robin, gauntlet, swiss or knockout, got "ladder"/],
    [['--games', 'subtraction', '--format', 'swiss'], /`rounds`: a Swiss needs a number of rounds \(--rounds\)/],
    [['--games', 'subtraction', '--format', 'gauntlet'], /`champion`: a gauntlet needs a champion/],
    [['--games', 'subtraction', '--format', 'gauntlet', '--champion', 'greedy'], /`champion`: expected one of the bots \(fx-random, fx-first\), got "greedy"/],
    [['--games', 'subtraction', '--sprt', 'elo0=0,elo1=10'], /`sprt`: a sequential test needs a gauntlet or a match/],
    [['--games', 'subtraction', '--format', 'gauntlet', '--champion', 'fx-first', '--sprt', 'elo0=0'], /Expected --sprt to give elo0 and elo1/],
    [['--games', 'subtraction', '--format', 'gauntlet', '--champion', 'fx-first', '--sprt', 'elo0=0,elo1=10,alpha=0.7'], /Expected SPRT `alpha` between 0 and 0.5, got 0.7/],
    [['--games', 'subtraction', '--tc', '10+'], /^arena: Expected --tc to be a time control like 10\+0.1 \(seconds per game, plus seconds added per move\) or 10 \(no increment\), got "10\+"$/m],
    [['--games', 'subtraction', '--tc=-5'], /Expected --tc to be a time control like 10\+0.1 .*, got "-5"/],
    [['--games', 'subtraction', '--tc', '0'], /Expected --tc to be a time control whose base is from 0.001 to 86400 seconds, got "0"/],
    [['--games', 'subtraction', '--tc', '40/60+1'], /moves per period, like 40\/60, are not supported\), got "40\/60\+1"/],
    [['--games', 'subtraction', '--tc', '10', '--time-margin', '-1'], /Expected --time-margin to be an integer from 0 to 60000, got "-1"/],
    [['--games', 'subtraction', '--time-per-move', 'none'], /--time-per-move none needs a time control \(--tc 10\+0\.1\)/],
  ])('rejects bad input %j with one line and exit 2, creating nothing', async (args, message) => {
    const out = tempDir();
    const bots = args.includes('--bots') ? [] : ['--bots', 'fx-random,fx-first'];
    const { code, err, out: text } = await run('tournament', ...BASE, ...bots, ...args, '--out', out);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(text).toBe('');
    expect(readdirSync(out)).toEqual([]);
  });

  it('reports malformed JSON with its line and column', async () => {
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, '{\n  "games": ["subtraction"],\n  "deals": 2,,\n}\n');
    const { code, err } = await run('tournament', file);
    expect(code).toBe(2);
    expect(err.trim()).toMatch(/bad\.json:3:14: malformed JSON/);
  });

  it('refuses to resume a folder that is not a results folder, touching nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const before = snapshot(dir);
    const { code, err } = await run('tournament', '--resume', dir);
    expect(code).toBe(2);
    expect(err.trim()).toMatch(/is not a results folder/);
    expect(snapshot(dir)).toEqual(before);
    // A real results folder with a clashing flag: also refused, also untouched.
    const out = tempDir();
    expect((await run('tournament', '--games', 'subtraction{n=15}', ...GOOD, '--out', out)).code).toBe(0);
    const results = join(out, readdirSync(out)[0]!);
    const kept = snapshot(results);
    const clash = await run('tournament', '--resume', results, '--deals', '3');
    expect(clash.code).toBe(2);
    expect(clash.err.trim()).toMatch(/--resume continues the saved spec; it takes no --deals/);
    expect(snapshot(results)).toEqual(kept);
    expect((await run('tournament', '--resume', join(dir, 'missing'))).err).toMatch(/does not exist/);
  });

  // One uninterrupted run of the spec, shared by both interruption tests.
  let reference: Promise<{ spec: string; wholeDir: string }> | undefined;
  const uninterrupted = (): Promise<{ spec: string; wholeDir: string }> =>
    (reference ??= (async () => {
      const spec = join(tempDir(), 'slow.json');
      writeFileSync(
        spec,
        JSON.stringify({
          name: 'slow',
          seed: 3,
          games: ['subtraction{n=30..60}', 'end-game{length=6}'],
          bots: ['fx-slow', 'fx-random', 'fx-first'],
          deals: 3,
          isolation: 'none',
          concurrency: 2,
          botDirs: [FIXTURE_BOTS],
        }),
      );
      const whole = tempDir();
      expect((await run('tournament', spec, '--out', whole)).code).toBe(0);
      return { spec, wholeDir: join(whole, readdirSync(whole)[0]!) };
    })());

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
    it(`resumes after ${signal} to exactly the uninterrupted result`, async () => {
      const { spec, wholeDir } = await uninterrupted();

      const out = tempDir();
      mkdirSync(out, { recursive: true });
      const child = spawn(process.execPath, ['bin/arena.mjs', 'tournament', spec, '--out', out, '--plain'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Stop once some games are on disk.
      for (;;) {
        await new Promise((r) => setTimeout(r, 25));
        const dirs = existsSync(out) ? readdirSync(out) : [];
        const log = dirs[0] ? join(out, dirs[0], 'games.jsonl') : '';
        if (log && existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 8) break;
        if (child.exitCode !== null) throw new Error(`the arena exited (${child.exitCode}) before 8 games were logged:\n${stdout}`);
      }
      child.kill(signal);
      const code = await exited;
      const dir = join(out, readdirSync(out)[0]!);
      const partial = readFileSync(join(dir, 'games.jsonl'), 'utf8');
      expect(existsSync(join(dir, 'summary.json'))).toBe(false);
      if (signal !== 'SIGKILL') {
        // Ctrl-C and a `kill` alike stop with the resume line: exit 128 + the signal's number.
        expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
        // `npx arena` here (not on PATH), or `arena` on a machine where it is installed globally.
        expect(stdout).toMatch(new RegExp(`Resume with: (npx )?arena tournament --resume ${JSON.stringify(dir).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}`));
        expect(partial.endsWith('\n')).toBe(true);
      }
      expect(readLog(dir).length).toBeLessThan(36);

      const resumed = await run('tournament', '--resume', dir);
      expect(resumed.code).toBe(0);
      expect(comparableLog(dir)).toEqual(comparableLog(wholeDir));
      const summary = (d: string): unknown => timeless((JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')) as { standings: unknown }).standings);
      expect(summary(dir)).toEqual(summary(wholeDir));
      expect(readFileSync(join(dir, 'standings.csv'), 'utf8').split('\n')[1]!.split(',').slice(0, 13)).toEqual(
        readFileSync(join(wholeDir, 'standings.csv'), 'utf8').split('\n')[1]!.split(',').slice(0, 13),
      );
    });
  }
});
