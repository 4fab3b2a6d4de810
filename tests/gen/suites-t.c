/*
 * tests/gen/suites-t.c - the suite generators as a library (softmma/suites.h),
 * used directly, without the softmma program.
 *
 *   - the list: smma_suite_at walks exactly smma_suite_count suites with
 *     unique names and stops past the end; smma_suite_find returns the
 *     suite with its parameters, and refuses an unknown name (or none)
 *     with a message that names it;
 *   - which suites are committed: decode.e2m1 is, encode.e4m3.rz.ocp (a
 *     rounding that is neither cuda's nor ocp's own) is not;
 *   - a gemm suite generated into memory is read back with the vector
 *     reader: the header (suite, generator command, model, fields) and
 *     every case, whose D is computed again here with smma_gemm from the
 *     blocks as doc/vectors.md lays them out; the same arguments give the
 *     same bytes, another seed other bytes, a level of 3 is refused;
 *   - the amax points of mxfp8 (e4m3) at k = 0, worked out by hand, and
 *     the random blocks: a function of the state, which they advance.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>
#include <softmma/suites.h>
#include <softmma/vectors.h>

#include "tap/basic.h"

static int
cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static void
check_list(void)
{
    size_t n = smma_suite_count(), i, bad = 0, ngemm = 0;
    smma_suite s, t;
    smma_error err;
    char **names = calloc(n, sizeof(*names));

    if (names == NULL)
        sysbail("no memory");
    for (i = 0; i < n; i++) {
        if (!smma_suite_at(i, &s))
            bail("smma_suite_at(%zu) is past the end of %zu", i, n);
        names[i] = strdup(s.name);
        if (names[i] == NULL)
            sysbail("no memory");
        /* Every name is found again as the same suite. */
        if (smma_suite_find(s.name, &t, &err) != SMMA_OK || memcmp(&s, &t, sizeof(s)) != 0)
            bad++;
        ngemm += s.family == SMMA_SUITE_GEMM;
    }
    ok(n > 1000 && bad == 0, "smma_suite_at walks %zu suites, each found by its name", n);
    ok(!smma_suite_at(n, &s) && s.name[0] == '\0', "smma_suite_at(count) is past the end");
    qsort(names, n, sizeof(*names), cmp_name);
    for (i = 0; i + 1 < n && strcmp(names[i], names[i + 1]) != 0; i++)
        ;
    ok(i + 1 == n, "the names are unique");
    ok(ngemm >= 35, "%zu gemm suites", ngemm);
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);

    ok(smma_suite_find("gemm.mxfp4.exact", &s, &err) == SMMA_OK &&
           s.family == SMMA_SUITE_GEMM && s.exact && s.model == NULL &&
           strcmp(s.name, "gemm.mxfp4.exact") == 0,
       "gemm.mxfp4.exact: the exact class, no model");
    ok(smma_suite_find("gemm.nvfp4.model.b200-fp8", &s, &err) == SMMA_OK && !s.exact &&
           s.model != NULL && strcmp(s.model->name, "b200-fp8") == 0,
       "gemm.nvfp4.model.b200-fp8: its model");
    ok(smma_suite_find("decode.e2m1", &s, &err) == SMMA_OK && s.family == SMMA_SUITE_DECODE &&
           s.fmt == SMMA_E2M1 && smma_suite_committed(&s),
       "decode.e2m1: format e2m1, committed");
    ok(smma_suite_find("encode.e4m3.rz.ocp", &s, &err) == SMMA_OK &&
           s.family == SMMA_SUITE_ENCODE && s.round == SMMA_RZ &&
           strcmp(s.profile->name, "ocp") == 0 && !smma_suite_committed(&s),
       "encode.e4m3.rz.ocp: rounding rz, profile ocp, not committed");
    memset(err.msg, 0, sizeof(err.msg));
    ok(smma_suite_find("gemm.nope.exact", &s, &err) == SMMA_EINVAL &&
           strstr(err.msg, "'gemm.nope.exact'") != NULL,
       "an unknown name is refused by name (%s)", err.msg);
    ok(smma_suite_find("gemm.mxfp4.exac", &s, &err) == SMMA_EINVAL &&
           strstr(err.msg, "gemm.mxfp4.exac'") != NULL,
       "a prefix of a name is no name (%s)", err.msg);
    ok(smma_suite_find(NULL, &s, &err) == SMMA_EINVAL && err.msg[0] != '\0',
       "no name is refused (%s)", err.msg);
}

