/**
 * `arena analyze subtraction --upto N` streams its P-positions (issue 35): the answer goes out in
 * pieces of whole lines as it is made, never held whole, and is the list the outcome table gives,
 * in the layout of a list held whole (text and JSON).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { subtraction } from '../../src/games/subtraction.ts';
import { isN, subtractionTable } from '../../src/solvers/subtraction.ts';

/** Runs the CLI in-process; what it printed, as the pieces it wrote. */
async function pieces(...argv: string[]): Promise<{ code: number; pieces: string[] }> {
  const out: string[] = [];
  const io: CliIo = { out: (t) => void out.push(t.endsWith('\n') ? t : `${t}\n`), err: () => {}, status: () => {}, isTTY: false, columns: undefined };
  const code = await runCli(argv, io);
  return { code, pieces: out };
}

/** The P-positions in 0..upto from the word-parallel outcome table (another algorithm). */
function fromTable(moves: number[], upto: number): number[] {
  const table = subtractionTable(moves, upto);
  const out: number[] = [];
  for (let n = 0; n <= upto; n++) if (!isN(table, n)) out.push(n);
  return out;
}

describe('analyze --upto streams the P-positions', () => {
  it('writes a long list in pieces of whole lines, each far smaller than the whole', async () => {
    const upto = 2_000_000;
    const { code, pieces: text } = await pieces('analyze', 'subtraction', '--moves', '1,5,8,10', '--upto', String(upto));
    expect(code).toBe(0);
    const whole = text.join('');
    expect(text.length).toBeGreaterThan(20);
    for (const p of text) {
      expect(p.endsWith('\n')).toBe(true);
      expect(p.length).toBeLessThan(70_000);
    }
    const lines = whole.split('\n');
    const expected = fromTable([1, 5, 8, 10], upto);
    expect(lines[0]).toBe('subtraction{moves=1,5,8,10;n=50..200}');
    expect(lines[1]).toBe(`P-positions up to ${upto} (${expected.length}):`);
    const listed = lines.slice(2).filter((l) => l !== '');
    expect(listed.every((l) => l.startsWith('  ') && l.length <= 80)).toBe(true);
    expect(listed.join(' ').trim().split(/\s+/).map(Number)).toEqual(expected);
  });

  it('gives JSON as JSON.stringify lays out the whole list, misère and --period included', async () => {
    const { pieces: json } = await pieces('analyze', 'subtraction', '--moves', '2,3,7', '--upto', '200000', '--misere', 'true', '--period', '--json');
    const whole = json.join('');
    const doc = JSON.parse(whole) as { pPositions: number[]; period: unknown };
    const tab = subtraction.analysis!.tabulate!({ moves: [2, 3, 7], n: { min: 50, max: 200 }, misere: true }, 200_000);
    expect(doc.pPositions).toEqual(tab.pPositions);
    expect(whole).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(json.length).toBeGreaterThan(5);
  });

  it('lists what the outcome table gives, for sets of every shape', async () => {
    for (const moves of [[3, 7], [1, 2, 3], [2, 5, 11, 13], [15, 19, 23, 41], [1, 64]]) {
      const { pieces: json } = await pieces('analyze', 'subtraction', '--moves', moves.join(','), '--upto', '5000', '--json');
      expect(JSON.parse(json.join('')).pPositions).toEqual(fromTable(moves, 5000));
    }
  });

  it('keeps the layout of an empty list', async () => {
    const { pieces: text } = await pieces('analyze', 'subtraction', '--moves', '3,7', '--misere', 'true', '--upto', '2', '--period');
    expect(text.join('')).toBe('subtraction{moves=3,7;n=50..200;misere=true}\nP-positions up to 2 (0):\n\nperiod: preperiod 0, period 10\n');
    const { pieces: json } = await pieces('analyze', 'subtraction', '--moves', '3,7', '--misere', 'true', '--upto', '2', '--json');
    expect(JSON.parse(json.join('')).pPositions).toEqual([]);
    expect(json.join('')).toContain('"pPositions": []');
  });
});
