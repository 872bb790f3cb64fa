/* Five Alive, every seat playing high_first, default rules (standard edition, 5 lives, hands of
 * 10, no blitz, a cap of 10,000 turns): a tight single-threaded C program, the yardstick of
 * `simcards bench five-alive` (issue 13: what one core of this machine can do per turn).
 *
 * It plays exactly the games of
 *     simcards.simulate("five-alive", ["high_first"] * n, games, seed=seed)
 * game by game: the same SplitMix64 generator seeded per game (simcards/rng.py: seed_game,
 * stream 0 deals and shuffles), the same unbiased draws (Lemire), the same Fisher-Yates
 * shuffles from the last position down over the same canonical orders (kinds ascending), the
 * same deals, reshuffles and redeals, the same rules (simcards/games/five_alive/reference.py)
 * and the same high_first choices (strategies/five_alive/high_first.py). high_first draws no
 * random number, so stream 1 (the strategies') is not seeded here.
 *
 * What makes it tight: each seat's hand is counts per kind with a bit mask of the kinds held
 * beside them, so the legal cards are one AND with a mask looked up by total, and high_first
 * is a count-leading-zeros or one table look-up; the next seat in each direction is a table
 * kept when a seat goes out; the whole game is one function after inlining; nothing is
 * allocated per game.
 *
 * Usage: five_alive SEED GAMES PLAYERS [check]
 *   without "check": one line "games cpu_seconds wall_seconds checksum rounds turns busts
 *     unfinished" (the last four: totals over the games; CPU time of this process over the
 *     games alone, from clock_gettime);
 *   with "check": one line per game "rounds turns busts unfinished" followed, per seat, by
 *     "win rank lives dealt_mask": the columns of simcards.simulate's frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DRAW1 = 8, DRAW2, PASS, SKIP, REVERSE, SET21, SET10, SET0, REDEAL, KILLER, LIFE, N_KINDS };
enum { N_NUMBERS = 8, LIMIT = 21, MAX_PLAYERS = 7, MAX_DECK = 77 };
enum { LIVES0 = 5, HAND_SIZE = 10, TURN_CAP = 10000 };
_Static_assert(MAX_PLAYERS * HAND_SIZE <= MAX_DECK, "every player count deals from the deck");
#define NUMBERS_MASK 0xFFu
#define ACTIONS_MASK (((1u << N_KINDS) - 1) & ~NUMBERS_MASK)

/* rules.EDITION_COUNTS["standard"] */
static const int COUNTS[N_KINDS] = {8, 8, 8, 8, 8, 4, 2, 1, 2, 2, 4, 6, 4, 5, 2, 3, 1, 1, 0};
/* high_first.ACTION_ORDER: the action played when no number card fits */
static const int ACTION_ORDER[] = {PASS, SKIP, REVERSE, DRAW1, DRAW2, SET0, SET10, LIFE, KILLER,
                                   REDEAL, SET21};

#include "yardstick.h"         /* the generator (simcards/rng.py) and the clock */

/* ------------------------------------------------------------------ the game */
typedef struct {
    int n, alive_n, cur, dir, dealer, turns, rounds, busts, unfinished;  /* cur: who starts a round */
    int stock_n, pile_n, deck;
    uint64_t rng;
    int lives[MAX_PLAYERS], out_at[MAX_PLAYERS], hand_n[MAX_PLAYERS];
    uint32_t held[MAX_PLAYERS], dealt[MAX_PLAYERS];
    int8_t next[2][MAX_PLAYERS];               /* [dir > 0][seat]: next seat still in */
    uint8_t hand[MAX_PLAYERS][N_KINDS + 1];    /* counts per kind (padded to 20) */
    uint8_t sorted[MAX_DECK], stock[MAX_DECK], pile[MAX_DECK], scratch[MAX_DECK];
} Game;

