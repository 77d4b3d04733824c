/** random: a uniformly random legal move, drawn from the bot's own seeded generator only. */
import { defineBot } from 'take-arena';

export default defineBot({
  name: 'random',
  description: 'plays a uniformly random legal move (from its seeded rng, so games replay exactly)',
  choose: ({ moves, rng }) => rng.pick(moves),
});
