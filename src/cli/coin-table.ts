/**
 * `arena analyze coins --build-table`: fills the whole-board misère table of a coin board with
 * worker threads, shows a progress bar on stderr and writes the table to the cache folder, where
 * the coins solver (and so the optimal bot) finds it.
 */
import { UsageError } from '../core/errors.ts';
import { buildTableParallel } from '../solvers/coin-table-build.ts';
import { readBit, tableIndex } from '../solvers/coin-table.ts';
import { defaultTableDir, tableName, writeTableFile, type TableMeta } from '../solvers/coin-table-file.ts';
import { squareGraph, triangleGraph } from '../solvers/coins.ts';

/** Options of one build. */
export interface CoinTableRequest {
  readonly board: 'square' | 'triangle';
  readonly size: number;
  readonly dir?: string | undefined;
  /** Worker threads (default 2); the CLI's `--workers` schema keeps it in 1..64. */
  readonly workers?: number | undefined;
  /** Where the progress bar goes (stderr in the CLI). */
  readonly progress?: ((text: string) => void) | undefined;
}

/** Smallest board the whole-board table builds (smaller boards are solved by the subset tables). */
export const MIN_TABLE_CELLS = 9;

/** Builds, writes and reports one table; returns its facts and path. */
export async function buildCoinTable(req: CoinTableRequest): Promise<TableMeta & { path: string }> {
  const g = req.board === 'square' ? squareGraph(req.size) : triangleGraph(req.size);
  if (g.cells < MIN_TABLE_CELLS) {
    throw new UsageError(`Expected a board of at least ${MIN_TABLE_CELLS} coins for --build-table, got ${g.cells}`);
  }
  const workers = req.workers ?? 2;
  const dir = req.dir ?? defaultTableDir();
  const started = performance.now();
  const bar = (done: number): void => {
    if (!req.progress) return;
    const width = 30;
    const filled = Math.round(done * width);
    const secs = (performance.now() - started) / 1000;
    const eta = done > 0.01 ? ` eta ${Math.round((secs / done) * (1 - done))}s` : '';
    req.progress(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(done * 100).toFixed(1)}% ${secs.toFixed(0)}s${eta}   `);
  };
  const { layout, blocks } = await buildTableParallel(g, { workers, onProgress: bar });
  const buildMs = performance.now() - started;
  req.progress?.('\n');
  const full = 2 ** g.cells - 1;
  const meta: TableMeta = {
    format: 1,
    board: req.board,
    size: req.size,
    cells: g.cells,
    blockBits: layout.blockBits,
    chunkBits: layout.chunkBits,
    order: layout.order,
    bytes: blocks.length * blocks[0]!.byteLength,
    buildMs: Math.round(buildMs),
    workers,
    fullBoardWins: readBit(layout, blocks, tableIndex(layout).of(full)),
  };
  const path = writeTableFile(dir, tableName(req.board, req.size), blocks, meta);
  return { ...meta, path };
}