static uint32_t PLAYABLE[LIMIT + 1];     /* kinds that may be played at each total (rule 4) */
static uint8_t ACTION_PICK[1 << 11];     /* held action kinds (bits 8..18, shifted) -> choice */

static void init_tables(void) {
    for (int t = 0; t <= LIMIT; t++) {
        int too_high = t + N_NUMBERS - 1 - LIMIT;
        PLAYABLE[t] = ACTIONS_MASK | (NUMBERS_MASK >> (too_high > 0 ? too_high : 0));
    }
    for (int m = 0; m < (1 << 11); m++) {
        ACTION_PICK[m] = 0;
        for (size_t i = 0; i < sizeof ACTION_ORDER / sizeof ACTION_ORDER[0]; i++)
            if ((m << N_NUMBERS) >> ACTION_ORDER[i] & 1) { ACTION_PICK[m] = (uint8_t)ACTION_ORDER[i]; break; }
    }
}

static inline int next_seat(const Game *g, int p, int d) { return g->next[d > 0][p]; }

static void link_seats(Game *g) {
    if (g->alive_n == 0) return;
    for (int p = 0; p < g->n; p++)
        for (int d = -1; d <= 1; d += 2) {
            int q = p;
            do q = (q + d + g->n) % g->n; while (g->lives[q] <= 0);
            g->next[d > 0][p] = (int8_t)q;
        }
}

static inline void give(Game *g, int p, int card) {
    g->hand[p][card]++;
    g->hand_n[p]++;
    g->held[p] |= 1u << card;
}

static inline int take(Game *g, int p, int card) {  /* the cards p has left */
    int left_of_kind = --g->hand[p][card];
    g->held[p] &= ~((uint32_t)(left_of_kind == 0) << card);   /* no branch to mispredict */
    return --g->hand_n[p];
}

static inline int game_over(const Game *g) { return g->alive_n == 1; }  /* rule 10; no blitz */

/* Deal the top m cards of a (a[top], a[top-1], ...) one at a time from the seat after p in
 * direction d, round the seats still in, into empty hands: the j-th seat in that order gets
 * the cards j, j + alive, ... from the top (one seat at a time, its mask and count kept in
 * registers). */
static inline void deal(Game *g, const uint8_t *a, int top, int m, int p, int d) {
    int q = p, alive = g->alive_n;
    for (int j = 0; j < alive; j++) {
        q = next_seat(g, q, d);
        uint32_t held = 0;
        int c = 0;
        for (int i = top - j; i > top - m; i -= alive) {
            g->hand[q][a[i]]++;
            held |= 1u << a[i];
            c++;
        }
        g->hand_n[q] = c;
        g->held[q] = held;
    }
}

static void start_round(Game *g) {
    memcpy(g->stock, g->sorted, (size_t)g->deck);
    memset(g->hand, 0, sizeof g->hand);
    memset(g->hand_n, 0, sizeof g->hand_n);
    memset(g->held, 0, sizeof g->held);
    g->pile_n = 0;
    shuffle(g->stock, g->deck, &g->rng);
    int m = g->alive_n * HAND_SIZE;
    deal(g, g->stock, g->deck - 1, m, g->dealer, 1);
    g->stock_n = g->deck - m;
    g->dir = 1;
    g->cur = next_seat(g, g->dealer, 1);
    g->rounds++;
}

static void next_round(Game *g) {
    g->dealer = next_seat(g, g->dealer, 1);
    start_round(g);
}

/* Rule 10: out at once; the hand goes under the stock, kinds ascending. */
static void eliminate(Game *g, int p) {
    g->out_at[p] = g->turns;
    g->alive_n--;
    link_seats(g);
    int c = g->hand_n[p];
    if (c > 0) {
        memmove(g->stock + c, g->stock, (size_t)g->stock_n);
        int pos = 0;
        for (uint32_t kinds = g->held[p]; kinds; kinds &= kinds - 1) {
            int k = __builtin_ctz(kinds);
            for (int i = 0; i < g->hand[p][k]; i++) g->stock[pos++] = (uint8_t)k;
            g->hand[p][k] = 0;
        }
        g->stock_n += c;
    }
    g->hand_n[p] = 0;
    g->held[p] = 0;
}

