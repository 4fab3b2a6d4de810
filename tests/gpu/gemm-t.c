/*
 * tests/gpu/gemm-t.c - the 16-bit mma.sync kernels (sm80-v1, sm80-v2) on the
 * GPU against the golden vectors and the reference.
 *
 * 1. Every committed bf16 gemm suite the device's model has: the exact class
 *    (every model agrees) and the model class of the model the kernels
 *    follow on this device (h100-bf16 on an H100; smma_gpu_gemm_model), the
 *    tile suites and the kernel-scale suites, with B K-major and N-major.
 * 2. Large problems without a vector file, verified by sampling (at least
 *    20,000 outputs each, every CTA tile, warp and register slot hit):
 *    4096^3, 8192^3 and the LLM shapes M in {1, 16, 4096} x (N, K) in
 *    {(4096, 4096), (14336, 4096), (4096, 14336)}; C present and absent, D in
 *    fp32, bf16 and fp16; fp16 operands once; a ragged problem with an
 *    M-major A and K not a multiple of 16 for sm80-v1; at every level,
 *    sm80-v2 on whole CTA tiles (its D through shared memory) with NaN, Inf
 *    and the largest codes in some rows and columns, alpha, C, each D
 *    format, every output checked.
 * 3. sm80-v2 with 3 stages (SMMA_SM80_V2_STAGES=3, what a device with less
 *    shared memory runs): the kernel-scale suites with both majornesses of
 *    B, a ragged problem, and at level 1 4096^3; a tile variant asked for
 *    (SMMA_SM80_V2_TILE, whose variants are removed) is refused.
 * 4. The wgmma kernels (sm90-v1, sm90-v2) on a compute capability 9.0
 *    device with sm_90a code (skipped with the reason elsewhere): every
 *    committed bf16 and fp16 gemm suite of h100-bf16 and the exact class,
 *    the wgmma-tile suites, B K-major and N-major; sampled problems at
 *    4096^3, 8192^3 and the LLM shapes M in {1, 16, 128, 4096} x (N, K) in
 *    {(4096, 4096), (14336, 4096), (4096, 14336)} (sm90-v2; sm90-v1 at
 *    4096^3), ragged M, N and K (K not a multiple of 8), D not 16-byte
 *    aligned per row (stored from the registers), fp16; sm90-v2's knobs
 *    (SMMA_SM90_CLUSTER, _BN, _STAGES, _GROUP) on a ragged problem.
 * Outputs are poisoned before every run and every element must be written.
 * Inputs are drawn from a seed printed at the start: SMMA_SEED=S replays a
 * run.  Level 0 runs the suites and one small problem; level 2 takes
 * 100,000 samples per problem.  SMMA_GEMM_KERNEL=NAME runs the checks of
 * that kernel alone (sm80-v1, sm80-v2, sm90-v1, sm90-v2; another name
 * stops the test at once).
 *
 * Skips without CUDA or a device, and on a device for which softmma has no
 * model of mma.sync (the kernels run there but are not golden).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../gpu/gemm_internal.h"
#include "../../gpu/sm90/sm90.h"
#include "kernel.h"
#include "tap/basic.h"

static const kt_geometry v2_geometry = { 128, 256, 2, 4 };
static const kt_geometry v1_geometry = { 16, 8, 1, 1 };
/* wgmma: a warpgroup's 64 rows are four warps of 16 rows by the tile's
 * columns, each an m16n8 arrangement per 8 columns. */
static const kt_geometry sm90_v2_geometry = { 128, 256, 8, 1 };
static const kt_geometry sm90_v1_geometry = { 64, 128, 4, 1 };

struct large {
    unsigned m, n, k;
    bool c;
    smma_format d;
    bool b_kmajor;
    smma_format in;
    uint32_t alpha; /* fp32 bits of alpha; 0: none */
    bool special;   /* extreme codes in some rows and columns (kt_make_special) */
};

