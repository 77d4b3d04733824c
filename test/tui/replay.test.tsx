import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { parseRecordLine, recordLine } from '../../src/arena/results/index.ts';
import { readGames, replayRecord } from '../../src/tui/replay/replay-data.ts';
import { ReplayApp } from '../../src/tui/replay/ReplayApp.tsx';
import { makeTheme, ThemeContext } from '../../src/tui/text/theme.ts';
import { run } from '../cli/run.ts';
import { waitFor } from '../patience.ts';
import { settle, until } from './frames.ts';

const EVENTS = JSON.parse(readFileSync(new URL('./fixtures/tournament-events.json', import.meta.url), 'utf8')) as ArenaEvent[];
// The recording predates the compact record (an object per move): read through the log's own parser.
const RECORDS = EVENTS.flatMap((e) => (e.type === 'game-ended' ? [parseRecordLine(JSON.stringify(e.record))!] : []));
function resultsDir(records: readonly GameRecord[], tail = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-replay-'));
  writeFileSync(join(dir, 'spec.json'), '{}\n');
  writeFileSync(join(dir, 'games.jsonl'), records.map(recordLine).join('') + tail);
  return dir;
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('replay data', () => {
  it('rebuilds every logged game from its deal seed and moves', () => {
    for (const rec of RECORDS) {
      const r = replayRecord(rec);
      expect(r.problem).toBeNull();
      expect(r.plies).toHaveLength(rec.moves.length);
      expect(r.game.outcome(r.plies[r.plies.length - 1]!.after)?.winner).toBe(rec.outcome.winner);
    }
  });
  it('reads games.jsonl and skips a line cut short by a crash', () => {
    const dir = resultsDir(RECORDS.slice(0, 3), '{"index":3,"key":"cut');
    expect(readGames(dir)).toHaveLength(3);
  });
});

describe('replay screen', () => {
  it('lists the games, opens one and steps through it with the arrows, each move judged', async () => {
    // A game random lost to optimal: random's moves include mistakes or forced losses, optimal's are all optimal.
    const r = render(<ReplayApp records={RECORDS} />);
    unmount = r.unmount;
    await until(r.lastFrame, `Which game? (${RECORDS.length} in the log)`);
    expect(r.lastFrame()).toMatch(/#1 optimal vs random 1-0 · subtraction/);
    r.stdin.write('\r');
    let f = await until(r.lastFrame, 'ply 0/');
    expect(f).toContain('(start position)');
    r.stdin.write('\u001B[C'); // right
    await until(r.lastFrame, /ply 1\/\d+: optimal played \d in .* ✓ optimal/);
    r.stdin.write('G'); // end
    await until(r.lastFrame, 'End: optimal won');
    r.stdin.write('\u001B[D'); // left
    f = await until(r.lastFrame, /ply 8\/9/);
    expect(f).not.toContain('End:');
    r.stdin.write('l'); // back to the list
    await until(r.lastFrame, 'Which game?');
  });

  it('marks a losing move as a mistake with the move that kept the win', async () => {
    // The first game random moved in a won position and erred: find it by the solver's own verdicts.
    const idx = RECORDS.findIndex((rec) => rec.seats.first === 'random' && rec.variant.startsWith('subtraction'));
    const r = render(<ReplayApp records={RECORDS} initial={idx} />);
    unmount = r.unmount;
    const replay = replayRecord(RECORDS[idx]!);
    await until(r.lastFrame, `ply 0/${replay.plies.length}`);
    let sawMistake = false;
    for (let k = 1; k <= replay.plies.length; k++) {
      r.stdin.write('\u001B[C');
      const f = await until(r.lastFrame, `ply ${k}/`);
      if (/✗ mistake: threw away the win \(\d( or \d)*|✗ mistake: threw away the win \([\d, ]+ kept it\)/.test(f)) sawMistake = true;
    }
    expect(r.lastFrame()).toContain('End: optimal won');
    // Random moved first from a dealt pile; unless the pile was lost for it, it threw the win away.
    const startWon = replayRecord(RECORDS[idx]!).game.solver!()!.value(replay.start) > 0;
    expect(sawMistake).toBe(startWon);
  });
});

describe('replay picker', () => {
  const PGDN = '\u001B[6~';
  const PGUP = '\u001B[5~';
  const pointed = (f: string): string => f.split('\n').find((l) => l.startsWith('❯'))?.slice(2).split(' ')[0] ?? '';
  /** Waits until the frame passes `ok` (then lets the input handlers re-attach). */
  const when = async (frame: () => string | undefined, ok: (f: string) => boolean): Promise<string> => {
    await waitFor(() => ok(frame() ?? ''), () => `a frame that passes the check; last frame:\n${frame()}`, 20);
    await settle();
    return frame() ?? '';
  };
  it('pages with PgUp/PgDn, jumps with Home/End (g/G), and shows its keys under ?', async () => {
    const r = render(<ReplayApp records={RECORDS} />);
    unmount = r.unmount;
    let f = await until(r.lastFrame, 'Which game?');
    expect(pointed(f)).toBe('#1');
    r.stdin.write(PGDN);
    f = await when(r.lastFrame, (x) => pointed(x) !== '#1');
    expect(Number(pointed(f).slice(1))).toBeGreaterThan(2); // a page, not a line
    r.stdin.write('G');
    f = await when(r.lastFrame, (x) => pointed(x) === '#18');
    expect(f).toContain('↑');
    r.stdin.write(PGUP);
    f = await when(r.lastFrame, (x) => pointed(x) !== '#18');
    r.stdin.write('g');
    await when(r.lastFrame, (x) => pointed(x) === '#1');
    r.stdin.write('?');
    f = await until(r.lastFrame, 'Keys');
    expect(f).toMatch(/pgdn\s+a page down/);
    expect(f).toMatch(/\/\s+filter/);
  });
  it('filters the games by the words typed after /, and opens the one under the cursor', async () => {
    const r = render(<ReplayApp records={RECORDS} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Which game?');
    r.stdin.write('/');
    await until(r.lastFrame, 'filter:');
    for (const c of 'greedy random') r.stdin.write(c);
    const want = RECORDS.filter((x) => [x.seats.first, x.seats.second].sort().join() === 'greedy,random');
    let f = await until(r.lastFrame, `, ${want.length} shown)`);
    const listed = f.split('\n').filter((l) => /^. #\d+ /.test(l));
    expect(listed).toHaveLength(want.length);
    expect(listed.every((l) => l.includes('greedy') && l.includes('random'))).toBe(true);
    r.stdin.write('\r'); // keeps the filter; a second enter opens
    await until(r.lastFrame, 'filter: greedy random');
    r.stdin.write('\u001B[B');
    f = await when(r.lastFrame, (x) => pointed(x) === `#${want[1]!.index + 1}`);
    r.stdin.write('\r');
    await until(r.lastFrame, new RegExp(`^#${want[1]!.index + 1} `, 'm'));
    r.stdin.write('l'); // back: the same game under the cursor, the filter kept
    f = await until(r.lastFrame, 'Which game?');
    expect(pointed(f)).toBe(`#${want[1]!.index + 1}`);
    expect(f).toContain('filter: greedy random');
    r.stdin.write('\u001B'); // esc clears the filter
    f = await until(r.lastFrame, `Which game? (${RECORDS.length} in the log)`);
    expect(pointed(f)).toBe(`#${want[1]!.index + 1}`);
  });
  it('comes back from a game opened with --game on that game, not the first', async () => {
    const r = render(<ReplayApp records={RECORDS} initial={9} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'ply 0/');
    r.stdin.write('l');
    const f = await until(r.lastFrame, 'Which game?');
    expect(pointed(f)).toBe(`#${RECORDS[9]!.index + 1}`);
  });
});

describe('replay --plain', () => {
  it('writes each move and its verdict a word apart (1.3 ok, not 1.3ok)', async () => {
    const r = render(
      <ThemeContext.Provider value={makeTheme({}, { plain: true })}>
        <ReplayApp records={RECORDS} />
      </ThemeContext.Provider>,
    );
    unmount = r.unmount;
    await until(r.lastFrame, 'Which game?');
    r.stdin.write('\r');
    await until(r.lastFrame, 'ply 0/');
    r.stdin.write('G');
    const f = await until(r.lastFrame, 'End: optimal won');
    expect(f).toMatch(/\b\d+\.\d+ (ok|mistake) \d+\.\d+ (ok|mistake)\b/);
    expect(f).not.toMatch(/\d(ok|mistake)\b/);
  });
});

describe('replay: e explains the position shown', () => {
  it('says why the start position is won or lost for the seat to move, in the family’s terms', async () => {
    const idx = RECORDS.findIndex((rec) => rec.variant.startsWith('subtraction'));
    const r = render(<ReplayApp records={RECORDS} initial={idx} />);
    unmount = r.unmount;
    const replay = replayRecord(RECORDS[idx]!);
    await until(r.lastFrame, `ply 0/${replay.plies.length}`);
    r.stdin.write('e');
    const f = await until(r.lastFrame, 'why (ply 0)');
    const solver = replay.game.solver!()!;
    const mover = RECORDS[idx]!.seats[replay.game.toMove(replay.start)];
    expect(f).toContain(`${solver.value(replay.start) > 0 ? 'won' : 'lost'} for ${mover}`);
    expect(f).toMatch(/mod \d+ = \d+/);
  });
});

describe('arena replay command', () => {
  it('needs a terminal, and says so in one line with exit code 2', async () => {
    const dir = resultsDir(RECORDS);
    const r = await run('replay', dir);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('arena replay is interactive and needs a terminal (stdin and stdout must be a TTY)');
  });
  it('rejects a folder without a log and a game number not in it', async () => {
    const bad = await run('replay', '/nonexistent/folder');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Expected a results folder with games.jsonl in it/);
    const dir = resultsDir(RECORDS);
    const r = await run('replay', dir, '--game', '99');
    expect(r.code).toBe(2);
    expect(r.err).toContain('Expected `--game` to be a game number in the log (1 to 18), got "99"');
  });
});
