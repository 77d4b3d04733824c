/**
 * Body of a coin-table worker thread: receives the board graph, the layout parameters and the
 * shared blocks once, then computes the blocks it is sent, one message per block.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { computeBlock, tableLayout } from './coin-table.ts';
import type { LineGraph } from './coins.ts';

/** What the builder passes as `workerData`. */
export interface TableWorkerData {
  readonly graph: LineGraph;
  readonly blockBits: number;
  readonly chunkBits: number;
  readonly buffers: readonly SharedArrayBuffer[];
  /** Shared progress counters: slot `index` counts the chunks this worker has finished. */
  readonly progress: SharedArrayBuffer;
  readonly index: number;
}

/** Runs the worker loop (called by the plain-JS bundle `coin-table-build.ts` makes, or by the tsx shim `coin-table-worker.mjs`). */
export function runTableWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('coin-table worker: not in a worker thread');
  const data = workerData as TableWorkerData;
  const layout = tableLayout(data.graph, data.blockBits, data.chunkBits);
  const blocks = data.buffers.map((b) => new Int32Array(b));
  const progress = new Int32Array(data.progress);
  port.on('message', (h: number) => {
    computeBlock(layout, blocks, h, progress, data.index);
    port.postMessage(h);
  });
  port.postMessage(-1); // ready
}
