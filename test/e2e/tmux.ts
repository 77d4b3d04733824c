import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANG_MS } from '../patience.ts';

/**
 * Whether these tests can run here. Under CI tmux is installed (.ci/run), so there its absence fails
 * the terminal tests instead of skipping them.
 */
export const HAVE_TMUX = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 || process.env['CI'] !== undefined;

/** A detached tmux session running one command in a real terminal of a fixed size. */
export class TmuxSession {
  readonly name: string;
  private readonly dir = mkdtempSync(join(tmpdir(), 'arena-e2e-'));

  constructor(command: string, cwd: string, width = 100, height = 30) {
    this.name = `arena-e2e-${process.pid}-${Math.floor(performance.now())}`;
    // The shell in the pane waits for the command and writes its exit status to a file. (tmux's own
    // #{pane_dead_status} is not reliable: a tmux server started from a test runner was seen never to
    // reap the command, leaving the pane dead with no status.)
    const status = join(this.dir, 'status');
    // The command starts once the pane is kept and piped (the file `go`, below): one that ends at
    // once on a busy machine could otherwise be gone before tmux was told to keep its pane.
    const go = join(this.dir, 'go');
    command = `until [ -e ${go} ]; do sleep 0.01; done; ${command}; echo $? > ${status}.tmp && mv ${status}.tmp ${status}`;
    // CI=false: the pane is a person's terminal. Under CI (which sets CI=true) Ink would otherwise
    // render only the final frame, leaving the screen blank while the app runs.
    // TMPDIR: this test file's (test/temp-folder.ts), not that of the file that started the tmux server.
    execFileSync('tmux', ['new-session', '-d', '-s', this.name, '-x', String(width), '-y', String(height), '-c', cwd, '-e', 'CI=false', '-e', `TMPDIR=${tmpdir()}`, command]);
    // Keep the pane after the command exits, so its last screen can still be read.
    execFileSync('tmux', ['set-option', '-t', this.name, 'remain-on-exit', 'on']);
    // Everything the command writes to the terminal, appended to a file: a wait reads the screen
    // again when more has arrived, not at every poll (each read starts a tmux client).
    execFileSync('tmux', ['pipe-pane', '-t', this.name, `cat >> ${this.output}`]);
    writeFileSync(go, '');
  }

  /** The file the pane's output is appended to. */
  private get output(): string {
    return join(this.dir, 'output');
  }

  /** How many bytes the command has written to the terminal so far. */
  private written(): number {
    try {
      return statSync(this.output).size;
    } catch {
      return 0; // nothing written yet
    }
  }

  /** The visible screen as text; `joined`: lines the terminal wrapped are joined back (tmux `-J`); `history`: with the lines scrolled off the top. */
  screen(joined = false, history = false): string {
    return execFileSync('tmux', ['capture-pane', '-p', ...(joined ? ['-J'] : []), ...(history ? ['-S', '-'] : []), '-t', this.name], { encoding: 'utf8' });
  }

  /** The screen with its colours and attributes as escape sequences (tmux `-e`). */
  styled(): string {
    return execFileSync('tmux', ['capture-pane', '-p', '-e', '-t', this.name], { encoding: 'utf8' });
  }

  /** Resizes the terminal, as a user dragging its window would. */
  resize(width: number, height: number): void {
    execFileSync('tmux', ['resize-window', '-t', this.name, '-x', String(width), '-y', String(height)]);
  }

  /** Waits for the command to exit; its status, or null on timeout. */
  async exited(timeoutMs = HANG_MS): Promise<number | null> {
    const t0 = Date.now();
    while (this.exitStatus() === null && Date.now() - t0 < timeoutMs) await new Promise((r) => setTimeout(r, 50));
    return this.exitStatus();
  }

  /** Sends several keys (tmux key names) in one command: tmux writes them to the terminal together, as a paste or a burst of typing arrives. */
  burst(...keys: string[]): void {
    execFileSync('tmux', ['send-keys', '-t', this.name, ...keys]);
  }

  /** Sends keys (tmux key names such as `Enter`, `Down`, or literal text with `literal`). */
  send(keys: string, literal = false): void {
    execFileSync('tmux', ['send-keys', '-t', this.name, ...(literal ? ['-l'] : []), keys]);
  }

  /**
   * Waits until the screen shows `text` or passes a test (never a fixed sleep); throws with the
   * screen on timeout. The screen is read again when the command has written more to the terminal
   * (and at least once a second, in case tmux had not drawn the last of it when it was read).
   */
  async waitFor(text: string | RegExp | ((screen: string) => boolean), timeoutMs = HANG_MS): Promise<string> {
    const t0 = Date.now();
    const shows = (screen: string): boolean => (typeof text === 'string' ? screen.includes(text) : text instanceof RegExp ? text.test(screen) : text(screen));
    let read = -1;
    let readAt = 0;
    for (;;) {
      const written = this.written();
      const late = Date.now() - t0 > timeoutMs;
      if (written !== read || Date.now() - readAt >= 1000 || late) {
        read = written;
        readAt = Date.now();
        const screen = this.screen();
        if (shows(screen)) return screen;
        if (late) throw new Error(`timed out waiting for ${String(text)}; screen:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The command's exit status once it has exited (128 + the signal number after a signal, as a shell reports it), else null. */
  exitStatus(): number | null {
    try {
      return Number(readFileSync(join(this.dir, 'status'), 'utf8'));
    } catch {
      return null;
    }
  }

  kill(): void {
    spawnSync('tmux', ['kill-session', '-t', this.name], { stdio: 'ignore' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
