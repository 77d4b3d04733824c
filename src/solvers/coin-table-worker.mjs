// Entry of a coin-table worker thread. Node 20 cannot start a worker from a `.ts` file, so this
// plain module registers tsx (ESM and CJS, see shared TOOLCHAIN.md "Worker threads") and then
// runs the TypeScript worker body.
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

registerEsm();
registerCjs();
const { runTableWorker } = await import('./coin-table-worker.ts');
runTableWorker();
