/*
 * gpu/sm90/check.c - which problems the sm_90a kernels accept, their plan
 * (plan.h) and their tuning knobs.  Plain C without CUDA, so that the rules
 * and the plan are tested on every machine (tests/sim/sm90-dry-t.c,
 * tests/gpu/gemm-check-t.c).
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gemm_internal.h"
#include "sm90.h"

/* Reads one knob: unset or empty leaves *v alone; otherwise a decimal
 * number in [lo, hi] that `ok` accepts, or a refusal naming the value. */
static int
knob(const char *var, uint32_t lo, uint32_t hi, bool pow2, uint32_t *v, char *msg, size_t len)
{
    const char *s = getenv(var);
    char *end;
    unsigned long x;

    if (s == NULL || s[0] == '\0')
        return SMMA_GPU_STATUS_OK;
    x = strtoul(s, &end, 10);
    if (*end != '\0' || end == s || x < lo || x > hi || (pow2 && (x & (x - 1)) != 0))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90-v2: %s=%s: not %s%u .. %u",
                            var, s, pow2 ? "a power of two in " : "", lo, hi);
    *v = (uint32_t) x;
    return SMMA_GPU_STATUS_OK;
}

int
smma_sm90_tune_env(smma_sm90_tune *t, char *msg, size_t len)
{
    int rc;

    memset(t, 0, sizeof(*t));
    if ((rc = knob("SMMA_SM90_BN", 128, 256, true, &t->bn, msg, len)) != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_STAGES", 2, 8, false, &t->stages, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_CLUSTER", 1, 2, false, &t->cluster, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_GROUP", 1, 64, false, &t->group, msg, len))
        != SMMA_GPU_STATUS_OK)
        return rc;
    return SMMA_GPU_STATUS_OK;
}

static uint32_t
kind_of(smma_format f)
{
    switch (f) {
    case SMMA_FP32: return SMMA_PIPE_F32;
    case SMMA_BF16: return SMMA_PIPE_BF16;
    case SMMA_FP16: return SMMA_PIPE_F16;
    default: return SMMA_PIPE_NONE;
    }
}

static bool
is_fp8(smma_format f)
{
    return f == SMMA_E4M3 || f == SMMA_E5M2;
}

/* The rules of the sm90 kernels, in the order a caller meets them; p32:
 * sm90-promote32's formats (else v1's and v2's). */
static int
check_problem(const smma_gpu_gemm_args *a, const char *kn, bool p32, char *msg, size_t len)
{
    const smma_gemm_shape *s = &a->shape;
    unsigned row = p32 ? 16 : 8;   /* elements in 16 bytes */
    smma_error err;

    if (smma_gemm_shape_check(s, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s", kn, err.msg);
    if (s->m > INT32_MAX || s->n > INT32_MAX || s->k > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: m, n and k must be below "
                            "2^31", kn);
    if (!p32 && (s->scale_fmt != SMMA_NONE || s->a_fmt != s->b_fmt
                 || (s->a_fmt != SMMA_BF16 && s->a_fmt != SMMA_FP16)))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes bf16 x bf16 or fp16 "
                            "x fp16 without scales, not %s x %s%s", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt),
                            s->scale_fmt != SMMA_NONE ? " with scales" : "");
    if (p32 && (!is_fp8(s->a_fmt) || !is_fp8(s->b_fmt) || s->scale_fmt != SMMA_E8M0
                || s->vec != 32))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes MXFP8 (e4m3 or e5m2 "
                            "with e8m0 scales per 32 k), not %s x %s%s%s%s", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt),
                            s->scale_fmt != SMMA_NONE ? " with " : " without scales",
                            s->scale_fmt != SMMA_NONE ? smma_format_name(s->scale_fmt) : "",
                            s->scale_fmt != SMMA_NONE ? (s->vec == 16 ? " scales per 16"
                                                                       : " scales per 32") : "");
    if (!a->a_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A must be K-major "
                            "(row-major)%s", kn, p32 ? "" : "; sm80-v1 takes an M-major A");
    if (p32 && !a->b_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: B must be K-major (fp8 wgmma "
                            "reads K-major operands only; the scales run along K)", kn);
    if (p32 && a->scale_layout != SMMA_SL_LINEAR && a->scale_layout != SMMA_SL_128X4)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: scales must be in the linear "
                            "or the 128x4 layout, not %s", kn,
                            smma_scale_layout_name(a->scale_layout));
    if (s->c_fmt != SMMA_NONE && s->c_fmt != SMMA_FP32)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: C must be fp32 or absent, "
                            "not %s", kn, smma_format_name(s->c_fmt));
    if (s->d_fmt != SMMA_FP32 && s->d_fmt != SMMA_BF16 && s->d_fmt != SMMA_FP16)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: D must be fp32, bf16 or "
                            "fp16, not %s", kn, smma_format_name(s->d_fmt));
    if (a->lda < s->k || a->ldb < (a->b_kmajor ? s->k : s->n) || a->ldd < s->n
        || (s->c_fmt != SMMA_NONE && a->ldc < s->n))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a leading dimension is "
                            "shorter than its row (lda %zu, ldb %zu, ldc %zu, ldd %zu)", kn,
                            a->lda, a->ldb, a->ldc, a->ldd);
    if (a->lda > INT32_MAX || a->ldb > INT32_MAX || a->ldc > INT32_MAX || a->ldd > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: leading dimensions must be "
                            "below 2^31", kn);
    if (a->lda % row != 0 || a->ldb % row != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: TMA reads rows at 16-byte "
                            "aligned addresses: lda = %zu and ldb = %zu must be multiples of %u",
                            kn, a->lda, a->ldb, row);
    if ((uintptr_t) a->a % 16 != 0 || (uintptr_t) a->b % 16 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: TMA needs A and B at "
                            "16-byte aligned addresses", kn);
    return SMMA_GPU_STATUS_OK;
}

