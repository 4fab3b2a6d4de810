/*
 * tests/ref/quant-sweep-t.c - MX scale computation against oracles, over fp32
 * amax values: level 2 takes all 2^32 bit patterns, level 1 every
 * bf16-exact pattern and 2^20 more spread over the space, level 0 4096.
 *
 *   cuda: the block scale equals __nv_cvt_float_to_e8m0(amax * (1.0f / max),
 *     __NV_SATFINITE, cudaRoundPosInf) from the CUDA toolkit's cuda_fp8.h,
 *     the host emulation of cvt.rp.satfinite.ue8m0x2.f32 (skipped, with the
 *     reason, where configure found no toolkit headers).
 *   te, torchao-rceil, torchao-floor, triton: the block scale equals the
 *     library's own formula, restated here from its source in plain C on
 *     host floats (TransformerEngine's float_to_e8m0 fallback in
 *     common/util/ptx.cuh; torchao's _f32_to_e8m0_rceil and FLOOR branch of
 *     to_mx; Triton's ROUND_UP bit trick in _compute_quant_and_scale).
 *
 * A negative amax stands for its magnitude (the library functions here work
 * on |x|, and softmma's scale function takes the magnitude).
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include <softmma/quant.h>

#include "sweep.h"
#include "tap/basic.h"

#ifdef HAVE_CUDA_FP_HEADERS
#include <cuda_fp8.h>
#endif

enum oracle { O_CUDA, O_TE, O_TORCHAO_RCEIL, O_TORCHAO_FLOOR, O_TRITON };

struct check {
    enum oracle oracle;
    const char *profile;
    smma_block_format f;
    int level2;             /* also swept in full at level 2 */
};

static const struct check checks[] = {
    { O_CUDA, "cuda", SMMA_MXFP8_E4M3, 1 },
    { O_CUDA, "cuda", SMMA_MXFP8_E5M2, 1 },
    { O_CUDA, "cuda", SMMA_MXFP6_E2M3, 1 },
    { O_CUDA, "cuda", SMMA_MXFP6_E3M2, 1 },
    { O_CUDA, "cuda", SMMA_MXFP4, 1 },
    { O_TE, "te", SMMA_MXFP8_E4M3, 1 },
    { O_TE, "te", SMMA_MXFP8_E5M2, 1 },
    { O_TORCHAO_RCEIL, "torchao-rceil", SMMA_MXFP8_E4M3, 1 },
    { O_TORCHAO_RCEIL, "torchao-rceil", SMMA_MXFP4, 0 },
    { O_TORCHAO_FLOOR, "torchao-floor", SMMA_MXFP8_E4M3, 1 },
    { O_TORCHAO_FLOOR, "torchao-floor", SMMA_MXFP4, 0 },
    { O_TRITON, "triton", SMMA_MXFP8_E4M3, 1 },
    { O_TRITON, "triton", SMMA_MXFP4, 0 },
};

static uint32_t
bits_of(float f)
{
    return smma_f32_bits(f);
}

/* TransformerEngine's float_to_e8m0 for GPUs without the cvt (its result
 * equals cvt.rp.satfinite.ue8m0x2.f32). */
static uint8_t
te_float_to_e8m0(float val)
{
    uint32_t u;
    uint8_t exponent;
    uint32_t mantissa;

    if (isnan(val))
        return 0xff;
    if (isinf(val))
        return 0xfe;
    if (val == 0.0f)
        return 0x00;
    u = bits_of(val);
    exponent = (uint8_t) (u >> 23);
    mantissa = u & 0x7fffffu;
    if ((mantissa > 0 && exponent != 0xfe) && !(exponent == 0 && mantissa <= 0x400000u))
        ++exponent;
    return exponent;
}

/* torchao's _f32_to_e8m0_rceil on a non-negative fp32. */
static uint8_t
torchao_rceil(float v)
{
    uint32_t u = bits_of(v), e = (u >> 23) & 0xff, m = u & 0x7fffffu;
    int up = e == 0 ? m > 0x400000u : m != 0;

    if (isnan(v) || isinf(v))
        return 0xff;
    return (uint8_t) (e + (uint32_t) up);
}

