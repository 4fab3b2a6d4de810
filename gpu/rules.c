/*
 * gpu/rules.c - what the rules of every kernel share, below the
 * architectures' rows (gpu/kernels.h): the message helper, the shared
 * memory of a device, the kind of a problem, the checks every problem
 * passes, and those every block-scaled kernel makes.  Plain C; calls
 * nothing of gpu/ above it.
 */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "gemm_internal.h"
#include "kernels.h"

int
smma_gpu_msg(char *msg, size_t msg_len, int status, const char *fmt, ...)
{
    va_list ap;

    if (msg != NULL && msg_len > 0) {
        va_start(ap, fmt);
        vsnprintf(msg, msg_len, fmt, ap);
        va_end(ap);
    }
    return status;
}

size_t
smma_gpu_smem_optin(int major, int minor)
{
    /* Bytes of shared memory one block may opt in to (CUDA C Programming
     * Guide, "Technical Specifications per Compute Capability"). */
    if (major == 8 && (minor == 0 || minor == 7))
        return 163u * 1024;
    if (major == 9 || major == 10 || major == 11)
        return 227u * 1024;
    return 99u * 1024; /* 8.6, 8.9, 12.x and anything unknown */
}

bool
smma_gpu_is16(smma_format f)
{
    return f == SMMA_BF16 || f == SMMA_FP16;
}

smma_gpu_kind
smma_gpu_kind_of(const smma_gemm_shape *s)
{
    return s->scale_fmt == SMMA_NONE && (smma_gpu_is16(s->a_fmt) || smma_gpu_is16(s->b_fmt))
               ? SMMA_GPU_KIND_16BIT : SMMA_GPU_KIND_SCALED;
}

int
smma_gpu_check_common(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;
    smma_error err;

    if (smma_gemm_shape_check(s, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s", err.msg);
    if (s->m > 0x7fffffffu || s->n > 0x7fffffffu || s->k > 0x7fffffffu)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "m, n and k must be below 2^31");
    if (s->c_fmt != SMMA_NONE && s->c_fmt != SMMA_FP32)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "C must be fp32 or absent, not "
                            "%s", smma_format_name(s->c_fmt));
    if (x->lda < (x->a_kmajor ? s->k : s->m))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "lda = %zu is less than %s = %zu",
                            x->lda, x->a_kmajor ? "k" : "m", x->a_kmajor ? s->k : s->m);
    if (x->ldb < (x->b_kmajor ? s->k : s->n))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "ldb = %zu is less than %s = %zu",
                            x->ldb, x->b_kmajor ? "k" : "n", x->b_kmajor ? s->k : s->n);
    if (x->ldd < s->n || (s->c_fmt == SMMA_FP32 && x->ldc < s->n))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "ldd (and ldc with C) must be at "
                            "least n = %zu", s->n);
    if (x->ldd > 0x7fffffffu || x->ldc > 0x7fffffffu || x->lda > 0x7fffffffu ||
        x->ldb > 0x7fffffffu)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "leading dimensions must be "
                            "below 2^31");
    if ((unsigned) x->kernel >= SMMA_GPU_KERNEL_COUNT)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "kernel %d is not a kernel",
                            (int) x->kernel);
    return SMMA_GPU_STATUS_OK;
}

/* ---- the block-scaled kernels ------------------------------------------------------------ */

static bool
quantized(smma_format f)
{
    return f == SMMA_E4M3 || f == SMMA_E5M2 || f == SMMA_E2M3 || f == SMMA_E3M2 ||
           f == SMMA_E2M1;
}

/* Elements of format f in 16 bytes. */
static size_t
per16(smma_format f)
{
    return f == SMMA_BF16 ? 8 : f == SMMA_E2M1 ? 32 : 16;
}

bool
smma_gpu_bs_pair_fast(smma_format a, smma_format b)
{
    switch (a * 16 + b) {
    case SMMA_E4M3 * 16 + SMMA_E4M3: case SMMA_E4M3 * 16 + SMMA_E5M2:
    case SMMA_E5M2 * 16 + SMMA_E4M3: case SMMA_E5M2 * 16 + SMMA_E5M2:
    case SMMA_E2M3 * 16 + SMMA_E2M3: case SMMA_E3M2 * 16 + SMMA_E3M2:
    case SMMA_E2M1 * 16 + SMMA_E2M1: case SMMA_E4M3 * 16 + SMMA_E2M1:
    case SMMA_BF16 * 16 + SMMA_E2M1: case SMMA_BF16 * 16 + SMMA_E4M3:
        return true;
    default:
        return false;
    }
}

int
smma_gpu_bs_common(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;

    if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s x %s without scales: no kernel "
                            "computes it (the 16-bit kernels take bf16 x bf16 and fp16 x fp16)",
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    if (!quantized(s->b_fmt) || (!quantized(s->a_fmt) && s->a_fmt != SMMA_BF16))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "block-scaled kernels take A in "
                            "e4m3, e5m2, e2m3, e3m2, e2m1 or bf16 and B in e4m3, e5m2, e2m3, "
                            "e3m2 or e2m1, not %s x %s", smma_format_name(s->a_fmt),
                            smma_format_name(s->b_fmt));
    if (!x->a_kmajor || !x->b_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "block-scaled kernels take A and B "
                            "K-major (the scales run along K)");
    if (x->scale_layout != SMMA_SL_LINEAR && x->scale_layout != SMMA_SL_128X4)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "scales must be in the linear or "
                            "the 128x4 layout, not %s", smma_scale_layout_name(x->scale_layout));
    if ((s->a_fmt == SMMA_E2M1 && (x->lda % 2 != 0 || s->k % 2 != 0)) ||
        (s->b_fmt == SMMA_E2M1 && (x->ldb % 2 != 0 || s->k % 2 != 0)))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "e2m1 operands come two codes per "
                            "byte: k and the leading dimension must be even");
    return SMMA_GPU_STATUS_OK;
}

int
smma_gpu_bs_fast(const smma_gpu_gemm_args *x, const char *kn, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;

    if (!smma_gpu_bs_pair_fast(s->a_fmt, s->b_fmt))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s x %s is not built (sm80-bs-v1 "
                            "computes it)", kn, smma_format_name(s->a_fmt),
                            smma_format_name(s->b_fmt));
    if (s->k % 8 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: k = %zu must be a multiple of 8",
                            kn, s->k);
    if (x->lda % per16(s->a_fmt) != 0 || x->ldb % per16(s->b_fmt) != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: rows of A and B must be "
                            "multiples of 16 bytes (lda = %zu, ldb = %zu)", kn, x->lda, x->ldb);
    if (((uintptr_t) x->a % 16) != 0 || ((uintptr_t) x->b % 16) != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A and B must be 16-byte "
                            "aligned", kn);
    if (x->lda >= (1u << 24) || x->ldb >= (1u << 24))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: lda and ldb must be below 2^24",
                            kn);
    return SMMA_GPU_STATUS_OK;
}
