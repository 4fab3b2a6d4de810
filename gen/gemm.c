/*
 * gen/gemm.c - the gemm suites: problems per format combination with A, B,
 * their scales, C and D as matrices, in an exact class on which every
 * model agrees and a model class per model; their part of the table and
 * which are committed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------------ gemm */

/* The format combinations of the gemm suites. */
/* The tile problems (m, n, k) of a level: level 1 one tile and one with a
 * short last scale block; level 2 adds larger tiles and more draws. */
static const unsigned gemm_problems[][3] = {
    { 32, 16, 64 }, { 16, 8, 80 },
    { 128, 64, 128 }, { 64, 32, 256 }, { 32, 16, 64 }, { 32, 16, 64 }, { 16, 16, 96 },
};

/* Those of the fp8 GEMM without block scales: K past one and two of
 * cuBLASLt's 128-k promotions, and a short last one. */
static const unsigned gemm_problems_fp8[][3] = {
    { 16, 8, 320 }, { 8, 8, 200 },
    { 32, 16, 512 }, { 16, 16, 384 }, { 16, 8, 129 }, { 8, 8, 128 }, { 8, 16, 1000 },
};

static const struct gemm_combo {
    const char *name;
    smma_format a, b, scale;
    unsigned vec;
    const unsigned (*problems)[3]; /* NULL: gemm_problems */
} gemm_combos[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, NULL },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, NULL },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, NULL },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, NULL },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, NULL },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, NULL },
    { "bf16", SMMA_BF16, SMMA_BF16, SMMA_NONE, 32, NULL },
    /* fp8 without block scales: the pairs torch._scaled_mm takes. */
    { "fp8", SMMA_E4M3, SMMA_E4M3, SMMA_NONE, 32, gemm_problems_fp8 },
    { "fp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_NONE, 32, gemm_problems_fp8 },
    { "fp8-e5m2-e4m3", SMMA_E5M2, SMMA_E4M3, SMMA_NONE, 32, gemm_problems_fp8 },
};
#define NCOMBO (sizeof(gemm_combos) / sizeof(gemm_combos[0]))

_Static_assert(sizeof(gemm_problems) == sizeof(gemm_problems_fp8),
               "every problem table has a level's count");

/* Problem i of combination c. */
static const unsigned *
gemm_problem(const struct gemm_combo *c, size_t i)
{
    return c->problems != NULL ? c->problems[i] : gemm_problems[i];
}

static size_t
gemm_nproblems(unsigned level)
{
    return level >= 2 ? sizeof(gemm_problems) / sizeof(gemm_problems[0]) : 2;
}

static smma_gemm_shape
gemm_shape(const struct gemm_combo *c, const unsigned *p)
{
    smma_gemm_shape sh;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = c->a;
    sh.b_fmt = c->b;
    sh.scale_fmt = c->scale;
    sh.vec = c->vec;
    sh.c_fmt = SMMA_FP32;
    sh.d_fmt = SMMA_FP32;
    sh.m = p[0];
    sh.n = p[1];
    sh.k = p[2];
    return sh;
}

/* The models of the model-class suites of a combination: exact-rn and
 * fp32-fma-seq for all; bf16-upcast-h100 and the provisional b200-fp8 for
 * the block-scaled ones; h100-fp8-promote32 (sm90-promote32) for the MX
 * ones; h100-fp8 where A and B are fp8; cublaslt-fp8-promoted for fp8
 * without block scales; h100-bf16 for bf16.  Those smma_model_check
 * refuses are left out (smma_gen_gemm_suites). */
static size_t
gemm_models(const struct gemm_combo *c, const char **names)
{
    size_t n = 0;

    names[n++] = "exact-rn";
    names[n++] = "fp32-fma-seq";
    if (c->scale != SMMA_NONE) {
        names[n++] = "bf16-upcast-h100";
        names[n++] = "b200-fp8";
    }
    if (c->scale == SMMA_E8M0 && c->vec == 32 && c->a != SMMA_BF16)
        names[n++] = "h100-fp8-promote32";
    if ((c->a == SMMA_E4M3 || c->a == SMMA_E5M2) && (c->b == SMMA_E4M3 || c->b == SMMA_E5M2))
        names[n++] = "h100-fp8";
    if (c->scale == SMMA_NONE && c->a != SMMA_BF16)
        names[n++] = "cublaslt-fp8-promoted";
    if (c->a == SMMA_BF16)
        names[n++] = "h100-bf16";
    return n;
}

