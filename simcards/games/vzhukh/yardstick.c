/* Vzhukh, every seat playing low_attack, default rules (92 cards: eight each of 1..10 and four
 * of each joker, hands of 5, 60 points a joker left in hand, a cap of 10,000 steps a round): a
 * tight single-threaded C program, the yardstick of `simcards bench vzhukh` (for information:
 * what one core of this machine can do per action).
 *
 * It plays exactly the games of
 *     simcards.simulate("vzhukh", ["low_attack"] * n, games, seed=seed)
 * game by game: the same SplitMix64 generator seeded per game (simcards/rng.py: seed_game,
 * stream 0 shuffles), the same unbiased draws (Lemire), one Fisher-Yates shuffle a round from
 * the last position down over the deck in canonical order (kinds ascending;
 * rng.shuffle_range_ahead gives the same permutation), the same deal (one card at a time from
 * the top, starting with seat round mod n, clockwise), the same rules
 * (simcards/games/vzhukh/fast.py, docs/rules/vzhukh.md) and the same low_attack choices
 * (strategies/vzhukh/low_attack.py, _kit.py): attack with every card of the lowest rank held;
 * defend by transferring one card, else the cheapest beat (fewest points, ties the higher
 * rank), else a joker (a Krable-Bums on a single card, else Vzhukh, Voila, Krable-Bums).
 * low_attack draws no random number, so stream 1 (the strategies') is not seeded here.
 *
 * What makes it tight (measured here, 4 players, 400,000 games, alternated runs): a hand is
 * counts per kind in sixteen bytes with a bit mask of the number kinds held beside it, so the
 * lowest rank is a count-trailing-zeros; low_attack's cheapest beat is one SIMD byte compare of
 * the hand against a table row (the fewest cards of each rank worth more than the stack),
 * shuffled into the order of preference and a count-trailing-zeros (first_beat; it replaced a
 * loop over the ranks held with a branch each: 16.6 -> 12.6 ns an action); the discard pile is
 * counts per kind (it is never reshuffled); the next seat in each direction is a table; the
 * game is one function with the attack and the defence as two places in it (the phase is where
 * the code is, not a variable); nothing is allocated per game. Tried and dropped, each 4-7%
 * slower: a hand as one 64-bit word of 4-bit counts (no byte stores), no hand size kept (a
 * player draws what they played), and computing the shuffle's draws first
 * (rng.shuffle_range_ahead: 445 against 303 ns for a game's three shuffles).
 *
 * Usage: vzhukh SEED GAMES PLAYERS [check]
 *   without "check": one line "games cpu_seconds wall_seconds checksum" and the totals of the
 *     per-game columns below (CPU time of this process over the games alone);
 *   with "check": one line per game, "rounds actions passes takes_total jokers_left_total
 *     unfinished" followed, per seat, by "win rank penalty penalty_round1 penalty_round2
 *     penalty_round3 takes jokers_left dealt_mask": the columns of simcards.simulate's frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N_NUMBERS = 10, VOILA = 10, KRABLE, VZHUKH, N_KINDS };
enum { MIN_PLAYERS = 2, MAX_PLAYERS = 6, ROUNDS = 3, SEAT_ROW = 8 };
enum { HAND_SIZE = 5, JOKER_PENALTY = 60, ACTION_CAP = 10000 };
#define N_COLUMNS 6
/* rules.DEFAULT_COUNTS */
static const int COUNTS[N_KINDS] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4};
enum { DECK = 92 };
/* The largest stack sum: a stack holds cards of one rank, at most all of them (a Vzhukh brings
 * back a card of the rank from the discard pile, where it went from a stack or a hand). */
enum { MAX_SUM = 10 * 8 };
_Static_assert(MAX_PLAYERS * HAND_SIZE < DECK, "the stock is not empty after the deal");

#include "yardstick.h"         /* the generator (simcards/rng.py) and the clock */
#ifdef __SSSE3__
#include <immintrin.h>
#endif

