/**
 * Where a JSON text's syntax error is. `JSON.parse` says what is wrong but, for most errors, not
 * where; esbuild (the bundler the arena ships) parses JSON with positions, so the error path asks
 * it. It is loaded only there: a valid file never starts it.
 */
import { createRequire } from 'node:module';

/** A place in a text: 1-based line and column (in characters, as an editor counts them). */
export interface TextPlace {
  readonly line: number;
  readonly column: number;
}

/** The error esbuild throws: its messages with their locations (columns 0-based, in UTF-8 bytes). */
interface EsbuildFailure {
  readonly errors?: readonly { readonly text: string; readonly location: { readonly line: number; readonly column: number; readonly lineText: string } | null }[];
}

/**
 * Where the first syntax error of a JSON text is, or null when esbuild's JSON parser accepts the
 * text (it is laxer than `JSON.parse` in a few corners, a leading byte-order mark say). A trailing
 * comma is placed at the bracket after it, the character `JSON.parse` names.
 */
export function jsonErrorPlace(text: string): TextPlace | null {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  let failure: EsbuildFailure;
  try {
    esbuild.transformSync(text, { loader: 'json' });
    return null;
  } catch (err) {
    failure = err as EsbuildFailure;
  }
  const first = failure.errors?.[0];
  if (!first?.location) return null;
  const { line, column: bytes, lineText } = first.location;
  let column = Buffer.from(lineText, 'utf8').subarray(0, bytes).toString('utf8').length;
  if (/trailing comma/.test(first.text)) {
    const after = /^,\s*/.exec(lineText.slice(column));
    if (after && column + after[0].length < lineText.length) column += after[0].length;
  }
  return { line, column: column + 1 };
}
