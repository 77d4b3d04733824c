#!/usr/bin/env node
// `npm run build` (and the `prepare` script, so `npm install` and `npm ci` run it): compiles src/ and
// the built-in bots to JavaScript in dist/ with the TypeScript compiler, copies the files the code
// reads by path (report assets, the new-bot template, the tsx worker shims), and stamps the build.
// bin/arena.mjs runs dist/ while it is newer than every file in src/ and falls back to the sources
// through tsx otherwise, so a stale or missing build is slower, never wrong.
// Plain JavaScript on purpose: it runs before anything is compiled, without tsx.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_INFO, sourceFiles } from '../bin/dist-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const tmp = join(root, `dist.tmp-${process.pid}`);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

if (!existsSync(tsc)) {
  // An install without dev dependencies: the arena runs from the sources through tsx.
  console.log('take-arena build skipped: typescript is not installed (the arena runs its sources through tsx)');
  process.exit(0);
}
const started = Date.now();
rmSync(tmp, { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', tmp], { cwd: root, encoding: 'utf8' });
// Type errors are `npm test`'s business; only a compiler that emitted nothing fails the build.
if (!existsSync(join(tmp, 'src', 'cli', 'main.js'))) {
  process.stderr.write(run.stdout + run.stderr);
  console.error('take-arena build failed: the compiler wrote no dist/src/cli/main.js (the arena will run its sources through tsx)');
  rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
}

/** Copies src files that are read by path, not imported: everything but TypeScript. */
function copyAssets(dir) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) copyAssets(rel);
    else if (!/\.tsx?$/.test(e.name)) {
      mkdirSync(join(tmp, dir), { recursive: true });
      // The tsx worker shims import their TypeScript neighbour: in dist/ that neighbour is `.js`.
      const text = e.name.endsWith('.mjs') ? readFileSync(join(root, rel), 'utf8').replace(/(import\(['"]\.\/[\w-]+)\.ts(['"]\))/g, '$1.js$2') : null;
      if (text !== null) writeFileSync(join(tmp, rel), text);
      else cpSync(join(root, rel), join(tmp, rel));
    }
  }
}
copyAssets('src');
// The new-bot template is read as text and written out as a user's `.ts` file.
cpSync(join(root, 'src', 'cli', 'templates'), join(tmp, 'src', 'cli', 'templates'), { recursive: true });

// The built-in bots import 'take-arena' (the package's TypeScript entry): their compiled twins
// import the compiled entry, so the arena and its bots share one copy of every module.
for (const f of readdirSync(join(tmp, 'bots'))) {
  if (!f.endsWith('.js')) continue;
  const file = join(tmp, 'bots', f);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/(from\s+)(['"])take-arena\2/g, `$1$2${relative(join(tmp, 'bots'), join(tmp, 'src', 'index.js'))}$2`));
}
// Third-party packages made of many small modules cost several times as long to load one by one as
// in one file: the CLI's entry (yargs, which `arena --help` needs) and the tournament dashboard's
// sink with the Ink components under it (Ink and React, which its first frame waits for) are each
// bundled with their packages into one module next to the original. Every other module of ours
// stays outside the bundles (imported from dist/ as usual), so there is one copy of each.
{
  const { build } = await import('esbuild');
  const own = join(tmp, 'src') + sep;
  // zod is about 90 modules (50 of them message locales, reached only through `z.locales`, which
  // the arena never uses: its messages are its own and English): loaded one by one they cost about
  // 50 ms of every tournament's start, as one module without the other locales about 15 ms. Every
  // compiled module of ours imports this one copy (dist/src/vendor/zod.js) instead of the package,
  // and the bundles below keep it outside like our other modules, so the arena, built-in bots and
  // users' bots that use take-arena's schema helpers share it. The sources keep the package.
  {
    const vendored = join(tmp, 'src', 'vendor', 'zod.js');
    const locales = join(root, 'node_modules', 'zod', 'v4', 'locales');
    await build({
      stdin: { contents: "export * from 'zod';\nexport { default } from 'zod';\n", resolveDir: root, sourcefile: 'zod-vendored.js' },
      outfile: vendored,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
      plugins: [
        {
          name: 'zod-english-only',
          setup(b) {
            b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";\n', resolveDir: locales, loader: 'js' }));
          },
        },
      ],
    });
    for (const dir of ['src', 'bots']) {
      for (const e of readdirSync(join(tmp, dir), { recursive: true, withFileTypes: true })) {
        const file = join(e.parentPath ?? e.path, e.name);
        if (!e.isFile() || !e.name.endsWith('.js') || file === vendored) continue;
        const text = readFileSync(file, 'utf8');
        if (!/from\s*(['"])zod\1/.test(text)) continue;
        const rel = relative(dirname(file), vendored).split(sep).join('/');
        writeFileSync(file, text.replace(/(from\s*)(['"])zod\2/g, `$1$2${rel.startsWith('.') ? rel : `./${rel}`}$2`));
      }
    }
  }
  const stub = join(tmp, 'react-devtools-core-stub.mjs');
  // Ink imports React's devtools only when DEV=true, from a package that is not a dependency.
  writeFileSync(stub, 'export default { initialize() {}, connectToDevTools() {} };\n');
  // With the devtools stubbed, the WebSocket client Ink's DEV mode would hand them (`ws`, 126 KB that
  // the first frame would compile) has nothing to connect: a global WebSocket stays as Node has it.
  const noWs = join(tmp, 'ws-stub.mjs');
  writeFileSync(noWs, 'export default undefined;\n');
  // Yoga (Ink's layout engine) ships its WebAssembly as a base64 data: URL, which its Emscripten
  // loader reads with `fetch` whenever `fetch` exists: on Node that loads undici and decodes the URL
  // through it, about 25 ms before the dashboard's first frame. Handing the loader the bytes
  // (`wasmBinary`, decoded by Buffer in well under a millisecond) skips both. The same bytes, so
  // the same layout; a loader that does not look as expected is bundled unchanged (slower, not wrong).
  const yogaBytes = {
    name: 'yoga-wasm-without-fetch',
    setup(b) {
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const url = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(text);
        const exported = 'export default loadYoga;';
        if (!url || !text.includes('h.wasmBinary&&(w=h.wasmBinary)') || text.split(exported).length !== 2) {
          console.warn('take-arena build: yoga-layout\'s wasm loader has changed; the dashboard loads it through fetch (slower start)');
          return undefined;
        }
        const contents =
          `const YOGA_WASM_BASE64 = ${JSON.stringify(url[1])};\n` +
          text.replace(url[0], '"data:application/octet-stream;base64," + YOGA_WASM_BASE64').replace(
            exported,
            "export default (options) => loadYoga({ wasmBinary: Buffer.from(YOGA_WASM_BASE64, 'base64'), ...options });",
          );
        return { contents, loader: 'js' };
      });
    },
  };
  // Text measuring (string-width, which yargs' help layout and Ink use, and the ANSI tokenizers
  // under Ink) makes costly objects when its module loads: an `Intl.Segmenter` (the first of a
  // process loads ICU's break rules, about 25 ms at rest) and, in string-width 8, a regular
  // expression of every emoji sequence (`\p{RGI_Emoji}`, which V8 expands as it is made, as long
  // again), all before `arena --help` or any command can start, though most of what they measure is
  // plain ASCII. Each is made at its first use instead; string-width 7 also gets the
  // printable-ASCII shortcut string-width 8 has (such text is as wide as it is long: no escape to
  // strip, no cluster, emoji or wide character). The same widths, so the same layout; a module that
  // does not look as expected is bundled unchanged (slower, not wrong).
  const madeAtFirstUse = {
    name: 'text-measuring-made-at-first-use',
    setup(b) {
      b.onLoad({ filter: /[\\/](string-width[\\/]index|slice-ansi[\\/]tokenize-ansi|ansi-tokenize[\\/]build[\\/]tokenize)\.js$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        const file = relative(root, args.path);
        // A module constant and the one method the module calls on it.
        const costly = [
          { made: /^const (\w+) = (new Intl\.Segmenter\([^)]*\));$/m, method: 'segment', needed: true },
          { made: /^const (\w+) = (\/[^\n]*\\p\{RGI_Emoji\}[^\n]*\/\w*);$/m, method: 'test', needed: false },
        ];
        for (const { made, method, needed } of costly) {
          const m = made.exec(text);
          if (!m) {
            if (!needed) continue;
            console.warn(`take-arena build: ${file} no longer makes an Intl.Segmenter as expected; bundled unchanged (slower start)`);
            return undefined;
          }
          const [line, name, value] = m;
          // Used other than as `name.method(…)` (another method, passed on, reassigned): left alone.
          const other = new RegExp(`\\b${name}\\.(?!${method}\\()|[(,=]\\s*${name}\\b(?!\\.${method}\\()|\\b${name}\\s*=[^=]`);
          if (other.test(text.replace(line, ''))) {
            console.warn(`take-arena build: ${file} uses ${name} other than to ${method}; bundled unchanged (slower start)`);
            return undefined;
          }
          text = text.replace(line, () => `let ${name}Made;\nconst ${name} = { ${method}: (text) => (${name}Made ??= ${value}).${method}(text) };`);
        }
        const entry = 'export default function stringWidth(';
        if (/[\\/]string-width[\\/]/.test(args.path) && !text.includes('Fast path: printable ASCII')) {
          if (text.split(entry).length !== 2) {
            console.warn(`take-arena build: ${file} does not look like string-width 7; bundled without its ASCII shortcut`);
          } else {
            text = text.replace(entry, 'function stringWidthOfAny(') + '\nexport default function stringWidth(string, options) {\n  return typeof string === "string" && /^[\\u0020-\\u007E]*$/.test(string) ? string.length : stringWidthOfAny(string, options);\n}\n';
          }
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
  /** Bundles `entry` (a file of dist/src) with the packages it uses and our modules under `inside`. */
  const bundle = (entry, inside) =>
    build({
      entryPoints: [entry],
      outfile: entry.replace(/\.js$/, '.bundle.js'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
      // The bin runs React's production build (NODE_ENV defaults to production there).
      define: { 'process.env.NODE_ENV': '"production"' },
      alias: { 'react-devtools-core': stub, ws: noWs },
      banner: { js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);" },
      plugins: [
        yogaBytes,
        madeAtFirstUse,
        {
          name: 'our-other-modules-stay-shared',
          setup(b) {
            b.onResolve({ filter: /^\.\.?\// }, (args) => {
              const file = resolve(args.resolveDir, args.path);
              if (!file.startsWith(own) || file === entry || (inside !== null && file.startsWith(inside + sep))) return undefined;
              const rel = relative(dirname(entry), file);
              return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
            });
          },
        },
      ],
    });
  await bundle(join(tmp, 'src', 'cli', 'main.js'), null);
  await bundle(join(tmp, 'src', 'tui', 'dashboard', 'dashboard-sink.js'), join(tmp, 'src', 'tui'));
  rmSync(stub);
  rmSync(noWs);
}
writeFileSync(join(tmp, BUILD_INFO), `${JSON.stringify({ started, sources: sourceFiles(root).length }, null, 2)}\n`);
// Swapped in by two renames, so a running arena sees the old build or the new one, never a half-written one.
const old = join(root, `dist.old-${process.pid}`);
if (existsSync(dist)) renameSync(dist, old);
renameSync(tmp, dist);
rmSync(old, { recursive: true, force: true });
console.log(`take-arena built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
