/**
 * Seed 003's priority play for the coin board on points (GAMES.md 5): choose how many coins to take
 * by a fixed order of take sizes that the scoring rewards, never the move the seed avoids, ties at
 * random. The seed's order (1, 3, 5, 2, 4; 6 avoided) was for its own points table; here the order is
 * derived from the variant's scoring: a take of k coins from c scores k points now, and the bonus
 * goes to whoever does not take the last coin. If the rest were played one coin a move, the
 * opponent takes the last coin exactly when c − k is odd, so a take is worth k + bonus when it
 * leaves an odd count and k − bonus when it leaves an even count (none left: k − bonus, the bonus
 * is the opponent's). The seed's avoided move is the take of a whole longest line.
 */

/** A take size's worth under points scoring, by the single-coin parity forecast above. */
export function takeWorth(take: number, coinsLeft: number, bonus: number): number {
  const rest = coinsLeft - take;
  return rest > 0 && rest % 2 === 1 ? take + bonus : take - bonus;
}

/**
 * Take sizes 1..maxTake ranked best first, each rank a group of equally good sizes (ties are
 * played at random), with `avoid` (the seed's avoided size) moved to the end on its own.
 */
export function priorityOrder(coinsLeft: number, maxTake: number, bonus: number, avoid: number | null = maxTake): number[][] {
  const sizes: number[] = [];
  for (let k = 1; k <= Math.min(maxTake, coinsLeft); k++) if (k !== avoid) sizes.push(k);
  sizes.sort((a, b) => takeWorth(b, coinsLeft, bonus) - takeWorth(a, coinsLeft, bonus) || a - b);
  const ranks: number[][] = [];
  for (const k of sizes) {
    const last = ranks[ranks.length - 1];
    if (last && takeWorth(last[0]!, coinsLeft, bonus) === takeWorth(k, coinsLeft, bonus)) last.push(k);
    else ranks.push([k]);
  }
  if (avoid !== null && avoid <= coinsLeft) ranks.push([avoid]);
  return ranks;
}

/**
 * The moves of the best-ranked take size present among `moves`, given each move's size: the bot
 * picks one of them at random. Falls back to every move when none has a ranked size.
 */
export function priorityMoves<M>(moves: readonly M[], sizeOf: (m: M) => number, ranks: readonly (readonly number[])[]): M[] {
  for (const rank of ranks) {
    const found = moves.filter((m) => rank.includes(sizeOf(m)));
    if (found.length > 0) return found;
  }
  return moves.slice();
}
