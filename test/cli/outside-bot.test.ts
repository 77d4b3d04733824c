/**
 * A bot outside this repository (a bare folder: no package.json, no node_modules) imports the
 * strategies toolkit from `take-arena` and passes `arena bots check`, run as a user runs it: the
 * real bin, in a child process whose working folder is the bot's. In-process, a JavaScript bot is
 * imported with the name's resolve hook only when discovery saw one of its modules import the name:
 * a bot whose helper imports it gets the hook, a bot that imports nothing plays without it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_MS } from '../patience.ts';
import { discoverBots } from '../../src/hosting/index.ts';

const BIN = resolve(import.meta.dirname, '../../bin/arena.mjs');

const NEGABOT = `import { defineBot, negamaxSearch, stopTime } from 'take-arena';

export default defineBot({
  name: 'negabot',
  description: 'negamax from the take-arena toolkit, eight plies deep',
  choose: ({ game, state, moves, deadline }) =>
    negamaxSearch(game, state, moves, { maxDepth: 8, stopAt: stopTime(deadline) }).move,
});
`;

async function arena(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, timeout: HANG_MS });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, out: err.stdout ?? '', err: err.stderr ?? '' };
  }
}

describe('a bot outside the repository', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-outside-'));
    writeFileSync(join(dir, 'negabot.ts'), NEGABOT);
    // The same bot in plain JavaScript: no TypeScript loader is registered for it.
    writeFileSync(join(dir, 'negabotjs.mjs'), NEGABOT.replace("name: 'negabot'", "name: 'negabotjs'"));
    // The name imported by a helper only, and a bot that imports nothing.
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'search.mjs'), "export { negamaxSearch, stopTime } from 'take-arena';\n");
    writeFileSync(
      join(dir, 'helperbotjs.mjs'),
      "import { negamaxSearch, stopTime } from './lib/search.mjs';\nexport default { name: 'helperbotjs', description: 'negamax through a helper', choose: ({ game, state, moves, deadline }) => negamaxSearch(game, state, moves, { maxDepth: 8, stopAt: stopTime(deadline) }).move };\n",
    );
    writeFileSync(join(dir, 'plainjs.mjs'), "export default { name: 'plainjs', description: 'the first legal move', choose: ({ moves }) => moves[0] };\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('discovery says which bots import take-arena by name, a helper of theirs included', async () => {
    const { bots } = await discoverBots([dir]);
    const said = Object.fromEntries(bots.map((b) => [b.name, b.transport === 'process' ? null : b.takeArena]));
    expect(said).toMatchObject({ negabot: true, negabotjs: true, helperbotjs: true, plainjs: false });
  });

  for (const bot of ['negabot', 'negabotjs', 'helperbotjs', 'plainjs']) for (const isolation of ['worker', 'none']) {
    it(`${bot} passes bots check (isolation ${isolation})`, async () => {
      const args = ['bots', 'check', bot, '--bots-dir', dir, '--positions', '2', '--family', 'subtraction', '--isolation', isolation];
      const { code, out, err } = await arena(dir, ...args);
      expect(err).not.toContain('Cannot find module');
      expect(out).toContain(`${bot}: passed`);
      expect(code).toBe(0);
    });
  }
});
