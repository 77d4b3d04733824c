/**
 * my-game: a take-arena game family (Kayles, written as a user would). Edit the rules, then
 *   arena games check games/my-game.ts                   (random playouts: purity, keys, notation, solver)
 *   arena play "my-game{rows=2}"                         (play it against a bot)
 *   arena tournament --games my-game --bots random,optimal
 *
 * Kayles: rows of pins; a move knocks down one pin or two adjacent pins of one row, which may split
 * it in two. Whoever cannot move loses. States and moves are plain JSON data; rules are pure.
 */
import { defineGame, intSchema, rangeSchema, type Seat } from 'take-arena';

/** A position: the rows' lengths (sorted, no empty rows: one state per position) and who moves. */
type State = { readonly rows: readonly number[]; readonly turn: Seat };
/** Knock `take` pins (1 or 2) out of row `row` (0-based), leaving `left` pins on its left. */
type Move = { readonly row: number; readonly take: number; readonly left: number };

const other = (seat: Seat): Seat => (seat === 'first' ? 'second' : 'first');

/** Nim-values of one row of n pins (the Sprague–Grundy theory), computed as far as asked. */
const nimValues: number[] = [0];
function nimValue(n: number): number {
  while (nimValues.length <= n) {
    const m = nimValues.length;
    const seen = new Set<number>();
    for (const take of [1, 2]) for (let left = 0; left + take <= m; left++) seen.add(nimValues[left]! ^ nimValues[m - take - left]!);
    let mex = 0;
    while (seen.has(mex)) mex++;
    nimValues.push(mex);
  }
  return nimValues[n]!;
}

export default defineGame({
  // The family id in variant ids: my-game{rows=2;pins=5..12}.
  name: 'my-game',
  title: 'Kayles',
  summary: 'Knock down one pin or two adjacent pins of a row; whoever cannot move loses.',
  notation: 'row:take:left, e.g. `1:2:3` (row 1, two pins, three left of them)',
  // Each parameter is validated before anything runs; bad values get a one-line error.
  params: {
    rows: { schema: intSchema(1, 6), description: 'rows of pins', expected: 'an integer from 1 to 6', default: 1 },
    pins: { schema: rangeSchema(1, 200), description: 'pins per row, drawn per deal', expected: 'an integer or a range like 5..12, within 1..200', default: { min: 5, max: 12 } },
  },
  // The only randomness: the rng the arena gives (same seed, same deal).
  deal: (rng, p) => ({ rows: Array.from({ length: p.rows }, () => rng.int(p.pins.min, p.pins.max)).sort((a, b) => a - b), turn: 'first' as Seat }),
  toMove: (s: State) => s.turn,
  moves(s: State): Move[] {
    const out: Move[] = [];
    s.rows.forEach((n, row) => {
      if (row > 0 && s.rows[row - 1] === n) return; // an equal row before it has the same moves
      // `left <= right`: the mirror image of a move is the same move.
      for (const take of [1, 2]) for (let left = 0; left + take <= n && left <= n - take - left; left++) out.push({ row, take, left });
    });
    return out;
  },
  play(s: State, m: Move): State {
    const n = s.rows[m.row]!;
    const rows = [...s.rows.slice(0, m.row), ...s.rows.slice(m.row + 1), m.left, n - m.take - m.left].filter((r) => r > 0).sort((a, b) => a - b);
    return { rows, turn: other(s.turn) };
  },
  // Normal play: the player to move with no move left loses.
  outcome: (s: State) => (s.rows.length === 0 ? { winner: other(s.turn) } : null),
  key: (s: State) => `${s.turn}:${s.rows.join(',')}`,
  formatMove: (m: Move) => `${m.row + 1}:${m.take}:${m.left}`,
  parseMove(text: string, s: State): Move {
    const [row, take, left] = text.trim().split(':').map(Number);
    const move = { row: row! - 1, take: take!, left: left! };
    const n = s.rows[move.row];
    if (n === undefined || (take !== 1 && take !== 2) || !Number.isInteger(left) || left! < 0 || left! + take > n) {
      throw new Error(`Expected row:take:left with take 1 or 2, like 1:2:0, got ${JSON.stringify(text)}`);
    }
    // The mirror image of a move is written with the smaller side on the left.
    const small = Math.min(left!, n - take - left!);
    return { row: s.rows.indexOf(n), take, left: small };
  },
  formatState: (s: State) => s.rows.map((n, i) => `row ${i + 1}: ${'|'.repeat(n)} (${n})`).join('\n'),
  // Optional: exact play. The player to move wins exactly when the rows' nim-values XOR to non-zero.
  solver: {
    value: (s: State) => (s.rows.reduce((x, n) => x ^ nimValue(n), 0) !== 0 ? 1 : -1),
  },
  // Optional: how much game is left (the hybrid bot's switch).
  size: (s: State) => s.rows.reduce((a, b) => a + b, 0),
});