static inline void lose_life(Game *g, int p) {
    if (--g->lives[p] == 0) eliminate(g, p);
}

static void others_lose_life(Game *g, int p, int d) {
    for (int q = next_seat(g, p, d); q != p; q = next_seat(g, q, d)) lose_life(g, q);
}

/* Rule 8: the pile under its top card is shuffled into a new stock. */
static void draw(Game *g, int q) {
    if (g->stock_n == 0) {
        int m = g->pile_n - 1;
        if (m <= 0) return;
        memcpy(g->stock, g->pile, (size_t)m);
        g->pile[0] = g->pile[m];
        g->pile_n = 1;
        g->stock_n = m;
        shuffle(g->stock, m, &g->rng);
    }
    give(g, q, g->stock[--g->stock_n]);
}

/* Rule 9a: a hand emptied without playing ends the round; holders of cards lose a life.
 * Returns 1 when that ended the game. */
static int round_emptied(Game *g, int p) {
    int d = g->dir, q = p;
    for (int i = g->alive_n; i > 0; i--) {
        q = next_seat(g, q, d);
        if (g->hand_n[q] > 0) lose_life(g, q);
    }
    if (game_over(g)) return 1;
    next_round(g);
    return 0;
}

/* What a card's effect did to play: it goes on (the next seat moves), or it ended the round
 * (a new one has started) or the game. */
enum { PLAY_ON, ROUND_OVER, GAME_OVER };

/* Killer (the caller sets the total to 0): each other survivor in turn order discards a 0 or loses a life. */
static int killer(Game *g, int p, int d) {
    int emptied = 0;
    for (int q = next_seat(g, p, d); q != p; q = next_seat(g, q, d)) {
        if (g->hand[q][0] > 0) {
            emptied |= take(g, q, 0) == 0;
            g->pile[g->pile_n++] = 0;
        } else {
            lose_life(g, q);
        }
    }
    if (game_over(g)) return GAME_OVER;
    if (emptied) return round_emptied(g, p) ? GAME_OVER : ROUND_OVER;
    return PLAY_ON;
}

/* Redeal (the caller sets the total to 0): every hand gathered (kinds ascending, seats ascending), shuffled and dealt
 * from the top starting after p in direction d. */
static int redeal(Game *g, int p, int d) {
    int m = 0;
    uint32_t kinds = 0;
    for (int q = 0; q < g->n; q++) kinds |= g->held[q];
    for (; kinds; kinds &= kinds - 1) {       /* cards of a kind are alike: count, then write */
        int k = __builtin_ctz(kinds), c = 0;
        for (int q = 0; q < g->n; q++) {
            c += g->hand[q][k];
            g->hand[q][k] = 0;
        }
        memset(g->scratch + m, k, (size_t)c);
        m += c;
    }
    memset(g->hand_n, 0, sizeof g->hand_n);
    memset(g->held, 0, sizeof g->held);
    shuffle(g->scratch, m, &g->rng);
    deal(g, g->scratch, m - 1, m, p, d);
    for (int q = 0; q < g->n; q++)
        if (g->lives[q] > 0 && g->hand_n[q] == 0)
            return round_emptied(g, p) ? GAME_OVER : ROUND_OVER;
    return PLAY_ON;
}

/* high_first: the highest number card that fits, else the first held action of ACTION_ORDER. */
static inline int high_first(uint32_t legal, uint32_t held) {
    uint32_t numbers = legal & NUMBERS_MASK;
    if (numbers) return 31 - __builtin_clz(numbers);
    return ACTION_PICK[held >> N_NUMBERS];
}

