// The Node.js version check that runs before anything else is loaded (bin/arena.mjs imports the
// rest only after it passes). Plain JavaScript that any Node.js able to load an ES module parses, so
// an old Node gets one clear line instead of a syntax error or a stack trace from a dependency.
import { readFileSync } from 'node:fs';

/** The minimum Node.js version, from `engines.node` (`>=X.Y.Z`) in package.json. */
export function minimumNode() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(String(pkg.engines?.node ?? ''));
  if (!match) throw new Error(`package.json: expected engines.node as ">=X.Y.Z", got ${JSON.stringify(pkg.engines?.node)}`);
  return match.slice(1).map(Number);
}

/** The line to print when `version` (e.g. `process.versions.node`) is older than `minimum`, else null. */
export function nodeVersionProblem(version, minimum = minimumNode()) {
  const have = String(version).split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > minimum[i]) return null;
    if ((have[i] ?? 0) < minimum[i]) {
      return `arena: Node.js ${version} is too old: take-arena needs Node.js ${minimum.join('.')} or newer (Node 20 and 24 LTS are tested); install a current Node.js and try again`;
    }
  }
  return null;
}

/** Exits with code 2 and one line on stderr when the running Node.js is older than the minimum. */
export function requireSupportedNode() {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem !== null) {
    process.stderr.write(`${problem}\n`);
    process.exit(2);
  }
}
