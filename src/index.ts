/**
 * take-arena's public entry: the contracts a bot file needs (`defineBot`, the Game and Bot types,
 * the seeded Rng) and the game registry.
 */
export * from './core/index.ts';
export { FAMILIES, getFamily, makeGame, parseVariant } from './games/index.ts';
