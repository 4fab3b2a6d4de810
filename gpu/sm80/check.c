/*
 * gpu/sm80/check.c - the rows of the mma.sync kernels (the .cu files of gpu/sm80/) in
 * the kernel table (gpu/kernels.h): which problems each accepts on which
 * device, the numerics model each reproduces, the choices between their
 * versions, and their launchers.  Plain C, built with and without CUDA, so
 * that the rules are tested everywhere (tests/gpu/gemm-check-t); it calls
 * nothing of gpu/ above gpu/rules.c.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "../gemm_internal.h"
#include "../kernels.h"
#include "sm80.h"

/* ---- the 16-bit kernels -------------------------------------------------------------------- */

/* The sm80-v2 shared memory: 3 or 4 stages of 48 KB. */
size_t
smma_gpu_v2_stages(size_t smem)
{
    return smem >= 4u * SMMA_GPU_V2_STAGE ? 4 : smem >= 3u * SMMA_GPU_V2_STAGE ? 3 : 0;
}

int
smma_gpu_v2_choose(const char *tile, const char *stages, size_t smem, size_t *nstages,
                   char *msg, size_t msg_len)
{
    const size_t fit = smma_gpu_v2_stages(smem);

    if (tile != NULL && tile[0] != '\0')
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-v2: "
                            "SMMA_SM80_V2_TILE=%s: sm80-v2 has one tile, 128 x 256 (its "
                            "variants were removed)", tile);
    if (fit == 0)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EARCH, "sm80-v2: the device has %zu "
                            "bytes of shared memory per block", smem);
    *nstages = fit;
    if (stages != NULL && strcmp(stages, "3") == 0) {
        *nstages = 3;
    } else if (stages != NULL && strcmp(stages, "4") == 0) {
        if (fit < 4)
            return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EARCH, "sm80-v2: "
                                "SMMA_SM80_V2_STAGES=4: %zu bytes of shared memory per block "
                                "hold 3 stages", smem);
    } else if (stages != NULL && stages[0] != '\0') {
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-v2: "
                            "SMMA_SM80_V2_STAGES=%s: not 3 or 4", stages);
    }
    return SMMA_GPU_STATUS_OK;
}

static bool
aligned(const void *p, size_t n)
{
    return ((uintptr_t) p % n) == 0;
}

/* What both 16-bit kernels take: one 16-bit format, no scales. */
static int
accepts_16bit(const smma_gpu_gemm_args *x, const char *kn, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;

    if (smma_gpu_kind_of(s) != SMMA_GPU_KIND_16BIT)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s does not compute block-scaled "
                            "products (the sm80-bs kernels do)", kn);
    if (s->a_fmt != s->b_fmt)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "A and B must have one 16-bit "
                            "format (%s x %s)", smma_format_name(s->a_fmt),
                            smma_format_name(s->b_fmt));
    return SMMA_GPU_STATUS_OK;
}

static int
accepts_v1(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    (void) dev;
    return accepts_16bit(x, "sm80-v1", msg, len);
}

static int
accepts_v2(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;
    const char *kn = "sm80-v2";
    int rc = accepts_16bit(x, kn, msg, len);

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    if (!x->a_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A must be K-major "
                            "(row-major); sm80-v1 takes an M-major A", kn);
    if (s->k % 8 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: k = %zu must be a multiple "
                            "of 8", kn, s->k);
    if (x->lda % 8 != 0 || x->ldb % 8 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: lda = %zu and ldb = %zu "
                            "must be multiples of 8 (16-byte rows)", kn, x->lda, x->ldb);
    if (!aligned(x->a, 16) || !aligned(x->b, 16))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A and B must be 16-byte "
                            "aligned", kn);
    if (smma_gpu_v2_stages(dev->smem) == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s: needs %u bytes of shared "
                            "memory per block, the device has %zu", kn,
                            3u * SMMA_GPU_V2_STAGE, dev->smem);
    return SMMA_GPU_STATUS_OK;
}

/* The models of mma.sync on each device softmma has one of: the
 * bf16/fp16 block-FMA model, and bf16-upcast-<device> (every element
 * times its scale to bf16, then that chain). */
static const struct {
    int major, minor;
    const char *bf16, *upcast;
} mma_models[] = {
    { 8, 0, "a100-bf16", "bf16-upcast-a100" },
    { 8, 9, "ada-bf16", "bf16-upcast-ada" },
    { 9, 0, "h100-bf16", "bf16-upcast-h100" },
    { 10, 0, "b200-bf16", "bf16-upcast-b200" },
    { 10, 3, "b200-bf16", "bf16-upcast-b200" },
};

static int
mma_model(int major, int minor, bool upcast, const char **model, char *msg, size_t len)
{
    size_t i;

    for (i = 0; i < sizeof(mma_models) / sizeof(mma_models[0]); i++)
        if (mma_models[i].major == major && mma_models[i].minor == minor) {
            *model = upcast ? mma_models[i].upcast : mma_models[i].bf16;
            return SMMA_GPU_STATUS_OK;
        }
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "softmma has no model of the mma.sync "
                        "tensor cores of compute capability %d.%d (it has 8.0, 8.9, 9.0, 10.0, "
                        "10.3)", major, minor);
}

static int
model_16bit(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
            size_t len)
{
    (void) s;
    return mma_model(major, minor, false, model, msg, len);
}

