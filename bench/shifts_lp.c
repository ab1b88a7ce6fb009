/* shifts_lp.c - the shifts model's LP bound (column generation,
 * models/shifts/colgen.c) of benchmark instances, one line each:
 *   shifts_lp SECONDS Instance1.txt ...
 * instance, the best Lagrangian value, its ceiling, the restricted
 * master's last value, rounds, columns, seconds, and whether the LP was
 * solved and every row priced by all its rules. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "shifts/colgen.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: shifts_lp SECONDS INSTANCE...\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    printf("instance\tbound\tceil\tmaster\trounds\tcolumns\tseconds\tsolved"
           "\texact\n");
    for (int i = 2; i < argc; i++) {
        struct cs_error err = {0};
        struct shf_problem *p = shf_problem_new();
        struct shf_colgen cg;
        if (shf_read_curtois(p, argv[i], &err) ||
            shf_colgen_run(p, seconds, &cg, &err)) {
            char buf[1024];
            cs_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "shifts_lp: %s\n", buf);
            shf_problem_free(p);
            return 1;
        }
        printf("%s\t%.4f\t%" PRId64 "\t%.4f\t%d\t%d\t%.2f\t%s\t%s\n", argv[i],
               cg.bound, cg.floor, cg.master, cg.rounds, cg.columns, cg.seconds,
               cg.solved ? "yes" : "no", cg.exact ? "yes" : "no");
        fflush(stdout);
        shf_problem_free(p);
    }
    return 0;
}
