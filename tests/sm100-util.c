/*
 * tests/sm100-util.c - the shared helpers of the sm_100 kernel tests
 * (sm100-util.h).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>

#include <softmma/wgmma_addr.h>

#include "sm100-util.h"
#include "tap/basic.h"

void *
t100_calloc(size_t n, size_t size)
{
    void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);

    if (p == NULL)
        sysbail("out of memory");
    return p;
}

void
t100_prob_free(t100_prob *p)
{
    free(p->a);
    free(p->b);
    free(p->sa);
    free(p->sb);
    free(p->c);
    free(p->ga);
    free(p->gb);
    free(p->gsa);
    free(p->gsb);
    free(p->gc);
    memset(p, 0, sizeof(*p));
}

/* One operand (rows x k codes) in the storage of softmma/gpu.h, ld
 * elements per row, the gap after k filled with 0xa5. */
static uint8_t *
store_operand(const uint32_t *codes, size_t rows, size_t k, size_t ld, smma_format f,
              size_t *bytes)
{
    size_t bytes_ld = f == SMMA_E2M1 ? ld / 2 : f == SMMA_BF16 ? 2 * ld : ld, i, kk;
    uint8_t *g;

    *bytes = rows * bytes_ld;
    g = t100_calloc(*bytes, 1);
    memset(g, 0xa5, *bytes);
    for (i = 0; i < rows; i++) {
        uint8_t *row = g + i * bytes_ld;

        for (kk = 0; kk < k; kk++) {
            if (f == SMMA_BF16) {
                row[2 * kk] = (uint8_t) codes[i * k + kk];
                row[2 * kk + 1] = (uint8_t) (codes[i * k + kk] >> 8);
            } else if (f != SMMA_E2M1) {
                row[kk] = (uint8_t) codes[i * k + kk];
            } else if (kk % 2 == 0) {
                row[kk / 2] = (uint8_t) (codes[i * k + kk] & 0xF);
            } else {
                row[kk / 2] |= (uint8_t) ((codes[i * k + kk] & 0xF) << 4);
            }
        }
    }
    return g;
}

static uint8_t *
store_scales(const t100_prob *p, const uint32_t *codes, size_t rows, size_t *bytes)
{
    size_t kb = smma_gemm_kblocks(&p->s), i;
    uint8_t *lin = t100_calloc(rows * kb, 1), *out;
    smma_error err;

    for (i = 0; i < rows * kb; i++)
        lin[i] = (uint8_t) codes[i];
    if (smma_scale_layout_size(p->layout, rows, p->s.k, p->s.vec, bytes, &err) != SMMA_OK)
        bail("scale layout size: %s", err.msg);
    out = t100_calloc(*bytes, 1);
    if (smma_scale_pack(p->layout, rows, p->s.k, p->s.vec, lin, out,
                        p->s.scale_fmt == SMMA_E8M0 ? 0xff : 0x7f, &err) != SMMA_OK)
        bail("scale pack: %s", err.msg);
    free(lin);
    return out;
}

void
t100_prob_store(t100_prob *p)
{
    size_t m = p->s.m, n = p->s.n, k = p->s.k, i;
    unsigned align = p->s.a_fmt == SMMA_E2M1 || p->s.b_fmt == SMMA_E2M1 ? 32 : 16;

    /* Stored again after the codes changed: the old buffers go. */
    free(p->ga);
    free(p->gb);
    free(p->gsa);
    free(p->gsb);
    free(p->gc);
    p->gc = NULL;
    p->lda = (k + 8 + align - 1) / align * align;
    p->ldb = p->lda;
    p->ga = store_operand(p->a, m, k, p->lda, p->s.a_fmt, &p->ga_bytes);
    p->gb = store_operand(p->b, n, k, p->ldb, p->s.b_fmt, &p->gb_bytes);
    p->gsa = store_scales(p, p->sa, m, &p->gsa_bytes);
    p->gsb = store_scales(p, p->sb, n, &p->gsb_bytes);
    if (p->s.c_fmt != SMMA_NONE) {
        p->gc = t100_calloc(m * n, sizeof(uint32_t));
        for (i = 0; i < m * n; i++)
            p->gc[i] = p->c[i];
    }
}

