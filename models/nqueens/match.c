/* match.c - count the pairs of masks with no bit in common, the join of the
 * halves kernel, on bit-sliced tables; and the instruction sets' names.
 *
 * Patterns go 512 at a time into a table: bit p of slice j says pattern p
 * has bit j clear.  For each 7-bit chunk k of a mask and each of its 128
 * values v, entry[k][v] is the AND of the slices of v's bits (and entry 0
 * the patterns present), so the patterns disjoint from an item x are the
 * AND of entry[k][chunk k of x] over its chunks: 5 ANDs (n = 18) or 6
 * (n = 20..23; one fewer on the keys classes.c leaves) and a popcount of
 * 512 bits settle 512 pairs.  A table holds the chunks its masks need, 8 KiB
 * each (48 KiB for 42 bits, 64 KiB for the 56 of n = 24..27), and stays in
 * the first- or second-level cache while the items stream past it.
 * Three builds of the inner loop: AVX-512 (F and VPOPCNTDQ), AVX2 and plain
 * C; all give the same counts.  (6-bit chunks were 1.6x slower at n = 18.)
 */
#include <stdlib.h>
#include <string.h>

#include "nqueens/halves.h"

#define GROUP 512
#define CHUNK 7
#define ENTRIES (1 << CHUNK)
#define CMASK (ENTRIES - 1)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_X86 1
#include <immintrin.h>
#else
#define NQ_X86 0
#endif

/* Sized by nq_table_new for its chunks: e[k] only for k < chunks(bits). */
struct nq_table {
    int bits; /* the widest mask it takes */
    _Alignas(64) uint64_t e[][ENTRIES][8];
};

/* ---- the instruction sets ----------------------------------------------- */

static const char *const isa_names[] = {"scalar", "avx2", "avx512"};

const char *nq_isa_name(enum nq_isa isa)
{
    return isa_names[isa];
}

enum nq_isa nq_match_isa(enum nq_isa cap)
{
#if NQ_X86
    __builtin_cpu_init();
    if (cap >= NQ_ISA_AVX512 && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        return NQ_ISA_AVX512;
    if (cap >= NQ_ISA_AVX2 && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("popcnt"))
        return NQ_ISA_AVX2;
#else
    (void)cap;
#endif
    return NQ_ISA_SCALAR;
}

/* ---- building a table ---------------------------------------------------- */

/* The table of pats[0..np), np <= GROUP: eight 64 x 64 bit transposes side
 * by side (lane e holds patterns 64e..64e+63), then the chunk entries. */
#define BUILD_BODY                                                             \
    {                                                                          \
        uint64_t w[64][8];                                                     \
        uint64_t valid[8];                                                     \
        for (int e = 0; e < 8; e++) {                                          \
            size_t base = (size_t)e * 64;                                      \
            size_t have = np > base ? np - base : 0;                           \
            if (have > 64)                                                     \
                have = 64;                                                     \
            valid[e] = have == 64 ? ~UINT64_C(0) : (UINT64_C(1) << have) - 1;  \
            for (size_t i = 0; i < 64; i++)                                    \
                w[i][e] = i < have ? ~pats[base + i] : 0;                      \
        }                                                                      \
        uint64_t m = UINT64_C(0x00000000FFFFFFFF);                             \
        for (int j = 32; j != 0; j >>= 1, m ^= m << j)                         \
            for (int k = 0; k < 64; k = ((k | j) + 1) & ~j)                    \
                for (int e = 0; e < 8; e++) {                                  \
                    uint64_t t = ((w[k][e] >> j) ^ w[k | j][e]) & m;           \
                    w[k][e] ^= t << j;                                         \
                    w[k | j][e] ^= t;                                          \
                }                                                              \
        for (int k = 0; k < nk; k++) {                                         \
            memcpy(tb->e[k][0], valid, sizeof valid);                          \
            int span = bits - CHUNK * k < CHUNK ? bits - CHUNK * k : CHUNK;    \
            for (int v = 1; v < 1 << span; v++) {                              \
                int j = CHUNK * k + __builtin_ctz((unsigned)v);                \
                const uint64_t *prev = tb->e[k][v & (v - 1)];                  \
                for (int e = 0; e < 8; e++)                                    \
                    tb->e[k][v][e] = prev[e] & (j < 64 ? w[j][e] : 0);         \
            }                                                                  \
        }                                                                      \
    }

static void build_plain(struct nq_table *tb, const uint64_t *pats, size_t np,
                        int nk, int bits) BUILD_BODY

    /* ---- counting against a table
       --------------------------------------------- */