static void new_game(Game *g, int n) {
    memset(g, 0, sizeof *g);
    g->n = n;
    for (int k = 0; k < N_KINDS; k++)
        for (int i = 0; i < COUNTS[k]; i++) g->sorted[g->deck++] = (uint8_t)k;
}

/* Game `index` of `seed`, from its deal to its end. The seat to move and the total stay in
 * registers through the turns (stored every turn, each turn's reads would wait on the last
 * turn's stores); a new round, which sets both, is read back from the struct. */
static void play(Game *g, uint64_t seed, uint64_t index) {
    int n = g->n;
    g->rng = seed_game(seed, index, 0);
    for (int p = 0; p < n; p++) { g->lives[p] = LIVES0; g->out_at[p] = -1; }
    g->alive_n = n;
    g->turns = g->rounds = g->busts = g->unfinished = 0;
    g->dealer = n - 1;
    link_seats(g);
    start_round(g);
    for (int p = 0; p < n; p++) g->dealt[p] = g->held[p];
    int cur = g->cur, total = 0;
    for (;;) {
        if (g->turns >= TURN_CAP) { g->unfinished = 1; return; }    /* rule 12 */
        int p = cur;
        uint32_t held = g->held[p];
        uint32_t legal = held & PLAYABLE[total];
        if (legal == 0) {                                            /* rule 5: bust */
            g->turns++;
            g->busts++;
            total = 0;
            lose_life(g, p);
            if (game_over(g)) return;
            cur = next_seat(g, p, g->dir);
            continue;
        }
        int card = high_first(legal, held);
        int left = take(g, p, card);                                 /* rule 3a */
        g->pile[g->pile_n++] = (uint8_t)card;
        g->turns++;
        if (left == 0) {                   /* rule 9: the last card's effect is not resolved */
            others_lose_life(g, p, g->dir);
            if (game_over(g)) return;
            next_round(g);
            cur = g->cur;
            total = 0;
            continue;
        }
        int d = g->dir, after = p;         /* the seat after `after` plays next */
        if (card < N_NUMBERS) {
            total += card;
        } else {                           /* rule 6 */
            int r = PLAY_ON;
            switch (card) {
            case PASS: break;
            case SKIP: after = next_seat(g, p, d); break;
            case REVERSE: if (g->alive_n > 2) g->dir = d = -d; break;  /* with two: a Pass */
            case SET21: total = 21; break;
            case SET10: total = 10; break;
            case SET0: total = 0; break;
            case DRAW1: case DRAW2:
                for (int q = next_seat(g, p, d); q != p; q = next_seat(g, q, d))
                    for (int i = card == DRAW1 ? 1 : 2; i > 0; i--) draw(g, q);
                break;
            case KILLER: total = 0; r = killer(g, p, d); break;
            case LIFE: others_lose_life(g, p, d); if (game_over(g)) r = GAME_OVER; break;
            case REDEAL: total = 0; r = redeal(g, p, d); break;
            }
            if (r == GAME_OVER) return;
            if (r == ROUND_OVER) { cur = g->cur; total = 0; continue; }
        }
        cur = next_seat(g, after, d);
    }
}

/* Seat p's ranking key (higher ranks higher): lives in an unfinished game, else the survivor
 * above everyone and the others by when they went out. */
static long long key(const Game *g, int p) {
    return g->unfinished ? g->lives[p] : g->lives[p] > 0 ? 1ll << 40 : g->out_at[p];
}

#define MIN_PLAYERS 2
#define N_COLUMNS 4

static void start(Game *g, int n) {
    init_tables();
    new_game(g, n);
}

static void columns(const Game *g, long long *out) {
    out[0] = g->rounds;
    out[1] = g->turns;
    out[2] = g->busts;
    out[3] = g->unfinished;
}

static void print_seat(const Game *g, int p, int r) {
    printf(" %d %d %d %u", r == 1 && !g->unfinished, r, g->lives[p], g->dealt[p]);
}

#include "yardstick_main.h"
