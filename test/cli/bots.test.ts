import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { BROKEN, CHEATERS, GOOD_TS, botFolder } from '../arena/bot-fixtures.ts';
import { botTemplate } from '../../src/cli/commands/new-bot.ts';
import { run } from './run.ts';

const BUILTIN = ['greedy', 'hybrid', 'mcts', 'minimax', 'optimal', 'random'];
/** A bot that sleeps 400 ms a move (no CPU spent) and one that computes for 400 ms of CPU time. */
const CLOCKED = {
  // 200 ms: past the 100 ms limit and its 50 ms margin on the wall clock, and a fifteenth of the CPU
  // clock's 3-s wall-clock cap (a 400-ms sleep took 3.8 s at load 19 and met the cap).
  'sleeper.mjs': `const cell = new Int32Array(new SharedArrayBuffer(4));
export default { name: 'sleeper', description: 'sleeps 200 ms', choose: ({ moves }) => { Atomics.wait(cell, 0, 0, 200); return moves[0]; } };\n`,
  'thinker.mjs': `export default { name: 'thinker', description: 'computes for 400 ms of CPU time', choose: ({ moves }) => {
  const t0 = process.cpuUsage();
  for (let x = 0; ; x++) if (x % 4096 === 0) { const u = process.cpuUsage(t0); if (u.user + u.system > 400_000) return moves[0]; }
} };\n`,
};
const user = botFolder({ 'userbot.ts': GOOD_TS, ...CHEATERS, ...CLOCKED });
const broken = botFolder(BROKEN);
afterAll(() => {
  user.cleanup();
  broken.cleanup();
});

describe('arena bots', () => {
  it('lists name, description, file, options and families of every built-in bot', async () => {
    const { code, out } = await run('bots');
    expect(code).toBe(0);
    for (const name of BUILTIN) expect(out).toMatch(new RegExp(`^${name} — .+\\n  file:  .*bots/${name}\\.ts`, 'm'));
    expect(out).toContain(':depth=  deepest search, in plies');
    expect(out).toContain(`plays: ${FAMILIES.map((f) => f.id).join(', ')}`);
  });

  it('prints JSON with --json, including bots from --bots-dir', async () => {
    const { code, out } = await run('bots', '--json', '--bots-dir', user.dir);
    expect(code).toBe(0);
    const doc = JSON.parse(out) as { bots: { name: string; file: string; options: { name: string; default?: string }[]; families: string[] }[] };
    const userbot = doc.bots.find((b) => b.name === 'userbot');
    expect(userbot?.file).toBe(join(user.dir, 'userbot.ts'));
    expect(userbot?.options).toEqual([{ name: 'skip', description: 'moves to skip', expected: 'an integer from 0 to 5', default: '0' }]);
    expect(doc.bots.find((b) => b.name === 'optimal')?.families).toEqual(FAMILIES.map((f) => f.id));
  });

  it('reports each broken file on one line and exits 2, still listing the others', async () => {
    const { code, out, err } = await run('bots', '--bots-dir', broken.dir);
    expect(code).toBe(2);
    expect(out).toContain('optimal — ');
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(Object.keys(BROKEN).length);
    for (const file of Object.keys(BROKEN)) expect(err).toContain(`arena: skipped ${join(broken.dir, file)}: `);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('arena bots check', () => {
  it('passes a built-in bot, with a table row per variant', async () => {
    const { code, out } = await run('bots', 'check', 'greedy', '--positions', '2', '--isolation', 'none');
    expect(code).toBe(0);
    for (const f of FAMILIES) expect(out).toMatch(new RegExp(`^${f.id} +\\S+ +pass +2/2`, 'm'));
    expect(out).toMatch(/greedy: passed on \d+ variants/);
  });

  it('warms a bot up with its prepare hook first, and fails a bot whose prepare throws', async () => {
    const file = join(import.meta.dirname, '../fixtures/bots/fx-prepare-throws.ts');
    const { code, out } = await run('bots', 'check', file, '--positions', '1', '--family', 'subtraction', '--isolation', 'none');
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL .*prepare failed: Error: fx-prepare-throws has no table/);
  });

  it('checks a user bot by file, in a worker thread', async () => {
    const { code, out } = await run('bots', 'check', join(user.dir, 'userbot.ts'), '--positions', '2', '--family', 'subtraction');
    expect(code).toBe(0);
    expect(out).toMatch(/^subtraction +subtraction\{moves=1,5,8,10;n=50\.\.200\} +pass/m);
  });

  it.each([
    ['illegal', /returned "not a move", not one of the legal moves/],
    ['mutator', /mutated the state it was given/],
    ['fickle', /answered \S+ then \S+ with the same seed/],
    ['silent', /too slow: no move within 100 ms/],
  ])('fails %s and exits 1', async (name, detail) => {
    const args = ['bots', 'check', name, '--bots-dir', user.dir, '--positions', '2', '--family', 'subtraction', '--time', '100'];
    const { code, out } = await run(...args, '--isolation', 'none');
    expect(code).toBe(1);
    expect(out).toMatch(/^subtraction .* FAIL /m);
    expect(out).toMatch(detail);
    expect(out).toMatch(new RegExp(`${name}: FAILED on 2 of 2 variants`));
  });

  it.each(['worker', 'none'])('isolation %s: charges a move the CPU time it used (a sleeping bot passes), and under --clock wall the time that passed', async (isolation) => {
    const check = (bot: string, ...more: string[]) =>
      run('bots', 'check', bot, '--bots-dir', user.dir, '--positions', '1', '--family', 'subtraction', '--time', '100', '--isolation', isolation, ...more);
    const [sleeps, sleepsWall, thinks, thinksWall] = await Promise.all([check('sleeper'), check('sleeper', '--clock', 'wall'), check('thinker'), check('thinker', '--clock', 'wall')]);
    expect(sleeps.out).toContain('1 positions per variant, 100 ms of CPU time per move');
    expect(sleeps.code, sleeps.out).toBe(0);
    // A bot that truly thinks too long loses its moves under both clocks; sleeping is slow only on the wall clock.
    for (const r of [sleepsWall, thinks, thinksWall]) {
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/^subtraction .* FAIL .*too slow: /m);
    }
    expect(thinks.out).toMatch(/ms of CPU time, limit 100 ms|no move within 100 ms/);
  });

  it('counts one variant in the singular', async () => {
    const { code, out } = await run('bots', 'check', 'greedy', '--positions', '1', '--family', 'octal', '--isolation', 'none');
    expect(code).toBe(0);
    expect(out).toMatch(/^greedy: passed on 1 variant$/m);
  });

  it('stops a bot stuck in a synchronous loop (worker isolation) instead of hanging', async () => {
    const { code, out } = await run('bots', 'check', join(user.dir, 'spin.mjs'), '--positions', '1', '--family', 'end-game', '--time', '100');
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL .*no move within 100 ms/);
  });

  it('rejects bad input with one line and exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['bots', 'check', 'minmax'], /^arena: Unknown bot `minmax` \(did you mean `minimax`\?\)/],
      [['bots', 'check', 'minimax:depth=-1'], /^arena: Expected `depth` to be an integer from 1 to 10000, got "-1" \(option of bot minimax\)$/],
      [['bots', 'check', join(broken.dir, 'throws.ts')], /^arena: Bot file .*throws\.ts failed to load: boom at import$/],
      [['bots', 'check', join(broken.dir, 'nodefault.ts')], /has no default export/],
      [['bots', 'check', 'random', '--family', 'coin'], /Unknown game family `coin` \(did you mean `coins`\?\)/],
      [['bots', 'check', 'random', '--time', 'soon'], /Expected `--time` to be an integer/],
    ];
    for (const [argv, message] of cases) {
      const { code, err } = await run(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(err.trim()).toMatch(message);
    }
  });
});

