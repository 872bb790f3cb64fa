/* Every yardstick's main (simcards.yardstick), included at the end of the program, after what it
 * uses is defined:
 *   MIN_PLAYERS, MAX_PLAYERS, N_COLUMNS;
 *   Game, a struct with an int `unfinished`;
 *   void start(Game *g, int n): g ready for games of n players (and the program's tables);
 *   void play(Game *g, uint64_t seed, uint64_t game): game `game` of the seed, played into g;
 *   void columns(const Game *g, long long out[N_COLUMNS]): its per-game columns, the frame's order;
 *   long long key(const Game *g, int p): seat p's ranking key, higher ranking higher;
 *   void print_seat(const Game *g, int p, int rank): " win rank ..." seat p's columns, the frame's
 *     order after win and rank.
 * Usage: PROGRAM SEED GAMES PLAYERS [check]
 *   without "check": one line "games cpu_seconds wall_seconds checksum" and the totals of the
 *     per-game columns (CPU time of this process over the games alone); every game's winners are
 *     folded into the checksum, so that no game's result can be left uncomputed;
 *   with "check": one line per game, its columns, then each seat's (simcards.yardstick parses both). */
#ifndef SIMCARDS_YARDSTICK_MAIN_H
#define SIMCARDS_YARDSTICK_MAIN_H

/* Rank 1 + the seats with a strictly higher key (simcards.engine.rank_from_key): tied seats
 * share a rank, and every seat ranked 1 wins. */
static int rank(const Game *g, int p) {
    int better = 0;
    long long mine = key(g, p);
    for (int q = 0; q < g->n; q++) better += key(g, q) > mine;
    return better + 1;
}

int main(int argc, char **argv) {
    Args args;
    if (parse_args(argc, argv, MIN_PLAYERS, MAX_PLAYERS, &args)) return 2;
    uint64_t seed = args.seed;
    long games = args.games;
    int n = args.n;
    static Game g;
    start(&g, n);
    long long col[N_COLUMNS], total[N_COLUMNS] = {0};
    if (args.check) {
        for (long i = 0; i < games; i++) {
            play(&g, seed, (uint64_t)i);
            columns(&g, col);
            for (int k = 0; k < N_COLUMNS; k++) printf(k ? " %lld" : "%lld", col[k]);
            for (int p = 0; p < n; p++) print_seat(&g, p, rank(&g, p));
            putchar('\n');
        }
        return 0;
    }
    uint64_t checksum = 0;
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID), wall = seconds(CLOCK_MONOTONIC);
    for (long i = 0; i < games; i++) {
        play(&g, seed, (uint64_t)i);
        columns(&g, col);
        for (int k = 0; k < N_COLUMNS; k++) total[k] += col[k];
        uint64_t winners = 0;
        for (int p = 0; p < n && !g.unfinished; p++)
            if (rank(&g, p) == 1) winners |= 1u << p;
        checksum = checksum * 31 + winners;
    }
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    wall = seconds(CLOCK_MONOTONIC) - wall;
    printf("%ld %.9f %.9f %llu", games, cpu, wall, (unsigned long long)checksum);
    for (int k = 0; k < N_COLUMNS; k++) printf(" %lld", total[k]);
    putchar('\n');
    return 0;
}

#endif
