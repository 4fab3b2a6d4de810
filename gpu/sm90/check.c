/*
 * gpu/sm90/check.c - which problems the sm_90a kernels accept, their plan
 * (plan.h), their tuning knobs, and their rows in the kernel table
 * (gpu/kernels.h).  Plain C without CUDA, so that the rules and the plan
 * are tested on every machine (tests/sim/sm90-dry-t.c,
 * tests/gpu/gemm-check-t.c); it calls nothing of gpu/ above gpu/rules.c.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gemm_internal.h"
#include "../kernels.h"
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
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90 kernels: %s=%s: not %s%u .. %u",
                            var, s, pow2 ? "a power of two in " : "", lo, hi);
    *v = (uint32_t) x;
    return SMMA_GPU_STATUS_OK;
}

/* A switch: 0 or 1 in the environment, kept as 1 (off) or 2 (on); 0 where
 * it is unset or empty. */
static int
knob_switch(const char *var, uint32_t *v, char *msg, size_t len)
{
    const char *s = getenv(var);
    int rc = knob(var, 0, 1, false, v, msg, len);

    if (rc == SMMA_GPU_STATUS_OK && s != NULL && s[0] != '\0')
        (*v)++;
    return rc;
}

int
smma_sm90_tune_env(smma_sm90_tune *t, char *msg, size_t len)
{
    int rc;

    memset(t, 0, sizeof(*t));
    if ((rc = knob("SMMA_SM90_BN", 8, 256, true, &t->bn, msg, len)) != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_KQ", 1, 4, true, &t->kq, msg, len)) != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_STAGES", 2, 8, false, &t->stages, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_CLUSTER", 1, 2, false, &t->cluster, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = knob("SMMA_SM90_GROUP", 1, 64, false, &t->group, msg, len))
        != SMMA_GPU_STATUS_OK
        || (rc = knob_switch("SMMA_SM90_PRE", &t->pre, msg, len)) != SMMA_GPU_STATUS_OK
        || (rc = knob_switch("SMMA_SM90_P32_SPROD", &t->sprod, msg, len))
        != SMMA_GPU_STATUS_OK)
        return rc;
    return SMMA_GPU_STATUS_OK;
}

bool
smma_sm90_pre_applies(const smma_sm90_plan *p)
{
    return p->version == 4 || (p->version == 3 && (p->a_conv || p->b_conv));
}

void
smma_sm90_pre_args(const smma_gpu_gemm_args *a, const smma_sm90_plan *p, void *ws,
                   smma_gpu_gemm_args *y, smma_gpu_kernel *k, size_t bytes[2])
{
    const bool bs = p->version == 4;
    const uint64_t ld = smma_sm90_pre_ld(p->k), row = ld * (bs ? 2 : 1);
    const smma_format to = bs ? SMMA_BF16 : SMMA_E4M3;

    *y = *a;
    *k = bs ? SMMA_GPU_SM90_V2 : SMMA_GPU_SM90_PROMOTE32;
    bytes[0] = (bs ? p->a_fmt != SMMA_BF16 : p->a_conv != 0) ? (size_t) (p->m * row) : 0;
    bytes[1] = bs || p->b_conv ? (size_t) (p->n * row) : 0;
    if (bytes[0] != 0) {
        y->a = ws;
        y->lda = (size_t) ld;
        y->shape.a_fmt = to;
    }
    if (bytes[1] != 0) {
        y->b = ws == NULL ? NULL : (uint8_t *) ws + bytes[0];
        y->ldb = (size_t) ld;
        y->shape.b_fmt = to;
    }
    if (bs) {
        y->shape.scale_fmt = SMMA_NONE;
        y->shape.vec = 0;
        y->sa = y->sb = NULL;
    }
}

