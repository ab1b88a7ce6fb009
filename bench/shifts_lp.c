/* shifts_lp.c - the shifts model's LP bound (column generation,
 * models/shifts/colgen.c) of benchmark instances, one line each:
 *   shifts_lp SECONDS [-i DIVE_SECONDS] [-b BP_SECONDS] [-t THREADS]
 *             Instance1.txt ...
 * instance, the best Lagrangian value, its ceiling, the restricted
 * master's last value, rounds, columns, seconds, and whether the LP was
 * solved and every row priced by all its rules; with -i, the dive's roster
 * (colgen.c): its cost as the checker
 * (check.c) counts it (or 'illegal' / 'none'), and its seconds; with -b,
 * after them, branch and price (colbranch.c, half of BP_SECONDS) and
 * unless proven large neighbourhoods of its roster (shf_cg_lns): whether
 * the roster was proven optimal, the least any roster costs, the nodes,
 * columns and seconds of the branching, then the neighbourhoods' windows,
 * those that found a cheaper roster, and their seconds (the roster column
 * then holds the best of all). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "shifts/colgen.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: shifts_lp SECONDS [-i DIVE_SECONDS] "
                        "[-b BP_SECONDS] [-t THREADS] INSTANCE...\n");
        return 2;
    }
    double seconds = atof(argv[1]), ip = 0, bp = 0;
    int first = 2, threads = 1;
    for (; first + 2 < argc && argv[first][0] == '-'; first += 2)
        if (!strcmp(argv[first], "-i"))
            ip = atof(argv[first + 1]);
        else if (!strcmp(argv[first], "-b"))
            bp = atof(argv[first + 1]);
        else if (!strcmp(argv[first], "-t"))
            threads = atoi(argv[first + 1]);
    printf("instance\tbound\tceil\tmaster\trounds\tcolumns\tseconds\tsolved"
           "\texact%s%s\n",
           ip > 0 || bp > 0 ? "\troster\tdives\tdive_seconds" : "",
           bp > 0 ? "\tproven\tbp_bound\tnodes\tbp_columns\tbp_seconds"
                    "\tlns_windows\tlns_better\tlns_seconds"
                  : "");
    for (int i = first; i < argc; i++) {
        struct cs_error err = {0};
        struct shf_problem *p = shf_problem_new();
        struct shf_colgen cg;
        signed char *roster = NULL;
        if (shf_read_curtois(p, argv[i], &err) ||
            (roster = malloc((size_t)p->nstaff * (size_t)p->ndays),
             shf_colgen_prove(p, seconds, seconds + ip, seconds + ip + bp,
                              threads, roster, &cg, &err))) {
            char buf[1024];
            cs_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "shifts_lp: %s\n", buf);
            shf_problem_free(p);
            free(roster);
            return 1;
        }
        printf("%s\t%.4f\t%" PRId64 "\t%.4f\t%d\t%d\t%.2f\t%s\t%s", argv[i],
               cg.bound, cg.floor, cg.master, cg.rounds, cg.columns, cg.seconds,
               cg.solved ? "yes" : "no", cg.exact ? "yes" : "no");
        if (ip > 0 || bp > 0) {
            struct shf_report r;
            if (cg.roster_cost < 0)
                printf("\tnone");
            else if (shf_check(p, roster, &r) || r.total != cg.roster_cost)
                printf("\tillegal");
            else
                printf("\t%" PRId64, r.total);
            printf("\t%d", cg.dives);
            printf("\t%.2f", cg.dive_seconds);
        }
        if (bp > 0)
            printf("\t%s\t%" PRId64 "\t%" PRId64 "\t%d\t%.2f\t%d\t%d\t%.2f",
                   cg.bp_proven ? "yes" : "no", cg.bp_bound, cg.bp_nodes,
                   cg.bp_columns, cg.bp_seconds, cg.lns_windows, cg.lns_better,
                   cg.lns_seconds);
        printf("\n");
        fflush(stdout);
        free(roster);
        shf_problem_free(p);
    }
    return 0;
}
