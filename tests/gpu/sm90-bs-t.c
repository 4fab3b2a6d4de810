/*
 * tests/gpu/sm90-bs-t.c - the block-scaled sm_90a kernel sm90-promote32
 * (fp8 wgmma per 32-k block, promoted in fp32) on the GPU against the golden
 * vectors and the reference under h100-fp8-promote32.
 *
 * 1. The committed suites of its pairs (MXFP8 e4m3, e5m2 and mixed):
 *    gemm.COMBO.kernel.exact and .kernel.model.h100-fp8-promote32, and for
 *    MXFP8 the tile suites gemm.mxfp8.exact and .model.h100-fp8-promote32,
 *    with scales in the linear and the 128x4 layout.
 * 2. Ragged problems with C, alpha and bf16 / fp16 D (clusters half
 *    outside M, K ending 8 k into a block), every pair, both layouts.
 * 3. Special values: e8m0 0x00, 0x01, 0xfe and 0xff (NaN) scales, whose
 *    products leave fp32's range both ways, NaN, Inf and -0 codes; and the
 *    signs of zeros: C = -0 with blocks whose every product is -0.
 * 4. Scales at an odd address (3 bytes past an aligned one).
 * 5. Level 1: 8192^3 for every pair and LLM shapes, sampled (at least
 *    20,000 outputs each, every tile, warp and register slot hit).
 * Outputs are poisoned first; inputs from the seed printed (SMMA_SEED
 * replays it).  SMMA_GEMM_PAIRS=COMBO,... runs only the pairs named.
 *
 * Skips without CUDA or a device, on a device other than compute
 * capability 9.0, and where the build holds no sm_90a code.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../gpu/gemm_internal.h"
#include "../../gpu/sm90/sm90.h"
#include "kernel.h"
#include "tap/basic.h"

struct pair {
    const char *combo;
    smma_format a, b;
    bool tile_suites;   /* gemm.COMBO.exact and .model.h100-fp8-promote32 exist */
};

static const struct pair pairs[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, true },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, false },
};
#define NPAIRS (sizeof(pairs) / sizeof(pairs[0]))

/* 128 x 128 tiles, two warpgroups of four warps of 16 rows. */
static const kt_geometry p32_geometry = { 128, 128, 8, 1 };

static unsigned scale_offset;

/* Whether the checks of pair pr run (SMMA_GEMM_PAIRS). */
static bool
pair_wanted(const struct pair *pr)
{
    return kt_listed("SMMA_GEMM_PAIRS", pr->combo);
}

static smma_gemm_shape
pair_shape(const struct pair *pr, size_t m, size_t n, size_t k, smma_format d)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = pr->a;
    s.b_fmt = pr->b;
    s.scale_fmt = SMMA_E8M0;
    s.vec = 32;
    s.d_fmt = d;
    s.m = m;
    s.n = n;
    s.k = k;
    return s;
}

/* What a problem gets besides its random codes. */
enum { PLAIN = 0, SPECIAL = 1, ZEROS = 2 };

/* Rows of A i % 4 == 1 and columns of B j % 4 == 1 all -0 and +1 (every
 * product of such an output -0), C = -0 at those outputs. */
static void
make_zeros(kt_problem *p)
{
    size_t i, j;

    for (i = 1; i < p->s.m; i += 4)
        for (j = 0; j < p->s.k; j++)
            p->a[i * p->s.k + j] = 0x80;
    for (i = 1; i < p->s.n; i += 4)
        for (j = 0; j < p->s.k; j++)
            p->b[i * p->s.k + j] = p->s.b_fmt == SMMA_E5M2 ? 0x3c : 0x38;
    for (i = 1; p->c != NULL && i < p->s.m; i += 4)
        for (j = 1; j < p->s.n; j += 4)
            p->c[i * p->s.n + j] = 0x80000000u;
}

static void
check_problem(const kt_device *dev, const struct pair *pr, const smma_gemm_shape *s,
              bool with_c, smma_scale_layout layout, uint64_t seed, uint64_t samples,
              unsigned extra)
{
    kt_problem p;
    kt_how h;
    const smma_model *model = kt_model(dev, SMMA_GPU_SM90_PROMOTE32, s);
    uint32_t *d = NULL;
    char msg[512] = "";
    uint64_t checked = 0, bad;
    double t0 = tap_seconds();

    if (!pair_wanted(pr))
        return;
    memset(&h, 0, sizeof(h));
    h.kernel = SMMA_GPU_SM90_PROMOTE32;
    h.b_kmajor = true;
    h.layout = layout;
    h.scale_offset = scale_offset;
    if (model == NULL)
        return;
    if (!kt_generate(&p, s, with_c, seed, msg, sizeof(msg))
        || (d = malloc(s->m * s->n * sizeof(*d))) == NULL
        || ((extra == SPECIAL) && (kt_make_special(&p, seed), false))
        || ((extra == ZEROS) && (make_zeros(&p), false)) || !kt_run(&p, &h, d, msg, sizeof(msg))) {
        ok(false, "sm90-promote32 %s %zux%zux%zu: %s", pr->combo, s->m, s->n, s->k, msg);
        free(d);
        kt_free(&p);
        return;
    }
    if (extra == ZEROS)
        diag("D[1][1] (C -0, every product -0) = 0x%08lx", (unsigned long) d[1 * s->n + 1]);
    bad = kt_verify(&p, model, &p32_geometry, d, samples, seed, &checked);
    ok(bad == 0, "sm90-promote32 %s %zux%zux%zu, scales %s%s, %sC %s, D %s%s, seed %llu: %llu "
       "sampled outputs equal %s, %llu differ (%.1f s)", pr->combo, s->m, s->n, s->k,
       smma_scale_layout_name(layout), scale_offset ? " at an odd address" : "",
       extra == SPECIAL ? "special values, " : extra == ZEROS ? "-0 sums, " : "",
       with_c ? "fp32" : "none", smma_format_name(s->d_fmt), s->has_alpha ? ", alpha" : "",
       (unsigned long long) seed, (unsigned long long) (checked - bad), model->name,
       (unsigned long long) bad, tap_seconds() - t0);
    free(d);
    kt_free(&p);
}

