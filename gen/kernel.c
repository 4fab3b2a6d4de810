/*
 * gen/kernel.c - the kernel-scale gemm suites, gemm.COMBO.kernel.exact and
 * gemm.COMBO.kernel.model.MODEL: problems shaped for the GPU kernels
 * (gpu/, doc/kernels.md) rather than for one instruction; and the same for
 * the tiles of the wgmma kernels (gpu/sm90/), gemm.COMBO.wgmma.exact and
 * gemm.COMBO.wgmma.model.h100-bf16 for bf16 and fp16 (suite field var 1).
 *
 * Each suite has four problems.  Their shapes cross the kernels' tiles
 * (128 x 256 CTA tiles with k tiles of 64 for the large-M kernels; 16 x
 * 32 tiles and m <= 16 for the small-M one): M past one CTA tile, N past
 * one, both ragged, K a few k tiles plus a tail that leaves a short last
 * scale block, and two thin problems (m = 1, n = 1).  They carry what the
 * tile suites do not: C present or absent (has_c), an alpha, and D in
 * fp32, bf16 or fp16 (d_fmt).  The model class also holds special values
 * placed in a few rows and columns (NaN and Inf elements, -0, subnormals,
 * NaN, 0x00 and 0xfe scales, products that overflow bf16 or the fp32 sum),
 * so that most outputs stay finite and the specials are still covered.
 *
 * The wgmma suites' problems cross the sm90 tiles instead (64 x 128 for
 * sm90-v1; 128 x 256 in clusters of two along M for sm90-v2, so an odd
 * number of 128-row tiles leaves a cluster half outside; k-steps of 64),
 * with K that is not a multiple of 8 or 16 (TMA reads any K: the last
 * k-step is short and its last 16-k block is padded).
 *
 * Fields: in m:u32 n:u32 k:u32 has_c:u8 d_fmt:u8 alpha:fp32; blocks in a,
 * b, sa (absent for an unscaled A), sb, c (m x n; zeros without C); block
 * out d:u32, the bits of D in d_fmt (0 fp32, 1 bf16, 2 fp16).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The format combinations of the kernels (gpu/gemm_check*.c). */
static const struct kcombo {
    const char *name;
    smma_format a, b, scale;
    unsigned vec;
    bool a_unscaled;
} kcombos[] = {
    { "bf16", SMMA_BF16, SMMA_BF16, SMMA_NONE, 32, false },
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, false },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, false },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, false },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, false },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, false },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, false },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, false },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, false },
    { "bf16-mxfp4", SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, true },
    { "bf16-mxfp8", SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, true },
    /* The wgmma suites only. */
    { "fp16", SMMA_FP16, SMMA_FP16, SMMA_NONE, 32, false },
};
#define WGMMA_ONLY(co) ((co)->a == SMMA_FP16)
#define NKCOMBO (sizeof(kcombos) / sizeof(kcombos[0]))

/* The model-class suites: the device models of the kernels that compute
 * each combination (doc/kernels.md): the sm_80 kernels' on the H100 and
 * the A100, the sm_100 kernels' (b200-fp8) where both operands have at
 * most 8 bits, sm90-promote32's (h100-fp8-promote32) for the MX pairs. */
static const char *const bf16_models[] = { "h100-bf16", "a100-bf16" };
static const char *const scaled_models[] = { "bf16-upcast-h100", "b200-fp8",
                                             "h100-fp8-promote32" };

/* The problems: m, n, k, has_c, d_fmt (0 fp32, 1 bf16, 2 fp16; the exact
 * class always fp32), alpha.  K is a multiple of 8 (the 16-bit kernels'
 * rule) and leaves a short last scale block for vec 16 and 32. */
struct kproblem {
    unsigned m, n, k;
    bool has_c;
    unsigned d_fmt;
    uint32_t alpha;
};

static const struct kproblem exact_problems[] = {
    { 136, 24, 168, true, 0, 0x3f800000u },  /* M past a 128-row tile, 3 k tiles */
    { 16, 264, 104, false, 0, 0x40000000u }, /* N past a 256-column tile, alpha 2 */
    { 1, 15, 40, true, 0, 0x3f800000u },
    { 15, 1, 72, true, 0, 0x3e800000u },     /* alpha 1/4 */
    /* level 2 */
    { 260, 520, 264, true, 0, 0x3f800000u },
};
static const struct kproblem model_problems[] = {
    { 136, 24, 168, true, 0, 0x3fc00000u },  /* alpha 1.5 */
    { 16, 264, 104, false, 1, 0x3f800000u }, /* bf16 D */
    { 1, 15, 40, true, 2, 0x3f800000u },     /* fp16 D */
    { 15, 1, 72, true, 0, 0x3f800000u },
    /* level 2 */
    { 260, 520, 264, true, 1, 0x3dcccccdu },
};
#define NPROBLEM (sizeof(exact_problems) / sizeof(exact_problems[0]))

