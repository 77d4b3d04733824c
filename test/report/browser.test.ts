import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportData, reportHtml, writeReport } from '../../src/report/index.ts';
import { boardView } from '../../src/tui/boards/board-view.ts';
import { runSpec, tempDir } from '../arena/helpers.ts';
import { reportFixture } from './fixture.ts';

/**
 * Debian's chromium (.ci/run installs it when missing). A local run without it skips with a
 * message; under CI it runs and fails, so a missing browser never passes for a tested page.
 */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CLASSIC_GAMES = (JSON.parse(readFileSync(new URL('../../tournaments/classic.json', import.meta.url), 'utf8')) as { games: string[] }).games;
const SKIP = !existsSync(CHROMIUM) && !process.env['CI'];
/** The fixture's replays in small chunks, so that opening games unpacks several of them. */
const SMALL_CHUNKS = 4096;

/** Waits until the board shows the game picked (its chunk unpacked, when it was not yet). */
const shown = (page: Page): Promise<unknown> => page.waitForSelector('#board[data-game]');
/** Waits until the picker lists every game (it is filled once the first game is shown). */
const listed = (page: Page): Promise<unknown> => page.waitForFunction("document.querySelectorAll('#game-pick option').length === Number(document.getElementById('report-games').dataset.games)");
if (SKIP) console.warn(`report browser test: no chromium at ${CHROMIUM}, skipping (CI installs it)`);

