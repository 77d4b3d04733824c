import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReportData, reportHtml } from '../../src/report/index.ts';
import { pairsRows, standingsRows } from '../../src/arena/fold/text.ts';
import { boardView } from '../../src/tui/boards/board-view.ts';
import { parseVariant } from '../../src/games/index.ts';
import { startOdds } from '../../src/games/start-odds.ts';
import { FIXTURE_BOTS, tempDir } from '../arena/helpers.ts';
import { run } from '../cli/run.ts';
import { REPORT_VARIANTS, reportFixture } from './fixture.ts';

describe('startOdds', () => {
  it('counts every dealt pile exactly: subtraction {1,3,4} loses for the mover exactly at n ≡ 0, 2 (mod 7)', () => {
    const odds = startOdds(parseVariant('subtraction{moves=1,3,4;n=0..69}'))!;
    expect(odds.exact).toBe(true);
    expect(odds.positions).toBe(70);
    expect(odds.loss).toBeCloseTo(20 / 70, 12);
    expect(odds.win).toBeCloseTo(50 / 70, 12);
  });

  it('enumerates several piles: Nim on two piles of 1..4 is lost for the mover exactly when they are equal', () => {
    const odds = startOdds(parseVariant('piles{rule=nim;piles=2;size=1..4}'))!;
    expect(odds).toMatchObject({ exact: true, positions: 16 });
    expect(odds.loss).toBeCloseTo(4 / 16, 12);
  });

  it('brute-forces a small End Game space, where the first mover never loses an even row', () => {
    const odds = startOdds(parseVariant('end-game{length=4;values=-2..2}'))!;
    expect(odds).toMatchObject({ exact: true, positions: 625, loss: 0 });
    expect(odds.draw).toBeGreaterThan(0);
    expect(odds.win + odds.draw).toBeCloseTo(1, 12);
  });

  it('samples a deal space too large to enumerate, and says so', () => {
    const odds = startOdds(parseVariant('end-game{length=10;values=-10..10}'), { sample: 300 })!;
    expect(odds).toMatchObject({ exact: false, positions: 300 });
  });
});

