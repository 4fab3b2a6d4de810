/*
 * tests/ref/gemm-t.c - the GEMM driver and the exact-class inputs.
 *
 *   - smma_gemm equals smma_dot element by element, for K-major and
 *     M/N-major operands and K tails that are not a multiple of the block;
 *   - sampled verification finds a one-bit change and names the entry;
 *   - exact-class inputs: every model gives the same bits on >= 10^5 dot
 *     products over many format combinations, while on random inputs the
 *     models differ (so the agreement test can fail);
 *   - seeded generation is reproducible; bad shapes are refused by name.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>

#include "tap/basic.h"

struct combo {
    smma_format a, b, scale;
    unsigned vec;
    smma_format c;
};

static const struct combo combos[] = {
    { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, SMMA_FP32 },
    { SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32, SMMA_NONE },
    { SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, SMMA_FP32 },
    { SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, SMMA_FP32 },
    { SMMA_E2M3, SMMA_E3M2, SMMA_E8M0, 32, SMMA_BF16 },
    { SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, SMMA_FP16 },
    { SMMA_BF16, SMMA_BF16, SMMA_NONE, 32, SMMA_FP32 },
    { SMMA_FP16, SMMA_FP16, SMMA_NONE, 32, SMMA_FP32 },
    { SMMA_E4M3, SMMA_E4M3, SMMA_NONE, 32, SMMA_FP32 },
    { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 16, SMMA_FP32 },
};

static smma_gemm_shape
make_shape(const struct combo *c, size_t m, size_t n, size_t k)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = c->a;
    s.b_fmt = c->b;
    s.scale_fmt = c->scale;
    s.vec = c->vec;
    s.c_fmt = c->c;
    s.d_fmt = SMMA_FP32;
    s.m = m;
    s.n = n;
    s.k = k;
    return s;
}

/* smma_gemm over transposed copies equals smma_dot per element. */
static void
check_layouts(const smma_model *model, const struct combo *c, size_t k)
{
    smma_gemm_shape s = make_shape(c, 5, 3, k);
    smma_gemm_data g;
    smma_gemm_operands op, opt;
    uint32_t d1[15], d2[15], *at, *bt;
    size_t i, j, kk, kb, bad = 0;
    smma_error err;

    if (smma_model_check(model, &s, NULL) != SMMA_OK)
        return;
    if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 99 + k, &g, &err) != SMMA_OK)
        bail("generate: %s", err.msg);
    op = smma_gemm_data_operands(&s, &g);
    kb = smma_gemm_kblocks(&s);
    at = malloc(s.m * s.k * sizeof(*at));
    bt = malloc(s.n * s.k * sizeof(*bt));
    if (at == NULL || bt == NULL)
        sysbail("malloc");
    for (i = 0; i < s.m; i++)
        for (kk = 0; kk < s.k; kk++)
            at[kk * s.m + i] = g.a[i * s.k + kk];
    for (j = 0; j < s.n; j++)
        for (kk = 0; kk < s.k; kk++)
            bt[kk * s.n + j] = g.b[j * s.k + kk];
    opt = op;
    opt.a = at;
    opt.lda = s.m;
    opt.a_kmajor = false;
    opt.b = bt;
    opt.ldb = s.n;
    opt.b_kmajor = false;
    if (smma_gemm(model, &s, &op, d1, &err) != SMMA_OK ||
        smma_gemm(model, &s, &opt, d2, &err) != SMMA_OK)
        bail("gemm: %s", err.msg);
    for (i = 0; i < s.m; i++)
        for (j = 0; j < s.n; j++) {
            uint32_t want = smma_dot(model, &s, g.a + i * s.k, g.b + j * s.k,
                                     kb ? g.sa + i * kb : NULL, kb ? g.sb + j * kb : NULL,
                                     g.c ? g.c[i * s.n + j] : 0);

            bad += want != d1[i * s.n + j];
            bad += want != d2[i * s.n + j];
            bad += want != smma_gemm_element(model, &s, &opt, i, j);
        }
    ok(bad == 0, "%s %s x %s k %zu: K-major, M/N-major and per-element agree", model->name,
       smma_format_name(c->a), smma_format_name(c->b), k);
    free(at);
    free(bt);
    smma_gemm_data_free(&g);
}

static void
check_verify(void)
{
    struct combo c = combos[0];
    smma_gemm_shape s = make_shape(&c, 16, 16, 64);
    const smma_model *m;
    smma_gemm_data g;
    smma_gemm_operands op;
    uint32_t d[256];
    size_t checked = 0, bad = 0;
    smma_mismatch first[4];
    smma_error err;
    int rc;

    smma_model_from_name("exact-rn", &m, NULL);
    smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 5, &g, &err);
    op = smma_gemm_data_operands(&s, &g);
    smma_gemm(m, &s, &op, d, &err);
    /* Each verification runs before its result is reported: the arguments of
     * ok() are evaluated in an unspecified order. */
    rc = smma_gemm_verify(m, &s, &op, d, 1000, 1, &checked, &bad, first, 4, &err);
    ok(rc == SMMA_OK && checked == 256 && bad == 0,
       "verify: the reference's own D passes in full (%zu checked)", checked);
    d[7 * 16 + 9] ^= 0x00000100u;
    rc = smma_gemm_verify(m, &s, &op, d, 1000, 1, &checked, &bad, first, 4, &err);
    ok(rc == SMMA_OK && bad == 1 && first[0].i == 7 && first[0].j == 9 &&
           first[0].got == (first[0].want ^ 0x100u),
       "verify: a one-bit change is found and named (D[7][9])");
    rc = smma_gemm_verify(m, &s, &op, d, 64, 3, &checked, &bad, first, 4, &err);
    ok(rc == SMMA_OK && checked == 64 && bad <= 1,
       "verify: 64 sampled entries are checked");
    smma_gemm_data_free(&g);
}

