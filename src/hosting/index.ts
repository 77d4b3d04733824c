/**
 * How a bot runs: the bot-host contract, discovery (the bot registry), the hosts (in-process,
 * module bots in processes of their own under `worker`, sandboxed bots, external programs and
 * their JSON-lines protocol) and the conformance check; users' game files, loaded and checked
 * through child processes as bot files are.
 * The only module of `src/hosting` imported from outside it; hosting never imports the tournament.
 */
export * from './host.ts';
export { createHost, moduleFiles, stderrLogFor, type HostedBot, type HostSettings, type InlineBot, type Isolation, type ModuleBotFile } from './create-host.ts';
export { RUNTIME_ROOM_MB } from './sandbox-host.ts';
export { opaqueGameId } from './process-host.ts';
export { DEFAULT_STDERR_LIMIT, stderrLogPath, tempStderrLogPath } from './bot-child.ts';
export * from './bot-registry.ts';
export * from './bot-check.ts';
export { InProcessHost, readOnly } from './in-process-host.ts';
export { WorkerHost, type WorkerHostOptions } from './worker-host.ts';
export { bundledBotWorkerScript, PACKAGE_ENTRY, workerScript } from './worker-bundle.ts';
export { ProcessHost, type ProcessHostOptions } from './process-host.ts';
export * from './protocol.ts';
export { isManifestFileName, loadManifest, MANIFEST_SUFFIX, type ExternalBot } from './manifest.ts';
export { BUILTIN_GAMES_DIR, CHECK_CPU_SECONDS, checkGameFile, isGameFileName, loadGameDirs, type CheckedVariant, type GameDirsResult } from './game-discovery.ts';
