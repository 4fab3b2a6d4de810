/*
 * tests/ref/gemm-t.c - the GEMM driver and the exact-class inputs.
 *
 *   - smma_gemm equals smma_dot element by element, for K-major and
 *     M/N-major operands and K tails that are not a multiple of the block;
 *   - sampled verification finds a one-bit change and names the entry;
 *   - exact-class inputs: every model gives the same bits on >= 10^5 dot
 *     products over many format combinations, while on random inputs the
 *     models differ (so the agreement test can fail);
 *   - seeded generation is reproducible; bad shapes are refused by name;
 *   - the epilogue alpha: alpha = 1 gives the bits of no alpha under every
 *     model; the models that accumulate in fp32 give rn_fp32(alpha * their
 *     fp32 result) (computed here with the host's IEEE double and float),
 *     then the rounding to a bf16 D; the exact models round alpha * the
 *     exact sum once (cases worked out by hand where rounding the sum first
 *     differs, and on random fp32 data against the same products with
 *     alpha moved into B and C); NaN, infinite, zero, negative, huge and
 *     tiny alphas;
 *   - unscaled operands: sa NULL is the same as every scale 1, under every
 *     model, and smma_gemm_generate_opts leaves sa NULL when asked.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>

#include "tap/basic.h"
#include "tap/failalloc.h"

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
    uint32_t d[257];
    size_t checked = 0, bad = 0;
    smma_mismatch first[4];
    smma_error err;
    int rc;

    smma_model_from_name("exact-rn", &m, NULL);
    smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 5, &g, &err);
    op = smma_gemm_data_operands(&s, &g);
    d[256] = 0x7fbadbadu;
    smma_gemm(m, &s, &op, d, &err);
    ok(d[256] == 0x7fbadbadu, "gemm writes its 16 x 16 values and nothing after them");
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
    d[0] ^= 0x00000001u;
    rc = smma_gemm_verify(m, &s, &op, d, 1000, 1, &checked, &bad, first, 4, &err);
    ok(rc == SMMA_OK && checked == 256 && bad == 2 && first[0].i == 0 && first[0].j == 0 &&
           first[1].i == 7 && first[1].j == 9,
       "verify: D[0][0] is checked too, and the mismatches come in order");
    d[0] ^= 0x00000001u;
    rc = smma_gemm_verify(m, &s, &op, d, 64, 3, &checked, &bad, first, 4, &err);
    ok(rc == SMMA_OK && checked == 64 && bad <= 1,
       "verify: 64 sampled entries are checked");
    {
        /* A leading dimension below the matrix's, A's or B's alone. */
        smma_gemm_operands short_a = op, short_b = op;

        short_a.lda = s.k - 1;
        short_b.ldb = s.k - 1;
        rc = smma_gemm(m, &s, &short_a, d, &err);
        ok(rc == SMMA_EINVAL && strcmp(err.msg, "leading dimension smaller than the matrix") == 0,
           "gemm refuses lda = k - 1 (%s)", err.msg);
        rc = smma_gemm(m, &s, &short_b, d, &err);
        ok(rc == SMMA_EINVAL, "... and ldb = k - 1 (%s)", err.msg);
    }
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
    ok(smma_gemm_shape_check(&s, &err) == SMMA_ERANGE &&
           strcmp(err.msg, "shape 33554432x4x4 is too large") == 0,
       "an absurd shape is refused, m x n x k in the message (%s)", err.msg);
    s = make_shape(&c, (size_t) 1 << 24, 1, 1);
    ok(smma_gemm_shape_check(&s, &err) == SMMA_OK, "m = 2^24, the largest, is taken (%s)",
       err.msg);
    s = make_shape(&c, 4, 4, 4);
    s.d_fmt = SMMA_BF16;
    {
        smma_gemm_data g;

        ok(smma_gemm_generate(&s, SMMA_CLASS_EXACT, 1, &g, &err) == SMMA_EINVAL &&
               strstr(err.msg, "fp32 D") != NULL,
           "exact class needs fp32 D (%s)", err.msg);
    }
}

/* ---- alpha ------------------------------------------------------------ */

/* rn_fp32(alpha * x) for fp32 bits, by the host's IEEE arithmetic: the
 * product is exact in a double, the conversion to float rounds to nearest
 * even.  A NaN is the canonical 0x7fffffff. */
