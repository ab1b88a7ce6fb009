/* output_impl.h - what output.c (a run's boards and results) calls in the
 * files of one format each; none of them calls output.c back.
 */
#ifndef CSEARCH_OUTPUT_IMPL_H
#define CSEARCH_OUTPUT_IMPL_H

#include "output.h"

/* ---- output_columns.c: output.format columns ---------------------------- */

/* Would the model's board of this problem be too large to draw? */
bool out_board_too_large(const struct out *o, const struct cs_hooks *hooks);
/* One solution as a line per variable, its value from 1, to o->sol. */
void out_columns(struct out *o, const struct cs_hooks *hooks,
                 const void *state);

/* ---- output_csv.c: output.format csv ------------------------------------ */

/* o->board as a row (the header before the first); the end of a count (a
 * header and its row); an instance of a batch (rows: those printed). */
void out_csv_board(struct out *o);
void out_csv_end(struct out *o, const struct cs_result *r);
void out_csv_batch_result(struct out *o, const struct cs_batch_result *r,
                          const char *outcome, uint64_t rows);

/* ---- output_html.c: output.format html ---------------------------------- */

/* One page, of the first board shown: the model's own (board.page) as it
 * wrote it, or the board's lines in a page of the module's.  At the end, a
 * run that showed no board writes a page that says why. */
void out_html_board(struct out *o);
void out_html_end(struct out *o, const struct cs_result *r);

/* ---- output_profile.c: the per-level profile (--profile) ----------------- */

/* count levels from the root, as a text table or as the JSON member
 * "profile" (after a comma: it follows other members); rows: what a depth
 * is in a kernel's tree (cs_problem.profile_rows), or NULL. */
void out_profile_text(FILE *out, const struct cs_level *levels, int count,
                      const char *rows);
void out_profile_json(FILE *out, const struct cs_level *levels, int count,
                      const char *rows);

/* ---- output_estimate.c: task estimate's result -------------------------- */

void out_estimate_end(struct out *o, const struct cs_result *r);

#endif
