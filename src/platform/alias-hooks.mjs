// Module resolution hooks the compiled copy registers (src/platform/typescript.ts) before it loads a
// user's TypeScript bot: the package's own modules resolve to their compiled twins in dist/, so a bot
// that imports 'take-arena' (or, as older bots do, '../src/index.ts') shares the arena's one copy of
// every module instead of loading a second one from the sources. Plain JavaScript: hooks run in
// their own thread, before any TypeScript can be loaded.
let srcUrl = '';
let distSrcUrl = '';

/** `data`: the file URLs of the package's src/ and dist/src/ folders, each ending in a slash. */
export function initialize(data) {
  srcUrl = data.srcUrl;
  distSrcUrl = data.distSrcUrl;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'take-arena') return { url: `${distSrcUrl}index.js`, format: 'module', shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.startsWith(srcUrl) && /\.tsx?$/.test(resolved.url)) {
    return { ...resolved, url: `${distSrcUrl}${resolved.url.slice(srcUrl.length).replace(/\.tsx?$/, '.js')}`, format: 'module' };
  }
  return resolved;
}
