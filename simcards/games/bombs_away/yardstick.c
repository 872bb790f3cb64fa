/* Bombs Away, every seat playing random, default rules (53 cards: four of each rank 2..A and a
 * joker, hands of 4, 30 points each, the tens rule, the duel's victim the player after the
 * answerer, a cap of 5,000 turns): a tight single-threaded C program, the yardstick of
 * `simcards bench bombs-away` (for information: what one core of this machine can do per turn).
 *
 * It plays exactly the games of
 *     simcards.simulate("bombs-away", ["random"] * n, games, seed=seed)
 * game by game: the same SplitMix64 generators seeded per game (simcards/rng.py: seed_game;
 * stream 0 deals, takes from the stock and picks the random cards of a 5 and a 9; stream 1 is
 * the strategies'), the same unbiased draws (Lemire), the same rules and order of events
 * (simcards/games/bombs_away/reference.py and fast.py, docs/rules/bombs-away.md) and the same
 * random choices (strategies/bombs_away/random.py: rand_below(number of allowed answers), then
 * the i-th allowed answer ascending; a question with one allowed answer draws nothing).
 * A shuffle draws nothing: as in the engines, the stock's unordered cards are left where they
 * lie and each card taken is drawn to the top at random among them (rng.draw_to_top), the
 * bottom `fixed` cards (a hand gone out, a 10 of the tens rule) lying in a known order and
 * taken last; so the stock is laid out exactly as the engine's (kinds ascending for a new deck
 * and a hand, pile order for a 7 and a refill), here in a 64-slot ring, since cards go under
 * it as well as onto it.
 *
 * What makes it tight (measured here, 4 players, 400,000 games of seed 0, 42.9 million turns,
 * alternated runs, CPU ns a turn): a hand is counts per kind in sixteen bytes with a bit mask
 * of the kinds held and its size beside it, so every question's allowed answers are a mask or
 * two (a 7, and a 6 on a 7, masked out on a short pile; an 8's name and the joker) and the
 * random choice is a popcount, one draw and a pdep (BMI2; else a loop clearing the low bits)
 * for the i-th set bit; the seats still in are a bit mask (a survivor count is a popcount, an
 * opponent mask an and-not) and the next seat still in, in either direction, is a table by
 * that mask (NEXT; it replaced a loop stepping round the table: 46.4 -> 42.6 ns); a card leaves
 * a hand without a branch on whether its kind ran out (43.1 ns alone; both, 38.2-39.8); the
 * ace's chain is a loop, not a recursion; everything is inlined into one function per game;
 * nothing is allocated per game. Callgrind counts about 325 instructions a turn (the engine's
 * kernel: 630). Tried and dropped: the hand, the stock and the pile as 16-bit cells, so that
 * their stores cannot alias the game's other fields for the compiler (no change), and a draw
 * back up without the empty-stock test per card when the stock holds enough (1-4% slower).
 * What is left is mostly the generator and the mispredicted branches of a random game: the
 * effect of a card chosen at random (one indirect jump a card) and the draws' loops.
 *
 * Usage: bombs_away SEED GAMES PLAYERS [check]
 *   without "check": one line "games cpu_seconds wall_seconds checksum" and the totals of the
 *     per-game columns below (CPU time of this process over the games alone);
 *   with "check": one line per game, "turns duels points_lost unfinished" followed, per seat,
 *     by "win rank points dealt_mask": the columns of simcards.simulate's frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE, JOKER,
       N_KINDS };
enum { MIN_PLAYERS = 2, MAX_PLAYERS = 5, DECK = 53, HAND_SIZE = 4, START_POINTS = 30,
       TURN_CAP = 5000, DUEL_VALUE = 10, SEVEN_MIN_PILE = 4, SEVEN_TAKES = 5 };
#define N_COLUMNS 4
#define RING 64                     /* the stock's ring: more than the deck, a power of two */
#define NAMEABLE 0x1F80u            /* kinds 9..A (7..12): what an 8 or a joker names */
/* rules.VALUE, the joker's (never looked up: a joker on the pile counts as its name) 0 */
static const int VALUE[N_KINDS] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1, 0};

#include "yardstick.h"         /* the generator (simcards/rng.py) and the clock */
#ifdef __BMI2__
#include <immintrin.h>
#endif

