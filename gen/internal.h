/*
 * gen/internal.h - what the suite generators of gen/ share (not installed).
 *
 * The public side is softmma/suites.h.  gen/table.c holds the list of
 * suites and dispatches to the generator of each family; gen/common.c the
 * helpers every generator uses (the random numbers, the header and writer,
 * the blocks of a case); one file per family group holds its generators
 * and, for the families that have one, its part of the table.
 */
#ifndef SOFTMMA_GEN_INTERNAL_H
#define SOFTMMA_GEN_INTERNAL_H 1

#include <softmma/suites.h>

/* ---- common.c */

/* splitmix64: the suites' only source of random numbers. */
uint64_t smma_gen_rand(uint64_t *state);

/* True when x is an fp32 number (or an infinity); its bits in *bits. */
bool smma_gen_f32_exact(double x, uint32_t *bits);

/* Fills h for suite s: names, the generator command, fields added later. */
void smma_gen_header(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_header *h);

/* Adds a scalar field. */
int smma_gen_add_field(smma_vec_header *h, const char *name, smma_vec_type t, bool out,
                       unsigned count, smma_error *err);

/* Adds the fields of spec, "name:type name:type ...", as inputs or outputs,
 * scalar or block. */
int smma_gen_add_spec(smma_vec_header *h, const char *spec, bool out, bool block,
                      smma_error *err);

/* Adds comment lines (NULL-terminated). */
int smma_gen_comments(smma_vec_writer *w, const char *const *comments, smma_error *err);

/* Creates the writer and its comment lines (NULL-terminated). */
int smma_gen_open(smma_vec_header *h, const char *const *comments, smma_vec_writer **w,
                  smma_error *err);

/* The end of a generator: hands w over on success, frees it otherwise;
 * returns rc. */
int smma_gen_finish(int rc, smma_vec_writer *w, smma_vec_writer **out);

/* One case with blocks: the values of each block field, which the case
 * owns, and up to 8 scalars. */
struct smma_gen_case {
    smma_vec_case c;
    uint64_t scalars[8];
    const smma_vec_header *h;
};

/* Sets block `name` of the case to rows x cols zeros and returns its values;
 * NULL when there is no such field or no memory. */
uint64_t *smma_gen_case_block(struct smma_gen_case *mc, const char *name, size_t rows,
                              size_t cols);

/* Frees the blocks of a case. */
void smma_gen_case_free(struct smma_gen_case *mc);

/* Copies n 32-bit registers into a block of rows x n / rows values. */
int smma_gen_put_regs(struct smma_gen_case *mc, const char *name, const uint32_t *regs,
                      size_t rows, size_t n, smma_error *err);

/* Fills a rows x cols block from a strided source: element (r, c) is
 * src[r * rs + c * cs]. */
int smma_gen_put_matrix(struct smma_gen_case *mc, const char *name, const uint32_t *src,
                        size_t rows, size_t cols, size_t rs, size_t cs, smma_error *err);

/* ---- table.c */

/* Appends a suite to the table being built (only while it is built):
 * family, instruction family, variant, operand, N, and its name from a
 * format.  NULL when the table is full. */
smma_suite *smma_gen_add(smma_suite_family fam, smma_suite_isa isa, unsigned var, unsigned op,
                         unsigned n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---- the families: generators, their part of the table, what is committed */

int smma_gen_decode(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                    smma_error *err);
int smma_gen_encode(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                    smma_error *err);
int smma_gen_quant(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                   smma_error *err);
int smma_gen_scale_layout(const smma_suite *s, unsigned level, uint64_t seed,
                          smma_vec_writer **out, smma_error *err);

/* fragment.c */
int smma_gen_fragment(const smma_suite *s, unsigned level, uint64_t seed,
                      smma_vec_writer **out, smma_error *err);
void smma_gen_fragment_suites(void);
bool smma_gen_fragment_committed(const smma_suite *s);

/* The format pairs of wgmma, in list order (fragment and mma suites). */
extern const smma_format smma_gen_wgmma_fmts[6][2];

/* mma.c */
int smma_gen_mma(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                 smma_error *err);
void smma_gen_mma_suites(void);
bool smma_gen_mma_committed(const smma_suite *s);

/* gemm.c */
int smma_gen_gemm(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                  smma_error *err);
void smma_gen_gemm_suites(void);
bool smma_gen_gemm_committed(const smma_suite *s);

/* kernel.c: the kernel-scale gemm suites (committed: all) */
int smma_gen_kernel(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                    smma_error *err);
void smma_gen_kernel_suites(void);

#endif /* SOFTMMA_GEN_INTERNAL_H */
