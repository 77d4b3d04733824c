/**
 * Makes the bare name `take-arena` resolve to this installation from any folder, for `import` and
 * `require`, once per thread. `entry`: the package entry's file URL (default: the sources').
 */
export function resolveTakeArenaAnywhere(entry?: string): Promise<void>;
