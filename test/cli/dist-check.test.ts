import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_INFO, compiledMain, sourceFiles } from '../../bin/dist-check.mjs';
import { tempDir } from '../arena/helpers.ts';

/** A package root with three source files and a build stamped `started` ms after the epoch. */
function packageWithBuild(started: number): string {
  const root = tempDir('arena-dist-');
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  for (const f of ['src/index.ts', 'src/cli/main.ts', 'src/cli/io.ts']) writeFileSync(join(root, f), '');
  mkdirSync(join(root, 'dist', 'src', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', BUILD_INFO), JSON.stringify({ started, sources: sourceFiles(root).length }));
  // Everything in src/ is older than the build.
  const before = new Date(started - 60_000);
  for (const p of ['src', 'src/cli', 'src/index.ts', 'src/cli/main.ts', 'src/cli/io.ts']) utimesSync(join(root, p), before, before);
  return root;
}

afterEach(() => {
  delete process.env['TAKE_ARENA_SOURCES'];
});

describe('the compiled copy runs only while it is up to date', () => {
  it('runs dist/ when it is newer than every source', () => {
    const root = packageWithBuild(Date.now());
    expect(compiledMain(root)).toBe(join(root, 'dist', 'src', 'cli', 'main.js'));
    process.env['TAKE_ARENA_SOURCES'] = '1';
    expect(compiledMain(root)).toBeNull();
  });

  it('falls back to the sources after a source is edited, added or removed', () => {
    const edited = packageWithBuild(Date.now());
    utimesSync(join(edited, 'src', 'cli', 'io.ts'), new Date(), new Date(Date.now() + 1000));
    expect(compiledMain(edited)).toBeNull();
    const added = packageWithBuild(Date.now());
    writeFileSync(join(added, 'src', 'cli', 'new.ts'), '');
    expect(compiledMain(added)).toBeNull();
    // A removal changes the count even when the folder's time is put back.
    const removed = packageWithBuild(Date.now());
    rmSync(join(removed, 'src', 'cli', 'io.ts'));
    const before = new Date(Date.now() - 60_000);
    utimesSync(join(removed, 'src', 'cli'), before, before);
    expect(compiledMain(removed)).toBeNull();
  });

  it('falls back without a build or with an unreadable stamp', () => {
    const none = packageWithBuild(Date.now());
    rmSync(join(none, 'dist'), { recursive: true });
    expect(compiledMain(none)).toBeNull();
    const garbled = packageWithBuild(Date.now());
    writeFileSync(join(garbled, 'dist', BUILD_INFO), '{"started":');
    expect(compiledMain(garbled)).toBeNull();
  });
});
