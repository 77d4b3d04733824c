/*
 * An external take-arena bot in C (docs/PROTOCOL.md): seed 002's table T for one-pile
 * `subtraction` games. T[i] is the index j of the largest take p_j that leaves the opponent a lost
 * pile, or -1 when every take loses (then the bot plays the first legal move). For a consecutive
 * set a..b it uses seed 002's Game 2 rule instead, in O(1): n is lost exactly when n mod (a+b) < a,
 * and otherwise the largest winning take is min(n mod (a+b), b).
 *
 * The arena's messages are compact JSON with known shapes, so a few string scans read them; a bot
 * meant for other inputs would use a JSON library.
 *
 * Build: cc -O2 -std=c99 -Wall -Wextra -o c-bot bot.c   (or: make)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TAKES 64
#define TABLE_LIMIT 20000000LL /* piles above this (non-consecutive sets) get the first legal move */

typedef struct {
  long long p[MAX_TAKES]; /* the subtraction set, ascending */
  int k;
  signed char *T;         /* T[0..size-1], seed 002's table; k <= 64 fits in a signed char */
  long long size;
  int subtraction;        /* the current game is a `subtraction` game */
} Bot;

/* Points just past `"key":` (spaces allowed), or NULL. */
static const char *value_of(const char *line, const char *key) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\"", key);
  const char *at = strstr(line, pattern);
  if (!at) return NULL;
  at += strlen(pattern);
  while (*at == ' ') at++;
  if (*at != ':') return NULL;
  at++;
  while (*at == ' ') at++;
  return at;
}

/* Reads a JSON integer or a decimal string (piles above 2^53 are sent as strings). */
static long long int_at(const char *at) {
  if (*at == '"') at++;
  return strtoll(at, NULL, 10);
}

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static void new_game(Bot *bot, const char *line) {
  const char *family = value_of(line, "family");
  bot->subtraction = family && strncmp(family, "\"subtraction\"", 13) == 0;
  if (!bot->subtraction) return;
  const char *at = value_of(line, "moves"); /* params.moves: the subtraction set */
  if (!at || *at != '[') { bot->subtraction = 0; return; }
  long long p[MAX_TAKES];
  int k = 0;
  for (at++; *at && *at != ']' && k < MAX_TAKES;) {
    char *end;
    p[k++] = strtoll(at, &end, 10);
    at = end;
    while (*at == ',' || *at == ' ') at++;
  }
  qsort(p, (size_t)k, sizeof p[0], cmp_ll);
  if (k != bot->k || memcmp(p, bot->p, (size_t)k * sizeof p[0]) != 0) {
    /* A new set: the old table is no use (the table survives games of the same set). */
    memcpy(bot->p, p, (size_t)k * sizeof p[0]);
    bot->k = k;
    free(bot->T);
    bot->T = NULL;
    bot->size = 0;
  }
}

/* Extends T to cover 0..n (seed 002, Game 1: O(nk) time, O(n) space). */
static int extend_table(Bot *bot, long long n) {
  if (n < bot->size) return 1;
  long long size = n + 1 > 2 * bot->size ? n + 1 : 2 * bot->size;
  if (size > TABLE_LIMIT + 1) size = TABLE_LIMIT + 1;
  signed char *T = realloc(bot->T, (size_t)size);
  if (!T) return 0;
  bot->T = T;
  for (long long i = bot->size; i < size; i++) {
    T[i] = -1;
    for (int j = bot->k - 1; j >= 0; j--) {
      if (bot->p[j] <= i && T[i - bot->p[j]] == -1) { T[i] = (signed char)j; break; }
    }
  }
  bot->size = size;
  return 1;
}

/* The largest winning take from a pile of n, or -1 when the pile is lost (or too large to tabulate). */
static long long best_take(Bot *bot, long long n) {
  long long a = bot->p[0], b = bot->p[bot->k - 1];
  if (b - a + 1 == bot->k) { /* consecutive a..b: Game 2 */
    long long r = n % (a + b);
    return r < a ? -1 : (r < b ? r : b);
  }
  if (n > TABLE_LIMIT || !extend_table(bot, n)) return -1;
  return bot->T[n] < 0 ? -1 : bot->p[(int)bot->T[n]];
}

static void move_request(Bot *bot, const char *line) {
  long long id = int_at(value_of(line, "id") ? value_of(line, "id") : "0");
  const char *moves = value_of(line, "moves"); /* the legal moves: ["1","5",...] */
  long long take = -1;
  if (bot->subtraction && bot->k > 0) {
    const char *pile = value_of(line, "pile");
    if (pile) take = best_take(bot, int_at(pile));
  }
  if (take >= 0) {
    printf("{\"move\":\"%lld\",\"id\":%lld}\n", take, id);
  } else if (moves && moves[0] == '[' && moves[1] == '"') {
    const char *first = moves + 2;
    const char *end = strchr(first, '"');
    printf("{\"move\":\"%.*s\",\"id\":%lld}\n", (int)(end ? end - first : 0), first, id);
  } else {
    printf("{\"move\":\"\",\"id\":%lld}\n", id); /* no legal move listed: cannot happen */
  }
  fflush(stdout);
}

int main(void) {
  static char line[1 << 20];
  Bot bot = {0};
  while (fgets(line, sizeof line, stdin)) {
    const char *type = value_of(line, "type");
    if (!type) continue;
    if (strncmp(type, "\"hello\"", 7) == 0) {
      printf("{\"type\":\"hello\",\"protocol\":1,\"name\":\"c-bot\"}\n");
      fflush(stdout);
    } else if (strncmp(type, "\"new-game\"", 10) == 0) {
      new_game(&bot, line);
    } else if (strncmp(type, "\"move-request\"", 14) == 0) {
      move_request(&bot, line);
    } else if (strncmp(type, "\"quit\"", 6) == 0) {
      break;
    }
  }
  free(bot.T);
  return 0;
}
