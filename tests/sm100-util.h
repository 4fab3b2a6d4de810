/*
 * tests/sm100-util.h - what the tests of the sm_100 kernels share
 * (tests/sim/sm100-dry-t, tests/gpu/tma-t, tests/gpu/sm100-gemm-t; the
 * block-scaled problems also tests/sim/sm90-p32-dry-t): a
 * problem in host memory in the caller's storage (softmma/gpu.h), its
 * expected D, the host form of the launcher's preparation, the image of a
 * stage of shared memory as the plan fills it, and problems from the gemm
 * suites.  Failures of the library bail out (these are tests).
 */
#ifndef TESTS_SM100_UTIL_H
#define TESTS_SM100_UTIL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gemm.h>
#include <softmma/scale_layout.h>
#include <softmma/vectors.h>

#include "sm100/sm100.h"

/* A problem: the codes, and the caller's buffers built from them. */
typedef struct t100_prob {
    smma_gemm_shape s;
    smma_scale_layout layout;
    uint32_t *a, *b, *sa, *sb, *c; /* codes: a m x k, b n x k, sa m x kb, sb n x kb, c m x n */
    uint8_t *ga, *gb, *gsa, *gsb; /* A, B (K-major, ld elements), scales in `layout` */
    size_t ga_bytes, gb_bytes, gsa_bytes, gsb_bytes;
    uint32_t *gc;                 /* C codes (fp32, bf16 or fp16), ldc = n; NULL without C */
    size_t lda, ldb;              /* elements */
} t100_prob;

void *t100_calloc(size_t n, size_t size);
void t100_prob_free(t100_prob *p);

/* Builds the caller's buffers from the codes (again, after the codes
 * changed: the old ones are freed): ld past k (by 8 to 39
 * elements, rows 16-byte aligned), the gap filled with 0xa5 bytes (which
 * no plan may read), 128x4 scale padding filled with the scale format's
 * NaN (which the fix-up must keep out). */
void t100_prob_store(t100_prob *p);

/* A seeded problem (smma_gemm_generate), stored. */
void t100_prob_generate(t100_prob *p, const smma_gemm_shape *s, smma_scale_layout layout,
                        smma_input_class cls, uint64_t seed);

/* The arguments of smma_sm100_gemm with the host buffers (ldc = ldd = n);
 * the caller replaces the pointers for a device run. */
smma_gpu_gemm_args t100_prob_args(const t100_prob *p);

/* The expected D (m x n codes): smma_gemm under b200-fp8 (or the model
 * named), with D in fp32 and t100_epilogue applied when there is an alpha. */
uint32_t *t100_expected(const t100_prob *p);
uint32_t *t100_expected_under(const t100_prob *p, const char *model);

/* The accumulators of a tile of an sm90 kernel's dry run, for its two
 * consumer warpgroups of 128 threads with regs registers each (acc[(wg *
 * 128 + t) * regs + r]; the cell of smma_wgmma_d_cell, rows 64 wg on): C
 * where the cell lies inside the matrix and the problem has C, else fill;
 * and D from them through the epilogue, inside the matrix only (d m x n,
 * row-major). */
void t100_sm90_tile_init(const t100_prob *p, uint32_t *acc, unsigned regs, uint32_t m0,
                         uint32_t n0, uint32_t fill);
void t100_sm90_tile_store(const t100_prob *p, uint32_t *d, const uint32_t *acc, unsigned regs,
                          uint32_t m0, uint32_t n0);

/* A dry run: fills D (m x n, row-major) for problem p, or returns an error. */
typedef int (*t100_run_fn)(void *ctx, uint32_t *d, smma_error *err);

/* Runs run into a D poisoned with 0xdeadbeef and counts the outputs that
 * differ from want (the first five printed, named by what); -1 when run
 * fails (its message printed). */
long t100_diff_run(const t100_prob *p, t100_run_fn run, void *ctx, const uint32_t *want,
                   const char *what);

/* Whether a dry-run point runs under TEST_SAMPLE (tap/basic.h): true for
 * the first point of its class and for a seeded one in K of the rest.  The
 * class is the kernel, the pair class (each operand bf16, 8-, 6- or 4-bit;
 * the scales' format and block), the scale layout and which of m, n and k
 * are ragged for tiles of bm x bn x bk; the key is what, the point's
 * name. */
bool t100_sample(const char *kernel, const smma_gemm_shape *s, smma_scale_layout layout,
                 unsigned bm, unsigned bn, unsigned bk, const char *what);

/* The cells of a run of len from origin that lie inside a dimension of
 * size (0 to len): the part of an edge tile smma_wgmma_exec_part computes
 * in the sm90 dry runs (the rest are never stored). */
unsigned t100_part(size_t size, uint32_t origin, unsigned len);

/* The pair class of t100_sample for a shape, as text ("8x4 e8m0/32"). */
void t100_pair_class(const smma_gemm_shape *s, char *out, size_t len);