void
t100_prob_generate(t100_prob *p, const smma_gemm_shape *s, smma_scale_layout layout,
                   smma_input_class cls, uint64_t seed)
{
    smma_gemm_data d;
    smma_error err;

    memset(p, 0, sizeof(*p));
    p->s = *s;
    p->layout = layout;
    if (smma_gemm_generate(s, cls, seed, &d, &err) != SMMA_OK)
        bail("smma_gemm_generate: %s", err.msg);
    p->a = d.a;
    p->b = d.b;
    p->sa = d.sa;
    p->sb = d.sb;
    p->c = d.c;
    t100_prob_store(p);
}

smma_gpu_gemm_args
t100_prob_args(const t100_prob *p)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape = p->s;
    a.a = p->ga;
    a.lda = p->lda;
    a.a_kmajor = true;
    a.b = p->gb;
    a.ldb = p->ldb;
    a.b_kmajor = true;
    a.sa = p->gsa;
    a.sb = p->gsb;
    a.scale_layout = p->layout;
    a.c = p->gc;
    a.ldc = p->s.n;
    a.ldd = p->s.n;
    return a;
}

static smma_cvt
cvt_rn(void)
{
    smma_cvt c = smma_cvt_default();

    c.round = SMMA_RN;
    c.sat = false;
    return c;
}

uint32_t
t100_epilogue(smma_format d_fmt, bool has_alpha, uint32_t alpha, uint32_t acc)
{
    smma_cvt c = cvt_rn();
    uint32_t x = acc;

    if (has_alpha) {
        /* The product of two fp32 is exact in double; one rounding. */
        double v = (double) smma_f32_from_bits(alpha) * (double) smma_f32_from_bits(acc);

        x = v != v ? 0x7fffffffu : smma_encode(SMMA_FP32, v, &c);
    }
    if (d_fmt == SMMA_FP32)
        return x;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return smma_encode_f32bits(d_fmt, x, &c);
}

uint32_t *
t100_expected(const t100_prob *p)
{
    return t100_expected_under(p, "b200-fp8");
}

uint32_t *
t100_expected_under(const t100_prob *p, const char *model)
{
    smma_gemm_shape s = p->s;
    smma_gemm_operands op;
    smma_gemm_data d;
    smma_error err;
    uint32_t *want = t100_calloc(s.m * s.n, sizeof(uint32_t));
    size_t i;

    d.a = p->a;
    d.b = p->b;
    d.sa = p->sa;
    d.sb = p->sb;
    d.c = p->c;
    op = smma_gemm_data_operands(&s, &d);
    s.has_alpha = false;
    if (p->s.has_alpha)
        s.d_fmt = SMMA_FP32;
    if (smma_gemm(tap_model(model), &s, &op, want, &err) != SMMA_OK)
        bail("smma_gemm: %s", err.msg);
    if (p->s.has_alpha)
        for (i = 0; i < s.m * s.n; i++)
            want[i] = t100_epilogue(p->s.d_fmt, true, p->s.alpha, want[i]);
    return want;
}

uint32_t
t100_c_bits(const t100_prob *p, size_t i, size_t j)
{
    uint32_t v = p->gc[i * p->s.n + j];
    smma_cvt c = cvt_rn();

    if (p->s.c_fmt == SMMA_FP32)
        return v;
    return smma_encode(SMMA_FP32, smma_decode(p->s.c_fmt, v), &c);
}