describe.skipIf(SKIP)('the report in a real browser (headless Chromium)', () => {
  let browser: Browser;
  let file: string;
  let classicFile: string;
  let folder: string;

  beforeAll(async () => {
    folder = tempDir('arena-report-');
    // Scrollbars drawn as a person sees them (Playwright hides them by default).
    const launch = chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], ignoreDefaultArgs: ['--hide-scrollbars'] });
    // The classic tournament's variants, one deal each way of two quick bots: its wide boards (End Game's row of ten).
    const classic = runSpec({ name: 'classic-boards', seed: 2026, games: CLASSIC_GAMES, bots: ['greedy', 'random'], deals: 1, isolation: 'none' });
    const [dir, b, c] = await Promise.all([reportFixture(), launch, classic]);
    browser = b;
    file = join(folder, 'report.html');
    writeFileSync(file, await reportHtml(loadReportData(dir, boardView), { chunkChars: SMALL_CHUNKS }));
    classicFile = await writeReport(c.dir, join(folder, 'classic.html'), boardView);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every chart with marks, replays with the arrow keys, no console errors', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    // No network: any request but the file itself would be a resource the page fetched.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`);

    const charts = await page.$$eval('svg[data-chart]', (svgs) =>
      svgs.map((s) => ({ id: s.getAttribute('data-chart'), marks: s.querySelectorAll('.mark-rect path, .mark-symbol path, .mark-rule line, .mark-line path, .mark-text text').length, width: s.getBoundingClientRect().width })),
    );
    expect(charts.length).toBeGreaterThanOrEqual(10);
    for (const c of charts) {
      expect(c.marks, `chart ${c.id} has marks`).toBeGreaterThan(0);
      expect(c.width, `chart ${c.id} is laid out`).toBeGreaterThan(50);
    }

    // The replay: a game with moves opens, → steps forward with ✓/✗ marks, ← steps back.
    const status = page.locator('#replay-status');
    await expect.poll(() => status.getAttribute('data-ply')).toBe('0');
    const boardAtStart = await page.locator('#board').innerText();
    expect(boardAtStart).toMatch(/●|L ▶/);
    await page.locator('#board').click();
    await page.keyboard.press('ArrowRight');
    expect(await status.getAttribute('data-ply')).toBe('1');
    expect(await status.innerText()).toMatch(/^move 1 of \d+: .* played \S+ in [\d.]+ ms · (✓|✗|not judged)/);
    expect(await page.locator('#board').innerText()).not.toBe(boardAtStart);
    await page.keyboard.press('ArrowRight');
    expect(await status.getAttribute('data-ply')).toBe('2');
    await page.keyboard.press('ArrowLeft');
    expect(await status.getAttribute('data-ply')).toBe('1');
    expect(await page.locator('#moves li.current').innerText()).toMatch(/^1\.\s+[✓✗·]/);
    await page.keyboard.press('End');
    expect(await status.innerText()).toMatch(/(1-0|0-1|½-½)/);
    // The final position says who won, not whose move it would be.
    const final = await page.locator('#board').innerText();
    expect(final).toMatch(/game over · (optimal|greedy|fx-sleeps) won|game over · a draw/);
    expect(final).not.toMatch(/to move/);
    // ↓ opens the next game at its start.
    await listed(page);
    const first = await page.locator('#game-pick').inputValue();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#game-pick').inputValue()).not.toBe(first);
    await shown(page);
    expect(await status.getAttribute('data-ply')).toBe('0');

    // A coin board and an End Game row are drawn as in the terminal.
    await page.locator('#game-filter').fill('coins');
    await shown(page);
    expect(await page.locator('#board').innerText()).toMatch(/^\s+1\s*\n\s+2\s+3\s*\n\s*4\s+5\s+6\s*\n6 of 6 coins left/);
    await page.locator('#game-filter').fill('end-game');
    await shown(page);
    expect(await page.locator('#board').innerText()).toMatch(/^L ▶(\s+-?\d+){6} ◀ R\n/);

    const shot = join(folder, 'report-light.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => u !== `file://${file}`)).toEqual([]);
    await page.close();
  });

  it('unpacks the list of games and the chunk of the game shown first, then a chunk when a game in it is opened', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`file://${file}`);
    await page.waitForFunction("performance.getEntriesByName('replay-ready').length > 0");
    const unpacked = (): Promise<string[]> => page.$$eval('script[id^="report-chunk-"]', (ss) => ss.filter((s) => s.hasAttribute('data-unpacked')).map((s) => s.id));
    const chunks = await page.$$eval('script[id^="report-chunk-"]', (ss) => ss.length);
    expect(chunks).toBeGreaterThan(2);
    expect(await unpacked()).toEqual(['report-chunk-0']);
    await listed(page);
    // The last game is in the last chunk: opening it unpacks that chunk alone, and it replays to its end.
    const last = await page.$$eval('#game-pick option', (os) => os.at(-1)!.value);
    await page.locator('#game-pick').selectOption(last);
    await shown(page);
    expect(await unpacked()).toEqual(['report-chunk-0', `report-chunk-${chunks - 1}`]);
    await page.locator('#board').click();
    await page.keyboard.press('End');
    // At its end (its last move, or its start when it was lost before a move) with its result.
    expect(await page.locator('#replay-status').innerText()).toMatch(/^(move (\d+) of \2: .*|start · 0 moves) · (1-0|0-1|½-½)/);
    await page.close();
  });

  it('opens a forfeited game in the replay from the list of forfeits and crashes', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`file://${file}`);
    await expect.poll(() => page.locator('#replay-status').getAttribute('data-ply')).toBe('0');
    const link = page.locator('#incidents a[data-game]').nth(2);
    const n = await link.getAttribute('data-game');
    const row = await link.locator('xpath=ancestor::tr').innerText();
    expect(row).toMatch(/fx-sleeps\s+lost on time/);
    await link.click();
    await shown(page);
    expect(await page.locator('#game-filter').inputValue()).toBe(`#${n}`);
    expect(await page.locator('#game-pick option:checked').innerText()).toMatch(new RegExp(`^#${n} .*\\(timeout\\)$`));
    await page.keyboard.press('End');
    expect(await page.locator('#replay-status').innerText()).toMatch(/timeout: /);
    expect(await page.locator('#board').innerText()).toMatch(/game over · (optimal|greedy) won: fx-sleeps lost on time/);
    await page.close();
  });

  it('draws every crosstable with the bots in one order, and the first-mover chart with whole variant names', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`file://${file}`);
    // A heat map's row labels, top to bottom (its y axis: the labels anchored at their end).
    const rows = (chart: string) =>
      page.$$eval(`svg[data-chart="${chart}"] .role-axis-label text[text-anchor="end"]`, (ts) =>
        ts.map((t) => ({ y: t.getBoundingClientRect().y, text: t.textContent })).sort((a, b) => a.y - b.y).map((t) => t.text),
      );
    const order = await page.$$eval('#standings tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
    expect(order).toHaveLength(3);
    expect(await rows('cross-pooled')).toEqual(order);
    const variants = await page.$$eval('svg[data-chart^="cross-"]:not([data-chart="cross-pooled"])', (svgs) => svgs.map((s) => s.getAttribute('data-chart')!));
    expect(variants).toHaveLength(6);
    for (const v of variants) {
      const shown = await rows(v);
      expect(shown, v).toEqual(order.filter((b) => shown.includes(b)));
    }
    // Each variant's label in full on several lines (family, then its parameters), none cut short with an ellipsis.
    const labels = await page.$$eval('svg[data-chart="first-mover"] .role-axis-label text', (ts) =>
      ts.filter((t) => t.querySelectorAll('tspan').length >= 2).map((t) => [...t.querySelectorAll('tspan')].map((s) => s.textContent).join('')),
    );
    const ids = await page.$$eval('#first-mover table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
    expect(ids).toHaveLength(6);
    expect(labels).toEqual(ids);
    await page.close();
  });

  it('follows a dark colour scheme: dark page, light chart text', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'dark' });
    await page.goto(`file://${file}`);
    const [bg, label] = await page.evaluate<[string, string]>(
      "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('svg .role-axis-label text')).fill]",
    );
    const lightness = (rgb: string): number => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return (r! + g! + b!) / 3;
    };
    expect(lightness(bg)).toBeLessThan(60);
    expect(lightness(label)).toBeGreaterThan(180);
    await page.screenshot({ path: join(folder, 'report-dark.png') });
    await page.close();
  });

  for (const width of [1440, 390]) {
    it(`lays out at ${width} px: wide tables and charts scroll visibly, heat-map text readable, every board whole`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(`file://${classicFile}`);
      // Nothing makes the page itself wider than the screen.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      // Every table sits in a box of its own that scrolls sideways; a box (or a chart) wider than
      // the screen shows a scrollbar and a shadow on the side that has more.
      const boxes = await page.evaluate<{ id: string; wider: boolean; overflow: string; bar: number; shade: boolean }[]>(`[...document.querySelectorAll('.scroll, figure')].map((e) => {
        const style = getComputedStyle(e);
        return { id: e.closest('[id]').id, wider: e.scrollWidth > e.clientWidth + 1, overflow: style.overflowX, bar: e.offsetHeight - e.clientHeight, shade: style.backgroundImage.includes('radial-gradient') };
      })`);
      expect(await page.$$eval('table', (ts) => ts.every((t) => t.parentElement!.classList.contains('scroll')))).toBe(true);
      for (const b of boxes) {
        expect(b.overflow, b.id).toBe('auto');
        expect(b.shade, b.id).toBe(true);
        if (b.wider) expect(b.bar, `${b.id}: a scrollbar`).toBeGreaterThanOrEqual(6);
      }
      if (width === 390) expect(boxes.filter((b) => b.wider).map((b) => b.id)).toEqual(expect.arrayContaining(['standings', 'pairs', 'variant-0']));
      else expect(boxes.filter((b) => b.wider)).toEqual([]);
      // Heat-map numbers are drawn at 10 px or more: charts keep their size rather than shrink to the screen.
      const sizes = await page.evaluate<number[]>(`[...document.querySelectorAll('svg[data-chart^="cross-"], svg[data-chart="accuracy"]')].flatMap((svg) => {
        const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
        return [...svg.querySelectorAll('.mark-text.role-mark text')].map((t) => Number.parseFloat(t.getAttribute('font-size')) * scale);
      })`);
      expect(sizes.length).toBeGreaterThan(20);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
      // The replay's board is never cut: every family's first game, at its start and at its end.
      await expect.poll(() => page.locator('#replay-status').getAttribute('data-ply')).toBe('0');
      // The final position says who won and how, by the family's rule.
      const bot = '(greedy|random)';
      const stones = `${bot} won: (${bot} took the last stone|${bot} has no move \\([\\d,]+ left\\))`;
      const endings: Record<string, RegExp> = {
        subtraction: new RegExp(stones),
        'no-repeat': new RegExp(stones),
        partizan: new RegExp(stones),
        piles: new RegExp(stones),
        coins: new RegExp(`${bot} won: ${bot} took the last coin`),
        'end-game': new RegExp(`${bot} won: -?\\d+ points to -?\\d+|a draw: -?\\d+ points each`),
      };
      for (const [family, ending] of Object.entries(endings)) {
        await page.locator('#game-filter').fill(`${family}{`);
        await shown(page);
        for (const key of ['Home', 'End']) {
          await page.locator('#board').click();
          await page.keyboard.press(key);
          const board = await page.$eval('#board', (b) => ({ scroll: b.scrollWidth, client: b.clientWidth, text: b.textContent }));
          expect(board.scroll, `${family} ${key}: ${board.text}`).toBeLessThanOrEqual(board.client);
          if (key === 'End') expect(board.text, family).toMatch(new RegExp(`game over · (?:${ending.source})`));
        }
      }
      await page.screenshot({ path: join(folder, `report-${width}.png`), fullPage: true });
      await page.close();
    });
  }
});
