/*
 * gpu/sm80/sm80.h - the launchers of the mma.sync kernels (the .cu files of gpu/sm80/),
 * called by the dispatcher (gpu/gemm.cu) once smma_gpu_gemm_check accepted
 * the problem.  Plain C declarations.
 *
 * Each launcher enqueues its kernel on args->stream and returns
 * SMMA_GPU_STATUS_OK, or a status with a one-line message when the launch
 * itself fails.  They check nothing that smma_gpu_gemm_check checks.
 */
#ifndef SOFTMMA_GPU_SM80_H
#define SOFTMMA_GPU_SM80_H 1

#include <softmma/gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sm80-v1: any shape, either majorness, bf16 or fp16 A and B. */
int smma_sm80_v1_launch(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);

/* sm80-v2: A K-major, B either; k, lda, ldb multiples of 8; A and B 16-byte
 * aligned; a device with at least SMMA_SM80_V2_SMEM bytes of shared memory
 * per block. */
int smma_sm80_v2_launch(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);

/* The block-scaled kernels: sm80-bs-v1 any pair of formats; sm80-bs-large
 * and sm80-bs-small the pairs of smma_gpu_bs_pair_fast (gpu/gemm_internal.h),
 * sm80-bs-small for m <= 16. */
int smma_sm80_bs_v1_launch(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);
int smma_sm80_bs_large_launch(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);
int smma_sm80_bs_small_launch(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);

/* sm80-bs-small's version 6 (e2m1 B through a table in shared memory; the end of
 * bs_small.cu), which smma_sm80_bs_small_launch runs where smma_gpu_bs_small_choose
 * gives it the problem: *ran is 0, and nothing launched, on a device without its shared
 * memory per block. */
int smma_sm80_bs_small6_launch(const smma_gpu_gemm_args *args, int *ran, char *msg,
                               size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_SM80_H */
