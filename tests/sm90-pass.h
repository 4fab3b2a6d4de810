/*
 * tests/sm90-pass.h - the conversion pass of sm90-bs and sm90-promote32
 * (gpu/sm90/gemm_bs.cu s90_bs_pre, gemm_p32.cu s90_p32_pre) on the host,
 * for their dry runs: its units, read and written where plan.h says
 * (smma_sm90_pre_unit, _pre_off, _sf_goff), the values from the reference;
 * and the sampling of those dry runs' points (t90_sample).
 */
#ifndef SOFTMMA_TESTS_SM90_PASS_H
#define SOFTMMA_TESTS_SM90_PASS_H 1

#include <stdbool.h>

#include "sm100-util.h"
#include "sm90/sm90.h"

/* Runs the pass of plan *pl (sm90-bs, or sm90-promote32 with an e2m1,
 * e2m3 or e3m2 operand) over problem *p (its stored buffers: ga, gb, gsa,
 * gsb) into a copy laid out as smma_sm90_pre_args says (bytes past K
 * 0xee), and fills *q with the problem the GEMM after it computes: its
 * shape, its codes read back from the copy (an operand not converted
 * keeps p's), p's scales for sm90-promote32 and none for sm90-bs, p's C.
 * sm90-bs rounds each a * sa to bf16 (to nearest, Inf past the range, as
 * cvt.rn.bf16x2.f32); sm90-promote32 writes each code's value as e4m3.
 * wrong: a pass that must not match -- for sm90-bs every unit takes the
 * scale of the block after its own, for sm90-promote32 the elements of
 * each pair of B trade places (an e2m1 byte's nibbles read the wrong way
 * round).  *k: the kernel of the GEMM. */
void t90_pass(const smma_sm90_plan *pl, const smma_gpu_gemm_args *a, const t100_prob *p,
              bool wrong, t100_prob *q, smma_gpu_kernel *k);

/* The pass over `rows` rows of one operand of format f as stored at src
 * (src_ld bytes apart; its scales sf of format sfmt where the plan says,
 * smma_sm90_sf_goff) into dst (dst_ld bytes apart), unit by unit as
 * smma_sm90_pre_unit and _pre_off say: bs, each element times its scale
 * rounded to bf16 (sm90-bs and sm90-mixed's pass), else each code's value
 * as e4m3 (sm90-promote32's).  next_scale: every unit takes the scale of
 * the block after its own; swap_pairs: the elements of each pair trade
 * places (a pass that must not match). */
void t90_pass_rows(const smma_sm90_plan *pl, smma_format f, smma_format sfmt, uint32_t rows,
                   const uint8_t *src, uint64_t src_ld, const uint8_t *sf, bool bs, uint8_t *dst,
                   uint64_t dst_ld, bool next_scale, bool swap_pairs);

/* Element e (0 .. 15) of a unit of format f whose bytes start at u (an fp6
 * code in the low six bits of its byte, e2m1 two to a byte, low nibble
 * first). */
uint32_t t90_stored_code(smma_format f, const uint8_t *u, unsigned e);

/* What t90_pass_diff found. */
typedef struct t90_pass_result {
    smma_sm90_plan pl;          /* the plan of kernel and a (132 multiprocessors) */
    bool applies;               /* a pass applies to it (else nothing more was done) */
    smma_gpu_gemm_args y;       /* the problem over the copies (ws a placeholder) */
    smma_gpu_kernel k;          /* its kernel */
    size_t bytes[2];            /* the copies of A and B */
    int rc;                     /* the plan's, then smma_sm90_check of y with k */
    size_t bad[2];              /* outputs unlike want: the pass, the wrong pass */
    bool same_kernel;           /* t90_pass named the same kernel */
} t90_pass_result;

/* The plan of `kernel` for a, and where a pass applies to it, the pass
 * over problem p (t90_pass), then the GEMM of the copies under the model
 * `inner`, against want; and the same with the wrong pass.  Returns r->rc
 * (msg: the refusal). */
int t90_pass_diff(smma_gpu_kernel kernel, const smma_gpu_gemm_args *a, const t100_prob *p,
                  const char *inner, const uint32_t *want, t90_pass_result *r, char *msg,
                  size_t len);

/* A dry run of an sm90 plan: plan pl over problem p with the test's flags
 * into d (the caller's D, m x n); SMMA_OK, or the simulator's refusal. */
typedef int (*t90_run_fn)(const smma_sm90_plan *pl, const t100_prob *p, unsigned flags,
                          uint32_t *d, smma_error *err);

/* Runs it (t100_diff_run) and counts the outputs that differ from want
 * (the first five are printed); -1 when the simulator refuses it. */
long t90_diff_plan(t90_run_fn run, const smma_sm90_plan *pl, const t100_prob *p, unsigned flags,
                   const uint32_t *want, const char *what);

/* Whether the dry run of problem p (arguments a) by the sm90 kernel on sms
 * multiprocessors with the choices tu is a point of this run: t100_sample
 * with the tiles of its plan (a plan refused here is a point, so that the
 * test reports the refusal). */
bool t90_sample(smma_gpu_kernel kernel, const smma_gpu_gemm_args *a, const t100_prob *p,
                unsigned sms, const smma_sm90_tune *tu, const char *what);

#endif /* SOFTMMA_TESTS_SM90_PASS_H */
