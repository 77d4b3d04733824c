// Entry of a module bot's process (isolation `worker`) when the bot is loaded through tsx (the
// fallback when it cannot be bundled, see worker-bundle.ts). This plain module registers tsx for
// both ESM and CJS (a bot in a folder without `"type": "module"` needs the CJS hook) and then loads
// the TypeScript runner. `take-arena` resolves to this installation from any folder, as in the
// arena's own process. See shared TOOLCHAIN.md "Worker threads".
import { pathToFileURL } from 'node:url';
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

import { resolveTakeArenaAnywhere } from '../platform/take-arena-anywhere.mjs';

registerEsm();
registerCjs();
await resolveTakeArenaAnywhere();
const { runBotWorker } = await import('./bot-worker.ts');
await runBotWorker((file) => import(pathToFileURL(file).href));
