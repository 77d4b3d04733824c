/**
 * Terminal escapes from bots never reach the user's terminal. The escape fixtures of
 * test/fixtures/hostile (a module bot and an external program with control sequences in their
 * description, option text, thrown error, protocol answers and stderr) are listed by `arena bots`,
 * play a tournament (the plain reporter's lines, the results log) and are shown on the dashboard;
 * records and failures with raw escapes, as a log written elsewhere may hold, are shown safely by
 * the plain reporter, the dashboard and replay too.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import { parseRecordLine, recordLine } from '../../src/arena/results/index.ts';
import { validateSpec } from '../../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../../src/arena/tournament.ts';
import { visible } from '../../src/core/text.ts';
import { discoverBots } from '../../src/hosting/index.ts';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { plainReporter } from '../../src/tui/dashboard/plain.ts';
import { readGames } from '../../src/tui/replay/replay-data.ts';
import { waitFor } from '../patience.ts';
import { until } from './frames.ts';
import { ReplayApp } from '../../src/tui/replay/ReplayApp.tsx';
import { run } from '../cli/run.ts';
import { ESCAPES } from '../fixtures/hostile/lib/escapes.mjs';
import { recording } from './recorded-stream.ts';

/** The escape fixtures alone, in a folder of their own. */
const BOTS = join(mkdtempSync(join(tmpdir(), 'take-arena-escapes-')), 'bots');
for (const f of ['hx-escape.ts', 'hx-ext-escape.bot.json', 'lib']) cpSync(join(import.meta.dirname, '../fixtures/hostile', f), join(BOTS, f), { recursive: true });

/** What the fixtures' sequences read as once made visible. */
const SHOWN = visible(ESCAPES);
/** A control character a terminal acts on: C0 but the newline ending a line, DEL, C1. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** Ink's own colours (SGR sequences), the only escapes a frame may hold. */
const SGR = /\u001b\[[0-9;]*m/g;

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('visible', () => {
  it('shows every C0 control, DEL and C1 control as a visible stand-in, and leaves clean text as it is', () => {
    expect(visible('\u001b[2J\u0007\r\n\t\u0000\u007f\u009b2J')).toBe('␛[2J␇␍␊␉␀␡\\x9b2J');
    expect(SHOWN).toBe('␛[2J␛]0;pwned␇␛]52;c;cHduZWQ=␇\\x9b2J␡');
    const clean = 'greedy vs random: ½-½ · pile 12 — ok';
    expect(visible(clean)).toBe(clean);
    expect(CONTROL.test(SHOWN)).toBe(false);
  });
});

describe('escapes from bots', () => {
  it('`arena bots` lists the escape fixtures with their control characters made visible', async () => {
    const listed = await run('bots', '--bots-dir', BOTS);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(`hx-escape — hostile fixture: terminal escapes in its texts ${SHOWN}`);
    expect(listed.out).toContain(`:depth=  a depth ${SHOWN}`);
    expect(listed.out).toContain(`hx-ext-escape — hostile fixture: an external program with terminal escapes in its texts ${SHOWN}`);
    expect(listed.out).not.toMatch(CONTROL);
    expect(listed.err).not.toMatch(CONTROL);
    const json = await run('bots', '--json', '--bots-dir', BOTS);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out) as { bots: { name: string; description: string; options: { description: string }[] }[] };
    const escape = doc.bots.find((b) => b.name === 'hx-escape')!;
    expect(escape.description).toContain(SHOWN);
    expect(escape.options[0]!.description).toContain(SHOWN);
    expect(doc.bots.find((b) => b.name === 'hx-ext-escape')!.description).toContain(SHOWN);
    for (const b of doc.bots) expect(JSON.stringify(b.description), b.name).not.toMatch(/\\u00(1b|07)|[\u007f-\u009f]/);
  });

  it('a tournament: the plain lines and the results log show what the bots threw and answered, made visible', async () => {
    const out = mkdtempSync(join(tmpdir(), 'take-arena-escapes-out-'));
    const r = await run('tournament', '--bots', 'random,hx-escape,hx-ext-escape', '--games', 'subtraction{n=20}', '--deals', '1', '--bots-dir', BOTS, '--out', out, '--plain');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`hx-escape forfeits: crash (Error: no move ${SHOWN})`);
    expect(r.out).toContain(`hx-ext-escape forfeits: crash (cannot move ${SHOWN})`);
    // A move is quoted as JSON (C0 controls escaped, the rest made visible).
    expect(r.out).toContain('hx-ext-escape forfeits: illegal-move (answered "1\\u001b[2J\\u001b]0;pwned\\u0007\\u001b]52;c;cHduZWQ=\\u0007\\x9b2J␡"');
    expect(r.out).not.toMatch(CONTROL);
    expect(r.err).not.toMatch(CONTROL);
    // Stored clean: the results log's reasons hold no control character.
    const dir = /Results in (.+)/.exec(r.out)![1]!;
    const reasons = readFileSync(join(dir, 'games.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { reason: string | null }).reason);
    expect(reasons).toContain(`Error: no move ${SHOWN}`);
    expect(reasons.filter((x) => x !== null && CONTROL.test(x))).toEqual([]);
  });

  it('the dashboard draws the escape fixtures\' games with the control characters made visible', async () => {
    const registry = await discoverBots([BOTS]);
    const spec = validateSpec({ out: mkdtempSync(join(tmpdir(), 'take-arena-escapes-out-')), name: 'escapes', games: ['subtraction{n=20}'], bots: ['random', 'hx-escape', 'hx-ext-escape'], deals: 1 });
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={160} height={40} />);
    unmount = r.unmount;
    await runTournament(prepareTournament(spec, registry), { sink: { detail: 'live', emit: (e) => store.push(e) } });
    await until(r.lastFrame, 'Finished');
    r.stdin.write('4'); // the results view: each forfeit with its reason
    await waitFor(() => r.frames.join('\n').includes(`Error: no move ${SHOWN}`), 'the forfeit with its reason', 20);
    const frames = r.frames.join('\n');
    expect(frames.replace(SGR, '')).not.toMatch(CONTROL);
  });
});

