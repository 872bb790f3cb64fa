/* Thirty-One with keys, every seat playing greedy, default rules (3 keys, 18 key cards, a stock
 * rebuilt shuffled, a cap of 120 turns a round and 500 rounds a game): a tight single-threaded C
 * program, the yardstick of `simcards bench thirty-one` (issue 13: what one core of this machine
 * can do per turn, for the game whose engine is furthest from its target).
 *
 * It plays exactly the games of
 *     simcards.simulate("thirty-one", ["greedy"] * n, games, seed=seed)
 * game by game: the same SplitMix64 generator seeded per game (simcards/rng.py: seed_game,
 * stream 0 deals and draws), the same unbiased draws (Lemire), the deal's first 3n + 3 steps of a
 * Fisher-Yates shuffle of the cards in id order (rng.shuffle_top), every later card chosen at
 * random from the stock when it is taken (engine.take_top), a stock rebuilt from the discard
 * pile in id order, the same rules (simcards/games/thirty_one/reference.py) and the same greedy
 * choices (strategies/thirty_one/greedy.py). greedy draws no random number, so stream 1 (the
 * strategies') is not seeded here.
 *
 * What makes it tight (each step timed, docs/performance.md): a hand (and the middle) is only a
 * bit mask of its cards, so an exchange is two bit flips, and its three ids come out sorted by
 * count-trailing-zeros where they are needed (the ids kept beside the mask in bytes measured 5%
 * slower: a store through a char pointer makes the compiler load everything again after it); a
 * hand's score and combination is one load from a table by pair and third card (two tables, the
 * combination's and greedy's value: one table with the value worked out of it measured 4-6%
 * slower, as in the engine); greedy weighs its nine swaps and "Кручу" with one load each and
 * takes the best without a branch; the next seat is found without a branch; a proposal's votes
 * are answered in a loop inside the turn (greedy's answer is a load and a compare); the discard
 * pile is a bit mask (a rebuilt stock is its cards in id order, so its order is never needed);
 * the whole game is one function after inlining; nothing is allocated per game.
 *
 * Usage: thirty_one SEED GAMES PLAYERS [check]
 *   without "check": one line "games cpu_seconds wall_seconds checksum" and the totals of the
 *     per-game columns below (CPU time of this process over the games alone);
 *   with "check": one line per game, "rounds turns ends_31 ends_33 ends_678 ends_proposal
 *     ends_cap refreshes rebuilds unfinished" followed, per seat, by "win rank keys dealt_mask
 *     declared proposals": the columns of simcards.simulate's frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N_CARDS = 36, N_RANKS = 9, ACE = 8, ACE_OF_CLUBS = 8, MIN_PLAYERS = 2, MAX_PLAYERS = 4 };
enum { KEYS0 = 3, KEY_CARDS = 18, TURN_CAP = 120, ROUND_CAP = 500 };
enum { NONE, C31, C678, C33 };                        /* rules: a larger code is better */
enum { N_PAIRS = N_CARDS * (N_CARDS - 1) / 2 };
enum { PASS = N_CARDS * 64, KNOCK, PROPOSE };          /* a swap is give * 64 + take */
#define N_COLUMNS 10

#include "yardstick.h"         /* the generator (simcards/rng.py) and the clock */

/* ------------------------------------------------------------------ cards and hands (rules.py) */
/* A hand's score and combination, and greedy's value of it, by pair and third card: every
 * triple the game reads has its first two cards ascending (hands and the middle are sorted, and
 * greedy keeps two of its sorted cards and adds a middle card), so a row per pair a < b of the
 * cards (PAIR[a][b]: where its row starts) holds them in 22.7 KB a table, where a table of every
 * ordered triple took 46.7 KB: both fit this machine's L1 cache together (2-3% faster). */
static uint16_t PAIR[N_CARDS][N_CARDS];
static uint8_t CODE[N_PAIRS * N_CARDS];              /* score + 64 * combination */
static uint8_t VALUE[N_PAIRS * N_CARDS];             /* greedy's value: the score, a 32 as 0 */
static uint8_t SUITS[N_CARDS];                      /* the suits a card can stand for, one bit each */

static int points(int c) {
    static const int P[N_RANKS] = {6, 7, 8, 9, 10, 10, 10, 10, 11};
    return P[c % N_RANKS];
}

