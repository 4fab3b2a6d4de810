/*
 * gpu/nocuda.c - smma_gpu_gemm and smma_gpu_info in a build without CUDA:
 * they say so.  The rules (gpu/gemm_check.c) are built all the same.
 */
#include <config.h>

#include "gemm_internal.h"

#define NO_CUDA "softmma was built without CUDA (configure found no working nvcc, or " \
                "--without-cuda)"

int
smma_gpu_gemm(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    (void) x;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}

int
smma_gpu_info(smma_gpu_device *dev, char *msg, size_t len)
{
    (void) dev;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, NO_CUDA);
}
