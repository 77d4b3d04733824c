/** What the queue tests share: waiting for a condition, the registered tournament, comparable logs. */
import type { Redis } from 'ioredis';
import { TOURNAMENTS_KEY } from '../../../src/arena/queue/protocol.ts';
import { comparableLog } from '../helpers.ts';

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The tournament id the coordinator registered. */
export async function registeredId(redis: Redis): Promise<string> {
  let id = '';
  await until(async () => ((id = Object.keys(await redis.hgetall(TOURNAMENTS_KEY))[0] ?? ''), id !== ''), 30_000, 'the coordinator to register');
  return id;
}

/** Records without timing fields, retry counts and the worker (what may differ between a queued and a local run). */
export function comparableDir(dir: string): unknown[] {
  return comparableLog(dir).map((r) => {
    const { retries: _r, worker: _w, ...rest } = r as { retries?: number; worker?: string };
    return rest;
  });
}
