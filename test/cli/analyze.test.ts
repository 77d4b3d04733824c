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
    [['--colour', 'red'], /Unknown parameter `colour` for subtraction/],
    [['--upto', 'ten'], /Expected `--upto` to be a non-negative integer, got "ten"/],
  ])('rejects bad input %j with one line and exit 2', async (flags, message) => {
    const { code, err, out } = await run('analyze', 'subtraction', ...flags);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('rejects an unknown family and suggests the closest', async () => {
    const { code, err } = await run('analyze', 'subtractoin');
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown game family `subtractoin` \(did you mean `subtraction`\?\)/);
  });
});
