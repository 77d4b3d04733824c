#!/usr/bin/env python3
"""An external take-arena bot in Python, speaking the JSON-lines protocol (docs/PROTOCOL.md).

Plays one-pile `subtraction` games perfectly: it computes the win/loss table of the pile (or, for a
consecutive set a..b, the O(1) rule "lost exactly when n mod (a+b) < a") and takes the largest
winning take, GAMES.md's tie-break. Everywhere else, and from a lost position, it plays a random
legal move from a generator seeded by `new-game`'s `seed`, so games replay exactly.
"""
import json
import random
import sys

PROTOCOL = 1
# Beyond this pile a table costs too much memory and time here; consecutive sets need no table.
TABLE_LIMIT = 2_000_000


def send(message):
    # One JSON object per line, flushed at once: the arena is waiting for it.
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class SubtractionTable:
    """win[i] is 1 when a pile of i stones is won for the player to move (an N-position)."""

    def __init__(self, takes):
        self.takes = sorted(takes)
        self.win = bytearray()

    def extend(self, n):
        win, takes = self.win, self.takes
        for i in range(len(win), n + 1):
            win.append(1 if any(s <= i and not win[i - s] for s in takes) else 0)

    def largest_winning_take(self, n):
        takes = self.takes
        a, b = takes[0], takes[-1]
        if b - a + 1 == len(takes):  # consecutive a..b: seed 002's Game 2, no table
            r = n % (a + b)
            return None if r < a else min(r, b)
        if n > TABLE_LIMIT:
            return None
        self.extend(n)
        for s in reversed(takes):
            if s <= n and not self.win[n - s]:
                return s
        return None  # every take loses


class Bot:
    def __init__(self):
        self.tables = {}  # subtraction set -> table, kept across games
        self.family = None
        self.params = {}
        self.rng = random.Random(0)

    def new_game(self, message):
        self.family = message["family"]
        self.params = message["params"]
        self.rng = random.Random(message["seed"])

    def choose(self, message):
        moves = message["moves"]
        if self.family == "subtraction":
            takes = tuple(self.params["moves"])
            table = self.tables.get(takes)
            if table is None:
                table = self.tables[takes] = SubtractionTable(takes)
            # Piles above 2^53 arrive as decimal strings; int() reads both.
            take = table.largest_winning_take(int(message["position"]["pile"]))
            if take is not None:
                return str(take)
        return self.rng.choice(moves)


def main():
    bot = Bot()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "python-bot"})
        elif kind == "new-game":
            bot.new_game(message)
        elif kind == "move-request":
            send({"move": bot.choose(message), "id": message["id"]})
        elif kind == "game-over":
            # stderr goes to the arena's log file for this bot (results/<run>/bots/python-bot.stderr.log).
            print(f"game {message['game']}: {message['result']} ({message['termination']})", file=sys.stderr)
        elif kind == "quit":
            break


if __name__ == "__main__":
    main()
