/* tdoku_file.c - the yardstick driver of bench/sudoku.sh: every puzzle of a
 * file (an 81-character line each) through tdoku's public API with limit 2,
 * the uniqueness check csearch's batches make; prints one JSON line with
 * the counts and tdoku's own guesses per puzzle (one per branch point).
 * Built by the script against a local tdoku build (never vendored):
 *   cc -O3 -march=native bench/tdoku_file.c TDOKU/build/libtdoku_static.a
 *      -I TDOKU/include -lstdc++
 */
#include <stdio.h>
#include <string.h>

#include "tdoku.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tdoku_file PUZZLES.txt\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char line[1024], solution[82];
    size_t puzzles = 0, unique = 0, multiple = 0, none = 0, guesses = 0;
    while (fgets(line, sizeof line, f)) {
        if (strlen(line) < 81)
            continue;
        size_t g = 0;
        size_t count = TdokuSolverDpllTriadSimd(line, 2, 0, solution, &g);
        guesses += g;
        puzzles++;
        if (count == 1)
            unique++;
        else if (count == 0)
            none++;
        else
            multiple++;
    }
    fclose(f);
    printf("{\"summary\": {\"instances\": %zu, \"unique\": %zu, "
           "\"multiple\": %zu, \"no_solution\": %zu, "
           "\"guesses_per_instance\": %.2f}}\n",
           puzzles, unique, multiple, none,
           puzzles ? (double)guesses / (double)puzzles : 0.0);
    return 0;
}
