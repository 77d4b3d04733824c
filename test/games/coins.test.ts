import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MoveError, ParamError, TooLargeError, createRng, createVariant, type Game } from '../../src/core/index.ts';
import { coinTablesBuilt, coins, type CoinMove, type CoinsState } from '../../src/games/coins.ts';
import { parseVariant } from '../../src/games/index.ts';
import { createCoinOracle, squareGraph } from '../../src/solvers/coins.ts';

type CoinGame = Game<CoinsState, CoinMove>;
const make = (params: Record<string, unknown> = {}): CoinGame => createVariant(coins, params);
const maskOf = (nums: readonly number[]): number => nums.reduce((m, c) => m + 2 ** (c - 1), 0);
const at = (nums: readonly number[], turn: 'first' | 'second' = 'first', scores: [number, number] = [0, 0]): CoinsState => ({
  coins: maskOf(nums),
  turn,
  scores,
});
const present = (game: CoinGame, s: CoinsState): number[] => (game.toJSON(s) as { coins: number[] }).coins;

/** Misère minimax straight over the game's own rules: a finished game is won by `outcome`'s winner. */
function bruteWins(game: CoinGame, s: CoinsState, memo = new Map<string | number | bigint, boolean>()): boolean {
  const over = game.outcome(s);
  if (over) return over.winner === s.turn;
  const key = game.key(s);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const w = game.moves(s).some((m) => !bruteWins(game, game.play(s, m), memo));
  memo.set(key, w);
  return w;
}

/** Negamax over the game's rules: the final margin (scores from `outcome`) for the player to move. */
function bruteMargin(game: CoinGame, s: CoinsState, memo = new Map<string | number | bigint, number>()): number {
  const over = game.outcome(s);
  if (over) {
    const [a, b] = over.scores!;
    return s.turn === 'first' ? a - b : b - a;
  }
  const key = game.key(s);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const v = Math.max(...game.moves(s).map((m) => 0 - bruteMargin(game, game.play(s, m), memo))); // 0 - x: never -0
  memo.set(key, v);
  return v;
}

/** Coordinates of coin numbers from GAMES.md's reading order. */
function coordsOf(board: 'triangle' | 'square', size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < size; r++) for (let c = 0; c < (board === 'triangle' ? r + 1 : size); c++) out.push([r, c]);
  return out;
}

describe('coins: parameters and variant ids', () => {
  it('defaults to the 21-coin triangle, last coin loses, full board', () => {
    const game = make();
    expect(game.id).toBe('coins{board=triangle;rows=6;start=full;scoring=last-coin}');
    expect(game.params).toEqual({ board: 'triangle', rows: 6, start: 'full', scoring: 'last-coin' });
    expect(game.size!(game.deal(createRng(1)))).toBe(21);
    expect(make({ board: 'square' }).size!(make({ board: 'square' }).deal(createRng(1)))).toBe(36);
  });

  it('keeps only the parameters in force, so ids are canonical and round-trip', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ board: 'square' }, 'coins{board=square;side=6;start=full;scoring=last-coin}'],
      [{ board: 'square', side: '4', start: '1' }, 'coins{board=square;side=4;start=full;scoring=last-coin}'],
      [{ rows: 5, start: 0.5, scoring: 'points' }, 'coins{board=triangle;rows=5;start=0.5;scoring=points;bonus=3}'],
      [{ coins: '5,1,2', start: 0.3, bonus: 0, scoring: 'points' }, 'coins{board=triangle;rows=6;coins=1,2,5;scoring=points;bonus=0}'],
    ];
    for (const [params, id] of cases) {
      const game = make(params);
      expect(game.id).toBe(id);
      expect(parseVariant(game.id).id).toBe(game.id);
    }
    fc.assert(
      fc.property(
        fc.constantFrom('triangle', 'square'),
        fc.integer({ min: 1, max: 6 }),
        fc.oneof(fc.constant('full'), fc.double({ min: 0.01, max: 1, noNaN: true })),
        fc.constantFrom('last-coin', 'points'),
        fc.integer({ min: 0, max: 100 }),
        (board, size, start, scoring, bonus) => {
          const game = make({
            board,
            [board === 'triangle' ? 'rows' : 'side']: size,
            start,
            scoring,
            ...(scoring === 'points' ? { bonus } : {}),
          });
          return parseVariant(game.id).id === game.id;
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects bad and misplaced parameters with a ParamError naming the field', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ board: 'hexagon' }, /`board`/],
      [{ rows: 9 }, /`rows`/],
      [{ board: 'square', side: 7 }, /`side`/],
      [{ side: 4 }, /`side` only with board=square/],
      [{ board: 'square', rows: 4 }, /`rows` only with board=triangle/],
      [{ bonus: 2 }, /`bonus` only with scoring=points/],
      [{ scoring: 'points', bonus: 101 }, /`bonus`/],
      [{ start: 0 }, /`start`/],
      [{ start: 1.5 }, /`start`/],
      [{ start: 'half' }, /`start`/],
      [{ coins: '1,1' }, /`coins`/],
      [{ rows: 3, coins: '1,7' }, /`coins` to be coin numbers from 1 to 6/],
      [{ scoring: 'misere' }, /`scoring`/],
    ];
    for (const [params, message] of bad) expect(() => make(params), JSON.stringify(params)).toThrow(ParamError);
    for (const [params, message] of bad) expect(() => make(params)).toThrow(message);
  });
});

