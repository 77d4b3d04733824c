/**
 * The coordinator's lease against a real redis-server: renewals that wait on a blocked Redis pile up
 * behind each other, and the lease lapses meanwhile. Only one renewal may be on its way at a time:
 * two that both found the lease lapsed would both try to take it again, and the one that lost that
 * race (to its own coordinator) would end the run saying another coordinator had taken it over.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoordinatorLease } from '../../../src/arena/queue/lease.ts';
import { leaseKey, type QueueError } from '../../../src/arena/queue/protocol.ts';
import { waitFor } from '../../patience.ts';
import { HAVE_REDIS, TestRedis } from '../redis-server.ts';

/** Keeps the Redis server busy (it answers nobody) for `ms`, on the server's own clock. */
const BUSY = `
local t = redis.call('TIME')
local stop = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[1]) * 1000
repeat t = redis.call('TIME') until tonumber(t[1]) * 1000000 + tonumber(t[2]) >= stop
return 1`;

// Skipped only on a developer machine without redis-server: CI installs it, and fails without it.
describe.skipIf(!HAVE_REDIS && !process.env['CI'])('the coordinator lease (real redis-server)', () => {
  let server: TestRedis;

  beforeAll(async () => {
    server = await TestRedis.start();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('takes a lapsed lease back once, however many renewals waited on a blocked Redis, and never calls itself another coordinator', async () => {
    const redis = new Redis(server.url, { lazyConnect: true });
    const blocker = new Redis(server.url, { lazyConnect: true });
    await Promise.all([redis.connect(), blocker.connect()]);
    const lost: QueueError[] = [];
    const lease = new CoordinatorLease(redis, 'lease-race', (err) => lost.push(err));
    const key = leaseKey('lease-race');
    try {
      await lease.acquire(() => {});
      const mine = await redis.get(key);
      // The lease lapses (as when the coordinator's machine stalls), then Redis answers nobody for
      // 3.5 s: the renewals due every second meanwhile all wait for it and find the lease gone.
      await redis.del(key);
      await blocker.eval(BUSY, 0, '3500');
      // Renewed twice more after that: every renewal that was waiting has been answered by then.
      let renewals = 0;
      let ttl = await redis.pttl(key);
      await waitFor(async () => {
        const now = await redis.pttl(key);
        if (now > ttl) renewals++;
        ttl = now;
        return renewals >= 2 || lost.length > 0;
      }, 'two renewals of the lease after Redis came back');
      expect(lost.map((e) => e.message)).toEqual([]);
      expect(await redis.get(key)).toBe(mine);
    } finally {
      await lease.release();
      redis.disconnect();
      blocker.disconnect();
    }
  });
});