/* The wgmma suites' problems: 200 rows are two tiles of sm90-v2 (one
 * cluster) and four of v1, 130 rows leave a cluster half outside, 136
 * and 300 columns are two and three tiles of v1, 300 two of v2; K 136,
 * 77, 33 and 130 end in short k-steps with 8, 13, 33 and 2 elements. */
static const struct kproblem wgmma_exact_problems[] = {
    { 200, 24, 136, true, 0, 0x3f800000u },
    { 130, 136, 77, false, 0, 0x3fc00000u },  /* alpha 1.5 */
    { 1, 300, 33, true, 0, 0x3f800000u },
    { 64, 1, 130, true, 0, 0x3e800000u },     /* alpha 1/4 */
    /* level 2 */
    { 260, 520, 1000, true, 0, 0x3f800000u },
};
static const struct kproblem wgmma_model_problems[] = {
    { 200, 24, 136, true, 0, 0x3f800000u },
    { 130, 136, 77, false, 1, 0x3fc00000u },  /* bf16 D, alpha 1.5 */
    { 1, 300, 33, true, 2, 0x3f800000u },     /* fp16 D */
    { 64, 1, 130, true, 0, 0x3e800000u },
    /* level 2 */
    { 260, 520, 1000, true, 1, 0x3dcccccdu },
};

static const smma_format d_formats[3] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };

/* The bf16 kernels' suites take longer K: four 64-wide k tiles and a tail. */
static unsigned
problem_k(const struct kcombo *co, const struct kproblem *p)
{
    return co->a == SMMA_BF16 && co->scale == SMMA_NONE && p->k == 168 ? 264 : p->k;
}

/* The problems of suite s. */
static const struct kproblem *
suite_problems(const smma_suite *s)
{
    if (s->var == 1)
        return s->exact ? wgmma_exact_problems : wgmma_model_problems;
    return s->exact ? exact_problems : model_problems;
}

static smma_gemm_shape
kshape(const struct kcombo *co, const struct kproblem *p, bool exact)
{
    smma_gemm_shape sh;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = co->a;
    sh.b_fmt = co->b;
    sh.scale_fmt = co->scale;
    sh.vec = co->vec;
    sh.c_fmt = p->has_c ? SMMA_FP32 : SMMA_NONE;
    sh.d_fmt = exact ? SMMA_FP32 : d_formats[p->d_fmt];
    sh.m = p->m;
    sh.n = p->n;
    sh.k = problem_k(co, p);
    sh.has_alpha = p->alpha != 0x3f800000u;
    sh.alpha = p->alpha;
    return sh;
}

/* ---- special values (model class) ------------------------------------- */

static uint32_t
neg_zero(smma_format f)
{
    return 1u << (smma_format_info(f)->bits - 1);
}

/* The largest finite code of a format (positive). */
static uint32_t
max_code(smma_format f)
{
    switch (f) {
    case SMMA_BF16:
        return 0x7f7f;
    case SMMA_E4M3:
        return 0x7e;
    case SMMA_E5M2:
        return 0x7b;
    case SMMA_E2M3:
    case SMMA_E3M2:
        return 0x1f;
    case SMMA_E2M1:
    default:
        return 0x7;
    }
}

/* A NaN code, or 0 when the format has none; an infinity likewise. */
static uint32_t
nan_code(smma_format f)
{
    return f == SMMA_BF16 ? 0x7fc0 : f == SMMA_E4M3 ? 0x7f : f == SMMA_E5M2 ? 0x7e : 0;
}

static uint32_t
inf_code(smma_format f)
{
    return f == SMMA_BF16 ? 0x7f80 : f == SMMA_E5M2 ? 0x7c : 0;
}

/* Places special values into a few rows of A (and of SA) and columns of B
 * (and of SB) of the generated data: row i of A and column j of B are
 * chosen from the shape so that every problem has some, and most outputs
 * stay finite. */