/* Rule 5 as tables, by the stack's sum t: FEWEST[t][k] is the fewest cards of kind k worth
 * more than t points, t / (k + 1) + 1 (the engine's _FEWEST; 31, more than a hand holds, for a
 * joker kind); PREF[t][i] is the kind of the i-th beat in low_attack's preference
 * (cheapest_beat: fewest points, ties the higher rank; 0x80, no kind, from i = 10). */
static uint8_t FEWEST[MAX_SUM + 1][16] __attribute__((aligned(16)));
static uint8_t PREF[MAX_SUM + 1][16] __attribute__((aligned(16)));
static uint8_t SORTED[DECK];

static void init_tables(void) {
    for (int t = 0; t <= MAX_SUM; t++) {
        int key[N_NUMBERS];
        for (int k = 0; k < 16; k++) {
            FEWEST[t][k] = k < N_NUMBERS ? (uint8_t)(t / (k + 1) + 1) : 31;
            PREF[t][k] = 0x80;
            if (k < N_NUMBERS) key[k] = (k + 1) * FEWEST[t][k] * 16 + (15 - k);
        }
        for (int k = 0; k < N_NUMBERS; k++) {
            int place = 0;
            for (int j = 0; j < N_NUMBERS; j++) place += key[j] < key[k];
            PREF[t][place] = (uint8_t)k;
        }
    }
    int d = 0;
    for (int k = 0; k < N_KINDS; k++)
        for (int i = 0; i < COUNTS[k]; i++) SORTED[d++] = (uint8_t)k;
}

/* The place in PREF[sum] of low_attack's beat for hand h (counts per kind, 16 bytes), or 16
 * (or more) when no kind is held often enough. With SSSE3: one byte compare for the sixteen
 * kinds, put in the order of preference by a byte shuffle, and a count-trailing-zeros (no
 * branch on the hand: which kinds can beat is data no predictor learns). */
static inline int first_beat(const uint8_t *h, int sum) {
#ifdef __SSSE3__
    __m128i held = _mm_loadu_si128((const __m128i *)h);
    __m128i few = _mm_load_si128((const __m128i *)FEWEST[sum]);
    __m128i can = _mm_cmpeq_epi8(_mm_max_epu8(held, few), held);         /* held >= fewest */
    __m128i ordered = _mm_shuffle_epi8(can, _mm_load_si128((const __m128i *)PREF[sum]));
    return __builtin_ctz((unsigned)_mm_movemask_epi8(ordered) | 0x10000u);
#else
    int i = 0;
    while (i < N_NUMBERS && h[PREF[sum][i]] < FEWEST[sum][PREF[sum][i]]) i++;
    return i;
#endif
}

/* ------------------------------------------------------------------ the game */
typedef struct {
    int n, rounds, actions, passes, takes, unfinished;
    uint64_t rng;
    int penalty[MAX_PLAYERS], round_pen[MAX_PLAYERS][ROUNDS], takes_by[MAX_PLAYERS];
    int jokers_left[MAX_PLAYERS], hand_n[MAX_PLAYERS];
    uint32_t numbers[MAX_PLAYERS], dealt[MAX_PLAYERS];   /* number kinds held; kinds first dealt */
    int8_t next[2][SEAT_ROW];                  /* [dir > 0][seat] */
    uint8_t hand[MAX_PLAYERS][16];             /* counts per kind */
    uint8_t discard[16];                       /* the discard pile's number cards per kind */
    uint8_t stock[DECK];
} Game;

static inline void add_penalty(Game *g, int p, int r, int points) {
    g->penalty[p] += points;
    g->round_pen[p][r] += points;
}

/* Take `c` cards of number kind k from p's hand. */
static inline void play_numbers(Game *g, int p, int k, int c) {
    int left = g->hand[p][k] -= (uint8_t)c;
    g->numbers[p] &= ~((uint32_t)(left == 0) << k);
    g->hand_n[p] -= c;
}