/* torchao's FLOOR branch of to_mx on amax's bits. */
static uint8_t
torchao_floor(uint32_t amax, int emax)
{
    int s = (int) ((amax >> 23) & 0xff) - 127 - emax;

    if ((amax & 0x7f800000u) == 0x7f800000u)
        return 0xff;
    if (s < -127)
        s = -127;
    if (s > 128)
        s = 128;
    return (uint8_t) (s + 127);
}

/* Triton's ROUND_UP: the fp32 quotient's bits plus 0x7fffff, exponent kept. */
static uint8_t
triton_round_up(float q)
{
    uint32_t u = isnan(q) ? 0x7fffffffu : bits_of(q);

    return (uint8_t) (((u + 0x7fffffu) & 0x7f800000u) >> 23);
}

struct ctx {
    const struct check *c;
    smma_quant_opts o;
    float max, rcp;
    int emax;
    int level;
};

static uint8_t
oracle(const struct ctx *cx, uint32_t b)
{
    float a = fabsf(smma_f32_from_bits(b));

    switch (cx->c->oracle) {
    case O_CUDA:
#ifdef HAVE_CUDA_FP_HEADERS
        return (uint8_t) __nv_cvt_float_to_e8m0(smma_f32_from_bits(b) * cx->rcp, __NV_SATFINITE,
                                                cudaRoundPosInf);
#else
        return 0;
#endif
    case O_TE:
        return te_float_to_e8m0(a * cx->rcp);
    case O_TORCHAO_RCEIL:
        return torchao_rceil(a * cx->rcp);
    case O_TORCHAO_FLOOR:
        return torchao_floor(b & 0x7fffffffu, cx->emax);
    case O_TRITON:
    default:
        return triton_round_up(a / cx->max);
    }
}

static void
check_range(uint64_t lo, uint64_t hi, void *vctx, sweep_result *r)
{
    struct ctx *cx = vctx;
    uint64_t i;

    for (i = lo; i < hi; i++) {
        uint32_t b = sweep_fp32_input(cx->level, i, 0x10001u * 16 * 16, 4093u * 1024u + 1u);
        uint8_t want = oracle(cx, b);
        uint8_t got = smma_block_scale_from_amax(cx->c->f, b, &cx->o);

        r->checked++;
        if (want != got)
            sweep_record(r, i, b, want, got);
    }
}

int
main(void)
{
    int level = test_level();
    size_t i;

    plan(sizeof(checks) / sizeof(checks[0]));
    for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        const struct check *c = &checks[i];
        const smma_block_format_desc *bd = smma_block_format_info(c->f);
        int lv = level >= 2 && !c->level2 ? 1 : level;
        uint64_t count = lv >= 2 ? (uint64_t) 1 << 32
                         : lv == 1 ? 65536 + ((uint64_t) 1 << 20)
                                   : 65536 + 4096;
        const smma_profile *p;
        struct ctx cx;
        sweep_result res;
        unsigned k;

#ifndef HAVE_CUDA_FP_HEADERS
        if (c->oracle == O_CUDA) {
            skip("cuda %s: CUDA fp8 headers not available (configure found no toolkit)",
                 bd->name);
            continue;
        }
#endif
        if (smma_profile_from_name(c->profile, &p, NULL) != SMMA_OK)
            bail("no profile %s", c->profile);
        cx.c = c;
        cx.o = smma_quant_opts_default(p);
        cx.max = (float) bd->max_elem;
        cx.rcp = 1.0f / cx.max;
        cx.emax = bd->emax_elem;
        cx.level = lv;
        sweep_run(0, count, check_range, &cx, &res);
        ok(res.mismatches == 0 && res.checked == count,
           "%s %s scale = %s on %llu fp32 amax values (%llu mismatches)", c->profile,
           bd->name,
           c->oracle == O_CUDA ? "__nv_cvt_float_to_e8m0(amax * (1.0f/max), satfinite, rp)"
                               : "the library's formula",
           (unsigned long long) res.checked, (unsigned long long) res.mismatches);
        for (k = 0; k < res.nfirst; k++)
            diag("  amax 0x%08x (%a): oracle 0x%02x softmma 0x%02x", res.first[k].input,
                 (double) smma_f32_from_bits(res.first[k].input), res.first[k].want,
                 res.first[k].got);
    }
    return exit_status();
}