/* The epilogue of the kernels on the host: D = rn_fp32(alpha * acc) when
 * has_alpha (IEEE 754 multiplication; NaN results canonical), then to
 * nearest into a bf16 or fp16 D (NaN: 0x7fff, as smma_gemm). */
uint32_t t100_epilogue(smma_format d_fmt, bool has_alpha, uint32_t alpha, uint32_t acc);

/* The fp32 bits of C[i][j] as the kernels widen it. */
uint32_t t100_c_bits(const t100_prob *p, size_t i, size_t j);

/* The buffers the main kernel reads, after the launcher's preparation
 * (e2m1 of .kind::mxf8f6f4 unpacked, linear scales into 128x4), computed
 * on the host with the plan's functions; *_bytes their sizes. */
typedef struct t100_kin {
    const uint8_t *a, *b, *sfa, *sfb;
    size_t a_bytes, b_bytes, sfa_bytes, sfb_bytes;
    uint8_t *own[4];
} t100_kin;

void t100_prepare(const smma_sm100_plan *p, const t100_prob *pr, t100_kin *in);
void t100_kin_free(t100_kin *in);

/* The first stage_tx bytes of the stage of k-step kit of the tile at
 * (m0, n0), as TMA (v2) and the loader loops (v1) fill it, after the
 * fix-up; the rest of the stage_bytes is set to 0xee. */
void t100_stage_image(const smma_sm100_plan *p, const t100_kin *in, uint32_t m0, uint32_t n0,
                      uint32_t kit, uint8_t *stage);

/* The same for CTA `rank` of a v3 pair whose tile starts at row m0 (the
 * CTA's own) and column n0 (the pair's): its A rows, its half of B, the
 * scales of its A rows and every scale block of B (its own boxes and its
 * peer's multicast). */
void t100_stage_image_cta(const smma_sm100_plan *p, const t100_kin *in, uint32_t rank,
                          uint32_t m0, uint32_t n0, uint32_t kit, uint8_t *stage);

/* Format combinations of the generated problems. */
typedef struct t100_combo {
    const char *name;
    smma_format a, b, scale;
    unsigned vec;
} t100_combo;

extern const t100_combo t100_combos[];
extern const size_t t100_ncombos;

/* The shape of a problem of combination co. */
smma_gemm_shape t100_shape(const t100_combo *co, size_t m, size_t n, size_t k, smma_format c,
                           smma_format d, bool has_alpha);

/* A generated problem: sizes, C and D formats, alpha (1.25) or not, input
 * class.  t100_gens are the cases every test runs: one tile; several tiles
 * with ragged m and k; two 256-column tiles with C bf16, alpha, bf16 D;
 * ragged m, n, k with fp16 C and D; one 256-column tile of three k-steps. */
typedef struct t100_gen {
    size_t m, n, k;
    smma_format c, d;
    bool alpha;
    smma_input_class cls;
} t100_gen;

extern const t100_gen t100_gens[];
extern const size_t t100_ngens;

/* Generates case g of combination t100_combos[ci] with scales in layout,
 * stored, and names it in what. */
void t100_gen_problem(t100_prob *p, size_t ci, const t100_gen *g, smma_scale_layout layout,
                      uint64_t seed, char *what, size_t len);


/* A case of a gemm suite (gemm.COMBO.exact / .model.MODEL, or the
 * kernel-scale gemm.COMBO.kernel.* with their optional has_c, d_fmt, alpha
 * and dn fields) as a stored problem with scales in `layout`, and its
 * expected D in *want (m x n, malloc'd: d, or dn for a narrow D).  Returns
 * false with a message in why when the case cannot be read. */
bool t100_prob_from_case(t100_prob *p, const smma_vec_header *h, const smma_vec_case *c,
                         smma_scale_layout layout, uint32_t **want, char *why, size_t len);

/* What a test does with one problem of a suite: its expected D, a name for
 * messages, the case's index. */
typedef void (*t100_case_fn)(const t100_prob *p, const uint32_t *want, const char *what,
                             unsigned ncase, void *ctx);

/* Runs fn on every case of vectors/NAME.vec in the source tree: with both
 * scale layouts when both_layouts, else 128x4 for even cases and linear
 * for odd ones.  A missing file is a TAP skip when optional (the
 * kernel-scale suites), a failure otherwise; so are unreadable cases. */
void t100_each_case(const char *name, bool optional, bool both_layouts, t100_case_fn fn,
                    void *ctx);

/* t100_each_case over every gemm suite of the combinations the kernels
 * compute (mxfp8, mxfp6e2m3, mxfp6e3m2, mxfp4, nvfp4, mxfp8-mxfp4): COMBO.exact
 * and COMBO.model.b200-fp8, and the optional kernel-scale COMBO.kernel.exact
 * and COMBO.kernel.model.b200-fp8. */
void t100_each_suite_case(bool both_layouts, t100_case_fn fn, void *ctx);

#endif /* TESTS_SM100_UTIL_H */
