/** Where the CLI writes. Tests swap it to capture output without spawning a process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is an interactive terminal (the dashboard and play need one). */
  readonly isTTY: boolean;
}

const processIo: CliIo = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  get isTTY() {
    return Boolean(process.stdout.isTTY && process.stdin.isTTY);
  },
};

let current: CliIo = processIo;

/** The active output channel. */
export function io(): CliIo {
  return current;
}

/** Replaces the output channel (tests); returns a function that restores the previous one. */
export function setIo(next: CliIo): () => void {
  const prev = current;
  current = next;
  return () => {
    current = prev;
  };
}
