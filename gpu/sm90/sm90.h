/*
 * gpu/sm90/sm90.h - the sm_90a (wgmma) GEMM kernels behind the dispatcher
 * of softmma/gpu.h: which problems they accept, the numerics model they
 * reproduce, their plan, and the launcher.  Plain C.
 *
 *   sm90-v1  gemm_v1.cu: one consumer warpgroup, TMA into a ring of stage
 *            slots, wgmma.m64n128k16 (the teaching kernel).
 *   sm90-v2  gemm_v2.cu: a producer warp and two consumer warpgroups
 *            (warp-specialized, setmaxnreg), persistent CTAs in clusters of
 *            two with B multicast, tiles of 128 x 256 (128 x 128 for
 *            n <= 128), D through shared memory and TMA stores.
 *   sm90-promote32  gemm_p32.cu: the MX pairs on fp8 wgmma.m64n128k32, each
 *            32-k block promoted into fp32 with its scales
 *            (h100-fp8-promote32).
 *   sm90-bs  gemm_bs.cu: the block-scaled pairs of sm80-bs-large upcast to
 *            bf16 -- by a pass before the GEMM, whose copies v2 then
 *            multiplies, or (SMMA_SM90_PRE=0) by converter threads inside the
 *            kernel before v2's chain (bf16-upcast-h100 either way).
 * What follows describes v1 and v2; check.c holds the rules of all four.
 *
 * Both compute D = alpha * (C + A B) for bf16 or fp16 A and B with one
 * fp32 accumulation chain per output in k order through wgmma.m64nNk16 (C
 * loaded into the accumulator registers first), alpha applied as D =
 * rn_fp32(alpha * acc), then rounded to nearest into a bf16 or fp16 D.  No
 * split-K.  On compute capability 9.0 that is the model h100-bf16 (the
 * block-FMA model of wgmma, validated on an H100; doc/kernels.md).
 *
 * What they accept (smma_sm90_check gives the reason for a refusal):
 *   - A and B both bf16 or both fp16, no scales;
 *   - A K-major; B K-major or N-major;
 *   - lda and ldb multiples of 8 and A, B at 16-byte aligned addresses
 *     (TMA reads rows at 16-byte aligned addresses);
 *   - C absent or fp32; D fp32, bf16 or fp16; alpha or not;
 *   - any m, n, k >= 1 below 2^31.
 * v2 stores D with TMA where ldd times D's element size is a multiple of 16
 * and D is 16-byte aligned, and from the registers otherwise.
 */
#ifndef SOFTMMA_GPU_SM90_H
#define SOFTMMA_GPU_SM90_H 1

#include <stddef.h>

#include "../softmma/gpu.h"
#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The multiprocessors of an H100 SXM, the grid smma_sm90_check plans v2 for. */
#define SMMA_SM90_DEFAULT_SMS 132u

/* Reads the tuning knobs of v2, sm90-promote32, sm90-bs and sm90-mixed from
 * the environment (bench/gemm-bench compares them): SMMA_SM90_BN (128 or
 * 256 for v2, sm90-promote32 takes 128; a power of two from 8 to 256, the
 * rows of X, for sm90-mixed), SMMA_SM90_KQ (sm90-mixed: 1, 2 or 4 atoms of
 * 64 k a k-step), SMMA_SM90_STAGES (2 .. 8),
 * SMMA_SM90_CLUSTER (1 or 2), SMMA_SM90_GROUP (1 .. 64 tile rows),
 * SMMA_SM90_PRE (0: sm90-bs and sm90-promote32 convert inside the kernel,
 * 1: in a pass before it, where smma_sm90_pre_applies),
 * SMMA_SM90_P32_SPROD (0: sm90-promote32's scale products in fp32 only, 1:
 * on the tensor core where in range, plan.h); unset or empty: the
 * default.  SMMA_GPU_STATUS_OK, or _EINVAL with a message naming
 * the variable and its value. */
int smma_sm90_tune_env(smma_sm90_tune *t, char *msg, size_t len);

