/*
 * tests/gpu/sm90-bs-t.c - the block-scaled sm_90a kernels on the GPU
 * against the golden vectors and the reference: sm90-promote32 (fp8 wgmma
 * per 32-k block, promoted in fp32) under h100-fp8-promote32, and sm90-bs
 * and sm90-mixed (every element times its scale rounded to bf16, bf16
 * wgmma; a block-scaled X through sm90-bs's pass first) under
 * bf16-upcast-h100.
 *
 * For each kernel and each pair it takes (sm90-promote32: MXFP8 e4m3, e5m2
 * and both mixes, MXFP6 e2m3 and e3m2, MXFP4, MXFP8 x MXFP4; sm90-bs: those,
 * NVFP4, bf16 x MXFP4 and bf16 x MXFP8; sm90-mixed: those of sm90-bs):
 * 1. The committed suites: gemm.COMBO.kernel.exact and .kernel.model.MODEL,
 *    and the tile suites gemm.COMBO.exact and .model.MODEL where they
 *    exist, with scales in the linear and the 128x4 layout.
 * 2. Ragged problems with C, alpha and bf16 / fp16 D (clusters half
 *    outside M, K ending 8 k into a block), both layouts; sm90-mixed also
 *    in k-steps of 4 atoms of 64 k (SMMA_SM90_KQ=4) for its first pairs.
 * 3. Special values: e8m0 0x00, 0x01, 0xfe and 0xff (NaN) scales (ue4m3
 *    0x00, the largest and NaN), NaN, Inf and -0 codes; and the signs of
 *    zeros: C = -0 with blocks whose every product is -0.
 * 4. Scales at an odd address (3 bytes past an aligned one).
 * 5. Level 1: 8192^3 for every pair and LLM shapes, sampled (at least
 *    20,000 outputs each, every tile, warp and register slot hit);
 *    sm90-mixed instead M from 1 to 512 on the decoding shapes N x K
 *    8192 x 8192, 28672 x 8192 and 8192 x 28672, and the weights as A
 *    (M 8192, N 16 and 200), from level 0 on (fewer of them there).
 * Each kernel twice: its conversion inside the kernel (SMMA_SM90_PRE=0)
 * and as a pass before the GEMM (SMMA_SM90_PRE=1; for sm90-promote32 the
 * pairs with an e2m1, e2m3 or e3m2 operand); SMMA_SM90_PRE set to 0 or 1
 * in the environment runs that way only.  sm90-promote32 a third time with
 * the scales' products in fp32 only (SMMA_SM90_P32_SPROD=0), every pair,
 * the converted ones through the pass.
 * Outputs are poisoned first; inputs from the seed printed (SMMA_SEED
 * replays it).  SMMA_GEMM_KERNEL=NAME runs the checks of one kernel,
 * SMMA_GEMM_PAIRS=COMBO,... those of the pairs named.
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
    smma_format a, b, scale;
    unsigned vec;
    bool suites;        /* gemm.COMBO.kernel.exact and .kernel.model.MODEL exist */
    bool tile_suites;   /* gemm.COMBO.exact and .model.MODEL exist */
};

static const struct pair p32_pairs[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, true, true },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e5m2-e4m3", SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32, false, false },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, true, true },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, true, true },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, true, true },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, true, true },
};

/* The pairs sm90-promote32 converts (e2m1, e2m3, e3m2 operands), those of
 * its conversion pass. */
static const struct pair p32_pre_pairs[] = {
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, true, true },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, true, true },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, true, true },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, true, true },
};

static const struct pair bs_pairs[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, true, true },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e5m2-e4m3", SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32, false, false },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, true, true },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, true, true },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, true, true },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, true, true },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, true, true },
    { "bf16-mxfp4", SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, true, false },
    { "bf16-mxfp8", SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, true, false },
};

/* The pairs of sm90-mixed: those of sm90-bs, the four of LLM decoding
 * first (step 5 at level 0 runs those). */
static const struct pair mx_pairs[] = {
    { "bf16-mxfp4", SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, true, false },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, true, true },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, true, true },
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, true, true },
    { "bf16-mxfp8", SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, true, false },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, true, false },
    { "mxfp8-e5m2-e4m3", SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32, false, false },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, true, true },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, true, true },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, true, true },
};

