/*
 * gpu/gemm_check_bs.c - the host-side rules of the block-scaled kernels
 * (gpu/sm80/bs_*.cu, gpu/sm100/): which problems each accepts, and the
 * model each reproduces.
 */
#include <config.h>

#include "gemm_internal.h"

int
smma_gpu_check_scaled(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                      smma_gpu_kernel *chosen, char *msg, size_t len)
{
    (void) major;
    (void) minor;
    (void) smem;
    (void) chosen;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s x %s%s: no kernel computes this "
                        "product", smma_format_name(x->shape.a_fmt),
                        smma_format_name(x->shape.b_fmt),
                        x->shape.scale_fmt != SMMA_NONE ? " with scales" : "");
}

int
smma_gpu_model_scaled(smma_gpu_kernel kernel, const smma_gemm_shape *s, int major, int minor,
                      const char **model, char *msg, size_t len)
{
    (void) s;
    (void) model;
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s has no model on compute "
                        "capability %d.%d", smma_gpu_kernel_name(kernel), major, minor);
}