    static uint64_t count_plain(const struct nq_table *tb,
                                const uint64_t *items, size_t ni, int nk)
{
    uint64_t total = 0;
    for (size_t i = 0; i < ni; i++) {
        uint64_t x = items[i];
        uint64_t acc[8];
        memcpy(acc, tb->e[0][x & CMASK], sizeof acc);
        for (int k = 1; k < nk; k++) {
            const uint64_t *en = tb->e[k][(x >> (CHUNK * k)) & CMASK];
            for (int e = 0; e < 8; e++)
                acc[e] &= en[e];
        }
        for (int e = 0; e < 8; e++)
            total += (uint64_t)__builtin_popcountll(acc[e]);
    }
    return total;
}

#if NQ_X86

#define AVX2_TARGET __attribute__((target("avx2,popcnt")))
#define AVX512_TARGET __attribute__((target("avx512f,avx512vpopcntdq")))

AVX2_TARGET static void build_avx2(struct nq_table *tb, const uint64_t *pats,
                                   size_t np, int nk, int bits) BUILD_BODY

    AVX512_TARGET
    static void build_avx512(struct nq_table *tb, const uint64_t *pats,
                             size_t np, int nk, int bits) BUILD_BODY

    /* A 256-bit half's bytes' popcounts by nibble lookup. */
    AVX2_TARGET static inline __m256i
    byte_counts(__m256i v, __m256i lut, __m256i low)
{
    return _mm256_add_epi8(
        _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low)),
        _mm256_shuffle_epi8(lut,
                            _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
}

/* The ANDed entries of item x: its 512 bits as two 256-bit halves. */
#define AVX2_AND(x, a, b, nk)                                                  \
    do {                                                                       \
        const uint64_t x_ = (x);                                               \
        const __m256i *en_ = (const __m256i *)tb->e[0][x_ & CMASK];            \
        a = _mm256_load_si256(en_);                                            \
        b = _mm256_load_si256(en_ + 1);                                        \
        for (int k_ = 1; k_ < (nk); k_++) {                                    \
            en_ = (const __m256i *)tb->e[k_][(x_ >> (CHUNK * k_)) & CMASK];    \
            a = _mm256_and_si256(a, _mm256_load_si256(en_));                   \
            b = _mm256_and_si256(b, _mm256_load_si256(en_ + 1));               \
        }                                                                      \
    } while (0)

/* nk a constant in each instance (the loads unrolled), two items a turn so
 * their chains of ANDs overlap, and the bytes' counts (at most 16 an item)
 * added up over 7 turns before one sum of absolute differences widens
 * them: 14 x 16 = 224 fits a byte. */
__attribute__((target("avx2,popcnt"), always_inline)) static inline uint64_t
count_avx2_k(const struct nq_table *tb, const uint64_t *items, size_t ni,
             const int nk)
{
    const __m256i lut =
        _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1,
                         1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    __m256i sum = zero;
    size_t i = 0;
    while (i + 2 <= ni) {
        __m256i bytes = zero;
        for (int turn = 0; turn < 7 && i + 2 <= ni; turn++, i += 2) {
            __m256i a, b, c, d;
            AVX2_AND(items[i], a, b, nk);
            AVX2_AND(items[i + 1], c, d, nk);
            bytes = _mm256_add_epi8(
                bytes,
                _mm256_add_epi8(_mm256_add_epi8(byte_counts(a, lut, low),
                                                byte_counts(b, lut, low)),
                                _mm256_add_epi8(byte_counts(c, lut, low),
                                                byte_counts(d, lut, low))));
        }
        sum = _mm256_add_epi64(sum, _mm256_sad_epu8(bytes, zero));
    }
    if (i < ni) {
        __m256i a, b;
        AVX2_AND(items[i], a, b, nk);
        sum = _mm256_add_epi64(
            sum, _mm256_sad_epu8(_mm256_add_epi8(byte_counts(a, lut, low),
                                                 byte_counts(b, lut, low)),
                                 zero));
    }
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, sum);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#undef AVX2_AND

AVX2_TARGET static uint64_t count_avx2(const struct nq_table *tb,
                                       const uint64_t *items, size_t ni, int nk)
{
    switch (nk) {
    case 3:
        return count_avx2_k(tb, items, ni, 3);
    case 4:
        return count_avx2_k(tb, items, ni, 4);
    case 5:
        return count_avx2_k(tb, items, ni, 5);
    case 6:
        return count_avx2_k(tb, items, ni, 6);
    case 7:
        return count_avx2_k(tb, items, ni, 7);
    case 8:
        return count_avx2_k(tb, items, ni, 8);
    default:
        return count_avx2_k(tb, items, ni, nk);
    }
}

/* nk a constant in each instance: the loads unrolled, no loop. */
__attribute__((target("avx512f,avx512vpopcntdq"),
               always_inline)) static inline uint64_t
count_avx512_k(const struct nq_table *tb, const uint64_t *items, size_t ni,
               const int nk)
{
    /* two items a turn, two sums: the chains of ANDs overlap */
    __m512i sum = _mm512_setzero_si512(), sum2 = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 2 <= ni; i += 2) {
        uint64_t x = items[i], y = items[i + 1];
        __m512i a = _mm512_load_si512(tb->e[0][x & CMASK]);
        __m512i b = _mm512_load_si512(tb->e[0][y & CMASK]);
        for (int k = 1; k < nk; k++) {
            a = _mm512_and_si512(
                a, _mm512_load_si512(tb->e[k][(x >> (CHUNK * k)) & CMASK]));
            b = _mm512_and_si512(
                b, _mm512_load_si512(tb->e[k][(y >> (CHUNK * k)) & CMASK]));
        }
        sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(a));
        sum2 = _mm512_add_epi64(sum2, _mm512_popcnt_epi64(b));
    }
    for (; i < ni; i++) {
        uint64_t x = items[i];
        __m512i a = _mm512_load_si512(tb->e[0][x & CMASK]);
        for (int k = 1; k < nk; k++)
            a = _mm512_and_si512(
                a, _mm512_load_si512(tb->e[k][(x >> (CHUNK * k)) & CMASK]));
        sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(a));
    }
    sum = _mm512_add_epi64(sum, sum2);
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

