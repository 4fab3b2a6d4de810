/*
 * tools/suites.h - the golden vector suites: their names, which of them are
 * committed under vectors/, and the generator of each (suites.c).  The file
 * format is softmma/vectors.h; doc/vectors.md describes every suite.
 *
 * A suite is a family and its parameters, named FAMILY.PART...:
 *   decode.FORMAT                      every code of a format (fp32: a subset)
 *   encode.FORMAT.ROUNDING.PROFILE     fp32 (fp64 for fp32) inputs at the
 *                                      codec's edges, converted
 *   quant.BLOCKFORMAT.PROFILE          blocks at the quantization edges
 *   scale-layout.LAYOUT                scale offsets for a set of shapes
 *   fragment.INSTRUCTION.OPERAND       (lane, register, element) -> (row,
 *                                      col) of a modeled layout, every slot
 *   mma.INSTRUCTION.MODEL              per-lane registers in and D out of
 *                                      one instruction under a model
 *   gemm.COMBO.exact, gemm.COMBO.model.MODEL
 *                                      tile problems: A, B, their scales, C
 *                                      and D as matrices
 * The first four families are numbered arithmetically; the others come
 * from a table built once (suites.c).
 */
#ifndef SOFTMMA_SUITES_H
#define SOFTMMA_SUITES_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gemm.h>
#include <softmma/profile.h>
#include <softmma/quant.h>
#include <softmma/scale_layout.h>
#include <softmma/vectors.h>

enum suite_family {
    SUITE_DECODE = 0,
    SUITE_ENCODE,
    SUITE_QUANT,
    SUITE_SCALE_LAYOUT,
    SUITE_FRAGMENT,
    SUITE_MMA,
    SUITE_GEMM
};

/* The instruction families of the fragment and mma suites. */
enum suite_isa {
    ISA_MMA = 0,    /* mma.sync (softmma/fragment.h) */
    ISA_MMA_BS,     /* mma.sync of sm_120a on FP8/FP6/FP4 (softmma/mma_bs.h) */
    ISA_LDMATRIX,   /* ldmatrix, stmatrix (softmma/ldmatrix.h) */
    ISA_WGMMA,      /* wgmma.mma_async (softmma/wgmma.h) */
    ISA_TMEM_LDST,  /* tcgen05.ld, tcgen05.st (softmma/tmem.h) */
    ISA_TMEM_D,     /* D of tcgen05.mma in TMEM */
    ISA_TMEM_SF,    /* block-scale factors of tcgen05.mma in TMEM */
    ISA_TC05        /* tcgen05.mma (mma suites) */
};

/* One suite: its family, its name and the parameters its name gives. */
struct suite {
    enum suite_family family;
    char name[SMMA_VEC_TEXT_MAX];
    smma_format fmt;            /* decode, encode */
    smma_round round;           /* encode */
    const smma_profile *profile;/* encode, quant */
    smma_block_format bf;       /* quant */
    smma_scale_layout layout;   /* scale-layout */
    enum suite_isa isa;         /* fragment, mma: the instruction family */
    unsigned var;               /* fragment, mma: the variant in the family (suites.c) */
    unsigned op;                /* fragment: the operand */
    unsigned n;                 /* fragment, mma: N, .num or rows where the family has one */
    const smma_model *model;    /* mma, gemm.COMBO.model */
    unsigned combo;             /* gemm: the format combination */
    bool exact;                 /* gemm: the exact class */
};

/* The seed and level of the committed files. */
#define SUITE_SEED 1u
#define SUITE_LEVEL 1u

/* The number of suites, and the i-th (false past the end), in the order of
 * `softmma gen --list`. */
size_t suite_count(void);
bool suite_at(size_t i, struct suite *s);

/* Finds a suite by name; false when there is none. */
bool suite_find(const char *name, struct suite *s);

/* True for the suites committed under vectors/ (doc/vectors.md says which
 * and why). */
bool suite_committed(const struct suite *s);

/* Generates a suite at level 1 or 2 with a seed into a new writer (the
 * caller frees it).  SMMA_EINVAL for a bad level, SMMA_ENOMEM. */
int suite_generate(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                   smma_error *err);

/* The amax values at which the scale rules of block format bd change, for
 * exponent k: 2^k (FLOOR), max_elem 2^k (RCEIL), (max_elem + half an element
 * step) 2^k (where elements saturate), the EVEN rounding point 2^k and
 * 1.5 max_elem 2^k (a round-to-nearest scale).  The single-element blocks of
 * the quant suites and of softmma diff. */
void suite_amax_points(const smma_block_format_desc *bd, int k, double pts[5]);

/* Fills a zeroed block of n fp32 values (bits) with a random block: 1 to n
 * non-zero elements within 16 binades of a random exponent, a quarter of the
 * blocks bf16-exact, one element in 256 Inf or NaN.  state is a splitmix64
 * state; the same state gives the same block everywhere.  The random blocks
 * of the quant suites and of softmma diff. */
void suite_random_block(uint64_t *state, unsigned n, uint32_t *x);

#endif /* SOFTMMA_SUITES_H */
