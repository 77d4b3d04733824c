/** The bots' persistent store: atomic files with checksums, a cap, run snapshots, resets with a warning. */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBotStore, memoryStore, mirrorStoreFolder, prepareForeignStore, readStoreSnapshot, StoreError } from '../../src/platform/bot-store.ts';
import { tempDir } from '../arena/helpers.ts';

const open = (dir: string, cap = 1 << 16, warnings: string[] = []) =>
  createBotStore(readStoreSnapshot(dir, cap, (m) => warnings.push(m)), { dir, capBytes: cap });

describe('bot store', () => {
  it('keeps values and blobs across runs; a run reads the store as it began', () => {
    const dir = join(tempDir(), 'bot');
    const first = open(dir);
    expect(first.get('count')).toBeUndefined();
    first.set('count', { n: 1, names: ['a'] });
    first.setBlob('table', new Uint8Array([1, 2, 3]));
    // Still the snapshot of this run: what it writes is for the next run.
    expect(first.get('count')).toBeUndefined();
    const second = open(dir);
    expect(second.get('count')).toEqual({ n: 1, names: ['a'] });
    expect([...second.getBlob('table')!]).toEqual([1, 2, 3]);
    expect(second.keys()).toEqual(['count', 'table']);
    second.delete('count');
    expect(open(dir).keys()).toEqual(['table']);
    expect(readdirSync(dir).sort()).toEqual(['table.bin']); // no temporary or lock files left
  });

  it('updateBlob merges with what other writers left on disk, under a lock', () => {
    const dir = join(tempDir(), 'bot');
    const a = open(dir);
    const b = open(dir);
    const append = (x: number) => (cur: Uint8Array | undefined) => new Uint8Array([...(cur ?? []), x]);
    a.updateBlob('log', append(1));
    b.updateBlob('log', append(2));
    a.updateBlob('log', append(3));
    expect([...open(dir).getBlob('log')!]).toEqual([1, 2, 3]);
  });

  it('refuses writes past the cap, bad keys and big values with a StoreError', () => {
    const dir = join(tempDir(), 'bot');
    const store = open(dir, 1000);
    store.setBlob('a', new Uint8Array(900));
    expect(() => store.setBlob('b', new Uint8Array(200))).toThrow(StoreError);
    store.setBlob('a', new Uint8Array(950)); // replacing counts only the difference
    expect(() => store.set('../escape', 1)).toThrow(/store key/);
    expect(() => store.set('x', () => 1)).toThrow(StoreError);
    expect(() => memoryStore().set('big', 'x'.repeat(70_000))).toThrow(/at most 65536/);
    expect(store.usedBytes()).toBeLessThanOrEqual(1000);
  });

  it('resets a corrupt or over-cap folder with a warning, never a crash', () => {
    const dir = join(tempDir(), 'bot');
    open(dir).setBlob('table', new Uint8Array(100));
    const file = join(dir, 'table.bin');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff; // flipped bits in the payload
    writeFileSync(file, bytes);
    const warnings: string[] = [];
    const store = open(dir, 1 << 16, warnings);
    expect(warnings).toEqual([`bot store ${dir} was reset (table.bin: checksum mismatch)`]);
    expect(store.keys()).toEqual([]);
    expect(existsSync(file)).toBe(false);

    open(dir).set('v', 'x'.repeat(500));
    const over: string[] = [];
    expect(open(dir, 100, over).get('v')).toBeUndefined();
    expect(over[0]).toMatch(/over its cap of 100/);

    writeFileSync(join(dir, 'stray.txt'), 'hello');
    const stray: string[] = [];
    open(dir, 1 << 16, stray);
    expect(stray[0]).toMatch(/unexpected file stray\.txt/);
    writeFileSync(join(dir, 'v.json'), 'not a store file');
    const garbage: string[] = [];
    open(dir, 1 << 16, garbage);
    expect(garbage[0]).toMatch(/v\.json: (not a store file|shorter than its header)/);
  });

  it('an external program’s folder: only the cap is enforced', () => {
    const dir = join(tempDir(), 'ext');
    const warnings: string[] = [];
    prepareForeignStore({ dir, capBytes: 10 }, (m) => warnings.push(m));
    writeFileSync(join(dir, 'mine.txt'), 'small');
    prepareForeignStore({ dir, capBytes: 10 }, (m) => warnings.push(m));
    expect(readdirSync(dir)).toEqual(['mine.txt']);
    writeFileSync(join(dir, 'mine.txt'), 'much too large');
    prepareForeignStore({ dir, capBytes: 10 }, (m) => warnings.push(m));
    expect(readdirSync(dir)).toEqual([]);
    expect(warnings).toHaveLength(1);
  });
  it('never follows a link planted in the bot-data tree: a linked folder is replaced, not emptied through the link; a linked file is not read', () => {
    const root = tempDir();
    const victim = join(tempDir(), 'victim');
    open(victim).set('precious', 'keep me');
    symlinkSync(victim, join(root, 'bot'));
    const warnings: string[] = [];
    // A reset of the linked "folder" removes the link and leaves what it pointed to as it was.
    expect(open(join(root, 'bot'), 1 << 16, warnings).keys()).toEqual([]);
    expect(readdirSync(victim)).toEqual(['precious.json']);
    expect(existsSync(join(root, 'bot'))).toBe(false);
    expect(warnings).toEqual([`bot store ${join(root, 'bot')} was reset (a link in place of its folder, removed without following it)`]);
    // The arena's writes into a bot's folder do not go through a link either.
    symlinkSync(victim, join(root, 'other'));
    mirrorStoreFolder(join(root, 'other'), new Map([['mine.json', new TextEncoder().encode('1')]]), () => undefined);
    expect(readdirSync(victim)).toEqual(['precious.json']);
    expect(lstatSync(join(root, 'other')).isDirectory()).toBe(true);
    // Another bot's store file, linked into this one's folder, is not read: the folder is reset.
    mkdirSync(join(root, 'thief'));
    symlinkSync(join(victim, 'precious.json'), join(root, 'thief', 'precious.json'));
    expect(open(join(root, 'thief'), 1 << 16, warnings).keys()).toEqual([]);
    expect(warnings[1]).toMatch(/thief was reset \(precious\.json is not a regular file\)/);
    expect(readdirSync(join(root, 'thief'))).toEqual([]);
    expect(readdirSync(victim)).toEqual(['precious.json']);
    // An external program's folder: the same.
    symlinkSync(victim, join(root, 'program'));
    prepareForeignStore({ dir: join(root, 'program'), capBytes: 1 }, () => undefined);
    expect(readdirSync(victim)).toEqual(['precious.json']);
    expect(lstatSync(join(root, 'program')).isDirectory()).toBe(true);
  });
});