static uint32_t
host_alpha(uint32_t alpha, uint32_t x)
{
    double p = (double) smma_f32_from_bits(alpha) * (double) smma_f32_from_bits(x);
    float f = (float) p;

    if (isnan(p))
        return 0x7fffffffu;
    return smma_f32_bits(f);
}

/* bf16 rounding of fp32 bits to nearest even (NaN: 0x7fff), by bit
 * arithmetic independent of the library. */
static uint32_t
host_bf16(uint32_t x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return (x + 0x7fffu + ((x >> 16) & 1)) >> 16;
}

/* D of one model for a generated problem, with the shape's alpha. */
static void
run(const smma_model *m, const smma_gemm_shape *s, const smma_gemm_data *g, uint32_t *d)
{
    smma_gemm_operands op = smma_gemm_data_operands(s, g);
    smma_error err;

    if (smma_gemm(m, s, &op, d, &err) != SMMA_OK)
        bail("%s: %s", m->name, err.msg);
}

/* alpha = 1 is no alpha, for every model and combination; the models that
 * accumulate in fp32 apply rn_fp32(alpha * acc), then round to bf16. */
static void
check_alpha_random(void)
{
    static const uint32_t alphas[] = { 0x3ec90fdbu, 0xbf9e3779u, 0x40490fdbu, 0x3a83126fu };
    size_t ci, mi, e, same = 0, total = 0, epi_bad = 0, epi_total = 0;

    for (ci = 0; ci < sizeof(combos) / sizeof(combos[0]); ci++)
        for (mi = 0; mi < smma_model_count(); mi++) {
            const smma_model *m = smma_model_at(mi);
            smma_gemm_shape s = make_shape(&combos[ci], 6, 5, 40 + ci), t;
            uint32_t d0[30], d1[30], d2[30];
            smma_gemm_data g;

            if (smma_model_check(m, &s, NULL) != SMMA_OK)
                continue;
            if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 300 + ci, &g, NULL) != SMMA_OK)
                bail("generate");
            run(m, &s, &g, d0);
            t = s;
            t.has_alpha = true;
            t.alpha = 0x3f800000u;
            run(m, &t, &g, d1);
            for (e = 0; e < 30; e++)
                same += d0[e] == d1[e];
            total += 30;
            if (m->kind != SMMA_MODEL_EXACT) {
                t.alpha = alphas[(ci + mi) % 4];
                run(m, &t, &g, d1);
                t.d_fmt = SMMA_BF16;
                run(m, &t, &g, d2);
                for (e = 0; e < 30; e++) {
                    uint32_t want = host_alpha(t.alpha, d0[e]);

                    if ((d1[e] != want || d2[e] != host_bf16(want)) && epi_bad++ < 5)
                        diag("%s alpha %08x: D %08x -> want %08x got %08x, bf16 %04x got %04x",
                             m->name, t.alpha, d0[e], want, d1[e], host_bf16(want), d2[e]);
                }
                epi_total += 30;
            }
            smma_gemm_data_free(&g);
        }
    ok(same == total && total > 1000, "alpha = 1 gives the bits of no alpha (%zu of %zu)", same,
       total);
    ok(epi_bad == 0 && epi_total > 500,
       "fp32 accumulators: D = rn_fp32(alpha * acc), then bf16 (%zu of %zu differ)", epi_bad,
       epi_total);
}

/* The exact models: alpha * sum rounded once.  fp32 A, B and C; alpha and
 * B, C with at most 12 significant bits, so alpha * b and alpha * c are
 * exact fp32 numbers: D(alpha; a, b, c) = D(a, alpha b, alpha c).  The
 * products span many binades, so the sums have hundreds of bits. */