describe('escapes in results written elsewhere', () => {
  /** The recorded tournament with its first finished game's reason and a failed bot carrying raw escapes. */
  function rawStream(): Pick<ReturnType<typeof recording>, 'steps' | 'play'> {
    const { steps, play } = recording();
    const first = steps.findIndex((s) => s.type === 'game-ended');
    const patched = steps.map((s, i) =>
      i === first && s.type === 'game-ended' ? { ...s, record: { ...s.record, faulty: 'second' as const, termination: 'crash' as const, reason: `old ${ESCAPES}` } } : s,
    );
    const failed: ArenaEvent = { type: 'bot-failed', bot: 'random', reason: `cannot start ${ESCAPES}` };
    return { steps: [patched[0]!, failed, ...patched.slice(1)], play };
  }

  it('the plain reporter prints them made visible', () => {
    const lines: string[] = [];
    const sink = plainReporter((l) => lines.push(l));
    const { steps, play } = rawStream();
    // Up to the end (the summary's tables are the reporter's own text).
    for (const s of steps) if (s.type !== 'finished') play(s, (e) => sink.emit(e));
    const text = lines.join('\n');
    expect(text).toContain(`forfeits: crash (old ${SHOWN})`);
    expect(text).toContain(`cannot start ${SHOWN}`);
    expect(text).not.toMatch(CONTROL);
  });

  it('the dashboard draws them made visible', async () => {
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={160} height={40} />);
    unmount = r.unmount;
    const { steps, play } = rawStream();
    for (const s of steps) play(s, (e) => store.push(e));
    await until(r.lastFrame, 'Finished');
    r.stdin.write('4');
    await waitFor(() => r.frames.join('\n').includes(`old ${SHOWN}`), 'the forfeit with its reason', 20);
    const frames = r.frames.join('\n');
    expect(frames).toContain(`cannot start ${SHOWN}`);
    expect(frames.replace(SGR, '')).not.toMatch(CONTROL);
  });

  it('replay shows them made visible', async () => {
    const { steps } = rawStream();
    const ended = steps.find((s) => s.type === 'game-ended' && s.record.reason?.startsWith('old'));
    if (ended?.type !== 'game-ended') throw new Error('no raw record in the stream');
    // A results folder written elsewhere, its reason as it came (the recording's record read by the log's own parser).
    const dir = mkdtempSync(join(tmpdir(), 'take-arena-escapes-replay-'));
    writeFileSync(join(dir, 'spec.json'), '{}\n');
    writeFileSync(join(dir, 'games.jsonl'), recordLine(parseRecordLine(JSON.stringify(ended.record))!));
    const records = readGames(dir);
    expect(records[0]!.reason).toBe(`old ${ESCAPES}`);
    const r = render(<ReplayApp records={records} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Which game?');
    r.stdin.write('\r');
    await until(r.lastFrame, 'ply 0/');
    r.stdin.write('G'); // the end: how the game ended
    await waitFor(() => r.frames.join('\n').includes(`forfeits: crash (old ${SHOWN})`), 'how the game ended', 20);
    const frames = r.frames.join('\n');
    expect(frames.replace(SGR, '')).not.toMatch(CONTROL);
  });
});