describe('arena report', () => {
  it('reads a results folder: standings, exact odds for every variant, every game replayed and judged', async () => {
    const dir = await reportFixture();
    const data = loadReportData(dir, boardView);
    expect(data.variants.map((v) => v.id)).toEqual(REPORT_VARIANTS.map((v) => parseVariant(v).id));
    for (const v of data.variants) expect(v.odds, v.id).not.toBeNull();
    expect(data.games).toHaveLength(36);
    expect(data.timeForfeits['fx-sleeps']).toBeGreaterThan(0);
    // optimal never errs; every one of its moves is judged ✓.
    const optimalMarks = data.games.flatMap((g) => g.plies.filter((p) => g.seats[p.seat] === 'optimal').map((p) => p.ok));
    expect(optimalMarks.length).toBeGreaterThan(20);
    expect(optimalMarks.every((ok) => ok === true)).toBe(true);
    expect(data.games.flatMap((g) => g.plies.map((p) => p.ok)).some((ok) => ok === false)).toBe(true);
    expect(data.variants.find((v) => v.family === 'subtraction')!.strip!.classes.slice(0, 7).join('')).toBe('PNPNNNN');
    expect(data.run.machine).toMatch(/Node/);
  });

  it('writes one self-contained page: no external resource, a chart SVG per section', async () => {
    const dir = await reportFixture();
    const out = join(tempDir(), 'r.html');
    const { code, out: printed } = await run('report', dir, '--out', out);
    expect(code).toBe(0);
    expect(printed.trim()).toBe(out);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\((?!#)/);
    for (const id of ['ratings', 'cross-pooled', 'accuracy', 'move-times', 'first-mover', 'strip-0', 'nim-3']) expect(html).toContain(`data-chart="${id}"`);
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('defaults to report.html in the results folder', async () => {
    const dir = await reportFixture();
    const { code, out } = await run('report', dir);
    expect(code).toBe(0);
    expect(out.trim()).toBe(join(dir, 'report.html'));
  });

  it('arena tournament --report writes the report when the run ends and prints its path', async () => {
    const out = tempDir();
    const file = join(out, 'end.html');
    const { code, out: text } = await run('tournament', '--games', 'subtraction{n=15..30}', '--bots', 'greedy,optimal', '--isolation', 'none', '--deals', '1', '--out', out, '--report', file);
    expect(code).toBe(0);
    expect(text.trim().split('\n').at(-1)).toBe(`Report in ${file}`);
    expect(readFileSync(file, 'utf8')).toContain('data-chart="first-mover"');
  });

  it('shows a time control with its margin, and the think time apart from the arena overhead, in the header', async () => {
    const out = tempDir();
    const file = join(out, 'tc.html');
    const { code } = await run('match', 'greedy', 'random', '--games', 'subtraction{n=15..30}', '--isolation', 'worker', '--deals', '2', '--tc', '2+0.05', '--time-margin', '70', '--out', out, '--report', file);
    expect(code).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<li><b>time control<\/b> 2\+0\.05 \(margin 70 ms\): think \d+\.\d s, arena overhead \d+\.\d s over \d+ moves \(mean [\d,]+ µs, max \d+\.\d ms\)<\/li>/);
    expect(html).toMatch(/<li><b>time per move<\/b> –<\/li>/);
  });

  it('shows the SPRT decision of each test that summary.json records in the header', async () => {
    const dir = join(tempDir(), 'with-sprt');
    cpSync(await reportFixture(), dir, { recursive: true });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    const test = { config: { elo0: 0, elo1: 10 }, llr: 3.1, lower: -2.94, upper: 2.94, games: 24, a: 'optimal', b: 'greedy' };
    summary['sprt'] = [
      { ...test, decision: 'H1' },
      { ...test, a: 'greedy', b: 'fx-sleeps', llr: 0.5, decision: null },
    ];
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
    const html = await reportHtml(loadReportData(dir, boardView));
    const block = html.slice(html.indexOf('id="sprt"'), html.indexOf('</ul>', html.indexOf('id="sprt"')));
    expect(block).toMatch(/optimal vs greedy \[0, 10\] Elo: <b>H1 accepted<\/b>: optimal is stronger.*LLR 3\.10 in \(-2\.94, 2\.94\) after 24 games/);
    expect(block).toMatch(/greedy vs fx-sleeps .*<b>no decision<\/b> yet/);
    // Without tests recorded there is no SPRT block.
    expect(await reportHtml(loadReportData(await reportFixture(), boardView))).not.toContain('id="sprt"');
  });

  it('shows only lines whose checksum verifies, and says how many it left out', async () => {
    const dir = join(tempDir(), 'tampered');
    cpSync(await reportFixture(), dir, { recursive: true });
    expect(loadReportData(dir, boardView).trust).toEqual({ verified: true, dropped: null, workers: {} });
    const file = join(dir, 'games.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    // A forged game slipped in: a copy of the fourth line under a new key, its winner swapped.
    const rec = JSON.parse(lines[3]!) as { key: string; winner: string | null };
    lines.splice(4, 0, JSON.stringify({ ...rec, key: `${rec.key}|forged`, winner: rec.winner === 'optimal' ? 'greedy' : 'optimal' }));
    writeFileSync(file, lines.join('\n'));
    const data = loadReportData(dir, boardView);
    expect(data.trust).toEqual({ verified: true, dropped: '1 line dropped (1 failed checksum)', workers: {} });
    expect(data.games).toHaveLength(36);
    expect(await reportHtml(data)).toContain('checksums verified; 1 line dropped (1 failed checksum)');
  });

  it('--replays N puts in N games shared over the variants, says so, and still folds every game into the charts', async () => {
    const dir = await reportFixture();
    const data = loadReportData(dir, boardView, { replays: 12 });
    expect(data.games).toHaveLength(12);
    // Two of each of the six variants, the first of each in the log.
    for (const v of data.variants) expect(data.games.filter((g) => g.variant === v.id), v.id).toHaveLength(2);
    expect(data.played).toBe(36);
    expect(data.standings.pooled.games).toBe(36);
    const all = loadReportData(dir, boardView);
    // Move times come from every game: each bot's count is its moves in the standings.
    for (const t of data.moveTimes) {
      expect(t.moves).toBe(data.standings.pooled.bots.find((b) => b.bot === t.bot)!.moves);
      expect(t.min).toBeLessThanOrEqual(t.q1);
      expect(t.q1).toBeLessThanOrEqual(t.median);
      expect(t.median).toBeLessThanOrEqual(t.q3);
      expect(t.q3).toBeLessThanOrEqual(t.max);
    }
    expect(data.moveTimes).toEqual(all.moveTimes);
    expect(await reportHtml(data)).toContain('12 of the 36 games are here, the first of each variant');
    const out = join(tempDir(), 'r.html');
    expect((await run('report', dir, '--out', out, '--replays', 'all')).code).toBe(0);
    const bad = await run('report', dir, '--replays', 'some');
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe('arena: Expected --replays to be a number of games or `all`, got "some"');
  });

  it('says in one line what it expected for a folder that is not a results folder (exit 2)', async () => {
    const { code, err } = await run('report', tempDir());
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/Expected a results folder/);
  });

  it('lists every forfeit and crash with its bot, game, reason and a link to its replay', async () => {
    const out = tempDir();
    const { code } = await run('tournament', '--games', 'subtraction{n=15..30}', '--bots', 'greedy,fx-throws,fx-illegal', '--isolation', 'none', '--deals', '1', '--bots-dir', FIXTURE_BOTS, '--out', out, '--plain');
    expect(code).toBe(0);
    const dir = join(out, readdirSync(out).find((n) => n.startsWith('tournament-'))!);
    const data = loadReportData(dir, boardView, { replays: 4 });
    // Six games, each lost by a fault: against greedy both seats, and against each other whichever moves first.
    expect(data.incidents).toHaveLength(6);
    const crash = data.incidents.find((i) => i.kind === 'crash')!;
    expect(crash).toMatchObject({ bot: 'fx-throws', ply: expect.any(Number) });
    expect(crash.reason).toMatch(/fx-throws always throws/);
    expect(data.incidents.filter((i) => i.kind === 'illegal-move').map((i) => i.bot)).toEqual(['fx-illegal', 'fx-illegal', 'fx-illegal']);
    expect(data.incidentCounts).toEqual({ 'fx-throws': { crash: 3 }, 'fx-illegal': { 'illegal-move': 3 } });
    const html = await reportHtml(data);
    const section = html.slice(html.indexOf('<section id="incidents">'), html.indexOf('</section>', html.indexOf('<section id="incidents">')));
    expect(section).toMatch(/<tr><td class="left">fx-throws<\/td><td>0<\/td><td>3<\/td><td>0<\/td><td>0<\/td><\/tr>/);
    // A replayable game links to its replay; the others name the command that replays them.
    const row = (n: number) => new RegExp(`<tr><td>(<a href="#replay" data-game="${n}">|<span title="not among the replays here: arena replay [^"]+ --game ${n}">)#${n}<`);
    for (const i of data.incidents) expect(section).toMatch(row(i.number));
    expect(section).toContain(`<a href="#replay" data-game="${data.incidents.find((i) => i.replayable)!.number}">`);
    expect(data.incidents.some((i) => !i.replayable)).toBe(true);
    expect(section).toMatch(/<td class="left">fx-throws<\/td><td class="left">crashed<\/td><td>\d+<\/td><td class="left">greedy<\/td><td class="left">subtraction\{[^<]*<\/td><td class="left reason">[^<]*fx-throws always throws/);
  });

  it('lists a bot process replaced during a game, from the log’s restarts', async () => {
    const dir = join(tempDir(), 'restarted');
    cpSync(await reportFixture(), dir, { recursive: true });
    // An unverified folder (no games.key) reads every line: a record given a restart.
    rmSync(join(dir, 'games.key'));
    const file = join(dir, 'games.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const rec = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...rec, restarts: [{ seat: 'second', ply: 2, reason: 'its process exited (code 1) in another game' }] });
    writeFileSync(file, lines.join('\n'));
    const data = loadReportData(dir, boardView);
    const restart = data.incidents.find((i) => i.kind === 'restart')!;
    expect(restart).toMatchObject({ number: 1, ply: 2, reason: 'its process exited (code 1) in another game', replayable: true });
    expect(restart.bot).toBe((rec['seats'] as { second: string }).second);
    expect(await reportHtml(data)).toContain('<td class="left">process replaced</td><td>2</td>');
  });

  it('shows each variant’s standings and the game pairs as the plain output computes them, under a table of contents', async () => {
    const data = loadReportData(await reportFixture(), boardView);
    const html = await reportHtml(data);
    /** The body rows of the first table in `html`, as cell texts. */
    const cells = (part: string): string[][] => {
      const table = part.slice(part.indexOf('<tbody>'), part.indexOf('</tbody>'));
      return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
    };
    const from = (marker: string): string => {
      expect(html).toContain(marker);
      return html.slice(html.indexOf(marker));
    };
    const pooled = data.standings.pooled;
    expect(cells(from('<section id="standings">'))).toEqual(standingsRows(pooled));
    expect(pooled.pairs.length).toBeGreaterThan(0);
    expect(cells(from('<section id="pairs">'))).toEqual(pairsRows(pooled));
    data.variants.forEach((v, i) => {
      const card = from(`<div class="card variant" id="variant-${i}"><h3>${v.id}</h3>`);
      expect(cells(card), v.id).toEqual(standingsRows(data.standings.variants[v.id]!));
    });
    // The contents link every section and every variant, in page order.
    const nav = from('<nav id="contents"').slice(0, html.indexOf('</nav>') - html.indexOf('<nav id="contents"'));
    const links = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    const anchors = [...html.matchAll(/<(?:section|div class="card variant") id="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(anchors);
    expect(links).toEqual(expect.arrayContaining(['standings', 'pairs', 'incidents', 'crosstable', 'variants', 'variant-0', 'variant-5', 'play', 'first-mover', 'replay']));
  });

  it('explains move-time whiskers past the limit under the chart, naming the bots whose moves went past it', async () => {
    const data = loadReportData(await reportFixture(), boardView);
    const note = (html: string): string => /<p class="note" id="move-times-note">(.*?)<\/p>/.exec(html)![1]!;
    const quiet = note(await reportHtml(data));
    expect(quiet).toMatch(/Dashed: the 20 ms limit a move\. A whisker past it is a move answered after the limit but within the 50 ms margin .* loses the game on time \(✕\)/);
    expect(quiet).toContain('No move here took longer than the limit.');
    const slow = data.moveTimes.map((t) => (t.bot === 'greedy' ? { ...t, max: 31.25 } : t));
    expect(note(await reportHtml({ ...data, moveTimes: slow }))).toContain('Past the limit here: greedy (up to 31.3 ms).');
  });

  it('renders the pooled crosstable with the same scores as the standings', async () => {
    const data = loadReportData(await reportFixture(), boardView);
    const html = await reportHtml(data);
    const t = data.standings.pooled;
    const cell = t.crosstable['optimal']!['fx-sleeps']!;
    expect(cell.points / cell.games).toBe(1);
    expect(html).toMatch(/optimal<\/td><td>24<\/td>/);
  });
});