static void
check_alpha_exact(void)
{
    const char *names[2] = { "exact-rn", "exact-rz" };
    tap_rng r;
    size_t t, bad = 0, n = 0, i;

    tap_rng_seed(&r, 77);
    for (t = 0; t < 2000; t++) {
        smma_gemm_shape s, u;
        uint32_t a[12], b[12], b2[12], c, c2, alpha;
        int ea = (int) (tap_rng_next(&r) % 121) - 60;

        memset(&s, 0, sizeof(s));
        s.a_fmt = s.b_fmt = s.c_fmt = SMMA_FP32;
        s.scale_fmt = SMMA_NONE;
        s.vec = 32;
        s.d_fmt = t % 3 == 0 ? SMMA_BF16 : t % 3 == 1 ? SMMA_FP16 : SMMA_FP32;
        s.m = s.n = 1;
        s.k = 1 + t % 12;
        /* alpha: 12 significant bits, exponent in [-60, 60]; B and C have
         * exponents in [-30, 29], so alpha * b and alpha * c are normal
         * fp32 numbers. */
        alpha = (uint32_t) (ea + 127) << 23 | ((uint32_t) tap_rng_next(&r) & 0x7ff000u) |
                (uint32_t) (tap_rng_next(&r) & 1) << 31;
        for (i = 0; i < s.k; i++) {
            int e1 = (int) (tap_rng_next(&r) % 60) - 30, e2 = (int) (tap_rng_next(&r) % 60) - 30;

            a[i] = (uint32_t) (tap_rng_next(&r) & 0x807fffffu) | (uint32_t) (e1 + 127) << 23;
            b[i] = (uint32_t) (tap_rng_next(&r) & 0x807ff000u) | (uint32_t) (e2 + 127) << 23;
            b2[i] = host_alpha(alpha, b[i]);
        }
        c = (uint32_t) (tap_rng_next(&r) & 0x807ff000u) |
            (uint32_t) ((int) (tap_rng_next(&r) % 60) - 30 + 127) << 23;
        c2 = host_alpha(alpha, c);
        u = s;
        s.has_alpha = true;
        s.alpha = alpha;
        for (i = 0; i < 2; i++) {
            const smma_model *m = tap_model(names[i]);
            uint32_t want = smma_dot(m, &u, a, b2, NULL, NULL, c2);
            uint32_t got = smma_dot(m, &s, a, b, NULL, NULL, c);

            n++;
            if (want != got && bad++ < 5)
                diag("%s %s k %zu alpha %08x: want %08x got %08x", names[i],
                     smma_format_name(s.d_fmt), s.k, alpha, want, got);
        }
    }
    ok(bad == 0, "exact models: alpha * exact sum, rounded once (%zu of %zu differ)", bad, n);
}

/* Cases worked out by hand. */
/* A block whose finite products sum past fp32's range gives +-Inf in every
 * block-FMA model, truncating ones included (an H100 gives Inf there, not
 * the largest finite value). */
static void
check_block_overflow(void)
{
    static const uint32_t a[2] = { 0x7f7f, 0x7f7f }, b[2] = { 0x3f80, 0x3f80 };
    static const uint32_t nb[2] = { 0xbf80, 0xbf80 }, half[2] = { 0x7f7f, 0xff7f };
    static const char *names[] = { "h100-bf16", "a100-bf16", "b200-bf16", "bf16-upcast-h100" };
    smma_gemm_shape s;
    size_t i;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = SMMA_BF16;
    s.scale_fmt = s.c_fmt = SMMA_NONE;
    s.vec = 32;
    s.d_fmt = SMMA_FP32;
    s.m = s.n = 1;
    s.k = 2;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const smma_model *m = tap_model(names[i]);

        is_hex(0x7f800000u, smma_dot(m, &s, a, b, NULL, NULL, 0),
               "%s: two bf16 maxima sum to +Inf", names[i]);
        is_hex(0xff800000u, smma_dot(m, &s, a, nb, NULL, NULL, 0),
               "%s: and with the signs flipped to -Inf", names[i]);
        is_hex(0x00000000u, smma_dot(m, &s, half, b, NULL, NULL, 0),
               "%s: max - max is +0, no overflow", names[i]);
    }
    is_hex(0x7f7fffffu, smma_dot(tap_model("exact-rz"), &s, a, b, NULL, NULL, 0),
           "exact-rz still rounds an overflow toward zero");
}

