/**
 * Where a run of the CLI writes, handed to every command: `runCli(argv, io)` creates one run, and
 * yargs passes it to the command in its parsed arguments. Nothing here is module state, so two runs
 * in one process (tests, the home menu's commands) never write into each other's output.
 */

/** An output channel: lines to stdout and stderr, and what the terminal is. */
export interface CliIo {
  /** Writes a line (a newline is added when the text has none). */
  out(text: string): void;
  /**
   * Settles once what `out` wrote has been taken (a pipe to a slower reader holds it meanwhile): a
   * long answer waits for it between pieces, so it is never held whole. Absent: taken at once.
   */
  drained?(): Promise<void>;
  /** Writes a line to the error stream. */
  err(text: string): void;
  /** Writes text as it is to the error stream: a status line redrawn with `\r` (a progress bar). */
  status(text: string): void;
  /** Whether stdin and stdout are an interactive terminal (the dashboard and play need one). */
  readonly isTTY: boolean;
  /** The terminal's width in columns, when output goes to a terminal. */
  readonly columns: number | undefined;
}

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Settles once `stream` has no more waiting to be taken, or is gone (the CLI exits on EPIPE, see main.ts). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

/** The process's own streams: what `bin/arena.mjs` runs with. */
export const processIo: CliIo = {
  out: (text) => void process.stdout.write(line(text)),
  drained: () => drained(process.stdout),
  err: (text) => void process.stderr.write(line(text)),
  status: (text) => void process.stderr.write(text),
  get isTTY() {
    return Boolean(process.stdout.isTTY && process.stdin.isTTY);
  },
  get columns() {
    return process.stdout.columns;
  },
};

/** One run of the CLI: its output channel and the exit code a command leaves (0 unless set). */
export interface CliRun {
  readonly io: CliIo;
  exitCode: number;
}

/**
 * The key under which a command's parsed arguments carry its run. A symbol, so that no flag can
 * set it: yargs merges the parse context into the arguments and exempts its keys from strict checks.
 */
export const RUN: unique symbol = Symbol('arena run');

/** A command's parsed arguments with the run they belong to. */
export type WithRun<A> = A & { readonly [RUN]: CliRun };

/** Exit code after SIGINT (128 + 2), as shells expect: a tournament stopped with Ctrl-C, a screen quit with it. */
export const EXIT_INTERRUPTED = 130;
