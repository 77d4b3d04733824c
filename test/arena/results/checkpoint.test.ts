/**
 * The fold's checkpoint (results/checkpoint.ts): a resume of a folder whose log is as the run left
 * it takes the standings from the sealed checkpoint instead of reading the log; a checkpoint that
 * does not hold for the log (edited, forged, the log written to since) is passed over and the log
 * read and verified as ever, to the same standings.
 */
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArenaEvent, TournamentStartedEvent } from '../../../src/arena/events.ts';
import { GUARD_FILES, RESULTS_FILES } from '../../../src/arena/results/index.ts';
import { comparableLog, runSpec, timeless } from '../helpers.ts';

const SPEC = {
  name: 'checkpoint',
  seed: 11,
  games: ['subtraction{n=20..40}', 'end-game{length=6;values=-5..5}'],
  bots: ['fx-random', 'fx-first', 'random'],
  deals: 3,
  timePerMoveMs: 1000,
  isolation: 'none' as const,
  concurrency: 1,
};

/** Resumes a folder: the run's result and its start event. */
async function resume(dir: string): Promise<{ started: TournamentStartedEvent; summary: Awaited<ReturnType<typeof runSpec>>['summary'] }> {
  const events: ArenaEvent[] = [];
  const r = await runSpec(SPEC, { resumeDir: dir, sink: { emit: (e) => events.push(e) } });
  return { started: events.find((e): e is TournamentStartedEvent => e.type === 'tournament-started')!, summary: r.summary };
}

/** Garbles a byte in the middle of the log, keeping its length and its time. */
function garbleMiddle(dir: string): void {
  const file = join(dir, RESULTS_FILES.games);
  const { atimeMs, mtimeMs } = statSync(file);
  const bytes = readFileSync(file);
  const at = bytes.indexOf('"moves":[', bytes.length >> 1) + 10;
  bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
  writeFileSync(file, bytes);
  utimesSync(file, atimeMs / 1000, mtimeMs / 1000);
}

describe('the fold checkpoint', () => {
  it('lets a resume of a finished folder take its standings without reading the log', async () => {
    const whole = await runSpec(SPEC);
    expect(existsSync(join(whole.dir, GUARD_FILES.checkpoint))).toBe(true);
    // A line garbled in place, its length and time kept: the log is not read, so nothing is dropped.
    garbleMiddle(whole.dir);
    const fast = await resume(whole.dir);
    expect(fast.started.repaired).toBeUndefined();
    expect(fast.started.done).toBe(fast.started.total);
    expect(timeless(fast.summary.standings)).toEqual(timeless(whole.summary.standings));
    expect(fast.summary.games).toEqual(whole.summary.games);
    // Without the checkpoint the log is read and verified: the lines the garbled one's seal covers are dropped and played again.
    writeFileSync(join(whole.dir, GUARD_FILES.checkpoint), '');
    const read = await resume(whole.dir);
    expect(read.started.repaired?.dropped).toMatchObject({ checksum: expect.any(Number) });
    expect(read.summary.games.played).toBe(whole.summary.games.played);
  });

  it('is passed over when it was edited, or the log was written to since', async () => {
    const whole = await runSpec(SPEC);
    const file = join(whole.dir, GUARD_FILES.checkpoint);
    const sealed = readFileSync(file, 'utf8');
    // A forged tally: the seal fails, the log is read (garbled first, so reading it shows).
    garbleMiddle(whole.dir);
    writeFileSync(file, sealed.replace('"done":36', '"done":35'));
    expect((await resume(whole.dir)).started.repaired?.dropped).toMatchObject({ checksum: expect.any(Number) });
    // The resume sealed a new checkpoint for the repaired log: the next one takes it.
    expect(readFileSync(file, 'utf8')).not.toBe(sealed);
    const next = await resume(whole.dir);
    expect(next.started.repaired).toBeUndefined();
    expect(timeless(next.summary.standings.pooled.bots.map((b) => b.games))).toEqual(whole.summary.standings.pooled.bots.map((b) => b.games));
    // The log's time moved (a write, a copy): read again.
    garbleMiddle(whole.dir);
    const log = join(whole.dir, RESULTS_FILES.games);
    utimesSync(log, new Date(), new Date(Date.now() + 5000));
    expect((await resume(whole.dir)).started.repaired?.dropped).toMatchObject({ checksum: expect.any(Number) });
  });

  it('resumes an interrupted run from its checkpoint to the uninterrupted result', async () => {
    const whole = await runSpec(SPEC);
    const controller = new AbortController();
    let seen = 0;
    const part = await runSpec(SPEC, {
      signal: controller.signal,
      sink: { detail: 'live', emit: (e) => void (e.type === 'game-started' && ++seen === 12 && controller.abort()) },
    });
    expect(part.interrupted).toBe(true);
    expect(existsSync(join(part.dir, GUARD_FILES.checkpoint))).toBe(true);
    const resumed = await resume(part.dir);
    expect(resumed.started.done).toBeGreaterThan(0);
    expect(resumed.summary.complete).toBe(true);
    expect(comparableLog(part.dir)).toEqual(comparableLog(whole.dir));
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
  });
});