static void
check_alpha_cases(void)
{
    static const uint32_t a[2] = { 0x3f80, 0x3380 }, b[2] = { 0x3f80, 0x3f80 };
    static const uint32_t a3[3] = { 0x3f80, 0x3b80, 0x3b00 }, b3[3] = { 0x3f80, 0x3f80, 0x3f80 };
    static const uint32_t two[1] = { 0x4000 }, mtwo[1] = { 0xc000 }, one[1] = { 0x3f80 };
    static const uint32_t zero[1] = { 0x0000 }, inf[1] = { 0x7f80 }, onehalf[1] = { 0x3fc0 };
    const char *fp32acc[3] = { "h100-bf16", "fp32-fma-seq", "bf16-upcast-a100" };
    smma_gemm_shape s;
    size_t i;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = SMMA_BF16;
    s.scale_fmt = s.c_fmt = SMMA_NONE;
    s.vec = 32;
    s.d_fmt = SMMA_FP32;
    s.m = s.n = 1;
    s.k = 2;
    s.has_alpha = true;
    /* S = 1 + 2^-24 (bf16 1 and 2^-24, times 1), alpha = 1 + 2^-23:
     * alpha S = 1 + 2^-23 + 2^-24 + 2^-47, more than half an ulp (2^-24)
     * above 1 + 2^-23: exact-rn 1 + 2^-22 = 0x3f800002.  Rounding S first
     * gives 1 (a tie, to even) and alpha * 1 = 0x3f800001: exact-rz's
     * answer, and that of h100-bf16, whose one block truncates S to 1. */
    s.alpha = 0x3f800001u;
    is_hex(0x3f800002u, smma_dot(tap_model("exact-rn"), &s, a, b, NULL, NULL, 0),
           "exact-rn: alpha (1 + 2^-23) times 1 + 2^-24, rounded once");
    is_hex(0x3f800001u, smma_dot(tap_model("exact-rz"), &s, a, b, NULL, NULL, 0),
           "exact-rz: the same toward zero");
    is_hex(0x3f800001u, smma_dot(tap_model("h100-bf16"), &s, a, b, NULL, NULL, 0),
           "h100-bf16: acc = 1 (truncated), then rn(alpha * 1)");
    /* bf16 D: S = 1 + 2^-8 + 2^-9, alpha = 3: alpha S = 3.017578125 =
     * 3 + 1.125 bf16 ulps (2^-6): 3.015625 = 0x4041.  Rounding S first:
     * 1 + 2^-7, times 3 = 3 + 1.5 ulps, a tie, to even: 0x4042. */
    s.k = 3;
    s.d_fmt = SMMA_BF16;
    s.alpha = 0x40400000u;
    is_hex(0x4041, smma_dot(tap_model("exact-rn"), &s, a3, b3, NULL, NULL, 0),
           "exact-rn, bf16 D: 3 (1 + 2^-8 + 2^-9) rounded once");
    is_hex(0x4041, smma_dot(tap_model("h100-bf16"), &s, a3, b3, NULL, NULL, 0),
           "h100-bf16, bf16 D: acc exact, rn_fp32(3 acc) exact, then bf16");
    /* exact-rz rounds 3.017578125 down to 3.015625 too. */
    is_hex(0x4041, smma_dot(tap_model("exact-rz"), &s, a3, b3, NULL, NULL, 0),
           "exact-rz, bf16 D");

    /* Special alphas, for an exact model and three that accumulate in fp32. */
    s.k = 1;
    s.d_fmt = SMMA_FP32;
    for (i = 0; i < 4; i++) {
        const char *name = i == 0 ? "exact-rn" : fp32acc[i - 1];
        const smma_model *m = tap_model(name);
        smma_gemm_shape u = s;

        if (m->upcast_bf16) {       /* a scaled shape, scales 1 */
            u.scale_fmt = SMMA_E8M0;
        }
#define D(al, x, y) (u.alpha = (al), smma_dot(m, &u, x, y, NULL, NULL, 0))
        is_hex(0x7fffffffu, D(0x7fc00000u, two, one), "%s: alpha NaN gives NaN", name);
        is_hex(0x7fffffffu, D(0xffc00001u, zero, one), "%s: alpha NaN times 0 gives NaN", name);
        is_hex(0x7f800000u, D(0x7f800000u, two, one), "%s: alpha +Inf times 2: +Inf", name);
        is_hex(0xff800000u, D(0x7f800000u, mtwo, one), "%s: alpha +Inf times -2: -Inf", name);
        is_hex(0x7fffffffu, D(0x7f800000u, zero, one), "%s: alpha +Inf times 0: NaN", name);
        is_hex(0x00000000u, D(0x00000000u, two, one), "%s: alpha 0 times 2: +0", name);
        is_hex(0x80000000u, D(0x00000000u, mtwo, one), "%s: alpha 0 times -2: -0", name);
        is_hex(0x7fffffffu, D(0x00000000u, inf, one), "%s: alpha 0 times Inf: NaN", name);
        is_hex(0xff800000u, D(0xbf800000u, inf, one), "%s: alpha -1 times +Inf: -Inf", name);
        is_hex(0x80000000u, D(0xbf800000u, zero, one), "%s: alpha -1 times +0: -0", name);
        /* 2^127 * 4 overflows: to nearest, Inf. */
        is_hex(0x7f800000u, D(0x7f000000u, two, two), "%s: alpha 2^127 times 4: Inf", name);
        /* 2^-149 * 1.5 lies halfway between 2^-149 and 2^-148: to even,
         * 2^-148 = 0x00000002. */
        is_hex(0x00000002u, D(0x00000001u, onehalf, one), "%s: alpha 2^-149 times 1.5", name);
#undef D
    }
    s.alpha = 0x7f000000u;
    is_hex(0x7f7fffffu, smma_dot(tap_model("exact-rz"), &s, two, two, NULL, NULL, 0),
           "exact-rz: alpha 2^127 times 4 rounds toward zero to FLT_MAX");
    s.alpha = 0x00000001u;
    is_hex(0x00000001u, smma_dot(tap_model("exact-rz"), &s, onehalf, one, NULL, NULL, 0),
           "exact-rz: alpha 2^-149 times 1.5 truncates to 2^-149");
}