void
t100_prepare(const smma_sm100_plan *p, const t100_prob *pr, t100_kin *in)
{
    const uint8_t *src[2] = { pr->ga, pr->gb }, *ssrc[2] = { pr->gsa, pr->gsb };
    size_t sbytes[2] = { pr->ga_bytes, pr->gb_bytes };
    size_t ssbytes[2] = { pr->gsa_bytes, pr->gsb_bytes };
    uint32_t rows[2] = { p->m, p->n }, rpad[2] = { p->a_rows_pad, p->b_rows_pad };
    uint32_t expand[2] = { p->a_expand, p->b_expand };
    uint64_t ld[2] = { p->a_ld, p->b_ld }, sld[2] = { p->a_src_ld, p->b_src_ld };
    const uint8_t **dst[4] = { &in->a, &in->b, &in->sfa, &in->sfb };
    size_t *dbytes[4] = { &in->a_bytes, &in->b_bytes, &in->sfa_bytes, &in->sfb_bytes };
    unsigned w;

    memset(in, 0, sizeof(*in));
    for (w = 0; w < 2; w++) {
        if (expand[w]) {
            uint64_t r, kk;
            uint8_t *x;

            *dbytes[w] = (size_t) (rows[w] * ld[w]);
            x = t100_calloc(*dbytes[w], 1);
            for (r = 0; r < rows[w]; r++)
                for (kk = 0; kk < p->k; kk++)
                    x[r * ld[w] + kk] = (uint8_t) smma_sm100_fp4_container(
                        src[w][r * sld[w] + kk / 2], (uint32_t) kk);
            in->own[w] = x;
            *dst[w] = x;
        } else {
            *dst[w] = src[w];
            *dbytes[w] = sbytes[w];
        }
        if (p->sf_linear) {
            uint64_t o, s;
            uint8_t *x;

            *dbytes[2 + w] = (size_t) rpad[w] * p->kb_pad;
            x = t100_calloc(*dbytes[2 + w], 1);
            for (o = 0; o < *dbytes[2 + w]; o++)
                x[o] = smma_sm100_sf_linear_src(p, rows[w], o, &s) ? ssrc[w][s]
                                                                   : (uint8_t) p->sf_one;
            in->own[2 + w] = x;
            *dst[2 + w] = x;
        } else {
            *dst[2 + w] = ssrc[w];
            *dbytes[2 + w] = ssbytes[w];
        }
    }
}

void
t100_kin_free(t100_kin *in)
{
    unsigned i;

    for (i = 0; i < 4; i++)
        free(in->own[i]);
    memset(in, 0, sizeof(*in));
}

void
t100_stage_image(const smma_sm100_plan *p, const t100_kin *in, uint32_t m0, uint32_t n0,
                 uint32_t kit, uint8_t *stage)
{
    t100_stage_image_cta(p, in, 0, m0, n0, kit, stage);
}

void
t100_stage_image_cta(const smma_sm100_plan *p, const t100_kin *in, uint32_t rank, uint32_t m0,
                     uint32_t n0, uint32_t kit, uint8_t *stage)
{
    const uint8_t *bufs[4] = { in->a, in->b, in->sfa, in->sfb };
    uint32_t j, nch = smma_sm100_nchunks(p), off, valid, b, i, val;
    uint64_t goff;
    unsigned buf;

    memset(stage, 0xee, p->pipe.stage_bytes);
    for (j = 0; j < nch; j++) {
        smma_sm100_chunk_cta(p, rank, m0, n0, kit, j, &buf, &off, &goff, &valid);
        for (b = 0; b < 16; b++)
            stage[off + b] = b < valid ? bufs[buf][goff + b] : 0;
    }
    for (i = 0; i < smma_sm100_fix_count(p, kit); i++) {
        smma_sm100_fix_item(p, kit, i, &off, &val);
        stage[off] = (uint8_t) val;
    }
}

