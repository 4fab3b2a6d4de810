/*
 * gpu/probes/tma_probe.h - the producer of the sm_100 kernel sm100-v2 run
 * on its own (tma_probe.cu): the preparation kernels, the tensor maps, the
 * TMA boxes with the 128-byte swizzle and the full/empty mbarrier pipeline
 * of gpu/sm100/, with a consumer warp that applies the fix-up of a ragged
 * last k-step and copies every stage out instead of running tcgen05.mma.
 * sm_90 has all of that (cp.async.bulk.tensor, mbarrier transaction
 * counts), so an H100 checks the part of the sm_100 kernel it can run.
 * Plain C; status codes of softmma/gpu.h.
 */
#ifndef SOFTMMA_GPU_TMA_PROBE_H
#define SOFTMMA_GPU_TMA_PROBE_H 1

#include <stddef.h>
#include <stdint.h>

#include "../sm100/sm100.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs the producer of plan *p (a v2 plan: p->pipe.grid CTAs, p->pipe.stages stages)
 * on device 0 over the caller's buffers, given in host memory as
 * smma_sm100_gemm would read them in device memory: A (a_bytes), B, the
 * scales of A and B (linear or 128x4 as p says).  They are copied to the
 * device, prepared there (s100_prepare), and every stage the consumer
 * receives is copied to out after the fix-up: the first p->pipe.stage_tx bytes
 * of the stage of k-step kit of tile t at
 * out[(t * p->pipe.kiters + kit) * p->pipe.stage_tx]; out holds
 * p->tiles * p->pipe.kiters * p->pipe.stage_tx bytes.  Needs a compute capability
 * 9.0 or 10.0 device and a build with sm_90a or sm_100a code.  Returns an
 * SMMA_GPU_STATUS_* code with a one-line message.
 */
/* Whether smma_gpu_tma_probe can run here: SMMA_GPU_STATUS_OK, or
 * _ENODEV / _EARCH with the reason. */
int smma_gpu_tma_probe_check(char *msg, size_t len);

int smma_gpu_tma_probe(const smma_sm100_plan *p, const void *a, size_t a_bytes, const void *b,
                       size_t b_bytes, const void *sa, size_t sa_bytes, const void *sb,
                       size_t sb_bytes, uint8_t *out, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_TMA_PROBE_H */