static const struct large large[] = {
    { 4096, 4096, 4096, true, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 4096, 4096, 4096, false, SMMA_BF16, false, SMMA_BF16, 0, false },
    { 8192, 8192, 8192, false, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 1, 4096, 4096, true, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 1, 14336, 4096, false, SMMA_BF16, true, SMMA_BF16, 0, false },
    { 1, 4096, 14336, false, SMMA_FP16, true, SMMA_BF16, 0, false },
    { 16, 4096, 4096, false, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 16, 14336, 4096, true, SMMA_FP32, false, SMMA_BF16, 0, false },
    { 16, 4096, 14336, false, SMMA_BF16, true, SMMA_BF16, 0, false },
    { 4096, 4096, 4096, false, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 4096, 14336, 4096, false, SMMA_BF16, true, SMMA_BF16, 0, false },
    { 4096, 4096, 14336, true, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 2048, 3072, 1024, true, SMMA_FP16, true, SMMA_FP16, 0, false },
};

/* The LLM shapes at M = 128 (the sm90 kernels' one row of tiles). */
static const struct large large128[] = {
    { 128, 4096, 4096, true, SMMA_FP32, true, SMMA_BF16, 0, false },
    { 128, 14336, 4096, false, SMMA_BF16, false, SMMA_BF16, 0, false },
    { 128, 4096, 14336, false, SMMA_BF16, true, SMMA_BF16, 0, false },
};

/* Whether the checks of kernel k run (SMMA_GEMM_KERNEL names one, or is
 * unset). */
static bool
wanted(smma_gpu_kernel k)
{
    const char *only = getenv("SMMA_GEMM_KERNEL");

    return only == NULL || only[0] == '\0' || strcmp(only, smma_gpu_kernel_name(k)) == 0;
}

static uint64_t
run_seed(void)
{
    const char *e = getenv("SMMA_SEED");

    if (e != NULL && *e != '\0')
        return strtoull(e, NULL, 0);
    return (uint64_t) time(NULL);
}

/* One large problem with D stored d_offset bytes past an aligned address
 * (0: aligned), sampled against the model. */
static void
check_large_at(const kt_device *dev, smma_gpu_kernel kernel, const kt_geometry *g,
               const struct large *l, bool a_mmajor, unsigned d_offset, uint64_t seed,
               uint64_t samples)
{
    smma_gemm_shape s;
    kt_problem p;
    kt_how h;
    const smma_model *model;
    uint32_t *d = NULL;
    char msg[512] = "";
    uint64_t checked = 0, bad;
    double t0 = tap_seconds();
    bool made;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = l->in;
    s.scale_fmt = SMMA_NONE;
    s.vec = 32;
    s.d_fmt = l->d;
    s.m = l->m;
    s.n = l->n;
    s.k = l->k;
    s.has_alpha = l->alpha != 0;
    s.alpha = l->alpha != 0 ? l->alpha : 0x3f800000u;
    memset(&h, 0, sizeof(h));
    h.kernel = kernel;
    h.a_mmajor = a_mmajor;
    h.b_kmajor = l->b_kmajor;
    h.layout = SMMA_SL_LINEAR;
    h.d_offset = d_offset;
    model = kt_model(dev, kernel, &s);
    if (model == NULL) {
        ok(false, "no model");
        return;
    }
    made = kt_generate(&p, &s, l->c, seed, msg, sizeof(msg));
    if (made && l->special)
        kt_make_special(&p, seed);
    if (!made || (d = malloc(s.m * s.n * sizeof(*d))) == NULL ||
        !kt_run(&p, &h, d, msg, sizeof(msg))) {
        ok(false, "%s %ux%ux%u: %s", smma_gpu_kernel_name(kernel), l->m, l->n, l->k, msg);
        free(d);
        kt_free(&p);
        return;
    }
    bad = kt_verify(&p, model, g, d, samples, seed, &checked);
    ok(bad == 0, "%s %ux%ux%u %s, A %s, B %s, C %s, D %s%s%s%s, seed %llu: %llu sampled "
       "outputs equal %s, %llu differ (%.1f s)", smma_gpu_kernel_name(kernel), l->m, l->n,
       l->k, smma_format_name(l->in), a_mmajor ? "M-major" : "K-major",
       l->b_kmajor ? "K-major" : "N-major", l->c ? "fp32" : "none", smma_format_name(l->d),
       d_offset == 0       ? ""
       : d_offset % 4 == 0 ? " (rows not 16-byte aligned)"
                           : " (rows not 4-byte aligned)",
       l->alpha != 0 ? ", alpha" : "", l->special ? ", special values" : "",
       (unsigned long long) seed, (unsigned long long) (checked - bad), model->name,
       (unsigned long long) bad, tap_seconds() - t0);
    free(d);
    kt_free(&p);
}

