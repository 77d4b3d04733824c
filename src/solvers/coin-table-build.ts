/**
 * Builds a whole-board coin table (`coin-table.ts`) on several threads: the blocks live in
 * SharedArrayBuffers, and blocks whose indices have equal popcount (independent of each other) are
 * handed out to worker threads one at a time, layer after layer.
 */
import { Worker } from 'node:worker_threads';
import { allocateBlocks, blockLayers, blockWords, tableLayout, type TableLayout } from './coin-table.ts';
import type { LineGraph } from './coins.ts';
import type { TableWorkerData } from './coin-table-worker.ts';

/** Options of a parallel build. */
export interface ParallelBuildOptions {
  /** Worker threads (default 2). */
  readonly workers?: number;
  readonly blockBits?: number;
  readonly chunkBits?: number;
  /** Called about every 200 ms and at the end with the fraction of chunks done, 0..1. */
  readonly onProgress?: (done: number) => void;
}

/** A finished table: its layout and its blocks (SharedArrayBuffer-backed). */
export interface BuiltTable {
  readonly layout: TableLayout;
  readonly blocks: Int32Array[];
}

/** Fills the table of `g` with worker threads over shared blocks. */
export async function buildTableParallel(g: LineGraph, options: ParallelBuildOptions = {}): Promise<BuiltTable> {
  const layout = tableLayout(g, options.blockBits, options.chunkBits);
  const blocks = allocateBlocks(layout, true);
  const count = Math.max(1, Math.floor(options.workers ?? 2));
  const progress = new Int32Array(new SharedArrayBuffer(4 * count));
  const totalChunks = blocks.length * (blockWords(layout) / 2 ** layout.chunkBits);
  const report = (): void => {
    if (!options.onProgress) return;
    let done = 0;
    for (let i = 0; i < count; i++) done += Atomics.load(progress, i);
    options.onProgress(done / totalChunks);
  };
  const timer = options.onProgress ? setInterval(report, 200) : undefined;
  const workers: Worker[] = [];
  try {
    const ready: Promise<Worker>[] = [];
    for (let index = 0; index < count; index++) {
      const data: TableWorkerData = {
        graph: g,
        blockBits: layout.blockBits,
        chunkBits: layout.chunkBits,
        buffers: blocks.map((b) => b.buffer as SharedArrayBuffer),
        progress: progress.buffer as SharedArrayBuffer,
        index,
      };
      const worker = new Worker(new URL('./coin-table-worker.mjs', import.meta.url), { workerData: data });
      workers.push(worker);
      ready.push(
        new Promise((resolve, reject) => {
          worker.once('message', () => resolve(worker));
          worker.once('error', reject);
        }),
      );
    }
    const pool = await Promise.all(ready);
    for (const layer of blockLayers(layout)) {
      // Hand out the layer's blocks one by one to whichever worker is free.
      let next = 0;
      await Promise.all(
        pool.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              const send = (): void => {
                if (next >= layer.length) {
                  worker.off('message', send);
                  worker.off('error', reject);
                  resolve();
                  return;
                }
                worker.postMessage(layer[next++]!);
              };
              worker.on('message', send);
              worker.on('error', reject);
              send();
            }),
        ),
      );
    }
    report();
    return { layout, blocks };
  } finally {
    if (timer) clearInterval(timer);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