/* Generates a suite into memory; bails on failure. */
static char *
generate(const char *name, unsigned level, uint64_t seed, size_t *len)
{
    smma_suite s;
    smma_vec_writer *w;
    smma_error err;
    const char *text;
    char *copy;

    if (smma_suite_find(name, &s, &err) != SMMA_OK ||
        smma_suite_generate(&s, level, seed, &w, &err) != SMMA_OK ||
        smma_vec_finish(w, &text, len, &err) != SMMA_OK)
        bail("%s: %s", name, err.msg);
    copy = malloc(*len);
    if (copy == NULL)
        sysbail("no memory");
    memcpy(copy, text, *len);
    smma_vec_writer_free(w);
    return copy;
}

/* The values of a block as 32-bit codes. */
static uint32_t *
codes(const smma_vec_header *h, const smma_vec_case *c, const char *name, size_t *rows,
      size_t *cols)
{
    int fi = smma_vec_field_index(h, name);
    const smma_vec_block *b;
    uint32_t *v;
    size_t i;

    if (fi < 0 || !h->fields[fi].block)
        bail("%s: no block %s", h->suite, name);
    b = &c->blocks[fi];
    v = malloc(b->rows * b->cols * sizeof(*v));
    if (v == NULL)
        sysbail("no memory");
    for (i = 0; i < b->rows * b->cols; i++)
        v[i] = (uint32_t) b->v[i];
    *rows = b->rows;
    *cols = b->cols;
    return v;
}

/* D of one case of an mxfp4 gemm suite, computed again: a m x k and b k x n
 * row-major, sa m x kb, sb kb x n (smma_gemm wants SB as n x kb). */
static long
recompute(const smma_vec_header *h, const smma_vec_case *c, const smma_model *model)
{
    size_t m, k, k2, n, kb, kb2, n2, i, j, r, cc;
    uint32_t *a = codes(h, c, "a", &m, &k), *b = codes(h, c, "b", &k2, &n);
    uint32_t *sa = codes(h, c, "sa", &r, &kb), *sbt = codes(h, c, "sb", &kb2, &n2);
    uint32_t *cm = codes(h, c, "c", &r, &cc), *d = codes(h, c, "d", &r, &cc);
    uint32_t *sb = malloc(n * kb * sizeof(*sb)), *dd = malloc(m * n * sizeof(*dd));
    smma_gemm_shape sh;
    smma_gemm_operands op;
    smma_error err;
    long bad = 0;

    if (sb == NULL || dd == NULL)
        sysbail("no memory");
    if (k2 != k || kb2 != kb || n2 != n || kb != (k + 31) / 32)
        bail("%s case %llu: block sizes do not fit", h->suite, (unsigned long long) c->index);
    for (i = 0; i < kb; i++)
        for (j = 0; j < n; j++)
            sb[j * kb + i] = sbt[i * n + j];
    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = sh.b_fmt = SMMA_E2M1;
    sh.scale_fmt = SMMA_E8M0;
    sh.vec = 32;
    sh.c_fmt = sh.d_fmt = SMMA_FP32;
    sh.m = m;
    sh.n = n;
    sh.k = k;
    op.a = a;
    op.lda = k;
    op.a_kmajor = true;
    op.b = b;
    op.ldb = n;
    op.b_kmajor = false;
    op.sa = sa;
    op.sb = sb;
    op.c = cm;
    if (smma_gemm(model, &sh, &op, dd, &err) != SMMA_OK)
        bail("smma_gemm: %s", err.msg);
    for (i = 0; i < m * n; i++)
        bad += dd[i] != d[i];
    free(a);
    free(b);
    free(sa);
    free(sbt);
    free(sb);
    free(cm);
    free(d);
    free(dd);
    return bad;
}