/* The names of the models that can compute shape sh, space-separated. */
static void
gemm_exact_models(const smma_gemm_shape *sh, char *buf, size_t size)
{
    size_t i, at = 0;

    buf[0] = '\0';
    for (i = 0; i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);
        smma_model any = smma_model_any_inputs(m);

        if (smma_model_check(&any, sh, NULL) == SMMA_OK && at + strlen(m->name) + 2 < size)
            at += (size_t) snprintf(buf + at, size - at, "%s%s", at ? " " : "", m->name);
    }
}

/* D of the exact class under every model that can compute the shape: each
 * must equal exact-rn's D, or the suite is not generated. */
static int
gemm_exact_check(const smma_gemm_shape *sh, const smma_gemm_operands *ops, const uint32_t *d,
                 smma_error *err)
{
    uint32_t *d2 = malloc(sh->m * sh->n * sizeof(*d2));
    size_t i;
    int rc = SMMA_OK;

    if (d2 == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (i = 0; rc == SMMA_OK && i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);
        smma_model any = smma_model_any_inputs(m);

        if (smma_model_check(&any, sh, NULL) != SMMA_OK)
            continue;
        rc = smma_gemm(&any, sh, ops, d2, err);
        if (rc == SMMA_OK && memcmp(d, d2, sh->m * sh->n * sizeof(*d2)) != 0)
            rc = smma_error_set(err, SMMA_EINVAL, "exact-class D of %zux%zux%zu under %s "
                                "differs from exact-rn's", sh->m, sh->n, sh->k, m->name);
    }
    free(d2);
    return rc;
}

static int
gemm_case(const smma_suite *s, const struct gemm_combo *co, const unsigned *p,
          uint64_t seed, struct smma_gen_case *mc, smma_error *err)
{
    smma_gemm_shape sh = gemm_shape(co, p);
    smma_gemm_data d;
    smma_gemm_operands ops;
    size_t kb = smma_gemm_kblocks(&sh);
    uint32_t *dd = malloc(sh.m * sh.n * sizeof(*dd));
    const smma_model *exact;
    int rc = dd == NULL ? smma_error_set(err, SMMA_ENOMEM, "out of memory")
                        : smma_model_from_name("exact-rn", &exact, err);

    if (rc == SMMA_OK)
        rc = smma_gemm_generate(&sh, s->exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, seed, &d,
                                err);
    if (rc != SMMA_OK) {
        free(dd);
        return rc;
    }
    ops = smma_gemm_data_operands(&sh, &d);
    rc = smma_gemm(s->exact ? exact : s->model, &sh, &ops, dd, err);
    if (rc == SMMA_OK && s->exact)
        rc = gemm_exact_check(&sh, &ops, dd, err);
    mc->scalars[0] = sh.m;
    mc->scalars[1] = sh.n;
    mc->scalars[2] = sh.k;
    /* A and B are K-major in d: A (m x k) row-major, B (n x k) transposed
     * to k x n; SB (n x kb) to kb x n. */
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "a", d.a, sh.m, sh.k, sh.k, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "b", d.b, sh.k, sh.n, 1, sh.k, err);
    if (rc == SMMA_OK && kb > 0)
        rc = smma_gen_put_matrix(mc, "sa", d.sa, sh.m, kb, kb, 1, err);
    if (rc == SMMA_OK && kb > 0)
        rc = smma_gen_put_matrix(mc, "sb", d.sb, kb, sh.n, 1, kb, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "c", d.c, sh.m, sh.n, sh.n, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_matrix(mc, "d", dd, sh.m, sh.n, sh.n, 1, err);
    smma_gemm_data_free(&d);
    free(dd);
    return rc;
}

