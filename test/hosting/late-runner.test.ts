import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import type { BotHost } from '../../src/hosting/host.ts';
import { ProcessHost } from '../../src/hosting/process-host.ts';
import { WorkerHost } from '../../src/hosting/worker-host.ts';
import { processTreeCpuMs } from '../../src/platform/cpu-clock.ts';
import { tempDir } from '../arena/helpers.ts';
import { waitFor } from '../patience.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Blocks this thread (the runner's event loop) for `ms`, as a long synchronous task or a starved CPU would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: timers and the channel's wake-ups queue up meanwhile
  }
}

/** The CPU time (ms) of this process's children: the bots' processes. */
function childrenCpuMs(): number {
  let ms = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    let children = '';
    try {
      children = readFileSync(`/proc/self/task/${tid}/children`, 'latin1');
    } catch {
      continue;
    }
    for (const pid of children.split(' ')) if (/^\d+$/.test(pid)) ms += processTreeCpuMs(Number(pid));
  }
  return ms;
}

/**
 * The bot answers after a few milliseconds, well within 100 ms; the runner then stays busy far past
 * the cutoff, so the watchdog's timer and the reply are both due when it returns. The bot was on
 * time: it must get its move, in every one of several rounds.
 */
async function lateRunner(h: BotHost): Promise<void> {
  await h.start();
  const game = parseVariant('subtraction{n=12..30}');
  for (let round = 0; round < 5; round++) {
    const session = await h.open({ key: `g${round}`, variant: game.id, seat: 'first', rngSeed: round });
    const state = game.deal(createRng(round));
    const asked = session.move(state, game.moves(state), 100);
    block(400);
    const reply = await asked;
    expect(reply, `round ${round}`).toMatchObject({ ok: true });
    session.close();
  }
}

describe('watchdogs when the runner is the late one', () => {
  let host: BotHost | null = null;
  afterEach(async () => {
    await host?.close();
    host = null;
  });

  it("isolation worker: a reply waiting in the pipe is taken, not cut off with the bot's process", async () => {
    host = new WorkerHost('fx-slow', { file: join(FIXTURES, 'bots', 'fx-slow.ts'), name: 'fx-slow', options: {}, memoryMb: 64, graceMs: 10 });
    await lateRunner(host);
  });

  it('processes: an answer already in the pipe is read before the cutoff kills the program', async () => {
    const dir = tempDir();
    host = new ProcessHost('fx-ext-first', { name: 'fx-ext-first', command: ['sh', 'fx-ext.sh', 'first'], cwd: join(FIXTURES, 'external'), stderrLog: join(dir, 'err.log'), graceMs: 10 });
    await lateRunner(host);
  });

  it('processes under the CPU clock: an answer that overran its CPU time is out of time, however late the runner reads it', async () => {
    const dir = tempDir();
    const answered = join(dir, 'answered');
    host = new ProcessHost('fx-ext-spin', { name: 'fx-ext-spin', command: ['sh', 'fx-ext.sh', 'spin', answered], cwd: join(FIXTURES, 'external'), stderrLog: join(dir, 'err.log'), graceMs: 10, clock: 'cpu' });
    await host.start();
    const game = parseVariant('subtraction{n=12..30}');
    const session = await host.open({ key: 'g', variant: game.id, seat: 'first', rngSeed: 1 });
    const state = game.deal(createRng(1));
    const asked = session.move(state, game.moves(state), 100);
    // The runner busy until the answer (400 ms of CPU time, limit 100) is in the pipe: its cut-off's
    // timer and the answer are then both due, and the answer is read first.
    while (!existsSync(answered)) block(20);
    const reply = await asked;
    expect(reply).toMatchObject({ ok: false, kind: 'timeout', reason: 'no move within 100 ms of CPU time' });
  });

  it('isolation worker: a prepare that overran its budget is out of time, however late the runner reads its answer', async () => {
    // fx-prepare-slow computes for 300 ms of CPU time in prepare; its budget is 100 ms.
    host = new WorkerHost('fx-prepare-slow', { file: join(FIXTURES, 'bots', 'fx-prepare-slow.ts'), name: 'fx-prepare-slow', options: {}, memoryMb: 64, graceMs: 10, prepareTimeoutMs: 100, clock: 'cpu' });
    await host.start();
    const game = parseVariant('subtraction{n=12..30}');
    const session = await host.open({ key: 'g', variant: game.id, seat: 'first', rngSeed: 1 });
    const state = game.deal(createRng(1));
    const cpu0 = childrenCpuMs();
    const asked = session.move(state, game.moves(state), 100);
    // The request goes out on the runner's loop: once the bot computes, the runner is kept busy
    // until its process has computed its 300 ms and gone quiet (answered). The watchdog's timer and
    // the answer are then both due, and the answer is read first.
    await waitFor(() => childrenCpuMs() - cpu0 > 5, 'the bot to start its prepare', 1);
    let last = childrenCpuMs();
    for (let still = 0; last - cpu0 < 300 || still < 5; ) {
      block(20);
      const now = childrenCpuMs();
      still = now - last < 1 ? still + 1 : 0;
      last = now;
    }
    const reply = await asked;
    expect(reply).toMatchObject({ ok: false, kind: 'timeout', reason: 'prepare took longer than its 100 ms budget' });
  });
});
