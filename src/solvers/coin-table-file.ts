/**
 * The whole-board coin tables on disk: `<dir>/coins-<board><size>.bits` holds the blocks of
 * `coin-table.ts` one after another (little-endian Int32 words), `<dir>/coins-<board><size>.json`
 * its layout and facts. The JSON is written last, so a table without one is an unfinished build and
 * is ignored. Lookups read one word at a time from the file (no 8 GiB load): a bot's move needs a
 * few hundred lookups.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { blockWords, tableIndex, tableLayout, type TableLayout } from './coin-table.ts';
import type { LineGraph } from './coins.ts';
import { makeDirs } from '../platform/files.ts';

/** The facts stored beside a table. */
export interface TableMeta {
  readonly format: 1;
  readonly board: string;
  readonly size: number;
  readonly cells: number;
  readonly blockBits: number;
  readonly chunkBits: number;
  /** The layout's cell order (table bit → cell), checked against the code on load. */
  readonly order: readonly number[];
  readonly bytes: number;
  readonly buildMs: number;
  readonly workers: number;
  /** True when the player to move wins from the full board (the first player). */
  readonly fullBoardWins: boolean;
}

/** The cache folder: `$TAKE_ARENA_CACHE`, else `$XDG_CACHE_HOME/take-arena`, else `~/.cache/take-arena`. */
export function defaultTableDir(): string {
  const env = process.env;
  if (env.TAKE_ARENA_CACHE) return env.TAKE_ARENA_CACHE;
  return join(env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'take-arena');
}

/** The base file name of a board's table. */
export function tableName(board: string, size: number): string {
  return `coins-${board}${size}`;
}

/** Writes a finished table (its blocks, then its JSON) into `dir`; returns the `.bits` path. */
export function writeTableFile(dir: string, name: string, blocks: readonly Int32Array[], meta: TableMeta): string {
  if (os.endianness() !== 'LE') throw new Error('coin tables are written little-endian; this host is big-endian');
  makeDirs(dir);
  const bits = join(dir, `${name}.bits`);
  const fd = openSync(`${bits}.tmp`, 'w');
  try {
    for (const block of blocks) {
      const bytes = new Uint8Array(block.buffer, block.byteOffset, block.byteLength);
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, Math.min(bytes.length - at, 1 << 30));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(`${bits}.tmp`, bits);
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  return bits;
}

/** An opened table file: the misère win bit of any subset of the board. */
export interface TableFile {
  readonly meta: TableMeta;
  /** True when the player to move with exactly the coins of board mask `mask` wins. */
  win(mask: number): boolean;
  close(): void;
}

/**
 * Opens the table of a board in `dir`, or returns undefined when there is none (or an unfinished
 * one). Throws when a table is there but does not match this code's layout or its own size.
 */
export function openTableFile(dir: string, name: string, g: LineGraph): TableFile | undefined {
  const jsonPath = join(dir, `${name}.json`);
  const bitsPath = join(dir, `${name}.bits`);
  if (!existsSync(jsonPath) || !existsSync(bitsPath)) return undefined;
  const meta = JSON.parse(readFileSync(jsonPath, 'utf8')) as TableMeta;
  const layout: TableLayout = tableLayout(g, meta.blockBits, meta.chunkBits);
  if (meta.format !== 1 || meta.cells !== g.cells || layout.order.join(',') !== meta.order.join(',')) {
    throw new Error(`coin table ${jsonPath} was built with another layout; rebuild it with --build-table`);
  }
  const expected = 2 ** layout.blockBits * blockWords(layout) * 4;
  if (statSync(bitsPath).size !== expected) throw new Error(`coin table ${bitsPath} has ${statSync(bitsPath).size} bytes, expected ${expected}`);
  const fd = openSync(bitsPath, 'r');
  const index = tableIndex(layout);
  const word = Buffer.alloc(4);
  return {
    meta,
    win(mask) {
      const i = index.of(mask);
      const w = Math.floor(i / 32);
      if (readSync(fd, word, 0, 4, w * 4) !== 4) throw new Error(`coin table ${bitsPath}: short read`);
      return ((word.readInt32LE(0) >>> (i % 32)) & 1) === 1;
    },
    close: () => closeSync(fd),
  };
}