int
smma_sm90_plan_init(smma_sm90_plan *p, const smma_gpu_gemm_args *a, smma_gpu_kernel k,
                    unsigned sms, const smma_sm90_tune *t, char *msg, size_t len)
{
    static const smma_sm90_tune none = { 0, 0, 0, 0 };
    const smma_gemm_shape *s;
    const char *kn = k == SMMA_GPU_SM90_V1 ? "sm90-v1"
                     : k == SMMA_GPU_SM90_V2 ? "sm90-v2" : "sm90-promote32";
    uint32_t esz, group, room, nq, epi;
    int rc;

    if (k != SMMA_GPU_SM90_V1 && k != SMMA_GPU_SM90_V2 && k != SMMA_GPU_SM90_PROMOTE32)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90: kernel %d is not sm90-v1, "
                            "sm90-v2 or sm90-promote32", (int) k);
    if (a == NULL || p == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: no problem given", kn);
    if (t == NULL)
        t = &none;
    if ((rc = check_problem(a, kn, k == SMMA_GPU_SM90_PROMOTE32, msg, len))
        != SMMA_GPU_STATUS_OK)
        return rc;
    s = &a->shape;
    memset(p, 0, sizeof(*p));
    p->version = k == SMMA_GPU_SM90_V1 ? 1 : k == SMMA_GPU_SM90_V2 ? 2 : 3;
    p->m = (uint32_t) s->m;
    p->n = (uint32_t) s->n;
    p->k = (uint32_t) s->k;
    p->fp16 = s->a_fmt == SMMA_FP16;
    p->b_nmajor = !a->b_kmajor;
    p->a_ld = a->lda;
    p->b_ld = a->ldb;
    p->ebytes = p->version == 3 ? 1 : 2;
    p->bk = SMMA_SM90_ROWB / p->ebytes;
    if (p->version == 3) {
        p->a_e5m2 = s->a_fmt == SMMA_E5M2;
        p->b_e5m2 = s->b_fmt == SMMA_E5M2;
        p->promote = 1;
        p->sf_128x4 = a->scale_layout == SMMA_SL_128X4;
        p->kb_cols = (p->k + 31) / 32;
        p->kb_pad = (p->kb_cols + 3) / 4 * 4;
        p->sf_words = (p->sf_128x4 || p->kb_cols % 4 == 0) && (uintptr_t) a->sa % 4 == 0
                      && (uintptr_t) a->sb % 4 == 0;
    }

    /* The tile: v3 128 x 128 (two m64n128k32 per 32 k, each with its own
     * temporary registers beside the accumulator). */
    p->wgs = p->version == 1 ? 1 : 2;
    p->bm = 64 * p->wgs;
    p->bn = p->version != 2 ? 128 : t->bn != 0 ? t->bn : p->n > 128 ? 256 : 128;
    if (p->bn != 128 && p->bn != 256)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u columns is not "
                            "128 or 256", kn, p->bn);
    if (p->version == 3 && t->bn != 0 && t->bn != 128)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u columns is not "
                            "128", kn, t->bn);
    p->pipe.kiters = (p->k + p->bk - 1) / p->bk;
    p->pipe.tiles_m = (p->m + p->bm - 1) / p->bm;
    p->pipe.tiles_n = (p->n + p->bn - 1) / p->bn;
    if ((uint64_t) p->pipe.tiles_m * p->pipe.tiles_n > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %u x %u tiles are too many",
                            kn, p->pipe.tiles_m, p->pipe.tiles_n);
    p->pipe.cluster = p->version == 1 ? 1
                      : t->cluster != 0 ? t->cluster : p->pipe.tiles_m >= 2 ? 2 : 1;
    if (p->pipe.cluster != 1 && p->pipe.cluster != 2)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: clusters of %u CTAs (1 or "
                            "2)", kn, p->pipe.cluster);
    /* Groups of 4 tile rows: on an H200 0.97x cuBLAS at 8192^3 against
     * 0.89x with 8 and 0.92x with 16, and the same at 4096^3
     * (bench/sm90-kernels.md). */
    group = t->group != 0 ? t->group : 4;
    p->pipe.group = group / p->pipe.cluster > 0 ? group / p->pipe.cluster : 1;
    p->b_rows = (p->b_nmajor ? p->bn / 64 : p->bn) / p->pipe.cluster;

    /* Shared memory: the stages (v3: A, B, then the k-step's scales as
     * fp32), the barriers, the epilogue buffers of v2 and v3. */
    p->off_a = 0;
    p->off_b = p->bm * SMMA_SM90_ROWB;
    p->pipe.stage_bytes = p->off_b + p->bn * SMMA_SM90_ROWB;
    p->pipe.stage_tx = p->pipe.stage_bytes;
    if (p->version == 3) {
        p->off_sfa = p->pipe.stage_bytes;
        p->off_sfb = p->off_sfa + SMMA_SM90_SFA_BYTES;
        p->pipe.stage_bytes = (p->off_sfb + SMMA_SM90_SFB_BYTES + 1023) / 1024 * 1024;
    }
    epi = p->version == 1 ? 0 : 4 * SMMA_SM90_EPI_BUF;
    room = SMMA_SM90_SMEM_LIMIT - 1024 - SMMA_SM90_BAR_BYTES - epi;
    if (t->stages != 0)
        p->pipe.stages = t->stages;
    else if (p->version == 1)
        p->pipe.stages = 4;
    else
        p->pipe.stages = room / p->pipe.stage_bytes > 8 ? 8 : room / p->pipe.stage_bytes;
    if (p->pipe.stages < 2 || p->pipe.stages > 8
        || p->pipe.stages * p->pipe.stage_bytes > room)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %u stages of %u bytes do not "
                            "fit in %u bytes of shared memory (2 .. %u do)", kn,
                            p->pipe.stages, p->pipe.stage_bytes, room,
                            room / p->pipe.stage_bytes < 8 ? room / p->pipe.stage_bytes : 8);
    p->pipe.off_bar = p->pipe.stages * p->pipe.stage_bytes;
    p->off_epi = (p->pipe.off_bar + SMMA_SM90_BAR_BYTES + 1023) / 1024 * 1024;
    p->smem_bytes = p->off_epi + epi + 1024;

    /* The CTAs: one per tile (v1), or persistent whole clusters. */
    if (p->version == 1) {
        p->pipe.grid = smma_pipe_units(&p->pipe);
    } else {
        nq = (sms == 0 ? 1 : sms) / p->pipe.cluster;
        if (nq == 0)
            nq = 1;
        if (nq > smma_pipe_units(&p->pipe))
            nq = smma_pipe_units(&p->pipe);
        p->pipe.grid = nq * p->pipe.cluster;
    }

    /* The epilogue. */
    p->c_kind = kind_of(s->c_fmt);
    p->d_kind = kind_of(s->d_fmt);
    p->c_ld = a->ldc;
    p->d_ld = a->ldd;
    p->has_alpha = s->has_alpha;
    p->alpha = s->alpha;
    esz = p->d_kind == SMMA_PIPE_F32 ? 4 : 2;
    p->epi_tma = p->version != 1 && (p->d_ld * esz) % 16 == 0 && (uintptr_t) a->d % 16 == 0;
    return SMMA_GPU_STATUS_OK;
}

int
smma_sm90_check(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    smma_sm90_plan p;

    return smma_sm90_plan_init(&p, a, k, SMMA_SM90_DEFAULT_SMS, NULL, msg, len);
}
