import { gzipSync } from 'node:zlib';
import type { ReportGame } from './data.ts';

/**
 * The replayable games as the page carries them, and nothing lost: each game's moves and boards
 * as columns (a board repeats most of the one before it: the column of a key that never changes
 * holds its value once), the whole in JSON, gzipped, in base64. The page unpacks it with the
 * browser's own `DecompressionStream` and `assets/unpack.js` after its first paint.
 */

/**
 * A list of objects as one column per key: `cols[k]` holds the value of `k` in each object, or
 * once when every object that has `k` has the same value; `gaps[k]` lists the objects without
 * `k` (only for keys some object lacks; their place in a full column holds null).
 */
export interface Columns {
  /** How many objects. */
  readonly n: number;
  readonly cols: Readonly<Record<string, readonly unknown[]>>;
  readonly gaps: Readonly<Record<string, readonly number[]>>;
}

/** One game packed: its fields but the moves and boards, which go as columns. */
export interface PackedGame extends Omit<ReportGame, 'start' | 'plies'> {
  /** Each ply's move, seat, time and verdict. */
  readonly plies: Columns;
  /** The start position's board, then the board after each ply. */
  readonly boards: Columns;
}

/** `rows` as columns (see `Columns`); values compared by their JSON. */
export function toColumns(rows: readonly object[]): Columns {
  const cols: Record<string, unknown[]> = {};
  const gaps: Record<string, number[]> = {};
  for (const k of new Set(rows.flatMap((r) => Object.keys(r)))) {
    const col = rows.map((r) => (Object.hasOwn(r, k) ? (r as Record<string, unknown>)[k] : undefined));
    const missing = col.flatMap((v, i) => (v === undefined ? [i] : []));
    const present = col.filter((v) => v !== undefined);
    const first = JSON.stringify(present[0]);
    cols[k] = present.every((v) => JSON.stringify(v) === first) ? [present[0]] : col.map((v) => v ?? null);
    if (missing.length) gaps[k] = missing;
  }
  return { n: rows.length, cols, gaps };
}

/** A game with its plies and boards as columns. */
export function packGame(g: ReportGame): PackedGame {
  const { start, plies, ...rest } = g;
  return {
    ...rest,
    plies: toColumns(plies.map(({ board: _board, ...ply }) => ply)),
    boards: toColumns([start, ...plies.map((p) => p.board)]),
  };
}

/** The games as the page's `report-games` element holds them: packed, JSON, gzip, base64. */
export function packGames(games: readonly ReportGame[]): string {
  return gzipSync(JSON.stringify(games.map(packGame)), { level: 9 }).toString('base64');
}
