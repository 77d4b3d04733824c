/**
 * CPU-time clocks (Linux): how much CPU a thread or a process has used, read from the kernel's
 * scheduler statistics (`/proc/<pid>/task/<tid>/schedstat`, first field: nanoseconds on a CPU).
 * Exact to the nanosecond, unlike `/proc/<pid>/stat`'s 10 ms ticks, and cheap: each reader keeps
 * its file open and re-reads it in place (about 2.5 µs a read). A busy machine slows a thread's
 * wall clock, not its CPU clock: a bot charged by this clock is charged for its own work only.
 */
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The clocks a bot's moves can be charged on (a spec's `clock`, the commands' `--clock`). */
export const CLOCK_KINDS = ['cpu', 'wall'] as const;

/** Which clock a bot's moves are charged on: its CPU time, or the time that passed. */
export type ClockKind = (typeof CLOCK_KINDS)[number];

const BUF = Buffer.allocUnsafe(64);

/** The first number of a schedstat file held open (ns on a CPU), or NaN when the task is gone. */
function readNs(fd: number): number {
  let n: number;
  try {
    n = readSync(fd, BUF, 0, BUF.length, 0);
  } catch {
    return NaN; // the task has ended: its file reads ESRCH
  }
  let v = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = BUF[i]!;
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
  }
  return i === 0 ? NaN : v;
}

/** The first number of a schedstat file read once (ns), or 0 when it cannot be read (a task that ended meanwhile). */
function readNsOnce(path: string): number {
  try {
    return Number.parseInt(readFileSync(path, 'latin1'), 10) || 0;
  } catch {
    return 0;
  }
}

let problem: string | null | undefined;

/**
 * Why this platform gives no CPU clock per thread (a one-line reason), or null when it does: the
 * CPU clock needs Linux's `/proc/thread-self/schedstat`.
 */
export function cpuClockProblem(): string | null {
  if (problem !== undefined) return problem;
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    const ok = !Number.isNaN(readNs(fd));
    closeSync(fd);
    problem = ok ? null : 'its /proc/thread-self/schedstat reads no CPU time';
  } catch {
    problem = process.platform === 'linux' ? 'it has no /proc/thread-self/schedstat (a kernel without scheduler statistics)' : `${process.platform} has no /proc/thread-self/schedstat`;
  }
  return problem;
}

/** The clock a run asks for, as it can be had here: `cpu` falls back to `wall` where there is no CPU clock. */
export function usableClock(kind: ClockKind): ClockKind {
  return kind === 'cpu' && cpuClockProblem() !== null ? 'wall' : kind;
}

/** The one line saying that the CPU clock was asked for and is not to be had here, or null. */
export function clockNote(kind: ClockKind): string | null {
  const why = kind === 'cpu' ? cpuClockProblem() : null;
  return why === null ? null : `the CPU clock is not available here (${why}): moves are timed by the wall clock`;
}

/**
 * The calling thread's CPU clock (ms), read lazily: `now()` reads the kernel only when at least
 * `STALE_MS` of wall time has passed since its last read, so it is at most that far behind (CPU
 * time cannot run faster than the wall clock on one thread) and costs a clock read otherwise;
 * `fresh()` always reads. One per thread: the file names the thread that opened it.
 */
export class ThreadCpuClock {
  #fd: number;
  #cpu: number;
  #at: number;

  constructor() {
    this.#fd = openSync('/proc/thread-self/schedstat', 'r');
    this.#at = performance.now();
    this.#cpu = readNs(this.#fd) / 1e6;
  }

  /** CPU ms of this thread, at most `STALE_MS` behind. */
  now(): number {
    return this.at(performance.now());
  }

  /**
   * `now()` for a caller that has just read `performance.now()` itself (`wall`): the same answer
   * without a second clock read, which on a hot path (every in-process move) is a large share.
   */
  at(wall: number): number {
    if (wall - this.#at < STALE_MS) return this.#cpu;
    this.#at = wall;
    return (this.#cpu = readNs(this.#fd) / 1e6);
  }

  /** CPU ms of this thread, read now. */
  fresh(): number {
    this.#at = performance.now();
    return (this.#cpu = readNs(this.#fd) / 1e6);
  }
}

/** How far behind `ThreadCpuClock.now()` may be (ms of wall time between reads). */
export const STALE_MS = 0.25;

/**
 * A reader of another process's main-thread CPU time (ms; NaN once the process is gone): the
 * thread that runs a Node.js program's JavaScript. Threads the program starts itself are not
 * counted (see `processTreeCpuMs` for a whole program).
 */
export function mainThreadCpuReader(pid: number): { read(): number; close(): void } {
  let fd: number | null = openSync(`/proc/${pid}/task/${pid}/schedstat`, 'r');
  return {
    read: () => (fd === null ? NaN : readNs(fd) / 1e6),
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/**
 * The CPU time (ms) of a whole program: every thread of `pid` and of the processes it started, and
 * theirs, as far as they still run, plus the time of the children each has waited for (the
 * kernel's `cutime` and `cstime`, in 10 ms ticks): an external bot may be a launcher and its
 * interpreter, several threads, or a program that starts a helper per move. 0 when it is gone.
 */
export function processTreeCpuMs(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let ms = reapedChildrenMs(pid);
  for (const tid of tasks) {
    ms += readNsOnce(`/proc/${pid}/task/${tid}/schedstat`) / 1e6;
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch {
      continue; // the thread ended while being read
    }
    for (const child of children.split(' ')) if (/^\d+$/.test(child)) ms += processTreeCpuMs(Number(child));
  }
  return ms;
}

/** Milliseconds per clock tick of `/proc/<pid>/stat` (Linux reports USER_HZ = 100 to programs). */
const TICK_MS = 10;

/** The CPU time of the children `pid` has waited for (ms, `cutime` + `cstime`), or 0. */
function reapedChildrenMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return 0;
  }
  // Fields after the command name (which may hold spaces, hence the last ')'): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) || 0) + (Number(fields[14]) || 0)) * TICK_MS;
}

/**
 * The process running `exe` that `pid` is or started (the shallowest such, breadth first): the
 * program itself when it was launched through a wrapper (bubblewrap's PID namespace puts two
 * processes of its own above it). Null when there is none.
 */
export function findProgram(pid: number, exe: string): number | null {
  const queue = [pid];
  for (let i = 0; i < queue.length && i < 64; i++) {
    const p = queue[i]!;
    try {
      if (readlinkSync(`/proc/${p}/exe`) === exe) return p;
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${tid}/children`, 'latin1').split(' ')) if (/^\d+$/.test(child)) queue.push(Number(child));
      }
    } catch {
      continue; // ended meanwhile, or not ours to read
    }
  }
  return null;
}

let ownClock: ThreadCpuClock | undefined;

/** The calling thread's CPU clock, made once per thread (module state is per thread in Node.js). */
export function threadCpuClock(): ThreadCpuClock {
  return (ownClock ??= new ThreadCpuClock());
}
