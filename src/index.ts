/**
 * take-arena's public entry: the contracts a bot file needs (`defineBot`, the Game and Bot types,
 * the seeded Rng), `defineGame` for a game file in `games/`, the game registry, and the strategies
 * toolkit bots are built from (negamax with a transposition table, MCTS, greedy and solver moves,
 * stop times).
 */
export * from './core/index.ts';
export { FAMILIES, getFamily, makeGame, parseVariant } from './games/index.ts';
export { defineGame, GameRuleError, type GameDefinition, type SolverDefinition } from './games/user.ts';
export * from './strategies/index.ts';
export { StoreError, DEFAULT_STORE_CAP_BYTES, MAX_VALUE_BYTES } from './platform/bot-store.ts';
