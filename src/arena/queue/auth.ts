/**
 * The tournament's key and the isolation floor of a worker (DESIGN.md "Trust": a worker runs only
 * jobs signed with the tournament's key and at no less isolation than its own floor; the
 * coordinator counts only results signed with it).
 *
 * The key is the coordinator's secret (an environment variable or a file, never a spec, a results
 * folder or Redis). From it come two things a worker may hold instead of the key itself:
 * - its credential: its name and its own secret, HMAC(key, name) (`arena queue credential`). A
 *   worker signs its results and reports with its secret, and the coordinator, which can derive
 *   every worker's secret, checks them under the name they carry: a worker cannot sign as another;
 * - the public half of an Ed25519 key made from the key: each job carries the coordinator's
 *   signature of its data (the pair, the bots with their bundles' and stores' content hashes, the
 *   settings), so a worker verifies the code it is asked to run by the hash chain, and a worker,
 *   which holds no private key, cannot make another worker run its code.
 * Anyone who can write to Redis but lacks a credential can then neither make a worker run their
 * code nor have a game counted. A worker given the key itself derives its own credential from it
 * (a machine of the coordinator's owner).
 */
import { createHmac, createPrivateKey, createPublicKey, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { Isolation } from '../../hosting/index.ts';

/** The environment variable that holds the tournament's key (for `arena tournament --queue` and `arena worker`). */
export const QUEUE_KEY_ENV = 'TAKE_ARENA_QUEUE_KEY';
/** The shortest key accepted (bytes): an HMAC key shorter than this is guessable. */
export const MIN_KEY_BYTES = 16;

/** What a worker's signature covers: a result or a report, never one for the other. */
export type SignedKind = 'result' | 'report';

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

/** What a worker's name may be (`arena worker --name`). */
export const WORKER_NAME = /^[\w.-]{1,64}$/;

/** A worker's own secret: HMAC(key, name). Only the coordinator (which holds the key) can make another's. */
export function workerSecret(key: Buffer, name: string): Buffer {
  return createHmac('sha256', key).update(`take-arena worker\n${name}`).digest();
}

/** What a worker signs and checks with (see the module's comment). */
export interface WorkerCredential {
  readonly name: string;
  /** Signs its results and reports. */
  readonly secret: Buffer;
  /** The public key that checks the coordinator's signature of a job. */
  readonly jobKey: KeyObject;
}

/** DER prefixes of an Ed25519 private key (PKCS#8) and public key (SPKI) around their 32 raw bytes. */
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const ED25519_SPKI = Buffer.from('302a300506032b6570032100', 'hex');

/** The coordinator's job-signing key, made from the tournament's key (the same on every coordinator holding it). */
export function jobSigningKey(key: Buffer): KeyObject {
  const seed = createHmac('sha256', key).update('take-arena job signing key').digest();
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, seed]), format: 'der', type: 'pkcs8' });
}

/** A worker's credential under the tournament's key. */
export function credentialOf(key: Buffer, name: string): WorkerCredential {
  return { name, secret: workerSecret(key, name), jobKey: createPublicKey(jobSigningKey(key)) };
}

const CREDENTIAL = /^take-arena-worker 1 ([\w.-]{1,64}) ([0-9a-f]{64}) ([0-9a-f]{64})$/;

/** A credential as one line of text (`arena queue credential`): the name, the secret, the job-checking key. */
export function credentialText(c: WorkerCredential): string {
  const raw = c.jobKey.export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI.length);
  return `take-arena-worker 1 ${c.name} ${c.secret.toString('hex')} ${raw.toString('hex')}`;
}

/** The credential in `text` (as `credentialText` writes it), or null when the text is not one (a key, then). */
export function parseCredential(text: string): WorkerCredential | null {
  const m = CREDENTIAL.exec(text.trim());
  if (!m) return null;
  const jobKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI, Buffer.from(m[3]!, 'hex')]), format: 'der', type: 'spki' });
  return { name: m[1]!, secret: Buffer.from(m[2]!, 'hex'), jobKey };
}

const jobText = (value: unknown): Buffer => Buffer.from(`take-arena job\n${canonicalJson(value)}`);

/** A job with the coordinator's signature (`sig`) when there is a signing key; as it is without one. */
export function signedJob<T extends object>(signer: KeyObject | null, value: T): T & { readonly sig?: string } {
  return signer ? { ...value, sig: sign(null, jobText(value), signer).toString('hex') } : value;
}

/** Why a job is not to be run under `jobKey` (the coordinator's public key), or null when it is (see `signatureProblem`). */
export function jobSignatureProblem(jobKey: KeyObject | null, value: unknown): string | null {
  if (value === null || typeof value !== 'object') return 'the job is not an object';
  const { sig, ...rest } = value as Record<string, unknown>;
  if (!jobKey) return sig === undefined ? null : `the job is signed with a key this worker was not given (set ${QUEUE_KEY_ENV} or --queue-key-file)`;
  if (typeof sig !== 'string' || !/^[0-9a-f]{128}$/.test(sig)) return "the job is not signed with the tournament's key";
  return verify(null, jobText(rest), jobKey, Buffer.from(sig, 'hex')) ? null : "the job's signature does not verify with the tournament's key (forged, altered, or another key)";
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

/**
 * Why a worker's result or report is not to be trusted under the tournament's `key`, or null:
 * signed with the secret of the worker it names (see `signatureProblem`).
 */
export function workerSignatureProblem(key: Buffer | null, kind: SignedKind, value: unknown): string | null {
  if (!key) return signatureProblem(null, kind, value);
  const name = value !== null && typeof value === 'object' ? (value as { worker?: unknown }).worker : undefined;
  if (typeof name !== 'string' || !WORKER_NAME.test(name)) return `the ${kind} names no worker`;
  return signatureProblem(workerSecret(key, name), kind, value);
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
