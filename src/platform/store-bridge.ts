/**
 * A bot store's live copy held outside the bot's folder (a queued tournament keeps it in Redis, so
 * that every worker's writes land in one place), reached synchronously from the bot's thread: the
 * store API is synchronous (`ctx.store.updateBlob` runs the bot's function between a read and a
 * write), and a bot thread may block while its host's thread does the asynchronous work.
 *
 * The bot's thread posts a request on a `MessageChannel` port nobody listens to on its side, then
 * sleeps in `Atomics.wait` on a shared counter; the host's thread answers through a
 * `StoreBackend`, posts the reply and bumps the counter; the bot's thread takes the reply with
 * `receiveMessageOnPort`. A bot's process (isolation `worker`) has the same call over two pipes
 * (`pipeStoreCall`, `servePipeBridge`): it writes a request frame and blocks reading the reply.
 * Either way the host checks what a bot asks before its backend sees it.
 */
import type { Readable, Writable } from 'node:stream';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { isStoreFileName, type StoreBackend, type StoreCall, type StoreReply, type StoreRequest } from './bot-store.ts';
import { FrameError, FrameReader, INCOMPLETE, readFrameSync, valueFrame, writeAllSync } from './frames.ts';

export type { StoreBackend, StoreCall, StoreReply, StoreRequest } from './bot-store.ts';

/** The bot thread's end of a bridge: transfer `port` to the thread (it is in `transferList`). */
export interface StoreBridgeEnd {
  readonly port: MessagePort;
  readonly sab: SharedArrayBuffer;
}

/** How long a bot's thread waits for its live copy before the store call fails (the host's thread or Redis is gone). */
export const STORE_CALL_TIMEOUT_MS = 10_000;

/**
 * Opens a bridge served by `backend` on this thread: hand `end` to the bot's thread (and
 * `createStoreCall` it there); `close` stops serving.
 */
export function openStoreBridge(backend: StoreBackend): { readonly end: StoreBridgeEnd; close(): void } {
  const { port1, port2 } = new MessageChannel();
  const sab = new SharedArrayBuffer(4);
  const seq = new Int32Array(sab);
  port1.on('message', (msg: { readonly id: number; readonly request: StoreRequest }) => {
    void backend
      .handle(msg.request)
      .catch((err: unknown): StoreReply => ({ ok: false, error: `store unreachable: ${err instanceof Error ? err.message : String(err)}` }))
      .then((reply) => {
        port1.postMessage({ id: msg.id, reply });
        Atomics.store(seq, 0, msg.id);
        Atomics.notify(seq, 0);
      });
  });
  // The bridge never keeps the host's process alive by itself.
  port1.unref();
  return { end: { port: port2, sab }, close: () => port1.close() };
}

/** The bot thread's synchronous call over a bridge end. */
export function createStoreCall(end: StoreBridgeEnd, timeoutMs = STORE_CALL_TIMEOUT_MS): StoreCall {
  const seq = new Int32Array(end.sab);
  let next = 0;
  return (request) => {
    const id = ++next;
    end.port.postMessage({ id, request });
    const until = performance.now() + timeoutMs;
    for (;;) {
      const seen = Atomics.load(seq, 0);
      if (seen === id) break;
      const left = until - performance.now();
      if (left <= 0) return { ok: false, error: `store unreachable: no answer within ${timeoutMs} ms` };
      Atomics.wait(seq, 0, seen, left);
    }
    // Replies come in order: an older one (a call that timed out) is skipped.
    for (;;) {
      const msg = receiveMessageOnPort(end.port)?.message as { readonly id: number; readonly reply: StoreReply } | undefined;
      if (!msg) return { ok: false, error: 'store unreachable: the reply was lost' };
      if (msg.id === id) return msg.reply;
    }
  };
}

/** A store request as a bot sent it, checked (names are store file names), or why it is not one. */
function checkRequest(r: unknown): StoreRequest | string {
  if (r === null || typeof r !== 'object') return 'not an object';
  const q = r as Record<string, unknown>;
  const name = (n: unknown): boolean => typeof n === 'string' && isStoreFileName(n);
  switch (q['op']) {
    case 'put':
      return name(q['name']) && q['payload'] instanceof Uint8Array ? (q as StoreRequest) : 'a malformed put';
    case 'cas':
      return name(q['name']) && q['payload'] instanceof Uint8Array && Number.isSafeInteger(q['version']) ? (q as StoreRequest) : 'a malformed cas';
    case 'get':
      return name(q['name']) ? (q as StoreRequest) : 'a malformed get';
    case 'del':
      return Array.isArray(q['names']) && q['names'].length <= 2 && q['names'].every(name) ? (q as StoreRequest) : 'a malformed del';
    case 'used':
      return q as StoreRequest;
    default:
      return 'an unknown operation';
  }
}

/**
 * Serves a bot process's store calls: frames `{ id, request }` read from `calls`, each answered
 * with a frame `{ id, reply }` on `replies`, in order. A frame over `maxBytes` or that is not a
 * value is the bot breaking the bridge: `broken` hears why (the host ends the process) and
 * nothing more is served.
 */
export function servePipeBridge(backend: StoreBackend, calls: Readable, replies: Writable, maxBytes: number, broken: (why: string) => void): void {
  const frames = new FrameReader(maxBytes);
  /** A call is being served: an honest caller waits for its answer before it asks again. */
  let serving = false;
  let failed = false;
  const fail = (why: string): void => {
    failed = true;
    broken(`broke its store bridge: ${why}`);
  };
  calls.on('data', (chunk: Buffer) => {
    if (failed) return;
    frames.push(chunk);
    let msg: unknown;
    try {
      msg = frames.nextValue();
    } catch (err) {
      return fail(err instanceof FrameError ? err.message : String(err));
    }
    if (msg === INCOMPLETE) return;
    if (serving || frames.pending) return fail('it asked again before its answer');
    serving = true;
    const id = (msg as { id?: unknown } | null)?.id;
    const request = checkRequest((msg as { request?: unknown } | null)?.request);
    const answer = (reply: StoreReply): void => {
      serving = false;
      // A bot that is gone cannot read its reply: the write fails and nobody waits for it.
      if (!replies.destroyed) replies.write(valueFrame({ id, reply }));
    };
    if (typeof request === 'string') return answer({ ok: false, error: `store request refused: ${request}` });
    void backend.handle(request).then(answer, (err: unknown) => answer({ ok: false, error: `store unreachable: ${err instanceof Error ? err.message : String(err)}` }));
  });
}

/** The bot process's synchronous store call over its bridge's fds (write a request, block on its reply). */
export function pipeStoreCall(callFd: number, replyFd: number): StoreCall {
  const frames = new FrameReader();
  let next = 0;
  return (request) => {
    const id = ++next;
    writeAllSync(callFd, valueFrame({ id, request }));
    for (;;) {
      const msg = readFrameSync(replyFd, frames) as { readonly id: number; readonly reply: StoreReply } | null;
      if (msg === null) return { ok: false, error: 'store unreachable: the arena closed the bridge' };
      if (msg.id === id) return msg.reply;
    }
  };
}
