/*
 * Period detection for the seed sets (GAMES.md 1–3): for each game, tables of growing length
 * (4m + 64 piles for a state window of m piles, doubling) until the windows (the last m values)
 * show the least pre-period and period (the nearest earlier copy of the last window gives the
 * period). The same algorithm as src/solvers/period.ts and the tables' solvers:
 *   subtraction: one bit per pile, from pile 0 through the word-parallel register window when
 *                max S <= 64 (when min S < 4 one pile at a time from that window; scalar beyond
 *                64), windows of max S bits;
 *   no-repeat:   one byte per pile (the row over forbidden amounts), filled by pushing each
 *                pile's winning takes forward into a ring of 2^16 counts, window of max S bytes;
 *   partizan:    two bitsets (Left / Right to move wins), filled from 32-pile windows in registers
 *                a word at a time when every take is at most 32 (else pile by pile), window of
 *                max(max L, max R) piles;
 *   the search:  the nearest earlier copy of the last window, candidates sieved by an anchor of
 *                two differing neighbours (64 at a time for bits), then the pre-period as the
 *                first place from which a window's worth of values equal those a period later.
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

/* ---- window searches, as bitWindowPeriod and byteWindowPeriod in src/solvers/period.ts ----
   The period is the distance from the last window (at `last`) back to the nearest equal one; the
   pre-period is then the first pile from which a window's worth of piles equal those a period
   later. pre = -1: the table is too short. */

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

/* Bit windows of len bits in one bitset, or two that must both agree (b: NULL for one): the
   period by the anchor of the last window (its first pair of differing neighbouring bits j - 1,
   j; or bit 0), tested for 64 candidates at a time, then the whole windows of the candidates that
   pass, nearest first; the pre-period a word at a time from the start. */
static period_t bit_window_period(const uint64_t *a, const uint64_t *b, long last, int len) {
  period_t res = {-1, 0};
  int j = 0;
  for (int o = 0; o < len - 1; o += 63) {
    uint64_t x = bits_at(a, last + o);
    uint64_t changes = (x ^ (x >> 1)) & (len - o > 63 ? ~0ull >> 1 : (1ull << (len - o - 1)) - 1);
    if (changes) { j = o + __builtin_ctzll(changes) + 1; break; }
  }
  int jb = j ? j - 1 : 0;
  uint64_t flip_j = ((bits_at(a, last + j) & 1) ? 0 : ~0ull), flip_b = ((bits_at(a, last + jb) & 1) ? 0 : ~0ull);
  long lam = last + 1;
  for (long p0 = last - 64; p0 > -64 && lam > last; p0 -= 64) {
    long from = p0 < 0 ? 0 : p0;
    unsigned up = from - p0;
    uint64_t alive = ((bits_at(a, from + j) << up) ^ flip_j) & ((bits_at(a, from + jb) << up) ^ flip_b);
    if (p0 < 0) alive &= ~0ull << up;
    while (alive) {
      int i = 63 - __builtin_clzll(alive);
      long p = p0 + i;
      if (same_words(a, p, last, len) && (!b || same_words(b, p, last, len))) { lam = last - p; break; }
      alive ^= 1ull << i;
    }
  }
  if (lam > last) return res;
  res.per = lam;
  /* The pre-period: the first pile from which len piles in a row equal those lam later, a word of
     piles at a time in the bits where the table and itself shifted by lam differ. */
  long end = last + len - 1 - lam, run = 0;
  for (long p0 = 0; p0 <= end; p0 += 64) {
    uint64_t d = bits_at(a, p0) ^ bits_at(a, p0 + lam);
    if (b) d |= bits_at(b, p0) ^ bits_at(b, p0 + lam);
    for (; d; d &= d - 1) {
      long q = p0 + __builtin_ctzll(d);
      if (q - run >= len) { res.pre = run; return res; }
      run = q + 1;
    }
    if (p0 + 64 - run >= len) break;
  }
  res.pre = run;
  return res;
}

