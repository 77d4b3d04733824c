#!/usr/bin/env node
// Entry point of the `arena` bin. Registering tsx here (rather than `node --import tsx` in a shebang)
// makes the bin work from any folder and through npx/.bin links; see shared TOOLCHAIN.md.
// The version check comes first and everything else is imported after it, so an old Node prints one
// line (exit 2) instead of failing inside a dependency.
import { requireSupportedNode } from './node-check.mjs';

requireSupportedNode();
const { register: registerEsm } = await import('tsx/esm/api');
const { register: registerCjs } = await import('tsx/cjs/api');

// React's development build makes every Ink render about twice as slow.
process.env.NODE_ENV ??= 'production';
registerEsm();
registerCjs();
await import('../src/cli/main.ts');
