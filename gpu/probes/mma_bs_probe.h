/*
 * gpu/probes/mma_bs_probe.h - host launcher of the probe kernel for the
 * sm_120a mma.sync kinds f8f6f4, mxf8f6f4, mxf4 and mxf4nvf4 (the variants
 * of sim/softmma/mma_bs.h).
 *
 * Plain C, includable from C and CUDA C++.  The conventions are those of
 * probes.h: device 0, status codes SMMA_GPU_*, a one-line message on
 * failure, never exit().  No such GPU was available when this was written:
 * the kernel is proven to assemble for sm_120a (tests/gpu/mma-bs-t.c
 * compiles it with nvcc -arch=sm_120a), it has never run.
 */
#ifndef SOFTMMA_GPU_MMA_BS_PROBE_H
#define SOFTMMA_GPU_MMA_BS_PROBE_H 1

#include <stddef.h>
#include <stdint.h>

#include "probes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number of variants.  A variant is named by its number, the one of
 * smma_mma_bs_index (softmma/mma_bs.h), which never changes:
 *   0..24   mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.A.B.f32
 *   25..49  mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale
 *           .scale_vec::1X.f32.A.B.f32.ue8m0
 *           (number 5 * ia + ib [+ 25], order e4m3, e5m2, e3m2, e2m3, e2m1)
 *   50      mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale
 *           .scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0
 *   51      ... kind::mxf4nvf4.block_scale.scale_vec::2X ... .ue8m0
 *   52      ... kind::mxf4nvf4.block_scale.scale_vec::4X ... .ue4m3
 *   53      ... kind::mxf4nvf4.block_scale.scale_vec::4X ... .ue8m0 (PTX ISA
 *           9.1: this build's nvcc may lack it; it then reports
 *           SMMA_GPU_EARCH) */
#define SMMA_GPU_MMA_BS_COUNT 54

/* Executes one instruction per case on device 0 and hands back every
 * output register.  The kernel knows nothing of layouts: lane l of the warp
 * running case t loads a_regs[(t * 32 + l) * 4 + r] (r < 4),
 * b_regs[(t * 32 + l) * 2 + r] (r < 2), c_regs[(t * 32 + l) * 4 + r] (fp32
 * bits), sfa_regs[t * 32 + l] and sfb_regs[t * 32 + l], executes variant
 * `variant` with the selectors {byte_id_a, thread_id_a}, {byte_id_b,
 * thread_id_b}, and stores d_regs[(t * 32 + l) * 4 + r].  The caller packs
 * the operands with the simulator (smma_mma_bs_pack, smma_mma_bs_sf_pack)
 * and unpacks D the same way.  For the f8f6f4 variants (0..24) the scale
 * arrays and selectors are not used and may be NULL / 0.
 *
 * Returns SMMA_GPU_OK; SMMA_GPU_EINVAL for a bad variant, selectors outside
 * the PTX ISA's Table 37 for the variant's scale_vec (thread-id-a 0..1,
 * thread-id-b 0..3, byte-id 0..3 / 0 or 2 / 0 for 1X / 2X / 4X), or NULL
 * arrays with ncases > 0; SMMA_GPU_ENODEV; SMMA_GPU_EARCH when device 0 is
 * not an sm_120/sm_121 GPU ("needs sm_120a") or the code that ran on it was
 * not built for sm_120a/sm_121a; SMMA_GPU_ENOMEM; or SMMA_GPU_ECUDA.  On
 * failure msg receives a one-line reason. */
int smma_gpu_mma_bs(int variant, unsigned byte_id_a, unsigned thread_id_a, unsigned byte_id_b,
                    unsigned thread_id_b, const uint32_t *a_regs, const uint32_t *b_regs,
                    const uint32_t *c_regs, const uint32_t *sfa_regs, const uint32_t *sfb_regs,
                    uint32_t *d_regs, size_t ncases, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_MMA_BS_PROBE_H */
