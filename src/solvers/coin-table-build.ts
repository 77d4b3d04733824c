/**
 * Builds a whole-board coin table (`coin-table.ts`) on several threads: the blocks live in
 * SharedArrayBuffers, and blocks whose indices have equal popcount (independent of each other) are
 * handed out to worker threads one at a time, each as soon as the blocks it reads are final.
 *
 * The workers run a plain JavaScript bundle of `coin-table-worker.ts` (esbuild, once per process),
 * not the tsx shim: besides starting faster, a thread that registers tsx (Node's module hooks)
 * detaches an ArrayBuffer, which turns off V8's "no ArrayBuffer was ever detached" protector for
 * that thread, and from then on every typed-array access in optimised code re-checks its buffer
 * (about 30% of the block computation's time). The shim remains the fallback.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundleScript } from '../platform/bundle.ts';
import { siblingModule } from '../platform/paths.ts';
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

let script: Promise<URL> | undefined;

/** This folder: the worker bundle's imports resolve from here. */
export const SOLVERS_DIR = dirname(fileURLToPath(import.meta.url));

/** The worker script, bundled once per process; the tsx shim when bundling fails. */
export function tableWorkerScript(): Promise<URL> {
  script ??= bundleScript(`import { runTableWorker } from ${JSON.stringify(siblingModule(import.meta.url, 'coin-table-worker'))};\nrunTableWorker();\n`, SOLVERS_DIR, 'coin-table-worker').catch(
    () => new URL('./coin-table-worker.mjs', import.meta.url),
  );
  return script;
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
  const url = await tableWorkerScript();
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
      const worker = new Worker(url, { workerData: data });
      workers.push(worker);
      ready.push(
        new Promise((resolve, reject) => {
          worker.once('message', () => resolve(worker));
          worker.once('error', reject);
        }),
      );
    }
    const pool = await Promise.all(ready);
    // Hand out blocks to whichever worker is free as soon as their dependencies are final: block h
    // reads only blocks whose index is a proper subset of h, all final once every h minus one bit
    // is. No barrier between popcount layers, so a worker does not wait for the layer's last block.
    // Among ready blocks, the first in layer order (popcount, then index).
    const order = blockLayers(layout).flat();
    const done = new Uint8Array(blocks.length);
    const started = new Uint8Array(blocks.length);
    const isReady = (h: number): boolean => {
      for (let rest = h; rest !== 0; rest &= rest - 1) if (done[h ^ (rest & -rest)] === 0) return false;
      return true;
    };
    await new Promise<void>((resolve, reject) => {
      const idle: Worker[] = [];
      let first = 0; // every block before order[first] has been started
      let finished = 0;
      const dispatch = (): void => {
        while (first < order.length && started[order[first]!] === 1) first++;
        for (let i = first; i < order.length && idle.length > 0; i++) {
          const h = order[i]!;
          if (started[h] === 1 || !isReady(h)) continue;
          started[h] = 1;
          idle.pop()!.postMessage(h);
        }
        if (finished === blocks.length) resolve();
      };
      for (const worker of pool) {
        worker.on('message', (h: number) => {
          done[h] = 1;
          finished++;
          idle.push(worker);
          dispatch();
        });
        worker.on('error', reject);
        idle.push(worker);
      }
      dispatch();
    });
    report();
    return { layout, blocks };
  } finally {
    if (timer) clearInterval(timer);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
