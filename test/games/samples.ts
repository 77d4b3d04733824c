/**
 * Parameter sets every family is exercised with by the conformance suite. Each family's owner keeps
 * its entry in step with the family's parameters (GAMES.md names).
 */
export const SAMPLES: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>> = {
  subtraction: [{}, { moves: [1, 2, 3], n: [0, 30] }, { moves: [3, 7, 11], n: 40 }, { moves: [2, 5], n: [0, 40], misere: true }],
  'no-repeat': [{}, { moves: [1, 2, 3, 4, 5], n: [0, 60] }, { moves: [2, 3], n: 17 }, { moves: [1, 2, 4], n: [0, 40], misere: 'true' }],
  partizan: [{}, { left: [2, 5, 9], right: [3, 4, 8], n: [0, 60] }, { left: [1], right: [2], n: 9, start: 'right' }],
  piles: [
    {},
    { rule: 'nim', piles: [3, 4, 5] },
    { rule: 'squares', piles: 3, size: [0, 40] },
    { rule: '1,3,4', piles: 4, size: [0, 20] },
    { rule: [2, 5], piles: [30] },
    { rule: 'nim', piles: 4, size: [0, 5], misere: true },
    { rule: 'squares', piles: [6, 9, 2], misere: true },
  ],
  coins: [
    {},
    { board: 'square', side: 4 },
    { board: 'triangle', rows: 5, scoring: 'points' },
    { board: 'square', side: 6, start: 0.5 },
    { board: 'triangle', rows: 8, coins: [1, 2, 4, 7, 11, 16, 22, 29, 33, 34, 35, 36], scoring: 'points', bonus: 0 },
  ],
  'end-game': [{}, { length: 7, values: [-5, 5] }, { row: [-1, 3, 9, 4] }],
  octal: [
    {},
    { code: '0.07', n: [5, 40] },
    { code: 'officers', heaps: 3, n: [1, 12] },
    { code: '4.07', heaps: [9, 4], misere: true },
    { code: 'kayles', n: [5, 40], misere: 'true' },
    { code: 'dawson', n: [5, 40], misere: true },
  ],
  grundy: [{}, { heaps: [12, 7] }, { n: [3, 30], misere: true }],
};
