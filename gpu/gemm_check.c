/*
 * gpu/gemm_check.c - the host-side rules of the GPU GEMM kernels: their
 * names, which problems each accepts on which device, which one runs for
 * SMMA_GPU_AUTO, and the numerics model each reproduces.  Plain C, built
 * with and without CUDA, so that these rules are tested everywhere
 * (tests/gpu/gemm-check-t).
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gemm_internal.h"
#include "sm100/sm100.h"
#include "sm90/sm90.h"

static const char *const kernel_names[SMMA_GPU_KERNEL_COUNT] = {
    "auto", "sm80-v1", "sm80-v2", "sm80-bs-v1", "sm80-bs-large", "sm80-bs-small",
    "sm100-v1", "sm100-v2", "sm90-v1", "sm90-v2",
    "sm90-promote32", "sm90-bs"
};

const char *
smma_gpu_kernel_name(smma_gpu_kernel k)
{
    return (unsigned) k < SMMA_GPU_KERNEL_COUNT ? kernel_names[k] : "?";
}

int
smma_gpu_kernel_from_name(const char *name, smma_gpu_kernel *out, smma_error *err)
{
    unsigned i;

    for (i = 0; name != NULL && i < SMMA_GPU_KERNEL_COUNT; i++)
        if (strcasecmp(name, kernel_names[i]) == 0) {
            *out = (smma_gpu_kernel) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL, "unknown kernel '%s' (known: auto sm80-v1 sm80-v2 "
                          "sm80-bs-v1 sm80-bs-large sm80-bs-small sm100-v1 sm100-v2 sm90-v1 "
                          "sm90-v2 sm90-promote32 sm90-bs)",
                          name != NULL ? name : "(null)");
}

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

/* ---- the 16-bit kernels ------------------------------------------------- */

static bool
is16(smma_format f)
{
    return f == SMMA_BF16 || f == SMMA_FP16;
}

static bool
aligned(const void *p, size_t n)
{
    return ((uintptr_t) p % n) == 0;
}

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

static int
check_v2(const smma_gpu_gemm_args *x, size_t smem, char *msg, size_t len)
{
    const smma_gemm_shape *s = &x->shape;
    const char *kn = "sm80-v2";

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
    if (smma_gpu_v2_stages(smem) == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s: needs %u bytes of shared "
                            "memory per block, the device has %zu", kn,
                            3u * SMMA_GPU_V2_STAGE, smem);
    return SMMA_GPU_STATUS_OK;
}

/* ---- common checks ------------------------------------------------------ */

static int
check_common(const smma_gpu_gemm_args *x, char *msg, size_t len)
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

/* The kernels in the order AUTO would prefer them where several follow a
 * model: AUTO's own choice first, then these (the sm_90 block-scaled
 * kernels run by name otherwise, being slower or of another model). */
static const smma_gpu_kernel by_model[] = {
    SMMA_GPU_SM100_V2, SMMA_GPU_SM100_V1, SMMA_GPU_SM90_V2, SMMA_GPU_SM90_V1,
    SMMA_GPU_SM90_PROMOTE32, SMMA_GPU_SM80_BS_SMALL, SMMA_GPU_SM90_BS, SMMA_GPU_SM80_BS_LARGE,
    SMMA_GPU_SM80_BS_V1, SMMA_GPU_SM80_V2, SMMA_GPU_SM80_V1,
};

/* Whether kernel k takes x on the device and follows the model named m
 * there. */
static bool
follows(const smma_gpu_gemm_args *x, smma_gpu_kernel k, int major, int minor, size_t smem,
        bool sm90a, const char *m)
{
    smma_gpu_gemm_args y = *x;
    smma_gpu_kernel got;
    const char *km = NULL;

    y.kernel = k;
    y.model = NULL;
    return smma_gpu_gemm_check_ex(&y, major, minor, smem, sm90a, &got, NULL, 0)
               == SMMA_GPU_STATUS_OK
           && smma_gpu_gemm_model(got, &x->shape, major, minor, &km, NULL, 0)
               == SMMA_GPU_STATUS_OK
           && strcmp(km, m) == 0;
}

/* SMMA_GPU_AUTO with a model: AUTO's kernel where it follows the model,
 * else the first of by_model that takes the problem and follows it. */
