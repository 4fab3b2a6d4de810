/*
 * tests/gpu/gemm-bs-t.c - the block-scaled mma.sync kernels (sm80-bs-v1,
 * sm80-bs-large, sm80-bs-small) on the GPU against the golden vectors and
 * the reference, under the model bf16-upcast-<gpu> of the device.
 *
 * 1. Every committed gemm suite of the block-scaled format pairs: the exact
 *    class and the model class of the device's model, the tile suites and
 *    the kernel-scale suites (gemm.COMBO.kernel.*), with scales in the
 *    linear and the 128x4 layout; sm80-bs-small on the cases with m <= 16.
 * 2. Large problems without a vector file, sampled (at least 20,000 outputs
 *    each, every CTA tile, warp and register slot hit): 8192^3 for every
 *    format pair with sm80-bs-large; the small-M shapes M in {1, 4, 16} x
 *    (N, K) in {(8192, 8192), (28672, 8192), (8192, 28672)} with
 *    sm80-bs-small (level 1: MXFP8, NVFP4 and bf16 x MXFP4; level 2 every
 *    pair); ragged problems with C, alpha and narrow D for all three
 *    kernels.  Outputs are poisoned first; inputs from the seed printed
 *    (SMMA_SEED replays it).  Level 0: the suites and the ragged problems.
 *
 * 3. sm80-bs-small's knob SMMA_SM80_BS_SMALL: everything else runs the
 *    version smma_gpu_bs_small_choose picks (6 for e2m1 B with e2m1 A, m
 *    <= 8, or e4m3 A and n >= 16384, else 5 or 4); "regs" runs version 1
 *    on a problem version 5 would take, "split-transposed",
 *    "split-transposed-wide" and "transposed-lut" versions 4, 5 and 6 on
 *    the special values and ragged problems of every pair (6: e2m1 B),
 *    checked like the others; unknown values ("Regs", and "split" and
 *    "transposed", which asked for the removed versions 2 and 3) are
 *    refused on the device with the value named
 *    (smma_gpu_bs_small_choose; tests/gpu/gemm-check-t tests its rules
 *    without a GPU).  sm80-bs-large's SMMA_SM80_BS_LARGE the same way:
 *    everything else runs its version 2 where the device holds it,
 *    "inline" runs version 1 on the special values and a ragged problem
 *    of every pair.
 *
 * 4. Scales stored at an odd address, for every kernel (level 0): MXFP4,
 *    MXFP8 and MXFP8 e5m2 with special values.
 * 5. Which version of sm80-bs-large runs (smma_gpu_bs_large_version) for
 *    every pair at 8192^3: version 2 exactly where this build holds code
 *    with setmaxnreg for the device (sm_90a on compute capability 9.0,
 *    sm_100a on 10.0; SMMA_CUDA_ARCHS, set by make check, names the
 *    build's targets) and the device gives a block its shared memory;
 *    version 1 with SMMA_SM80_BS_LARGE=inline.
 *
 * SMMA_GEMM_KERNEL=NAME runs only the checks of that kernel, and
 * SMMA_GEMM_PAIRS=COMBO,... only those of the pairs named (as the suites
 * name them): for a device run that has changed one kernel or one path.
 *
 * Skips without CUDA or a device, and on a device softmma has no model of.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../gpu/gemm_internal.h"
#include "kernel.h"
#include "tap/basic.h"

struct pair {
    const char *combo;  /* the gemm suites' name */
    smma_format a, b, scale;
    unsigned vec;
    bool tile_suites;   /* gemm.COMBO.exact and .model.MODEL exist */
};

static const struct pair pairs[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, true },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, false },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, true },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, true },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, true },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, true },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, true },
    { "bf16-mxfp4", SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, false },
    { "bf16-mxfp8", SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, false },
};
#define NPAIRS (sizeof(pairs) / sizeof(pairs[0]))

/* Bytes past an aligned address at which check_problem stores the scales
 * (0 but in section 4). */
static unsigned scale_offset;

