/*
 * gpu/sm90/kernels.h - the host side of the sm_90a kernels inside
 * libsoftmma_gpu: the buffers, the tensor maps and the two launchers.
 * CUDA C++ only (gemm_v1.cu, gemm_v2.cu, gemm_p32.cu, gemm_bs.cu, launch.cu);
 * the public interface is sm90.h.
 *
 * Every function returns an SMMA_GPU_STATUS_* code and writes a one-line
 * message on failure with the probes' set_msg / cuda_fail (probe_util.h);
 * none exits.
 */
#ifndef SOFTMMA_GPU_SM90_KERNELS_H
#define SOFTMMA_GPU_SM90_KERNELS_H 1

#include <cuda.h>
#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

#include "../probes/probe_util.h"
#include "sm90.h"

/* The operands in device memory (sa, sb: the scales of sm90-promote32 and
 * sm90-bs). */
typedef struct s90_bufs {
    const void *a, *b, *c;
    void *d;
    const uint8_t *sa, *sb;
} s90_bufs;

/* One operand of a conversion pass (s90_bs_pre in gemm_bs.cu, s90_p32_pre
 * in gemm_p32.cu): `rows` rows of k elements as stored at src (src_ld
 * bytes apart; their scales sf, for sm90-bs), converted into dst (dst_ld
 * bytes apart). */
typedef struct s90_pre_op {
    const uint8_t *src, *sf;
    uint8_t *dst;
    uint64_t src_ld, dst_ld;
    uint32_t rows;
} s90_pre_op;

/* The tensor maps (SMMA_SM90_MAP_* order), passed to a kernel as a
 * __grid_constant__ parameter; D's is encoded only for a v2 plan with
 * epi_tma. */
typedef struct s90_maps {
    CUtensorMap m[3];
} s90_maps;

/* Encodes the maps of plan *p over the buffers *b (plan.h,
 * smma_sm90_tma_geom). */
int s90_encode_maps(const smma_sm90_plan *p, const s90_bufs *b, s90_maps *out, char *msg,
                    size_t len);

/* The launcher of v1 on stream st (the plan checked, the device ready). */
int s90_launch_v1(const smma_sm90_plan *p, const s90_maps *maps, const s90_bufs *b,
                  cudaStream_t st, char *msg, size_t len);

/* The instances of the warp-specialized kernels (v2, sm90-promote32: 384
 * threads, clusters) for a plan; launch.cu starts them.
 * s90_bs_kernel: NULL for a pair it is not built for. */
const void *s90_v2_kernel(const smma_sm90_plan *p);
const void *s90_p32_kernel(const smma_sm90_plan *p);
const void *s90_bs_kernel(const smma_sm90_plan *p);
/* sm90-mixed's instance (256 threads, two CTAs an SM): NULL for a plan it
 * is not built for. */
const void *s90_mixed_kernel(const smma_sm90_plan *p);

/* The conversion passes (256 threads a block, a unit of 16 elements a
 * thread, launched with (plan, op)): sm90-bs's operand `is_b` of plan *p
 * into bf16 times its scales; sm90-promote32's e2m1, e2m3 or e3m2 operand
 * of format f into e4m3 codes.  NULL for a format they are not built for. */
const void *s90_bs_pre_kernel(const smma_sm90_plan *p, bool is_b);
const void *s90_p32_pre_kernel(uint32_t f);

#endif /* SOFTMMA_GPU_SM90_KERNELS_H */
