/* board.c - a solution as a list of text lines (struct cs_board).
 *
 * The board owns its lines; cs_board_clear keeps the array for reuse so a
 * search that emits many solutions allocates its line array once.
 */
#include <stdlib.h>

#include "csearch/model.h"

void cs_board_add(struct cs_board *board, const char *line)
{
    if (board->count == board->cap) {
        board->cap = board->cap ? 2 * board->cap : 16;
        board->lines =
            cs_xrealloc(board->lines, board->cap * sizeof *board->lines);
    }
    board->lines[board->count++] = cs_xstrdup(line);
}

void cs_board_clear(struct cs_board *board)
{
    for (size_t i = 0; i < board->count; i++)
        free(board->lines[i]);
    board->count = 0;
}

void cs_board_free(struct cs_board *board)
{
    if (!board)
        return;
    cs_board_clear(board);
    free(board->lines);
    board->lines = NULL;
    board->cap = 0;
}
