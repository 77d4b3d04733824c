import type { Key } from 'ink';
import { KEYS } from '../text/keys.ts';

/**
 * Where a list's cursor goes on a key: ↑/↓ (and k/j) a line, PgUp/PgDn a page of `page` lines,
 * Home/End (and g/G) the first and last line. Returns null for any other key, so the caller's own
 * keys still reach it; an empty list keeps the cursor at 0.
 */
export function moveCursor(cursor: number, count: number, page: number, input: string, key: Key): number | null {
  const last = Math.max(0, count - 1);
  const clamp = (n: number): number => Math.min(last, Math.max(0, n));
  if (KEYS.up.match(input, key) || (!key.ctrl && !key.meta && input === 'k')) return clamp(cursor - 1);
  if (KEYS.down.match(input, key) || (!key.ctrl && !key.meta && input === 'j')) return clamp(cursor + 1);
  if (KEYS.pageUp.match(input, key)) return clamp(cursor - Math.max(1, page));
  if (KEYS.pageDown.match(input, key)) return clamp(cursor + Math.max(1, page));
  if (KEYS.start.match(input, key)) return 0;
  if (KEYS.end.match(input, key)) return last;
  return null;
}
