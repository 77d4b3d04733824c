import { describe, expect, it } from 'vitest';
import { run } from './run.ts';

const SEED_002 = '15,19,20,22,23,24,26,27,28,33,38,41';

describe('arena analyze', () => {
  it('analyses one subtraction position (seed 002: n = 1764 is N, largest winning take 28)', async () => {
    const { code, out } = await run('analyze', 'subtraction', '--moves', SEED_002, '--n', '1764', '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.family).toBe('subtraction');
    expect(doc.position).toMatchObject({ outcome: 'N', bestMove: '28' });
  });

  it('answers consecutive sets by the O(1) rule (S = 15..26, n = 1764 is P)', async () => {
    const { out } = await run('analyze', 'subtraction', '--moves', '15,16,17,18,19,20,21,22,23,24,25,26', '--n', '1764', '--json');
    expect(JSON.parse(out).position.outcome).toBe('P');
  });

  it('prints a readable verdict without --json', async () => {
    const { code, out } = await run('analyze', 'subtraction', '--n', '13');
    expect(code).toBe(0);
    expect(out).toMatch(/outcome: +P/);
    expect(out).toMatch(/best move: +1\b/);
  });

  it.each([
    [['--moves', '3,0'], /Expected `moves` to be .*got "3,0"/],
    [['--moves', 'a,b'], /Expected `moves` to be .*got "a,b"/],
    [['--n', '-4'], /Expected `n` to be a non-negative integer/],
    [['--n', '2.5'], /Expected `n` to be a non-negative integer/],
    [['--colour', 'red'], /Unknown option --colour\b/],
    [['--upto', 'ten'], /Expected `--upto` to be a non-negative integer, got "ten"/],
  ])('rejects bad input %j with one line and exit 2', async (flags, message) => {
    const { code, err, out } = await run('analyze', 'subtraction', ...flags);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('judges a given move with --move and rejects one that does not parse', async () => {
    const good = JSON.parse((await run('analyze', 'subtraction', '--n', '50', '--move', '5', '--json')).out);
    expect(good.position.move).toEqual({ move: '5', optimal: true });
    const bad = JSON.parse((await run('analyze', 'subtraction', '--n', '50', '--move', '1', '--json')).out);
    expect(bad.position.move).toEqual({ move: '1', optimal: false });
    const { code, err } = await run('analyze', 'subtraction', '--n', '50', '--move', 'five');
    expect(code).toBe(2);
    expect(err).toMatch(/Expected a move as the number of stones to take.*got "five"/);
  });

  it('rejects an unknown family and suggests the closest', async () => {
    const { code, err } = await run('analyze', 'subtractoin');
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown game family `subtractoin` \(did you mean `subtraction`\?\)/);
  });

  it('tabulates P-positions of one-pile families (GAMES.md 1 and 2)', async () => {
    const sub = JSON.parse((await run('analyze', 'subtraction', '--moves', '1,5,8,10', '--upto', '30', '--json')).out);
    expect(sub.pPositions).toEqual([0, 2, 4, 6, 13, 15, 17, 19, 26, 28, 30]);
    const nr = JSON.parse((await run('analyze', 'no-repeat', '--moves', '1,2,3,4,5', '--upto', '40', '--json')).out);
    expect(nr.pPositions).toEqual([0, 7, 13, 20, 26, 33, 39]);
  });

  it('tabulates the four partizan classes (GAMES.md 3)', async () => {
    const { out } = await run('analyze', 'partizan', '--left', '2,5,9', '--right', '2,4,8', '--upto', '25', '--json');
    const { classes } = JSON.parse(out);
    expect(classes.P).toEqual([0, 1, 7, 14]);
    expect(classes.N).toEqual([2, 3, 5, 6, 9, 10, 12, 16, 19, 23]);
    expect(classes.L).toEqual([]);
    expect(classes.R).toHaveLength(26 - 4 - 10);
  });

  it('tabulates nim-values of subtract-a-square (OEIS A014586)', async () => {
    const { out } = await run('analyze', 'piles', '--rule', 'squares', '--upto', '29', '--json');
    expect(JSON.parse(out).nimValues).toEqual([0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2, 3, 4, 5]);
  });

  it('analyses a Nim position by the xor rule', async () => {
    const doc = JSON.parse((await run('analyze', 'piles', '--piles', '3,4,5', '--json')).out);
    expect(doc.position.outcome).toBe('N');
    expect(doc.position.bestMove).toBe('1:2');
    const cold = JSON.parse((await run('analyze', 'piles', '--piles', '1,2,3', '--json')).out);
    expect(cold.position.outcome).toBe('P');
  });

  it('in a lost position says that every move loses instead of listing them all as "also best"', async () => {
    // Eight piles of a million, nim-sum 0: 8,000,000 moves, every one losing.
    const piles = Array(8).fill('1000000').join(',');
    const text = await run('analyze', 'piles', '--piles', piles);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^best move: {2}\d+:\d+ \(every move loses against best play; this one prolongs the game\)$/m);
    expect(text.out).not.toContain('also best');
    expect(text.out.length).toBeLessThan(2000);
    const doc = JSON.parse((await run('analyze', 'piles', '--piles', piles, '--json')).out);
    expect(doc.position).toMatchObject({ outcome: 'P', bestMoves: [], everyMoveLoses: true });
    // A won position still lists its winning moves.
    expect(JSON.parse((await run('analyze', 'piles', '--piles', '3,4,5', '--json')).out).position).toMatchObject({ everyMoveLoses: false, bestMoves: ['1:2'] });
  });

  it('analyses the End Game row of GAMES.md 6, given as `--row "-1 3 9 4"`', async () => {
    const { code, out } = await run('analyze', 'end-game', '--row', '-1 3 9 4', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out).position).toMatchObject({ outcome: 'N', bestMove: 'L', value: 1 });
  });

  it('analyses coin positions: the four-coin row of GAMES.md 5 and the full 21-coin triangle', async () => {
    const row = JSON.parse((await run('analyze', 'coins', '--board', 'square', '--side', '4', '--coins', '1,2,3,4', '--json')).out);
    expect(row.position).toMatchObject({ outcome: 'N', bestMove: '1-3' });
    const full = JSON.parse((await run('analyze', 'coins', '--json')).out);
    expect(full.position.outcome).toBe('N');
  });

  it('refuses a coin board too large for the exact solver with one line', async () => {
    const { code, err } = await run('analyze', 'coins', '--board', 'square', '--side', '6', '--scoring', 'points');
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('--explain says why, in the family’s own terms (text and JSON); not with --upto', async () => {
    const text = await run('analyze', 'piles', '--piles', '3,4,5', '--explain');
    expect(text.code).toBe(0);
    expect(text.out).toContain('  pile 1: 3 = 011');
    expect(text.out).toContain('take 2 from pile 1 (3 → 1) and the nim-sum becomes 0');
    const json = await run('analyze', 'subtraction', '--moves', '1,5,8,10', '--n', '1000000000000000000', '--explain', '--json');
    expect(JSON.parse(json.out).position.explanation).toEqual([
      'outcomes repeat with period 13: the P-positions are the piles with pile mod 13 in {0 2 4 6}',
      'n = 1000000000000000000 mod 13 = 1: an N-position',
      'take 10: leaves 999999999999999990 mod 13 = 4, a P-position for the opponent',
    ]);
    const bad = await run('analyze', 'piles', '--upto', '5', '--explain');
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe('arena: Expected `--explain` without `--upto`: it explains one position');
  });
});
