/*
 * tests/gpu/mma-t.c - mma.sync on the GPU against the simulator.
 *
 * For each of mma.m16n8k16 bf16 and f16 (f32 accumulators), mma.m16n8k16 f16
 * with f16 accumulators, and mma.m16n8k32 e4m3 and e5m2:
 * seeded random tiles are packed into per-lane registers with the
 * simulator's layouts (smma_frag_pack), executed on the GPU by the probe
 * (gpu/probes/mma_probe.cu), and every output register is compared bit for
 * bit with the simulator's execution of the same instruction (smma_mma_exec)
 * under the GPU's numerics model.  Agreement validates the layouts and the
 * model together; the counts for the other models are printed as well, so
 * that a refuted model shows which one the hardware follows.
 *
 * Level 0: 1,000 cases per instruction; level 1: 100,000; level 2: 1,000,000.
 * Skips without CUDA, without a device, or (per instruction) on a device
 * that lacks the instruction.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/fragment.h>
#include <softmma/gemm.h>

#include "sweep.h"
#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/probes.h"

/* The primary model of each instruction on an H100, and the alternatives
 * whose agreement is reported. */
static const char *const primary[SMMA_MMA_INSTR_COUNT] = { "h100-bf16", "h100-bf16",
                                                           "h100-fp8", "h100-fp8",
                                                           "h100-bf16" };
static const char *const others[] = { "exact-rn", "exact-rz", "h100-bf16", "h100-fp8",
                                      "a100-bf16", "b200-fp8" };

/* Known gaps, reported as TODO test points: on sm_90, mma.sync with fp8
 * operands follows none of the modeled variants (bench/h100-mma-probe.md). */
static const char *const gap[SMMA_MMA_INSTR_COUNT] = {
    NULL, NULL, "fp8 mma.sync on sm_90 is not modeled yet",
    "fp8 mma.sync on sm_90 is not modeled yet",
    "f16 accumulators on sm_90: the final rounding to f16 is not modeled yet (1 ulp on 0.44%)"
};

struct job {
    smma_mma_instr instr;
    const smma_model *model;
    const uint32_t *a, *b, *c, *d;
};

/* The GPU arrays hold 4 C and 4 D registers per lane; an instruction with
 * fewer (the f16.f16 form: 2) uses the first ones. */
static void
check_cases(uint64_t lo, uint64_t hi, void *vctx, sweep_result *r)
{
    const struct job *j = vctx;
    const smma_frag_layout *lc = smma_frag_layout_get(j->instr, SMMA_OP_C);
    uint32_t c[32 * 4], d[32 * 4];
    uint64_t t;

    for (t = lo; t < hi; t++) {
        unsigned l, k;

        r->checked++;
        for (l = 0; l < 32; l++)
            for (k = 0; k < lc->regs; k++)
                c[l * lc->regs + k] = j->c[t * 128 + l * 4 + k];
        if (smma_mma_exec(j->instr, j->model, j->a + t * 128, j->b + t * 64, c, d, NULL) !=
            SMMA_OK) {
            sweep_record(r, t, 0, 0xffffffffu, 0);
            continue;
        }
        for (l = 0; l < 32 * lc->regs; l++)
            if (d[l] != j->d[t * 128 + (l / lc->regs) * 4 + l % lc->regs]) {
                k = (l / lc->regs) * 4 + l % lc->regs;
                sweep_record(r, t, k, d[l], j->d[t * 128 + k]);
                break;
            }
    }
}

/* A random bf16 or f16 code with an exponent in [-w, w]. */
static uint32_t
random_half(tap_rng *r, smma_format f, int w)
{
    uint64_t x = tap_rng_next(r);
    int e = (int) (x % (uint64_t) (2 * w + 1)) - w;
    uint32_t sign = (uint32_t) (x >> 63);

    if ((x >> 20) % 16 == 0)
        return sign << 15; /* a signed zero now and then */
    if (f == SMMA_BF16)
        return (sign << 15) | ((uint32_t) (e + 127) << 7) | (uint32_t) ((x >> 32) & 0x7f);
    return (sign << 15) | ((uint32_t) (e + 15) << 10) | (uint32_t) ((x >> 32) & 0x3ff);
}

static uint32_t
random_fp8(tap_rng *r, smma_format f)
{
    for (;;) {
        uint32_t c = (uint32_t) tap_rng_next(r) & 0xff;

        if (!smma_code_is_nan(f, c) && !smma_code_is_inf(f, c))
            return c;
    }
}

static uint32_t
random_c(tap_rng *r)
{
    uint64_t x = tap_rng_next(r);
    int e = (int) (x % 17) - 8;

    if ((x >> 8) % 2 == 0)
        return 0;
    return ((uint32_t) (x >> 63) << 31) | ((uint32_t) (e + 127) << 23) |
           (uint32_t) ((x >> 24) & 0x7fffff);
}