/* A kernel, its model's name in the suites, its pairs and its tile:
 * sm90-promote32 128 x 128, sm90-bs 128 x 256, two warpgroups of four
 * warps of 16 rows; pre: SMMA_SM90_PRE's value for its checks (0: the
 * conversion inside the kernel; 1: a conversion pass, then sm90-v2's GEMM
 * of the bf16 copies -- tiles of 128 x 256 again -- or sm90-promote32's
 * of the e4m3 copies: gpu/sm90/plan.h, smma_sm90_pre_ld). */
struct kern {
    smma_gpu_kernel k;
    const char *model;
    const struct pair *pairs;
    size_t npairs;
    kt_geometry g;
    int pre;
    int fp32_products; /* sm90-promote32 with SMMA_SM90_P32_SPROD=0 */
};

#define NPAIRS(x) (sizeof(x) / sizeof((x)[0]))
static const struct kern kerns[] = {
    { SMMA_GPU_SM90_PROMOTE32, "h100-fp8-promote32", p32_pairs, NPAIRS(p32_pairs),
      { 128, 128, 8, 1 }, 0, 0 },
    { SMMA_GPU_SM90_PROMOTE32, "h100-fp8-promote32", p32_pre_pairs, NPAIRS(p32_pre_pairs),
      { 128, 128, 8, 1 }, 1, 0 },
    /* The scales' products in fp32 only, every pair (the converted ones
     * through the pass). */
    { SMMA_GPU_SM90_PROMOTE32, "h100-fp8-promote32", p32_pairs, NPAIRS(p32_pairs),
      { 128, 128, 8, 1 }, 1, 1 },
    { SMMA_GPU_SM90_BS, "bf16-upcast-h100", bs_pairs, NPAIRS(bs_pairs), { 128, 256, 8, 1 }, 0,
      0 },
    { SMMA_GPU_SM90_BS, "bf16-upcast-h100", bs_pairs, NPAIRS(bs_pairs), { 128, 256, 8, 1 }, 1,
      0 },
    /* sm90-mixed: D^T = W X^T, a tile of the caller's D is up to 256 rows
     * of X (A) by 64 of W (B), whose four warps hold 16 columns each. */
    { SMMA_GPU_SM90_MIXED, "bf16-upcast-h100", mx_pairs, NPAIRS(mx_pairs), { 256, 64, 1, 4 },
      0, 0 },
};
#define NKERNS (sizeof(kerns) / sizeof(kerns[0]))

static unsigned scale_offset;

/* Whether the checks of pair pr run (SMMA_GEMM_PAIRS). */
static bool
pair_wanted(const struct pair *pr)
{
    return kt_listed("SMMA_GEMM_PAIRS", pr->combo);
}

/* Whether the checks of kernel k run (SMMA_GEMM_KERNEL). */
static bool
kern_wanted(const struct kern *k)
{
    return kt_listed("SMMA_GEMM_KERNEL", smma_gpu_kernel_name(k->k));
}

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
    return s;
}

/* What a problem gets besides its random codes. */
enum { PLAIN = 0, SPECIAL = 1, ZEROS = 2 };

/* The codes of -0 and of 1 in format f. */
static uint32_t
neg_zero(smma_format f)
{
    return f == SMMA_BF16 ? 0x8000 : f == SMMA_E2M1 ? 0x8 : f == SMMA_E2M3 || f == SMMA_E3M2
           ? 0x20 : 0x80;
}

static uint32_t
one(smma_format f)
{
    switch (f) {
    case SMMA_E5M2: return 0x3c;
    case SMMA_E4M3: return 0x38;
    case SMMA_E3M2: return 0x0c;
    case SMMA_E2M3: return 0x08;
    case SMMA_E2M1: return 0x2;
    default: return 0x3f80;
    }
}

/* Rows of A i % 4 == 1 and columns of B j % 4 == 1 all -0 and +1 (every
 * product of such an output -0), C = -0 at those outputs. */
static void
make_zeros(kt_problem *p)
{
    size_t i, j;

    for (i = 1; i < p->s.m; i += 4)
        for (j = 0; j < p->s.k; j++)
            p->a[i * p->s.k + j] = neg_zero(p->s.a_fmt);
    for (i = 1; i < p->s.n; i += 4)
        for (j = 0; j < p->s.k; j++)
            p->b[i * p->s.k + j] = one(p->s.b_fmt);
    for (i = 1; p->c != NULL && i < p->s.m; i += 4)
        for (j = 1; j < p->s.n; j += 4)
            p->c[i * p->s.n + j] = 0x80000000u;
}

