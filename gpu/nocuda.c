/*
 * gpu/nocuda.c - smma_gpu_gemm, smma_gpu_gemm_choose, smma_gpu_time_gemm, smma_gpu_info,
 * smma_gpu_bs_large_version, smma_sm90_ready, the device memory helpers and the kernels'
 * launchers in a build without CUDA: they say so.  The kernel table and the rules
 * (gpu/kernels.h) are built all the same.
 */
#include <config.h>

#include "gemm_internal.h"
#include "sm100/sm100.h"
#include "sm80/sm80.h"
#include "sm90/sm90.h"

#define NO_CUDA "softmma was built without CUDA (configure found no working nvcc, or " \
                "--without-cuda)"

int
smma_gpu_gemm(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    (void) x;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_gemm_choose(const smma_gpu_gemm_args *x, smma_gpu_kernel *chosen, char *msg,
                     size_t len)
{
    (void) x;
    (void) chosen;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_sm90_ready(char *msg, size_t len)
{
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_info(smma_gpu_device *dev, char *msg, size_t len)
{
    (void) dev;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_time_gemm(const smma_gpu_gemm_args *x, unsigned warmup, unsigned reps,
                   double *median_ms, char *msg, size_t len)
{
    (void) x;
    (void) warmup;
    (void) reps;
    (void) median_ms;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_bs_large_version(const smma_gpu_gemm_args *x, int *version, int *code_arch, char *msg,
                          size_t len)
{
    (void) x;
    if (version != NULL)
        *version = 0;
    if (code_arch != NULL)
        *code_arch = 0;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_malloc(void **ptr, size_t bytes, char *msg, size_t len)
{
    (void) bytes;
    if (ptr != NULL)
        *ptr = NULL;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

void
smma_gpu_free(void *ptr)
{
    (void) ptr;
}

int
smma_gpu_copy(void *dst, const void *src, size_t bytes, bool to_device, char *msg, size_t len)
{
    (void) dst;
    (void) src;
    (void) bytes;
    (void) to_device;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_fill32(void *dst, uint32_t pattern, size_t bytes, char *msg, size_t len)
{
    (void) dst;
    (void) pattern;
    (void) bytes;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_sync(char *msg, size_t len)
{
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

/* The launchers the kernel table names (gpu/kernels.h). */

#define NO_LAUNCH(name)                                                                 \
    int name(const smma_gpu_gemm_args *x, char *msg, size_t len)                        \
    {                                                                                   \
        (void) x;                                                                       \
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);                 \
    }

NO_LAUNCH(smma_sm80_v1_launch)
NO_LAUNCH(smma_sm80_v2_launch)
NO_LAUNCH(smma_sm80_bs_v1_launch)
NO_LAUNCH(smma_sm80_bs_large_launch)
NO_LAUNCH(smma_sm80_bs_small_launch)

int
smma_sm90_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    (void) a;
    (void) k;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_sm100_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    (void) a;
    (void) k;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}