const t100_combo t100_combos[] = {
    { "mxfp8 e4m3 x e4m3", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32 },
    { "mxfp8 e5m2 x e4m3", SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32 },
    { "mxfp6 e2m3 x e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32 },
    { "mxfp6 e3m2 x e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32 },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32 },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16 },
    { "mxfp8 x mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32 },
    { "mxfp4 x mxfp6 e3m2", SMMA_E2M1, SMMA_E3M2, SMMA_E8M0, 32 },
};
const size_t t100_ncombos = sizeof(t100_combos) / sizeof(t100_combos[0]);

smma_gemm_shape
t100_shape(const t100_combo *co, size_t m, size_t n, size_t k, smma_format c, smma_format d,
           bool has_alpha)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = co->a;
    s.b_fmt = co->b;
    s.scale_fmt = co->scale;
    s.vec = co->vec;
    s.c_fmt = c;
    s.d_fmt = d;
    s.m = m;
    s.n = n;
    s.k = k;
    s.has_alpha = has_alpha;
    s.alpha = 0x3fa00000u; /* 1.25 */
    return s;
}

const t100_gen t100_gens[] = {
    { 128, 64, 256, SMMA_NONE, SMMA_FP32, false, SMMA_CLASS_EXACT },
    { 150, 40, 200, SMMA_FP32, SMMA_FP32, false, SMMA_CLASS_EXACT },
    { 20, 260, 72, SMMA_BF16, SMMA_BF16, true, SMMA_CLASS_RANDOM },
    { 130, 100, 40, SMMA_FP16, SMMA_FP16, false, SMMA_CLASS_RANDOM },
    { 70, 129, 264, SMMA_FP32, SMMA_BF16, true, SMMA_CLASS_RANDOM },
};
const size_t t100_ngens = sizeof(t100_gens) / sizeof(t100_gens[0]);

void
t100_gen_problem(t100_prob *p, size_t ci, const t100_gen *g, smma_scale_layout layout,
                 uint64_t seed, char *what, size_t len)
{
    smma_gemm_shape s = t100_shape(&t100_combos[ci], g->m, g->n, g->k, g->c, g->d, g->alpha);

    t100_prob_generate(p, &s, layout, g->cls, seed);
    snprintf(what, len, "%s %zux%zux%zu %s C %s D %s%s, %s scales", t100_combos[ci].name,
             g->m, g->n, g->k, g->cls == SMMA_CLASS_EXACT ? "exact" : "random",
             g->c == SMMA_NONE ? "none" : smma_format_name(g->c), smma_format_name(g->d),
             g->alpha ? " alpha 1.25" : "", smma_scale_layout_name(layout));
}

static uint64_t
scalar(const smma_vec_header *h, const smma_vec_case *c, const char *name, uint64_t dflt)
{
    int i = smma_vec_field_index(h, name);

    return i < 0 || h->fields[i].block ? dflt : c->scalars[h->fields[i].offset];
}

static const smma_vec_block *
block(const smma_vec_header *h, const smma_vec_case *c, const char *name)
{
    int i = smma_vec_field_index(h, name);

    return i < 0 || !h->fields[i].block ? NULL : &c->blocks[i];
}

bool
t100_prob_from_case(t100_prob *p, const smma_vec_header *h, const smma_vec_case *c,
                    smma_scale_layout layout, uint32_t **want, char *why, size_t len)
{
    const smma_vec_block *ba = block(h, c, "a"), *bb = block(h, c, "b");
    const smma_vec_block *bsa = block(h, c, "sa"), *bsb = block(h, c, "sb");
    const smma_vec_block *bc = block(h, c, "c"), *bd = block(h, c, "d");
    static const smma_format dfmts[3] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };
    uint64_t dcode = scalar(h, c, "d_fmt", 0);
    size_t m, n, k, kb, i, j;

    memset(p, 0, sizeof(*p));
    *want = NULL;
    /* A bf16 A has no scales (bf16 x MXFP4, bf16 x MXFP8): every scale is
     * 1 (e8m0 0x7f). */
    if (ba == NULL || bb == NULL || bsb == NULL || bd == NULL
        || (bsa == NULL && smma_vec_type_format(h->fields[smma_vec_field_index(h, "a")].type)
                           != SMMA_BF16)) {
        snprintf(why, len, "no blocks a, b, sa, sb and d");
        return false;
    }
    m = (size_t) scalar(h, c, "m", 0);
    n = (size_t) scalar(h, c, "n", 0);
    k = (size_t) scalar(h, c, "k", 0);
    p->layout = layout;
    p->s.a_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "a")].type);
    p->s.b_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "b")].type);
    p->s.scale_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "sb")].type);
    p->s.vec = p->s.scale_fmt == SMMA_UE4M3 ? 16 : 32;
    p->s.m = m;
    p->s.n = n;
    p->s.k = k;
    p->s.c_fmt = bc != NULL && scalar(h, c, "has_c", 1) ? SMMA_FP32 : SMMA_NONE;
    if (dcode > 2) { /* the kernel suites' d_fmt: 0 fp32, 1 bf16, 2 fp16 (gen/kernel.c) */
        snprintf(why, len, "d_fmt %llu is not 0, 1 or 2", (unsigned long long) dcode);
        return false;
    }
    p->s.d_fmt = dfmts[dcode];
    p->s.has_alpha = smma_vec_field_index(h, "alpha") >= 0;
    p->s.alpha = (uint32_t) scalar(h, c, "alpha", 0x3f800000u);
    kb = smma_gemm_kblocks(&p->s);
    if (m == 0 || n == 0 || k == 0 || ba->rows != m || ba->cols != k || bb->rows != k
        || bb->cols != n || (bsa != NULL && (bsa->rows != m || bsa->cols != kb))
        || bsb->rows != kb
        || bsb->cols != n || bd->rows != m || bd->cols != n
        || (bc != NULL && (bc->rows != m || bc->cols != n))) {
        snprintf(why, len, "block sizes do not match m %zu n %zu k %zu", m, n, k);
        return false;
    }
    p->a = t100_calloc(m * k, sizeof(uint32_t));
    p->b = t100_calloc(n * k, sizeof(uint32_t));
    p->sa = t100_calloc(m * kb, sizeof(uint32_t));
    p->sb = t100_calloc(n * kb, sizeof(uint32_t));
    p->c = t100_calloc(m * n, sizeof(uint32_t));
    for (i = 0; i < m * k; i++)
        p->a[i] = (uint32_t) ba->v[i];
    for (i = 0; i < k; i++)
        for (j = 0; j < n; j++)
            p->b[j * k + i] = (uint32_t) bb->v[i * n + j];
    for (i = 0; i < m * kb; i++)
        p->sa[i] = bsa != NULL ? (uint32_t) bsa->v[i] : 0x7fu;
    for (i = 0; i < kb; i++)
        for (j = 0; j < n; j++)
            p->sb[j * kb + i] = (uint32_t) bsb->v[i * n + j];
    if (p->s.c_fmt != SMMA_NONE)
        for (i = 0; i < m * n; i++)
            p->c[i] = (uint32_t) bc->v[i];
    t100_prob_store(p);
    *want = t100_calloc(m * n, sizeof(uint32_t));
    for (i = 0; i < m * n; i++)
        (*want)[i] = (uint32_t) bd->v[i];
    return true;
}