static void
check_generate(void)
{
    const char *name = "gemm.mxfp4.model.exact-rn";
    size_t len, len2, len3, ncases = 0;
    char *text = generate(name, 1, 1, &len), *again = generate(name, 1, 1, &len2);
    char *other = generate(name, 1, 2, &len3);
    const smma_vec_header *h;
    const smma_vec_case *c;
    const smma_model *model = tap_model("exact-rn");
    smma_vec_reader *r;
    smma_vec_writer *w = NULL;
    smma_suite s;
    smma_error err;
    long bad = 0;
    int rc;

    ok(len == len2 && memcmp(text, again, len) == 0, "%s: the same arguments, the same bytes",
       name);
    ok(len != len3 || memcmp(text, other, len) != 0, "%s: seed 2 gives other bytes", name);
    if (smma_vec_open_mem(text, len, name, &r, &err) != SMMA_OK)
        bail("%s", err.msg);
    h = smma_vec_header_of(r);
    is_string(name, h->suite, "the header names the suite");
    is_string("softmma gen gemm.mxfp4.model.exact-rn --level 1 --seed 1", h->generator,
              "the header holds the command that makes it");
    is_string("exact-rn", h->model, "the header names the model");
    ok(h->nfields == 9 && smma_vec_field_index(h, "sa") >= 0 &&
           h->fields[smma_vec_field_index(h, "d")].out &&
           h->fields[smma_vec_field_index(h, "a")].type == SMMA_VT_E2M1,
       "fields m n k a b sa sb c d, a e2m1, d an output");
    while ((rc = smma_vec_next(r, &c, &err)) == SMMA_OK && c != NULL) {
        bad += recompute(h, c, model);
        ncases++;
    }
    ok(rc == SMMA_OK && ncases == h->cases && ncases >= 2,
       "every case is read back (%zu)", ncases);
    ok(bad == 0, "D of every case equals smma_gemm of its blocks (%ld differ)", bad);
    smma_vec_close(r);
    free(text);
    free(again);
    free(other);

    smma_suite_find(name, &s, NULL);
    rc = smma_suite_generate(&s, 3, 1, &w, &err);
    ok(rc == SMMA_EINVAL && w == NULL && strstr(err.msg, "level 3") != NULL,
       "level 3 is refused (%s)", err.msg);
}

static void
check_helpers(void)
{
    const smma_block_format_desc *bd = smma_block_format_info(SMMA_MXFP8_E4M3);
    double pts[5];
    uint64_t s1 = 7, s2 = 7;
    uint32_t x1[32], x2[32];
    unsigned i, nz = 0;

    /* e4m3: max 448 = 1.75 * 2^8, a step of 2^(8-3) = 32 at the top, so
     * elements saturate from 448 + 16 = 464; EVEN rounds amax to 4 bits:
     * 2 - 2^-4 = 1.9375; 1.5 * 448 = 672. */
    smma_suite_amax_points(bd, 0, pts);
    ok(pts[0] == 1 && pts[1] == 448 && pts[2] == 464 && pts[3] == 1.9375 && pts[4] == 672,
       "mxfp8 amax points at k = 0: 1 448 464 1.9375 672");
    smma_suite_amax_points(bd, -3, pts);
    ok(pts[0] == 0.125 && pts[1] == 56 && pts[4] == 84, "at k = -3 they scale by 2^-3");
    memset(x1, 0, sizeof(x1));
    memset(x2, 0, sizeof(x2));
    smma_suite_random_block(&s1, 32, x1);
    smma_suite_random_block(&s2, 32, x2);
    for (i = 0; i < 32; i++)
        nz += x1[i] != 0;
    ok(memcmp(x1, x2, sizeof(x1)) == 0 && s1 == s2 && s1 != 7 && nz >= 1,
       "a random block is a function of the state, which it advances (%u non-zero)", nz);
    memset(x1, 0, sizeof(x1));
    smma_suite_random_block(&s1, 32, x1);
    ok(memcmp(x1, x2, sizeof(x1)) != 0, "the next block differs");
}

int
main(void)
{
    plan_lazy();
    check_list();
    check_generate();
    check_helpers();
    return exit_status();
}