describe('coins: dealing', () => {
  it('a density deals round(density × coins) distinct coins, reproducibly by seed', () => {
    const game = make({ board: 'square', start: 0.5 });
    for (let seed = 0; seed < 20; seed++) {
      const s = game.deal(createRng(seed));
      expect(game.size!(s)).toBe(18);
      expect(game.key(s)).toBe(game.key(game.deal(createRng(seed))));
      expect(s.turn).toBe('first');
    }
    const keys = new Set(Array.from({ length: 20 }, (_, seed) => game.key(game.deal(createRng(seed)))));
    expect(keys.size).toBeGreaterThan(15);
    expect(make({ start: 0.01 }).size!(make({ start: 0.01 }).deal(createRng(3)))).toBe(1); // never an empty board
  });

  it('an explicit coin list is the start position, whatever `start` says', () => {
    const game = make({ coins: [1, 2, 5], start: 0.5 });
    expect(present(game, game.deal(createRng(9)))).toEqual([1, 2, 5]);
  });
});

describe('coins: moves and notation', () => {
  it('GAMES.md 5 example: with one row 1 2 3 4, the player to move wins by taking 1-3', () => {
    const game = make({ board: 'square', side: 4, coins: [1, 2, 3, 4] });
    const s = game.deal(createRng(1));
    expect(game.moves(s).map(game.formatMove)).toEqual(['1', '1-2', '1-3', '1-4', '2', '2-3', '2-4', '3', '3-4', '4']);
    const after = game.play(s, game.parseMove('1-3', s));
    expect(game.moves(after).map(game.formatMove)).toEqual(['4']);
    const end = game.play(after, game.parseMove('4', after));
    expect(game.outcome(end)).toEqual({ winner: 'first' });
    const solver = game.solver!()!;
    expect(solver.classify(s)).toBe('N');
    expect(game.formatMove(solver.bestMove(s)!)).toBe('1-3');
    expect(bruteWins(game, s)).toBe(true);
    // the same row on the triangle is 7 8 9 10 (row 4)
    const tri = make({ rows: 4, coins: [7, 8, 9, 10] });
    const t = tri.deal(createRng(1));
    expect(tri.formatMove(tri.solver!()!.bestMove(t)!)).toBe('7-9');
  });

  it('every legal move is a run of present coins on one line, and the list is complete', () => {
    for (const [board, size] of [
      ['triangle', 6],
      ['triangle', 8],
      ['square', 5],
      ['square', 6],
    ] as const) {
      const game = make({ board, [board === 'triangle' ? 'rows' : 'side']: size, start: 0.6 });
      const xy = coordsOf(board, size);
      const at = new Map(xy.map(([r, c], i) => [`${r},${c}`, i + 1]));
      const dirs = board === 'triangle' ? [[0, 1], [1, 0], [1, 1]] : [[0, 1], [1, 0], [1, 1], [1, -1]];
      for (let seed = 0; seed < 5; seed++) {
        const s = game.deal(createRng(seed));
        const here = new Set(present(game, s));
        // independently: every run of present coins along every direction
        const expected = new Set<string>();
        for (const c of here) {
          expected.add(`${c}`);
          const [r, col] = xy[c - 1]!;
          for (const [dr, dc] of dirs) {
            for (let k = 1; ; k++) {
              const next = at.get(`${r + k * dr!},${col + k * dc!}`);
              if (next === undefined || !here.has(next)) break;
              expected.add(`${c}-${next}`);
            }
          }
        }
        const listed = game.moves(s).map(game.formatMove);
        expect(new Set(listed)).toEqual(expected);
        expect(listed.length).toBe(expected.size);
      }
    }
  });

  it('parses either endpoint order, formats the smaller first, and round-trips every move', () => {
    const game = make({ board: 'square' });
    const s = game.deal(createRng(1));
    expect(game.moves(s)).toHaveLength(326);
    for (const m of game.moves(s)) {
      expect(game.parseMove(game.formatMove(m), s)).toEqual(m);
      expect(game.parseMove(`${m.last}-${m.first}`, s)).toEqual(m);
    }
    expect(game.formatMove(game.parseMove(' 15 - 13 ', make().deal(createRng(1))))).toBe('13-15');
    expect(game.formatMove(game.parseMove('36-1', s))).toBe('1-36'); // the long diagonal
    expect(game.formatMove(game.parseMove('31-6', s))).toBe('6-31'); // the anti-diagonal
  });

  it('rejects malformed, off-board, off-line and gapped takes with a MoveError', () => {
    const game = make();
    const s = game.play(game.deal(createRng(1)), { first: 2, last: 2 });
    const bad: [string, RegExp][] = [
      ['x', /Expected a take/],
      ['1-', /Expected a take/],
      ['0', /not on this board/],
      ['22', /not on this board/],
      ['1-5', /not on one line/],
      ['2', /Coin 2 is already taken/],
      ['1-4', /Coin 2 is already taken/],
    ];
    for (const [text, message] of bad) {
      expect(() => game.parseMove(text, s)).toThrow(MoveError);
      expect(() => game.parseMove(text, s)).toThrow(message);
    }
    expect(() => game.play(s, { first: 1, last: 4 })).toThrow(MoveError);
  });

  it('play is pure and handles coins above 32 (36-coin boards)', () => {
    for (const params of [{ board: 'square' }, { rows: 8 }]) {
      const game = make(params);
      const s = Object.freeze(game.deal(createRng(1)));
      const frozen = JSON.stringify(s);
      const t = game.play(s, game.parseMove('31-36', s));
      expect(JSON.stringify(s)).toBe(frozen);
      expect(present(game, t)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(game.parseMove('33', s)).toEqual({ first: 33, last: 33 });
      expect(() => game.parseMove('33', t)).toThrow(/already taken/);
      expect(game.moves(t).every((m) => m.last <= 30)).toBe(true);
    }
  });
});

describe('coins: outcomes', () => {
  it('last-coin: who takes the last coin loses', () => {
    const game = make({ coins: [1] });
    const s = game.deal(createRng(1));
    expect(game.outcome(s)).toBeNull();
    expect(game.outcome(game.play(s, { first: 1, last: 1 }))).toEqual({ winner: 'second' });
  });

  it('points: a point per coin, the bonus to who did not take the last coin, equal totals draw', () => {
    const game = make({ rows: 2, scoring: 'points' }); // 1 / 2 3
    let s = game.deal(createRng(1));
    s = game.play(s, game.parseMove('2-3', s)); // first: 2
    expect(s.scores).toEqual([2, 0]);
    const end = game.play(s, game.parseMove('1', s)); // second: 1, takes the last coin; first gets 3
    expect(game.outcome(end)).toEqual({ winner: 'first', scores: [5, 1] });
    const draw = make({ rows: 2, scoring: 'points', bonus: 1 });
    let d = draw.deal(createRng(1));
    d = draw.play(d, { first: 1, last: 1 });
    d = draw.play(d, { first: 2, last: 2 });
    d = draw.play(d, { first: 3, last: 3 }); // first 2 coins, second 1 + bonus 1
    expect(draw.outcome(d)).toEqual({ winner: null, scores: [2, 2] });
  });

  it('keys tell apart side to move and, under points, scores', () => {
    const misere = make();
    expect(misere.key(at([1, 2]))).not.toBe(misere.key(at([1, 2], 'second')));
    expect(misere.key(at([1, 2]))).not.toBe(misere.key(at([1, 3])));
    const points = make({ board: 'square', scoring: 'points' });
    const full = Array.from({ length: 36 }, (_, i) => i + 1);
    const keys = new Set([
      points.key(at(full)),
      points.key(at(full, 'second')),
      points.key(at(full, 'first', [1, 0])),
      points.key(at(full, 'first', [0, 1])),
      points.key(at(full.slice(1))),
    ]);
    expect(keys.size).toBe(5);
    for (const k of keys) expect(Number.isSafeInteger(k)).toBe(true);
  });
});

describe('coins: solver', () => {
  it('the 21-coin triangle is a first-player win: 1-16 leaves a lost position (checked by brute force)', () => {
    const game = make();
    const s = game.deal(createRng(1));
    const solver = game.solver!()!;
    expect(solver.classify(s)).toBe('N');
    expect(solver.value(s)).toBe(1);
    const best = solver.bestMove(s)!;
    expect(game.formatMove(best)).toBe('1-16');
    const child = game.play(s, best);
    expect(solver.classify(child)).toBe('P');
    // independent of the bitset: naive minimax over the rules on the 15 coins left
    expect(bruteWins(game, child)).toBe(false);
  });

  it('last-coin value, class and best move agree with brute force on random deals (fast-check)', () => {
    const boards = [{ rows: 4 }, { rows: 6, start: 0.4 }, { rows: 8, start: 0.25 }, { board: 'square', side: 3 }, { board: 'square', start: 0.25 }];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: boards.length - 1 }), fc.nat(), (which, seed) => {
        const game = make(boards[which]!);
        const solver = game.solver!()!;
        const s = game.deal(createRng(seed));
        const memo = new Map<string | number | bigint, boolean>();
        const win = bruteWins(game, s, memo);
        expect(solver.value(s)).toBe(win ? 1 : -1);
        expect(solver.classify(s)).toBe(win ? 'N' : 'P');
        const best = solver.bestMove(s)!;
        const winners = game.moves(s).filter((m) => !bruteWins(game, game.play(s, m), memo));
        if (win) {
          // the winning take with the most coins, the earliest of those
          const most = Math.max(...winners.map((m) => game.size!(s) - game.size!(game.play(s, m))));
          const first = winners.find((m) => game.size!(s) - game.size!(game.play(s, m)) === most)!;
          expect(best).toEqual(first);
        } else {
          expect(winners).toEqual([]);
          expect(best.first).toBe(best.last); // lost: a single coin
        }
      }),
      { numRuns: 60 },
    );
  });

  it('in a lost position, takes the single coin that leaves the fewest winning replies', () => {
    const game = make({ rows: 5, start: 0.5 });
    const solver = game.solver!()!;
    let checked = 0;
    for (let seed = 0; checked < 5 && seed < 200; seed++) {
      const s = game.deal(createRng(seed));
      if (solver.classify(s) !== 'P') continue;
      checked++;
      const replies = (m: CoinMove) => {
        const c = game.play(s, m);
        return game.moves(c).filter((r) => !bruteWins(game, game.play(c, r))).length;
      };
      const singles = game.moves(s).filter((m) => m.first === m.last);
      const fewest = Math.min(...singles.map(replies));
      expect(solver.bestMove(s)).toEqual(singles.find((m) => replies(m) === fewest));
    }
    expect(checked).toBe(5);
  });

  it('points value, class and best move agree with brute-force negamax, scores so far included (fast-check)', () => {
    const boards = [
      { rows: 4, scoring: 'points' },
      { rows: 5, start: 0.5, scoring: 'points', bonus: 0 },
      { board: 'square', start: 0.25, scoring: 'points', bonus: 7 },
      { board: 'square', side: 3, scoring: 'points', bonus: 1 },
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: boards.length - 1 }),
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (which, seed, a, b, second) => {
          const game = make(boards[which]!);
          const solver = game.solver!()!;
          const s: CoinsState = { ...game.deal(createRng(seed)), scores: [a, b], turn: second ? 'second' : 'first' };
          const memo = new Map<string | number | bigint, number>();
          const v = bruteMargin(game, s, memo);
          expect(solver.scored).toBe(true);
          expect(solver.value(s)).toBe(v);
          expect(solver.classify(s)).toBe(v > 0 ? 'N' : v < 0 ? 'P' : 'D');
          const best = solver.bestMove(s)!;
          expect(0 - bruteMargin(game, game.play(s, best), memo)).toBe(v); // 0 - x: no -0
          const optimal = game.moves(s).filter((m) => -bruteMargin(game, game.play(s, m), memo) === v);
          const most = Math.max(...optimal.map((m) => game.size!(s) - game.size!(game.play(s, m))));
          expect(game.size!(s) - game.size!(game.play(s, best))).toBe(most);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('is offered within the table cap (25 coins, 21 on points), and beyond it under last-coin only', () => {
    // Beyond the cap, last-coin deals get the search solver (or the board's table file); it offers
    // bestMoveBy so callers with a deadline can fall back (test/solvers/coin-table.test.ts).
    expect(make({ board: 'square' }).solver!()).toBeDefined();
    expect(make({ rows: 8 }).solver!()).toBeDefined();
    expect(make({ rows: 8, scoring: 'points' }).solver!()).toBeUndefined();
    expect(make({ board: 'square', start: 0.5 }).solver!()).toBeDefined();
    expect(make({ board: 'square', coins: '1,2,3,8,36' }).solver!()).toBeDefined();
    expect(make({ board: 'square', side: 5, scoring: 'points' }).solver!()).toBeUndefined();
    expect(make({ scoring: 'points' }).solver!()).toBeDefined();
    // a caller who plays on from outside the variant's deals gets a TooLargeError, not a wrong answer
    const solver = make({ board: 'square', start: 0.5 }).solver!()!;
    expect(() => solver.value(at(Array.from({ length: 30 }, (_, i) => i + 1)))).toThrow(TooLargeError);
  });

  it('on a large board, builds one table per dealt position and answers the rest of the game from it', () => {
    const game = make({ board: 'square', start: 0.5 }); // 18 of 36 coins: a compact table per deal
    const solver = game.solver!()!;
    let s = game.deal(createRng(4242));
    const before = coinTablesBuilt();
    while (!game.outcome(s)) s = game.play(s, solver.bestMove(s)!);
    expect(coinTablesBuilt() - before).toBe(1);
  });

  it('on a board beyond the shared table, answers dealt last-coin positions as misereTable does', () => {
    // Such deals get a block-algorithm table per dealt position; the reference is the plain table.
    const game = make({ board: 'square', start: 0.6 }); // about 22 of 36 coins
    const solver = game.solver!()!;
    const reference = createCoinOracle(squareGraph(6), 'last-coin', 0, { cap: 25 });
    const rng = createRng(77);
    for (let d = 0; d < 3; d++) {
      let s = game.deal(rng);
      while (!game.outcome(s)) {
        expect(solver.classify(s)).toBe(reference.win(s.coins) ? 'N' : 'P');
        const moves = game.moves(s);
        s = game.play(s, moves[rng.int(0, moves.length - 1)]!);
      }
    }
  });

  it('answers the empty board: the player to move has won (last-coin) or gets the bonus (points)', () => {
    expect(make().solver!()!.value(at([]))).toBe(1);
    expect(make().solver!()!.bestMove(at([]))).toBeNull();
    expect(make({ rows: 3, scoring: 'points' }).solver!()!.value(at([], 'second', [4, 1]))).toBe(1 - 4 + 3);
  });
});