void
t100_each_case(const char *name, bool optional, bool both_layouts, t100_case_fn fn, void *ctx)
{
    smma_vec_reader *r = NULL;
    const smma_vec_case *c = NULL;
    smma_error err;
    unsigned ncase = 0, l;
    char rel[256], *path;
    FILE *f;
    int rc;

    snprintf(rel, sizeof(rel), "vectors/%s.vec", name);
    path = test_file_path(rel);
    f = fopen(path, "r");
    if (f == NULL && optional) {
        skip("%s: not present (the kernel-scale suites are not generated yet)", name);
        test_file_free(path);
        return;
    }
    if (f != NULL)
        fclose(f);
    rc = smma_vec_open(path, &r, &err);
    test_file_free(path);
    if (rc != SMMA_OK) {
        ok(false, "%s: %s", name, err.msg);
        return;
    }
    while ((rc = smma_vec_next(r, &c, &err)) == SMMA_OK && c != NULL) {
        for (l = 0; l < (both_layouts ? 2u : 1u); l++) {
            smma_scale_layout layout = (both_layouts ? l : ncase % 2) ? SMMA_SL_LINEAR
                                                                      : SMMA_SL_128X4;
            t100_prob p;
            uint32_t *want;
            char what[300], why[256];

            if (!t100_prob_from_case(&p, smma_vec_header_of(r), c, layout, &want, why,
                                     sizeof(why))) {
                ok(false, "%s case %u: %s", name, ncase, why);
                t100_prob_free(&p);
                break;
            }
            snprintf(what, sizeof(what), "%s case %u (%zux%zux%zu, %s scales)", name, ncase,
                     p.s.m, p.s.n, p.s.k, smma_scale_layout_name(layout));
            fn(&p, want, what, ncase, ctx);
            free(want);
            t100_prob_free(&p);
        }
        ncase++;
    }
    if (rc != SMMA_OK)
        ok(false, "%s: %s", name, err.msg);
    else
        ok(ncase > 0, "%s: %u cases read", name, ncase);
    smma_vec_close(r);
}