/* Rules 11-12: the action counted; p draws from the top of the stock back up to HAND_SIZE.
 * Returns the cards left in the stock (0: the round is over). */
static inline int draw_up(Game *g, int p, int *top, int *steps) {
    g->actions++;
    ++*steps;
    int t = *top, want = HAND_SIZE - g->hand_n[p];
    if (want > t) want = t;
    g->hand_n[p] += want;
    uint32_t numbers = g->numbers[p];
    for (int i = 0; i < want; i++) {
        int c = g->stock[--t];
        g->hand[p][c]++;
        numbers |= (1u << c) & ((1u << N_NUMBERS) - 1);
    }
    g->numbers[p] = numbers;
    *top = t;
    return t;
}

/* Rule 2: every card in canonical order, shuffled, dealt one at a time from seat r mod n on,
 * clockwise. Returns the stock's size. */
static int start_round(Game *g, int r) {
    int n = g->n;
    memcpy(g->stock, SORTED, DECK);
    memset(g->hand, 0, sizeof g->hand);
    memset(g->discard, 0, sizeof g->discard);
    shuffle(g->stock, DECK, &g->rng);
    int top = DECK, first = r % n;
    for (int i = 0; i < HAND_SIZE; i++)
        for (int j = 0, p = first; j < n; j++, p = g->next[1][p]) g->hand[p][g->stock[--top]]++;
    for (int p = 0; p < n; p++) {
        uint32_t m = 0;
        for (int k = 0; k < N_NUMBERS; k++) m |= (uint32_t)(g->hand[p][k] > 0) << k;
        g->numbers[p] = m;
        g->hand_n[p] = HAND_SIZE;
    }
    return top;
}

/* Rule 12: each joker left in a hand costs JOKER_PENALTY (the stack in play is discarded). */
static void end_round(Game *g, int r) {
    for (int p = 0; p < g->n; p++) {
        int j = g->hand[p][VOILA] + g->hand[p][KRABLE] + g->hand[p][VZHUKH];
        g->jokers_left[p] += j;
        add_penalty(g, p, r, j * JOKER_PENALTY);
    }
}

/* Game `index` of `seed`, its three rounds. Within a round the seat to act, the stack (kind
 * and count), the direction, the stock's size and the round's steps stay in locals; the attack
 * and the defence are two places in the loop. Returns with g->unfinished set at the cap. */
