/*
 * Period detection for the seed sets (GAMES.md 1–3): for each game, tables of growing length
 * (4m + 64 piles for a state window of m piles, doubling) until the windows (the last m values)
 * show the least pre-period and period (the nearest earlier copy of the last window gives the
 * period). The same algorithm as src/solvers/period.ts:
 *   subtraction: one bit per pile, filled as bench/c/subtraction.c (the word-parallel register
 *                window when max S <= 64; when min S < 4 one pile at a time from that window, or
 *                scalar beyond 64), windows of max S bits compared 64 bits at a time;
 *   no-repeat:   one byte per pile (the row over forbidden amounts), filled by pushing each
 *                pile's winning takes forward, window of max S bytes;
 *   partizan:    two bitsets (Left / Right to move wins), filled from 32-pile windows in registers
 *                when every take is at most 32 (else pile by pile), window of max(max L, max R)
 *                piles, compared 64 bits at a time.
 *
 * Usage: period [runs] [reps]. Each of the `runs` timed samples detects all six periods `reps`
 * times (one detection of all six is a fraction of a millisecond, too short to time alone), after
 * one untimed sample as warm-up. Prints `<game>=<preperiod>/<period>` per game and
 * `median_ms=<ms>` per sample. Benchmark code only (bench/c.ts compiles it with cc -O2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

typedef struct { long pre, per; } period_t;

/* The first table for a state window of m piles (firstTableUpto in src/solvers/period.ts). */
static long first_upto(int m) { return 4L * m + 64; }

/* The least pre-period and period over windows 0..last; same(a, b) compares windows. pre = -1
   when the table is too short. As bitWindowPeriod in src/solvers/period.ts: the period is the
   distance from the last window back to the nearest equal one, the pre-period the first p whose
   window equals the one a period later. */
#define WINDOW_PERIOD(last, SAME)                                      \
  do {                                                                 \
    long lam = 1;                                                      \
    res.pre = -1;                                                      \
    while (lam <= (last) && !(SAME((last) - lam, (last)))) lam++;      \
    if (lam > (last)) break;                                           \
    long mu = 0;                                                       \
    while (!(SAME(mu, mu + lam))) mu++;                                \
    res.pre = mu; res.per = lam;                                       \
  } while (0)

/* ---- subtraction: bit n set when N, in 64-bit words, filled as bench/c/subtraction.c does ---- */
static int gM; static uint8_t *gB; static uint64_t *gW;

/* The 64 bits from bit o on (reads one word past o's word; the tables keep a spare word). */
static inline uint64_t bits_at(const uint64_t *b, long o) {
  long w = o >> 6;
  unsigned sh = o & 63;
  return sh == 0 ? b[w] : (b[w] >> sh) | (b[w + 1] << (64 - sh));
}

/* Windows compared a word at a time, as sameBitRun in src/solvers/period.ts. */
static int same_words(const uint64_t *b, long a, long c, int len) {
  int i = 0;
  for (; i + 64 <= len; i += 64) if (bits_at(b, a + i) != bits_at(b, c + i)) return 0;
  if (i == len) return 1;
  return ((bits_at(b, a + i) ^ bits_at(b, c + i)) & ((1ull << (len - i)) - 1)) == 0;
}
#define SAME_SUB(a, c) same_words(gW, a, c, gM)

/* subtractionTable: scalar below max S, then k = min(min S, 63) piles at a time from a 64-pile
   window in one register when max S <= 64, else from unaligned reads of the table; and for
   min S < 4 (chunks too short) one pile at a time from that window, or the scalar loop when
   max S > 64, as the TypeScript side does for the tables of this size. */