/* rules.score: three aces 33; the 6, 7, 8 of one suit; else the best suit, the ace of clubs in any. */
static int score_code(int a, int b, int c) {
    int cards[3] = {a, b, c};
    if (a % N_RANKS == ACE && b % N_RANKS == ACE && c % N_RANKS == ACE) return 33 + 64 * C33;
    if (a / N_RANKS == b / N_RANKS && b / N_RANKS == c / N_RANKS) {
        int r = (1 << a % N_RANKS) | (1 << b % N_RANKS) | (1 << c % N_RANKS);
        if (r == 7) return points(a) + points(b) + points(c) + 64 * C678;
    }
    int best = 0;
    for (int s = 0; s < 4; s++) {
        int sum = 0;
        for (int i = 0; i < 3; i++)
            if (cards[i] / N_RANKS == s || cards[i] == ACE_OF_CLUBS) sum += points(cards[i]);
        if (sum > best) best = sum;
    }
    return best + 64 * (best == 31 ? C31 : NONE);
}

static void init_tables(void) {
    for (int c = 0; c < N_CARDS; c++) SUITS[c] = c == ACE_OF_CLUBS ? 15 : 1 << (c / N_RANKS);
    int k = 0;
    for (int a = 0; a < N_CARDS; a++)
        for (int b = a + 1; b < N_CARDS; b++) {
            PAIR[a][b] = (uint16_t)(k * N_CARDS);
            for (int c = 0; c < N_CARDS; c++) {
                int i = k * N_CARDS + c;
                if (c == a || c == b) { CODE[i] = VALUE[i] = 0; continue; }
                int code = score_code(a, b, c), v = code & 63;
                CODE[i] = (uint8_t)code;
                VALUE[i] = (uint8_t)(v == 32 ? 0 : v);
            }
            k++;
        }
}

/* The table entry of cards a < b and c. */
static inline int idx(int a, int b, int c) { return PAIR[a][b] + c; }
static inline int one_suit(const int *h) { return (SUITS[h[0]] & SUITS[h[1]] & SUITS[h[2]]) != 0; }

/* ------------------------------------------------------------------ the game */
typedef struct {
    int n, dealer, cur, bank, round_turns, quiet, over, fresh;   /* fresh: dealt, not checked */
    int rounds, turns, e31, e33, e678, eprop, ecap, refreshes, rebuilds, unfinished;
    int stock_n, discard_n;
    uint64_t rng, discard;                      /* discard: the pile's cards as a bit mask */
    uint64_t held[MAX_PLAYERS + 1];             /* the hands' cards as bit masks; [n]: the middle */
    uint64_t dealt[MAX_PLAYERS];
    int keys[MAX_PLAYERS], declared[MAX_PLAYERS], proposals[MAX_PLAYERS];
    uint8_t stock[N_CARDS];
} Game;

/* The seat after p, without a branch: compiled as a branch, gcc's `p + 1 == n ? 0 : p + 1`
 * mispredicted 0.23 times a turn (callgrind), and this is 10% faster. */
static inline int next_seat(const Game *g, int p) { int q = p + 1; return q & -(q < g->n); }

/* The three cards of a mask, ids ascending, from count-trailing-zeros. */
typedef struct { int c[3]; } Three;
static inline Three cards_of(uint64_t mask) {
    Three t;
    t.c[0] = __builtin_ctzll(mask);
    mask &= mask - 1;
    t.c[1] = __builtin_ctzll(mask);
    mask &= mask - 1;
    t.c[2] = __builtin_ctzll(mask);
    return t;
}

static inline int table_of(const uint8_t *table, uint64_t mask) {
    Three t = cards_of(mask);
    return table[idx(t.c[0], t.c[1], t.c[2])];
}

static inline int code_of(const Game *g, int h) { return table_of(CODE, g->held[h]); }
static inline int value_of(const Game *g, int h) { return table_of(VALUE, g->held[h]); }

static inline int showdown_value(const Game *g, int p) {   /* rule 5: a 32 below everything */
    int v = code_of(g, p) & 63;
    return v == 32 ? -1 : v;
}

/* Rule 7: the first 3n + 3 steps of a shuffle of the cards in id order, dealt one at a time from
 * the dealer's left, three times round; then the middle; the rest is the stock (not laid out). */
static void deal(Game *g) {
    int n = g->n, k = 3 * n + 3;
    for (int c = 0; c < N_CARDS; c++) g->stock[c] = (uint8_t)c;
    for (int i = N_CARDS - 1; i > N_CARDS - 1 - k; i--) {
        int j = (int)below(&g->rng, (uint32_t)i + 1);
        uint8_t t = g->stock[i];
        g->stock[i] = g->stock[j];
        g->stock[j] = t;
    }
    int first = next_seat(g, g->dealer), top = N_CARDS - 1;
    for (int i = 0; i < n; i++) {
        int p = first + i < n ? first + i : first + i - n;
        const uint8_t *s = g->stock;
        g->held[p] = (1ull << s[top - i]) | (1ull << s[top - i - n]) | (1ull << s[top - i - 2 * n]);
    }
    top -= 3 * n;
    g->held[n] = (1ull << g->stock[top]) | (1ull << g->stock[top - 1]) | (1ull << g->stock[top - 2]);
    g->stock_n = top - 2;
    g->discard = 0;
    g->discard_n = 0;
    g->round_turns = 0;
    g->quiet = 0;
    g->cur = first;
    g->rounds++;
    g->fresh = 1;
}

