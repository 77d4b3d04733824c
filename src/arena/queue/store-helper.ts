/**
 * The store helper thread of `arena worker`: a bot with isolation `none` runs on the worker's main
 * thread, which cannot wait for Redis while the bot's synchronous store call waits for it. This
 * thread has its own Redis connection and serves those calls (src/platform/store-bridge.ts): the
 * main thread sleeps in `Atomics.wait`, this one talks to Redis and wakes it.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openStoreBridge } from '../../platform/store-bridge.ts';
import { connectRedis, redisAway } from './protocol.ts';
import { redisStoreBackend } from './stores.ts';

/** Asks the helper for a bridge to one bot's live copy; it answers on `reply` with the bridge's end. */
export interface StoreHelperRequest {
  readonly key: string;
  readonly capBytes: number;
  readonly reply: MessagePort;
}

/** Runs in the helper thread: `workerData` is the Redis URL. */
export function runStoreHelper(): void {
  const port = parentPort;
  if (!port) throw new Error('store-helper.ts must run in a worker thread');
  const redis = connectRedis(workerData as string, 'take-arena-worker-stores');
  redis.on('error', redisAway); // outages: the worker's main connection reports them; calls wait
  port.on('message', (req: StoreHelperRequest) => {
    const bridge = openStoreBridge(redisStoreBackend(redis, req.key, req.capBytes));
    req.reply.postMessage(bridge.end, [bridge.end.port]);
    req.reply.close();
  });
}
