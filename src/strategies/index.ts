/**
 * The strategies toolkit: the algorithms bots are built from, over the Game interface alone.
 * Exported from `take-arena`, so a bot outside this repository builds on them as the built-in ones do.
 */
export * from './negamax.ts';
export * from './mcts.ts';
export * from './play.ts';
export * from './parity.ts';
export * from './priority.ts';
export * from './strength.ts';
export * from './learner.ts';