bool
smma_sm90_pre_wanted(const smma_sm90_plan *p, const smma_sm90_tune *t)
{
    /* The pass was the faster at every shape measured (bench/sm90-kernels.md). */
    if (!smma_sm90_pre_applies(p) || (t != NULL && t->pre == 1))
        return false;
    return true;
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

bool
smma_sm90_p32_pair(smma_format a, smma_format b)
{
    return (is_fp8(a) && is_fp8(b)) || (a == b && (a == SMMA_E2M1 || a == SMMA_E2M3
                                                   || a == SMMA_E3M2))
           || (a == SMMA_E4M3 && b == SMMA_E2M1);
}

/* The formats of kernel k: v1 and v2 bf16 or fp16, sm90-promote32 the MX
 * pairs, sm90-bs the block-scaled pairs. */
static int
check_formats(const smma_gemm_shape *s, smma_gpu_kernel k, const char *kn, char *msg, size_t len)
{
    if ((k == SMMA_GPU_SM90_V1 || k == SMMA_GPU_SM90_V2)
        && (s->scale_fmt != SMMA_NONE || s->a_fmt != s->b_fmt
            || (s->a_fmt != SMMA_BF16 && s->a_fmt != SMMA_FP16)))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes bf16 x bf16 or fp16 "
                            "x fp16 without scales, not %s x %s%s", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt),
                            s->scale_fmt != SMMA_NONE ? " with scales" : "");
    if (k == SMMA_GPU_SM90_PROMOTE32
        && (!smma_sm90_p32_pair(s->a_fmt, s->b_fmt) || s->scale_fmt != SMMA_E8M0 || s->vec != 32))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes the MX pairs (MXFP8 "
                            "e4m3/e5m2, MXFP6, MXFP4, MXFP8 x MXFP4 with e8m0 scales per 32 k), "
                            "not %s x %s%s%s%s", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt),
                            s->scale_fmt != SMMA_NONE ? " with " : " without scales",
                            s->scale_fmt != SMMA_NONE ? smma_format_name(s->scale_fmt) : "",
                            s->scale_fmt != SMMA_NONE ? (s->vec == 16 ? " scales per 16"
                                                                       : " scales per 32") : "");
    if (k == SMMA_GPU_SM90_BS) {
        if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes block-scaled "
                                "products (e8m0 or ue4m3 scales), not %s x %s without scales",
                                kn, smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
        /* The pairs of sm80-bs-large. */
        if (!smma_gpu_bs_pair_fast(s->a_fmt, s->b_fmt))
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s x %s is not built "
                                "(it takes the pairs of sm80-bs-large; sm80-bs-v1 computes "
                                "every pair)", kn, smma_format_name(s->a_fmt),
                                smma_format_name(s->b_fmt));
        if (s->scale_fmt == SMMA_UE4M3 && (s->a_fmt != SMMA_E2M1 || s->b_fmt != SMMA_E2M1))
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: ue4m3 scales are built "
                                "for e2m1 x e2m1 (NVFP4) only, not %s x %s", kn,
                                smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    }
    return SMMA_GPU_STATUS_OK;
}

