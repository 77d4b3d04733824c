import { runCli } from '../../src/cli/main.ts';
import { setIo } from '../../src/cli/io.ts';

/** Runs the CLI in-process and captures what it prints. */
export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const restore = setIo({
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    isTTY: false,
  });
  try {
    const code = await runCli(argv);
    return { code, out, err };
  } finally {
    restore();
    process.exitCode = undefined;
  }
}
