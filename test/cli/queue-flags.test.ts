import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../arena/redis-server.ts';
import { tempDir } from '../arena/helpers.ts';
import { run } from './run.ts';

/** A key file too short to be a key, and one long enough. */
const SHORT_KEY = join(tempDir(), 'short.key');
writeFileSync(SHORT_KEY, 'secret\n');
const KEY = join(tempDir(), 'queue.key');
writeFileSync(KEY, 'a key of thirty-two bytes or so\n');

describe('queue flags: bad input is one line and exit 2', () => {
  it.each([
    [['worker'], /arena worker needs --queue redis:\/\/host:6379/],
    [['worker', '--queue', 'http://127.0.0.1:6379'], /Expected --queue to be a Redis URL like redis:\/\/127\.0\.0\.1:6379, got "http:\/\/127\.0\.0\.1:6379" \(scheme http\)/],
    [['worker', '--queue', 'redis://127.0.0.1:6379/x'], /Expected the database in --queue to be a number/],
    [['worker', '--queue', 'redis://127.0.0.1:6379', '--concurrency', '0'], /Expected --concurrency to be an integer from 1 to 256, got "0"/],
    [['worker', '--queue', 'redis://127.0.0.1:6379', '--lock-ms', '5'], /Expected --lock-ms to be an integer from 1000/],
    [['worker', '--queue', 'redis://127.0.0.1:6379', '--queue-key-file', SHORT_KEY], /Expected the queue key in --queue-key-file .*short\.key to be at least 16 bytes .*, got 6$/m],
    [['worker', '--queue', 'redis://127.0.0.1:6379', '--queue-key-file', join(tempDir(), 'none')], /Cannot read --queue-key-file .*none: no such file/],
    [['worker', '--queue', 'redis://127.0.0.1:6379', '--isolation', 'chroot'], /isolation/],
    [['tournament', '--bots', 'random,greedy', '--games', 'piles', '--queue-key-file', KEY], /--queue-key-file signs the jobs of a queued tournament: give --queue/],
    [['queue', 'status'], /arena queue status needs --queue/],
    [['tournament', '--bots', 'random,greedy', '--games', 'piles', '--queue', 'redis:/x'], /Expected --queue to be a Redis URL|--queue to name a host/],
  ])('arena %j', async (argv, message) => {
    const r = await run(...(argv as string[]));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('a Redis that cannot be reached is one line, not a hang or a stack trace', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`; // nothing listens there
    const r = await run('tournament', '--bots', 'random,greedy', '--games', 'piles', '--queue', url, '--out', tempDir());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.* \(start one with `redis-server/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
