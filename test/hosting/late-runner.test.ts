import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import type { BotHost } from '../../src/hosting/host.ts';
import { ProcessHost } from '../../src/hosting/process-host.ts';
import { WorkerHost } from '../../src/hosting/worker-host.ts';
import { tempDir } from '../arena/helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Blocks this thread (the runner's event loop) for `ms`, as a long synchronous task or a starved CPU would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: timers and the channel's wake-ups queue up meanwhile
  }
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
});