describe('coins: heuristic, size, describe', () => {
  it('greedy measure: coins taken; under last-coin the last coin is worst and leaving one is best', () => {
    const game = make();
    const s = at([1, 2, 3, 4]); // 1 / 2 3 / 4
    const h = (text: string) => game.heuristic!(s, game.parseMove(text, s));
    expect(h('1-4')).toBe(22); // the column 1 2 4 leaves coin 3: the opponent must take it
    expect(h('2-4')).toBe(2);
    expect(h('1')).toBe(1);
    expect(game.heuristic!(at([5]), { first: 5, last: 5 })).toBe(-1);
    const points = make({ scoring: 'points' });
    expect(points.heuristic!(s, { first: 1, last: 4 })).toBe(3);
    expect(points.heuristic!(at([2, 3]), { first: 2, last: 3 })).toBe(2 - 3);
    expect(game.size!(s)).toBe(4);
  });

  it('describes the board row by row with taken coins dotted', () => {
    const game = make({ rows: 3, scoring: 'points' });
    expect(game.describe(at([1, 3, 4, 5, 6], 'second', [1, 0]))).toBe('1 / · 3 / 4 5 6 — second to move, scores 1–0');
    expect(game.toJSON(at([1, 3], 'second', [1, 0]))).toEqual({ coins: [1, 3], turn: 'second', scores: [1, 0] });
  });
});
