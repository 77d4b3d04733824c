#!/usr/bin/env node
// Entry point of the `arena` bin. It runs the compiled JavaScript in dist/ (built at install by the
// `prepare` script) while that is up to date with src/, and otherwise the TypeScript sources through
// tsx, registered here (rather than `node --import tsx` in a shebang) so the bin works from any
// folder and through npx/.bin links; see shared TOOLCHAIN.md. The compiled copy loads tsx only when
// a user's bot is TypeScript (src/platform/typescript.ts).
// The version check comes first and everything else is imported after it, so an old Node prints one
// line (exit 2) instead of failing inside a dependency.
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requireSupportedNode } from './node-check.mjs';
import { compiledMain } from './dist-check.mjs';

requireSupportedNode();
// Node 22.1 and later keep V8's compiled code between runs: start-up then skips most parsing.
module.enableCompileCache?.();
// React's development build makes every Ink render about twice as slow.
process.env.NODE_ENV ??= 'production';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = compiledMain(root);
if (compiled) await import(pathToFileURL(compiled).href);
else {
  // The sources' own compiler settings (react-jsx) from any working folder: tsx otherwise looks for
  // a tsconfig from the folder the arena runs in, and outside the project compiled JSX for a global React.
  process.env.TSX_TSCONFIG_PATH ??= join(root, 'tsconfig.json');
  const { register: registerEsm } = await import('tsx/esm/api');
  const { register: registerCjs } = await import('tsx/cjs/api');
  registerEsm();
  registerCjs();
  // A bot file in any folder imports `take-arena` and gets this installation.
  const { resolveTakeArenaAnywhere } = await import('../src/platform/take-arena-anywhere.mjs');
  await resolveTakeArenaAnywhere();
  await import('../src/cli/main.ts');
}