static void
check_large(const kt_device *dev, smma_gpu_kernel kernel, const kt_geometry *g,
            const struct large *l, bool a_mmajor, uint64_t seed, uint64_t samples)
{
    check_large_at(dev, kernel, g, l, a_mmajor, 0, seed, samples);
}

/* 4. The wgmma kernels: suites, sampled large problems, ragged ones,
 * sm90-v2's knobs. */
static void
test_sm90(const kt_device *dev, uint64_t seed, uint64_t samples)
{
    static const char *const suites[] = {
        "gemm.bf16.exact", "gemm.bf16.model.h100-bf16", "gemm.bf16.kernel.exact",
        "gemm.bf16.kernel.model.h100-bf16", "gemm.bf16.wgmma.exact",
        "gemm.bf16.wgmma.model.h100-bf16", "gemm.fp16.wgmma.model.h100-bf16",
    };
    static const smma_gpu_kernel kernels[] = { SMMA_GPU_SM90_V1, SMMA_GPU_SM90_V2 };
    /* Ragged M, N, K (K not a multiple of 8 or 16; clusters half outside);
     * D rows not 16-byte aligned (1003 fp32: stored from the registers). */
    static const struct large ragged[] = {
        { 333, 517, 1030, true, SMMA_BF16, false, SMMA_BF16, 0, false },
        { 129, 1000, 77, false, SMMA_FP16, true, SMMA_FP16, 0, false },
        { 257, 1003, 200, true, SMMA_FP32, true, SMMA_BF16, 0, false },
        { 1, 1, 1, true, SMMA_FP32, true, SMMA_BF16, 0, false },
    };
    static const struct { const char *var, *value; } knobs[] = {
        { "SMMA_SM90_CLUSTER", "1" }, { "SMMA_SM90_BN", "128" }, { "SMMA_SM90_STAGES", "2" },
        { "SMMA_SM90_GROUP", "1" },
    };
    char why[256];
    size_t ki, mj, i;

    if (!wanted(SMMA_GPU_SM90_V1) && !wanted(SMMA_GPU_SM90_V2))
        return;
    if (smma_sm90_ready(why, sizeof(why)) != SMMA_GPU_STATUS_OK) {
        skip("the sm90 kernels: %s", why);
        return;
    }
    diag("the sm90 kernels on %s", dev->dev.name);
    for (ki = 0; ki < 2; ki++) {
        const kt_geometry *g = ki == 0 ? &sm90_v1_geometry : &sm90_v2_geometry;

        if (!wanted(kernels[ki]))
            continue;
        for (mj = 0; mj < 2; mj++)
            for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
                kt_how h;

                memset(&h, 0, sizeof(h));
                h.kernel = kernels[ki];
                h.b_kmajor = mj == 0;
                h.layout = SMMA_SL_LINEAR;
                kt_check_suite(suites[i], &h);
            }
        for (i = 0; i < sizeof(ragged) / sizeof(ragged[0]); i++)
            if (test_level() >= 1 || i == 1 || i == 3)
                check_large(dev, kernels[ki], g, &ragged[i], false, seed + 40 + i, samples);
        if (test_level() < 1)
            continue;
        if (kernels[ki] == SMMA_GPU_SM90_V1) {
            check_large(dev, kernels[ki], g, &large[0], false, seed + 50, samples);
            continue;
        }
        for (i = 0; i < sizeof(large) / sizeof(large[0]); i++)
            check_large(dev, kernels[ki], g, &large[i], false, seed + 60 + i, samples);
        for (i = 0; i < sizeof(large128) / sizeof(large128[0]); i++)
            check_large(dev, kernels[ki], g, &large128[i], false, seed + 80 + i, samples);
    }
    /* sm90-v2's knobs, one at a time: the same numbers. */
    for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]) && wanted(SMMA_GPU_SM90_V2); i++) {
        kt_geometry g = sm90_v2_geometry;
        kt_how h;

        if (strcmp(knobs[i].var, "SMMA_SM90_BN") == 0)
            g.bn = 128;
        if (setenv(knobs[i].var, knobs[i].value, 1) != 0)
            bail("setenv %s", knobs[i].var);
        diag("sm90-v2 with %s=%s", knobs[i].var, knobs[i].value);
        memset(&h, 0, sizeof(h));
        h.kernel = SMMA_GPU_SM90_V2;
        h.b_kmajor = i % 2 == 0;
        h.layout = SMMA_SL_LINEAR;
        kt_check_suite("gemm.bf16.wgmma.model.h100-bf16", &h);
        check_large(dev, SMMA_GPU_SM90_V2, &g, &ragged[0], false, seed + 90 + i, samples);
        unsetenv(knobs[i].var);
    }
}

