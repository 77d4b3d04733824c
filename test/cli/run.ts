import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/io.ts';

/** Runs the CLI in-process on an output channel of its own and returns what it printed. */
export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const line = (t: string): string => (t.endsWith('\n') ? t : `${t}\n`);
  const io: CliIo = {
    out: (t) => void (out += line(t)),
    err: (t) => void (err += line(t)),
    status: () => {}, // progress bars are redrawn in place: a capture keeps only lines
    isTTY: false,
    columns: undefined,
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}
