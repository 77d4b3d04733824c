/**
 * `npm run schema`: writes `tournaments/schema.json` from the zod spec schema in
 * `src/arena/spec.ts` (a test checks the committed file is up to date).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { specJsonSchema } from '../src/arena/spec.ts';

/** Where the schema lives, and its text. */
export const SCHEMA_FILE = fileURLToPath(new URL('../tournaments/schema.json', import.meta.url));

/** The file's exact content. */
export function schemaText(): string {
  return `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, schemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
