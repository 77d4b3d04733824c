/**
 * A user's game on the boards: its `formatState` (several lines) or, without one, its key, as the
 * play screen and the dashboard's live games draw it; its heaps as stone rows when it gives a `view`.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { AnyGame, Seat } from '../../src/core/game.ts';
import { createVariant, eraseGame } from '../../src/core/params.ts';
import { createRng } from '../../src/core/rng.ts';
import { defineGame, userFamily } from '../../src/games/user.ts';
import { Board } from '../../src/tui/boards/Board.tsx';
import { LiveGames } from '../../src/tui/dashboard/LiveGames.tsx';

type State = { readonly rows: readonly number[]; readonly turn: Seat };
const other = (s: Seat): Seat => (s === 'first' ? 'second' : 'first');

/** Nim on rows dealt 3 and 5 (enough rules for a board), with the optional drawing fields given as asked. */
function rowsGame(draw: { formatState?: boolean; view?: boolean }): AnyGame {
  const definition = defineGame({
    name: 'rows',
    params: {},
    deal: () => ({ rows: [3, 5], turn: 'first' as Seat }),
    toMove: (s: State) => s.turn,
    moves: (s: State) => s.rows.flatMap((n, i) => Array.from({ length: n }, (_, k) => [i, k + 1] as const)),
    play: (s: State, [i, k]: readonly [number, number]): State => ({ rows: s.rows.map((n, j) => (j === i ? n - k : n)), turn: other(s.turn) }),
    outcome: (s: State) => (s.rows.every((n) => n === 0) ? { winner: other(s.turn) } : null),
    key: (s: State) => `${s.turn}|${s.rows.join(' ')}`,
    formatMove: ([i, k]: readonly [number, number]) => `${i + 1}-${k}`,
    parseMove: (text: string): readonly [number, number] => {
      const [i, k] = text.split('-').map(Number);
      return [i! - 1, k!];
    },
    ...(draw.formatState ? { formatState: (s: State) => s.rows.map((n, i) => `row ${i + 1}: ${'#'.repeat(n)}`).join('\n') } : {}),
    ...(draw.view ? { view: (s: State) => ({ piles: s.rows }) } : {}),
  });
  return eraseGame(createVariant(userFamily(definition as never, 'rows.ts'), {}));
}

const frame = (el: React.ReactElement): string => render(el).lastFrame() ?? '';

describe("a user's game on the boards", () => {
  it('draws formatState line by line, and the key without it', () => {
    const drawn = rowsGame({ formatState: true });
    const start = drawn.deal(createRng(1));
    const text = frame(<Board game={drawn} state={start} width={40} />);
    expect(text).toContain('row 1: ###');
    expect(text).toContain('row 2: #####');
    const plain = rowsGame({});
    expect(frame(<Board game={plain} state={plain.deal(createRng(1))} width={40} />)).toContain('first|3 5');
  });

  it("draws the game's heaps as stone rows when it gives a view, with the last move marked", () => {
    const game = rowsGame({ view: true });
    const start = game.deal(createRng(1));
    const next = game.play(start, game.parseMove('2-2', start));
    const heaps = frame(<Board game={game} state={next} prev={start} width={40} />);
    // The piles board: a line per heap, the stones just taken hollow, and the move said.
    expect(heaps).toContain('1 3 ●●●\n2 3 ●●●○○');
    expect(heaps).toContain('last took 2 from pile 2');
    expect(heaps).not.toContain('second|');
  });

  it("the dashboard's live games draw it from the event's JSON and text", () => {
    const game = rowsGame({ formatState: true });
    const start = game.deal(createRng(1));
    const live = {
      index: 0,
      key: 'k',
      variant: game.id,
      seats: { first: 'random', second: 'optimal' },
      ply: 0,
      position: { state: game.toJSON(start), text: game.describe(start), toMove: 'first' as Seat, toMoveBot: 'random' },
      prevState: null,
      last: null,
    };
    const text = frame(<LiveGames games={[live]} gameOf={() => game} width={80} height={20} />);
    expect(text).toContain('row 1: ###');
    expect(text).toContain('row 2: #####');
    expect(text).toContain('random vs optimal');
  });
});