static void
put_specials(const smma_gemm_shape *sh, smma_gemm_data *d, uint64_t *st)
{
    size_t m = sh->m, n = sh->n, k = sh->k, kb = smma_gemm_kblocks(sh);
    size_t r[6], c[3], i;
    uint32_t an = nan_code(sh->a_fmt), ai = inf_code(sh->a_fmt);
    uint32_t bi = inf_code(sh->b_fmt);
    uint32_t asign = neg_zero(sh->a_fmt), bsign = neg_zero(sh->b_fmt);

    for (i = 0; i < 6; i++)
        r[i] = (size_t) (smma_gen_rand(st) % m);
    for (i = 0; i < 3; i++)
        c[i] = (size_t) (smma_gen_rand(st) % n);
    /* Row r0: an infinity (or the largest code) and a NaN (or -0). */
    d->a[r[0] * k + 0] = ai != 0 ? ai : max_code(sh->a_fmt);
    if (k > 3)
        d->a[r[0] * k + 3] = an != 0 ? an : asign;
    /* Row r1: +Inf and -Inf in one sum where A has infinities. */
    if (ai != 0 && k > 5) {
        d->a[r[1] * k + 1] = ai;
        d->a[r[1] * k + 5] = ai | asign;
    }
    /* Row r2: -0 everywhere in its first block and the smallest subnormal. */
    for (i = 0; i < k && i < sh->vec; i++)
        d->a[r[2] * k + i] = asign;
    if (k > sh->vec)
        d->a[r[2] * k + sh->vec] = 1;
    /* Row r3: the largest codes, which with a large scale overflow bf16 (or
     * the fp32 sum). */
    for (i = 0; i < k && i < 8; i++)
        d->a[r[3] * k + i] = max_code(sh->a_fmt);
    /* Columns of B: the largest codes, an infinity, subnormals, -0. */
    for (i = 0; i < k && i < 8; i++)
        d->b[c[0] * k + i] = max_code(sh->b_fmt);
    if (bi != 0 && k > 2)
        d->b[c[1] * k + 2] = bi | bsign;
    for (i = 8; i < k && i < 16; i++)
        d->b[c[1] * k + i] = (i & 1) ? 1 : (1 | bsign);
    if (sh->scale_fmt == SMMA_NONE)
        return;
    /* Scales: a NaN scale, 0x00 (2^-127 for e8m0: the products fall into
     * bf16's subnormals or flush), and the largest scale on the largest
     * codes (bf16 overflows to Inf after the upcast). */
    if (d->sa != NULL) {
        d->sa[r[4] * kb + 0] = sh->scale_fmt == SMMA_E8M0 ? 0xff : 0x7f;
        d->sa[r[5] * kb + kb - 1] = 0x00;
        d->sa[r[3] * kb + 0] = sh->scale_fmt == SMMA_E8M0 ? 0xfe : 0x7e;
    }
    d->sb[c[0] * kb + 0] = sh->scale_fmt == SMMA_E8M0 ? 0xfe : 0x7e;
    d->sb[c[2] * kb + (kb > 1 ? 1 : 0)] = sh->scale_fmt == SMMA_E8M0 ? 0x00 : 0x01;
    if (kb > 2)
        d->sb[c[2] * kb + 2] = sh->scale_fmt == SMMA_E8M0 ? 0xff : 0x7f;
}

/* ---- the generator ----------------------------------------------------- */

/* The exact-class D must be the same under every model that can compute the
 * shape: checked on 1024 sampled outputs per model. */
static int
exact_check(const smma_gemm_shape *sh, const smma_gemm_operands *ops, const uint32_t *d,
            smma_error *err)
{
    size_t i, checked, bad;
    smma_mismatch first;
    int rc = SMMA_OK;

    for (i = 0; rc == SMMA_OK && i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);
        smma_model any = smma_model_any_inputs(m);

        if (smma_model_check(&any, sh, NULL) != SMMA_OK)
            continue;
        rc = smma_gemm_verify(&any, sh, ops, d, 1024, 0x6b65726eull + i, &checked, &bad, &first, 1,
                              err);
        if (rc == SMMA_OK && bad)
            rc = smma_error_set(err, SMMA_EINVAL, "exact-class D of %zux%zux%zu under %s "
                                "differs from exact-rn's", sh->m, sh->n, sh->k, m->name);
    }
    return rc;
}

