import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { ResultsLog } from '../../src/arena/results.ts';
import { tempDir } from './helpers.ts';

/** The log only serializes records, so a line with a key is enough here. */
const rec = (key: string): GameRecord => ({ key, termination: 'normal' }) as unknown as GameRecord;

describe('ResultsLog (group commit)', () => {
  it('settles appends only once their batch is written, in append order', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const log = new ResultsLog(file, { intervalMs: 60_000 });
    const settled: string[] = [];
    const all = ['a', 'b', 'c'].map((k) => log.append(rec(k)).then(() => settled.push(k)));
    await new Promise((r) => setTimeout(r, 5));
    expect(settled).toEqual([]); // nothing durable yet: the interval has not passed
    expect(readFileSync(file, 'utf8')).toBe('');
    await log.flush();
    await Promise.all(all);
    expect(settled).toEqual(['a', 'b', 'c']);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as GameRecord).key)).toEqual(['a', 'b', 'c']);
    // A second batch is a new promise: the first batch's callbacks do not run again.
    const later = log.append(rec('d')).then(() => settled.push('d'));
    await log.close();
    await later;
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes a full batch without waiting for the interval', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const log = new ResultsLog(file, { intervalMs: 60_000, maxBatch: 2 });
    const first = log.append(rec('a'));
    await log.append(rec('b')); // the second line fills the batch: written at once
    await first;
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    await log.close();
  });

  it.skipIf(!existsSync('/dev/full'))('rejects every append of a failed batch and every later one', async () => {
    const log = new ResultsLog('/dev/full', { intervalMs: 60_000 });
    const results = await Promise.allSettled([log.append(rec('a')), log.append(rec('b'))].concat(log.flush()));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    await expect(log.append(rec('c'))).rejects.toThrow(/ENOSPC/);
  });
});
