import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadReportData, reportHtml } from '../../src/report/index.ts';
import { boardView } from '../../src/tui/boards/board-view.ts';
import { runSpec } from '../arena/helpers.ts';
import { reportFixture } from './fixture.ts';

/** The page's own unpacker (the script the report inlines), run as the browser runs it. */
const unpacker = runInNewContext(`${readFileSync(new URL('../../src/report/assets/unpack.js', import.meta.url), 'utf8')}\n({ unpackIndex, unpackChunk })`) as {
  unpackIndex: (index: unknown) => { games: { moves: number }[]; chunks: number[] };
  unpackChunk: (chunk: unknown) => { plies: unknown[] }[];
};
const inflate = (base64: string): unknown => JSON.parse(gunzipSync(Buffer.from(base64, 'base64')).toString('utf8'));

/** The page's packed replays: its list of games and each chunk of their moves, every one unpacked as the page does. */
function pageGames(html: string): { games: unknown[]; chunks: number } {
  const m = /<script type="application\/gzip" id="report-games" data-games="\d+">([^<]*)<\/script>/.exec(html);
  expect(m, 'the page carries its games packed').not.toBeNull();
  const index = unpacker.unpackIndex(inflate(m![1]!));
  const chunks = [...html.matchAll(/<script type="application\/gzip" id="report-chunk-(\d+)">([^<]*)<\/script>/g)];
  expect(chunks.map((c) => Number(c[1]))).toEqual(index.chunks.map((_, k) => k));
  const bodies = chunks.map((c) => unpacker.unpackChunk(inflate(c[2]!)));
  // Each chunk starts at the game the index says: a game opened unpacks the chunk that holds it.
  expect(index.chunks).toEqual(bodies.map((_, k) => bodies.slice(0, k).reduce((n, b) => n + b.length, 0)));
  const all = bodies.flat();
  expect(all).toHaveLength(index.games.length);
  const games = index.games.map(({ moves, ...entry }, i) => {
    expect(all[i]!.plies).toHaveLength(moves);
    return { ...entry, ...all[i] };
  });
  return { games, chunks: chunks.length };
}

/** Values as JSON holds them (the page's objects come from another realm). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** The classic tournament (tournaments/classic.json, npm start's): its variants and bots. */
const CLASSIC = JSON.parse(readFileSync(new URL('../../tournaments/classic.json', import.meta.url), 'utf8')) as { games: string[]; bots: string[] };

describe('the report carries its replays packed', () => {
  it('unpacks in the page to exactly the games of every family the report read (moves, times, verdicts, boards)', async () => {
    const data = loadReportData(await reportFixture(), boardView);
    expect(data.games.map((g) => g.variant.split('{')[0])).toEqual(expect.arrayContaining(['subtraction', 'no-repeat', 'partizan', 'piles', 'coins', 'end-game']));
    expect(plain(pageGames(await reportHtml(data)).games)).toEqual(plain(data.games));
  });

  it('fits the classic tournament in 2 MB: a game of its variants takes at most 400 bytes of page', async () => {
    // The classic tournament's 3,600 games, every one replayable, must fit 2 MB beside the rest of
    // the page (charts and tables, under 500 KB): 1.5 MB for 3,600 games is 416 bytes a game. Here
    // one deal each way of every classic pairing and variant (180 games).
    const { dir } = await runSpec({ name: 'classic-deal', seed: 2026, games: CLASSIC.games, bots: CLASSIC.bots, deals: 1, timePerMoveMs: 100, isolation: 'none' });
    const data = loadReportData(dir, boardView);
    expect(data.games).toHaveLength(180);
    const html = await reportHtml(data);
    const replays = [...html.matchAll(/<script type="application\/gzip"[^>]*>([^<]*)<\/script>/g)].reduce((n, m) => n + m[1]!.length, 0);
    expect(replays / data.games.length).toBeLessThanOrEqual(400);
    const page = pageGames(html);
    expect(plain(page.games)).toEqual(plain(data.games));
    // In chunks: opening a game unpacks a part of the replays, not all of them.
    expect(page.chunks).toBeGreaterThan(1);
  });
});