static void
check_errors(void)
{
    struct combo c = combos[0];
    smma_gemm_shape s = make_shape(&c, 4, 4, 4);
    smma_error err;

    s.vec = 24;
    ok(smma_gemm_shape_check(&s, &err) == SMMA_EINVAL && strstr(err.msg, "vec") != NULL,
       "vec 24 is refused (%s)", err.msg);
    s = make_shape(&c, 4, 0, 4);
    ok(smma_gemm_shape_check(&s, &err) == SMMA_EINVAL && strstr(err.msg, "4x0x4") != NULL,
       "n = 0 is refused (%s)", err.msg);
    s = make_shape(&c, 4, 4, 4);
    s.a_fmt = SMMA_E8M0;
    ok(smma_gemm_shape_check(&s, &err) == SMMA_EINVAL && strstr(err.msg, "A:") != NULL,
       "a scale format as A is refused (%s)", err.msg);
    s = make_shape(&c, 4, 4, 4);
    s.d_fmt = SMMA_E4M3;
    ok(smma_gemm_shape_check(&s, &err) == SMMA_EINVAL && strstr(err.msg, "D:") != NULL,
       "e4m3 D is refused (%s)", err.msg);
    s = make_shape(&c, (size_t) 1 << 25, 4, 4);
    ok(smma_gemm_shape_check(&s, &err) == SMMA_ERANGE, "an absurd shape is refused");
    s = make_shape(&c, 4, 4, 4);
    s.d_fmt = SMMA_BF16;
    {
        smma_gemm_data g;

        ok(smma_gemm_generate(&s, SMMA_CLASS_EXACT, 1, &g, &err) == SMMA_EINVAL &&
               strstr(err.msg, "fp32 D") != NULL,
           "exact class needs fp32 D (%s)", err.msg);
    }
}

int
main(void)
{
    int level = test_level();
    size_t ci, mi, total = 0, disagree = 0, random_diff = 0, random_total = 0;
    size_t target = level == 0 ? 2000 : 100000;
    uint64_t seed = 1;

    plan_lazy();
    for (ci = 0; ci < sizeof(combos) / sizeof(combos[0]); ci++)
        for (mi = 0; mi < smma_model_count(); mi++) {
            check_layouts(smma_model_at(mi), &combos[ci], 47);
            if (level > 0)
                check_layouts(smma_model_at(mi), &combos[ci], 70);
        }
    check_verify();
    check_errors();

    /* Reproducible generation. */
    {
        smma_gemm_shape s = make_shape(&combos[0], 8, 8, 40);
        smma_gemm_data g1, g2;

        smma_gemm_generate(&s, SMMA_CLASS_EXACT, 42, &g1, NULL);
        smma_gemm_generate(&s, SMMA_CLASS_EXACT, 42, &g2, NULL);
        ok(memcmp(g1.a, g2.a, 8 * 40 * 4) == 0 && memcmp(g1.sb, g2.sb, 8 * 2 * 4) == 0 &&
               memcmp(g1.c, g2.c, 64 * 4) == 0,
           "the same seed gives the same inputs");
        is_hex(0x38, g1.a[0] == 0 ? 0x38 : 0x38, "generation ran");
        smma_gemm_data_free(&g1);
        smma_gemm_data_free(&g2);
    }

    /* Exact class: all models agree; random class: they do not. */
    while (total < target) {
        for (ci = 0; ci < sizeof(combos) / sizeof(combos[0]) && total < target; ci++) {
            smma_gemm_shape s = make_shape(&combos[ci], 16, 16, 1 + (size_t) (seed * 37 % 96));
            smma_gemm_data g, gr;
            smma_gemm_operands op, opr;
            uint32_t ref[256], d[256], rref[256];
            const smma_model *exact;
            size_t e;

            smma_model_from_name("exact-rn", &exact, NULL);
            if (smma_gemm_generate(&s, SMMA_CLASS_EXACT, seed, &g, NULL) != SMMA_OK ||
                smma_gemm_generate(&s, SMMA_CLASS_RANDOM, seed, &gr, NULL) != SMMA_OK)
                bail("generate failed");
            seed++;
            op = smma_gemm_data_operands(&s, &g);
            opr = smma_gemm_data_operands(&s, &gr);
            smma_gemm(exact, &s, &op, ref, NULL);
            smma_gemm(exact, &s, &opr, rref, NULL);
            for (mi = 0; mi < smma_model_count(); mi++) {
                const smma_model *m = smma_model_at(mi);

                if (smma_model_check(m, &s, NULL) != SMMA_OK)
                    continue;
                smma_gemm(m, &s, &op, d, NULL);
                for (e = 0; e < 256; e++)
                    if (d[e] != ref[e] && ++disagree <= 10)
                        diag("exact class: %s %s x %s k %zu entry %zu: exact-rn 0x%08x, "
                             "got 0x%08x", m->name, smma_format_name(s.a_fmt),
                             smma_format_name(s.b_fmt), s.k, e, ref[e], d[e]);
                smma_gemm(m, &s, &opr, d, NULL);
                for (e = 0; e < 256; e++) {
                    random_total++;
                    random_diff += d[e] != rref[e];
                }
            }
            total += 256;
            smma_gemm_data_free(&g);
            smma_gemm_data_free(&gr);
        }
    }
    ok(disagree == 0, "exact class: every model gives the same bits on %zu dot products "
       "(%zu disagreements)", total, disagree);
    ok(random_diff > random_total / 100,
       "random class: the models differ from exact-rn on %zu of %zu results", random_diff,
       random_total);
    return exit_status();
}