/* The rules of the sm90 kernels, in the order a caller meets them. */
static int
check_problem(const smma_gpu_gemm_args *a, smma_gpu_kernel k, const char *kn, char *msg,
              size_t len)
{
    const smma_gemm_shape *s = &a->shape;
    bool p32 = k == SMMA_GPU_SM90_PROMOTE32, bs = k == SMMA_GPU_SM90_BS;
    uint32_t abits = 8, bbits = 8;
    smma_error err;
    int rc;

    if (smma_gemm_shape_check(s, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s", kn, err.msg);
    if (s->m > INT32_MAX || s->n > INT32_MAX || s->k > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: m, n and k must be below "
                            "2^31", kn);
    if ((rc = check_formats(s, k, kn, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (!a->a_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A must be K-major "
                            "(row-major)%s", kn, p32 || bs ? "" : "; sm80-v1 takes an M-major A");
    if ((p32 || bs) && !a->b_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: B must be K-major (%s; "
                            "the scales run along K)", kn, p32 ? "fp8 wgmma reads K-major "
                            "operands only" : "the converters read rows of K");
    if ((p32 || bs) && a->scale_layout != SMMA_SL_LINEAR && a->scale_layout != SMMA_SL_128X4)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: scales must be in the linear "
                            "or the 128x4 layout, not %s", kn,
                            smma_scale_layout_name(a->scale_layout));
    if ((bs || p32) && (s->a_fmt == SMMA_E2M1 || s->b_fmt == SMMA_E2M1)
        && (s->k % 2 != 0 || (s->a_fmt == SMMA_E2M1 && a->lda % 2 != 0)
            || (s->b_fmt == SMMA_E2M1 && a->ldb % 2 != 0)))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: e2m1 operands come two "
                            "codes per byte: k and the leading dimension must be even", kn);
    if (bs) {
        /* The converters address the scales with 32-bit offsets. */
        uint64_t kbc = (s->k + s->vec - 1) / s->vec, kbp = (kbc + 3) / 4 * 4;
        bool l128 = a->scale_layout == SMMA_SL_128X4;
        uint64_t sa = l128 ? (s->m + 127) / 128 * 128 * kbp : s->m * kbc;
        uint64_t sb = l128 ? (s->n + 127) / 128 * 128 * kbp : s->n * kbc;

        if (sa >= ((uint64_t) 1 << 32) || sb >= ((uint64_t) 1 << 32))
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: the scales of A and B "
                                "must each be below 4 GiB (%llu and %llu bytes)", kn,
                                (unsigned long long) sa, (unsigned long long) sb);
    }
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
    abits = bs || p32 ? smma_sm90_fmt_bits(s->a_fmt) : 16;
    bbits = bs || p32 ? smma_sm90_fmt_bits(s->b_fmt) : 16;
    if (a->lda * abits % 128 != 0 || a->ldb * bbits % 128 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: TMA reads rows at 16-byte "
                            "aligned addresses: lda = %zu and ldb = %zu must be multiples of "
                            "%u and %u", kn, a->lda, a->ldb, 128 / abits, 128 / bbits);
    if ((uintptr_t) a->a % 16 != 0 || (uintptr_t) a->b % 16 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: TMA needs A and B at "
                            "16-byte aligned addresses", kn);
    return SMMA_GPU_STATUS_OK;
}

/* The rest of sm90-bs's plan (version 4): shared memory holds the ring of
 * stored bytes (pipe; SMMA_SM90_STAGES sets its slots), three slots of
 * bf16 (conv) where that leaves the stored ring three slots, else two,
 * the barriers of both rings and the epilogue buffers. */
static int
plan_bs(smma_sm90_plan *p, const smma_sm90_tune *t, const char *kn, char *msg, size_t len)
{
    uint32_t raw, conv, room = SMMA_SM90_SMEM_LIMIT - 1024 - SMMA_SM90_BAR_BYTES
                                 - 4 * SMMA_SM90_EPI_BUF;
    uint32_t cs, rs = 0;

    p->off_ra = 0;
    p->off_rb = p->bm * p->ra;
    raw = (p->off_rb + p->bn * p->rb + 1023) / 1024 * 1024;
    p->off_a = 0;
    p->off_b = p->bm * SMMA_SM90_ROWB;
    conv = p->off_b + p->bn * SMMA_SM90_ROWB;
    for (cs = 3; cs >= 2; cs--) {
        rs = (room - cs * conv) / raw;
        if (rs > 6)
            rs = 6;
        if (t->stages != 0 || rs >= 3 || cs == 2)
            break;
    }
    if (t->stages != 0)
        rs = t->stages;
    if (rs < 2 || rs > 8 || rs * raw + cs * conv > room)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %u stages of %u bytes (the "
                            "stored operands) and %u of %u (bf16) do not fit in %u bytes of "
                            "shared memory", kn, rs, raw, cs, conv, room);
    p->pipe.stages = rs;
    p->pipe.stage_bytes = raw;
    p->pipe.stage_tx = p->bm * p->ra + p->bn * p->rb;
    p->off_conv = rs * raw;
    p->conv = p->pipe;
    p->conv.stages = cs;
    p->conv.stage_bytes = conv;
    p->conv.stage_tx = 0;
    p->conv.cluster = 1;
    p->pipe.off_bar = p->off_conv + cs * conv;
    p->conv.off_bar = smma_pipe_bar_end(&p->pipe);
    p->off_epi = (p->pipe.off_bar + SMMA_SM90_BAR_BYTES + 1023) / 1024 * 1024;
    p->smem_bytes = p->off_epi + 4 * SMMA_SM90_EPI_BUF + 1024;
    return SMMA_GPU_STATUS_OK;
}

static const char *sm90_name(smma_gpu_kernel k);

/* Whether sm90-mixed's W is the caller's B: where A is bf16 (bf16 x MX),
 * or of two block-scaled operands B has at least as many rows. */
static bool
mx_w_is_b(const smma_gemm_shape *s)
{
    return s->a_fmt == SMMA_BF16 || s->n >= s->m;
}

bool
smma_sm90_mx_auto(const smma_gpu_gemm_args *x)
{
    const smma_gemm_shape *s = &x->shape;
    const size_t xrows = mx_w_is_b(s) ? s->m : s->n, wrows = mx_w_is_b(s) ? s->n : s->m;

    return xrows >= 17 && xrows <= 128 && wrows >= 4096;
}

/* The k-step of kq 64-k atoms of plan *p (sm90-mixed; bm, bn and a_fmt
 * set): bk, W's bytes a row, the stage's layout and bytes. */
static void
mx_stage(smma_sm90_plan *p)
{
    p->bk = 64 * p->kq;
    p->ra = p->bk * smma_sm90_fmt_bits(p->a_fmt) / 8;
    p->off_ra = 0;
    p->off_b = (p->bm * p->ra + 1023) / 1024 * 1024;
    p->pipe.stage_bytes = (p->off_b + p->kq * p->bn * SMMA_SM90_ROWB + 1023) / 1024 * 1024;
    p->pipe.stage_tx = p->bm * p->ra + p->kq * p->bn * SMMA_SM90_ROWB;
}

/* The plan of sm90-mixed (version 5): D^T = W X^T, W the block-scaled
 * operand converted in registers -- the caller's B where A is bf16 (bf16 x
 * MX), else the one of more rows (B where they tie) -- and X the other,
 * bf16 or converted once by a pass (x_fmt). */
static int
plan_mixed(smma_sm90_plan *p, const smma_gpu_gemm_args *a, unsigned sms,
           const smma_sm90_tune *t, char *msg, size_t len)
{
    const char *kn = "sm90-mixed";
    const smma_gemm_shape *s = &a->shape;
    smma_error err;
    uint32_t room, nq;
    bool w_is_b;
    smma_format wf, xf;
    size_t wld, xld;

    if (smma_gemm_shape_check(s, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s", kn, err.msg);
    if (s->m > INT32_MAX || s->n > INT32_MAX || s->k > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: m, n and k must be below "
                            "2^31", kn);
    if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s computes block-scaled "
                            "products (e8m0 or ue4m3 scales), not %s x %s without scales", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    if (!smma_gpu_bs_pair_fast(s->a_fmt, s->b_fmt))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %s x %s is not built (it "
                            "takes the pairs of sm80-bs-large)", kn, smma_format_name(s->a_fmt),
                            smma_format_name(s->b_fmt));
    if (s->scale_fmt == SMMA_UE4M3 && (s->a_fmt != SMMA_E2M1 || s->b_fmt != SMMA_E2M1))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: ue4m3 scales are built for "
                            "e2m1 x e2m1 (NVFP4) only, not %s x %s", kn,
                            smma_format_name(s->a_fmt), smma_format_name(s->b_fmt));
    if (!a->a_kmajor || !a->b_kmajor)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A and B must be K-major "
                            "(the scales run along K)", kn);
    if (a->scale_layout != SMMA_SL_LINEAR && a->scale_layout != SMMA_SL_128X4)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: scales must be in the linear "
                            "or the 128x4 layout, not %s", kn,
                            smma_scale_layout_name(a->scale_layout));
    if (s->c_fmt != SMMA_NONE && s->c_fmt != SMMA_FP32)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: C must be fp32 or absent, "
                            "not %s", kn, smma_format_name(s->c_fmt));
    if (s->d_fmt != SMMA_FP32 && s->d_fmt != SMMA_BF16 && s->d_fmt != SMMA_FP16)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: D must be fp32, bf16 or "
                            "fp16, not %s", kn, smma_format_name(s->d_fmt));
    if (a->lda < s->k || a->ldb < s->k || a->ldd < s->n
        || (s->c_fmt != SMMA_NONE && a->ldc < s->n))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a leading dimension is "
                            "shorter than its row (lda %zu, ldb %zu, ldc %zu, ldd %zu)", kn,
                            a->lda, a->ldb, a->ldc, a->ldd);
    if (a->lda > INT32_MAX || a->ldb > INT32_MAX || a->ldc > INT32_MAX || a->ldd > INT32_MAX)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: leading dimensions must be "
                            "below 2^31", kn);
    if ((s->a_fmt == SMMA_E2M1 || s->b_fmt == SMMA_E2M1) && s->k % 2 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: e2m1 operands come two "
                            "codes per byte: k must be even", kn);
    /* TMA reads W (and a bf16 X) and the pass reads a block-scaled X at
     * 16-byte aligned rows. */
    if (a->lda * smma_sm90_fmt_bits(s->a_fmt) % 128 != 0
        || a->ldb * smma_sm90_fmt_bits(s->b_fmt) % 128 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: rows must start at 16-byte "
                            "aligned addresses: lda = %zu and ldb = %zu must be multiples of "
                            "%u and %u", kn, a->lda, a->ldb, 128 / smma_sm90_fmt_bits(s->a_fmt),
                            128 / smma_sm90_fmt_bits(s->b_fmt));
    if ((uintptr_t) a->a % 16 != 0 || (uintptr_t) a->b % 16 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: A and B must be at 16-byte "
                            "aligned addresses", kn);

    w_is_b = mx_w_is_b(s);
    wf = w_is_b ? s->b_fmt : s->a_fmt;
    xf = w_is_b ? s->a_fmt : s->b_fmt;
    wld = w_is_b ? a->ldb : a->lda;
    xld = w_is_b ? a->lda : a->ldb;

    memset(p, 0, sizeof(*p));
    p->version = 5;
    p->w_is_b = w_is_b;
    /* The plan's A is W (m rows), its B is X (n rows). */
    p->m = (uint32_t) (w_is_b ? s->n : s->m);
    p->n = (uint32_t) (w_is_b ? s->m : s->n);
    p->k = (uint32_t) s->k;
    p->a_fmt = wf;
    p->b_fmt = SMMA_BF16;
    p->x_fmt = xf;
    p->a_ld = wld;
    p->b_ld = xf == SMMA_BF16 ? xld : smma_sm90_pre_ld(p->k);
    p->ebytes = 2;
    p->sf_fmt = s->scale_fmt;
    p->vshift = s->vec == 16 ? 4 : 5;
    p->sf_128x4 = a->scale_layout == SMMA_SL_128X4;
    p->kb_cols = (uint32_t) ((s->k + s->vec - 1) / s->vec);
    p->kb_pad = (p->kb_cols + 3) / 4 * 4;
    p->sf_words = (p->sf_128x4 || p->kb_cols % 4 == 0)
                  && (uintptr_t) (w_is_b ? a->sb : a->sa) % 4 == 0;

    /* The tile: 64 rows of W (one consumer warpgroup) by the X rows the
     * smallest wgmma N of 8, 16, 32, 64, 128, 256 holds (256 a tile past
     * that). */
    p->wgs = 1;
    p->bm = 64;
    if (t->bn != 0)
        p->bn = t->bn;
    else
        for (p->bn = 8; p->bn < 256 && p->bn < p->n; p->bn *= 2)
            ;
    if (p->bn != 8 && p->bn != 16 && p->bn != 32 && p->bn != 64 && p->bn != 128
        && p->bn != 256)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u rows of X is "
                            "not 8, 16, 32, 64, 128 or 256", kn, p->bn);
    p->pipe.tiles_m = (p->m + p->bm - 1) / p->bm;
    p->pipe.tiles_n = (p->n + p->bn - 1) / p->bn;
    p->pipe.cluster = t->cluster != 0 ? t->cluster
                      : p->pipe.tiles_m >= 2 && p->bn >= 16 ? 2 : 1;
    if (p->pipe.cluster != 1 && p->pipe.cluster != 2)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: clusters of %u CTAs (1 or "
                            "2)", kn, p->pipe.cluster);
    if (p->bn / p->pipe.cluster < 8)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u rows of X "
                            "cannot be shared by %u CTAs (8 rows each at least)", kn, p->bn,
                            p->pipe.cluster);
    p->pipe.group = t->group != 0 ? t->group : 1;
    p->b_rows = p->bn / p->pipe.cluster;

    /* Shared memory: per stage W's rows as stored, then X's kq atoms; the
     * barriers; D is stored from the registers.  Each of the
     * SMMA_SM90_MX_CTAS(bn) CTAs of an SM takes its share of the SM's shared
     * memory (1 KB of it reserved a CTA).  A k-step of kq atoms of 64 k
     * (SMMA_SM90_KQ: 1, 2 or 4; W's rows in runs of 32 kq bytes for e2m1,
     * 64 kq for the 8-bit formats, at most TMA's 256 of a box): one by
     * default, the fastest measured (bench/sm90-kernels.md: 4 was 0-20%
     * slower at M 1 .. 512 on an H100, except MXFP4 at M <= 8, 1-5%
     * faster). */
    room = (SMMA_SM90_SMEM_LIMIT + 1024) / SMMA_SM90_MX_CTAS(p->bn) - 2048
           - SMMA_SM90_BAR_BYTES;
    p->kq = t->kq != 0 ? t->kq : 1;
    if (p->kq != 1 && p->kq != 2 && p->kq != 4)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: k-steps of %u atoms of 64 k "
                            "(1, 2 or 4)", kn, p->kq);
    mx_stage(p);
    p->pipe.kiters = (p->k + p->bk - 1) / p->bk;
    p->pipe.stages = t->stages != 0 ? t->stages
                     : room / p->pipe.stage_bytes > 8 ? 8 : room / p->pipe.stage_bytes;
    if (p->pipe.stages < 2 || p->pipe.stages > 8 || p->pipe.stages * p->pipe.stage_bytes > room)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %u stages of %u bytes do "
                            "not fit in %u bytes of shared memory", kn, p->pipe.stages,
                            p->pipe.stage_bytes, room);
    p->pipe.off_bar = p->pipe.stages * p->pipe.stage_bytes;
    p->smem_bytes = p->pipe.off_bar + SMMA_SM90_BAR_BYTES + 1024;

    /* Persistent clusters, SMMA_SM90_MX_CTAS(bn) CTAs an SM. */
    nq = (sms == 0 ? 1 : sms) * SMMA_SM90_MX_CTAS(p->bn) / p->pipe.cluster;
    if (nq > smma_pipe_units(&p->pipe))
        nq = smma_pipe_units(&p->pipe);
    p->pipe.grid = (nq == 0 ? 1 : nq) * p->pipe.cluster;

    p->c_kind = kind_of(s->c_fmt);
    p->d_kind = kind_of(s->d_fmt);
    p->c_ld = a->ldc;
    p->d_ld = a->ldd;
    p->has_alpha = s->has_alpha;
    p->alpha = s->alpha;
    p->epi_tma = 0;
    return SMMA_GPU_STATUS_OK;
}

