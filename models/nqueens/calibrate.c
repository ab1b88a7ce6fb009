/* calibrate.c - the N-Queens kernels' variants, chosen on the machine that
 * runs them: the instruction set CSEARCH_ISA asks for, or the fastest one
 * measured on a few of the kernel's own units (cs_fastest).
 *
 * No variant is fastest everywhere: the halves kernel's AVX-512 matcher is
 * 1.4x slower than its AVX2 one on AMD Zen 4 (512-bit instructions run as
 * two 256-bit halves there, and its 48 KiB tables outgrow Zen 4's 32 KiB
 * first-level cache), not on Zen 5.  So the variants run the same sample of
 * the real work, and the counts never depend on which one won: every
 * variant gives the same totals (tests/test_nqueens_halves.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens/halves.h"
#include "nqueens/internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_X86 1
#else
#define NQ_X86 0
#endif

#define SAMPLE 64 /* units a piece of work is taken from */

/* ---- what the environment asks for ------------------------------------- */

/* The feature of `isa` this processor lacks, or NULL. */
static const char *missing(enum nq_isa isa)
{
#if NQ_X86
    __builtin_cpu_init();
    if (isa >= NQ_ISA_AVX2 && !__builtin_cpu_supports("avx2"))
        return "avx2";
    if (isa >= NQ_ISA_AVX2 && !__builtin_cpu_supports("popcnt"))
        return "popcnt";
    if (isa >= NQ_ISA_AVX512 && !__builtin_cpu_supports("avx512f"))
        return "avx512f";
    if (isa >= NQ_ISA_AVX512 && !__builtin_cpu_supports("avx512cd"))
        return "avx512cd";
    if (isa >= NQ_ISA_AVX512 && !__builtin_cpu_supports("avx512vpopcntdq"))
        return "avx512vpopcntdq";
    return NULL;
#else
    return isa == NQ_ISA_SCALAR ? NULL : "x86-64";
#endif
}

const char *nq_isa_env(enum nq_isa *isa, bool *set, char *msg, size_t size)
{
    const char *v = getenv("CSEARCH_ISA");
    *set = v && *v;
    *isa = NQ_ISA_AVX512;
    if (!*set)
        return NULL;
    for (int i = NQ_ISA_SCALAR; i <= NQ_ISA_AVX512; i++)
        if (!strcmp(v, nq_isa_name((enum nq_isa)i))) {
            *isa = (enum nq_isa)i;
            const char *lack = missing(*isa);
            if (!lack)
                return NULL;
            snprintf(msg, size,
                     "CSEARCH_ISA=%s: this processor lacks %s (it runs %s)", v,
                     lack,
                     !missing(NQ_ISA_AVX512) ? "avx512"
                     : !missing(NQ_ISA_AVX2) ? "avx2, scalar"
                                             : "scalar only");
            return msg;
        }
    snprintf(msg, size,
             "CSEARCH_ISA=%s: unknown instruction set (avx512, avx2 or "
             "scalar)",
             v);
    return msg;
}

/* ---- a sample of units ------------------------------------------------- */

/* SAMPLE units spread over [0, count), in an order whose every prefix is
 * spread too (bit-reversed positions): a piece of any size is a fair
 * sample.  Returns how many (fewer when count is smaller). */
static int sample(uint64_t count, uint64_t *out)
{
    int taken = 0;
    for (int i = 0; i < SAMPLE; i++) {
        int r = 0;
        for (int b = 0; b < 6; b++)
            r |= (i >> b & 1) << (5 - b);
        uint64_t u = (uint64_t)r * count / SAMPLE;
        bool seen = false;
        for (int j = 0; j < taken; j++)
            seen |= out[j] == u;
        if (!seen && u < count)
            out[taken++] = u;
    }
    return taken;
}

/* ---- the halves kernel's matcher ---------------------------------------- */

struct halves_trial {
    const struct nq_halves *k;
    enum nq_isa isa[3];
    uint64_t reps[SAMPLE];
};

static void halves_piece(void *ctx, int variant, int size)
{
    const struct halves_trial *t = ctx;
    struct nq_halves k = *t->k;
    k.isa = t->isa[variant];
    for (int i = 0; i < size; i++)
        (void)nq_halves_count_split(&k, t->reps[i]);
}

const char *nq_halves_choose(struct nq_halves *k, enum nq_isa isa, bool set)
{
    if (set) {
        k->isa = isa;
        return "CSEARCH_ISA";
    }
    /* AVX2 first: the piece is sized on it, not on the slow plain C */
    static const enum nq_isa order[] = {NQ_ISA_AVX2, NQ_ISA_AVX512,
                                        NQ_ISA_SCALAR};
    struct halves_trial t = {.k = k};
    int count = 0;
    for (int i = 0; i < 3; i++)
        if (!missing(order[i]))
            t.isa[count++] = order[i];
    if (count == 1) {
        k->isa = t.isa[0];
        return "only";
    }
    int size = sample(k->reps, t.reps);
    k->isa = t.isa[cs_fastest(count, halves_piece, &t, size, NULL)];
    return "measured";
}

/* ---- the border kernel's interior search --------------------------------- */

struct d4_trial {
    const struct nq_d4 *k;
    uint64_t units[SAMPLE];
};

static void d4_piece(void *ctx, int variant, int size)
{
    const struct d4_trial *t = ctx;
    struct nq_d4 k = *t->k;
    k.lanes = variant == 0;
    struct cs_stats st;
    for (int i = 0; i < size; i++)
        (void)nq_d4_count_unit(&k, t->units[i], NULL, &st);
}

const char *nq_d4_choose(struct nq_d4 *k, enum nq_isa isa, bool set)
{
    if (set) {
        k->lanes = k->lanes && isa == NQ_ISA_AVX512;
        return "CSEARCH_ISA";
    }
    if (!nq_d4_lanes_supported())
        return "only";
    if (!k->lanes)
        return "CSEARCH_NQ_LANES";
    struct d4_trial t = {.k = k};
    int size = sample(k->count, t.units);
    k->lanes = cs_fastest(2, d4_piece, &t, size, NULL) == 0;
    return "measured";
}