/* Rule 10 (shuffled): the pile's cards in id order become the stock; engine.take_top then
 * chooses each card at random as it is taken. */
static inline int draw(Game *g) {
    if (g->stock_n == 0) {
        int pos = 0;
        for (uint64_t m = g->discard; m; m &= m - 1) g->stock[pos++] = (uint8_t)__builtin_ctzll(m);
        g->stock_n = g->discard_n;
        g->discard = 0;
        g->discard_n = 0;
        g->rebuilds++;
    }
    int m = g->stock_n;
    int j = (int)below(&g->rng, (uint32_t)m);
    uint8_t t = g->stock[m - 1];
    g->stock[m - 1] = g->stock[j];
    g->stock[j] = t;
    g->stock_n = m - 1;
    return g->stock[m - 1];
}

/* Rules 9, 9a: the middle goes face down; three stock cards replace it. */
static void renew_middle(Game *g) {
    g->discard |= g->held[g->n];
    g->discard_n += 3;
    int a = draw(g), b = draw(g), c = draw(g);
    g->held[g->n] = (1ull << a) | (1ull << b) | (1ull << c);
}

/* Rule 18: over when a player has no keys; rule 19: the round cap; else the next deal. */
static void end_round(Game *g) {
    for (int p = 0; p < g->n; p++)
        if (g->keys[p] <= 0) { g->over = 1; return; }
    if (g->rounds >= ROUND_CAP) { g->over = 1; g->unfinished = 1; return; }
    g->dealer = next_seat(g, g->dealer);
    deal(g);
}

/* Rule 17: the lowest score (all tied lowest) loses one key; `except`: a seat left out (-1: none). */
static void lowest_lose(Game *g, int except) {
    int v[MAX_PLAYERS], low = 99;
    for (int q = 0; q < g->n; q++) {
        v[q] = q == except ? 99 : showdown_value(g, q);
        low = v[q] < low ? v[q] : low;
    }
    for (int q = 0; q < g->n; q++) g->keys[q] -= v[q] == low;
}

/* Rules 14-16. */
static void declare(Game *g, int p, int combo) {
    g->declared[p]++;
    if (combo == C31) {
        g->e31++;
        lowest_lose(g, p);
    } else {
        int gain = 3;
        if (combo == C33) g->e33++;
        else { g->e678++; gain = 1; }
        if (gain > g->bank) gain = g->bank;
        g->keys[p] += gain;
        g->bank -= gain;
        for (int q = 0; q < g->n; q++)
            if (q != p && code_of(g, q) < 64) g->keys[q]--;
    }
    end_round(g);
}

/* Rule 13: dealt combinations from the dealer's left; the best wins, then the first. Returns
 * whether one was declared (the round is over). */
static int check_deal(Game *g) {
    int best = 0, who = -1, p = g->dealer;
    for (int i = 0; i < g->n; i++) {
        p = next_seat(g, p);
        int c = code_of(g, p) >> 6;
        if (c > best) { best = c; who = p; }
    }
    if (who < 0) return 0;
    declare(g, who, best);
    return 1;
}

static inline void quiet_turn(Game *g) {             /* rule 9a */
    if (++g->quiet >= g->n) {
        g->quiet = 0;
        g->refreshes++;
        renew_middle(g);
    }
}

/* greedy's turn: the swap or "Кручу" of the highest value after it (a 32 as 0; ties to the
 * lowest card given, then taken, a swap before "Кручу") if it raises the value; else propose at
 * 25 or more, else pass. Hand and middle are sorted, so the nine swaps in this order are in
 * move-code order: each candidate is one number, value * 4096 + 4095 - move, and the best is
 * their maximum, taken as a tree with no branch ("Кручу" dropped by arithmetic when it is not
 * legal). Measured here against a loop keeping the first strictly better candidate: 2-3% faster. */
