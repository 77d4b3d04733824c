import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import { GUARD_FILES, LogChain, readLogKey } from '../../src/arena/results-guard.ts';
import { UsageError } from '../../src/core/errors.ts';
import { comparableLog, runSpec, timeless } from './helpers.ts';

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

/** The chain as a second runner that stole the key would continue it, after an honest line. */
function chainAfter(dir: string, line: string): LogChain {
  return new LogChain(readLogKey(dir), /"chk":"([0-9a-f]+)"\}$/.exec(line)![1]!);
}

describe('results log guard', () => {
  it('chains a checksum on every line; resume drops garbage, forged, duplicate and unscheduled lines, quarantines them and says how many', async () => {
    const whole = await runSpec(SPEC);
    expect(statSync(join(whole.dir, GUARD_FILES.key)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(whole.dir, GUARD_FILES.lock))).toBe(false); // released at the end

    // An interrupted run: keep its first 4 lines, as a crash would.
    const part = await runSpec(SPEC);
    const file = join(part.dir, 'games.jsonl');
    const honest = readFileSync(file, 'utf8').split('\n').slice(0, 4);
    const records = honest.map((l) => JSON.parse(l) as Record<string, unknown>);
    // A bot's forgery: a game not yet played, claimed won, with a made-up checksum.
    const unplayed = readFileSync(join(whole.dir, 'games.jsonl'), 'utf8')
      .split('\n')
      .map((l) => JSON.parse(l || '{}') as Record<string, unknown>)
      .find((r) => r['key'] !== undefined && !records.some((x) => x['key'] === r['key']))!;
    const forged = JSON.stringify({ ...unplayed, winner: 'fx-first', chk: '0'.repeat(32) });
    writeFileSync(file, `${honest.slice(0, 2).join('\n')}\nnot json at all\n${forged}\n${honest.slice(2).join('\n')}\n`);
    // A copy of an honest line at the end fails the chain too (its checksum belongs elsewhere).
    appendFileSync(file, `${honest[0]}\n`);
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
