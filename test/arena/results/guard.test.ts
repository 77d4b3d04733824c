import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../../src/arena/events.ts';
import { fileURLToPath } from 'node:url';
import { GUARD_FILES, LogChain, readLogKey, scanLog } from '../../../src/arena/results/index.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { comparableLog, runSpec, tempDir, timeless } from '../helpers.ts';

/**
 * A results folder of SPEC in the format take-arena b0906c9 wrote, a checksum on every line (5 games
 * logged, with the schedule's bot seeds of today: each line sealed alone, as b0906c9 sealed it).
 */
const OLD_FORMAT = fileURLToPath(new URL('../../fixtures/results-per-line-chk', import.meta.url));

const SPEC = {
  name: 'guard',
  seed: 7,
  games: ['subtraction{n=20..40}'],
  bots: ['fx-random', 'fx-first', 'random'],
  deals: 2,
  timePerMoveMs: 1000,
  isolation: 'none' as const,
  concurrency: 1,
};

/** A line without its `chk` field (the line as written inside a batch). */
const unsealed = (line: string): string => line.replace(/,"chk":"[0-9a-f]+"\}$/, '}');

/** The chain as a second runner that stole the key would continue it, after an honest line. */
function chainAfter(dir: string, line: string): LogChain {
  return new LogChain(readLogKey(dir), /"chk":"([0-9a-f]+)"\}$/.exec(line)![1]!);
}