static inline int greedy_turn(const Game *g, int p) {
    Three hand = cards_of(g->held[p]), mid = cards_of(g->held[g->n]);
    int a = hand.c[0], b = hand.c[1], c = hand.c[2], x = mid.c[0], y = mid.c[1], z = mid.c[2];
    int now = VALUE[idx(a, b, c)];
    int bc = idx(b, c, 0), ac = idx(a, c, 0), ab = idx(a, b, 0);      /* the two cards kept */
#define R(kept, take, move) (VALUE[(kept) + (take)] * 4096 + 4095 - (move))
#define MAX(u, v) ((u) > (v) ? (u) : (v))
    int r0 = MAX(R(bc, x, a * 64 + x), R(bc, y, a * 64 + y));
    int r1 = MAX(R(bc, z, a * 64 + z), R(ac, x, b * 64 + x));
    int r2 = MAX(R(ac, y, b * 64 + y), R(ac, z, b * 64 + z));
    int r3 = MAX(R(ab, x, c * 64 + x), R(ab, y, c * 64 + y));
    int knock = (R(idx(x, y, z), 0, KNOCK) + 1) * one_suit(hand.c) - 1;  /* -1: not legal */
    int best = MAX(MAX(MAX(r0, r1), MAX(r2, r3)), MAX(R(ab, z, c * 64 + z), knock));
#undef R
#undef MAX
    if ((best >> 12) > now) return 4095 - (best & 4095);
    return now >= 25 ? PROPOSE : PASS;
}

/* After a swap or "Кручу" (rules 13, 9): a combination is declared at once; else a one-suit
 * middle (always after "Кручу") is renewed and the player goes again; else the next player. */
static inline void after_exchange(Game *g, int p, int knocked) {
    int combo = code_of(g, p) >> 6;
    if (combo) declare(g, p, combo);
    else if (knocked || one_suit(cards_of(g->held[g->n]).c)) renew_middle(g);
    else g->cur = next_seat(g, p);
}

static void play(Game *g, uint64_t seed, uint64_t game) {
    int n = g->n;
    g->rng = seed_game(seed, game, 0);
    for (int p = 0; p < n; p++) g->keys[p] = KEYS0, g->declared[p] = 0, g->proposals[p] = 0;
    g->bank = KEY_CARDS - KEYS0 * n;
    g->dealer = n - 1;
    g->over = g->rounds = g->turns = g->e31 = g->e33 = g->e678 = g->eprop = g->ecap = 0;
    g->refreshes = g->rebuilds = g->unfinished = 0;
    deal(g);
    for (int p = 0; p < n; p++) g->dealt[p] = g->held[p];
    while (!g->over) {
        g->fresh = 0;
        if (check_deal(g)) continue;                  /* a new round was dealt, or the game is over */
        while (!g->fresh && !g->over) {               /* the turns of a round */
            if (g->round_turns >= TURN_CAP) {         /* rule 12 */
                g->ecap++;
                lowest_lose(g, -1);
                end_round(g);
                continue;
            }
            int p = g->cur, move = greedy_turn(g, p);
            g->round_turns++;
            g->turns++;
            if (move < PASS) {                        /* rule 8: a swap */
                uint64_t flip = (1ull << (move >> 6)) | (1ull << (move & 63));
                g->held[p] ^= flip;
                g->held[n] ^= flip;
                g->quiet = 0;
                after_exchange(g, p, 0);
            } else if (move == PASS) {
                g->cur = next_seat(g, p);
                quiet_turn(g);
            } else if (move == KNOCK) {
                uint64_t hand = g->held[p], mid = g->held[n];
                g->held[p] = mid;
                g->held[n] = hand;
                g->quiet = 0;
                after_exchange(g, p, 1);
            } else {                                  /* rule 11: the others answer in turn */
                g->proposals[p]++;
                int all = 1;
                for (int q = next_seat(g, p); q != p; q = next_seat(g, q))
                    all &= value_of(g, q) >= 21;      /* greedy accepts at 21 or more */
                if (all) {
                    g->eprop++;
                    lowest_lose(g, -1);
                    end_round(g);
                } else {
                    g->cur = next_seat(g, p);
                    quiet_turn(g);
                }
            }
        }
    }
}

/* Seat p's ranking key (higher ranks higher): the keys it holds. */
static long long key(const Game *g, int p) { return g->keys[p]; }

static void columns(const Game *g, long long *out) {
    const int c[N_COLUMNS] = {g->rounds, g->turns, g->e31, g->e33, g->e678, g->eprop, g->ecap,
                              g->refreshes, g->rebuilds, g->unfinished};
    for (int i = 0; i < N_COLUMNS; i++) out[i] = c[i];
}

static void start(Game *g, int n) {
    init_tables();
    g->n = n;
}

static void print_seat(const Game *g, int p, int r) {
    printf(" %d %d %d %llu %d %d", r == 1 && !g->unfinished, r, g->keys[p],
           (unsigned long long)g->dealt[p], g->declared[p], g->proposals[p]);
}

#include "yardstick_main.h"
