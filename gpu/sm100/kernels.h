/*
 * gpu/sm100/kernels.h - the host side of the sm_100 kernels inside
 * libsoftmma_gpu: the preparation on the device, the two launchers, and the
 * device check.  CUDA C++ only (gemm_v1.cu, gemm_v2.cu, gemm_v3.cu, prep.cu,
 * gpu/probes/tma_probe.cu); the public interface is sm100.h.
 *
 * Every function returns an SMMA_GPU_STATUS_* code (the numbers of the
 * probes' SMMA_GPU_* codes) and writes a one-line message on failure with
 * the probes' set_msg / cuda_fail (probe_util.h); none exits.
 */
#ifndef SOFTMMA_GPU_SM100_KERNELS_H
#define SOFTMMA_GPU_SM100_KERNELS_H 1

#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

#include "../probes/probe_util.h"
#include "sm100.h"

/* The buffers the main kernel reads (plan.h: SMMA_SM100_BUF_*), the C it
 * starts from and the D it writes, in device memory; scratch holds what
 * s100_prepare took (given back by s100_release). */
typedef struct s100_bufs {
    const uint8_t *a, *b, *sfa, *sfb;
    const void *c;
    void *d;
    void *scratch[4];
} s100_bufs;

/* The preparation, queued on stream st: an e2m1 operand of
 * .kind::mxf8f6f4 unpacked into one byte per element (bits 5-2) in a
 * scratch copy with rows of a_ld / b_ld bytes, and linear scales
 * rearranged into a 128x4 scratch copy (padding: the scale byte of 1.0),
 * both with the plan's functions; the other buffers are used as given.
 * The scratch memory is taken with cudaMallocAsync on st. */
int s100_prepare(const smma_sm100_plan *p, const void *a, const void *b, const void *sa,
                 const void *sb, cudaStream_t st, s100_bufs *out, char *msg, size_t len);

/* Gives the scratch memory back on st (cudaFreeAsync). */
void s100_release(s100_bufs *b, cudaStream_t st);

/* Whether device 0 can run kernel `func`: its compute capability is X.0
 * with major_min <= X <= major_max (sm_90a and sm_100a code runs on 9.0
 * and 10.0 only), and the binary the runtime picked for it is sm_X0 (not
 * another architecture's code or PTX).  `need` names the requirement in
 * the message ("sm_100").  SMMA_GPU_STATUS_OK, _ENODEV, _EARCH, _ECUDA. */
int s100_need(int major_min, int major_max, const void *func, const char *need, char *msg,
              size_t len);

/* The launchers of the main kernels (gemm_v1.cu, gemm_v2.cu, gemm_v3.cu), on stream
 * st.  They first check the device (s100_need); with b NULL they do only
 * that. */
int s100_launch_v1(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
                   size_t len);
int s100_launch_v2(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
                   size_t len);
int s100_launch_v3(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
                   size_t len);

#endif /* SOFTMMA_GPU_SM100_KERNELS_H */
