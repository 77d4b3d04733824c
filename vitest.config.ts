import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that need a process of their own: they test what importing a module does, or leave state
 * in the process that later files must not see. Every other file shares its worker process with
 * the files before it (`isolate: false`): each file in a fresh process paid again for importing
 * the sources and their dependencies, a large part of the suite's CPU time (docs/PERFORMANCE.md).
 */
const ISOLATED = [
  // What importing the solvers allocates: the module must not have been imported before.
  'test/solvers/grundy-import.test.ts',
  // A user's game registered in the test's own process stays registered for the process's life.
  'test/arena/queue/queue.test.ts',
  'test/arena/queue/sandbox-games.test.ts',
];

export default defineConfig({
  test: {
    // Each file's temporary folders in a folder of their own (test/temp-folder.ts).
    setupFiles: ['test/temp-folder.ts'],
    // Vitest's default on 2 cores is one file at a time, and a file often waits on the processes it
    // starts (bots, the real CLI, tmux, redis-server, chromium): two side by side keep both cores
    // busy. Three or four were slower (the cores are already busy; see docs/PERFORMANCE.md).
    maxWorkers: 2,
    // Timeouts only catch a hang: a busy machine (a loaded CI runner, a laptop running a build)
    // makes honest tests many times slower, and that must not fail them. No test sets a shorter
    // one; waits inside tests are bounded by test/patience.ts's HANG_MS.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.{ts,tsx}'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false, globalSetup: ['test/shared-temp.ts'] },
      },
    ],
  },
});
