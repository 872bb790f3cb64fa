/* What the C yardsticks share (simcards.yardstick): the engine's generator, SplitMix64 seeded
 * per game and stream (simcards/rng.py), its unbiased draws, and the clock the games are timed by.
 * Included by five_alive.c and thirty_one.c; the build hashes it with the program's source. */
#ifndef SIMCARDS_YARDSTICK_H
#define SIMCARDS_YARDSTICK_H
#include <stdint.h>
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

/* CPU or wall seconds of a clock (CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC). */
static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
