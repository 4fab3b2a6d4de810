/*
 * gpu/gemm_check_bs.c - the host-side rules of the block-scaled kernels
 * (gpu/sm80/bs_*.cu; gpu/sm100/ where built): which problems each accepts,
 * which one SMMA_GPU_AUTO takes, and the model each reproduces.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "gemm_internal.h"
#include "sm100/sm100.h"
#include "sm90/sm90.h"

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

size_t
smma_gpu_bs_large_smem(smma_format a, smma_format b)
{
    size_t ra = a == SMMA_BF16 ? 128 : a == SMMA_E2M1 ? 32 : 64;
    size_t rb = b == SMMA_E2M1 ? 32 : 64;

    /* A 4-stage ring of 128 x 64 k of A and 256 x 64 k of B as stored, and
     * two bf16 buffers of the converted operands (16 KB of A unless it is
     * bf16, 32 KB of B). */
    return 4 * (128 * ra + 256 * rb) + 2 * ((a == SMMA_BF16 ? 0 : 16384) + 32768);
}

size_t
smma_gpu_bs_large_smem2(smma_format a, smma_format b)
{
    size_t ra = a == SMMA_BF16 ? 0 : a == SMMA_E2M1 ? 32 : 64; /* bf16 A skips the ring */
    size_t rb = b == SMMA_E2M1 ? 32 : 64;
    size_t raw = 128 * ra + 256 * rb + 4 * (128 + 256), conv = 3 * (16384 + 32768);
    size_t stages = (232448 - conv - 64) / raw;

    /* Three bf16 stages of 48 KB, as many stages of the stored bytes (B's
     * alone for bf16 A, which goes straight into the bf16 stages) and a
     * scale word per tile row as fit beside them in 227 KB, at most 4, and
     * 64 bytes of mbarriers. */
    return (stages > 4 ? 4 : stages) * raw + conv + 64;
}

int
smma_gpu_bs_large_choose(const char *knob, const smma_gpu_gemm_args *x, int *version, char *msg,
                         size_t msg_len)
{
    const smma_gemm_shape *s = &x->shape;
    size_t kb = s->vec != 0 ? (s->k + s->vec - 1) / s->vec : 0;
    bool words = (x->scale_layout == SMMA_SL_128X4 || kb % 4 == 0) &&
                 (uintptr_t) x->sb % 4 == 0 &&
                 (s->a_fmt == SMMA_BF16 || (uintptr_t) x->sa % 4 == 0);

    /* Version 2 is built with e8m0 scales, and with ue4m3 for NVFP4. */
    *version = words && (s->scale_fmt != SMMA_UE4M3 ||
                         (s->a_fmt == SMMA_E2M1 && s->b_fmt == SMMA_E2M1)) ? 2 : 1;
    if (knob == NULL || knob[0] == '\0' || strcmp(knob, "split") == 0)
        return SMMA_GPU_STATUS_OK;
    if (strcmp(knob, "inline") == 0) {
        *version = 1;
        return SMMA_GPU_STATUS_OK;
    }
    return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-large: "
                        "SMMA_SM80_BS_LARGE=%s: not inline or split", knob);
}

/* Rules every block-scaled kernel shares. */
static int
check_bs_common(const smma_gpu_gemm_args *x, char *msg, size_t len)
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

/* The rules of the fast kernels: 16-byte rows and pointers, K a multiple
 * of 8, a pair they are built for. */
static int
check_bs_fast(const smma_gpu_gemm_args *x, const char *kn, char *msg, size_t len)
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

static int
check_bs_large(const smma_gpu_gemm_args *x, size_t smem, char *msg, size_t len)
{
    int rc = check_bs_fast(x, "sm80-bs-large", msg, len);
    size_t need;

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    need = smma_gpu_bs_large_smem(x->shape.a_fmt, x->shape.b_fmt);
    if (need > smem)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-large: %s x %s needs %zu "
                            "bytes of shared memory per block, the device has %zu",
                            smma_format_name(x->shape.a_fmt), smma_format_name(x->shape.b_fmt),
                            need, smem);
    return SMMA_GPU_STATUS_OK;
}