/* ---- the block-scaled kernels ------------------------------------------------------------ */

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

/* Whether the scales of x can be read a 4-byte word per row and k tile:
 * the 128x4 layout, or the linear one with a number of blocks a row that
 * is a multiple of 4, at 4-byte aligned addresses. */
static bool
scale_words(const smma_gpu_gemm_args *x)
{
    const smma_gemm_shape *s = &x->shape;
    size_t kb = s->vec != 0 ? (s->k + s->vec - 1) / s->vec : 0;

    return (x->scale_layout == SMMA_SL_128X4 || kb % 4 == 0) && (uintptr_t) x->sb % 4 == 0
           && (s->a_fmt == SMMA_BF16 || (uintptr_t) x->sa % 4 == 0);
}

int
smma_gpu_bs_large_choose(const char *knob, const smma_gpu_gemm_args *x, int *version, char *msg,
                         size_t msg_len)
{
    const smma_gemm_shape *s = &x->shape;
    bool words = scale_words(x);

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
    bool words = scale_words(x);
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

static int
accepts_bs_v1(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    (void) dev;
    return smma_gpu_bs_common(x, msg, len);
}

static int
accepts_bs_large(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    int rc = smma_gpu_bs_common(x, msg, len);
    size_t need;

    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_bs_fast(x, "sm80-bs-large", msg, len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    need = smma_gpu_bs_large_smem(x->shape.a_fmt, x->shape.b_fmt);
    if (need > dev->smem)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-large: %s x %s needs %zu "
                            "bytes of shared memory per block, the device has %zu",
                            smma_format_name(x->shape.a_fmt), smma_format_name(x->shape.b_fmt),
                            need, dev->smem);
    return SMMA_GPU_STATUS_OK;
}

/* sm80-bs-small permutes k inside each 16-k block (every lane holds four
 * consecutive k of a block, the same for A and B), which leaves the sum of a
 * block unchanged only where the device sums a block of 16 products as
 * one: not on compute capability 8.x, whose bf16 tensor cores sum blocks
 * of 8 (a100-bf16, ada-bf16), where the permutation would regroup the
 * products. */
static int
accepts_bs_small(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    int rc = smma_gpu_bs_common(x, msg, len);

    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_bs_fast(x, "sm80-bs-small", msg, len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    if (x->shape.m > 16)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-small: m = %zu must be at "
                            "most 16", x->shape.m);
    if (dev->major == 8)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-small: compute capability "
                            "8.x sums bf16 products in blocks of 8 k, and this kernel permutes k "
                            "inside blocks of 16 (sm80-bs-large and sm80-bs-v1 do not)");
    return SMMA_GPU_STATUS_OK;
}

static int
model_upcast(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
             size_t len)
{
    (void) s;
    return mma_model(major, minor, true, model, msg, len);
}

static int
model_bs_small(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
               size_t len)
{
    if (major == 8)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm80-bs-small follows no model "
                            "on compute capability %d.%d: it permutes k inside 16-k blocks, "
                            "and that device sums blocks of 8", major, minor);
    return model_upcast(s, major, minor, model, msg, len);
}

/* ---- the rows ---------------------------------------------------------------------------- */

#define SM80_NEEDS 8, 0, true, "8.0 or later (mma.sync.m16n8k16)"

const smma_gpu_kernel_row smma_sm80_rows[] = {
    { SMMA_GPU_SM80_V1, "sm80-v1", "gpu/sm80/gemm_v1.cu", "sm_80", SM80_NEEDS,
      SMMA_GPU_KIND_16BIT, "teaching kernel: bf16/fp16, one warp per tile, any layout",
      accepts_v1, model_16bit, smma_sm80_v1_launch },
    { SMMA_GPU_SM80_V2, "sm80-v2", "gpu/sm80/gemm_v2.cu", "sm_80", SM80_NEEDS,
      SMMA_GPU_KIND_16BIT, "bf16/fp16: cp.async pipeline, ldmatrix, 128 x 256 tiles",
      accepts_v2, model_16bit, smma_sm80_v2_launch },
    { SMMA_GPU_SM80_BS_V1, "sm80-bs-v1", "gpu/sm80/bs_v1.cu", "sm_80", SM80_NEEDS,
      SMMA_GPU_KIND_SCALED, "teaching block-scaled kernel: every pair, upcast to bf16",
      accepts_bs_v1, model_upcast, smma_sm80_bs_v1_launch },
    { SMMA_GPU_SM80_BS_LARGE, "sm80-bs-large", "gpu/sm80/bs_large.cu", "sm_80", SM80_NEEDS,
      SMMA_GPU_KIND_SCALED, "block-scaled, large M: converter warps feeding mma warps",
      accepts_bs_large, model_upcast, smma_sm80_bs_large_launch },
    { SMMA_GPU_SM80_BS_SMALL, "sm80-bs-small", "gpu/sm80/bs_small.cu", "sm_80", SM80_NEEDS,
      SMMA_GPU_KIND_SCALED, "block-scaled, M <= 16: B's rows on the mma's M side",
      accepts_bs_small, model_bs_small, smma_sm80_bs_small_launch },
};

const size_t smma_sm80_nrows = sizeof(smma_sm80_rows) / sizeof(smma_sm80_rows[0]);