/* ------------------------------------------------------------------ the game */
typedef struct {
    int n, unfinished, over, turns, duels, points_lost;
    uint64_t rng, srng;              /* stream 0 (deal, stock, random cards), 1 (strategies) */
    uint8_t hand[MAX_PLAYERS][16];   /* counts per kind */
    uint32_t held[MAX_PLAYERS];      /* kinds with a positive count */
    int hn[MAX_PLAYERS];             /* cards in hand */
    int points[MAX_PLAYERS], out_order[MAX_PLAYERS], outs;
    uint32_t alive, dealt[MAX_PLAYERS];
    uint8_t stock[RING];             /* bottom card at sb, top at sb + sn - 1 (mod RING) */
    int sb, sn, fixed;
    uint8_t pile[DECK], eff[DECK];   /* kinds and what they count as, bottom first */
    int pn;
    int cw, must, skip;              /* cw: the direction is clockwise (seat + 1) */
} Game;

/* The random strategy: uniform among the allowed answers (mask), the i-th set bit ascending;
 * none or one allowed: no draw (-1 for none). */
static inline int choose(Game *g, uint32_t mask) {
    int c = __builtin_popcount(mask);
    if (c <= 1) return mask ? __builtin_ctz(mask) : -1;
    uint32_t i = below(&g->srng, (uint32_t)c);
#ifdef __BMI2__
    return __builtin_ctz(_pdep_u32(1u << i, mask));
#else
    while (i--) mask &= mask - 1;
    return __builtin_ctz(mask);
#endif
}

static inline void gain(Game *g, int p, int k) {
    g->hand[p][k]++;
    g->held[p] |= 1u << k;
    g->hn[p]++;
}

static inline void lose(Game *g, int p, int k) {      /* no branch: which kind runs out is chance */
    int left = --g->hand[p][k];
    g->held[p] &= ~((uint32_t)(left == 0) << k);
    g->hn[p]--;
}

/* The stock's top card (the stock is not empty): drawn at random among the unordered cards
 * above the `fixed` ones (rng.draw_to_top), else the top fixed card (engine.take_top). */
static inline int take_top(Game *g) {
    int sb = g->sb, top = --g->sn;
    if (top >= g->fixed) {
        int j = g->fixed + (int)below(&g->rng, (uint32_t)(top + 1 - g->fixed));
        uint8_t *a = &g->stock[(sb + j) & (RING - 1)], *t = &g->stock[(sb + top) & (RING - 1)];
        uint8_t c = *a;
        *a = *t;
        return c;                   /* the old top goes where the card was; the card is taken */
    }
    g->fixed--;
    return g->stock[(sb + top) & (RING - 1)];
}

static inline void to_top(Game *g, int k) { g->stock[(g->sb + g->sn++) & (RING - 1)] = (uint8_t)k; }

static inline void to_bottom(Game *g, int k) {
    g->sb = (g->sb - 1) & (RING - 1);
    g->stock[g->sb] = (uint8_t)k;
    g->sn++;
}

/* Rule 5: an empty stock is rebuilt from the pile less its top card; 0 if nothing to draw. */
static inline int draw(Game *g, int p) {
    if (g->sn == 0) {
        if (g->pn <= 1) return 0;
        int m = g->pn - 1;
        g->sb = 0;
        memcpy(g->stock, g->pile, (size_t)m);
        g->sn = m;
        g->fixed = 0;
        g->pile[0] = g->pile[m];
        g->eff[0] = g->eff[m];
        g->pn = 1;
    }
    gain(g, p, take_top(g));
    return 1;
}

static inline void draw_up(Game *g, int p) {
    while (g->hn[p] < HAND_SIZE && draw(g, p)) {}
}

/* Rule 4: each extra 10 goes under the stock and the top card comes instead, at most as many
 * times as the stock had cards. */
static inline void tens_rule(Game *g, int p) {
    if (__builtin_expect(g->hand[p][TEN] < 2, 1)) return;
    int tries = g->sn;
    while (g->hand[p][TEN] > 1 && tries > 0) {
        lose(g, p, TEN);
        to_bottom(g, TEN);
        g->fixed++;
        gain(g, p, take_top(g));
        tries--;
    }
}

/* A card of q's hand at random, uniform over its cards counted kinds ascending; -1 if none. */
static inline int random_card(Game *g, int q) {
    if (g->hn[q] == 0) return -1;
    int r = (int)below(&g->rng, (uint32_t)g->hn[q]);
    for (uint32_t m = g->held[q];; m &= m - 1) {
        int k = __builtin_ctz(m);
        r -= g->hand[q][k];
        if (r < 0) return k;
    }
}

