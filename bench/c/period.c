/*
 * Period detection for the seed sets (GAMES.md 1–3): for each game, tables of growing length
 * (4096 piles, doubling) until Brent's cycle finding on the state windows (the last max S values)
 * shows the least pre-period and period. The same algorithm as src/solvers/period.ts:
 *   subtraction: one bit per pile (scalar fill: seed sets are short), window of max S bits;
 *   no-repeat:   one byte per pile (the row over forbidden amounts), window of max S bytes;
 *   partizan:    two bits per pile (Left / Right to move wins), window of max(max L, max R) piles.
 *
 * Usage: period [runs]. Prints `<game>=<preperiod>/<period>` per game and `median_ms=<ms>` for
 * detecting all of them once. Benchmark code only (bench/c.ts compiles it with cc -O2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

typedef struct { long pre, per; } period_t;

/* Brent over windows 0..last; same(a, b) compares windows. pre = -1 when the table is too short. */
#define BRENT(last, SAME)                                              \
  do {                                                                 \
    long power = 1, lam = 1, tort = 0, hare = 1;                       \
    res.pre = -1;                                                      \
    if (hare > (last)) break;                                          \
    int ok = 1;                                                        \
    while (!(SAME(tort, hare))) {                                      \
      if (power == lam) { tort = hare; power *= 2; lam = 0; }          \
      hare++; lam++;                                                   \
      if (hare > (last)) { ok = 0; break; }                            \
    }                                                                  \
    if (!ok) break;                                                    \
    long mu = 0;                                                       \
    while (!(SAME(mu, mu + lam))) mu++;                                \
    res.pre = mu; res.per = lam;                                       \
  } while (0)

static inline int bit(const uint8_t *b, long n) { return (b[n >> 3] >> (n & 7)) & 1; }

/* ---- subtraction: bit n set when N ---- */
static int gM; static uint8_t *gB, *gR;

static int same_bits(const uint8_t *b, long a, long c, int len) {
  for (int i = 0; i < len; i++) if (bit(b, a + i) != bit(b, c + i)) return 0;
  return 1;
}
#define SAME_SUB(a, c) same_bits(gB, a, c, gM)

static period_t subtraction(const int *s, int k) {
  period_t res;
  gM = s[k - 1];
  for (long upto = 4096;; upto *= 2) {
    uint8_t *b = calloc(upto / 8 + 1, 1);
    for (long n = 0; n <= upto; n++)
      for (int i = 0; i < k && s[i] <= n; i++)
        if (!bit(b, n - s[i])) { b[n >> 3] |= 1 << (n & 7); break; }
    gB = b;
    BRENT(upto - gM + 1, SAME_SUB);
    free(b);
    if (res.pre >= 0) return res;
  }
}

/* ---- no-repeat: byte n = 0 lost, 1 won, i + 2 won unless take i is forbidden ---- */
#define SAME_NR(a, c) (memcmp(gB + (a), gB + (c), gM) == 0)

static period_t no_repeat(const int *s, int k) {
  period_t res;
  gM = s[k - 1];
  for (long upto = 4096;; upto *= 2) {
    uint8_t *code = calloc(upto + 1, 1);
    for (long n = 0; n <= upto; n++) {
      int wins = 0, winner = 0;
      for (int i = 0; i < k && s[i] <= n; i++) {
        int c = code[n - s[i]];
        if (c == 0 || c == i + 2) { wins++; winner = i; if (wins == 2) break; }
      }
      code[n] = wins == 0 ? 0 : wins == 1 ? winner + 2 : 1;
    }
    gB = code;
    BRENT(upto - gM + 1, SAME_NR);
    free(code);
    if (res.pre >= 0) return res;
  }
}

/* ---- partizan: gB bit n = Left to move wins, gR bit n = Right to move wins ---- */
#define SAME_PZ(a, c) (same_bits(gB, a, c, gM) && same_bits(gR, a, c, gM))

static period_t partizan(const int *l, int kl, const int *r, int kr) {
  period_t res;
  gM = l[kl - 1] > r[kr - 1] ? l[kl - 1] : r[kr - 1];
  for (long upto = 4096;; upto *= 2) {
    uint8_t *L = calloc(upto / 8 + 1, 1), *R = calloc(upto / 8 + 1, 1);
    for (long n = 0; n <= upto; n++) {
      for (int i = 0; i < kl && l[i] <= n; i++)
        if (!bit(R, n - l[i])) { L[n >> 3] |= 1 << (n & 7); break; }
      for (int i = 0; i < kr && r[i] <= n; i++)
        if (!bit(L, n - r[i])) { R[n >> 3] |= 1 << (n & 7); break; }
    }
    gB = L; gR = R;
    BRENT(upto - gM + 1, SAME_PZ);
    free(L); free(R);
    if (res.pre >= 0) return res;
  }
}

/* The sets are parsed at run time (as the TypeScript side gets them), so the compiler cannot
   specialise the fills on constant takes. */
static int SEED_002[12], S_1_5_8_10[4], S_1_5[5], L_259[3], R_348[3], R_248[3];
static void parse(int *out, const char *text) {
  char *list = strdup(text);
  int k = 0;
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) out[k++] = atoi(tok);
  free(list);
}

static period_t found[6];
static void all(void) {
  found[0] = subtraction(SEED_002, 12);
  found[1] = subtraction(S_1_5_8_10, 4);
  found[2] = no_repeat(S_1_5, 5);
  found[3] = no_repeat(SEED_002, 12);
  found[4] = partizan(L_259, 3, R_348, 3);
  found[5] = partizan(L_259, 3, R_248, 3);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 21;
  if (runs > 1001) runs = 1001;
  static double t[1001];
  parse(SEED_002, "15,19,20,22,23,24,26,27,28,33,38,41");
  parse(S_1_5_8_10, "1,5,8,10");
  parse(S_1_5, "1,2,3,4,5");
  parse(L_259, "2,5,9");
  parse(R_348, "3,4,8");
  parse(R_248, "2,4,8");
  all();
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    all();
    t[r] = now_ms() - t0;
  }
  qsort(t, runs, sizeof t[0], cmp_double);
  const char *names[] = {"subtraction_seed002", "subtraction_1_5_8_10", "no_repeat_1_5", "no_repeat_seed002",
                         "partizan_259_348", "partizan_259_248"};
  for (int i = 0; i < 6; i++) printf("%s=%ld/%ld\n", names[i], found[i].pre, found[i].per);
  printf("median_ms=%.3f\n", t[runs / 2]);
  return 0;
}