static const kt_geometry large_geometry = { 128, 256, 2, 4 };
/* sm80-bs-small: version 1's CTAs of 32 columns, 4 warps of 8 (versions 4
 * and 5 have CTAs of 32 and mma warps of 16, version 6 CTAs of 64 (128
 * for n >= 16384) and warps of 16: the same samples hit every one
 * of their tiles, warps and register slots). */
static const kt_geometry small_geometry = { 16, 32, 1, 4 };
static const kt_geometry v1_geometry = { 16, 8, 1, 1 };

static smma_gemm_shape
pair_shape(const struct pair *pr, size_t m, size_t n, size_t k, smma_format d)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = pr->a;
    s.b_fmt = pr->b;
    s.scale_fmt = pr->scale;
    s.vec = pr->vec;
    s.d_fmt = d;
    s.m = m;
    s.n = n;
    s.k = k;
    if (pr->scale == SMMA_UE4M3) { /* NVFP4: the per-tensor scales' product */
        s.has_alpha = true;
        s.alpha = 0x3e200000u; /* 0.15625 */
    }
    return s;
}

/* Whether the checks of kernel k run (SMMA_GEMM_KERNEL). */
static bool
wanted(smma_gpu_kernel k)
{
    const char *only = getenv("SMMA_GEMM_KERNEL");

    return only == NULL || *only == '\0' || strcmp(only, smma_gpu_kernel_name(k)) == 0;
}

/* Whether the checks of pair pr run (SMMA_GEMM_PAIRS). */
static bool
pair_wanted(const struct pair *pr)
{
    return kt_listed("SMMA_GEMM_PAIRS", pr->combo);
}

static void
check_problem(const kt_device *dev, smma_gpu_kernel kernel, const kt_geometry *g,
              const struct pair *pr, const smma_gemm_shape *s, bool with_c,
              smma_scale_layout layout, uint64_t seed, uint64_t samples)
{
    kt_problem p;
    kt_how h;
    const smma_model *model = kt_model(dev, kernel, s);
    uint32_t *d = NULL;
    char msg[512] = "";
    uint64_t checked = 0, bad;
    double t0 = tap_seconds();

    if (!wanted(kernel) || !pair_wanted(pr))
        return;
    memset(&h, 0, sizeof(h));
    h.kernel = kernel;
    h.b_kmajor = true;
    h.layout = layout;
    h.scale_offset = scale_offset;
    if (model == NULL) {
        ok(false, "%s: no model", smma_gpu_kernel_name(kernel));
        return;
    }
    if (!kt_generate(&p, s, with_c, seed, msg, sizeof(msg)) ||
        (d = malloc(s->m * s->n * sizeof(*d))) == NULL ||
        ((samples & 1) && (kt_make_special(&p, seed), false)) ||
        !kt_run(&p, &h, d, msg, sizeof(msg))) {
        ok(false, "%s %s %zux%zux%zu: %s", smma_gpu_kernel_name(kernel), pr->combo, s->m, s->n,
           s->k, msg);
        free(d);
        kt_free(&p);
        return;
    }
    bad = kt_verify(&p, model, g, d, samples, seed, &checked);
    ok(bad == 0, "%s %s %zux%zux%zu, scales %s%s, %sC %s, D %s%s, seed %llu: %llu sampled "
       "outputs equal %s, %llu differ (%.1f s)", smma_gpu_kernel_name(kernel), pr->combo, s->m,
       s->n, s->k, smma_scale_layout_name(layout), scale_offset ? " at an odd address" : "",
       (samples & 1) ? "special values, " : "",
       with_c ? "fp32" : "none",
       smma_format_name(s->d_fmt), s->has_alpha ? ", alpha" : "", (unsigned long long) seed,
       (unsigned long long) (checked - bad), model->name, (unsigned long long) bad,
       tap_seconds() - t0);
    free(d);
    kt_free(&p);
}