/* Byte windows of len bytes: the period by testing first, at each earlier window, the last
   window's first pair of differing neighbours (j - 1, j; or byte 0), then memcmp on a match; the
   pre-period by one forward scan for the first len values in a row that equal those a period later. */
static period_t byte_window_period(const uint8_t *v, long last, int len) {
  period_t res = {-1, 0};
  int j = 1;
  while (j < len && v[last + j] == v[last + j - 1]) j++;
  if (j == len) j = 0;
  int jb = j ? j - 1 : 0;
  uint8_t a = v[last + jb], b = v[last + j];
  long lam = 1;
  for (; lam <= last; lam++) {
    long p = last - lam;
    if (v[p + j] == b && v[p + jb] == a && !memcmp(v + p, v + last, len)) break;
  }
  if (lam > last) return res;
  long q = 0;
  for (int run = 0; run < len; q++) run = v[q] == v[q + lam] ? run + 1 : 0;
  res.pre = q - len;
  res.per = lam;
  return res;
}

/* ---- subtraction: bit n set when N, in 64-bit words ---- */

/* subtractionTable: when max S <= 64, from pile 0 (piles below 0 read as N: no take reaches them),
   k = min(min S, 63) piles at a time from a 64-pile window in one register, or for min S < 4
   (chunks too short) one pile at a time from that window; otherwise scalar below max S, then the
   scalar loop (min S < 4) or chunks from unaligned reads of the table, as the TypeScript side
   does for the tables of this size. (The TypeScript window is two 32-bit halves, from which it
   stores each word whole; one 64-bit register holds no more than a chunk's own word, so here each
   chunk is OR-ed in: measured the same as gathering the words in a register.) */
