/*
 * gpu/sm100/check.c - which problems the sm_100 kernels accept, their plan
 * (plan.h), and their rows in the kernel table (gpu/kernels.h).  Plain C
 * without CUDA, so that the rules and the plan are tested on every machine
 * (tests/sim/sm100-dry-t.c); it calls nothing else of gpu/.
 */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kernels.h"
#include "sm100.h"

/* The tcgen05 codes (softmma/tcgen05.h), repeated here as numbers so that
 * this file needs only plan.h's view of the simulator. */
enum {
    KIND_MXF8F6F4 = 4, KIND_MXF4 = 5, KIND_MXF4NVF4 = 6,
    CODE_E4M3 = 0, CODE_E5M2 = 1, CODE_E2M3 = 3, CODE_E3M2 = 4, CODE_E2M1 = 5,
    CODE_MXF4_E2M1 = 1, SCALE_UE4M3 = 0, SCALE_UE8M0 = 1
};

static int
refuse(char *msg, size_t len, const char *kname, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int
refuse(char *msg, size_t len, const char *kname, const char *fmt, ...)
{
    va_list ap;
    int n = 0;

    if (msg != NULL && len > 0) {
        n = snprintf(msg, len, "%s: ", kname);
        if (n >= 0 && (size_t) n < len) {
            va_start(ap, fmt);
            vsnprintf(msg + n, len - (size_t) n, fmt, ap);
            va_end(ap);
        }
    }
    return SMMA_GPU_STATUS_EINVAL;
}

/* The mxf8f6f4 code of an element format, or -1. */
static int
f8f6f4_code(smma_format f)
{
    switch (f) {
    case SMMA_E4M3: return CODE_E4M3;
    case SMMA_E5M2: return CODE_E5M2;
    case SMMA_E2M3: return CODE_E2M3;
    case SMMA_E3M2: return CODE_E3M2;
    case SMMA_E2M1: return CODE_E2M1;
    default: return -1;
    }
}

/* The byte of -0 in the one-byte storage of an mxf8f6f4 format. */
static uint32_t
neg_zero_byte(smma_format f)
{
    switch (f) {
    case SMMA_E4M3:
    case SMMA_E5M2: return 0x80;     /* sign bit 7 */
    default: return 0x20;            /* e2m3/e3m2: bit 5; e2m1 in bits 5-2: bit 5 */
    }
}

/* Chooses the kind for the formats; the message names the formats when
 * there is none.  Fills kind, codes, element bits and scale_vec. */
static int
pick_kind(const smma_gemm_shape *s, smma_sm100_plan *p, char *msg, size_t len,
          const char *kname)
{
    int ca = f8f6f4_code(s->a_fmt), cb = f8f6f4_code(s->b_fmt);
    bool fp4 = s->a_fmt == SMMA_E2M1 && s->b_fmt == SMMA_E2M1;

    if (s->scale_fmt == SMMA_NONE || ca < 0 || cb < 0)
        return refuse(msg, len, kname,
                      "formats %s x %s with scales %s are not a block-scaled kind of "
                      "tcgen05.mma (e4m3, e5m2, e2m3, e3m2, e2m1 with e8m0 or ue4m3 scales)",
                      smma_format_name(s->a_fmt), smma_format_name(s->b_fmt),
                      s->scale_fmt == SMMA_NONE ? "none" : smma_format_name(s->scale_fmt));
    if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
        return refuse(msg, len, kname, "scale format %s is not e8m0 or ue4m3",
                      smma_format_name(s->scale_fmt));
    p->scale_fmt = s->scale_fmt == SMMA_E8M0 ? SCALE_UE8M0 : SCALE_UE4M3;
    p->sf_one = s->scale_fmt == SMMA_E8M0 ? 0x7f : 0x38;
    p->vec = s->vec;
    if (fp4 && s->vec == 16) {
        p->kind = KIND_MXF4NVF4;
        p->scale_vec = 4;
    } else if (s->scale_fmt == SMMA_UE4M3) {
        return refuse(msg, len, kname,
                      "ue4m3 scales need e2m1 x e2m1 with vec 16 (.kind::mxf4nvf4 "
                      ".scale_vec::4X); this is %s x %s with vec %u",
                      smma_format_name(s->a_fmt), smma_format_name(s->b_fmt), s->vec);
    } else if (s->vec != 32) {
        return refuse(msg, len, kname,
                      "vec %u: %s x %s takes one e8m0 scale per 32 elements "
                      "(.kind::mxf8f6f4 .scale_vec::1X)", s->vec,
                      smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    } else if (fp4) {
        p->kind = KIND_MXF4;
        p->scale_vec = 2;
    } else {
        p->kind = KIND_MXF8F6F4;
        p->scale_vec = 1;
    }
    if (p->kind == KIND_MXF8F6F4) {
        p->a_code = (uint32_t) ca;
        p->b_code = (uint32_t) cb;
        p->elem_bits = 8;
        p->a_neg_zero = neg_zero_byte(s->a_fmt);
        p->a_expand = s->a_fmt == SMMA_E2M1;
        p->b_expand = s->b_fmt == SMMA_E2M1;
        p->k_instr = 32;
    } else {
        p->a_code = p->b_code = CODE_MXF4_E2M1;
        p->elem_bits = 4;
        p->a_neg_zero = 0x88;
        p->k_instr = 64;
    }
    return SMMA_GPU_STATUS_OK;
}

static uint32_t
pow2_at_least(uint32_t x)
{
    uint32_t v = 32;

    while (v < x)
        v *= 2;
    return v;
}

static uint32_t
kind_of(smma_format f)
{
    switch (f) {
    case SMMA_FP32: return SMMA_SM100_F32;
    case SMMA_BF16: return SMMA_SM100_BF16;
    case SMMA_FP16: return SMMA_SM100_F16;
    default: return SMMA_SM100_NONE;
    }
}

/* The leading dimension of A or B, in bytes of the caller's storage, and
 * the checks of it. */
static int
check_ld(const char *kname, const char *name, size_t ld, smma_format f, size_t k,
         uint64_t *bytes, char *msg, size_t len)
{
    if (ld < k)
        return refuse(msg, len, kname, "%s = %zu is less than k = %zu", name, ld, k);
    if (f == SMMA_E2M1 && ld % 2 != 0)
        return refuse(msg, len, kname, "%s = %zu must be even for packed e2m1", name, ld);
    if (ld > (size_t) INT64_MAX / 2)
        return refuse(msg, len, kname, "%s = %zu is too large", name, ld);
    *bytes = f == SMMA_E2M1 ? ld / 2 : ld;
    return SMMA_GPU_STATUS_OK;
}

int
smma_sm100_plan_init(smma_sm100_plan *p, const smma_gpu_gemm_args *a, smma_gpu_kernel k,
                     unsigned sms, char *msg, size_t len)
{
    const smma_gemm_shape *s;
    const char *kname = k == SMMA_GPU_SM100_V1 ? "sm100-v1"
                        : k == SMMA_GPU_SM100_V2 ? "sm100-v2" : "sm100-v3";
    smma_error err;
    uint32_t sfb;
    int rc;

    if (k != SMMA_GPU_SM100_V1 && k != SMMA_GPU_SM100_V2 && k != SMMA_GPU_SM100_V3)
        return refuse(msg, len, "sm100", "kernel %d is not sm100-v1, sm100-v2 or sm100-v3",
                      (int) k);
    if (a == NULL || p == NULL)
        return refuse(msg, len, kname, "no problem given");
    s = &a->shape;
    memset(p, 0, sizeof(*p));
    p->version = k == SMMA_GPU_SM100_V1 ? 1 : k == SMMA_GPU_SM100_V2 ? 2 : 3;
    if (smma_gemm_shape_check(s, &err) != SMMA_OK)
        return refuse(msg, len, kname, "%s", err.msg);
    if (s->m > INT32_MAX || s->n > INT32_MAX || s->k > INT32_MAX)
        return refuse(msg, len, kname, "m, n and k must be at most 2^31 - 1");
    if ((rc = pick_kind(s, p, msg, len, kname)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (!a->a_kmajor || !a->b_kmajor)
        return refuse(msg, len, kname, "A and B must be K-major (a_kmajor and b_kmajor)");
    if (s->c_fmt != SMMA_NONE && s->c_fmt != SMMA_FP32 && s->c_fmt != SMMA_BF16
        && s->c_fmt != SMMA_FP16)
        return refuse(msg, len, kname, "C format %s is not fp32, bf16 or fp16",
                      smma_format_name(s->c_fmt));
    if (s->d_fmt != SMMA_FP32 && s->d_fmt != SMMA_BF16 && s->d_fmt != SMMA_FP16)
        return refuse(msg, len, kname, "D format %s is not fp32, bf16 or fp16",
                      smma_format_name(s->d_fmt));
    if (a->scale_layout != SMMA_SL_LINEAR && a->scale_layout != SMMA_SL_128X4)
        return refuse(msg, len, kname, "scale layout %s is not linear or 128x4",
                      smma_scale_layout_name(a->scale_layout));
    if (s->c_fmt != SMMA_NONE && a->ldc < s->n)
        return refuse(msg, len, kname, "ldc = %zu is less than n = %zu", a->ldc, s->n);
    if (a->ldd < s->n)
        return refuse(msg, len, kname, "ldd = %zu is less than n = %zu", a->ldd, s->n);
    if ((rc = check_ld(kname, "lda", a->lda, s->a_fmt, s->k, &p->a_src_ld, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = check_ld(kname, "ldb", a->ldb, s->b_fmt, s->k, &p->b_src_ld, msg, len))
        != SMMA_GPU_STATUS_OK)
        return rc;
    p->m = (uint32_t) s->m;
    p->n = (uint32_t) s->n;
    p->k = (uint32_t) s->k;
    p->kbytes = (uint32_t) ((uint64_t) p->k * p->elem_bits / 8);
    /* An unpacked e2m1 operand has one byte per element, rows 16-aligned. */
    p->a_ld = p->a_expand ? ((uint64_t) p->k + 15) / 16 * 16 : p->a_src_ld;
    p->b_ld = p->b_expand ? ((uint64_t) p->k + 15) / 16 * 16 : p->b_src_ld;
    if (p->version >= 2) {
        if ((!p->a_expand && (p->a_ld % 16 != 0 || (uintptr_t) a->a % 16 != 0))
            || (!p->b_expand && (p->b_ld % 16 != 0 || (uintptr_t) a->b % 16 != 0)))
            return refuse(msg, len, kname,
                          "TMA needs A and B rows at 16-byte aligned addresses: lda = %zu, "
                          "ldb = %zu (%llu, %llu bytes) and the pointers must be multiples of "
                          "16 bytes", a->lda, a->ldb, (unsigned long long) p->a_ld,
                          (unsigned long long) p->b_ld);
        if (a->scale_layout == SMMA_SL_128X4
            && ((uintptr_t) a->sa % 16 != 0 || (uintptr_t) a->sb % 16 != 0))
            return refuse(msg, len, kname,
                          "TMA needs 128x4 scale arrays at 16-byte aligned addresses");
    }
    p->sf_linear = a->scale_layout == SMMA_SL_LINEAR;
    p->kb = (uint32_t) ((s->k + p->vec - 1) / p->vec);
    p->kb_pad = (p->kb + 3) / 4 * 4;
    p->a_rows_pad = (p->m + 127) / 128 * 128;
    p->b_rows_pad = (p->n + 127) / 128 * 128;
    if ((uint64_t) p->kb_pad * (p->a_rows_pad > p->b_rows_pad ? p->a_rows_pad : p->b_rows_pad)
        > (uint64_t) INT64_MAX / 2)
        return refuse(msg, len, kname, "the scale matrices are too large");

    /* Tiling: N of the instruction as wide as the problem needs, up to 256;
     * v3 splits B between the CTAs of a pair and runs M = 256. */
    p->bn = p->n <= 64 ? 64 : p->n <= 128 ? 128 : 256;
    p->b_rows = p->version == 3 ? p->bn / 2 : p->bn;
    p->mma_m = p->version == 3 ? 2 * SMMA_SM100_BM : SMMA_SM100_BM;
    p->k_step = SMMA_SM100_ROWB * 8 / p->elem_bits;
    p->pipe.kiters = (p->k + p->k_step - 1) / p->k_step;
    p->sf_blks = p->k_step / p->vec / 4;
    p->nrb = (p->bn + 127) / 128;
    p->pipe.tiles_m = (p->m + SMMA_SM100_BM - 1) / SMMA_SM100_BM;
    p->pipe.tiles_n = (p->n + p->bn - 1) / p->bn;
    if ((uint64_t) p->pipe.tiles_m * p->pipe.tiles_n > INT32_MAX)
        return refuse(msg, len, kname, "%u x %u tiles are too many", p->pipe.tiles_m,
                      p->pipe.tiles_n);
    p->tiles = p->pipe.tiles_m * p->pipe.tiles_n;
    p->pipe.cluster = p->version == 3 ? 2 : 1;
    p->pipe.group = smma_pipe_units_m(&p->pipe); /* M fastest */

    /* One stage: A (16 KiB), B (b_rows x 128 bytes), the scale blocks;
     * each stage starts 1024-aligned, the alignment of the 128B swizzle. */
    p->off_a = 0;
    p->off_b = SMMA_SM100_BM * SMMA_SM100_ROWB;
    p->off_sfa = p->off_b + p->b_rows * SMMA_SM100_ROWB;
    p->off_sfb = p->off_sfa + p->sf_blks * SMMA_SM100_SFBLK;
    sfb = p->nrb * p->sf_blks * SMMA_SM100_SFBLK;
    p->pipe.stage_bytes = (p->off_sfb + sfb + 1023) / 1024 * 1024;
    p->pipe.stage_tx = p->off_sfb + sfb;
    p->sf_cols = 4 * p->sf_blks * (1 + p->nrb);
    if (p->version == 1) {
        p->pipe.stages = 1;
        p->acc_stages = 1;
        p->pipe.grid = p->tiles;
    } else {
        uint32_t room = SMMA_SM100_SMEM_LIMIT - SMMA_SM100_BAR_BYTES - 1024;

        p->pipe.stages = room / p->pipe.stage_bytes;
        if (p->pipe.stages > 8)
            p->pipe.stages = 8;
        while (p->pipe.stages > 2
               && p->bn + p->pipe.stages * p->sf_cols > SMMA_SM100_TMEM_COLS)
            p->pipe.stages--;
        if (p->pipe.stages < 2)
            return refuse(msg, len, kname, "a stage of %u bytes leaves no room for two",
                          p->pipe.stage_bytes);
        p->acc_stages = 2 * p->bn + p->pipe.stages * p->sf_cols <= SMMA_SM100_TMEM_COLS ? 2 : 1;
        if (p->version == 2) {
            p->pipe.grid = sms == 0 ? 1 : p->tiles < sms ? p->tiles : sms;
        } else {
            uint32_t units = smma_pipe_units(&p->pipe), pairs = sms / 2 ? sms / 2 : 1;

            p->pipe.grid = 2 * (units < pairs ? units : pairs);
        }
    }
    p->col_sf = p->acc_stages * p->bn;
    p->tmem_cols = pow2_at_least(p->col_sf + p->pipe.stages * p->sf_cols);
    p->pipe.off_bar = p->pipe.stages * p->pipe.stage_bytes;
    p->smem_bytes = p->pipe.off_bar + SMMA_SM100_BAR_BYTES + 1024;

    p->c_kind = kind_of(s->c_fmt);
    p->d_kind = kind_of(s->d_fmt);
    p->c_ld = a->ldc;
    p->d_ld = a->ldd;
    p->has_alpha = s->has_alpha;
    p->alpha = s->alpha;
    return SMMA_GPU_STATUS_OK;
}

int
smma_sm100_check(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    smma_sm100_plan p;

    return smma_sm100_plan_init(&p, a, k, SMMA_SM100_DEFAULT_SMS, msg, len);
}

const char *
smma_sm100_model(const smma_gemm_shape *s)
{
    smma_sm100_plan p;

    if (s == NULL || pick_kind(s, &p, NULL, 0, "sm100") != SMMA_GPU_STATUS_OK)
        return NULL;
    return "b200-fp8";
}

/* ---- the rows ---------------------------------------------------------------------------- */

static int
accepts(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    (void) dev;
    return smma_sm100_check(x, x->kernel, msg, len);
}

static int
model(const smma_gemm_shape *s, int major, int minor, const char **m, char *msg, size_t len)
{
    if (major != 10 || minor != 0 || smma_sm100_model(s) == NULL)
        return refuse(msg, len, "sm100", "no model for %s x %s on compute capability %d.%d",
                      smma_format_name(s->a_fmt), smma_format_name(s->b_fmt), major, minor);
    *m = smma_sm100_model(s);
    return SMMA_GPU_STATUS_OK;
}

static int
launch(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    return smma_sm100_gemm(x, x->kernel, msg, len);
}

#define SM100_NEEDS "sm_100a", 10, 0, false, "10.0 (tcgen05, sm_100a)"

const smma_gpu_kernel_row smma_sm100_rows[] = {
    { SMMA_GPU_SM100_V1, "sm100-v1", "gpu/sm100/gemm_v1.cu", SM100_NEEDS,
      SMMA_GPU_KIND_SCALED, "tcgen05 teaching kernel: MX and NVFP4 pairs of at most 8 bits",
      accepts, model, launch },
    { SMMA_GPU_SM100_V2, "sm100-v2", "gpu/sm100/gemm_v2.cu", SM100_NEEDS,
      SMMA_GPU_KIND_SCALED, "tcgen05: TMA, warp-specialized, persistent",
      accepts, model, launch },
    { SMMA_GPU_SM100_V3, "sm100-v3", "gpu/sm100/gemm_v3.cu", SM100_NEEDS,
      SMMA_GPU_KIND_SCALED, "tcgen05.mma.cta_group::2: 256 x N tiles over CTA pairs",
      accepts, model, launch },
};

const size_t smma_sm100_nrows = sizeof(smma_sm100_rows) / sizeof(smma_sm100_rows[0]);