/* Whether the space-separated list holds the word t. */
static bool
has_word(const char *list, const char *t)
{
    size_t n = strlen(t);
    const char *p;

    for (p = strstr(list, t); p != NULL; p = strstr(p + 1, t))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* Section 5: which version of sm80-bs-large runs each pair at 8192^3. */
static void
check_versions(const kt_device *dev)
{
    const char *archs = getenv("SMMA_CUDA_ARCHS");
    bool setmaxnreg;
    size_t pi;
    int k;

    if (archs == NULL || *archs == '\0') {
        skip("sm80-bs-large's version: SMMA_CUDA_ARCHS is unset (make check sets it to the "
             "build's CUDA targets)");
        return;
    }
    /* The code the device runs has setmaxnreg (version 2's register split)
     * where the build holds sm_90a SASS and the device is 9.0, or sm_100a
     * and 10.0; elsewhere the driver runs other code (or compiles the
     * compute_80 PTX), in which version 2 spills. */
    setmaxnreg = (dev->major == 9 && dev->minor == 0 && has_word(archs, "sm_90a")) ||
                 (dev->major == 10 && dev->minor == 0 && has_word(archs, "sm_100a"));
    for (k = 0; k < 2; k++)
        for (pi = 0; pi < NPAIRS; pi++) {
            smma_gpu_gemm_args x;
            char msg[256];
            int version = -1, arch = -1, want, rc;

            if (!pair_wanted(&pairs[pi]) || (k == 1 && pi > 0))
                continue;
            memset(&x, 0, sizeof(x));
            x.shape = pair_shape(&pairs[pi], 8192, 8192, 8192, SMMA_BF16);
            x.a = x.b = x.sa = x.sb = (const void *) (uintptr_t) 4096;
            x.d = (void *) (uintptr_t) 4096;
            x.lda = x.ldb = x.ldd = 8192;
            x.a_kmajor = x.b_kmajor = true;
            x.scale_layout = SMMA_SL_128X4;
            x.kernel = SMMA_GPU_SM80_BS_LARGE;
            want = k == 0 && setmaxnreg &&
                           dev->dev.smem_optin_bytes >=
                               smma_gpu_bs_large_smem2(pairs[pi].a, pairs[pi].b)
                       ? 2
                       : 1;
            if (k == 1 && setenv("SMMA_SM80_BS_LARGE", "inline", 1) != 0)
                bail("setenv SMMA_SM80_BS_LARGE");
            rc = smma_gpu_bs_large_version(&x, &version, &arch, msg, sizeof(msg));
            if (k == 1)
                unsetenv("SMMA_SM80_BS_LARGE");
            ok(rc == SMMA_GPU_STATUS_OK && version == want &&
                   (version == 1 || arch == dev->major * 10 + dev->minor),
               "sm80-bs-large runs version %d for %s at 8192^3%s (build:%s; version 2's code "
               "compiled for %d)", want, pairs[pi].combo,
               k == 1 ? " with SMMA_SM80_BS_LARGE=inline" : "", archs, arch);
            if (rc != SMMA_GPU_STATUS_OK || version != want)
                diag("status %d, version %d: %s", rc, version, msg);
        }
}

int
main(void)
{
    static const smma_gpu_kernel kernels[] = { SMMA_GPU_SM80_BS_V1, SMMA_GPU_SM80_BS_LARGE,
                                               SMMA_GPU_SM80_BS_SMALL };
    static const unsigned small_nk[][2] = { { 8192, 8192 }, { 28672, 8192 }, { 8192, 28672 } };
    static const unsigned small_m[] = { 1, 4, 16 };
    kt_device dev;
    smma_gemm_shape s = pair_shape(&pairs[0], 16, 16, 32, SMMA_FP32);
    uint64_t seed = kt_seed(), samples = test_level() >= 2 ? 100000 : 20000, q = 0;
    const char *mname = NULL;
    char why[256], name[160];
    size_t pi, ki, li, i, j;

    /* A filter that names nothing would leave a run that checks nothing. */
    {
        const char *only = getenv("SMMA_GEMM_KERNEL"), *list = getenv("SMMA_GEMM_PAIRS");
        size_t hits = 0, items = 1;

        for (ki = 0; ki < sizeof(kernels) / sizeof(kernels[0]); ki++)
            hits += only != NULL && *only != '\0' && wanted(kernels[ki]);
        if (only != NULL && *only != '\0' && hits == 0)
            bail("SMMA_GEMM_KERNEL=%s: not sm80-bs-v1, sm80-bs-large or sm80-bs-small", only);
        if (list != NULL && *list != '\0') {
            for (i = 0; list[i] != '\0'; i++)
                items += list[i] == ',';
            for (hits = 0, pi = 0; pi < NPAIRS; pi++)
                hits += pair_wanted(&pairs[pi]);
            if (hits != items)
                bail("SMMA_GEMM_PAIRS=%s: a name that is not a pair of this test", list);
        }
    }
    kt_device_or_skip(&dev);
    if (smma_gpu_gemm_model(SMMA_GPU_SM80_BS_LARGE, &s, dev.major, dev.minor, &mname, why,
                            sizeof(why)) != SMMA_GPU_STATUS_OK)
        skip_all("%s", why);
    plan_lazy();
    diag("the block-scaled kernels follow %s on this device; seed %llu (SMMA_SEED replays it)",
         mname, (unsigned long long) seed);

    /* 1. The committed suites. */
    for (pi = 0; pi < NPAIRS; pi++)
        for (ki = 0; ki < 3; ki++)
            for (li = 0; li < 2; li++) {
                kt_how h;

                if (!wanted(kernels[ki]) || !pair_wanted(&pairs[pi]))
                    continue;
                memset(&h, 0, sizeof(h));
                h.kernel = kernels[ki];
                h.b_kmajor = true;
                h.layout = li == 0 ? SMMA_SL_LINEAR : SMMA_SL_128X4;
                h.max_m = h.kernel == SMMA_GPU_SM80_BS_SMALL ? 16 : 0;
                snprintf(name, sizeof(name), "gemm.%s.kernel.exact", pairs[pi].combo);
                kt_check_suite(name, &h);
                snprintf(name, sizeof(name), "gemm.%s.kernel.model.%s", pairs[pi].combo, mname);
                kt_check_suite(name, &h);
                if (pairs[pi].tile_suites) {
                    snprintf(name, sizeof(name), "gemm.%s.exact", pairs[pi].combo);
                    kt_check_suite(name, &h);
                    if (strcmp(mname, "bf16-upcast-h100") == 0) {
                        snprintf(name, sizeof(name), "gemm.%s.model.%s", pairs[pi].combo, mname);
                        kt_check_suite(name, &h);
                    }
                }
            }

    /* 2. Ragged problems with C, alpha and narrow D, every kernel (for
     * sm80-bs-small M = 13, 5 and 8 in turn, so that A's fragments of rows
     * 8 .. 15 are both zeros and data; bf16 x MXFP8 takes 13, which its
     * version 4 runs). */
    for (pi = 0; pi < NPAIRS; pi++) {
        static const size_t small_rows[] = { 5, 8, 13 };
        smma_gemm_shape r = pair_shape(&pairs[pi], 200, 300, 328, SMMA_BF16);
        smma_gemm_shape sm = pair_shape(&pairs[pi], small_rows[(pi + 2) % 3], 301, 1032,
                                        SMMA_FP16);

        check_problem(&dev, SMMA_GPU_SM80_BS_V1, &v1_geometry, &pairs[pi], &r, true,
                      pi % 2 ? SMMA_SL_128X4 : SMMA_SL_LINEAR, seed + q++, samples);
        r.d_fmt = SMMA_FP32;
        r.m = 333;
        r.n = 520;
        check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &r, true,
                      pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++, samples);
        check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &sm, pi % 2,
                      pi % 2 ? SMMA_SL_128X4 : SMMA_SL_LINEAR, seed + q++, samples);
    }
    /* Special values (an odd sample count asks for them), every kernel. */
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape r = pair_shape(&pairs[pi], 129, 264, 136, SMMA_FP32);
        smma_gemm_shape sm = pair_shape(&pairs[pi], 16, 264, 136, SMMA_BF16);

        check_problem(&dev, SMMA_GPU_SM80_BS_V1, &v1_geometry, &pairs[pi], &r, true,
                      SMMA_SL_LINEAR, seed + q++, samples + 1);
        check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &r, true,
                      SMMA_SL_128X4, seed + q++, samples + 1);
        check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &sm, false,
                      SMMA_SL_LINEAR, seed + q++, samples + 1);
    }
    /* sm80-bs-small's knob: version 1 forced on a problem version 5
     * takes, and unknown values refused. */
    if (wanted(SMMA_GPU_SM80_BS_SMALL) && pair_wanted(&pairs[0])) {
        smma_gemm_shape sm = pair_shape(&pairs[0], 3, 301, 1056, SMMA_BF16);

        if (setenv("SMMA_SM80_BS_SMALL", "regs", 1) != 0)
            bail("setenv SMMA_SM80_BS_SMALL");
        check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[0], &sm, true,
                      SMMA_SL_128X4, seed + q++, samples);
        unsetenv("SMMA_SM80_BS_SMALL");
        kt_knob_refused(SMMA_GPU_SM80_BS_SMALL, &sm, SMMA_SL_128X4, seed, "SMMA_SM80_BS_SMALL",
                        "Regs");
        /* versions 2's and 3's values, since removed */
        kt_knob_refused(SMMA_GPU_SM80_BS_SMALL, &sm, SMMA_SL_128X4, seed, "SMMA_SM80_BS_SMALL",
                        "split");
        kt_knob_refused(SMMA_GPU_SM80_BS_SMALL, &sm, SMMA_SL_128X4, seed, "SMMA_SM80_BS_SMALL",
                        "transposed");
    }
    /* Everything above ran the version smma_gpu_bs_small_choose picks;
     * "split-transposed", "split-transposed-wide" and "transposed-lut" run
     * versions 4, 5 and 6 on the special values and two ragged problems of
     * every pair, one for each number of A's n8 tiles. */
    if (wanted(SMMA_GPU_SM80_BS_SMALL)) {
        static const char *const knobs[] = { "split-transposed", "split-transposed-wide",
                                             "transposed-lut" };
        static const unsigned versions[] = { 4, 5, 6 };
        unsigned kv;

        for (kv = 0; kv < 3; kv++) {
            if (setenv("SMMA_SM80_BS_SMALL", knobs[kv], 1) != 0)
                bail("setenv SMMA_SM80_BS_SMALL");
            diag("SMMA_SM80_BS_SMALL=%s: sm80-bs-small version %u%s", knobs[kv], versions[kv],
                 versions[kv] == 6 ? " (e2m1 B; other B as without the knob)" : "");
            for (pi = 0; pi < NPAIRS; pi++) {
                smma_gemm_shape sm = pair_shape(&pairs[pi], 16, 264, 136, SMMA_BF16);
                smma_gemm_shape r = pair_shape(&pairs[pi], 6, 301, 1032, SMMA_FP16);
                smma_gemm_shape r2 = pair_shape(&pairs[pi], 13, 333, 1544, SMMA_FP32);

                check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &sm,
                              false, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++,
                              samples + 1);
                check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &r,
                              true, pi % 2 ? SMMA_SL_128X4 : SMMA_SL_LINEAR, seed + q++,
                              samples);
                check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &r2,
                              pi % 2, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++,
                              samples);
                if (versions[kv] == 6 && pairs[pi].b == SMMA_E2M1) {
                    /* n >= 16384: version 6's CTAs of 8 warps, the last ragged,
                     * one and two n8 tiles of A (bf16 A with two: its pieces in
                     * registers, not by cp.async) */
                    smma_gemm_shape w = pair_shape(&pairs[pi], 5, 16400, 1032, SMMA_BF16);
                    smma_gemm_shape w2 = pair_shape(&pairs[pi], 13, 16400, 1152, SMMA_FP32);

                    check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &w,
                                  true, SMMA_SL_128X4, seed + q++, samples);
                    check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &w2,
                                  false, SMMA_SL_LINEAR, seed + q++, samples);
                }
            }
        }
        unsetenv("SMMA_SM80_BS_SMALL");
    }

    /* sm80-bs-large's knob: everything above ran version 2 (converter
     * warps) where the device holds it; "inline" runs version 1 on the
     * special values of every pair and on a ragged problem, and an unknown
     * value is refused. */
    if (wanted(SMMA_GPU_SM80_BS_LARGE)) {
        if (setenv("SMMA_SM80_BS_LARGE", "inline", 1) != 0)
            bail("setenv SMMA_SM80_BS_LARGE");
        diag("SMMA_SM80_BS_LARGE=inline: sm80-bs-large version 1");
        for (pi = 0; pi < NPAIRS; pi++) {
            smma_gemm_shape r = pair_shape(&pairs[pi], 129, 264, 136, SMMA_FP32);
            smma_gemm_shape g = pair_shape(&pairs[pi], 333, 520, 328, SMMA_BF16);

            check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &r, true,
                          SMMA_SL_128X4, seed + q++, samples + 1);
            check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &g, true,
                          pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++, samples);
        }
        unsetenv("SMMA_SM80_BS_LARGE");
        if (pair_wanted(&pairs[0])) {
            smma_gemm_shape r = pair_shape(&pairs[0], 129, 264, 136, SMMA_FP32);

            kt_knob_refused(SMMA_GPU_SM80_BS_LARGE, &r, SMMA_SL_128X4, seed, "SMMA_SM80_BS_LARGE",
                            "Inline");
        }
    }
    /* 4. Scales at an odd address (3 bytes past an aligned one): every
     * kernel reads them a byte at a time (sm80-bs-large and sm80-bs-small
     * run their version 1), and sm80-bs-large's f16 decision (the pairs of
     * e2m1 and e4m3) reads every byte of its rows, those before the first
     * 16-byte boundary one at a time.  Special values; MXFP4 and MXFP8
     * (f16 paths), MXFP8 e5m2 (none). */
    scale_offset = 3;
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape r = pair_shape(&pairs[pi], 129, 264, 136, SMMA_FP32);
        smma_gemm_shape sm = pair_shape(&pairs[pi], 16, 264, 136, SMMA_BF16);

        if (strcmp(pairs[pi].combo, "mxfp4") != 0 && strcmp(pairs[pi].combo, "mxfp8") != 0 &&
            strcmp(pairs[pi].combo, "mxfp8e5m2") != 0)
            continue;
        check_problem(&dev, SMMA_GPU_SM80_BS_V1, &v1_geometry, &pairs[pi], &r, true,
                      SMMA_SL_128X4, seed + q++, samples + 1);
        check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &r, true,
                      SMMA_SL_128X4, seed + q++, samples + 1);
        check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &r, false,
                      SMMA_SL_LINEAR, seed + q++, samples + 1);
        check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &sm, true,
                      SMMA_SL_128X4, seed + q++, samples + 1);
    }
    scale_offset = 0;
    /* 5. Which version of sm80-bs-large runs. */
    if (wanted(SMMA_GPU_SM80_BS_LARGE))
        check_versions(&dev);
    if (test_level() < 1)
        return exit_status();

    /* 3. Large problems. */
    for (pi = 0; pi < NPAIRS; pi++) {
        smma_gemm_shape l = pair_shape(&pairs[pi], 8192, 8192, 8192, SMMA_BF16);

        check_problem(&dev, SMMA_GPU_SM80_BS_LARGE, &large_geometry, &pairs[pi], &l, false,
                      SMMA_SL_128X4, seed + q++, samples);
    }
    for (pi = 0; pi < NPAIRS; pi++) {
        bool level1 = strcmp(pairs[pi].combo, "mxfp8") == 0 ||
                      strcmp(pairs[pi].combo, "nvfp4") == 0 ||
                      strcmp(pairs[pi].combo, "bf16-mxfp4") == 0;

        if (!level1 && test_level() < 2)
            continue;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++) {
                smma_gemm_shape sm = pair_shape(&pairs[pi], small_m[j], small_nk[i][0],
                                                small_nk[i][1], SMMA_BF16);

                check_problem(&dev, SMMA_GPU_SM80_BS_SMALL, &small_geometry, &pairs[pi], &sm,
                              j == 2, j == 1 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++,
                              samples);
            }
    }
    return exit_status();
}
