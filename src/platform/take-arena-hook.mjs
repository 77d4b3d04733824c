// Module resolve hook (registered with `module.register` by take-arena-anywhere.mjs): the bare
// name `take-arena` resolves to this installation's entry from anywhere, so a bot file in any
// folder (no package.json, no node_modules) imports the same contracts and strategies the arena
// itself runs.
let entry = '';

/** `data.entry`: the file URL of the package entry this copy runs (sources or dist/). */
export function initialize(data) {
  entry = data.entry;
}

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
  if (specifier === 'take-arena') return { url: entry, shortCircuit: true };
  return next(specifier, context);
}
