/**
 * The tournament's key and the isolation floor of a worker (DESIGN.md "Trust": a worker runs only
 * jobs signed with the tournament's key and at no less isolation than its own floor; the
 * coordinator counts only results signed with it).
 *
 * The key is a secret the coordinator and its workers share out of band (an environment variable or
 * a file, never a spec, a results folder or Redis). Each job carries an HMAC-SHA256 of its data
 * (the pair, the bots with their bundles' and stores' content hashes, the settings), so a worker
 * verifies the code it is asked to run by the hash chain; each result and each report carries one
 * of its own. Anyone who can write to Redis but lacks the key can then neither make a worker run
 * their code nor have a game counted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Isolation } from '../../hosting/index.ts';

/** The environment variable that holds the tournament's key (for `arena tournament --queue` and `arena worker`). */
export const QUEUE_KEY_ENV = 'TAKE_ARENA_QUEUE_KEY';
/** The shortest key accepted (bytes): an HMAC key shorter than this is guessable. */
export const MIN_KEY_BYTES = 16;

/** What a signature covers: a job, a result or a report, never one for another. */
export type SignedKind = 'job' | 'result' | 'report';

/** JSON with object keys sorted: the same text for the same value, whatever order its keys came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function hmac(key: Buffer, kind: SignedKind, value: unknown): string {
  return createHmac('sha256', key).update(`take-arena ${kind}\n`).update(canonicalJson(value)).digest('hex');
}

/** `value` with its signature (`sig`) when there is a key; as it is without one. */
export function signed<T extends object>(key: Buffer | null, kind: SignedKind, value: T): T & { readonly sig?: string } {
  return key ? { ...value, sig: hmac(key, kind, value) } : value;
}

/**
 * Why a signed value (with its `sig` field) is not to be trusted under `key`, or null when it is:
 * with a key, its signature must verify; without one, it must carry none (a worker without the key
 * cannot tell a signed job from a forged one).
 */
export function signatureProblem(key: Buffer | null, kind: SignedKind, value: unknown): string | null {
  if (value === null || typeof value !== 'object') return `the ${kind} is not an object`;
  const { sig, ...rest } = value as Record<string, unknown>;
  if (!key) return sig === undefined ? null : `the ${kind} is signed with a key this process was not given (set ${QUEUE_KEY_ENV} or --queue-key-file)`;
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return `the ${kind} is not signed with the tournament's key`;
  const want = Buffer.from(hmac(key, kind, rest), 'hex');
  return timingSafeEqual(want, Buffer.from(sig, 'hex')) ? null : `the ${kind}'s signature does not verify with the tournament's key (forged, altered, or another key)`;
}

/** Isolation levels from the least to the most kept apart. */
const ORDER: readonly Isolation[] = ['none', 'worker', 'sandbox'];

/**
 * The default isolation floor of `arena worker`: `worker`, because `none` would run a job's bot in
 * the worker's own process (its environment, its files, its Redis connection), and `sandbox` needs
 * bubblewrap, which not every machine has. A worker that plays for people it does not know runs
 * with `--isolation sandbox` (docs/TOURNAMENTS.md "Running a shared cluster safely").
 */
export const DEFAULT_ISOLATION_FLOOR: Isolation = 'worker';

/** Whether `asked` keeps a bot at least as far apart as `floor`. */
export function meetsFloor(asked: Isolation, floor: Isolation): boolean {
  return ORDER.indexOf(asked) >= ORDER.indexOf(floor);
}
