/*
 * tests/ref/cuda-headers-t.c - the "cuda" profile against the CUDA toolkit's
 * own host conversion functions (cuda_fp8.h, cuda_fp6.h, cuda_fp4.h), which
 * compile with a plain C compiler and emulate PTX cvt bit for bit.
 *
 * Conversions from fp32: e4m3 and e5m2 (satfinite and not), e2m1, e2m3 and
 * e3m2 (rn and rz; always saturating), e8m0 (rz and rp, satfinite and not).
 * Decoding: every code of e4m3, e5m2, e2m1, e2m3, e3m2 to half, e8m0 to bf16.
 *
 * Level 2 sweeps all 2^32 fp32 inputs per conversion on every core; level 1
 * takes every bf16-exact fp32 and 2^22 inputs spread over the whole space;
 * level 0 takes 2^16.  Skips when configure did not find the headers.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/profile.h>

#include "sweep.h"
#include "tap/basic.h"

#ifndef HAVE_CUDA_FP_HEADERS

int
main(void)
{
    skip_all("CUDA fp8/fp6/fp4 headers not available (configure without CUDA toolkit)");
}

#else

#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

enum kind { K_FP8, K_FP6, K_FP4, K_E8M0 };

struct conv {
    const char *name;
    enum kind kind;
    smma_format f;
    smma_round round;
    bool sat;
};

static const struct conv convs[] = {
    { "__nv_cvt_float_to_fp8 e4m3 satfinite", K_FP8, SMMA_E4M3, SMMA_RN, true },
    { "__nv_cvt_float_to_fp8 e4m3 nosat", K_FP8, SMMA_E4M3, SMMA_RN, false },
    { "__nv_cvt_float_to_fp8 e5m2 satfinite", K_FP8, SMMA_E5M2, SMMA_RN, true },
    { "__nv_cvt_float_to_fp8 e5m2 nosat", K_FP8, SMMA_E5M2, SMMA_RN, false },
    { "__nv_cvt_float_to_fp4 e2m1 rn", K_FP4, SMMA_E2M1, SMMA_RN, true },
    { "__nv_cvt_float_to_fp4 e2m1 rz", K_FP4, SMMA_E2M1, SMMA_RZ, true },
    { "__nv_cvt_float_to_fp6 e2m3 rn", K_FP6, SMMA_E2M3, SMMA_RN, true },
    { "__nv_cvt_float_to_fp6 e2m3 rz", K_FP6, SMMA_E2M3, SMMA_RZ, true },
    { "__nv_cvt_float_to_fp6 e3m2 rn", K_FP6, SMMA_E3M2, SMMA_RN, true },
    { "__nv_cvt_float_to_fp6 e3m2 rz", K_FP6, SMMA_E3M2, SMMA_RZ, true },
    { "__nv_cvt_float_to_e8m0 rz satfinite", K_E8M0, SMMA_E8M0, SMMA_RZ, true },
    { "__nv_cvt_float_to_e8m0 rz nosat", K_E8M0, SMMA_E8M0, SMMA_RZ, false },
    { "__nv_cvt_float_to_e8m0 rp satfinite", K_E8M0, SMMA_E8M0, SMMA_RP, true },
    { "__nv_cvt_float_to_e8m0 rp nosat", K_E8M0, SMMA_E8M0, SMMA_RP, false },
};

static uint32_t
cuda_convert(const struct conv *c, float x)
{
    enum cudaRoundMode rm = c->round == SMMA_RZ ? cudaRoundZero
                            : c->round == SMMA_RP ? cudaRoundPosInf
                                                  : cudaRoundNearest;
    __nv_saturation_t sat = c->sat ? __NV_SATFINITE : __NV_NOSAT;

    switch (c->kind) {
    case K_FP8:
        return __nv_cvt_float_to_fp8(x, sat, c->f == SMMA_E4M3 ? __NV_E4M3 : __NV_E5M2);
    case K_FP6:
        return __nv_cvt_float_to_fp6(x, c->f == SMMA_E2M3 ? __NV_E2M3 : __NV_E3M2, rm);
    case K_FP4:
        return __nv_cvt_float_to_fp4(x, __NV_E2M1, rm);
    case K_E8M0:
    default:
        return __nv_cvt_float_to_e8m0(x, sat, rm);
    }
}

/* Which inputs a sweep visits: index i maps to fp32 bits. */
struct ctx {
    const struct conv *c;
    smma_cvt cvt;
    int level;
};