/* Unscaled A (sa NULL) is A with every scale 1 (e8m0 0x7f, ue4m3 0x38),
 * under every model; generation leaves sa NULL when asked. */
static void
check_unscaled(void)
{
    static const struct {
        smma_format a, b, scale;
        unsigned vec;
        uint32_t unit;
    } cs[] = {
        { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 0x7f },
        { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 0x7f },
        { SMMA_FP16, SMMA_E2M1, SMMA_UE4M3, 16, 0x38 },
    };
    size_t ci, mi, e, bad = 0, total = 0, nmodels = 0;
    int cls;

    for (ci = 0; ci < sizeof(cs) / sizeof(cs[0]); ci++)
        for (cls = 0; cls < 2; cls++) {
            smma_gemm_shape s;
            smma_gemm_gen_opts o = { true, false };
            smma_gemm_data g;
            smma_gemm_operands op, op1;
            uint32_t *ones, d0[7 * 9], d1[7 * 9];
            size_t kb;
            smma_error err;

            memset(&s, 0, sizeof(s));
            s.a_fmt = cs[ci].a;
            s.b_fmt = cs[ci].b;
            s.scale_fmt = cs[ci].scale;
            s.vec = cs[ci].vec;
            s.c_fmt = SMMA_FP32;
            s.d_fmt = SMMA_FP32;
            s.m = 7;
            s.n = 9;
            s.k = 72;
            kb = smma_gemm_kblocks(&s);
            if (smma_gemm_generate_opts(&s, cls ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, 5 + ci,
                                        &o, &g, &err) != SMMA_OK)
                bail("generate: %s", err.msg);
            ok(g.sa == NULL && g.sb != NULL, "%s x %s %s: sa left NULL, sb generated",
               smma_format_name(s.a_fmt), smma_format_name(s.b_fmt), cls ? "exact" : "random");
            ones = malloc(s.m * kb * sizeof(*ones));
            if (ones == NULL)
                sysbail("no memory");
            for (e = 0; e < s.m * kb; e++)
                ones[e] = cs[ci].unit;
            op = smma_gemm_data_operands(&s, &g);
            op1 = op;
            op1.sa = ones;
            for (mi = 0; mi < smma_model_count(); mi++) {
                const smma_model *m = smma_model_at(mi);

                if (smma_model_check(m, &s, NULL) != SMMA_OK)
                    continue;
                if (smma_gemm(m, &s, &op, d0, &err) != SMMA_OK ||
                    smma_gemm(m, &s, &op1, d1, &err) != SMMA_OK)
                    bail("%s: %s", m->name, err.msg);
                for (e = 0; e < s.m * s.n; e++)
                    if (d0[e] != d1[e] && bad++ < 5)
                        diag("%s: unscaled %08x, scales 1 %08x", m->name, d0[e], d1[e]);
                total += s.m * s.n;
                nmodels++;
            }
            /* The exact class stays exact: every model gives exact-rn's D. */
            if (cls) {
                uint32_t ref[7 * 9];

                smma_gemm(tap_model("exact-rn"), &s, &op, ref, NULL);
                for (mi = 0; mi < smma_model_count(); mi++) {
                    const smma_model *m = smma_model_at(mi);

                    if (smma_model_check(m, &s, NULL) != SMMA_OK)
                        continue;
                    smma_gemm(m, &s, &op, d0, NULL);
                    for (e = 0; e < s.m * s.n; e++)
                        if (d0[e] != ref[e] && bad++ < 5)
                            diag("exact class, unscaled A: %s %08x, exact-rn %08x", m->name,
                                 d0[e], ref[e]);
                }
            }
            free(ones);
            smma_gemm_data_free(&g);
        }
    ok(bad == 0 && nmodels > 40,
       "sa NULL equals every scale 1 (%zu results, %zu model runs), exact class kept", total,
       nmodels);
}

