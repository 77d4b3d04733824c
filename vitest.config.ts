import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Each file's temporary folders in one folder of its own, removed after the file.
    setupFiles: ['test/temp-folder.ts'],
    // Vitest's default on 2 cores is one file at a time, and much of the suite's time is spent
    // waiting on the processes it starts (bots, the real CLI, tmux, redis-server, chromium): two
    // files side by side keep both cores busy (four starved the files that start many processes).
    maxWorkers: 2,
    // Timeouts only catch a hang: a busy machine (a loaded CI runner, a laptop running a build)
    // makes honest tests several times slower, and that must not fail them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