int
main(void)
{
    /* LLM shapes (M tokens x N out x K in). */
    static const size_t llm[][3] = {
        { 4096, 14336, 4096 }, { 4096, 4096, 14336 }, { 2048, 28672, 8192 }, { 16384, 8192, 1024 },
    };
    kt_device dev;
    uint64_t seed = kt_seed(), samples = test_level() >= 2 ? 100000 : 20000, q = 0;
    char why[256], name[160];
    size_t pi, li, i;
    const char *list = getenv("SMMA_GEMM_PAIRS");

    if (list != NULL && *list != '\0') {
        size_t items = 1, hits = 0;

        for (i = 0; list[i] != '\0'; i++)
            items += list[i] == ',';
        for (pi = 0; pi < NPAIRS; pi++)
            hits += pair_wanted(&pairs[pi]);
        if (hits != items)
            bail("SMMA_GEMM_PAIRS=%s: a name that is not a pair of this test", list);
    }
    kt_device_or_skip(&dev);
    if (dev.major != 9 || dev.minor != 0)
        skip_all("sm90-promote32 needs compute capability 9.0, the device has %d.%d", dev.major,
                 dev.minor);
    if (smma_sm90_ready(why, sizeof(why)) != SMMA_GPU_STATUS_OK)
        skip_all("%s", why);
    plan_lazy();
    diag("sm90-promote32 on %s; seed %llu (SMMA_SEED replays it)", dev.dev.name,
         (unsigned long long) seed);

    /* 1. The committed suites. */
    for (pi = 0; pi < NPAIRS; pi++)
        for (li = 0; li < 2; li++) {
            kt_how h;

            if (!pair_wanted(&pairs[pi]))
                continue;
            memset(&h, 0, sizeof(h));
            h.kernel = SMMA_GPU_SM90_PROMOTE32;
            h.b_kmajor = true;
            h.layout = li == 0 ? SMMA_SL_LINEAR : SMMA_SL_128X4;
            snprintf(name, sizeof(name), "gemm.%s.kernel.exact", pairs[pi].combo);
            kt_check_suite(name, &h);
            snprintf(name, sizeof(name), "gemm.%s.kernel.model.h100-fp8-promote32",
                     pairs[pi].combo);
            kt_check_suite(name, &h);
            if (pairs[pi].tile_suites) {
                snprintf(name, sizeof(name), "gemm.%s.exact", pairs[pi].combo);
                kt_check_suite(name, &h);
                snprintf(name, sizeof(name), "gemm.%s.model.h100-fp8-promote32",
                         pairs[pi].combo);
                kt_check_suite(name, &h);
            }
        }

    /* 2. Ragged problems. */
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape r = pair_shape(&pairs[pi], 333, 520, 328, SMMA_BF16);
        smma_gemm_shape r2 = pair_shape(&pairs[pi], 129, 264, 1000, SMMA_FP16);
        smma_gemm_shape r3 = pair_shape(&pairs[pi], 200, 136, 40, SMMA_FP32);

        check_problem(&dev, &pairs[pi], &r, true, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                      seed + q++, samples, PLAIN);
        r2.has_alpha = true;
        r2.alpha = 0x3e200000u;
        check_problem(&dev, &pairs[pi], &r2, pi % 2, pi % 2 ? SMMA_SL_128X4 : SMMA_SL_LINEAR,
                      seed + q++, samples, PLAIN);
        check_problem(&dev, &pairs[pi], &r3, true, SMMA_SL_LINEAR, seed + q++, samples, PLAIN);
    }

    /* 3. Special values and the signs of zeros. */
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape r = pair_shape(&pairs[pi], 129, 264, 136, SMMA_FP32);
        smma_gemm_shape z = pair_shape(&pairs[pi], 136, 136, 64, SMMA_FP32);

        check_problem(&dev, &pairs[pi], &r, true, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                      seed + q++, samples, SPECIAL);
        check_problem(&dev, &pairs[pi], &z, true, SMMA_SL_128X4, seed + q++, z.m * z.n, ZEROS);
    }

    /* 4. Scales at an odd address. */
    scale_offset = 3;
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape r = pair_shape(&pairs[pi], 129, 264, 136, SMMA_FP32);

        check_problem(&dev, &pairs[pi], &r, true, SMMA_SL_128X4, seed + q++, samples, SPECIAL);
        check_problem(&dev, &pairs[pi], &r, false, SMMA_SL_LINEAR, seed + q++, samples, PLAIN);
    }
    scale_offset = 0;
    if (test_level() < 1)
        return exit_status();

    /* 5. Large problems. */
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape l = pair_shape(&pairs[pi], 8192, 8192, 8192, SMMA_BF16);

        check_problem(&dev, &pairs[pi], &l, false, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                      seed + q++, samples, PLAIN);
    }
    for (i = 0; i < sizeof(llm) / sizeof(llm[0]); i++) {
        smma_gemm_shape l = pair_shape(&pairs[0], llm[i][0], llm[i][1], llm[i][2], SMMA_BF16);

        check_problem(&dev, &pairs[0], &l, i == 3, SMMA_SL_128X4, seed + q++, samples, PLAIN);
    }
    return exit_status();
}
