/**
 * A bot dropped anywhere (issue 17, item 7): a folder outside the repository, with no package.json
 * and no node_modules, whose bot imports `take-arena`, plays a tournament (worker threads and
 * in-process) and a game of `arena play`, through the real bin run from outside the repository.
 * (`bots check` from such a folder is covered in test/cli/bots.test.ts.)
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { arena, BIN } from '../cli/spawn.ts';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';

/** A folder outside the repository holding one bot that imports the documented entry. */
function farBots(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-far-bots-'));
  writeFileSync(
    join(dir, 'far.ts'),
    `import { defineBot, greedyMove } from 'take-arena';
export default defineBot({
  name: 'far',
  description: 'greedy, from a folder outside the repository',
  choose: ({ game, state, moves, rng }) => greedyMove(game, state, moves, rng),
});
`,
  );
  return dir;
}

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe('a bot outside the repository (real bin, run from outside it)', () => {
  it.each(['worker', 'none'])('plays a tournament with --bots-dir (isolation %s)', async (isolation) => {
    const bots = farBots();
    const out = mkdtempSync(join(tmpdir(), 'arena-far-out-'));
    const r = await arena(['tournament', '--bots', 'far,random', '--bots-dir', bots, '--games', 'subtraction{n=20..40}', '--deals', '2', '--isolation', isolation, '--plain', '--out', out], { cwd: tmpdir() });
    expect(r.code, r.err).toBe(0);
    const log = readFileSync(join(out, readdirSync(out)[0]!, 'games.jsonl'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(4);
    for (const line of log) expect(JSON.parse(line)).toMatchObject({ termination: 'normal' });
  });

  it.skipIf(!HAVE_TMUX)('is an opponent in arena play', async () => {
    const bots = farBots();
    session = new TmuxSession(`node ${BIN} play "subtraction{moves=1,2,3;n=10}" --bot far --bots-dir ${bots} --first me --seed 1`, tmpdir(), 100, 30);
    const t = session;
    await t.waitFor('Your move');
    t.send('1', true);
    await t.waitFor('Your move: 1');
    t.send('Enter');
    await t.waitFor(/far played \d in /);
    t.send('q');
    expect(await t.exited()).toBe(0);
  });
});
