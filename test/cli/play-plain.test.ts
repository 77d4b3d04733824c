/**
 * `arena play --plain` through the real CLI: a running transcript (a line per prompt, per move, per
 * verdict, appended in order and never redrawn), answered a line at a time on stdin.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './spawn.ts';

/** Runs `arena …args` with `input` written to its stdin at once (then closed); resolves with its exit code and stdout lines. */
function arenaWithInput(args: readonly string[], input: string): Promise<{ code: number | null; lines: string[]; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, lines: out.split('\n'), out, err }));
    child.stdin.end(input);
  });
}

/** Where each of `wanted` first appears in `lines` at or after the previous one's place (-1: missing or out of order). */
function inOrder(lines: readonly string[], wanted: readonly (string | RegExp)[]): number[] {
  let from = 0;
  return wanted.map((w) => {
    const i = lines.findIndex((l, k) => k >= from && (typeof w === 'string' ? l === w : w.test(l)));
    if (i >= 0) from = i + 1;
    return i;
  });
}

describe('arena play --plain', () => {
  it('plays a game as a transcript: each prompt and move a new line, the rule that ended it, the review of both sides, why and undo after the end', async () => {
    const r = await arenaWithInput(
      ['play', 'subtraction{moves=1,2,3;n=10}', '--bot', 'optimal', '--first', 'me', '--plain', '--seed', '1', '--isolation', 'none'],
      '2\nh\n1\n3\ne\nu\nq\n',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // Nothing is redrawn in place: no escape sequences, no carriage returns.
    expect(r.out).not.toMatch(/[\u001b\r]/);
    const at = inOrder(r.lines, [
      'Subtraction {1,2,3}: you play first against optimal (perfect).',
      'Goal: take the last stone, leaving your opponent no move. Who cannot move loses.',
      'Position: pile 10, first to move.',
      'Your move (1, 2, 3):',
      'You played 2.',
      /^optimal played 1 in \d+ ms\.$/,
      'Position: pile 7, first to move.',
      'Your move (1, 2, 3):',
      'Hint: won for you; winning moves: 3.',
      'You played 1.',
      /^optimal played 2 in /,
      'You played 3.',
      /^optimal played 1 in /,
      'Game over: optimal won.',
      'You cannot move (pile 0, smaller than every take): who cannot move loses.',
      'Review: you 2 of 3 moves optimal, 1 mistake; optimal 3 of 3 moves optimal.',
      '3. you 1: mistake: threw away the win (3 kept it).',
      '4. optimal 2: optimal.',
      // e: why the position before the first mistake was won; u: back before the last move, to play on.
      'Why: won for the player to move; play 3.',
      '  take 3: leaves 4 mod 4 = 0, a P-position for the opponent',
      'Took back your last move and the reply.',
      'Position: pile 4, first to move.',
      'Bye.',
    ]);
    expect(at.every((i) => i >= 0), r.out).toBe(true);
    // The end is said once, not again after each answer to its prompt.
    expect(r.lines.filter((l) => l.startsWith('Game over')).length).toBe(1);
  });

  it('asks the set-up as numbered lists, the bots in plain words with their levels, when the command line leaves it open', async () => {
    const r = await arenaWithInput(['play', '--plain', '--seed', '1', '--isolation', 'none'], '99\nend-game{row=-1,3,9,4}\n\nme\nR\nq\n');
    expect(r.code).toBe(0);
    const at = inOrder(r.lines, [
      /^Which game\? /,
      /^1\. subtraction: Subtraction game\. One pile;/,
      'Game (Enter for 1):',
      /^No game 99: type a number from 1 to \d+, or a variant\.$/,
      'Game (Enter for 1):',
      'Which bot do you play? End Game, row -1 3 9 4.',
      /^\d+\. optimal \(easy\): the best move 30% of the time, else a random legal one$/,
      'Bot (Enter for 1):',
      /^Who moves first\? /,
      'Goal: the larger sum. Take the number at either end (L or R) of the row; it is added to your score. Equal sums draw.',
      'Your move (L takes -1, R takes 4):',
      'You played R (4).',
      'Bye.',
    ]);
    expect(at.every((i) => i >= 0), r.out).toBe(true);
    expect(r.out).toMatch(/^\d+\. optimal \(perfect\): perfect play: /m);
  });
});