int
smma_gpu_bs_small_split(const smma_gemm_shape *s)
{
    /* Versions 4 and 5 where each was the faster (ninth round): version 5
     * (converter threads of two blocks, half as many) for e2m1 B, and for
     * 6- and 8-bit B with quantized A where the CTAs are one wave (N <=
     * 8192: two CTAs an SM on the H100); else version 4, whose lone CTA at
     * the end of the last wave has twice the converters. */
    return s->b_fmt == SMMA_E2M1 || (s->a_fmt != SMMA_BF16 && s->n <= 8192) ? 5 : 4;
}

int
smma_gpu_bs_small_choose(const char *knob, const smma_gpu_gemm_args *x, int *version, char *msg,
                         size_t msg_len)
{
    const smma_gemm_shape *s = &x->shape;
    size_t kb = s->vec != 0 ? (s->k + s->vec - 1) / s->vec : 0;
    bool words = (x->scale_layout == SMMA_SL_128X4 || kb % 4 == 0) &&
                 (uintptr_t) x->sb % 4 == 0 &&
                 (s->a_fmt == SMMA_BF16 || (uintptr_t) x->sa % 4 == 0);
    /* version 6 is built for e8m0 per 32 and NVFP4 */
    bool v6 = s->scale_fmt == SMMA_UE4M3 ? s->vec == 16 : s->vec == 32;
    bool set = knob != NULL && knob[0] != '\0';

    *version = 0;
    if (set && strcmp(knob, "regs") != 0 && strcmp(knob, "split-transposed") != 0 &&
        strcmp(knob, "split-transposed-wide") != 0 && strcmp(knob, "transposed-lut") != 0)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: "
                            "SMMA_SM80_BS_SMALL=%s: not regs, transposed-lut, split-transposed "
                            "or split-transposed-wide", knob);
    if ((set && strcmp(knob, "regs") == 0) || !words ||
        (s->scale_fmt == SMMA_UE4M3 && s->b_fmt != SMMA_E2M1))
        *version = 1;
    else if (set && strcmp(knob, "split-transposed") == 0)
        *version = 4; /* 4 and 5: built for every scale format and vector left here */
    else if (set && strcmp(knob, "split-transposed-wide") == 0)
        *version = 5;
    else if (v6 && s->b_fmt == SMMA_E2M1 && set && strcmp(knob, "transposed-lut") == 0)
        *version = 6; /* built for e2m1 B only; other B as if unset */
    else if (v6 && s->b_fmt == SMMA_E2M1 &&
             (s->a_fmt == SMMA_E2M1 || s->m <= 8 || (s->a_fmt == SMMA_E4M3 && s->n >= 16384)))
        /* e2m1 B through the table (version 6) where it was the faster on
         * an H200 (bench/sm80-kernels.md): MXFP4 and NVFP4 at every shape,
         * MXFP8 x MXFP4 and bf16 x MXFP4 at M <= 8, MXFP8 x MXFP4 at M = 16
         * with N >= 16384 (version 5 elsewhere at M = 16). */
        *version = 6;
    else
        /* Every other scale vector too (e8m0 per 16, ue4m3 per 32 with
         * e2m1 B), and "transposed-lut" there. */
        *version = smma_gpu_bs_small_split(s);
    return SMMA_GPU_STATUS_OK;
}

/* sm80-bs-small permutes k inside each 16-k block (every lane holds four
 * consecutive k of a block, the same for A and B), which leaves the sum of a
 * block unchanged only where the device sums a block of 16 products as
 * one: not on compute capability 8.x, whose bf16 tensor cores sum blocks
 * of 8 (a100-bf16, ada-bf16), where the permutation would regroup the
 * products. */
static int
check_bs_small(const smma_gpu_gemm_args *x, int major, char *msg, size_t len)
{
    int rc = check_bs_fast(x, "sm80-bs-small", msg, len);

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    if (x->shape.m > 16)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: m = %zu must be at "
                            "most 16", x->shape.m);
    if (major == 8)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-small: compute capability "
                            "8.x sums bf16 products in blocks of 8 k, and this kernel permutes k "
                            "inside blocks of 16 (sm80-bs-large and sm80-bs-v1 do not)");
    return SMMA_GPU_STATUS_OK;
}