static void
check_problem(const kt_device *dev, const struct kern *kn, const struct pair *pr,
              const smma_gemm_shape *s, bool with_c, smma_scale_layout layout, uint64_t seed,
              uint64_t samples, unsigned extra)
{
    kt_problem p;
    kt_how h;
    const smma_model *model = kt_model(dev, kn->k, s);
    const char *name = kn->fp32_products ? "sm90-promote32 (fp32 products)"
                       : kn->pre ? (kn->k == SMMA_GPU_SM90_BS ? "sm90-bs (pass)"
                                                              : "sm90-promote32 (pass)")
                                 : smma_gpu_kernel_name(kn->k);
    uint32_t *d = NULL;
    char msg[512] = "";
    uint64_t checked = 0, bad;
    double t0 = tap_seconds();

    if (!pair_wanted(pr) || !kern_wanted(kn))
        return;
    memset(&h, 0, sizeof(h));
    h.kernel = kn->k;
    h.b_kmajor = true;
    h.layout = layout;
    h.scale_offset = scale_offset;
    if (model == NULL)
        return;
    if (!kt_generate(&p, s, with_c, seed, msg, sizeof(msg))
        || (d = malloc(s->m * s->n * sizeof(*d))) == NULL
        || ((extra == SPECIAL) && (kt_make_special(&p, seed), false))
        || ((extra == ZEROS) && (make_zeros(&p), false)) || !kt_run(&p, &h, d, msg, sizeof(msg))) {
        ok(false, "%s %s %zux%zux%zu: %s", name, pr->combo, s->m, s->n, s->k, msg);
        free(d);
        kt_free(&p);
        return;
    }
    if (extra == ZEROS)
        diag("D[1][1] (C -0, every product -0) = 0x%08lx", (unsigned long) d[1 * s->n + 1]);
    bad = kt_verify(&p, model, &kn->g, d, samples, seed, &checked);
    ok(bad == 0, "%s %s %zux%zux%zu, scales %s%s, %sC %s, D %s%s, seed %llu: %llu "
       "sampled outputs equal %s, %llu differ (%.1f s)", name, pr->combo, s->m, s->n, s->k,
       smma_scale_layout_name(layout), scale_offset ? " at an odd address" : "",
       extra == SPECIAL ? "special values, " : extra == ZEROS ? "-0 sums, " : "",
       with_c ? "fp32" : "none", smma_format_name(s->d_fmt), s->has_alpha ? ", alpha" : "",
       (unsigned long long) seed, (unsigned long long) (checked - bad), model->name,
       (unsigned long long) bad, tap_seconds() - t0);
    free(d);
    kt_free(&p);
}

