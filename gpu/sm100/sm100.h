/*
 * gpu/sm100/sm100.h - the sm_100 (tcgen05) block-scaled GEMM kernels behind
 * the dispatcher of softmma/gpu.h: which problems they accept, the numerics
 * model they reproduce, their plan, and the launcher.  Plain C.
 *
 *   sm100-v1  gemm_v1.cu: one CTA per 128 x bn tile, one k-step at a time
 *             (the teaching kernel).
 *   sm100-v2  gemm_v2.cu: TMA with tensor maps, a multistage mbarrier
 *             pipeline, warp-specialized persistent CTAs.
 *   sm100-v3  gemm_v3.cu: v2's pipeline over CTA pairs, 256 x bn tiles with
 *             tcgen05.mma.cta_group::2, scale_B multicast.
 *
 * All three compute D = alpha * (C + sum_k (A SA)(B SB)) with one accumulation
 * chain per output in k order in Tensor Memory, one tcgen05.mma after
 * another (K = 32 for .kind::mxf8f6f4, 64 for .kind::mxf4 and
 * .kind::mxf4nvf4), C loaded into the accumulator before the first, and
 * alpha applied in the epilogue as D = rn_fp32(alpha * acc), then rounded
 * to nearest into a bf16 or fp16 D.  No split-K.
 *
 * What they accept (smma_sm100_check gives the reason for a refusal):
 *   - A and B K-major (a_kmajor and b_kmajor);
 *   - block-scaled formats with one kind of tcgen05.mma:
 *       e4m3, e5m2, e2m3, e3m2, e2m1 in any pair, e8m0 scales per 32:
 *           .kind::mxf8f6f4 (e2m1 x e2m1 goes to .kind::mxf4 instead; an
 *           e2m1 operand paired with a wider one is first unpacked on the
 *           device to one code per byte, in bits 5-2);
 *       e2m1 x e2m1, e8m0 per 32: .kind::mxf4, .scale_vec::2X;
 *       e2m1 x e2m1, ue4m3 or e8m0 per 16: .kind::mxf4nvf4, .scale_vec::4X;
 *   - scales in the linear layout (rearranged on the device into a 128x4
 *     scratch copy before the main kernel) or the 128x4 layout;
 *   - C absent, fp32, bf16 or fp16; D fp32, bf16 or fp16; alpha or not;
 *   - any m, n, k >= 1 (m, n, k <= 2^31 - 1), ld at least the row length;
 *     v2 and v3 also need the rows of A and B they load with TMA at 16-byte
 *     aligned addresses (pointer and ld in bytes multiples of 16; an e2m1
 *     operand that is unpacked first is exempt).
 * K needs no rounding: a k-step past the end of K is padded in shared
 * memory with the identity (plan.h, "fix-up").
 */
#ifndef SOFTMMA_GPU_SM100_H
#define SOFTMMA_GPU_SM100_H 1

#include <stddef.h>

#include "../softmma/gpu.h"
#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The multiprocessors of a B200, the grid smma_sm100_check plans v2 for. */
#define SMMA_SM100_DEFAULT_SMS 148u

/* Fills *p with the plan of kernel k (SMMA_GPU_SM100_V1, _V2 or _V3) for
 * the problem *a on a device with `sms` multiprocessors (v2 runs
 * min(tiles, sms) persistent CTAs, v3 min(units, sms / 2) persistent
 * pairs).  Only the shape, formats, majorness,
 * leading dimensions, scale layout and the alignment of the pointers are
 * read.  Returns SMMA_GPU_STATUS_OK, or SMMA_GPU_STATUS_EINVAL with a
 * one-line message in msg naming the kernel and the constraint. */
int smma_sm100_plan_init(smma_sm100_plan *p, const smma_gpu_gemm_args *a, smma_gpu_kernel k,
                         unsigned sms, char *msg, size_t len);

/* Whether kernel k (SMMA_GPU_SM100_V1, _V2 or _V3) computes the problem:
 * smma_sm100_plan_init without the plan.  Pure host logic, no CUDA. */
int smma_sm100_check(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len);

/* The numerics model the three kernels reproduce for shape s: "b200-fp8" (the
 * tcgen05 block-scaled model of softmma/gemm.h, provisional: not yet
 * compared with a B200) for every format combination they accept; NULL
 * for the others. */
const char *smma_sm100_model(const smma_gemm_shape *s);

/* Runs kernel k on device 0 on args->stream: checks (smma_sm100_check),
 * the preparation kernels (unpacking, scale rearrangement, into scratch
 * memory taken and given back on the stream), then the GEMM.  Needs a
 * compute capability 10.0 device and a build with sm_100a code.  Returns
 * SMMA_GPU_STATUS_OK, or _EINVAL, _ENODEV, _EARCH, _ENOMEM, _ECUDA with a
 * one-line message.  A build without CUDA has no such function. */
int smma_sm100_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_SM100_H */
