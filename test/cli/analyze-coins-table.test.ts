import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTableFile } from '../../src/solvers/coin-table-file.ts';
import { misereTable, squareGraph, testBit } from '../../src/solvers/coins.ts';
import { run } from './run.ts';

describe('arena analyze coins --build-table', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'coin-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the 4×4 table on two workers, reports the full board and writes a table the solver reads', async () => {
    const { code, out } = await run('analyze', 'coins', '--board', 'square', '--side', '4', '--build-table', '--table-dir', dir, '--workers', '2');
    expect(code).toBe(0);
    expect(out).toContain('4×4 square: 16 coins, 2^16 subsets');
    const ref = misereTable(squareGraph(4));
    expect(out).toContain(`full board: ${testBit(ref, 2 ** 16 - 1) ? 'first player wins (N)' : 'second player wins (P)'}`);
    expect(existsSync(join(dir, 'coins-square4.bits'))).toBe(true);
    const file = openTableFile(dir, 'coins-square4', squareGraph(4))!;
    for (let m = 0; m < 2 ** 16; m += 101) expect(file.win(m)).toBe(testBit(ref, m));
    file.close();
  });

  it('rejects --build-table for another family and a bad --workers', async () => {
    expect((await run('analyze', 'subtraction', '--build-table')).err).toMatch(/--build-table` is for the coins family/);
    expect((await run('analyze', 'coins', '--board', 'square', '--side', '4', '--build-table', '--workers', 'x', '--table-dir', dir)).err).toMatch(
      /--workers/,
    );
  });
});
