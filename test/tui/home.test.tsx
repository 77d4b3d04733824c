import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { HomeApp, splitArgs } from '../../src/tui/home/HomeApp.tsx';

const settle = (ms = 100) => new Promise((r) => setTimeout(r, ms));
const DOWN = '\u001B[B';
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

async function choose(keys: readonly string[], specs: readonly string[] = ['tournaments/classic.json']): Promise<readonly string[] | null | undefined> {
  let chosen: readonly string[] | null | undefined;
  const r = render(<HomeApp specs={specs} families={FAMILIES} onChoose={(a) => void (chosen = a)} />);
  unmount = r.unmount;
  for (let i = 0; i < 50 && !(r.lastFrame() ?? '').includes('Run a tournament'); i++) await settle(20);
  await settle();
  for (const k of keys) {
    // Each key once the previous one has been drawn (a fixed pause lost keys on a loaded machine).
    const before = r.lastFrame();
    r.stdin.write(k);
    for (let i = 0; i < 50 && chosen === undefined && r.lastFrame() === before; i++) await settle(20);
    await settle(20);
  }
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
  it('splits typed arguments, keeping quoted parts whole', () => {
    expect(splitArgs(` --row "-1 3 9 4"  --n 5 `)).toEqual(['--row', '-1 3 9 4', '--n', '5']);
  });
});