static void play(Game *g, uint64_t seed, uint64_t index) {
    int n = g->n;
    g->rng = seed_game(seed, index, 0);
    g->rounds = g->actions = g->passes = g->takes = g->unfinished = 0;
    memset(g->penalty, 0, sizeof g->penalty);
    memset(g->round_pen, 0, sizeof g->round_pen);
    memset(g->takes_by, 0, sizeof g->takes_by);
    memset(g->jokers_left, 0, sizeof g->jokers_left);
    for (int r = 0; r < ROUNDS; r++) {
        int top = start_round(g, r);
        if (r == 0)
            for (int p = 0; p < n; p++) {
                uint32_t m = 0;
                for (int k = 0; k < N_KINDS; k++) m |= (uint32_t)(g->hand[p][k] > 0) << k;
                g->dealt[p] = m;
            }
        int p = r % n, dir = 1, steps = 0, in_row = 0, sk = 0, sn = 0;
        const int8_t *next = g->next[1];
        for (;;) {
            /* ---- p attacks (rule 3) */
            if (steps >= ACTION_CAP) { g->unfinished = 1; return; }          /* rule 14 */
            uint32_t numbers = g->numbers[p];
            if (numbers == 0) {                   /* only jokers: a pass, not an action */
                g->passes++;
                steps++;
                if (++in_row >= n) break;
                p = next[p];
                continue;
            }
            in_row = 0;
            sk = __builtin_ctz(numbers);          /* every card of the lowest rank */
            sn = g->hand[p][sk];
            play_numbers(g, p, sk, sn);
            int q = next[p];
            if (draw_up(g, p, &top, &steps) == 0) break;
            p = q;
            /* ---- p defends (rules 4-10) until a beat or a take */
            for (;;) {
                if (steps >= ACTION_CAP) { g->unfinished = 1; return; }
                uint8_t *h = g->hand[p];
                if (h[sk] > 0) {                  /* transfer one card */
                    play_numbers(g, p, sk, 1);
                    sn++;
                    q = next[p];
                    if (draw_up(g, p, &top, &steps) == 0) goto round_over;
                    p = q;
                    continue;
                }
                /* the cheapest beat: the first kind in PREF held often enough */
                int sum = (sk + 1) * sn, place = first_beat(h, sum);
                if (place < N_NUMBERS) {          /* rule 5: all discarded, p attacks */
                    int bk = PREF[sum][place], bc = FEWEST[sum][bk];
                    play_numbers(g, p, bk, bc);
                    g->discard[bk] += (uint8_t)bc;
                    g->discard[sk] += (uint8_t)sn;
                    if (draw_up(g, p, &top, &steps) == 0) goto round_over;
                    break;
                }
                int joker = sn == 1 && h[KRABLE] ? KRABLE : h[VZHUKH] ? VZHUKH : h[VOILA] ? VOILA
                          : h[KRABLE] ? KRABLE : -1;
                if (joker >= 0) {                 /* rules 6-9 */
                    h[joker]--;
                    g->hand_n[p]--;
                    if (joker == VOILA) {
                        dir = -dir;
                        next = g->next[dir > 0];
                    } else if (joker == KRABLE) {
                        int half = sn >> 1;
                        add_penalty(g, p, r, half * (sk + 1));
                        g->discard[sk] += (uint8_t)half;
                        sn -= half;
                    } else if (g->discard[sk] > 0) {
                        g->discard[sk]--;
                        sn++;
                    }
                    q = next[p];
                    if (draw_up(g, p, &top, &steps) == 0) goto round_over;
                    p = q;
                    continue;
                }
                /* rule 10: p takes the stack; the next player attacks */
                add_penalty(g, p, r, sum);
                g->discard[sk] += (uint8_t)sn;
                g->takes_by[p]++;
                g->takes++;
                q = next[p];
                if (draw_up(g, p, &top, &steps) == 0) goto round_over;
                p = q;
                break;
            }
        }
    round_over:
        end_round(g, r);
        g->rounds = r + 1;
    }
}

/* Seat p's ranking key (higher ranks higher): fewer penalty points (rule 13). */
static long long key(const Game *g, int p) { return -(long long)g->penalty[p]; }

static void columns(const Game *g, long long *out) {
    int jokers = 0;
    for (int p = 0; p < g->n; p++) jokers += g->jokers_left[p];
    const int c[N_COLUMNS] = {g->rounds, g->actions, g->passes, g->takes, jokers, g->unfinished};
    for (int i = 0; i < N_COLUMNS; i++) out[i] = c[i];
}

static void new_game(Game *g, int n) {
    memset(g, 0, sizeof *g);
    g->n = n;
    for (int p = 0; p < n; p++) {              /* rule 2: clockwise is increasing seats */
        g->next[1][p] = (int8_t)(p + 1 < n ? p + 1 : 0);
        g->next[0][p] = (int8_t)(p > 0 ? p - 1 : n - 1);
    }
}

static void start(Game *g, int n) {
    init_tables();
    new_game(g, n);
}

static void print_seat(const Game *g, int p, int r) {
    printf(" %d %d %d %d %d %d %d %d %u", r == 1 && !g->unfinished, r, g->penalty[p],
           g->round_pen[p][0], g->round_pen[p][1], g->round_pen[p][2], g->takes_by[p],
           g->jokers_left[p], g->dealt[p]);
}

#include "yardstick_main.h"