static inline int top(const Game *g) { return g->pn ? g->eff[g->pn - 1] : -1; }

/* Rules 3, 12, 13: the cards p may play (must: a rank named by an 8, or -1). */
static inline uint32_t legal_cards(const Game *g, int p, int must) {
    uint32_t h = g->held[p];
    if (must >= 0) {
        uint32_t m = h & ((1u << must) | (1u << JOKER));
        if (m) return m;
    }
    if (g->pn < SEVEN_MIN_PILE) {
        h &= ~(1u << SEVEN);
        if (top(g) == SEVEN) h &= ~(1u << SIX);
    }
    return h;
}

/* NEXT[cw][alive][p]: the next seat after p still in (alive, a mask), clockwise (cw = 1) or
 * not; filled by start for the game's n. */
static uint8_t NEXT[2][1 << MAX_PLAYERS][MAX_PLAYERS];

static inline int next_player(const Game *g, int p) { return NEXT[g->cw][g->alive][p]; }

static inline void push_pile(Game *g, int kind, int counts_as) {
    g->pile[g->pn] = (uint8_t)kind;
    g->eff[g->pn++] = (uint8_t)counts_as;
}

/* Rule 17: the hand goes under the stock, kinds ascending (the last kind lowest down first). */
static void eliminate(Game *g, int c) {
    g->out_order[c] = g->outs++;
    g->alive &= ~(1u << c);
    g->fixed += g->hn[c];
    for (int k = N_KINDS - 1; k >= 0; k--)
        for (int i = g->hand[c][k]; i > 0; i--) to_bottom(g, k);
    memset(g->hand[c], 0, 16);
    g->held[c] = 0;
    g->hn[c] = 0;
}

/* Rule 16: B answers with any card (no effect), draws back up; C loses the difference. */
static inline void duel(Game *g, int p) {
    g->duels++;
    int b = next_player(g, p);
    int victim = __builtin_popcount(g->alive) == 2 ? b : next_player(g, b);
    int answer = choose(g, g->held[b]);
    int value = 0;
    if (answer >= 0) {
        lose(g, b, answer);
        int counts_as = answer;
        if (answer == JOKER) counts_as = choose(g, NAMEABLE);
        else if (answer == SIX) counts_as = top(g);
        push_pile(g, answer, counts_as);
        value = VALUE[counts_as];
    }
    draw_up(g, b);
    tens_rule(g, b);
    int damage = DUEL_VALUE - value;
    if (damage > 0) {
        g->points[victim] -= damage;
        g->points_lost += damage;
        if (g->points[victim] <= 0) {
            eliminate(g, victim);
            if (__builtin_popcount(g->alive) == 1) g->over = 1;
        }
    }
}

/* A card played by p (must: the 8's name it is under, or -1): onto the pile, then its effect
 * (rules 6-16); an ace's extra card loops round. */
static inline void play_card(Game *g, int p, int card, int must) {
    for (;;) {
        lose(g, p, card);
        int counts_as;
        if (card == JOKER) {                                         /* rule 15 */
            counts_as = choose(g, must >= 0 ? 1u << must : NAMEABLE);
            push_pile(g, JOKER, counts_as);
        } else {
            counts_as = card == SIX && g->pn ? top(g) : card;      /* rule 11 */
            push_pile(g, card, counts_as);
        }
        switch (counts_as) {
        case ACE:                                                    /* rule 6 */
            card = choose(g, legal_cards(g, p, -1));
            if (card < 0) return;
            must = -1;
            continue;
        case TWO:                                                    /* rule 7 */
            g->skip = 1;
            return;
        case THREE:                                                  /* rule 8 */
            if (__builtin_popcount(g->alive) > 2) g->cw ^= 1;
            return;
        case FOUR: {                                                 /* rule 9 */
            for (uint32_t m = g->held[p]; m; m &= m - 1) {
                int k = __builtin_ctz(m);
                for (int i = g->hand[p][k]; i > 0; i--) to_top(g, k);
            }
            memset(g->hand[p], 0, 16);
            g->held[p] = 0;
            g->hn[p] = 0;
            g->fixed = 0;
            for (int i = 0; i < HAND_SIZE; i++)
                if (!draw(g, p)) break;
            tens_rule(g, p);
            return;
        }
        case FIVE: {                                                 /* rule 10 */
            int q = choose(g, g->alive & ~(1u << p));
            int c = random_card(g, q);
            if (c < 0) return;
            lose(g, q, c);
            gain(g, p, c);
            tens_rule(g, p);
            draw(g, q);
            tens_rule(g, q);
            return;
        }
        case SEVEN: {                                                /* rule 12 */
            int from = g->pn - SEVEN_TAKES;
            for (int i = from; i < g->pn; i++) to_top(g, g->pile[i]);
            g->pn = from;
            g->fixed = 0;
            return;
        }
        case EIGHT:                                                  /* rule 13 */
            g->must = choose(g, NAMEABLE);
            return;
        case NINE: {                                                 /* rule 14 */
            int q = choose(g, g->alive & ~(1u << p));
            int from_q = random_card(g, q), from_p = random_card(g, p);
            if (from_q >= 0) { lose(g, q, from_q); gain(g, p, from_q); }
            if (from_p >= 0) { lose(g, p, from_p); gain(g, q, from_p); }
            tens_rule(g, p);
            tens_rule(g, q);
            return;
        }
        case TEN: case JACK: case QUEEN: case KING:                  /* rule 16 */
            duel(g, p);
            return;
        default:                                                     /* a plain 6 */
            return;
        }
    }
}