int
smma_gpu_check_scaled(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                      bool sm90a, smma_gpu_kernel *chosen, char *msg, size_t len)
{
    int rc = check_bs_common(x, msg, len);

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    switch (x->kernel) {
    case SMMA_GPU_AUTO:
        /* On compute capability 10.0 the tcgen05 kernel, where it takes the
         * problem (gpu/sm100/); elsewhere, and for what it refuses, the
         * mma.sync kernels for m <= 16 and, on 9.0 with sm_90a code,
         * sm90-bs above (its conversion pass and sm90-v2: 0.25-0.99x cuBLAS
         * bf16 on an H200 from m = 32 to 8192^3, where sm80-bs-large ran at
         * 0.19-0.48x; bench/sm90-kernels.md); all three follow
         * bf16-upcast-h100 on 9.0. */
        if (major == 10 && minor == 0 &&
            smma_sm100_check(x, SMMA_GPU_SM100_V2, NULL, 0) == SMMA_GPU_STATUS_OK)
            *chosen = SMMA_GPU_SM100_V2;
        else if (check_bs_small(x, major, NULL, 0) == SMMA_GPU_STATUS_OK)
            *chosen = SMMA_GPU_SM80_BS_SMALL;
        else if (major == 9 && minor == 0 && sm90a
                 && smma_sm90_check(x, SMMA_GPU_SM90_BS, NULL, 0) == SMMA_GPU_STATUS_OK)
            *chosen = SMMA_GPU_SM90_BS;
        else if (check_bs_large(x, smem, NULL, 0) == SMMA_GPU_STATUS_OK)
            *chosen = SMMA_GPU_SM80_BS_LARGE;
        else
            *chosen = SMMA_GPU_SM80_BS_V1;
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM80_BS_V1:
        *chosen = SMMA_GPU_SM80_BS_V1;
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM80_BS_LARGE:
        *chosen = SMMA_GPU_SM80_BS_LARGE;
        return check_bs_large(x, smem, msg, len);
    case SMMA_GPU_SM80_BS_SMALL:
        *chosen = SMMA_GPU_SM80_BS_SMALL;
        return check_bs_small(x, major, msg, len);
    default:
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s does not compute block-scaled "
                            "products on this device", smma_gpu_kernel_name(x->kernel));
    }
}

int
smma_gpu_model_scaled(smma_gpu_kernel kernel, const smma_gemm_shape *s, int major, int minor,
                      const char **model, char *msg, size_t len)
{
    switch (kernel) {
    case SMMA_GPU_SM80_BS_V1:
    case SMMA_GPU_SM80_BS_LARGE:
    case SMMA_GPU_SM80_BS_SMALL:
        if (kernel == SMMA_GPU_SM80_BS_SMALL && major == 8)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-small follows no model "
                                "on compute capability %d.%d: it permutes k inside 16-k blocks, "
                                "and that device sums blocks of 8", major, minor);
        if (major == 8 && minor == 0)
            *model = "bf16-upcast-a100";
        else if (major == 8 && minor == 9)
            *model = "bf16-upcast-ada";
        else if (major == 9 && minor == 0)
            *model = "bf16-upcast-h100";
        else if (major == 10 && (minor == 0 || minor == 3))
            *model = "bf16-upcast-b200";
        else
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "softmma has no model of the "
                                "mma.sync tensor cores of compute capability %d.%d (it has "
                                "8.0, 8.9, 9.0, 10.0, 10.3)", major, minor);
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM100_V1:
    case SMMA_GPU_SM100_V2:
        if (major != 10 || minor != 0 || smma_sm100_model(s) == NULL)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s has no model for %s x %s "
                                "on compute capability %d.%d", smma_gpu_kernel_name(kernel),
                                smma_format_name(s->a_fmt), smma_format_name(s->b_fmt), major,
                                minor);
        *model = smma_sm100_model(s);
        return SMMA_GPU_STATUS_OK;
    default:
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s has no model on compute "
                            "capability %d.%d", smma_gpu_kernel_name(kernel), major, minor);
    }
}
