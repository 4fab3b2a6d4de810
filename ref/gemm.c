/*
 * gemm.c - the GEMM driver over smma_dot, sampled verification, seeded
 * input generation (random and exact class), and the project's generator.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>
#include <softmma/profile.h>

/* ---- generator (xoshiro256** seeded by splitmix64) ----------------------- */

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void
smma_rng_seed(smma_rng *r, uint64_t seed)
{
    int i;

    for (i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t
smma_rng_next(smma_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t
smma_rng_below(smma_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;

    do
        v = smma_rng_next(r);
    while (v >= limit);
    return v % n;
}

/* ---- shapes ------------------------------------------------------------------ */

static bool
is_element(smma_format f)
{
    return f == SMMA_E2M1 || f == SMMA_E2M3 || f == SMMA_E3M2 || f == SMMA_E4M3 ||
           f == SMMA_E5M2 || f == SMMA_BF16 || f == SMMA_FP16 || f == SMMA_FP32;
}

static bool
is_wide(smma_format f)
{
    return f == SMMA_FP32 || f == SMMA_BF16 || f == SMMA_FP16;
}

int
smma_gemm_shape_check(const smma_gemm_shape *s, smma_error *err)
{
    if (!is_element(s->a_fmt))
        return smma_error_set(err, SMMA_EINVAL, "A: %s is not an element format",
                              smma_format_name(s->a_fmt));
    if (!is_element(s->b_fmt))
        return smma_error_set(err, SMMA_EINVAL, "B: %s is not an element format",
                              smma_format_name(s->b_fmt));
    if (s->scale_fmt != SMMA_NONE && s->scale_fmt != SMMA_E8M0 && s->scale_fmt != SMMA_UE4M3)
        return smma_error_set(err, SMMA_EINVAL, "scale: %s is not e8m0, ue4m3 or none",
                              smma_format_name(s->scale_fmt));
    if (s->scale_fmt != SMMA_NONE && s->vec != 16 && s->vec != 32)
        return smma_error_set(err, SMMA_EINVAL, "vec: %u is not 16 or 32", s->vec);
    if (s->c_fmt != SMMA_NONE && !is_wide(s->c_fmt))
        return smma_error_set(err, SMMA_EINVAL, "C: %s is not fp32, bf16, fp16 or none",
                              smma_format_name(s->c_fmt));
    if (!is_wide(s->d_fmt))
        return smma_error_set(err, SMMA_EINVAL, "D: %s is not fp32, bf16 or fp16",
                              smma_format_name(s->d_fmt));
    if (s->m == 0 || s->n == 0 || s->k == 0)
        return smma_error_set(err, SMMA_EINVAL, "shape %zux%zux%zu: m, n and k must be >= 1",
                              s->m, s->n, s->k);
    if (s->m > ((size_t) 1 << 24) || s->n > ((size_t) 1 << 24) || s->k > ((size_t) 1 << 24) ||
        (s->m > 0 && s->k > SIZE_MAX / 4 / s->m) || (s->n > 0 && s->k > SIZE_MAX / 4 / s->n) ||
        (s->m > 0 && s->n > SIZE_MAX / 4 / s->m))
        return smma_error_set(err, SMMA_ERANGE, "shape %zux%zux%zu is too large",
                              s->m, s->n, s->k);
    return SMMA_OK;
}

size_t
smma_gemm_kblocks(const smma_gemm_shape *s)
{
    if (s->scale_fmt == SMMA_NONE)
        return 0;
    return (s->k + s->vec - 1) / s->vec;
}

/* ---- GEMM ----------------------------------------------------------------------- */

/* Gathers row i of A and column j of B into k-contiguous buffers. */
static void
gather(const smma_gemm_shape *s, const smma_gemm_operands *op, size_t i, size_t j,
       uint32_t *arow, uint32_t *bcol, const uint32_t **ap, const uint32_t **bp)
{
    size_t kk;

    if (op->a_kmajor)
        *ap = op->a + i * op->lda;
    else {
        for (kk = 0; kk < s->k; kk++)
            arow[kk] = op->a[kk * op->lda + i];
        *ap = arow;
    }
    if (op->b_kmajor)
        *bp = op->b + j * op->ldb;
    else {
        for (kk = 0; kk < s->k; kk++)
            bcol[kk] = op->b[kk * op->ldb + j];
        *bp = bcol;
    }
}

static uint32_t
element(const smma_model *model, const smma_gemm_shape *s, const smma_gemm_operands *op,
        size_t i, size_t j, uint32_t *arow, uint32_t *bcol)
{
    const uint32_t *ap, *bp;
    size_t kb = smma_gemm_kblocks(s);

    gather(s, op, i, j, arow, bcol, &ap, &bp);
    return smma_dot(model, s, ap, bp, op->sa != NULL ? op->sa + i * kb : NULL,
                    op->sb != NULL ? op->sb + j * kb : NULL,
                    op->c != NULL ? op->c[i * s->n + j] : 0);
}

uint32_t
smma_gemm_element(const smma_model *model, const smma_gemm_shape *s,
                  const smma_gemm_operands *op, size_t i, size_t j)
{
    uint32_t *arow = NULL, *bcol = NULL, r;

    if (!op->a_kmajor)
        arow = malloc(s->k * sizeof(*arow));
    if (!op->b_kmajor)
        bcol = malloc(s->k * sizeof(*bcol));
    if ((!op->a_kmajor && arow == NULL) || (!op->b_kmajor && bcol == NULL)) {
        free(arow);
        free(bcol);
        return 0xffffffffu;
    }
    r = element(model, s, op, i, j, arow, bcol);
    free(arow);
    free(bcol);
    return r;
}

static int
check_all(const smma_model *model, const smma_gemm_shape *s, const smma_gemm_operands *op,
          smma_error *err)
{
    int rc = smma_gemm_shape_check(s, err);

    if (rc != SMMA_OK)
        return rc;
    rc = smma_model_check(model, s, err);
    if (rc != SMMA_OK)
        return rc;
    if (op->a == NULL || op->b == NULL)
        return smma_error_set(err, SMMA_EINVAL, "A and B are required");
    /* A scale format with sa or sb NULL is an unscaled operand (scale 1). */
    if (s->c_fmt != SMMA_NONE && op->c == NULL)
        return smma_error_set(err, SMMA_EINVAL, "C is required for C format %s",
                              smma_format_name(s->c_fmt));
    if (op->lda < (op->a_kmajor ? s->k : s->m) || op->ldb < (op->b_kmajor ? s->k : s->n))
        return smma_error_set(err, SMMA_EINVAL, "leading dimension smaller than the matrix");
    return SMMA_OK;
}

int
smma_gemm(const smma_model *model, const smma_gemm_shape *s, const smma_gemm_operands *op,
          uint32_t *d, smma_error *err)
{
    uint32_t *arow, *bcol;
    size_t i, j;
    int rc = check_all(model, s, op, err);

    if (rc != SMMA_OK)
        return rc;
    arow = malloc(s->k * sizeof(*arow));
    bcol = malloc(s->k * sizeof(*bcol));
    if (arow == NULL || bcol == NULL) {
        free(arow);
        free(bcol);
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    for (i = 0; i < s->m; i++)
        for (j = 0; j < s->n; j++)
            d[i * s->n + j] = element(model, s, op, i, j, arow, bcol);
    free(arow);
    free(bcol);
    return SMMA_OK;
}

int
smma_gemm_verify(const smma_model *model, const smma_gemm_shape *s,
                 const smma_gemm_operands *op, const uint32_t *d, size_t samples,
                 uint64_t seed, size_t *checked, size_t *mismatches, smma_mismatch *first,
                 size_t keep, smma_error *err)
{
    uint32_t *arow, *bcol;
    size_t t, total, nbad = 0;
    smma_rng rng;
    int all;
    int rc = check_all(model, s, op, err);

    if (rc != SMMA_OK)
        return rc;
    total = s->m * s->n;
    all = samples >= total;
    arow = malloc(s->k * sizeof(*arow));
    bcol = malloc(s->k * sizeof(*bcol));
    if (arow == NULL || bcol == NULL) {
        free(arow);
        free(bcol);
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    smma_rng_seed(&rng, seed);
    if (all)
        samples = total;
    for (t = 0; t < samples; t++) {
        size_t idx = all ? t : (size_t) smma_rng_below(&rng, total);
        size_t i = idx / s->n, j = idx % s->n;
        uint32_t want = element(model, s, op, i, j, arow, bcol);

        if (want != d[idx]) {
            if (nbad < keep) {
                first[nbad].i = i;
                first[nbad].j = j;
                first[nbad].want = want;
                first[nbad].got = d[idx];
            }
            nbad++;
        }
    }
    free(arow);
    free(bcol);
    *checked = samples;
    *mismatches = nbad;
    return SMMA_OK;
}

/* ---- input generation ------------------------------------------------------ */

/* A random finite code of f whose value is 0 or has an exponent in
 * [-20, 20] (every code of the 4-, 6- and 8-bit element formats qualifies). */
static uint32_t
random_code(smma_rng *r, smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);
    uint32_t mask = d->storage_bits == 32 ? 0xffffffffu : (1u << d->storage_bits) - 1;

    if (!d->has_sign)
        mask = (1u << d->bits) - 1;
    for (;;) {
        uint32_t c = (uint32_t) smma_rng_next(r) & mask;
        double v = smma_decode(f, c);
        int e;

        if (!isfinite(v))
            continue;
        if (v == 0 || (frexp(v, &e), e - 1 >= -20 && e - 1 <= 20))
            return c;
    }
}

/* A random e8m0 scale in 2^-20 .. 2^20, or a finite ue4m3. */
static uint32_t
random_scale(smma_rng *r, smma_format f)
{
    if (f == SMMA_E8M0)
        return 127 - 20 + (uint32_t) smma_rng_below(r, 41);
    return random_code(r, f);
}

static uint32_t
enc_exact(smma_format f, double v)
{
    smma_cvt c = smma_profile_cvt(smma_profile_cuda());

    c.sat = false;
    return smma_encode(f, v, &c);
}

/* Exact class.  Elements are 0 or +-{0.5, 1, 1.5, 2, 3, 6} (lsb 2^-1, below
 * 2^3: at most 12 units of 2^-1); e8m0 scales are 2^t or 2^(t+1) per side
 * (ratio 2), ue4m3 scales 2^t or 1.5 * 2^t (ratio 3 in units of 2^(t-1)).
 * With 2^q the least possible product, every product is a multiple of 2^q
 * below ratio * 2^q, ratio = 12 * 12 * rs_a * rs_b; each row of A has at most
 * R = (2^13 - 2^10) / ratio non-zero elements, and C is a multiple of 2^q
 * below 2^(q + 10).  So every partial sum is a multiple of 2^q below
 * 2^(q + 13).  t is chosen per side so that q lies in [-40, 10]. */
static int
generate_exact(const smma_gemm_shape *s, smma_rng *r, smma_gemm_data *g, smma_error *err)
{
    static const double vals[6] = { 0.5, 1, 1.5, 2, 3, 6 };
    size_t kb = smma_gemm_kblocks(s), i, j, kk;
    int ta, tb, q, rs = 1;
    unsigned ratio, R;

    if (s->d_fmt != SMMA_FP32)
        return smma_error_set(err, SMMA_EINVAL,
                              "the exact class needs fp32 D (rounding to a narrower D differs "
                              "between models)");
    /* Scale exponents: q = -2 + ta + tb (e8m0) or -4 + ta + tb (ue4m3). */
    if (s->scale_fmt == SMMA_UE4M3) {
        ta = (int) smma_rng_below(r, 9) - 6; /* 2^-6 .. 2^2, so 1.5 * 2^(ta) <= 6 < 448 */
        tb = (int) smma_rng_below(r, 9) - 6;
        q = -4 + ta + tb;
        rs = 3;
    } else if (s->scale_fmt == SMMA_E8M0) {
        ta = (int) smma_rng_below(r, 25) - 18;
        tb = (int) smma_rng_below(r, 25) - 18;
        q = -2 + ta + tb;
        rs = 2;
    } else {
        ta = tb = 0;
        q = -2;
    }
    ratio = 12u * 12u * (unsigned) rs * (unsigned) rs;
    R = (8192u - 1024u) / ratio;
    if (R == 0)
        R = 1;
    for (i = 0; i < s->m; i++) {
        size_t nz = 0;

        for (kk = 0; kk < s->k; kk++) {
            uint32_t code = 0;

            if (nz < R && smma_rng_below(r, s->k) < 2 * R) {
                double v = vals[smma_rng_below(r, 6)] * (smma_rng_next(r) & 1 ? -1 : 1);

                code = enc_exact(s->a_fmt, v);
                nz++;
            }
            g->a[i * s->k + kk] = code;
        }
    }
    for (j = 0; j < s->n; j++)
        for (kk = 0; kk < s->k; kk++) {
            double v = smma_rng_below(r, 8) == 0 ? 0.0 : vals[smma_rng_below(r, 6)];

            g->b[j * s->k + kk] = enc_exact(s->b_fmt, smma_rng_next(r) & 1 ? -v : v);
        }
    /* An unscaled operand's scale is 2^0: t = 0 keeps every product a
     * multiple of 2^q, with the bound above still an upper bound. */
    if (g->sa == NULL)
        ta = 0;
    if (g->sb == NULL)
        tb = 0;
    q = s->scale_fmt == SMMA_UE4M3 ? -4 + ta + tb : -2 + ta + tb;
    for (i = 0; g->sa != NULL && i < s->m * kb; i++) {
        if (s->scale_fmt == SMMA_E8M0)
            g->sa[i] = (uint32_t) (127 + ta + (int) (smma_rng_next(r) & 1));
        else
            g->sa[i] = enc_exact(SMMA_UE4M3, ldexp(smma_rng_next(r) & 1 ? 1.5 : 1.0, ta));
    }
    for (j = 0; g->sb != NULL && j < s->n * kb; j++) {
        if (s->scale_fmt == SMMA_E8M0)
            g->sb[j] = (uint32_t) (127 + tb + (int) (smma_rng_next(r) & 1));
        else
            g->sb[j] = enc_exact(SMMA_UE4M3, ldexp(smma_rng_next(r) & 1 ? 1.5 : 1.0, tb));
    }
    if (g->c != NULL)
        for (i = 0; i < s->m * s->n; i++) {
            int lim = s->c_fmt == SMMA_BF16 ? 255 : 1023;
            int v = (int) smma_rng_below(r, (uint64_t) (2 * lim + 1)) - lim;

            g->c[i] = enc_exact(s->c_fmt, ldexp((double) v, q));
        }
    return SMMA_OK;
}

int
smma_gemm_generate(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                   smma_gemm_data *g, smma_error *err)
{
    return smma_gemm_generate_opts(s, cls, seed, NULL, g, err);
}

int
smma_gemm_generate_opts(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                        const smma_gemm_gen_opts *opts, smma_gemm_data *g, smma_error *err)
{
    size_t kb = smma_gemm_kblocks(s), i;
    size_t kba = opts != NULL && opts->unscaled_a ? 0 : kb;
    size_t kbb = opts != NULL && opts->unscaled_b ? 0 : kb;
    smma_rng r;
    int rc = smma_gemm_shape_check(s, err);

    memset(g, 0, sizeof(*g));
    if (rc != SMMA_OK)
        return rc;
    g->a = malloc(s->m * s->k * sizeof(uint32_t));
    g->b = malloc(s->n * s->k * sizeof(uint32_t));
    if (kba > 0)
        g->sa = malloc(s->m * kba * sizeof(uint32_t));
    if (kbb > 0)
        g->sb = malloc(s->n * kbb * sizeof(uint32_t));
    if (s->c_fmt != SMMA_NONE)
        g->c = malloc(s->m * s->n * sizeof(uint32_t));
    if (g->a == NULL || g->b == NULL || (kba > 0 && g->sa == NULL) ||
        (kbb > 0 && g->sb == NULL) || (s->c_fmt != SMMA_NONE && g->c == NULL)) {
        smma_gemm_data_free(g);
        return smma_error_set(err, SMMA_ENOMEM, "out of memory for a %zux%zux%zu problem",
                              s->m, s->n, s->k);
    }
    smma_rng_seed(&r, seed);
    if (cls == SMMA_CLASS_EXACT) {
        rc = generate_exact(s, &r, g, err);
        if (rc != SMMA_OK)
            smma_gemm_data_free(g);
        return rc;
    }
    for (i = 0; i < s->m * s->k; i++)
        g->a[i] = random_code(&r, s->a_fmt);
    for (i = 0; i < s->n * s->k; i++)
        g->b[i] = random_code(&r, s->b_fmt);
    for (i = 0; i < s->m * kba; i++)
        g->sa[i] = random_scale(&r, s->scale_fmt);
    for (i = 0; i < s->n * kbb; i++)
        g->sb[i] = random_scale(&r, s->scale_fmt);
    if (g->c != NULL)
        for (i = 0; i < s->m * s->n; i++)
            g->c[i] = random_code(&r, s->c_fmt);
    return SMMA_OK;
}

void
smma_gemm_data_free(smma_gemm_data *g)
{
    free(g->a);
    free(g->b);
    free(g->sa);
    free(g->sb);
    free(g->c);
    memset(g, 0, sizeof(*g));
}

smma_gemm_operands
smma_gemm_data_operands(const smma_gemm_shape *s, const smma_gemm_data *g)
{
    smma_gemm_operands op;

    op.a = g->a;
    op.lda = s->k;
    op.a_kmajor = true;
    op.b = g->b;
    op.ldb = s->k;
    op.b_kmajor = true;
    op.sa = g->sa;
    op.sb = g->sb;
    op.c = g->c;
    return op;
}
