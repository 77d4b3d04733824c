// Whether the compiled copy in dist/ (scripts/build.mjs) may run: it must exist and be newer than
// every file and folder in src/, so an edited, added or removed source file sends the bin back to
// the sources (through tsx) until the next `npm run build`. A stale build is slower, never wrong.
// Costs one stat per file of src/ (a few milliseconds), far less than loading tsx.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The stamp written into dist/ by the build: when it started and how many source files it saw. */
export const BUILD_INFO = 'build.json';

/** Every file under `<root>/src`, as paths relative to it. */
export function sourceFiles(root) {
  return readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * The compiled CLI's file when dist/ is fresh, else null (no build, an unreadable stamp, a source
 * changed since the build started, or a source added or removed). `TAKE_ARENA_SOURCES=1` forces the
 * sources.
 */
export function compiledMain(root) {
  if (process.env.TAKE_ARENA_SOURCES === '1') return null;
  let info;
  try {
    info = JSON.parse(readFileSync(join(root, 'dist', BUILD_INFO), 'utf8'));
  } catch {
    return null;
  }
  if (typeof info?.started !== 'number' || typeof info.sources !== 'number') return null;
  let files = 0;
  const entries = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (e.isFile()) files++;
    else if (!e.isDirectory()) continue;
    if (statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs > info.started) return null;
  }
  if (statSync(join(root, 'src')).mtimeMs > info.started || files !== info.sources) return null;
  // The entry bundled with yargs when the build made it (scripts/build.mjs), else the plain one.
  const bundled = join(root, 'dist', 'src', 'cli', 'main.bundle.js');
  return existsSync(bundled) ? bundled : join(root, 'dist', 'src', 'cli', 'main.js');
}