static void play(Game *g, uint64_t seed, uint64_t index) {
    int n = g->n;
    g->rng = seed_game(seed, index, 0);
    g->srng = seed_game(seed, index, 1);
    g->unfinished = g->over = g->turns = g->duels = g->points_lost = 0;
    g->outs = 0;
    g->alive = (1u << n) - 1;
    memset(g->hand, 0, sizeof g->hand);
    for (int p = 0; p < n; p++) {
        g->held[p] = 0;
        g->hn[p] = 0;
        g->points[p] = START_POINTS;
        g->out_order[p] = -1;
    }
    /* rule 1: a new deck, kinds ascending, shuffled; one card at a time from seat 0 */
    int d = 0;
    for (int k = 0; k < JOKER; k++)
        for (int i = 0; i < 4; i++) g->stock[d++] = (uint8_t)k;
    g->stock[d++] = JOKER;
    g->sb = 0;
    g->sn = DECK;
    g->fixed = 0;
    g->pn = 0;
    g->cw = 1;
    g->must = -1;
    g->skip = 0;
    for (int i = 0; i < HAND_SIZE; i++)
        for (int p = 0; p < n; p++) gain(g, p, take_top(g));
    for (int p = 0; p < n; p++) tens_rule(g, p);
    for (int p = 0; p < n; p++) g->dealt[p] = g->held[p];

    int p = 0;
    for (;;) {
        if (g->turns >= TURN_CAP) {                                  /* rule 18 */
            g->unfinished = 1;
            return;
        }
        g->turns++;
        int must = g->must;
        int card = choose(g, legal_cards(g, p, must));
        g->must = -1;
        if (card >= 0) {
            play_card(g, p, card, must);
            if (g->over) return;
        }
        draw_up(g, p);                                               /* rule 3 */
        tens_rule(g, p);
        int q = next_player(g, p);
        if (g->skip) {                                               /* rule 7 */
            g->skip = 0;
            q = next_player(g, q);
        }
        p = q;
    }
}

/* Still in: above everyone out, by points (ties share a rank); out: the later, the better. */
static inline long long key(const Game *g, int p) {
    return g->alive >> p & 1 ? (1ll << 40) + g->points[p] : g->out_order[p];
}


static void columns(const Game *g, long long *out) {
    out[0] = g->turns;
    out[1] = g->duels;
    out[2] = g->points_lost;
    out[3] = g->unfinished;
}

static void start(Game *g, int n) {
    memset(g, 0, sizeof *g);
    g->n = n;
    for (int cw = 0; cw < 2; cw++)
        for (uint32_t alive = 1; alive < 1u << n; alive++)
            for (int p = 0; p < n; p++) {
                int q = p;
                do q = cw ? (q + 1) % n : (q + n - 1) % n; while (!(alive >> q & 1));
                NEXT[cw][alive][p] = (uint8_t)q;
            }
}

static void print_seat(const Game *g, int p, int r) {
    int win = r == 1 && !g->unfinished && (g->alive >> p & 1);
    printf(" %d %d %d %u", win, r, g->points[p], g->dealt[p]);
}

#include "yardstick_main.h"