static uint64_t *sub_table(const int *s, int k, long upto) {
  uint64_t *b = calloc(upto / 64 + 2, sizeof *b);
  int min_s = s[0], max_s = s[k - 1];
  long prefix = upto < max_s - 1 ? upto : max_s - 1;
  for (long n = 0; n <= prefix; n++)
    for (int i = 0; i < k && s[i] <= n; i++) {
      long p = n - s[i];
      if (!((b[p >> 6] >> (p & 63)) & 1)) { b[n >> 6] |= 1ull << (n & 63); break; }
    }
  long from = prefix + 1;
  if (min_s < 4 && max_s <= 64) {
    /* One pile at a time from the window of the 64 piles before it in one register (bit j is pile
       n - 1 - j, set when N): n is N when ~W & mask != 0, as fillByRegister (which holds 32). */
    uint64_t mask = 0, W = 0;
    for (int i = 0; i < k; i++) mask |= 1ull << (s[i] - 1);
    for (long p = from > 64 ? from - 64 : 0; p < from; p++) W = (W << 1) | ((b[p >> 6] >> (p & 63)) & 1);
    for (long n = from; n <= upto; n++) {
      uint64_t isN = (~W & mask) != 0;
      W = (W << 1) | isN;
      b[n >> 6] |= isN << (n & 63);
    }
    return b;
  }
  if (min_s < 4) {
    for (long n = from; n <= upto; n++)
      for (int i = 0; i < k; i++) {
        long p = n - s[i];
        if (!((b[p >> 6] >> (p & 63)) & 1)) { b[n >> 6] |= 1ull << (n & 63); break; }
      }
    return b;
  }
  if (max_s <= 64) {
    int kw = min_s < 63 ? min_s : 63;
    uint64_t wmask = (1ull << kw) - 1;
    unsigned sh[64];
    for (int i = 0; i < k; i++) sh[i] = 64 - s[i];
    uint64_t W = 0;
    for (int j = 1; j <= 64 && j <= from; j++) {
      long p = from - j;
      W |= ((b[p >> 6] >> (p & 63)) & 1) << (64 - j);
    }
    for (long n = from; n <= upto; n += kw) {
      uint64_t acc = ~0ull;
      for (int i = 0; i < k; i++) acc &= W >> sh[i];
      uint64_t win = ~acc & wmask;
      W = (W >> kw) | (win << (64 - kw));
      long w = n >> 6;
      unsigned x = n & 63;
      b[w] |= win << x;
      if (x + kw > 64) b[w + 1] = win >> (64 - x);
    }
    return b;
  }
  int kc = min_s < 64 ? min_s : 64;
  uint64_t mask = kc == 64 ? ~0ull : (1ull << kc) - 1;
  for (long n = from; n <= upto; n += kc) {
    uint64_t win = 0;
    for (int i = 0; i < k; i++) win |= ~bits_at(b, n - s[i]);
    win &= mask;
    long w = n >> 6;
    unsigned x = n & 63;
    b[w] |= win << x;
    if (x + kc > 64) b[w + 1] |= win >> (64 - x);
  }
  return b;
}

static period_t subtraction(const int *s, int k) {
  period_t res;
  gM = s[k - 1];
  for (long upto = first_upto(gM);; upto *= 2) {
    gW = sub_table(s, k, upto);
    WINDOW_PERIOD(upto - gM + 1, SAME_SUB);
    free(gW);
    if (res.pre >= 0) return res;
  }
}

/* ---- no-repeat: byte n = 0 lost, 1 won, i + 2 won unless take i is forbidden ---- */
#define SAME_NR(a, c) (memcmp(gB + (a), gB + (c), gM) == 0)

static period_t no_repeat(const int *s, int k) {
  period_t res;
  gM = s[k - 1];
  for (long upto = first_upto(gM);; upto *= 2) {
    /* Pushing forward, as noRepeatTable: a decided pile hands its winning takes to the piles
       they lead to (all takes when it is lost, take i when only take i wins it); wins[n] counts
       them, winner[n] holds the last one. */
    uint8_t *code = malloc(upto + 1);
    uint8_t *wins = calloc(upto + gM + 1, 1), *winner = malloc(upto + gM + 1);
    for (long n = 0; n <= upto; n++) {
      int c = wins[n];
      if (c == 0) {
        code[n] = 0;
        for (int i = 0; i < k; i++) wins[n + s[i]]++, winner[n + s[i]] = (uint8_t)i;
      } else if (c == 1) {
        int i = winner[n];
        code[n] = (uint8_t)(i + 2);
        wins[n + s[i]]++, winner[n + s[i]] = (uint8_t)i;
      } else code[n] = 1;
    }
    free(wins);
    free(winner);
    gB = code;
    WINDOW_PERIOD(upto - gM + 1, SAME_NR);
    free(code);
    if (res.pre >= 0) return res;
  }
}

