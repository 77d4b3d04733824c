/**
 * The results folder, the door of its room: `spec.json` as the run began, `games.jsonl` (one
 * checksummed line per finished game, appended with group commit), `summary.json` and
 * `standings.csv` at the end, the chain key and the runner's lock. The runner opens it
 * (`createRunFolder`, `resumeRunFolder`); readers (the report, replay) read its log.
 *
 * Inside: folder.ts (files, creation, lock, key), codec.ts (a record's line both ways), chain.ts
 * (the checksum chain), log.ts (the group-committed log), scan.ts (reading back, verifying,
 * repairing), open.ts (a folder as a run holds it).
 */
export { LogChain, SEAL_EVERY } from './chain.ts';
export { parseRecordLine, recordLine } from './codec.ts';
export { createLogKey, createResultsDir, GUARD_FILES, lockResultsDir, openResultsFolder, readLogKey, RESULTS_FILES, type ResultsFolder } from './folder.ts';
export { ResultsLog } from './log.ts';
export { createRunFolder, resumeRunFolder, type ResumeCheck, type RunFolder } from './open.ts';
export { droppedText, readFinishedGames, readLines, readLog, repairLog, scanLog, type DropCounts, type DropReason, type LineJudge, type LogEntry, type LogLine, type LogReading, type LogScan } from './scan.ts';
