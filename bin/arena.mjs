#!/usr/bin/env node
// Entry point of the `arena` bin. Registering tsx here (rather than `node --import tsx` in a shebang)
// makes the bin work from any folder and through npx/.bin links; see shared TOOLCHAIN.md.
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

// React's development build makes every Ink render about twice as slow.
process.env.NODE_ENV ??= 'production';
registerEsm();
registerCjs();
await import('../src/cli/main.ts');