describe('arena new-bot', () => {
  const folder = botFolder({});
  afterAll(() => folder.cleanup());
  const file = join(folder.dir, 'mybot.ts');

  it('writes a bot from the template that passes the check, and refuses to overwrite it', async () => {
    const first = await run('new-bot', 'mybot', '--dir', folder.dir);
    expect(first.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain("import { defineBot, enumSchema } from 'take-arena';");
    expect(text).toContain("name: 'mybot'");

    writeFileSync(file, `${text}// edited\n`);
    const again = await run('new-bot', 'mybot', '--dir', folder.dir);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/mybot\.ts already exists/);
    expect(readFileSync(file, 'utf8')).toContain('// edited');

    const check = await run('bots', 'check', 'mybot', '--bots-dir', folder.dir, '--positions', '3', '--isolation', 'none');
    expect(check.out).not.toContain('FAIL');
    expect(check.code).toBe(0);
  });

  it('refuses a bad name or the name of an existing bot', async () => {
    expect((await run('new-bot', '9lives', '--dir', folder.dir)).err).toMatch(/Expected the bot name to be 1 to 64 letters/);
    const dup = await run('new-bot', 'greedy', '--dir', folder.dir);
    expect(dup.code).toBe(2);
    expect(dup.err).toMatch(/A bot named `greedy` already exists in .*bots\/greedy\.ts/);
  });

  it('writes the template that `tsc` checks with the project (src/cli/templates/bot.ts), renamed', () => {
    const text = botTemplate('typed');
    expect(text).not.toContain('my-bot');
    expect(text).toContain("name: 'typed'");
    expect(text).toContain('arena bots check typed');
  });
});