/* The name of sm90 kernel k ("sm90" for any other). */
static const char *
sm90_name(smma_gpu_kernel k)
{
    size_t i;

    for (i = 0; i < smma_sm90_nrows; i++)
        if (smma_sm90_rows[i].id == k)
            return smma_sm90_rows[i].name;
    return "sm90";
}

int
smma_sm90_plan_init(smma_sm90_plan *p, const smma_gpu_gemm_args *a, smma_gpu_kernel k,
                    unsigned sms, const smma_sm90_tune *t, char *msg, size_t len)
{
    static const smma_sm90_tune none = { 0, 0, 0, 0, 0, 0, 0 };
    const smma_gemm_shape *s;
    const char *kn = sm90_name(k);
    uint32_t esz, group, room, nq, epi, end;
    int rc;

    if (k != SMMA_GPU_SM90_V1 && k != SMMA_GPU_SM90_V2 && k != SMMA_GPU_SM90_PROMOTE32
        && k != SMMA_GPU_SM90_BS && k != SMMA_GPU_SM90_MIXED)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm90: kernel %d is not sm90-v1, "
                            "sm90-v2, sm90-promote32, sm90-bs or sm90-mixed", (int) k);
    if (a == NULL || p == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: no problem given", kn);
    if (t == NULL)
        t = &none;
    if (k == SMMA_GPU_SM90_MIXED)
        return plan_mixed(p, a, sms, t, msg, len);
    if ((rc = check_problem(a, k, kn, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    s = &a->shape;
    memset(p, 0, sizeof(*p));
    p->version = k == SMMA_GPU_SM90_V1 ? 1 : k == SMMA_GPU_SM90_V2 ? 2
                 : k == SMMA_GPU_SM90_PROMOTE32 ? 3 : 4;
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
        p->a_fmt = s->a_fmt;
        p->b_fmt = s->b_fmt;
        p->a_conv = !is_fp8(s->a_fmt);
        p->b_conv = !is_fp8(s->b_fmt);
        p->ra = 16 * smma_sm90_fmt_bits(p->a_fmt);     /* 128 k a row */
        p->rb = 16 * smma_sm90_fmt_bits(p->b_fmt);
    }
    if (p->version == 4) {
        /* The bf16 ring is v2's stage; the stored ring holds 64 k a row. */
        p->a_fmt = s->a_fmt;
        p->b_fmt = s->b_fmt;
        p->sf_fmt = s->scale_fmt;
        p->vshift = s->vec == 16 ? 4 : 5;
        p->sf_128x4 = a->scale_layout == SMMA_SL_128X4;
        p->kb_cols = (uint32_t) ((s->k + s->vec - 1) / s->vec);
        p->kb_pad = (p->kb_cols + 3) / 4 * 4;
        p->ra = 8 * smma_sm90_fmt_bits(p->a_fmt);
        p->rb = 8 * smma_sm90_fmt_bits(p->b_fmt);
    }

    /* The tile: v3 128 x 128 (two m64n128k32 per 32 k, each with its own
     * temporary registers beside the accumulator). */
    p->wgs = p->version == 1 ? 1 : 2;
    p->bm = 64 * p->wgs;
    p->bn = p->version == 4 ? 256
            : p->version != 2 ? 128 : t->bn != 0 ? t->bn : p->n > 128 ? 256 : 128;
    if (p->bn != 128 && p->bn != 256)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u columns is not "
                            "128 or 256", kn, p->bn);
    if ((p->version == 3 || p->version == 4) && t->bn != 0 && t->bn != p->bn)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: a tile of %u columns is not "
                            "%u", kn, t->bn, p->bn);
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
    if (p->version == 4) {
        if ((rc = plan_bs(p, t, kn, msg, len)) != SMMA_GPU_STATUS_OK)
            return rc;
    } else {
        /* Shared memory: the stages (v3: A, B, then the k-step's scales as
         * fp32), the barriers, the epilogue buffers of v2 and v3. */
        p->off_a = 0;
        p->off_b = p->bm * SMMA_SM90_ROWB;
        p->pipe.stage_bytes = p->off_b + p->bn * SMMA_SM90_ROWB;
        p->pipe.stage_tx = p->pipe.stage_bytes;
        if (p->version == 3) {
            /* The scales as fp32, then the converted operands as stored;
             * TMA's full-barrier bytes are the other operands'. */
            p->off_sfa = p->pipe.stage_bytes;
            p->off_sfb = p->off_sfa + SMMA_SM90_SFA_BYTES;
            p->off_ra = p->off_sfb + SMMA_SM90_SFB_BYTES;
            p->off_rb = p->off_ra + (p->a_conv ? p->bm * p->ra : 0);
            end = p->off_rb + (p->b_conv ? p->bn * p->rb : 0);
            /* The scales' products on the tensor core unless tuned off:
             * B's then A's scales as bf16 operands, the range flags (three
             * words). */
            p->sprod = t->sprod != 1;
            if (p->sprod) {
                p->off_sfs = (end + 127) / 128 * 128;
                p->off_sflag = p->off_sfs + 8 * SMMA_SM90_SFS_BLOCK;
                end = p->off_sflag + 16;
            }
            p->pipe.stage_bytes = (end + 1023) / 1024 * 1024;
            p->pipe.stage_tx = (p->a_conv ? 0 : p->bm * SMMA_SM90_ROWB)
                               + (p->b_conv ? 0 : p->bn * SMMA_SM90_ROWB);
        }
        epi = p->version == 1 ? 0 : 4 * SMMA_SM90_EPI_BUF;
        if (p->sprod)
            epi += SMMA_SM90_SFS_BLOCK; /* the zeros, after the epilogue's buffers */
        room = SMMA_SM90_SMEM_LIMIT - 1024 - SMMA_SM90_BAR_BYTES - epi;
        if (t->stages != 0)
            p->pipe.stages = t->stages;
        else if (p->version == 1)
            p->pipe.stages = 4;
        else
            p->pipe.stages = room / p->pipe.stage_bytes > 8 ? 8 : room / p->pipe.stage_bytes;
        if (p->pipe.stages < 2 || p->pipe.stages > 8
            || p->pipe.stages * p->pipe.stage_bytes > room)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s: %u stages of %u bytes "
                                "do not fit in %u bytes of shared memory (2 .. %u do)", kn,
                                p->pipe.stages, p->pipe.stage_bytes, room,
                                room / p->pipe.stage_bytes < 8 ? room / p->pipe.stage_bytes : 8);
        p->pipe.off_bar = p->pipe.stages * p->pipe.stage_bytes;
        p->off_epi = (p->pipe.off_bar + SMMA_SM90_BAR_BYTES + 1023) / 1024 * 1024;
        p->smem_bytes = p->off_epi + epi + 1024;
        p->off_zero = p->sprod ? p->off_epi + 4 * SMMA_SM90_EPI_BUF : 0;
    }

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