static uint64_t *sub_table(const int *s, int k, long upto) {
  uint64_t *b = calloc(upto / 64 + 2, sizeof *b);
  int min_s = s[0], max_s = s[k - 1];
  if (min_s < 4 && max_s <= 64) {
    /* One pile at a time from the window of the 64 piles before it in one register (bit j is pile
       n - 1 - j, set when N): n is N when ~W & mask != 0, as fillByRegister (which holds 32). */
    uint64_t mask = 0, W = ~0ull;
    for (int i = 0; i < k; i++) mask |= 1ull << (s[i] - 1);
    for (long n = 0; n <= upto; n++) {
      uint64_t isN = (~W & mask) != 0;
      W = (W << 1) | isN;
      b[n >> 6] |= isN << (n & 63);
    }
    return b;
  }
  if (max_s <= 64) {
    int kw = min_s < 63 ? min_s : 63;
    uint64_t wmask = (1ull << kw) - 1;
    unsigned sh[64];
    for (int i = 0; i < k; i++) sh[i] = 64 - s[i];
    uint64_t W = ~0ull;
    for (long n = 0; n <= upto; n += kw) {
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
  long prefix = upto < max_s - 1 ? upto : max_s - 1;
  for (long n = 0; n <= prefix; n++)
    for (int i = 0; i < k && s[i] <= n; i++) {
      long p = n - s[i];
      if (!((b[p >> 6] >> (p & 63)) & 1)) { b[n >> 6] |= 1ull << (n & 63); break; }
    }
  long from = prefix + 1;
  if (min_s < 4) {
    for (long n = from; n <= upto; n++)
      for (int i = 0; i < k; i++) {
        long p = n - s[i];
        if (!((b[p >> 6] >> (p & 63)) & 1)) { b[n >> 6] |= 1ull << (n & 63); break; }
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
  int m = s[k - 1];
  for (long upto = first_upto(m);; upto *= 2) {
    uint64_t *b = sub_table(s, k, upto);
    period_t res = bit_window_period(b, NULL, upto - m + 1, m);
    free(b);
    if (res.pre >= 0) return res;
  }
}

/* ---- no-repeat: byte n = 0 lost, 1 won, i + 2 won unless take i is forbidden ---- */

/* The counts pushed ahead (how many winning takes, the last one's index), in rings of 2^16 piles
   as in noRepeatTable (every take here is far below 2^16); all zero between calls. */
static uint8_t RWINS[1 << 16], RWINNER[1 << 16];
static period_t no_repeat(const int *s, int k) {
  int m = s[k - 1];
  for (long upto = first_upto(m);; upto *= 2) {
    uint8_t *code = malloc(upto + 1);
    uint8_t *wins = RWINS, *winner = RWINNER;
    for (long n = 0; n <= upto; n++) {
      long slot = n & 0xffff;
      int c = wins[slot];
      wins[slot] = 0;
      if (c == 0) {
        code[n] = 0;
        for (int i = 0; i < k; i++) { long t = (n + s[i]) & 0xffff; wins[t]++, winner[t] = (uint8_t)i; }
      } else if (c == 1) {
        int i = winner[slot];
        code[n] = (uint8_t)(i + 2);
        long t = (n + s[i]) & 0xffff;
        wins[t]++, winner[t] = (uint8_t)i;
      } else code[n] = 1;
    }
    for (long n = upto + 1; n <= upto + m; n++) wins[n & 0xffff] = 0;
    period_t res = byte_window_period(code, upto - m + 1, m);
    free(code);
    if (res.pre >= 0) return res;
  }
}

/* ---- partizan: L bit n = Left to move wins, R bit n = Right to move wins (64-bit words) ---- */
#define BIT64(b, n) (((b)[(n) >> 6] >> ((n) & 63)) & 1)

/* The two bitsets from 32-pile windows in registers, k piles at a time, k = the largest power of
   two <= min(min L, min R, 16) so that whole chunks fill a word, which is then the window itself
   (every take <= 32): as windowFill in src/solvers/partizan.ts. Piles below 0 read as won. */
static void pz_window(uint32_t *L, uint32_t *R, const int *l, int kl, const int *r, int kr, long upto) {
  int mn = l[0] < r[0] ? l[0] : r[0];
  if (mn > 16) mn = 16;
  int k = 1;
  while (k * 2 <= mn) k *= 2;
  unsigned sl[32], sr[32];
  for (int i = 0; i < kl; i++) sl[i] = 32 - l[i];
  for (int i = 0; i < kr; i++) sr[i] = 32 - r[i];
  uint32_t mask = (1u << k) - 1, hl = ~0u, hr = ~0u;
  unsigned up = 32 - k;
  int steps = 32 / k;
  long words = (upto >> 5) + 1;
  for (long w = 0; w < words; w++) {
    for (int j = 0; j < steps; j++) {
      uint32_t al = ~0u, ar = ~0u;
      for (int i = 0; i < kl; i++) al &= hr >> sl[i];
      for (int i = 0; i < kr; i++) ar &= hl >> sr[i];
      uint32_t lw = ~al & mask, rw = ~ar & mask;
      hl = (hl >> k) | (lw << up);
      hr = (hr >> k) | (rw << up);
    }
    L[w] = hl;
    R[w] = hr;
  }
  long last = upto >> 5;
  uint32_t keep = (upto & 31) == 31 ? ~0u : (1u << ((upto & 31) + 1)) - 1;
  L[last] &= keep; R[last] &= keep;
}

static period_t partizan(const int *l, int kl, const int *r, int kr) {
  int m = l[kl - 1] > r[kr - 1] ? l[kl - 1] : r[kr - 1];
  for (long upto = first_upto(m);; upto *= 2) {
    uint64_t *L = calloc(upto / 64 + 2, 8), *R = calloc(upto / 64 + 2, 8);
    if (m <= 32) pz_window((uint32_t *)L, (uint32_t *)R, l, kl, r, kr, upto);
    else
      for (long n = 0; n <= upto; n++) {
        for (int i = 0; i < kl && l[i] <= n; i++)
          if (!BIT64(R, n - l[i])) { L[n >> 6] |= 1ull << (n & 63); break; }
        for (int i = 0; i < kr && r[i] <= n; i++)
          if (!BIT64(L, n - r[i])) { R[n >> 6] |= 1ull << (n & 63); break; }
      }
    period_t res = bit_window_period(L, R, upto - m + 1, m);
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