/* Fills *p with the plan of kernel k (SMMA_GPU_SM90_V1, _V2 or
 * _PROMOTE32) for the problem *a on a device with `sms` multiprocessors,
 * with the choices *t (NULL: the defaults: bn 256 where n > 128, else 128,
 * and always 128 for sm90-promote32; as many stages as shared memory holds,
 * at most 8 (v1: 4); clusters of 2 where the tile has more than one row of
 * tiles; groups of 4 tile rows).  v2 and sm90-promote32 run min(units,
 * sms) persistent CTAs (rounded down to whole clusters).  Only
 * the shape, formats, majorness, leading dimensions and the alignment of the
 * pointers are read.  Returns SMMA_GPU_STATUS_OK, or SMMA_GPU_STATUS_EINVAL
 * with a one-line message naming the kernel and the constraint. */
int smma_sm90_plan_init(smma_sm90_plan *p, const smma_gpu_gemm_args *a, smma_gpu_kernel k,
                        unsigned sms, const smma_sm90_tune *t, char *msg, size_t len);

/* Whether kernel k (SMMA_GPU_SM90_V1, _V2 or _PROMOTE32) computes the problem:
 * smma_sm90_plan_init with the defaults, without the plan.  Pure host
 * logic, no CUDA. */
int smma_sm90_check(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len);

/* Runs kernel k on device 0 on args->stream: checks (smma_sm90_plan_init
 * with the device's multiprocessors and smma_sm90_tune_env), the tensor
 * maps, then the GEMM.  Needs a compute capability 9.0 device and a build
 * with sm_90a code (smma_sm90_ready).  Returns SMMA_GPU_STATUS_OK, or
 * _EINVAL, _ENODEV, _EARCH, _ECUDA with a one-line message.  A build without
 * CUDA has no such function. */
int smma_sm90_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len);

/* Whether plan *p has operands a conversion pass could turn into another
 * kernel's (plan.h, smma_sm90_pre_ld): sm90-bs always (bf16 for sm90-v2),
 * sm90-promote32 with an e2m1, e2m3 or e3m2 operand (e4m3 for its own fp8
 * path). */
bool smma_sm90_pre_applies(const smma_sm90_plan *p);

/* Whether smma_sm90_gemm runs plan *p as a conversion pass and the GEMM of
 * the converted operands: where it applies, unless t->pre says never
 * (SMMA_SM90_PRE=0: the conversion inside the kernel, which needs no
 * copy).  Both ways compute the same bits (the model of the kernel). */
bool smma_sm90_pre_wanted(const smma_sm90_plan *p, const smma_sm90_tune *t);

/* The problem the GEMM after plan *p's conversion pass computes (p: the
 * plan of *a, where smma_sm90_pre_applies): *a with each converted operand
 * replaced by its copy at ws (A's bytes[0] bytes first, then B's bytes[1];
 * 0 for an operand not converted), smma_sm90_pre_ld(k) elements a row --
 * bf16 without scales for sm90-bs (*k: sm90-v2, whose model h100-bf16 on
 * the copies is bf16-upcast-h100 on *a), e4m3 with *a's scales for
 * sm90-promote32 (*k: itself).  C, D, alpha, the scale layout and the
 * stream are *a's.  ws may be NULL (for the sizes). */
void smma_sm90_pre_args(const smma_gpu_gemm_args *a, const smma_sm90_plan *p, void *ws,
                        smma_gpu_gemm_args *y, smma_gpu_kernel *k, size_t bytes[2]);

/* Whether sm90-promote32 computes A x B (with e8m0 scales per 32): MXFP8
 * (e4m3, e5m2, mixed), MXFP6 (e2m3, e3m2), MXFP4, MXFP8 x MXFP4 (the e2m1,
 * e2m3 and e3m2 operands converted to e4m3 on the way). */
bool smma_sm90_p32_pair(smma_format a, smma_format b);

/* Where AUTO takes sm90-mixed (gpu/gemm_check.c's preference table): 17
 * to 128 rows of X (the operand that is not the weights) and at least 4096
 * rows of W, where it was measured faster than sm80-bs-small (which takes
 * M <= 16) and sm90-bs (bench/sm90-kernels.md). */
bool smma_sm90_mx_auto(const smma_gpu_gemm_args *x);

/* Whether the sm90 kernels can run on device 0: compute capability 9.0 and
 * code compiled for sm_90a loaded for them (found out once, by running a
 * one-thread kernel of the same file).  SMMA_GPU_STATUS_OK, or _ENODEV /
 * _EARCH with the reason (a build without CUDA: _ENODEV). */
int smma_sm90_ready(char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_SM90_H */
