/**
 * A terminal for Ink screens mounted as the CLI mounts them (Ink's `render`, input through
 * KeyStdin): its input written in chunks of any size, its size changed as a window is resized.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { render, type Instance } from 'ink';
import type { ReactElement } from 'react';
import { KeyStdin } from '../../src/tui/ui/key-stdin.ts';

/** A terminal's input: raw mode as asked. */
export class FakeTty extends PassThrough {
  readonly isTTY = true;
  raw = false;
  setRawMode(on: boolean): this {
    this.raw = on;
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** A terminal's output: the last frame drawn, a size that `resize` changes. */
export class FakeScreen extends EventEmitter {
  columns = 100;
  rows = 40;
  last = '';
  write = (frame: string): boolean => {
    this.last = frame;
    return true;
  };
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

const mounted: { app: Instance; keys: KeyStdin }[] = [];

/** Mounts `tree` on a fake terminal; `keys` may be given (made beforehand, as the CLI makes it before a screen loads). */
export function mount(tree: ReactElement, given?: { tty: FakeTty; keys: KeyStdin }): { tty: FakeTty; keys: KeyStdin; screen: FakeScreen; frame: () => string; exited: Promise<unknown> } {
  const tty = given?.tty ?? new FakeTty();
  const keys = given?.keys ?? new KeyStdin(tty as unknown as NodeJS.ReadStream);
  const screen = new FakeScreen();
  const app = render(tree, { stdin: keys as unknown as NodeJS.ReadStream, stdout: screen as unknown as NodeJS.WriteStream, debug: true, patchConsole: false });
  mounted.push({ app, keys });
  return { tty, keys, screen, frame: () => screen.last, exited: app.waitUntilExit() };
}

/** Unmounts what `mount` mounted and releases its input. */
export function unmountAll(): void {
  for (const { app, keys } of mounted.splice(0)) {
    app.unmount();
    keys.close();
  }
}
