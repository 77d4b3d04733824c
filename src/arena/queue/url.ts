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

/** A Redis URL with its password replaced (removed for what is saved, masked for what is shown). */
function replacePassword(url: string, by: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url; // not a URL: parseQueueUrl refuses it before anything is saved or shown
  }
  if (u.password === '') return url;
  u.password = by;
  return u.toString();
}

/**
 * The URL a results folder keeps (spec.json, summary.json, the report): without its password, which
 * is given again with `--queue` on `--resume`.
 */
export function withoutPassword(url: string): string {
  return replacePassword(url, '');
}

/** The URL as lines and the dashboard show it: its password as `***`. */
export function shownUrl(url: string): string {
  return replacePassword(url, '***');
}