void
t100_each_suite_case(bool both_layouts, t100_case_fn fn, void *ctx)
{
    static const char *const combos[] = {
        "mxfp8", "mxfp6e2m3", "mxfp6e3m2", "mxfp4", "nvfp4", "mxfp8-mxfp4",
    };
    static const char *const kinds[] = {
        "exact", "model.b200-fp8", "kernel.exact", "kernel.model.b200-fp8",
    };
    char name[128];
    size_t i, j;

    for (i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
        for (j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++) {
            snprintf(name, sizeof(name), "gemm.%s.%s", combos[i], kinds[j]);
            t100_each_case(name, j >= 2, both_layouts, fn, ctx);
        }
}

long
t100_diff_run(const t100_prob *p, t100_run_fn run, void *ctx, const uint32_t *want,
              const char *what)
{
    smma_error err;
    size_t i, mn = p->s.m * p->s.n;
    uint32_t *d = t100_calloc(mn, sizeof(uint32_t));
    long bad = 0;

    for (i = 0; i < mn; i++)
        d[i] = 0xdeadbeefu;
    if (run(ctx, d, &err) != SMMA_OK) {
        diag("%s: the simulator refused the plan: %s", what, err.msg);
        free(d);
        return -1;
    }
    for (i = 0; i < mn; i++)
        if (d[i] != want[i] && bad++ < 5)
            diag("%s: D[%zu][%zu] = 0x%08lx, want 0x%08lx", what, i / p->s.n, i % p->s.n,
                 (unsigned long) d[i], (unsigned long) want[i]);
    free(d);
    return bad;
}

void
t100_sm90_tile_init(const t100_prob *p, uint32_t *acc, unsigned regs, uint32_t m0, uint32_t n0,
                    uint32_t fill)
{
    unsigned wg, t, r, row, col;

    for (wg = 0; wg < 2; wg++)
        for (t = 0; t < 128; t++)
            for (r = 0; r < regs; r++) {
                smma_wgmma_d_cell(t, r, &row, &col);
                row += 64 * wg;
                acc[(wg * 128 + t) * regs + r] =
                    p->s.c_fmt != SMMA_NONE && m0 + row < p->s.m && n0 + col < p->s.n
                    ? t100_c_bits(p, m0 + row, n0 + col) : fill;
            }
}

void
t100_sm90_tile_store(const t100_prob *p, uint32_t *d, const uint32_t *acc, unsigned regs,
                     uint32_t m0, uint32_t n0)
{
    unsigned wg, t, r, row, col;

    for (wg = 0; wg < 2; wg++)
        for (t = 0; t < 128; t++)
            for (r = 0; r < regs; r++) {
                smma_wgmma_d_cell(t, r, &row, &col);
                row += 64 * wg;
                if (m0 + row < p->s.m && n0 + col < p->s.n)
                    d[(size_t) (m0 + row) * p->s.n + n0 + col] =
                        t100_epilogue(p->s.d_fmt, p->s.has_alpha, p->s.alpha,
                                      acc[(wg * 128 + t) * regs + r]);
            }
}

/* The width class of an operand's format: "bf16", "fp16" or its bits. */
static const char *
width_class(smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);

    if (f == SMMA_BF16 || f == SMMA_FP16 || d == NULL)
        return smma_format_name(f);
    return d->bits == 8 ? "8" : d->bits == 6 ? "6" : d->bits == 4 ? "4" : "?";
}

void
t100_pair_class(const smma_gemm_shape *s, char *out, size_t len)
{
    snprintf(out, len, "%sx%s %s/%u", width_class(s->a_fmt), width_class(s->b_fmt),
             s->scale_fmt == SMMA_NONE ? "none" : smma_format_name(s->scale_fmt), s->vec);
}

bool
t100_sample(const char *kernel, const smma_gemm_shape *s, smma_scale_layout layout,
            unsigned bm, unsigned bn, unsigned bk, const char *what)
{
    char cls[200], pair[100];

    t100_pair_class(s, pair, sizeof(pair));
    snprintf(cls, sizeof(cls), "%s %s %s ragged %d%d%d", kernel, pair,
             smma_scale_layout_name(layout), s->m % bm != 0, s->n % bn != 0, s->k % bk != 0);
    return sample_point(cls, what);
}

unsigned
t100_part(size_t size, uint32_t origin, unsigned len)
{
    return size <= origin ? 0 : size - origin < len ? (unsigned) (size - origin) : len;
}
