// Makes the bare name `take-arena` mean this installation from any folder, so a bot file anywhere
// (no package.json, no node_modules) gets the very contracts and strategies the arena runs: an ESM
// resolve hook for `import`, and for `require` (tsx loads a bot in a folder without
// `"type": "module"` as CommonJS) the same module instance, not a second CommonJS copy whose
// error classes would fail `instanceof`. Plain JavaScript: the bins and the tsx worker entry call
// it before anything is compiled. Worker bundles get the same mapping from an esbuild alias.
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

let ready;

/**
 * Registers the resolution once per thread and loads the entry; resolves when done. `entry`: the
 * package entry's file URL, the sources' `src/index.ts` unless the compiled copy names its own.
 */
export function resolveTakeArenaAnywhere(entry = new URL('../index.ts', import.meta.url).href) {
  ready ??= (async () => {
    register(new URL('./take-arena-hook.mjs', import.meta.url), { data: { entry } });
    const namespace = await import(entry);
    const load = Module._load;
    Module._load = function (request, ...rest) {
      return request === 'take-arena' ? namespace : load.call(this, request, ...rest);
    };
    // Node 22 and later load a CommonJS module reached through \`import\` (tsx's path for a bot in a
    // folder without "type": "module") with a \`require\` that resolves the name first and never
    // asks \`Module._load\` about it: the name resolves to the entry's file, whose module is the one
    // already imported above (require of an ES module returns its one instance).
    const resolveFilename = Module._resolveFilename;
    const entryFile = fileURLToPath(entry);
    Module._resolveFilename = function (request, ...rest) {
      return request === 'take-arena' ? entryFile : resolveFilename.call(this, request, ...rest);
    };
  })();
  return ready;
}