int
main(void)
{
    int level = test_level(), major = 0, minor = 0, rc;
    char name[128], msg[256];
    size_t n = level == 0 ? 1000 : level == 1 ? 100000 : 1000000;
    unsigned ii;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != 0)
        skip_all("no CUDA device: %s", msg);
    if (major * 10 + minor < 80)
        skip_all("needs sm_80 or later (found sm_%d%d)", major, minor);
    plan(SMMA_MMA_INSTR_COUNT);
    diag("device 0: %s (sm_%d%d); %zu cases per instruction; %u threads", name, major, minor, n,
         sweep_threads());
    for (ii = 0; ii < SMMA_MMA_INSTR_COUNT; ii++) {
        smma_mma_instr instr = (smma_mma_instr) ii;
        const smma_frag_layout *la = smma_frag_layout_get(instr, SMMA_OP_A);
        const smma_frag_layout *lb = smma_frag_layout_get(instr, SMMA_OP_B);
        const smma_frag_layout *lc = smma_frag_layout_get(instr, SMMA_OP_C);
        const smma_frag_layout *ld = smma_frag_layout_get(instr, SMMA_OP_D);
        uint32_t *a, *b, *c, *d, ta[16 * 32], tb[32 * 8], tc[16 * 8], cr[32 * 4];
        bool half = la->fmt == SMMA_BF16 || la->fmt == SMMA_FP16;
        tap_rng rng;
        size_t t, o;
        struct job j;
        sweep_result res;
        double t0;

        if (la->fmt != SMMA_BF16 && la->fmt != SMMA_FP16 && major * 10 + minor < 89) {
            skip("%s needs sm_89 (found sm_%d%d)", smma_mma_instr_name(instr), major, minor);
            continue;
        }
        a = malloc(n * 128 * sizeof(uint32_t));
        b = malloc(n * 64 * sizeof(uint32_t));
        c = malloc(n * 128 * sizeof(uint32_t));
        d = malloc(n * 128 * sizeof(uint32_t));
        if (a == NULL || b == NULL || c == NULL || d == NULL)
            sysbail("cannot allocate %zu cases", n);
        tap_rng_seed(&rng, 0x6d6d61u + ii);
        for (t = 0; t < n; t++) {
            size_t e;
            int w = t % 4 == 3 ? 30 : 8; /* a quarter with a wide exponent spread */

            for (e = 0; e < (size_t) la->rows * la->cols; e++)
                ta[e] = half ? random_half(&rng, la->fmt, la->fmt == SMMA_FP16 && w > 14 ? 14 : w)
                               : random_fp8(&rng, la->fmt);
            for (e = 0; e < (size_t) lb->rows * lb->cols; e++)
                tb[e] = half ? random_half(&rng, lb->fmt, lb->fmt == SMMA_FP16 && w > 14 ? 14 : w)
                               : random_fp8(&rng, lb->fmt);
            for (e = 0; e < 16 * 8; e++)
                tc[e] = lc->fmt == SMMA_FP16 ? random_half(&rng, SMMA_FP16, 8) : random_c(&rng);
            smma_frag_pack(la, ta, a + t * 128);
            smma_frag_pack(lb, tb, b + t * 64);
            smma_frag_pack(lc, tc, cr);
            for (e = 0; e < 32 * 4; e++)
                c[t * 128 + e] = e % 4 < lc->regs ? cr[(e / 4) * lc->regs + e % 4] : 0;
        }
        t0 = tap_seconds();
        rc = smma_gpu_mma((int) ii, a, b, c, d, n, msg, sizeof(msg));
        if (rc == SMMA_GPU_EARCH) {
            skip("%s: %s", smma_mma_instr_name(instr), msg);
            goto next;
        }
        if (rc != 0)
            bail("%s: %s", smma_mma_instr_name(instr), msg);
        diag("%s: GPU ran %zu cases in %.2f s", smma_mma_instr_name(instr), n,
             tap_seconds() - t0);
        j.instr = instr;
        j.a = a;
        j.b = b;
        j.c = c;
        j.d = d;
        for (o = 0; o < sizeof(others) / sizeof(others[0]); o++) {
            smma_gemm_shape s;

            if (smma_model_from_name(others[o], &j.model, NULL) != SMMA_OK)
                continue;
            memset(&s, 0, sizeof(s));
            s.a_fmt = la->fmt;
            s.b_fmt = lb->fmt;
            s.scale_fmt = SMMA_NONE;
            s.c_fmt = lc->fmt;
            s.d_fmt = ld->fmt;
            s.m = 16;
            s.n = 8;
            s.k = la->cols;
            if (strcmp(others[o], primary[ii]) == 0 ||
                smma_model_check(j.model, &s, NULL) != SMMA_OK)
                continue;
            {
                size_t nd = n < 10000 ? n : 10000; /* diagnostics: a sample */

                sweep_run(0, nd, check_cases, &j, &res);
                diag("%s: model %s agrees on %llu of the first %zu cases",
                     smma_mma_instr_name(instr), others[o],
                     (unsigned long long) (nd - res.mismatches), nd);
            }
        }
        smma_model_from_name(primary[ii], &j.model, NULL);
        sweep_run(0, n, check_cases, &j, &res);
        todo(major == 9 ? gap[ii] : NULL);
        ok(res.mismatches == 0, "%s: the GPU equals the simulator under %s on %zu random cases "
           "(%llu cases differ)", smma_mma_instr_name(instr), primary[ii], n,
           (unsigned long long) res.mismatches);
        todo(NULL);
        for (o = 0; o < res.nfirst && o < 5; o++) {
            unsigned row, col, lane = res.first[o].input / 4, reg = res.first[o].input % 4;

            smma_frag_coord(ld, lane, reg, 0, &row, &col);
            diag("  case %llu, D[%u][%u] (lane %u reg %u): simulator 0x%08x, GPU 0x%08x%s",
                 (unsigned long long) res.first[o].index, row, col, lane, reg,
                 res.first[o].want, res.first[o].got,
                 ld->elems > 1 ? " (two f16 elements)" : "");
        }
        diag("RESULT instr=%s model=%s cases=%zu mismatches=%llu", smma_mma_instr_name(instr),
             primary[ii], n, (unsigned long long) res.mismatches);
    next:
        free(a);
        free(b);
        free(c);
        free(d);
    }
    return exit_status();
}

#endif /* HAVE_CUDA */
