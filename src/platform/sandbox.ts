/**
 * The launcher of isolation `sandbox`: a command line that runs a program inside a bubblewrap
 * (`bwrap`) namespace with resource caps. What the program gets (each one verified by the tests in
 * test/hosting/sandbox.test.ts, not trusted from a flag's name):
 *
 * - no network (`--unshare-net`: not even the host's 127.0.0.1), its own PID, IPC, UTS and cgroup
 *   namespaces, a new session (no terminal to inject keystrokes into);
 * - a read-only view of `/usr` (and the merged-usr links `/bin`, `/lib`, …), the Node runtime's
 *   folder and the binds the caller names (its bundle or its folder), a private empty `/tmp`, a
 *   minimal `/dev` and `/proc`, and nothing else: no home, no `/etc`, no results folder;
 * - an environment of `PATH`, `HOME=/tmp` and `LANG` only;
 * - `--die-with-parent`: when the arena dies, even by SIGKILL, the kernel kills the sandbox, and
 *   with it its PID namespace, so no process of the bot (not one started with `setsid`) survives;
 * - caps set by `prlimit` inside the namespace: address space, CPU seconds, file size, processes
 *   (counted per user namespace, so they are the bot's own), open files, no core dumps;
 * - when the arena runs as root, the sandbox runs as user `nobody` (65534): a root process is
 *   exempt from the process cap, and nobody owns nothing on the machine.
 *
 * cgroup v2 would cap memory and processes more tightly, but needs a delegated cgroup that most
 * machines (and containers) do not give a user process; the rlimits above work everywhere.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, statfsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

/** Resource caps of one sandboxed process. */
export interface SandboxLimits {
  /** Address space (MB): the heap and everything else the process maps. */
  readonly addressSpaceMb: number;
  /** CPU seconds over the process's life; past it the kernel sends SIGXCPU (then SIGKILL a second later). */
  readonly cpuSeconds: number;
  /** Largest file the process may write (MB): its private /tmp or a store. */
  readonly fileSizeMb: number;
  /** Processes and threads of the sandbox's user namespace. */
  readonly processes: number;
  /** Open file descriptors. */
  readonly openFiles: number;
}

/** A read-only (or writable) bind of a host path into the sandbox. */
export interface SandboxBind {
  readonly src: string;
  readonly dest: string;
  readonly writable?: boolean;
}

/** What to run and how: `spawn(plan.file, plan.args, { uid, gid, env })`. */
export interface SandboxPlan {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Set when the arena runs as root: the sandbox runs as nobody. */
  readonly uid?: number;
  readonly gid?: number;
}

/** The user and group the sandbox runs as when the arena is root. */
export const NOBODY = 65534;

/** The PATH inside the sandbox. */
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

/** A program's path on the host's PATH (or on `path`), or null. */
export function which(program: string, path = process.env['PATH'] ?? '/usr/bin:/bin'): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, program);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** The top-level system folders, bound read-only (a merged-usr link is recreated as a link). */
function systemBinds(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let st;
    try {
      st = lstatSync(top);
    } catch {
      continue; // not on this system
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else if (st.isDirectory()) args.push('--ro-bind', top, top);
  }
  return args;
}

/** The folder holding the Node runtime (bound when it is not under /usr). */
export function nodeRuntimeDir(): string {
  return dirname(dirname(realpathSync(process.execPath)));
}

/** Whether the arena runs as root (the sandbox then runs as nobody). */
function asRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * The command line that runs `command` in the sandbox with `binds`, working folder `cwd` (a path
 * inside the sandbox), `limits` and, beyond the fixed minimal environment, the variables in `env`. `prlimit` runs inside the new namespaces, so the process cap
 * counts only the sandbox's own processes.
 */
export function sandboxPlan(command: readonly string[], binds: readonly SandboxBind[], cwd: string, limits: SandboxLimits, env: Readonly<Record<string, string>> = {}): SandboxPlan {
  const bwrap = which('bwrap') ?? 'bwrap';
  const prlimit = which('prlimit') ?? '/usr/bin/prlimit';
  const args: string[] = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--setenv', 'PATH', SANDBOX_PATH,
    '--setenv', 'HOME', '/tmp',
    '--setenv', 'LANG', 'C.UTF-8',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    ...systemBinds(),
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
  ];
  const runtime = nodeRuntimeDir();
  if (!runtime.startsWith('/usr/')) args.push('--ro-bind', runtime, runtime);
  for (const b of binds) args.push(b.writable ? '--bind' : '--ro-bind', b.src, b.dest);
  args.push('--chdir', cwd, '--', prlimit,
    `--as=${limits.addressSpaceMb * 1024 * 1024}`,
    // Soft then hard: SIGXCPU at the soft limit (a reason the arena can name), SIGKILL a second later.
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--fsize=${Math.round(limits.fileSizeMb * 1024 * 1024)}`,
    `--nproc=${limits.processes}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
    '--', ...command);
  const hostEnv = { PATH: '/usr/bin:/bin' };
  return asRoot() ? { file: bwrap, args, env: hostEnv, uid: NOBODY, gid: NOBODY } : { file: bwrap, args, env: hostEnv };
}