/* ---- partizan: gL bit n = Left to move wins, gR bit n = Right to move wins (64-bit words) ---- */
static uint64_t *gL, *gRw;
#define SAME_PZ(a, c) (same_words(gL, a, c, gM) && same_words(gRw, a, c, gM))
#define BIT64(b, n) (((b)[(n) >> 6] >> ((n) & 63)) & 1)

/* The two bitsets from 32-pile windows in registers, k = min(min L, min R, 31) piles at a time
   (every take <= 32): as windowFill in src/solvers/partizan.ts. Piles below 0 read as won. */
static void pz_window(uint32_t *L, uint32_t *R, const int *l, int kl, const int *r, int kr, long upto) {
  int k = l[0] < r[0] ? l[0] : r[0];
  if (k > 31) k = 31;
  unsigned sl[32], sr[32];
  for (int i = 0; i < kl; i++) sl[i] = 32 - l[i];
  for (int i = 0; i < kr; i++) sr[i] = 32 - r[i];
  uint32_t mask = (1u << k) - 1, hl = ~0u, hr = ~0u;
  unsigned up = 32 - k;
  for (long n = 0; n <= upto; n += k) {
    uint32_t al = ~0u, ar = ~0u;
    for (int i = 0; i < kl; i++) al &= hr >> sl[i];
    for (int i = 0; i < kr; i++) ar &= hl >> sr[i];
    uint32_t lw = ~al & mask, rw = ~ar & mask;
    hl = (hl >> k) | (lw << up);
    hr = (hr >> k) | (rw << up);
    long w = n >> 5;
    unsigned sh = n & 31;
    L[w] |= lw << sh; L[w + 1] = sh ? lw >> (32 - sh) : 0;
    R[w] |= rw << sh; R[w + 1] = sh ? rw >> (32 - sh) : 0;
  }
  long last = upto >> 5;
  uint32_t keep = (upto & 31) == 31 ? ~0u : (1u << ((upto & 31) + 1)) - 1;
  L[last] &= keep; R[last] &= keep; L[last + 1] = 0; R[last + 1] = 0;
}

static period_t partizan(const int *l, int kl, const int *r, int kr) {
  period_t res;
  gM = l[kl - 1] > r[kr - 1] ? l[kl - 1] : r[kr - 1];
  for (long upto = first_upto(gM);; upto *= 2) {
    uint64_t *L = calloc(upto / 64 + 2, 8), *R = calloc(upto / 64 + 2, 8);
    if (gM <= 32) pz_window((uint32_t *)L, (uint32_t *)R, l, kl, r, kr, upto);
    else
      for (long n = 0; n <= upto; n++) {
        for (int i = 0; i < kl && l[i] <= n; i++)
          if (!BIT64(R, n - l[i])) { L[n >> 6] |= 1ull << (n & 63); break; }
        for (int i = 0; i < kr && r[i] <= n; i++)
          if (!BIT64(L, n - r[i])) { R[n >> 6] |= 1ull << (n & 63); break; }
      }
    gL = L; gRw = R;
    WINDOW_PERIOD(upto - gM + 1, SAME_PZ);
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
  int reps = argc > 2 ? atoi(argv[2]) : 1;
  if (runs < 1) runs = 1;
  if (runs > 1001) runs = 1001;
  if (reps < 1) reps = 1;
  static double t[1001];
  parse(SEED_002, "15,19,20,22,23,24,26,27,28,33,38,41");
  parse(S_1_5_8_10, "1,5,8,10");
  parse(S_1_5, "1,2,3,4,5");
  parse(L_259, "2,5,9");
  parse(R_348, "3,4,8");
  parse(R_248, "2,4,8");
  for (int r = 0; r < reps; r++) all(); /* warm-up, as the TypeScript side does */
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    for (int i = 0; i < reps; i++) all();
    t[r] = now_ms() - t0;
  }
  qsort(t, runs, sizeof t[0], cmp_double);
  const char *names[] = {"subtraction_seed002", "subtraction_1_5_8_10", "no_repeat_1_5", "no_repeat_seed002",
                         "partizan_259_348", "partizan_259_248"};
  for (int i = 0; i < 6; i++) printf("%s=%ld/%ld\n", names[i], found[i].pre, found[i].per);
  printf("median_ms=%.3f\n", t[runs / 2]);
  return 0;
}