int
main(void)
{
    static const smma_gpu_kernel kernels[] = { SMMA_GPU_SM80_V1, SMMA_GPU_SM80_V2 };
    kt_device dev;
    smma_gemm_shape s;
    const smma_model *model;
    uint64_t seed = run_seed(), samples = test_level() >= 2 ? 100000 : 20000;
    char name[128], why[256];
    const char *mname = NULL, *only = getenv("SMMA_GEMM_KERNEL");
    size_t ki, mj, i;

    /* A filter the test does not know stops it before anything runs. */
    if (only != NULL && only[0] != '\0' && strcmp(only, "sm80-v1") != 0
        && strcmp(only, "sm80-v2") != 0 && strcmp(only, "sm90-v1") != 0
        && strcmp(only, "sm90-v2") != 0)
        bail("SMMA_GEMM_KERNEL=%s: not sm80-v1, sm80-v2, sm90-v1 or sm90-v2", only);
    kt_device_or_skip(&dev);
    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = SMMA_BF16;
    s.scale_fmt = SMMA_NONE;
    s.d_fmt = SMMA_FP32;
    s.m = s.n = s.k = 16;
    if (smma_gpu_gemm_model(SMMA_GPU_SM80_V2, &s, dev.major, dev.minor, &mname, why,
                            sizeof(why)) != SMMA_GPU_STATUS_OK)
        skip_all("%s", why);
    plan_lazy();
    model = tap_model(mname);
    diag("the 16-bit kernels follow %s on this device (%s); seed %llu (SMMA_SEED replays it)",
         model->name, model->status, (unsigned long long) seed);

    /* 1. The committed suites. */
    for (ki = 0; ki < sizeof(kernels) / sizeof(kernels[0]); ki++)
        for (mj = 0; mj < 2 && wanted(kernels[ki]); mj++) {
            kt_how h;
            const char *const suites[] = { "gemm.bf16.exact", "gemm.bf16.kernel.exact" };

            memset(&h, 0, sizeof(h));
            h.kernel = kernels[ki];
            h.b_kmajor = mj == 0;
            h.layout = SMMA_SL_LINEAR;
            for (i = 0; i < 2; i++)
                kt_check_suite(suites[i], &h);
            snprintf(name, sizeof(name), "gemm.bf16.kernel.model.%s", model->name);
            kt_check_suite(name, &h);
            if (strcmp(model->name, "h100-bf16") == 0)
                kt_check_suite("gemm.bf16.model.h100-bf16", &h);
        }

    /* 2. Large problems, sampled. */
    {
        struct large small = { 333, 517, 1030, true, SMMA_BF16, false, SMMA_BF16, 0, false };

        if (test_level() == 0) { /* under the sanitizers: small */
            small.m = 97;
            small.n = 130;
            small.k = 70;
        }
        struct large edge = { 129, 1000, 24, false, SMMA_FP16, true, SMMA_FP16, 0, false };

        if (wanted(SMMA_GPU_SM80_V1)) {
            check_large(&dev, SMMA_GPU_SM80_V1, &v1_geometry, &small, true, seed, samples);
            check_large(&dev, SMMA_GPU_SM80_V1, &v1_geometry, &edge, false, seed + 1, samples);
        }
        edge.k = 40;
        if (wanted(SMMA_GPU_SM80_V2))
            check_large(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &edge, false, seed + 2, samples);
    }
    /* Whole CTA tiles (D through shared memory, v2_store_tile) with NaN,
     * Inf and the largest codes in some rows and columns, alpha, each D
     * format; every output checked. */
    if (wanted(SMMA_GPU_SM80_V2)) {
        static const struct large whole[] = {
            { 256, 512, 96, true, SMMA_BF16, true, SMMA_BF16, 0x3fc00000u, true },
            { 256, 512, 96, false, SMMA_FP16, false, SMMA_FP16, 0x7e000000u, true },
            { 256, 512, 136, true, SMMA_FP32, true, SMMA_BF16, 0, true },
            { 256, 512, 64, false, SMMA_BF16, true, SMMA_BF16, 0xbf000000u, false },
        };

        for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
            check_large(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &whole[i], false, seed + 40 + i,
                        (uint64_t) whole[i].m * whole[i].n);
        /* The first three with D's rows not 16-byte aligned: D stored from
         * the registers (d_vec16 false), in pairs at +4 bytes of the bf16 D
         * and +8 of the fp32 D, one element at a time at +2 of the fp16 D. */
        static const unsigned d_offset[] = { 4, 2, 8 };

        for (i = 0; i < sizeof(d_offset) / sizeof(d_offset[0]); i++)
            check_large_at(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &whole[i], false, d_offset[i],
                           seed + 50 + i, (uint64_t) whole[i].m * whole[i].n);
    }
    if (test_level() >= 1 && wanted(SMMA_GPU_SM80_V2))
        for (i = 0; i < sizeof(large) / sizeof(large[0]); i++)
            check_large(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &large[i], false, seed + 3 + i,
                        samples);

    /* 3. sm80-v2 with 3 stages. */
    if (wanted(SMMA_GPU_SM80_V2)) {
        struct large ragged = { 333, 517, 1032, true, SMMA_BF16, false, SMMA_BF16, 0, false };
        const struct large cube = { 4096, 4096, 4096, false, SMMA_BF16, true, SMMA_BF16, 0, false };

        if (setenv("SMMA_SM80_V2_STAGES", "3", 1) != 0)
            bail("setenv SMMA_SM80_V2_STAGES");
        diag("sm80-v2 with SMMA_SM80_V2_STAGES=3");
        for (mj = 0; mj < 2; mj++) {
            kt_how h;

            memset(&h, 0, sizeof(h));
            h.kernel = SMMA_GPU_SM80_V2;
            h.b_kmajor = mj == 0;
            h.layout = SMMA_SL_LINEAR;
            kt_check_suite("gemm.bf16.kernel.exact", &h);
            snprintf(name, sizeof(name), "gemm.bf16.kernel.model.%s", model->name);
            kt_check_suite(name, &h);
        }
        check_large(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &ragged, false, seed + 20, samples);
        if (test_level() >= 1)
            check_large(&dev, SMMA_GPU_SM80_V2, &v2_geometry, &cube, false, seed + 30,
                        samples);
        unsetenv("SMMA_SM80_V2_STAGES");
    }

    /* A knob value sm80-v2 does not know, and a tile variant (removed), are
     * refused on the device with the value in the message
     * (smma_gpu_v2_choose; tests/gpu/gemm-check-t tests every rule of it
     * without a GPU). */
    s.d_fmt = SMMA_FP32;
    s.vec = 32;
    if (wanted(SMMA_GPU_SM80_V2)) {
        kt_knob_refused(SMMA_GPU_SM80_V2, &s, SMMA_SL_LINEAR, seed, "SMMA_SM80_V2_STAGES", "5");
        kt_knob_refused(SMMA_GPU_SM80_V2, &s, SMMA_SL_LINEAR, seed, "SMMA_SM80_V2_TILE",
                        "128x128");
    }

    /* 4. The wgmma kernels. */
    test_sm90(&dev, seed + 1000, samples);
    if (wanted(SMMA_GPU_SM90_V2) && smma_sm90_ready(why, sizeof(why)) == SMMA_GPU_STATUS_OK) {
        s.m = s.n = s.k = 64;
        s.c_fmt = SMMA_NONE;
        kt_knob_refused(SMMA_GPU_SM90_V2, &s, SMMA_SL_LINEAR, seed, "SMMA_SM90_CLUSTER", "4");
    }
    return exit_status();
}