/* Out of memory (tap/failalloc.h): each of the two scratch rows of
 * smma_gemm, smma_gemm_verify and smma_gemm_element fails in turn; the
 * call reports it and frees what it had. */
static void
check_alloc_failures(void)
{
    smma_gemm_shape s = make_shape(&combos[0], 4, 4, 8);
    const smma_model *m = tap_model("exact-rn");
    smma_gemm_data g;
    smma_gemm_operands op;
    smma_error err;
    uint32_t d[16];
    size_t checked, bad;
    smma_mismatch first[1];
    long before, f;
    int rc;

    if (!tap_alloc_hook()) {
        skip_block(9, "no failing allocator here (glibc only, not under valgrind or AddressSanitizer)");
        return;
    }
    if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 3, &g, &err) != SMMA_OK)
        bail("generate: %s", err.msg);
    op = smma_gemm_data_operands(&s, &g);
    if (smma_gemm(m, &s, &op, d, &err) != SMMA_OK)
        bail("gemm: %s", err.msg);
    for (f = 0; f < 2; f++) {
        before = tap_alloc_live();
        tap_alloc_fail_after(f);
        rc = smma_gemm(m, &s, &op, d, &err);
        ok(rc == SMMA_ENOMEM && !tap_alloc_pending() && tap_alloc_live() == before,
           "gemm: allocation %ld of 2 fails: SMMA_ENOMEM, nothing kept (%s)", f + 1, err.msg);
        before = tap_alloc_live();
        tap_alloc_fail_after(f);
        rc = smma_gemm_verify(m, &s, &op, d, 16, 1, &checked, &bad, first, 1, &err);
        ok(rc == SMMA_ENOMEM && !tap_alloc_pending() && tap_alloc_live() == before,
           "verify: allocation %ld of 2 fails: SMMA_ENOMEM, nothing kept (%s)", f + 1, err.msg);
    }
    op.a_kmajor = op.b_kmajor = false; /* both need a scratch row */
    for (f = 0; f < 2; f++) {
        uint32_t r;

        before = tap_alloc_live();
        tap_alloc_fail_after(f);
        r = smma_gemm_element(m, &s, &op, 0, 0);
        ok(r == 0xffffffffu && !tap_alloc_pending() && tap_alloc_live() == before,
           "gemm_element: allocation %ld of 2 fails: 0xffffffff, nothing kept", f + 1);
    }
    tap_alloc_fail_after(-1);
    before = tap_alloc_live();
    smma_gemm_data_free(&g);
    ok(g.a == NULL && g.b == NULL && g.sa == NULL && g.sb == NULL && g.c == NULL &&
           tap_alloc_live() < before,
       "gemm_data_free frees the arrays and leaves the data empty");
    smma_gemm_data_free(&g);
    /* smma_gemm_generate with A's or B's array failing. */
    for (f = 0; f < 2; f++) {
        before = tap_alloc_live();
        tap_alloc_fail_after(f);
        rc = smma_gemm_generate(&s, SMMA_CLASS_RANDOM, 3, &g, &err);
        ok(rc == SMMA_ENOMEM && !tap_alloc_pending() && tap_alloc_live() == before,
           "generate: allocation %ld fails: SMMA_ENOMEM, nothing kept (%s)", f + 1, err.msg);
    }
    tap_alloc_fail_after(-1);
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
    check_alpha_cases();
    check_block_overflow();
    check_alpha_random();
    check_alpha_exact();
    check_unscaled();
    check_alloc_failures();

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