describe('results log guard', () => {
  it('chains a checksum through the log; resume drops garbage, forged, duplicate and unscheduled lines, quarantines them and says how many', async () => {
    const whole = await runSpec(SPEC);
    expect(statSync(join(whole.dir, GUARD_FILES.key)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(whole.dir, GUARD_FILES.lock))).toBe(false); // released at the end

    // An interrupted run: keep its first 4 lines, as a crash after a batch of 4 would (the runner
    // seals each batch on its last line: the 4th is sealed here as that batch's last).
    const part = await runSpec(SPEC);
    const file = join(part.dir, 'games.jsonl');
    const honest = readFileSync(file, 'utf8').split('\n').slice(0, 4).map(unsealed);
    honest[3] = new LogChain(readLogKey(part.dir)).seal(honest[3]!, honest.slice(0, 3));
    const records = honest.map((l) => JSON.parse(l) as Record<string, unknown>);
    // A bot's forgery: a game not yet played, claimed won, with a made-up checksum.
    const unplayed = readFileSync(join(whole.dir, 'games.jsonl'), 'utf8')
      .split('\n')
      .map((l) => JSON.parse(l || '{}') as Record<string, unknown>)
      .find((r) => r['key'] !== undefined && !records.some((x) => x['key'] === r['key']))!;
    const forged = JSON.stringify({ ...unplayed, winner: 'fx-first', chk: '0'.repeat(32) });
    writeFileSync(file, `${honest.slice(0, 2).join('\n')}\nnot json at all\n${forged}\n${honest.slice(2).join('\n')}\n`);
    // A copy of an honest sealed line at the end fails the chain too (its checksum belongs elsewhere).
    appendFileSync(file, `${honest[3]}\n`);
    // Lines sealed with the key (a second runner): a duplicate key and a game not in the schedule.
    const { chk: _c, ...first } = records[0]!;
    const stolen = chainAfter(part.dir, honest[3]!);
    appendFileSync(file, `${stolen.seal(JSON.stringify(first))}\n${stolen.seal(JSON.stringify({ ...first, key: 'nosuch|0|0|ab' }))}\n`);

    const events: ArenaEvent[] = [];
    const resumed = await runSpec(SPEC, { resumeDir: part.dir, sink: { emit: (e) => events.push(e) } });
    const started = events.find((e) => e.type === 'tournament-started');
    expect(started?.type === 'tournament-started' && started.repaired).toEqual({
      dropped: { garbage: 1, checksum: 2, duplicate: 1, unscheduled: 1 },
      quarantine: join(part.dir, GUARD_FILES.quarantine),
    });
    expect(started?.type === 'tournament-started' && started.done).toBe(4);
    // The result is exactly the honest run's; the dropped lines are kept aside, as they were.
    expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
    const quarantined = readFileSync(join(part.dir, GUARD_FILES.quarantine), 'utf8').trimEnd().split('\n');
    expect(quarantined).toHaveLength(5);
    expect(quarantined).toContain('not json at all');
    expect(quarantined).toContain(forged);
    // The repaired log verifies as a whole: resuming again drops nothing and plays nothing.
    const again: ArenaEvent[] = [];
    await runSpec(SPEC, { resumeDir: part.dir, sink: { emit: (e) => again.push(e) } });
    const s2 = again.find((e) => e.type === 'tournament-started');
    expect(s2?.type === 'tournament-started' && s2.repaired).toBeUndefined();
    expect(again.filter((e) => e.type === 'game-ended')).toHaveLength(0);
  });

  it('drops the whole lines of a batch cut short (no seal after them) and a batch with an edited line, and replays their games', async () => {
    const whole = await runSpec(SPEC);
    /** A finished run's folder whose log is rewritten from its lines by `rewrite` (the lines without `chk`, sealed with its key). */
    const cut = async (rewrite: (lines: string[], chain: LogChain) => string): Promise<string> => {
      const part = await runSpec(SPEC);
      const file = join(part.dir, 'games.jsonl');
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map(unsealed);
      writeFileSync(file, rewrite(lines, new LogChain(readLogKey(part.dir))));
      return part.dir;
    };
    const resume = async (dir: string): Promise<{ done: number; repaired: unknown; quarantined: string[] }> => {
      const events: ArenaEvent[] = [];
      const resumed = await runSpec(SPEC, { resumeDir: dir, sink: { emit: (e) => events.push(e) } });
      expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
      const started = events.find((e) => e.type === 'tournament-started');
      if (started?.type !== 'tournament-started') throw new Error('no start');
      return { done: started.done, repaired: started.repaired?.dropped, quarantined: readFileSync(join(dir, GUARD_FILES.quarantine), 'utf8').trimEnd().split('\n') };
    };
    const run = (chain: LogChain, lines: string[]): string => `${[...lines.slice(0, -1), chain.seal(lines.at(-1)!, lines.slice(0, -1))].join('\n')}\n`;
    // A batch of 4, then 3 whole lines of a batch whose write stopped before its seal.
    const crashed = await cut((lines, chain) => `${run(chain, lines.slice(0, 4))}${lines.slice(4, 7).join('\n')}\n`);
    expect(await resume(crashed)).toMatchObject({ done: 4, repaired: { partial: 3 }, quarantined: { length: 3 } });
    // Two batches of 4; a line inside the second is edited after it was sealed: its whole batch fails.
    const edited = await cut((lines, chain) => {
      const second = lines.slice(4, 8);
      const text = run(chain, lines.slice(0, 4)) + run(chain, second);
      return text.replace(second[1]!, second[1]!.replace(/"dealSeed":(\d)/, (_m, d: string) => `"dealSeed":${(Number(d) + 1) % 10}`));
    });
    expect(await resume(edited)).toMatchObject({ done: 4, repaired: { checksum: 4 }, quarantined: { length: 4 } });
    // A forged line slipped in between two lines of a sealed batch (no checksum of its own): it
    // alone fails, the batch around it still verifies.
    let forgery = '';
    const slipped = await cut((lines, chain) => {
      const second = lines.slice(4, 8);
      const text = run(chain, lines.slice(0, 4)) + run(chain, second);
      const rec = JSON.parse(lines[8]!) as Record<string, unknown>;
      forgery = JSON.stringify({ ...rec, winner: rec['winner'] === 'fx-first' ? 'random' : 'fx-first' });
      return text.replace(`${second[1]!}\n`, `${second[1]!}\n${forgery}\n`);
    });
    expect(await resume(slipped)).toMatchObject({ done: 8, repaired: { checksum: 1 }, quarantined: [forgery] });
  });

  it('verifies and resumes a folder written by take-arena before sealed runs (a checksum on every line)', async () => {
    const whole = await runSpec(SPEC);
    // In take-arena b0906c9's format (a `chk` on every line): 5 of the 12 games, as after a crash.
    const dir = join(tempDir(), 'guard-old');
    cpSync(OLD_FORMAT, dir, { recursive: true });
    const before = readFileSync(join(dir, 'games.jsonl'), 'utf8');
    expect(before.trimEnd().split('\n').every((l) => /,"chk":"[0-9a-f]{32}"\}$/.test(l))).toBe(true);
    const events: ArenaEvent[] = [];
    const resumed = await runSpec(SPEC, { resumeDir: dir, sink: { emit: (e) => events.push(e) } });
    const started = events.find((e) => e.type === 'tournament-started');
    expect(started?.type === 'tournament-started' && started.done).toBe(5);
    expect(started?.type === 'tournament-started' && started.repaired).toBeUndefined();
    expect(events.filter((e) => e.type === 'game-ended')).toHaveLength(7);
    expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
    // The old lines are kept as they were, the new ones chained on after them: the whole log verifies.
    const after = readFileSync(join(dir, 'games.jsonl'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const scan = scanLog(join(dir, 'games.jsonl'), readLogKey(dir), () => null, () => {});
    expect(scan.anyDropped).toBe(false);
    // An old line's checksum changed: it fails, and so do the 3 old lines chained after it, as before.
    const lines = before.trimEnd().split('\n');
    lines[1] = lines[1]!.replace(/"chk":"(.)/, (_m, c: string) => `"chk":"${c === '0' ? '1' : '0'}`);
    writeFileSync(join(dir, 'games.jsonl'), `${lines.join('\n')}\n`);
    const again = scanLog(join(dir, 'games.jsonl'), readLogKey(dir), () => null, () => {});
    expect(again.dropped).toEqual({ checksum: 4 });
  });

  it('refuses a second runner on a folder in use, and takes over the lock of one that is gone', async () => {
    const part = await runSpec(SPEC);
    const lock = join(part.dir, GUARD_FILES.lock);
    // A live runner: this test's parent process stands in for it.
    writeFileSync(lock, `${process.ppid}\n`);
    await expect(runSpec(SPEC, { resumeDir: part.dir })).rejects.toThrow(UsageError);
    await expect(runSpec(SPEC, { resumeDir: part.dir })).rejects.toThrow(`is in use by another runner (pid ${process.ppid})`);
    // A runner killed with SIGKILL leaves its lock behind: its pid is gone.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lock, `${gone.stdout}\n`);
    const resumed = await runSpec(SPEC, { resumeDir: part.dir });
    expect(resumed.interrupted).toBe(false);
    expect(existsSync(lock)).toBe(false);
    // Two runs in one process on one folder: the second is refused while the first holds it.
    const [a, b] = await Promise.allSettled([runSpec(SPEC, { resumeDir: part.dir }), runSpec(SPEC, { resumeDir: part.dir })]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses to resume a folder without its key: its lines cannot be verified', async () => {
    const part = await runSpec(SPEC);
    writeFileSync(join(part.dir, GUARD_FILES.key), '');
    await expect(runSpec(SPEC, { resumeDir: part.dir })).rejects.toThrow(/is not a key/);
  });
});