static int
kernel_case(const smma_suite *s, const struct kcombo *co, const struct kproblem *p,
            uint64_t seed, struct smma_gen_case *mc, smma_error *err)
{
    smma_gemm_shape sh = kshape(co, p, s->exact), gsh = sh;
    smma_gemm_gen_opts opts = { co->a_unscaled, false };
    smma_gemm_data d;
    smma_gemm_operands ops;
    size_t kb = smma_gemm_kblocks(&sh), i;
    uint32_t *dd = malloc(sh.m * sh.n * sizeof(*dd)), *c0 = NULL;
    const smma_model *model = s->model;
    uint64_t st = seed ^ 0x9e3779b97f4a7c15ull;
    int rc = dd == NULL ? smma_error_set(err, SMMA_ENOMEM, "out of memory")
             : s->exact ? smma_model_from_name("exact-rn", &model, err) : SMMA_OK;

    memset(&d, 0, sizeof(d));
    gsh.c_fmt = SMMA_FP32;  /* C drawn always, kept only with has_c */
    gsh.d_fmt = SMMA_FP32;
    if (rc == SMMA_OK)
        rc = smma_gemm_generate_opts(&gsh, s->exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM,
                                     seed, &opts, &d, err);
    if (rc != SMMA_OK) {
        free(dd);
        return rc;
    }
    if (!s->exact)
        put_specials(&sh, &d, &st);
    if (!p->has_c) {
        c0 = calloc(sh.m * sh.n, sizeof(*c0));
        if (c0 == NULL)
            rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    ops = smma_gemm_data_operands(&sh, &d);
    if (!p->has_c)
        ops.c = NULL;
    if (rc == SMMA_OK)
        rc = smma_gemm(model, &sh, &ops, dd, err);
    if (rc == SMMA_OK && s->exact)
        rc = exact_check(&sh, &ops, dd, err);
    mc->scalars[0] = sh.m;
    mc->scalars[1] = sh.n;
    mc->scalars[2] = sh.k;
    mc->scalars[3] = p->has_c;
    mc->scalars[4] = s->exact ? 0 : p->d_fmt;
    mc->scalars[5] = p->alpha;
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "a", d.a, sh.m, sh.k, sh.k, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "b", d.b, sh.k, sh.n, 1, sh.k, err);
    if (rc == SMMA_OK && d.sa != NULL)
        rc = smma_gen_put_matrix(mc, "sa", d.sa, sh.m, kb, kb, 1, err);
    if (rc == SMMA_OK && d.sb != NULL)
        rc = smma_gen_put_matrix(mc, "sb", d.sb, kb, sh.n, 1, kb, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "c", p->has_c ? d.c : c0, sh.m, sh.n, sh.n, 1, err);
    if (rc == SMMA_OK) {
        uint64_t *v = smma_gen_case_block(mc, "d", sh.m, sh.n);

        if (v == NULL)
            rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
        for (i = 0; v != NULL && i < sh.m * sh.n; i++)
            v[i] = dd[i];
    }
    smma_gemm_data_free(&d);
    free(dd);
    free(c0);
    return rc;
}