/* ---- the rows ---------------------------------------------------------------------------- */

static int
accepts(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg, size_t len)
{
    if (!dev->sm90a)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s: this build loaded no sm_90a "
                            "code for the sm90 kernels", sm90_name(x->kernel));
    return smma_sm90_check(x, x->kernel, msg, len);
}

/* wgmma.m64nNk16 with bf16 or fp16: the block-FMA model of the device,
 * validated for wgmma on an H100 (softmma/gemm.h). */
static int
model_16bit(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
            size_t len)
{
    (void) major;
    (void) minor;
    if (smma_gpu_kind_of(s) != SMMA_GPU_KIND_16BIT || s->a_fmt != s->b_fmt)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-v1 and sm90-v2 compute "
                            "bf16 x bf16 and fp16 x fp16 only");
    *model = "h100-bf16";
    return SMMA_GPU_STATUS_OK;
}

/* fp8 wgmma.m64n128k32 per 32-k block from zero, promoted in fp32
 * (gemm_p32.cu). */
static int
model_p32(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
          size_t len)
{
    (void) major;
    (void) minor;
    if (s->scale_fmt != SMMA_E8M0 || s->vec != 32 || !smma_sm90_p32_pair(s->a_fmt, s->b_fmt))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-promote32 computes the "
                            "MX pairs only (MXFP8, MXFP6, MXFP4, MXFP8 x MXFP4 with e8m0 "
                            "scales per 32)");
    *model = "h100-fp8-promote32";
    return SMMA_GPU_STATUS_OK;
}