AVX512_TARGET static uint64_t count_avx512(const struct nq_table *tb,
                                           const uint64_t *items, size_t ni,
                                           int nk)
{
    switch (nk) {
    case 3:
        return count_avx512_k(tb, items, ni, 3);
    case 4:
        return count_avx512_k(tb, items, ni, 4);
    case 5:
        return count_avx512_k(tb, items, ni, 5);
    case 6:
        return count_avx512_k(tb, items, ni, 6);
    case 7:
        return count_avx512_k(tb, items, ni, 7);
    case 8:
        return count_avx512_k(tb, items, ni, 8);
    default:
        return count_avx512_k(tb, items, ni, nk);
    }
}

#endif /* NQ_X86 */

/* ---- the exported table ------------------------------------------------ */

static int chunks(int bits)
{
    return (bits + CHUNK - 1) / CHUNK;
}

struct nq_table *nq_table_new(int bits)
{
    struct nq_table *tb =
        aligned_alloc(64, (size_t)chunks(bits) * sizeof tb->e[0] + sizeof *tb);
    if (!tb)
        abort();
    tb->bits = bits;
    return tb;
}

int nq_table_bits(const struct nq_table *tb)
{
    return tb->bits;
}

void nq_table_build(enum nq_isa isa, struct nq_table *tb, const uint64_t *pats,
                    size_t np, int bits)
{
    const int nk = chunks(bits);
    switch (isa) {
#if NQ_X86
    case NQ_ISA_AVX512:
        build_avx512(tb, pats, np, nk, bits);
        return;
    case NQ_ISA_AVX2:
        build_avx2(tb, pats, np, nk, bits);
        return;
#endif
    default:
        build_plain(tb, pats, np, nk, bits);
        return;
    }
}

uint64_t nq_table_count(enum nq_isa isa, const struct nq_table *tb,
                        const uint64_t *items, size_t ni, int bits)
{
    const int nk = chunks(bits);
    switch (isa) {
#if NQ_X86
    case NQ_ISA_AVX512:
        return count_avx512(tb, items, ni, nk);
    case NQ_ISA_AVX2:
        return count_avx2(tb, items, ni, nk);
#endif
    default:
        return count_plain(tb, items, ni, nk);
    }
}

uint64_t nq_direct_count(const uint64_t *pats, size_t np, const uint64_t *items,
                         size_t ni)
{
    uint64_t total = 0;
    for (size_t i = 0; i < ni; i++)
        for (size_t p = 0; p < np; p++)
            total += (pats[p] & items[i]) == 0;
    return total;
}

uint64_t nq_match_count(enum nq_isa isa, const uint64_t *pats, size_t npats,
                        const uint64_t *items, size_t nitems, int bits)
{
    if (npats < nitems) { /* the larger side fills the tables better */
        const uint64_t *t = pats;
        pats = items;
        items = t;
        size_t s = npats;
        npats = nitems;
        nitems = s;
    }
    if (nitems < 8 || npats < 32)
        return nq_direct_count(pats, npats, items, nitems);
    struct nq_table *tb = nq_table_new(bits);
    uint64_t total = 0;
    for (size_t g = 0; g < npats; g += GROUP) {
        size_t np = npats - g < GROUP ? npats - g : GROUP;
        nq_table_build(isa, tb, pats + g, np, bits);
        total += nq_table_count(isa, tb, items, nitems, bits);
    }
    free(tb);
    return total;
}
