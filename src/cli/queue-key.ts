/** The tournament's key of a queue (`--queue-key-file`, else the environment): read here, where argv and the environment are read. */
import { readFileSync } from 'node:fs';
import { MIN_KEY_BYTES, parseCredential, QUEUE_KEY_ENV } from '../arena/queue/auth.ts';
import { UsageError } from '../core/errors.ts';
import { textFileProblem } from '../platform/files.ts';

/**
 * The key from `file` (its text, trimmed) or from `TAKE_ARENA_QUEUE_KEY`; null when neither is
 * given. A key shorter than `MIN_KEY_BYTES` is refused in one line.
 */
export function queueKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  let text: string;
  let from: string;
  if (file !== undefined) {
    const problem = textFileProblem(file, 64 << 10);
    if (problem !== null) throw new UsageError(`Cannot read --queue-key-file ${file}: ${problem}`);
    text = readFileSync(file, 'utf8').trim();
    from = `--queue-key-file ${file}`;
  } else {
    const value = env[QUEUE_KEY_ENV];
    if (value === undefined || value === '') return null;
    text = value.trim();
    from = QUEUE_KEY_ENV;
  }
  const key = Buffer.from(text, 'utf8');
  if (key.length < MIN_KEY_BYTES) throw new UsageError(`Expected the queue key in ${from} to be at least ${MIN_KEY_BYTES} bytes (e.g. \`openssl rand -hex 32\`), got ${key.length}`);
  return key;
}

/** The tournaments' key as a coordinator (or `arena queue credential`) takes it: a worker's credential there is refused in one line. */
export function coordinatorKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  const key = queueKey(file, env);
  if (key && parseCredential(key.toString('utf8'))) throw new UsageError(`${file !== undefined ? `--queue-key-file ${file}` : QUEUE_KEY_ENV} holds a worker's credential, not the tournaments' key: give the key the credentials were made from`);
  return key;
}