/* Every element times its scale rounded to bf16, then a bf16 wgmma chain:
 * sm90-v2's after sm90-bs's pass (gemm_bs.cu), or sm90-mixed's with the
 * converted operand as A (gemm_mixed.cu). */
static int
model_bs(const smma_gemm_shape *s, int major, int minor, const char **model, char *msg,
         size_t len)
{
    (void) major;
    (void) minor;
    if (s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "sm90-bs and sm90-mixed compute "
                            "block-scaled products only");
    *model = "bf16-upcast-h100";
    return SMMA_GPU_STATUS_OK;
}

static int
launch(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    return smma_sm90_gemm(x, x->kernel, msg, len);
}

#define SM90_NEEDS "sm_90a", 9, 0, false, "9.0 (wgmma, sm_90a)"

const smma_gpu_kernel_row smma_sm90_rows[] = {
    { SMMA_GPU_SM90_V1, "sm90-v1", "gpu/sm90/gemm_v1.cu", SM90_NEEDS, SMMA_GPU_KIND_16BIT,
      "wgmma teaching kernel: bf16/fp16, one consumer warpgroup, TMA ring",
      accepts, model_16bit, launch },
    { SMMA_GPU_SM90_V2, "sm90-v2", "gpu/sm90/gemm_v2.cu", SM90_NEEDS, SMMA_GPU_KIND_16BIT,
      "bf16/fp16: wgmma, TMA, warp-specialized, persistent clusters",
      accepts, model_16bit, launch },
    { SMMA_GPU_SM90_PROMOTE32, "sm90-promote32", "gpu/sm90/gemm_p32.cu", SM90_NEEDS,
      SMMA_GPU_KIND_SCALED, "the MX pairs on fp8 wgmma, promoted into fp32 every 32 k",
      accepts, model_p32, launch },
    { SMMA_GPU_SM90_BS, "sm90-bs", "gpu/sm90/gemm_bs.cu", SM90_NEEDS, SMMA_GPU_KIND_SCALED,
      "block-scaled pairs upcast to bf16 (a pass, then sm90-v2's chain)",
      accepts, model_bs, launch },
    { SMMA_GPU_SM90_MIXED, "sm90-mixed", "gpu/sm90/gemm_mixed.cu", SM90_NEEDS,
      SMMA_GPU_KIND_SCALED, "small M: the block-scaled operand streamed once, converted in "
      "registers as wgmma's A", accepts, model_bs, launch },
};

const size_t smma_sm90_nrows = sizeof(smma_sm90_rows) / sizeof(smma_sm90_rows[0]);