int
smma_gen_kernel(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                smma_error *err)
{
    static const char *const wgmma_comments[] = {
        "problems at the scale of the wgmma kernels (gpu/sm90/, doc/kernels.md): M and N",
        "past one CTA tile (64 x 128 and 128 x 256 in clusters of two along M) and ragged,",
        "K a few k-steps of 64 plus a tail not a multiple of 16, m = 1 and n = 1; every",
        "matrix a block in its mathematical orientation",
        "as in the gemm tile suites: a (m x k), b (k x n), c (m x n;",
        "zeros when has_c is 0: no C); d (m x n) the bits of D in d_fmt (0 fp32, 1 bf16,",
        "2 fp16): D = alpha (C + sum_k A[i][k] B[k][j]),",
        "each element by smma_dot (softmma/gemm.h), alpha fp32 bits (0x3f800000: none)", NULL
    };
    static const char *const comments[] = {
        "problems at the scale of the GPU kernels (gpu/, doc/kernels.md): M and N past one",
        "CTA tile (128 x 256) and ragged, K a few k tiles plus a tail with a short last",
        "scale block, m = 1 and n = 1; every matrix a block in its mathematical orientation",
        "as in the gemm tile suites: a (m x k), b (k x n), sa (m x kb), sb (kb x n), c (m x n;",
        "zeros when has_c is 0: no C); d (m x n) the bits of D in d_fmt (0 fp32, 1 bf16,",
        "2 fp16): D = alpha (C + sum_k (A[i][k] SA[i][k/vec]) (B[k][j] SB[k/vec][j])),",
        "each element by smma_dot (softmma/gemm.h), alpha fp32 bits (0x3f800000: none)", NULL
    };
    const struct kcombo *co = &kcombos[s->combo];
    const struct kproblem *probs = suite_problems(s);
    size_t np = level >= 2 ? NPROBLEM : NPROBLEM - 1, i;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct smma_gen_case mc;
    char line[512], spec[96];
    int rc;

    memset(&mc, 0, sizeof(mc));
    smma_gen_header(s, level, seed, &h);
    if (s->model != NULL)
        snprintf(h.model, sizeof(h.model), "%s", s->model->name);
    snprintf(spec, sizeof(spec), "a:%s b:%s", smma_format_name(co->a), smma_format_name(co->b));
    if (co->scale != SMMA_NONE && !co->a_unscaled)
        snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), " sa:%s",
                 smma_format_name(co->scale));
    if (co->scale != SMMA_NONE)
        snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), " sb:%s",
                 smma_format_name(co->scale));
    strcat(spec, " c:fp32");
    rc = smma_gen_add_spec(&h, "m:u32 n:u32 k:u32 has_c:u8 d_fmt:u8 alpha:fp32", false, false,
                           err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(&h, spec, false, true, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(&h, "d:u32", true, true, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_check(&h, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, s->var == 1 ? wgmma_comments : comments, &w, err);
    if (co->a_unscaled)
        snprintf(line, sizeof(line), "%s: a %s without scales (no sa: every scale 1), b %s, "
                 "scales %s, vec %u", co->name, smma_format_name(co->a),
                 smma_format_name(co->b), smma_format_name(co->scale), co->vec);
    else if (co->scale != SMMA_NONE)
        snprintf(line, sizeof(line), "%s: a %s, b %s, scales %s, vec %u", co->name,
                 smma_format_name(co->a), smma_format_name(co->b),
                 smma_format_name(co->scale), co->vec);
    else
        snprintf(line, sizeof(line), "%s: a %s, b %s, no scales", co->name,
                 smma_format_name(co->a), smma_format_name(co->b));
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, line, err);
    if (rc == SMMA_OK && s->model != NULL) {
        snprintf(line, sizeof(line), "model %s: %s; status: %s", s->model->name,
                 s->model->summary, s->model->status);
        rc = smma_vec_put_comment(w, line, err);
    }
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, s->exact
                                  ? "exact class (SMMA_CLASS_EXACT): every model gives this D "
                                    "(checked on 1024 sampled outputs per model when generated)"
                                  : "model class: random inputs with special values placed in "
                                    "a few rows of A and columns of B (NaN, Inf, -0, "
                                    "subnormals, NaN, 0x00 and the largest scales)", err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < np; i++) {
        rc = kernel_case(s, co, &probs[i], smma_gen_rand(&seed), &mc, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
    }
    smma_gen_case_free(&mc);
    return smma_gen_finish(rc, w, out);
}

void
smma_gen_kernel_suites(void)
{
    const smma_model *m;
    size_t c, k;
    smma_suite *s;

    for (c = 0; c < NKCOMBO; c++) {
        const struct kcombo *co = &kcombos[c];
        const char *const *names = co->scale == SMMA_NONE ? bf16_models : scaled_models;
        size_t nm = co->scale == SMMA_NONE ? sizeof(bf16_models) / sizeof(bf16_models[0])
                                           : sizeof(scaled_models) / sizeof(scaled_models[0]);

        /* The wgmma suites: bf16 (exact and h100-bf16) and fp16 (h100-bf16). */
        if (co->scale == SMMA_NONE) {
            if (!WGMMA_ONLY(co)) {
                s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 1, 0, 0,
                                 "gemm.%s.wgmma.exact", co->name);
                if (s != NULL) {
                    s->combo = (unsigned) c;
                    s->exact = true;
                    s->kernel = true;
                }
            }
            s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 1, 0, 0,
                             "gemm.%s.wgmma.model.h100-bf16", co->name);
            if (s != NULL && smma_model_from_name("h100-bf16", &m, NULL) == SMMA_OK) {
                s->combo = (unsigned) c;
                s->model = m;
                s->kernel = true;
            }
        }
        if (WGMMA_ONLY(co))
            continue;

        s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 0, 0, 0, "gemm.%s.kernel.exact",
                         co->name);
        if (s != NULL) {
            s->combo = (unsigned) c;
            s->exact = true;
            s->kernel = true;
        }
        for (k = 0; k < nm; k++) {
            if (smma_model_from_name(names[k], &m, NULL) != SMMA_OK ||
                (strcmp(m->name, "b200-fp8") == 0 && co->a == SMMA_BF16) ||
                (strcmp(m->name, "h100-fp8-promote32") == 0 &&
                 (co->a == SMMA_BF16 || co->scale != SMMA_E8M0)))
                continue;
            s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 0, 0, 0,
                             "gemm.%s.kernel.model.%s", co->name, m->name);
            if (s != NULL) {
                s->combo = (unsigned) c;
                s->model = m;
                s->kernel = true;
            }
        }
    }
}
