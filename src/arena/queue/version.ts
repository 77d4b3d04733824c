/**
 * What a coordinator and its workers compare at every job: the queue's protocol (the shapes of jobs
 * and results) and the build (the code that deals, judges and records games). Two machines of
 * different builds may agree on the protocol and still play a variant, a clock or a record
 * differently, so a job or a result of another version is refused, naming both.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../../platform/paths.ts';

/** The queue's protocol: raised whenever a job's or a result's shape changes. */
export const PROTOCOL_VERSION = 4;

/** A side's version as jobs and results carry it. */
export interface QueueVersion {
  readonly protocol: number;
  /** The package version and a hash of its sources (`0.1.0+1a2b3c4d5e6f`). */
  readonly build: string;
}

let cached: QueueVersion | undefined;

/**
 * This installation's version: the package's version and the SHA-256 of every file under its
 * `src/` (paths and bytes, in path order), so that any change of the code that runs shows, whether
 * it runs compiled or from the sources. Computed once per process.
 */
export function queueVersion(): QueueVersion {
  if (cached) return cached;
  const root = join(PACKAGE_ROOT, 'src');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(readFileSync(file));
  const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  cached = { protocol: PROTOCOL_VERSION, build: `${version}+${hash.digest('hex').slice(0, 12)}` };
  return cached;
}

/** `version` as a line names it. */
export function versionText(version: unknown): string {
  const v = version as Partial<QueueVersion> | null | undefined;
  if (v === null || typeof v !== 'object' || typeof v.build !== 'string' || typeof v.protocol !== 'number') return 'an unknown version';
  return `take-arena ${v.build} (queue protocol ${v.protocol})`;
}

/** Why `theirs` (from a job or a result) is not `ours`, naming both; null when they are the same. */
export function versionMismatch(ours: QueueVersion, theirs: unknown, what: string, here: string): string | null {
  const v = theirs as Partial<QueueVersion> | null | undefined;
  if (v && v.protocol === ours.protocol && v.build === ours.build) return null;
  return `${what} is from ${versionText(theirs)}, ${here} runs ${versionText(ours)}: run the same version on the coordinator and its workers`;
}
