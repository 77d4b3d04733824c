import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { menuComesBack, resultsFolders, rulebook } from '../../src/cli/commands/home.ts';
import { HomeApp, splitArgs } from '../../src/tui/home/HomeApp.tsx';
import type { RulesSection } from '../../src/tui/home/rules.ts';
import { waitFor } from '../patience.ts';
import { settle, until } from './frames.ts';

const DOWN = '\u001B[B';
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const RESULTS = ['tournaments/results/classic-2', 'tournaments/results/classic-1'];
const RULES: readonly RulesSection[] = rulebook();
let last = '';

async function choose(keys: readonly string[], specs: readonly string[] = ['tournaments/classic.json']): Promise<readonly string[] | null | undefined> {
  let chosen: readonly string[] | null | undefined;
  const r = render(<HomeApp specs={specs} families={FAMILIES} results={RESULTS} rules={RULES} onChoose={(a) => void (chosen = a)} />);
  unmount = r.unmount;
  await until(r.lastFrame, 'Run a tournament');
  for (const k of keys) {
    // Each key once the previous one has been drawn (a fixed pause lost keys on a loaded machine).
    const before = r.lastFrame();
    r.stdin.write(k);
    await waitFor(() => chosen !== undefined || r.lastFrame() !== before, `the menu to take key ${JSON.stringify(k)}`, 20);
    await settle(20);
  }
  last = r.lastFrame() ?? '';
  return chosen;
}

describe('home menu', () => {
  it('runs a tournament from a spec in tournaments/', async () => {
    expect(await choose(['\r', '\r'])).toEqual(['tournament', 'tournaments/classic.json']);
  });
  it('plays a bot, lists bots, or quits', async () => {
    expect(await choose([DOWN, '\r'])).toEqual(['play']);
    expect(await choose([DOWN, DOWN, '\r'])).toEqual(['bots']);
    expect(await choose(['q'])).toBeNull();
  });
  it('analyses a position of a chosen family with typed flags', async () => {
    expect(await choose([DOWN, DOWN, DOWN, '\r', '\r', '--n 1764 --moves "15,19,20"', '\r'])).toEqual(['analyze', 'subtraction', '--n', '1764', '--moves', '15,19,20']);
  });
  it('the analyse prompt shows nothing typed: an example and what enter alone runs, said apart', async () => {
    expect(await choose([DOWN, DOWN, DOWN, '\r', '\r'])).toBeUndefined();
    const prompt = last.split('\n').find((l) => l.startsWith('›'));
    expect(prompt?.trim()).toBe('›'); // an empty field, not "--upto 50" in it
    expect(last).toContain('enter alone: arena analyze subtraction, its default position');
    expect(await choose([DOWN, DOWN, DOWN, '\r', '\r', '\r'])).toEqual(['analyze', 'subtraction']);
  });
  it('replays a game of a results folder chosen from a list', async () => {
    expect(await choose([DOWN, DOWN, DOWN, DOWN, '\r'])).toBeUndefined();
    expect(last).toContain('Replay a game of which tournament?');
    expect(last).toContain(RESULTS[1]);
    expect(await choose([DOWN, DOWN, DOWN, DOWN, '\r', DOWN, '\r'])).toEqual(['replay', RESULTS[1]]);
  });
  it('writes the report of a results folder, under the name typed or the default one', async () => {
    expect(await choose([DOWN, DOWN, DOWN, DOWN, DOWN, '\r', '\r', '\r'])).toEqual(['report', RESULTS[0]]);
    expect(await choose([DOWN, DOWN, DOWN, DOWN, DOWN, '\r', '\r', 'out/classic.html', '\r'])).toEqual(['report', RESULTS[0], '--out', 'out/classic.html']);
  });
  it('reads the rules of each family from the rulebook, a page at a time', async () => {
    // Every family has its part of docs/GAMES.md.
    for (const f of FAMILIES) expect(RULES.some((s) => s.title.includes(`\`${f.id}\``)), f.id).toBe(true);
    const coins = RULES.findIndex((s) => s.title.includes('`coins`'));
    expect(await choose([DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, '\r', ...Array<string>(coins).fill(DOWN), '\r'])).toBeUndefined();
    expect(last).toContain('`coins` — pick coins in a straight line');
    expect(last).toContain('who takes the last coin loses');
    expect(last).toMatch(/lines 1–\d+ of \d+/);
    expect(await choose([DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, '\r', ...Array<string>(coins).fill(DOWN), '\r', '\u001B[6~'])).toBeUndefined();
    expect(last).toMatch(/lines (?!1–)\d+–\d+ of \d+/);
    expect(await choose([DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, '\r', '\r', '\u001B'])).toBeUndefined();
    expect(last).toContain('The rules of which game?');
  });
  it('comes back after a tournament, an analysis, a replay, a report or a mistyped command; not after playing or an interrupt', () => {
    for (const argv of [['tournament', 'tournaments/classic.json'], ['analyze', 'subtraction'], ['replay', 'd'], ['report', 'd'], ['bots']]) {
      expect(menuComesBack(argv, 0)).toBe(true);
      expect(menuComesBack(argv, 2)).toBe(true);
      expect(menuComesBack(argv, 130)).toBe(false);
    }
    expect(menuComesBack(['play'], 0)).toBe(false);
  });
  it('lists the results folders that hold a games log, newest first', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'arena-home-'));
    for (const [name, at] of [['a', 1000], ['b', 3000], ['c', 2000]] as const) {
      mkdirSync(join(cwd, 'tournaments/results', name), { recursive: true });
      writeFileSync(join(cwd, 'tournaments/results', name, 'games.jsonl'), '');
      utimesSync(join(cwd, 'tournaments/results', name, 'games.jsonl'), at, at);
    }
    mkdirSync(join(cwd, 'tournaments/results/empty'));
    expect(resultsFolders(cwd)).toEqual(['tournaments/results/b', 'tournaments/results/c', 'tournaments/results/a']);
  });
  it('splits typed arguments, keeping quoted parts whole', () => {
    expect(splitArgs(` --row "-1 3 9 4"  --n 5 `)).toEqual(['--row', '-1 3 9 4', '--n', '5']);
  });
});
