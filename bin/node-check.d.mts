/** The minimum Node.js version, from `engines.node` (`>=X.Y.Z`) in package.json. */
export function minimumNode(): [number, number, number];
/** The line to print when `version` is older than `minimum`, else null. */
export function nodeVersionProblem(version: string, minimum?: readonly number[]): string | null;
/** Exits with code 2 and one line on stderr when the running Node.js is older than the minimum. */
export function requireSupportedNode(): void;