static void
check_range(uint64_t lo, uint64_t hi, void *vctx, sweep_result *r)
{
    struct ctx *cx = vctx;
    uint64_t i;

    for (i = lo; i < hi; i++) {
        uint32_t b = sweep_fp32_input(cx->level, i, 0x10001u * 16, 1021u * 1024u + 1u);
        uint32_t want = cuda_convert(cx->c, smma_f32_from_bits(b));
        uint32_t got = smma_encode_f32bits(cx->c->f, b, &cx->cvt);

        r->checked++;
        if (want != got)
            sweep_record(r, i, b, want, got);
    }
}

/* The value of a half's bits, exactly. */
static double
half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v;

    if (e == 31)
        return m ? NAN : INFINITY * ((h & 0x8000) ? -1 : 1);
    v = e == 0 ? ldexp(m, -24) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static void
check_decode(void)
{
    uint32_t c;
    unsigned bad;
    __half_raw h;
    __nv_bfloat16_raw bf;

    bad = 0;
    for (c = 0; c < 256; c++) {
        double v = smma_decode(SMMA_E4M3, c), w;

        h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t) c, __NV_E4M3);
        w = half_value(h.x);
        if (!(v == w || (isnan(v) && isnan(w))) && ++bad <= 10)
            diag("e4m3 0x%02x: cuda %a ours %a", c, w, v);
        v = smma_decode(SMMA_E5M2, c);
        h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t) c, __NV_E5M2);
        w = half_value(h.x);
        if (!(v == w || (isnan(v) && isnan(w))) && ++bad <= 10)
            diag("e5m2 0x%02x: cuda %a ours %a", c, w, v);
        bf = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t) c);
        w = (double) smma_f32_from_bits((uint32_t) bf.x << 16);
        v = smma_decode(SMMA_E8M0, c);
        if (!(v == w || (isnan(v) && isnan(w))) && ++bad <= 10)
            diag("e8m0 0x%02x: cuda %a ours %a", c, w, v);
    }
    ok(bad == 0, "every e4m3, e5m2 and e8m0 code decodes as the CUDA headers say");
    bad = 0;
    for (c = 0; c < 64; c++) {
        double v, w;

        h = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t) c, __NV_E2M3);
        v = smma_decode(SMMA_E2M3, c);
        w = half_value(h.x);
        if (v != w && ++bad <= 10)
            diag("e2m3 0x%02x: cuda %a ours %a", c, w, v);
        h = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t) c, __NV_E3M2);
        v = smma_decode(SMMA_E3M2, c);
        w = half_value(h.x);
        if (v != w && ++bad <= 10)
            diag("e3m2 0x%02x: cuda %a ours %a", c, w, v);
        if (c < 16) {
            h = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t) c, __NV_E2M1);
            v = smma_decode(SMMA_E2M1, c);
            w = half_value(h.x);
            if (v != w && ++bad <= 10)
                diag("e2m1 0x%x: cuda %a ours %a", c, w, v);
        }
    }
    ok(bad == 0, "every e2m1, e2m3 and e3m2 code decodes as the CUDA headers say");
}

int
main(void)
{
    int level = test_level();
    size_t i;
    uint64_t count = level >= 2 ? (uint64_t) 1 << 32
                     : level == 1 ? 65536 + ((uint64_t) 1 << 22)
                                  : 65536 + 4096;

    plan(2 + sizeof(convs) / sizeof(convs[0]));
    diag("level %d: %llu fp32 inputs per conversion on %u threads", level,
         (unsigned long long) count, sweep_threads());
    check_decode();
    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        struct ctx cx;
        sweep_result res;
        double t0 = tap_seconds();
        unsigned k;

        cx.c = &convs[i];
        cx.cvt = smma_profile_cvt(smma_profile_cuda());
        cx.cvt.round = convs[i].round;
        cx.cvt.sat = convs[i].sat;
        cx.level = level;
        sweep_run(0, count, check_range, &cx, &res);
        ok(res.mismatches == 0 && res.checked == count,
           "cuda profile = %s on %llu inputs (%llu mismatches)", convs[i].name,
           (unsigned long long) res.checked, (unsigned long long) res.mismatches);
        for (k = 0; k < res.nfirst; k++)
            diag("  input 0x%08x (%a): cuda 0x%02x (%a) softmma 0x%02x (%a)", res.first[k].input,
                 (double) smma_f32_from_bits(res.first[k].input), res.first[k].want,
                 smma_decode(convs[i].f, res.first[k].want), res.first[k].got,
                 smma_decode(convs[i].f, res.first[k].got));
        diag("RESULT conv=\"%s\" inputs=%llu mismatches=%llu seconds=%.1f", convs[i].name,
             (unsigned long long) res.checked, (unsigned long long) res.mismatches,
             tap_seconds() - t0);
    }
    return exit_status();
}

#endif /* HAVE_CUDA_FP_HEADERS */
