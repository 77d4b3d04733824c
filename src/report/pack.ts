import { gzipSync } from 'node:zlib';
import type { ReportGame } from './data.ts';

/**
 * The replayable games as the page carries them, and nothing lost: each game's moves and boards
 * as columns (a board repeats most of the one before it: the column of a key that never changes
 * holds its value once), in chunks of consecutive games, each JSON, gzipped, in base64 (see
 * `packReplays`). The page unpacks them with the browser's own `DecompressionStream` and
 * `assets/unpack.js` after its first paint: the list of games, then the chunk of each game opened.
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

/** About how many characters of JSON one chunk of games holds: a game opened inflates its chunk alone. */
export const CHUNK_JSON_CHARS = 64 * 1024;

/** A game's fields without its moves and boards, and how many moves it has: the page's list of games. */
export type GameEntry = Omit<ReportGame, 'start' | 'plies'> & { readonly moves: number };

/**
 * The replays as the page carries them, each part JSON, gzipped, in base64: `index` is the list of
 * games without their moves (`{ games: Columns of GameEntry, chunks: the index of each chunk's first
 * game }`), `chunks` the games' moves and boards, consecutive games together (a `PackedGame`'s
 * `plies` and `boards` each), so the page unpacks the list and then only the chunk of a game opened.
 */
export interface PackedReplays {
  readonly index: string;
  readonly chunks: readonly string[];
}

const gzip64 = (value: unknown): string => gzipSync(JSON.stringify(value), { level: 9 }).toString('base64');

/** The games packed for the page: their list, and their moves in chunks of about `chunkChars` of JSON. */
export function packReplays(games: readonly ReportGame[], chunkChars: number = CHUNK_JSON_CHARS): PackedReplays {
  const entries: GameEntry[] = [];
  const chunks: string[] = [];
  const firsts: number[] = [];
  let chunk: Pick<PackedGame, 'plies' | 'boards'>[] = [];
  let chars = 0;
  games.forEach((g, i) => {
    const { plies, boards, ...entry } = packGame(g);
    entries.push({ ...entry, moves: plies.n });
    if (chunk.length === 0) firsts.push(i);
    chunk.push({ plies, boards });
    chars += JSON.stringify(plies).length + JSON.stringify(boards).length;
    if (chars >= chunkChars || i === games.length - 1) {
      chunks.push(gzip64(chunk));
      chunk = [];
      chars = 0;
    }
  });
  return { index: gzip64({ games: toColumns(entries), chunks: firsts }), chunks };
}