/* The committed suites of pair pr with kernel kn, scales in both layouts. */
static void
check_suites(const struct kern *kn, const struct pair *pr)
{
    static const char *const kinds[] = { "kernel.exact", "kernel.model.", "exact", "model." };
    char name[160];
    size_t li, i;

    if (!pair_wanted(pr) || !kern_wanted(kn))
        return;
    for (li = 0; li < 2; li++) {
        kt_how h;

        memset(&h, 0, sizeof(h));
        h.kernel = kn->k;
        h.b_kmajor = true;
        h.layout = li == 0 ? SMMA_SL_LINEAR : SMMA_SL_128X4;
        for (i = 0; i < 4; i++) {
            if (i < 2 ? !pr->suites : !pr->tile_suites)
                continue;
            snprintf(name, sizeof(name), "gemm.%s.%s%s", pr->combo, kinds[i],
                     i % 2 ? kn->model : "");
            kt_check_suite(name, &h);
        }
    }
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
    char why[256];
    size_t ki, pi, i;
    const char *list = getenv("SMMA_GEMM_PAIRS"), *only = getenv("SMMA_GEMM_KERNEL");
    const char *pre = getenv("SMMA_SM90_PRE");
    int pre_only = -1;

    if (list != NULL && *list != '\0') {
        size_t items = 1, hits = 0;

        for (i = 0; list[i] != '\0'; i++)
            items += list[i] == ',';
        for (pi = 0; pi < sizeof(bs_pairs) / sizeof(bs_pairs[0]); pi++)
            hits += pair_wanted(&bs_pairs[pi]);
        if (hits != items)
            bail("SMMA_GEMM_PAIRS=%s: a name that is not a pair of this test", list);
    }
    if (only != NULL && *only != '\0') {
        size_t hits = 0;

        for (ki = 0; ki < NKERNS; ki++)
            hits += strcmp(only, smma_gpu_kernel_name(kerns[ki].k)) == 0;
        if (hits == 0)
            bail("SMMA_GEMM_KERNEL=%s: not sm90-promote32, sm90-bs or sm90-mixed", only);
    }
    if (pre != NULL && *pre != '\0') {
        if (strcmp(pre, "0") != 0 && strcmp(pre, "1") != 0)
            bail("SMMA_SM90_PRE=%s: not 0 or 1", pre);
        pre_only = pre[0] - '0';
    }
    kt_device_or_skip(&dev);
    if (dev.major != 9 || dev.minor != 0)
        skip_all("the sm90 kernels need compute capability 9.0, the device has %d.%d",
                 dev.major, dev.minor);
    if (smma_sm90_ready(why, sizeof(why)) != SMMA_GPU_STATUS_OK)
        skip_all("%s", why);
    plan_lazy();
    diag("sm90-promote32, sm90-bs and sm90-mixed on %s; seed %llu (SMMA_SEED replays it)",
         dev.dev.name, (unsigned long long) seed);

    for (ki = 0; ki < NKERNS; ki++) {
        const struct kern *kn = &kerns[ki];

        if (pre_only >= 0 && kn->pre != pre_only)
            continue;
        /* The conversion inside the kernel, or a pass before it, whatever
         * the shape. */
        setenv("SMMA_SM90_PRE", kn->pre ? "1" : "0", 1);
        setenv("SMMA_SM90_P32_SPROD", kn->fp32_products ? "0" : "", 1);
        if (kern_wanted(kn))
            diag("%s with SMMA_SM90_PRE=%d (%s)%s", smma_gpu_kernel_name(kn->k), kn->pre,
                 kn->pre ? "a conversion pass, then the GEMM of the copies"
                         : "the conversion inside the kernel",
                 kn->fp32_products ? " and SMMA_SM90_P32_SPROD=0" : "");
        /* 1. The committed suites. */
        for (pi = 0; pi < kn->npairs; pi++)
            check_suites(kn, &kn->pairs[pi]);

        /* 2. Ragged problems. */
        for (pi = 0; pi < kn->npairs; pi++) {
            const struct pair *pr = &kn->pairs[pi];
            smma_gemm_shape r = pair_shape(pr, 333, 520, 328, SMMA_BF16);
            smma_gemm_shape r2 = pair_shape(pr, 129, 264, 1000, SMMA_FP16);
            smma_gemm_shape r3 = pair_shape(pr, 200, 136, 40, SMMA_FP32);

            check_problem(&dev, kn, pr, &r, true, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                          seed + q++, samples, PLAIN);
            r2.has_alpha = true;
            r2.alpha = 0x3e200000u;
            check_problem(&dev, kn, pr, &r2, pi % 2, pi % 2 ? SMMA_SL_128X4 : SMMA_SL_LINEAR,
                          seed + q++, samples, PLAIN);
            check_problem(&dev, kn, pr, &r3, true, SMMA_SL_LINEAR, seed + q++, samples, PLAIN);
            if (kn->k == SMMA_GPU_SM90_MIXED && pi < 4) {
                /* k-steps of 4 atoms of 64 k (SMMA_SM90_KQ), K 1000 ragged,
                 * 100 rows of X: a tile of 128 (with 256 rows of X a
                 * stage of 4 atoms is 136 KiB, and two do not fit, which
                 * the plan refuses). */
                smma_gemm_shape r4 = pair_shape(pr, 100, 264, 1000, SMMA_FP16);

                r4.has_alpha = true;
                r4.alpha = 0x3e200000u;
                setenv("SMMA_SM90_KQ", "4", 1);
                check_problem(&dev, kn, pr, &r4, true, SMMA_SL_128X4, seed + q++, samples,
                              PLAIN);
                unsetenv("SMMA_SM90_KQ");
            }
        }

        /* 3. Special values and the signs of zeros. */
        for (pi = 0; pi < kn->npairs; pi++) {
            const struct pair *pr = &kn->pairs[pi];
            smma_gemm_shape r = pair_shape(pr, 129, 264, 136, SMMA_FP32);
            smma_gemm_shape z = pair_shape(pr, 136, 136, 64, SMMA_FP32);

            check_problem(&dev, kn, pr, &r, true, pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                          seed + q++, samples, SPECIAL);
            check_problem(&dev, kn, pr, &z, true, SMMA_SL_128X4, seed + q++, z.m * z.n, ZEROS);
        }

        /* 4. Scales at an odd address. */
        scale_offset = 3;
        for (pi = 0; pi < kn->npairs; pi++) {
            const struct pair *pr = &kn->pairs[pi];
            smma_gemm_shape r = pair_shape(pr, 129, 264, 136, SMMA_FP32);

            check_problem(&dev, kn, pr, &r, true, SMMA_SL_128X4, seed + q++, samples, SPECIAL);
            check_problem(&dev, kn, pr, &r, false, SMMA_SL_LINEAR, seed + q++, samples, PLAIN);
        }
        scale_offset = 0;

        /* 5. sm90-mixed: every tile of X's rows (M 1 .. 512) on the shapes
         * of LLM decoding, N x K 8192 x 8192, 28672 x 8192 and 8192 x
         * 28672, and the weights as A (8192 x N x 8192, N 16 and 200) for
         * the pairs of two block-scaled operands (level 0: M 1 and 256 on
         * the first shape, N 16, the first four pairs; level 1: every M on
         * the first, 1, 16 and 512 on the others, every pair; level 2:
         * all). */
        if (kn->k == SMMA_GPU_SM90_MIXED) {
            static const size_t ms[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
            static const size_t nk[][2] = { { 8192, 8192 }, { 28672, 8192 }, { 8192, 28672 } };
            size_t si, mi;

            for (pi = 0; pi < kn->npairs; pi++) {
                const struct pair *pr = &kn->pairs[pi];

                if (test_level() == 0 && pi >= 4)
                    continue;
                for (mi = 0; pr->a != SMMA_BF16 && mi < 2; mi++) {
                    smma_gemm_shape l = pair_shape(pr, 8192, mi ? 200 : 16, 8192, SMMA_BF16);

                    if (test_level() == 0 && mi > 0)
                        continue;
                    check_problem(&dev, kn, pr, &l, mi == 0,
                                  mi ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++, samples,
                                  PLAIN);
                }
                for (si = 0; si < 3; si++)
                    for (mi = 0; mi < sizeof(ms) / sizeof(ms[0]); mi++) {
                        smma_gemm_shape l = pair_shape(&kn->pairs[pi], ms[mi], nk[si][0],
                                                       nk[si][1], SMMA_BF16);

                        if (test_level() == 0 && (si > 0 || (ms[mi] != 1 && ms[mi] != 256)))
                            continue;
                        if (test_level() == 1 && si > 0 && ms[mi] != 1 && ms[mi] != 16
                            && ms[mi] != 512)
                            continue;
                        check_problem(&dev, kn, &kn->pairs[pi], &l, mi % 3 == 0,
                                      (mi + si) % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4,
                                      seed + q++, samples,
                                      PLAIN);
                    }
            }
            continue;
        }
        if (test_level() < 1)
            continue;

        /* 5. Large problems. */
        for (pi = 0; pi < kn->npairs; pi++) {
            smma_gemm_shape l = pair_shape(&kn->pairs[pi], 8192, 8192, 8192, SMMA_BF16);

            check_problem(&dev, kn, &kn->pairs[pi], &l, false,
                          pi % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4, seed + q++, samples, PLAIN);
        }
        for (i = 0; i < sizeof(llm) / sizeof(llm[0]); i++) {
            smma_gemm_shape l = pair_shape(&kn->pairs[0], llm[i][0], llm[i][1], llm[i][2],
                                           SMMA_BF16);

            check_problem(&dev, kn, &kn->pairs[0], &l, i == 3, SMMA_SL_128X4, seed + q++,
                          samples, PLAIN);
        }
    }
    return exit_status();
}
