/**
 * Bot files for discovery and check tests, written to a temporary folder that has
 * `node_modules/take-arena` linked to this package — as in a user's project that installed it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Creates a temporary project folder with `files` (name → source); returns it and a cleanup. */
export function botFolder(files: Record<string, string>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bots-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'take-arena'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A valid bot in TypeScript, importing the package by name. */
export const GOOD_TS = `import { defineBot, intSchema } from 'take-arena';
export default defineBot({
  name: 'userbot',
  description: 'takes the first legal move',
  options: { skip: { schema: intSchema(0, 5), description: 'moves to skip', expected: 'an integer from 0 to 5', default: 0 } },
  choose: ({ moves, options }) => moves[Math.min(options.skip, moves.length - 1)],
});
`;

/** Sources that are not bots, each for one reason discovery must report. */
export const BROKEN: Record<string, string> = {
  'syntax.ts': `import { defineBot } from 'take-arena';\nexport default defineBot({ name: 'syntax', \n`,
  'nodefault.ts': `export const bot = { name: 'nodefault' };\n`,
  'nochoose.mjs': `export default { name: 'nochoose', description: 'forgot choose' };\n`,
  'throws.ts': `throw new Error('boom at import');\n`,
};

/** Bots that break the check's rules, one rule each. */
export const CHEATERS: Record<string, string> = {
  'illegal.mjs': `export default { name: 'illegal', description: 'returns garbage', choose: () => 'not a move' };\n`,
  'mutator.mjs': `export default { name: 'mutator', description: 'writes into the state',
  choose: ({ state, moves }) => { for (const k of Object.keys(state)) state[k] = 0; return moves[0]; } };\n`,
  'fickle.mjs': `let calls = 0;
export default { name: 'fickle', description: 'ignores its rng', choose: ({ moves }) => moves[calls++ % moves.length] };\n`,
  'silent.mjs': `export default { name: 'silent', description: 'never answers', choose: () => new Promise(() => {}) };\n`,
  'spin.mjs': `export default { name: 'spin', description: 'loops forever', choose: () => { for (;;) {} } };\n`,
};