static int
choose_for_model(const smma_gpu_gemm_args *x, int major, int minor, size_t smem, bool sm90a,
                 smma_gpu_kernel *chosen, char *msg, size_t len)
{
    smma_gpu_gemm_args y = *x;
    const smma_model *m;
    smma_error err;
    smma_gpu_kernel k;
    const char *km = NULL;
    char why[256] = "";
    size_t i;
    int rc;

    if (smma_model_from_name(x->model, &m, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "model: %s", err.msg);
    y.model = NULL;
    rc = smma_gpu_gemm_check_ex(&y, major, minor, smem, sm90a, &k, why, sizeof(why));
    if (rc == SMMA_GPU_STATUS_OK
        && smma_gpu_gemm_model(k, &x->shape, major, minor, &km, NULL, 0) == SMMA_GPU_STATUS_OK
        && strcmp(km, m->name) == 0) {
        *chosen = k;
        if (why[0] == '\0')
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto for %s: %s (the fastest "
                                "kernel, and it follows that model on %d.%d)", m->name,
                                smma_gpu_kernel_name(k), major, minor);
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "%s; it follows %s", why, m->name);
    }
    for (i = 0; i < sizeof(by_model) / sizeof(by_model[0]); i++)
        if ((rc != SMMA_GPU_STATUS_OK || by_model[i] != k)
            && follows(x, by_model[i], major, minor, smem, sm90a, m->name)) {
            *chosen = by_model[i];
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto for %s: %s (the fastest "
                                "kernel whose arithmetic on %d.%d is that model)", m->name,
                                smma_gpu_kernel_name(by_model[i]), major, minor);
        }
    if (rc != SMMA_GPU_STATUS_OK)
        return smma_gpu_msg(msg, len, rc, "%s", why);
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no kernel computes %s for this "
                        "problem on %d.%d (auto would run %s, which follows %s there)", m->name,
                        major, minor, smma_gpu_kernel_name(k), km != NULL ? km : "no model");
}

int
smma_gpu_gemm_check_ex(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                       bool sm90a, smma_gpu_kernel *chosen, char *msg, size_t len)
{
    const smma_gemm_shape *s;
    char why[256] = "";
    int rc;

    if (x == NULL || chosen == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no arguments given");
    s = &x->shape;
    if ((rc = check_common(x, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (x->kernel == SMMA_GPU_AUTO && x->model != NULL)
        return choose_for_model(x, major, minor, smem, sm90a, chosen, msg, len);
    if (x->kernel == SMMA_GPU_SM100_V1 || x->kernel == SMMA_GPU_SM100_V2) {
        /* sm_100a code runs on compute capability 10.0 only. */
        if (major != 10 || minor != 0)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s needs compute capability "
                                "10.0 (tcgen05, sm_100a), the device has %d.%d",
                                smma_gpu_kernel_name(x->kernel), major, minor);
        *chosen = x->kernel;
        return smma_sm100_check(x, x->kernel, msg, len);
    }
    if (x->kernel == SMMA_GPU_SM90_V1 || x->kernel == SMMA_GPU_SM90_V2
        || x->kernel == SMMA_GPU_SM90_PROMOTE32 || x->kernel == SMMA_GPU_SM90_BS) {
        /* sm_90a code runs on compute capability 9.0 only. */
        if (major != 9 || minor != 0)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s needs compute capability "
                                "9.0 (wgmma, sm_90a), the device has %d.%d",
                                smma_gpu_kernel_name(x->kernel), major, minor);
        *chosen = x->kernel;
        return smma_sm90_check(x, x->kernel, msg, len);
    }
    if (major < 8)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "the kernels need compute "
                            "capability 8.0 or later (mma.sync.m16n8k16), the device has "
                            "%d.%d", major, minor);
    if (is16(s->a_fmt) || is16(s->b_fmt)) {
        if (s->scale_fmt == SMMA_NONE) {
            if (s->a_fmt != s->b_fmt)
                return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "A and B must have one "
                                    "16-bit format (%s x %s)", smma_format_name(s->a_fmt),
                                    smma_format_name(s->b_fmt));
            switch (x->kernel) {
            case SMMA_GPU_AUTO:
                /* wgmma where it runs, then mma.sync: sm90-v2 is the fastest
                 * on 9.0 (bench/sm90-kernels.md), sm80-v2 elsewhere. */
                if (major == 9 && minor == 0 && sm90a
                    && smma_sm90_check(x, SMMA_GPU_SM90_V2, why, sizeof(why))
                       == SMMA_GPU_STATUS_OK) {
                    *chosen = SMMA_GPU_SM90_V2;
                    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto: sm90-v2 "
                                        "(compute capability 9.0 runs wgmma, the fastest "
                                        "kernel there)");
                }
                if (major == 9 && minor == 0 && !sm90a)
                    snprintf(why, sizeof(why), "this build loaded no sm_90a code for the "
                             "sm90 kernels");
                if (check_v2(x, smem, why[0] == '\0' ? why : NULL, sizeof(why))
                    == SMMA_GPU_STATUS_OK) {
                    *chosen = SMMA_GPU_SM80_V2;
                    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto: sm80-v2 (%s)",
                                        why[0] != '\0' ? why : "mma.sync, the fastest kernel "
                                        "below compute capability 9.0");
                }
                *chosen = SMMA_GPU_SM80_V1;
                if (why[0] == '\0')
                    check_v2(x, smem, why, sizeof(why));
                return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto: sm80-v1 (%s)", why);
            case SMMA_GPU_SM80_V1:
                *chosen = SMMA_GPU_SM80_V1;
                return SMMA_GPU_STATUS_OK;
            case SMMA_GPU_SM80_V2:
                *chosen = SMMA_GPU_SM80_V2;
                return check_v2(x, smem, msg, len);
            default:
                return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s does not compute "
                                    "%s x %s without scales (sm80-v1, sm80-v2, sm90-v1 and "
                                    "sm90-v2 do)", smma_gpu_kernel_name(x->kernel),
                                    smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
            }
        }
    }
    return smma_gpu_check_scaled(x, major, minor, smem, sm90a, chosen, msg, len);
}

