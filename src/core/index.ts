export * from './errors.ts';
export * from './rng.ts';
export * from './game.ts';
export * from './params.ts';
export * from './bot.ts';