/**
 * How to start a program of a bot that is not sandboxed (an external program under `none` and
 * `worker`, a module bot's process under `worker`, a discovery child) so that it cannot signal the
 * arena: `bwrap --unshare-pid` with the whole file system as it is (`--dev-bind / /`), its
 * environment and working folder unchanged, `--die-with-parent`. In its own PID namespace the
 * arena's pid names nothing (`kill` fails with ESRCH), its parent is the namespace's init, which
 * ignores signals from inside, and `kill(-1)` reaches only the bot's own processes. (It still sees
 * the machine's `/proc`, as it sees every file its user may read: a `/proc` of its own would cost
 * another mount at every start and hide nothing it cannot read elsewhere.)
 * Returns the command unchanged where bubblewrap cannot make the namespace (see `pidNamespaceProblem`).
 */
export function pidNamespacePlan(command: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): SandboxPlan {
  const clean = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  // A program that is not there is started as it is, so that spawn names what is missing.
  const program = command[0]!;
  const found = program.includes('/') ? existsSync(resolve(cwd, program)) : which(program, clean['PATH']) !== null;
  if (!found || pidNamespaceProblem() !== null) return { file: program, args: command.slice(1), env: clean };
  return {
    file: which('bwrap')!,
    args: ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--chdir', cwd, '--', ...command],
    env: clean,
  };
}

let pidChecked: string | null | undefined;

/**
 * Why bots outside the sandbox cannot get a PID namespace of their own here (one line), or null
 * when they can: bwrap is installed and can unshare the PID namespace as this user. Checked once.
 */
export function pidNamespaceProblem(): string | null {
  if (pidChecked !== undefined) return pidChecked;
  const bwrap = which('bwrap');
  if (!bwrap) return (pidChecked = 'bubblewrap (`bwrap`) is not installed');
  const run = spawnSync(bwrap, ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--', '/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0] ?? '';
    return (pidChecked = `bwrap cannot create a PID namespace here (${why})`);
  }
  return (pidChecked = null);
}

let checked: string | null | undefined;

/**
 * Why isolation `sandbox` cannot run on this machine (one line: what is missing and how to
 * install it), or null when it can. Checked once: bwrap and prlimit are there, and bwrap can
 * create its namespaces as the user the sandbox will run as.
 */
export function sandboxProblem(): string | null {
  if (checked !== undefined) return checked;
  const bwrap = which('bwrap');
  if (!bwrap) return (checked = 'isolation sandbox needs bubblewrap (`bwrap`), which is not installed: install it (Debian/Ubuntu: `apt-get install -y bubblewrap`)');
  if (!which('prlimit') && !existsSync('/usr/bin/prlimit')) {
    return (checked = 'isolation sandbox needs `prlimit` (util-linux), which is not installed: install it (Debian/Ubuntu: `apt-get install -y util-linux`)');
  }
  const plan = sandboxPlan(['/bin/true'], [], '/', { addressSpaceMb: 256, cpuSeconds: 5, fileSizeMb: 1, processes: 16, openFiles: 64 });
  const run = spawnSync(plan.file, plan.args, { env: plan.env, encoding: 'utf8', timeout: 10_000, ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid! } : {}) });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0] ?? '';
    // A bind source the sandbox's user cannot reach (as root the sandbox runs as nobody, who cannot
    // enter /root: a Node.js installed under a root home, e.g. by nvm) is not a namespace problem.
    if (/Can't find source path/.test(why)) {
      return (checked = `isolation sandbox cannot show its bot ${asRoot() ? 'user (nobody, as the arena runs as root)' : 'process'} a path it needs (bwrap: ${why}); install Node.js (now ${nodeRuntimeDir()}) where every user can read it, e.g. under /usr/local or /opt`);
    }
    return (checked = `isolation sandbox cannot create its namespaces here (bwrap: ${why}); enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run where bubblewrap works`);
  }
  return (checked = null);
}

/** statfs magic of a cgroup v2 mount. */
const CGROUP2_MAGIC = 0x63677270;

/**
 * Which caps the sandbox applies on this machine, in one line (`arena bots --sandbox` prints it).
 * The caps are rlimits set by `prlimit` everywhere; this says why cgroup v2 limits (memory.max,
 * pids.max), which would be tighter, are not used here: they need cgroup v2 with the memory and
 * pids controllers delegated to the arena's cgroup, which most machines and containers do not give.
 */
export function sandboxCapsText(root = '/sys/fs/cgroup'): string {
  const caps = 'caps by rlimits (prlimit): address space, CPU seconds, file size, processes per sandbox, open files';
  let why: string;
  try {
    if (statfsSync(root).type !== CGROUP2_MAGIC) why = `${root} is cgroup v1 or hybrid, not cgroup v2`;
    else {
      const own = (readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((l) => l.startsWith('0::')) ?? '0::/').slice(3);
      const dir = join(root, own);
      const controllers = readFileSync(join(dir, 'cgroup.controllers'), 'utf8').split(/\s+/);
      const missing = ['memory', 'pids'].filter((c) => !controllers.includes(c));
      if (missing.length > 0) why = `cgroup v2 without the ${missing.join(' and ')} controller${missing.length > 1 ? 's' : ''} in ${dir}`;
      else {
        try {
          accessSync(dir, constants.W_OK);
          why = `cgroup v2 with memory and pids delegated in ${dir}, which the arena does not use yet`;
        } catch {
          why = `cgroup v2, but ${dir} is not writable (not delegated to this user)`;
        }
      }
    }
  } catch (err) {
    why = `no cgroup hierarchy readable at ${root} (${(err as Error).message.split('\n')[0]})`;
  }
  return `${caps}; no cgroup limits: ${why}`;
}
