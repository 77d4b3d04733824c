import { afterAll, describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import { BotLoadError, ParamError, UsageError } from '../../src/core/errors.ts';
import { BUILTIN_BOTS_DIR, botLabel, botOptions, discoverBots, parseBotSpec, resolveBot } from '../../src/hosting/index.ts';
import { BROKEN, GOOD_TS, botFolder } from '../arena/bot-fixtures.ts';

const BUILTIN = ['greedy', 'hybrid', 'mcts', 'minimax', 'optimal', 'random'];

describe('discoverBots', () => {
  const user = botFolder({
    'userbot.ts': GOOD_TS,
    'plain.js': `export default { name: 'plain', description: 'a JavaScript bot', choose: ({ moves }) => moves[0] };\n`,
    'notes.md': '# not a bot',
    'types.d.ts': 'export {};\n',
    ...BROKEN,
  });
  const twin = botFolder({ 'again.ts': GOOD_TS });
  afterAll(() => {
    user.cleanup();
    twin.cleanup();
  });

  it('finds the six built-in bots in bots/', async () => {
    const registry = await discoverBots();
    for (const name of BUILTIN) {
      const entry = registry.bots.find((b) => b.name === name);
      expect(entry?.file).toBe(`${BUILTIN_BOTS_DIR}/${name}.ts`);
      expect(entry?.description.length).toBeGreaterThan(10);
    }
  });

  it('finds a valid user bot in another folder and reports each broken file with its reason', async () => {
    const registry = await discoverBots([user.dir]);
    const names = registry.bots.map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining([...BUILTIN, 'userbot', 'plain']));
    const reasons = Object.fromEntries(registry.problems.map((p) => [basename(p.file), p.reason]));
    expect(Object.keys(reasons).sort()).toEqual(Object.keys(BROKEN).sort());
    expect(reasons['syntax.ts']).toMatch(/^failed to load: /);
    expect(reasons['throws.ts']).toBe('failed to load: boom at import');
    expect(reasons['nodefault.ts']).toMatch(/has no default export/);
    expect(reasons['nochoose.mjs']).toMatch(/not a valid bot: bot nochoose: expected `choose` to be a function/);
    for (const reason of Object.values(reasons)) expect(reason).not.toContain('\n');
  });

  it('throws on two bots with one name, naming both files', async () => {
    const err = await discoverBots([user.dir, twin.dir]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotLoadError);
    expect((err as Error).message).toContain(`${user.dir}/userbot.ts`);
    expect((err as Error).message).toContain(`${twin.dir}/again.ts`);
  });

  it('reads a folder named twice once, and rejects a folder that does not exist', async () => {
    await expect(discoverBots([user.dir, user.dir])).resolves.toBeDefined();
    await expect(discoverBots([`${user.dir}/nope`])).rejects.toThrow(UsageError);
  });

  it('resolves a user bot with options', async () => {
    const registry = await discoverBots([user.dir]);
    const choice = resolveBot(registry, 'userbot:skip=2');
    expect(choice.options).toEqual({ skip: 2 });
    expect(choice.label).toBe('userbot:skip=2');
  });

  it('explains a bot whose file failed to load instead of calling it unknown', async () => {
    const registry = await discoverBots([user.dir]);
    expect(() => resolveBot(registry, 'throws')).toThrow(/Bot `throws` could not be loaded: .*throws\.ts failed to load: boom at import/);
  });
});

describe('resolveBot and options', async () => {
  const registry = await discoverBots();

  it('parses name:key=value,key=value and fills defaults', () => {
    const choice = resolveBot(registry, 'hybrid:threshold=20,early=random');
    expect(choice.options).toEqual({ threshold: 20, early: 'random' });
    expect(choice.label).toBe('hybrid:threshold=20,early=random');
    expect(resolveBot(registry, 'minimax').options).toEqual({ depth: 64, nodes: 20_000 });
  });

  it('labels a bot canonically: options equal to their defaults are left out', () => {
    expect(resolveBot(registry, 'minimax:depth=64').label).toBe('minimax');
    expect(resolveBot(registry, 'minimax:depth=8').label).toBe('minimax:depth=8');
    const hybrid = registry.bots.find((b) => b.name === 'hybrid')!.bot;
    expect(botLabel(hybrid, botOptions(hybrid, { early: 'random', threshold: '14' }))).toBe('hybrid:early=random');
  });

  it('suggests the closest names for an unknown bot', () => {
    expect(() => resolveBot(registry, 'minmax')).toThrow(UsageError);
    expect(() => resolveBot(registry, 'minmax')).toThrow(/Unknown bot `minmax` \(did you mean `minimax`\?\); expected one of: greedy/);
  });

  it('rejects bad options with one line naming the field', () => {
    expect(() => resolveBot(registry, 'minimax:depth=-1')).toThrow(ParamError);
    expect(() => resolveBot(registry, 'minimax:depth=-1')).toThrow('Expected `depth` to be an integer from 1 to 10000, got "-1" (option of bot minimax)');
    expect(() => resolveBot(registry, 'minimax:dept=3')).toThrow(/Unknown parameter `dept` for bot minimax \(did you mean `depth`\?\)/);
    expect(() => resolveBot(registry, 'random:x=1')).toThrow(/Unknown parameter `x` for bot random; it takes none/);
    expect(() => resolveBot(registry, 'minimax:depth')).toThrow(/Expected `key=value`/);
  });

  it('rejects text that is not a bot spec', () => {
    expect(() => parseBotSpec('')).toThrow(UsageError);
    expect(() => parseBotSpec('9lives')).toThrow(/Expected a bot like `minimax`/);
    expect(parseBotSpec('mcts:iterations=50,c=2')).toEqual({ name: 'mcts', raw: { iterations: '50', c: '2' } });
  });

  it('validates JSON option values from specs as well as strings', () => {
    const mcts = registry.bots.find((b) => b.name === 'mcts')!.bot;
    expect(botOptions(mcts, { iterations: 50 })).toEqual({ iterations: 50, c: 1.41 });
    expect(() => botOptions(mcts, { iterations: 0 })).toThrow(/Expected `iterations`/);
  });
});