int
smma_gen_gemm(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
         smma_error *err)
{
    if (s->kernel)
        return smma_gen_kernel(s, level, seed, out, err);
    static const char *const comments[] = {
        "one tile problem per case, every matrix a block in its mathematical orientation,",
        "row-major: a (m x k) and b (k x n) element codes, sa (m x kb) the scales of row i",
        "of A, sb (kb x n) the scales of column j of B, kb = ceil(k / vec), k block t",
        "covering k in [t vec, (t+1) vec) (the last one short when vec does not divide",
        "k); c (m x n) fp32, d (m x n) fp32: D = C + sum_k (A[i][k] SA[i][k/vec])",
        "(B[k][j] SB[k/vec][j]), each element by smma_dot (softmma/gemm.h)", NULL
    };
    const struct gemm_combo *co = &gemm_combos[s->combo];
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct smma_gen_case mc;
    char line[512], blocks_in[96], names[400];
    smma_gemm_shape sh = gemm_shape(co, gemm_problem(co, 0));
    uint64_t st = seed;
    size_t i;
    int rc;

    memset(&mc, 0, sizeof(mc));
    smma_gen_header(s, level, seed, &h);
    if (s->model != NULL)
        snprintf(h.model, sizeof(h.model), "%s", s->model->name);
    snprintf(blocks_in, sizeof(blocks_in), "a:%s b:%s", smma_format_name(co->a),
             smma_format_name(co->b));
    if (co->scale != SMMA_NONE)
        snprintf(blocks_in + strlen(blocks_in), sizeof(blocks_in) - strlen(blocks_in),
                 " sa:%s sb:%s", smma_format_name(co->scale), smma_format_name(co->scale));
    strcat(blocks_in, " c:fp32");
    rc = smma_gen_add_spec(&h, "m:u32 n:u32 k:u32", false, false, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(&h, blocks_in, false, true, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(&h, "d:fp32", true, true, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_check(&h, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, &w, err);
    if (co->scale != SMMA_NONE)
        snprintf(line, sizeof(line), "%s: a %s, b %s, scales %s, vec %u", co->name,
                 smma_format_name(co->a), smma_format_name(co->b),
                 smma_format_name(co->scale), co->vec);
    else
        snprintf(line, sizeof(line), "%s: a %s, b %s, no scales", co->name,
                 smma_format_name(co->a), smma_format_name(co->b));
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, line, err);
    if (s->model != NULL) {
        snprintf(line, sizeof(line), "model %s: %s; status: %s", s->model->name,
                 s->model->summary, s->model->status);
        if (rc == SMMA_OK)
            rc = smma_vec_put_comment(w, line, err);
    }
    gemm_exact_models(&sh, names, sizeof(names));
    if (s->exact)
        snprintf(line, sizeof(line), "exact class (smma_gemm_generate, SMMA_CLASS_EXACT): "
                 "every model gives this D; checked when generated under %s", names);
    else
        snprintf(line, sizeof(line), "model class: random inputs (smma_gemm_generate, "
                 "SMMA_CLASS_RANDOM), D under the model");
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, line, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < gemm_nproblems(level); i++) {
        rc = gemm_case(s, co, gemm_problem(co, i), smma_gen_rand(&st), &mc, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
    }
    smma_gen_case_free(&mc);
    return smma_gen_finish(rc, w, out);
}

void
smma_gen_gemm_suites(void)
{
    const char *names[8];
    const smma_model *m;
    size_t c, k, nm;
    smma_suite *s;

    for (c = 0; c < NCOMBO; c++) {
        smma_gemm_shape sh = gemm_shape(&gemm_combos[c], gemm_problem(&gemm_combos[c], 0));

        s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 0, 0, 0, "gemm.%s.exact",
                         gemm_combos[c].name);
        if (s != NULL) {
            s->combo = (unsigned) c;
            s->exact = true;
        }
        nm = gemm_models(&gemm_combos[c], names);
        for (k = 0; k < nm; k++) {
            if (smma_model_from_name(names[k], &m, NULL) != SMMA_OK ||
                smma_model_check(m, &sh, NULL) != SMMA_OK)
                continue;
            s = smma_gen_add(SMMA_SUITE_GEMM, SMMA_SUITE_ISA_MMA, 0, 0, 0, "gemm.%s.model.%s",
                             gemm_combos[c].name, m->name);
            if (s != NULL) {
                s->combo = (unsigned) c;
                s->model = m;
            }
        }
    }
}

/* Committed: every gemm suite. */
bool
smma_gen_gemm_committed(const smma_suite *s)
{
    (void) s;
    return true;
}
