import { UsageError, show } from '../../core/errors.ts';

/** Checks a `--queue` URL: `redis://[user:password@]host[:port][/db]` (or `rediss://`). */
export function parseQueueUrl(text: string, flag = '--queue'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`Expected ${flag} to be a Redis URL like redis://127.0.0.1:6379, got ${show(text)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UsageError(`Expected ${flag} to be a Redis URL like redis://127.0.0.1:6379, got ${show(text)} (scheme ${url.protocol.replace(/:$/, '')})`);
  }
  if (url.hostname === '') throw new UsageError(`Expected ${flag} to name a host, as in redis://127.0.0.1:6379, got ${show(text)}`);
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new UsageError(`Expected the database in ${flag} to be a number, as in redis://127.0.0.1:6379/2, got ${show(db)}`);
  return text;
}
