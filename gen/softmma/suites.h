/*
 * softmma/suites.h - the golden vector suites as library code: their names,
 * which of them are committed under vectors/, and the generator of each.
 * The file format is softmma/vectors.h; doc/vectors.md describes every
 * suite, its fields and its cases.
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
 *
 * Every generator is a pure function of (suite, level, seed): the same
 * arguments give the same bytes on every machine, compiler and
 * optimization level.  The functions here are safe to call from several
 * threads at once: the list of suites is built once, on first use, and is
 * read-only after.
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

#ifdef __cplusplus
extern "C" {
#endif

/* The families, in the order of smma_suite_at. */
typedef enum smma_suite_family {
    SMMA_SUITE_DECODE = 0,
    SMMA_SUITE_ENCODE,
    SMMA_SUITE_QUANT,
    SMMA_SUITE_SCALE_LAYOUT,
    SMMA_SUITE_FRAGMENT,
    SMMA_SUITE_MMA,
    SMMA_SUITE_GEMM
} smma_suite_family;

/* The instruction families of the fragment and mma suites. */
typedef enum smma_suite_isa {
    SMMA_SUITE_ISA_MMA = 0,     /* mma.sync (softmma/fragment.h) */
    SMMA_SUITE_ISA_MMA_BS,      /* mma.sync of sm_120a on FP8/FP6/FP4 (softmma/mma_bs.h) */
    SMMA_SUITE_ISA_LDMATRIX,    /* ldmatrix, stmatrix (softmma/ldmatrix.h) */
    SMMA_SUITE_ISA_WGMMA,       /* wgmma.mma_async (softmma/wgmma.h) */
    SMMA_SUITE_ISA_TMEM_LDST,   /* tcgen05.ld, tcgen05.st (softmma/tmem.h) */
    SMMA_SUITE_ISA_TMEM_D,      /* D of tcgen05.mma in TMEM */
    SMMA_SUITE_ISA_TMEM_SF,     /* block-scale factors of tcgen05.mma in TMEM */
    SMMA_SUITE_ISA_TC05         /* tcgen05.mma (mma suites) */
} smma_suite_isa;

/* One suite: its family, its name and the parameters its name gives.
 * Fields a family does not use are zero (NULL). */
typedef struct smma_suite {
    smma_suite_family family;
    char name[SMMA_VEC_TEXT_MAX];
    smma_format fmt;            /* decode, encode */
    smma_round round;           /* encode */
    const smma_profile *profile;/* encode, quant */
    smma_block_format bf;       /* quant */
    smma_scale_layout layout;   /* scale-layout */
    smma_suite_isa isa;         /* fragment, mma: the instruction family */
    unsigned var;               /* fragment, mma: the variant within the family */
    unsigned op;                /* fragment: the operand */
    unsigned n;                 /* fragment, mma: N, .num or rows where the family has one */
    const smma_model *model;    /* mma, gemm model class */
    unsigned combo;             /* gemm: the format combination */
    bool exact;                 /* gemm: the exact class */
    bool kernel;                /* gemm: a kernel-scale suite (gen/kernel.c) */
} smma_suite;

/* The seed and level of the committed files. */
#define SMMA_SUITE_SEED 1u
#define SMMA_SUITE_LEVEL 1u

/* The number of suites.  Never zero. */
size_t smma_suite_count(void);

/* Fills *s with the i-th suite, in the order of `softmma gen --list`, and
 * returns true; returns false (and zeroes *s) when i is past the end. */
bool smma_suite_at(size_t i, smma_suite *s);

/* Finds a suite by its exact name: SMMA_OK with *s filled, or SMMA_EINVAL
 * with the message "unknown suite 'NAME'" (*s is then unspecified) when no
 * suite has that name.  name may be any string, or NULL (no suite). */
int smma_suite_find(const char *name, smma_suite *s, smma_error *err);

/* True for the suites committed under vectors/ (doc/vectors.md says which
 * and why). */
bool smma_suite_committed(const smma_suite *s);

/* Generates suite s (from smma_suite_at or smma_suite_find) at level 1 or
 * 2 with a seed into a new writer, which the caller finishes with
 * smma_vec_finish and frees with smma_vec_writer_free.  Returns SMMA_OK
 * with *out set, or an error with a message and *out NULL: SMMA_EINVAL for
 * a level other than 1 or 2 (or a suite whose generator refuses its own
 * data, such as an exact-class problem on which two models disagree),
 * SMMA_ENOMEM when memory runs out. */
int smma_suite_generate(const smma_suite *s, unsigned level, uint64_t seed,
                        smma_vec_writer **out, smma_error *err);

/* The amax values at which the scale rules of block format bd change, for
 * exponent k: 2^k (FLOOR), max_elem 2^k (RCEIL), (max_elem + half an element
 * step) 2^k (where elements saturate), the EVEN rounding point 2^k and
 * 1.5 max_elem 2^k (a round-to-nearest scale).  The single-element blocks of
 * the quant suites and of softmma diff. */
void smma_suite_amax_points(const smma_block_format_desc *bd, int k, double pts[5]);

/* Fills a zeroed block of n fp32 values (bits) with a random block: 1 to n
 * non-zero elements within 16 binades of a random exponent, a quarter of the
 * blocks bf16-exact, one element in 256 Inf or NaN.  state is a splitmix64
 * state, advanced by the call; the same state gives the same block
 * everywhere.  The random blocks of the quant suites and of softmma diff. */
void smma_suite_random_block(uint64_t *state, unsigned n, uint32_t *x);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_SUITES_H */
