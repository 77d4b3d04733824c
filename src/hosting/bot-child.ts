/**
 * What the hosts that run a bot as an OS process share (external programs, sandboxed bots, module
 * bots under `worker`): the bot's log file with its cap, how a process's end is named, and killing
 * its process group, now or when the arena exits.
 */
import { type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeDirs } from '../platform/files.ts';

/** Default cap of a bot's log (bytes over the whole run). */
export const DEFAULT_STDERR_LIMIT = 8 << 20;

/** Where the stderr of bot `name` goes in a results folder: `<results>/bots/<name>.stderr.log`. */
export function stderrLogPath(resultsDir: string, name: string): string {
  return join(resultsDir, 'bots', `${name}.stderr.log`);
}

/** Where the stderr of bot `name` goes when there is no results folder (a check): a temp file. */
export function tempStderrLogPath(name: string): string {
  return join(tmpdir(), 'take-arena', `${name}-${process.pid}.stderr.log`);
}

/**
 * One bot's log file, shared by all its processes: what they write to stderr (and, for module
 * bots, stdout), capped over the run, and the arena's notes. Opened on the first write (its folder
 * is created).
 */
export class BotLog {
  readonly path: string;
  readonly limitBytes: number;
  #left: number;
  #fd: number | null = null;

  constructor(path: string, limitBytes = DEFAULT_STDERR_LIMIT) {
    this.path = path;
    this.limitBytes = limitBytes;
    this.#left = limitBytes;
  }

  /** Whether the cap has been passed (nothing more of the bot's output is kept). */
  get full(): boolean {
    return this.#left <= 0;
  }

  /**
   * Appends the bot's output up to the cap. True when this chunk is past the cap (the first that
   * passes it, or any after): the caller then ends the process that wrote it. The cap is the bot's
   * over the whole run, so a bot that passed it may write nothing more.
   */
  append(chunk: Uint8Array): boolean {
    if (this.#left <= 0) return chunk.length > 0;
    const n = Math.min(chunk.length, this.#left);
    this.#left -= chunk.length;
    this.#write(n === chunk.length ? chunk : chunk.subarray(0, n));
    if (this.#left > 0) return false;
    this.note(`output passed its cap of ${this.limitBytes} bytes: the rest is not logged`);
    return true;
  }

  /** A note from the arena in the log. */
  note(text: string, pid?: number): void {
    this.#write(`[arena] ${new Date().toISOString()}${pid === undefined ? '' : ` pid ${pid}`}: ${text}\n`);
  }

  #write(data: Uint8Array | string): void {
    try {
      if (this.#fd === null) {
        makeDirs(dirname(this.path));
        this.#fd = openSync(this.path, 'a');
      }
      if (typeof data === 'string') writeSync(this.#fd, data);
      else writeSync(this.#fd, data);
    } catch {
      // The log is a diagnostic aid: a full disk or an unwritable folder must not stop the game.
    }
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

/**
 * What runtimes write when they run out of memory (Node, V8, Python, C++, C). Node 20 says "Array
 * buffer allocation failed" of a buffer past the address-space cap, Node 24 "Failed to allocate
 * memory" (ERR_MEMORY_ALLOCATION_FAILED).
 */
const OOM_TEXT = /out of memory|\bOOM\b|allocation failed|failed to allocate memory|ERR_MEMORY_ALLOCATION_FAILED|Cannot allocate memory|MemoryError|bad_alloc/i;

/** How Node says, just before it aborts, that V8's heap passed its limit. */
const V8_OOM = /FATAL ERROR: [^\n]*JavaScript heap out of memory/;

/**
 * How long after a bot's process exits its end is judged without waiting for its pipes to close
 * ('close'): time for what it wrote last (Node's out-of-memory message, a last move) to be read on a
 * busy machine, while a grandchild that holds a pipe open still cannot hide the end.
 */
export const DRAIN_FALLBACK_MS = 2000;

/** Watches a process's output for an out-of-memory message (one split between chunks included). */
export class OomWatch {
  #tail = '';
  /** Some runtime's out-of-memory message. */
  seen = false;
  /** Node's own: the process is about to abort (it takes a while to print its stacks first). */
  node = false;

  feed(chunk: Uint8Array): void {
    if (this.node) return;
    const text = this.#tail + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    this.seen ||= OOM_TEXT.test(text);
    this.node = V8_OOM.test(text);
    this.#tail = text.slice(-200);
  }
}

/**
 * Why a process ended, in words: the caps' signals and an out-of-memory end are named. A process
 * started through bubblewrap (`launched`) reports the signal that ended the program inside as
 * exit code 128 + the signal.
 */
export function exitReason(code: number | null, rawSignal: NodeJS.Signals | null, launched: boolean, oom: boolean): string {
  let signal = rawSignal;
  if (launched && code !== null && code > 128) {
    const name = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0];
    if (name) signal = name as NodeJS.Signals;
  }
  if (oom) return `ran out of memory (${signal ? `killed by ${signal}` : `exit code ${code}`})`;
  if (signal === 'SIGXCPU') return 'exceeded its CPU time cap (SIGXCPU)';
  if (signal === 'SIGXFSZ') return 'exceeded its file size cap (SIGXFSZ)';
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

/** Kills a process's group (bots run in groups of their own, so a kill reaches a script's children). */
export function killGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already (ESRCH): the process alone, if it is still there.
    child.kill('SIGKILL');
  }
}

/**
 * Every running bot process. They run in their own process groups, which also means they outlive
 * an arena that dies without closing its hosts: one exit hook kills whatever is left.
 */
const LIVE = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of LIVE) killGroup(child);
});

/** Keeps a bot process on the list the exit hook kills, until it closes. */
export function trackChild(child: ChildProcess): void {
  LIVE.add(child);
  child.once('close', () => LIVE.delete(child));
}