int
smma_gpu_gemm_check_smem(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                         smma_gpu_kernel *chosen, char *msg, size_t len)
{
    return smma_gpu_gemm_check_ex(x, major, minor, smem, true, chosen, msg, len);
}

int
smma_gpu_gemm_check(const smma_gpu_gemm_args *x, int major, int minor, smma_gpu_kernel *chosen,
                    char *msg, size_t len)
{
    return smma_gpu_gemm_check_smem(x, major, minor, smma_gpu_smem_optin(major, minor), chosen,
                                    msg, len);
}

/* ---- models ------------------------------------------------------------- */

/* The bf16/fp16 tensor-core model of mma.sync on a device, or NULL. */
static const char *
mma_model(int major, int minor)
{
    if (major == 8 && minor == 0)
        return "a100-bf16";
    if (major == 8 && minor == 9)
        return "ada-bf16";
    if (major == 9 && minor == 0)
        return "h100-bf16";
    if (major == 10 && (minor == 0 || minor == 3))
        return "b200-bf16";
    return NULL;
}

int
smma_gpu_gemm_model(smma_gpu_kernel kernel, const smma_gemm_shape *s, int major, int minor,
                    const char **model, char *msg, size_t len)
{
    const char *m = mma_model(major, minor);

    if (s == NULL || model == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no shape given");
    switch (kernel) {
    case SMMA_GPU_SM90_V1:
    case SMMA_GPU_SM90_V2:
        /* wgmma.m64nNk16 with bf16 or fp16: the block-FMA model of the
         * device, validated for wgmma on an H100 (softmma/gemm.h). */
        if (major != 9 || minor != 0)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s runs on compute "
                                "capability 9.0 only (sm_90a), not %d.%d",
                                smma_gpu_kernel_name(kernel), major, minor);
        if (!is16(s->a_fmt) || s->a_fmt != s->b_fmt || s->scale_fmt != SMMA_NONE)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s computes bf16 x bf16 and "
                                "fp16 x fp16 only", smma_gpu_kernel_name(kernel));
        *model = m;
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM90_PROMOTE32:
        /* fp8 wgmma.m64n128k32 per 32-k block from zero, promoted in fp32
         * (gpu/sm90/gemm_p32.cu). */
        if (major != 9 || minor != 0)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-promote32 runs on "
                                "compute capability 9.0 only (sm_90a), not %d.%d", major, minor);
        if (s->scale_fmt != SMMA_E8M0 || s->vec != 32
            || !smma_sm90_p32_pair(s->a_fmt, s->b_fmt))
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-promote32 computes the "
                                "MX pairs only (MXFP8, MXFP6, MXFP4, MXFP8 x MXFP4 with e8m0 "
                                "scales per 32)");
        *model = "h100-fp8-promote32";
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM90_BS:
        /* Every element times its scale rounded to bf16, then the bf16
         * wgmma chain of sm90-v2 (gpu/sm90/gemm_bs.cu). */
        if (major != 9 || minor != 0)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-bs runs on compute "
                                "capability 9.0 only (sm_90a), not %d.%d", major, minor);
        if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-bs computes "
                                "block-scaled products only");
        *model = "bf16-upcast-h100";
        return SMMA_GPU_STATUS_OK;
    case SMMA_GPU_SM80_V1:
    case SMMA_GPU_SM80_V2:
        if (m == NULL)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "softmma has no model of the "
                                "mma.sync tensor cores of compute capability %d.%d (it has "
                                "8.0, 8.9, 9.0, 10.0, 10.3)", major, minor);
        *model = m;
        return SMMA_GPU_STATUS_OK;
    default:
        return smma_gpu_model_scaled(kernel, s, major, minor, model, msg, len);
    }
}
