/* What the C yardsticks share (simcards.yardstick): the engine's generator, SplitMix64 seeded
 * per game and stream (simcards/rng.py), its unbiased draws and shuffle, the clock the games are
 * timed by, and the command line. (yardstick_main.h, included last, is every program's main.)
 * Included by every game's program (yardstick.c in the game's package, simcards/games/<game>/,
 * found with -I); the build hashes it with the program's source. */
#ifndef SIMCARDS_YARDSTICK_H
#define SIMCARDS_YARDSTICK_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ SplitMix64 */
#define GOLDEN 0x9E3779B97F4A7C15ull
#define STREAM 0xD1B54A32D192ED03ull

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t seed_game(uint64_t seed, uint64_t game, uint64_t stream) {
    return mix(mix(seed + stream * STREAM) + game * GOLDEN);
}

/* A uniform integer in [0, n), 0 < n < 2**32, without bias (Lemire), as rng._below. */
static inline uint32_t below(uint64_t *x, uint32_t n) {
    *x += GOLDEN;
    uint64_t m = (mix(*x) >> 32) * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)(0x100000000ull - n) % n;
        while ((uint32_t)m < t) {
            *x += GOLDEN;
            m = (mix(*x) >> 32) * n;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Fisher-Yates from the last position down (rng.shuffle_range). The draws do not depend on
 * the swaps, so the core overlaps them; measured here, this loop beat computing every draw
 * first as the engines do (rng.shuffle_range_ahead): 205-235 ns against 230-265 per 77 cards
 * (Five Alive), 303 against 445 ns for a Vzhukh game's three shuffles of 92. */
static inline void shuffle(uint8_t *a, int n, uint64_t *x) {
    for (int i = n - 1; i > 0; i--) {
        uint32_t j = below(x, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* CPU or wall seconds of a clock (CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC). */
static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The command line every yardstick takes: SEED GAMES PLAYERS [check]. */
typedef struct { uint64_t seed; long games; int n, check; } Args;

/* 0 with `a` filled, or 2 (the exit code) after a line on stderr. */
static int parse_args(int argc, char **argv, int min_players, int max_players, Args *a) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s SEED GAMES PLAYERS [check]\n", argv[0]);
        return 2;
    }
    a->seed = strtoull(argv[1], NULL, 10);
    a->games = strtol(argv[2], NULL, 10);
    a->n = atoi(argv[3]);
    a->check = argc > 4 && strcmp(argv[4], "check") == 0;
    if (a->n < min_players || a->n > max_players || a->games < 0) {
        fprintf(stderr, "players must be %d..%d; games >= 0\n", min_players, max_players);
        return 2;
    }
    return 0;
}

#endif
