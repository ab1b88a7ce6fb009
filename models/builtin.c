/* builtin.c - the models that ship with csearch, registered by name. */
#include "csearch/registry.h"
#include "flatzinc/flatzinc.h"
#include "nqueens/nqueens.h"
#include "shifts/shifts.h"
#include "sudoku/sudoku.h"

static const struct cs_model *const builtin[] = {
    &cs_nqueens_model,
    &cs_sudoku_model,
    &cs_shifts_model,
    &cs_flatzinc_model,
};

int cs_register_builtin_models(struct cs_registry *reg, struct cs_error *err)
{
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
        if (cs_registry_add(reg, builtin[i], err))
            return -1;
    return 0;
}
