/*
 * tests/gpu/kernel.c - running and checking the GEMM kernels (kernel.h).
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <softmma/sm80.h>
#include <softmma/vectors.h>

#include "kernel.h"
#include "sweep.h"
#include "tap/basic.h"

/* Patterns no kernel writes: NaNs whose payload is not the canonical one
 * (0x7fa5 is a NaN in bf16 and in fp16; 0x7ea5, once used here, is a NaN
 * in fp16 but the bf16 number 1.1e38, which D can hold). */
#define POISON32 0x7fa5a5a5u
#define POISON16 0x7fa5u
_Static_assert((POISON16 & 0x7f80u) == 0x7f80u && (POISON16 & 0x7fu) != 0 && POISON16 != 0x7fffu,
               "POISON16 is a bf16 NaN that is not the canonical one");
_Static_assert((POISON16 & 0x7c00u) == 0x7c00u && (POISON16 & 0x3ffu) != 0,
               "POISON16 is an fp16 NaN");
_Static_assert((POISON32 & 0x7f800000u) == 0x7f800000u && POISON32 != 0x7fffffffu,
               "POISON32 is an fp32 NaN that is not the canonical one");

void
kt_device_or_skip(kt_device *d)
{
    char msg[256];
    int rc = smma_gpu_info(&d->dev, msg, sizeof(msg));

    if (rc == SMMA_GPU_STATUS_ENODEV)
        skip_all("no CUDA device: %s", msg);
    if (rc != SMMA_GPU_STATUS_OK)
        bail("smma_gpu_info: %s", msg);
    d->major = d->dev.sm_major;
    d->minor = d->dev.sm_minor;
    diag("device %s, compute capability %d.%d, %d multiprocessors, clock %d MHz", d->dev.name,
         d->major, d->minor, d->dev.multiprocessors, d->dev.clock_khz / 1000);
}

/* Elements of format f in 16 bytes: rows padded to this keep every row
 * 16-byte aligned, as the fast kernels need. */
static size_t
per16(smma_format f)
{
    return f == SMMA_BF16 || f == SMMA_FP16 ? 8 : f == SMMA_E2M1 ? 32 : 16;
}

static size_t
round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Packs a rows x cols matrix of codes and copies it to a new device buffer. */
static bool
upload_matrix(smma_format f, const uint32_t *codes, size_t rows, size_t cols, size_t ld,
              void **dev, char *msg, size_t len)
{
    size_t bytes = smma_gpu_matrix_bytes(f, rows, ld);
    void *host = malloc(bytes > 0 ? bytes : 1);
    bool good = host != NULL &&
                smma_gpu_pack_matrix(f, codes, rows, cols, ld, host, msg, len) ==
                    SMMA_GPU_STATUS_OK &&
                smma_gpu_malloc(dev, bytes, msg, len) == SMMA_GPU_STATUS_OK &&
                smma_gpu_copy(*dev, host, bytes, true, msg, len) == SMMA_GPU_STATUS_OK;

    if (host == NULL)
        snprintf(msg, len, "out of memory");
    free(host);
    return good;
}

/* Stores a rows x kb scale matrix (codes) in layout l on the device.  The
 * padding of the 128x4 layout (rows past the matrix, blocks past K) holds
 * the scale format's NaN code, so that a kernel that read it as a scale
 * would make its outputs NaN: blocks past K must count as 1 (or not be read),
 * whatever the caller padded with. */
static bool
upload_scales(smma_scale_layout l, smma_format fmt, const uint32_t *codes, size_t rows, size_t k,
              unsigned vec, unsigned offset, void **dev, char *msg, size_t len)
{
    const uint8_t fill = fmt == SMMA_UE4M3 ? 0x7f : 0xff;
    size_t kb = (k + vec - 1) / vec, bytes = 0, i;
    uint8_t *lin = malloc(rows * kb), *out = NULL;
    smma_error err;
    bool good = false;

    if (lin != NULL && smma_scale_layout_size(l, rows, k, vec, &bytes, &err) == SMMA_OK &&
        (out = malloc(bytes)) != NULL) {
        for (i = 0; i < rows * kb; i++)
            lin[i] = (uint8_t) codes[i];
        if (smma_scale_pack(l, rows, k, vec, lin, out, fill, &err) != SMMA_OK)
            snprintf(msg, len, "smma_scale_pack: %s", err.msg);
        else
            good = smma_gpu_malloc(dev, bytes + offset, msg, len) == SMMA_GPU_STATUS_OK &&
                   smma_gpu_copy((char *) *dev + offset, out, bytes, true, msg, len) ==
                       SMMA_GPU_STATUS_OK;
    } else
        snprintf(msg, len, "out of memory or bad scale shape");
    free(lin);
    free(out);
    return good;
}

bool
kt_run(const kt_problem *p, const kt_how *h, uint32_t *d, char *msg, size_t len)
{
    const smma_gemm_shape *s = &p->s;
    smma_gpu_gemm_args x;
    void *da = NULL, *db = NULL, *dsa = NULL, *dsb = NULL, *dc = NULL, *dd = NULL;
    uint32_t *bt = NULL, *at = NULL;
    size_t dsize = s->d_fmt == SMMA_FP32 ? 4 : 2, dbytes = round_up(s->m * s->n * dsize, 4);
    void *host = malloc(dbytes);
    bool good = false;
    size_t i, j;

    memset(&x, 0, sizeof(x));
    x.shape = *s;
    x.a_kmajor = !h->a_mmajor;
    x.lda = h->a_mmajor ? round_up(s->m, per16(s->a_fmt)) : round_up(s->k, per16(s->a_fmt));
    x.b_kmajor = h->b_kmajor;
    x.ldb = h->b_kmajor ? round_up(s->k, per16(s->b_fmt)) : round_up(s->n, per16(s->b_fmt));
    x.scale_layout = h->layout;
    x.ldc = s->n;
    x.ldd = s->n;
    x.kernel = h->kernel;
    if (host == NULL)
        goto out;
    if (h->a_mmajor) {
        if ((at = malloc(s->m * s->k * sizeof(*at))) == NULL)
            goto out;
        for (i = 0; i < s->k; i++)
            for (j = 0; j < s->m; j++)
                at[i * s->m + j] = p->a[j * s->k + i];
        if (!upload_matrix(s->a_fmt, at, s->k, s->m, x.lda, &da, msg, len))
            goto out;
    } else if (!upload_matrix(s->a_fmt, p->a, s->m, s->k, x.lda, &da, msg, len))
        goto out;
    if (h->b_kmajor) {
        if (!upload_matrix(s->b_fmt, p->b, s->n, s->k, x.ldb, &db, msg, len))
            goto out;
    } else {
        if ((bt = malloc(s->n * s->k * sizeof(*bt))) == NULL)
            goto out;
        for (i = 0; i < s->k; i++)
            for (j = 0; j < s->n; j++)
                bt[i * s->n + j] = p->b[j * s->k + i];
        if (!upload_matrix(s->b_fmt, bt, s->k, s->n, x.ldb, &db, msg, len))
            goto out;
    }
    if (p->sa != NULL && !upload_scales(h->layout, s->scale_fmt, p->sa, s->m, s->k, s->vec,
                                        h->scale_offset, &dsa, msg, len))
        goto out;
    if (p->sb != NULL && !upload_scales(h->layout, s->scale_fmt, p->sb, s->n, s->k, s->vec,
                                        h->scale_offset, &dsb, msg, len))
        goto out;
    if (s->c_fmt == SMMA_FP32) {
        if (smma_gpu_malloc(&dc, s->m * s->n * 4, msg, len) != SMMA_GPU_STATUS_OK ||
            smma_gpu_copy(dc, p->c, s->m * s->n * 4, true, msg, len) != SMMA_GPU_STATUS_OK)
            goto out;
    }
    if (h->d_offset % dsize != 0) {
        snprintf(msg, len, "D offset %u: not a multiple of %zu bytes", h->d_offset, dsize);
        goto out;
    }
    if (smma_gpu_malloc(&dd, round_up(dbytes + h->d_offset, 4), msg, len) !=
            SMMA_GPU_STATUS_OK ||
        smma_gpu_fill32(dd, dsize == 4 ? POISON32 : POISON16 * 0x10001u,
                        round_up(dbytes + h->d_offset, 4), msg, len) != SMMA_GPU_STATUS_OK)
        goto out;
    x.a = da;
    x.b = db;
    x.sa = dsa != NULL ? (char *) dsa + h->scale_offset : NULL;
    x.sb = dsb != NULL ? (char *) dsb + h->scale_offset : NULL;
    x.c = dc;
    x.d = (char *) dd + h->d_offset;
    if (smma_gpu_gemm(&x, msg, len) != SMMA_GPU_STATUS_OK || smma_gpu_sync(msg, len) != 0 ||
        smma_gpu_copy(host, x.d, dbytes, false, msg, len) != SMMA_GPU_STATUS_OK)
        goto out;
    good = true;
    for (i = 0; i < s->m * s->n; i++) {
        d[i] = dsize == 4 ? ((uint32_t *) host)[i] : ((uint16_t *) host)[i];
        if (good && d[i] == (dsize == 4 ? POISON32 : POISON16)) {
            snprintf(msg, len, "D(%zu, %zu) was not written", i / s->n, i % s->n);
            good = false;
        }
    }
out:
    if (host == NULL || (!good && msg[0] == '\0'))
        snprintf(msg, len, "out of memory");
    smma_gpu_free(da);
    smma_gpu_free(db);
    smma_gpu_free(dsa);
    smma_gpu_free(dsb);
    smma_gpu_free(dc);
    smma_gpu_free(dd);
    free(at);
    free(bt);
    free(host);
    return good;
}

void
kt_knob_refused(smma_gpu_kernel kernel, const smma_gemm_shape *s, smma_scale_layout layout,
                uint64_t seed, const char *var, const char *value)
{
    kt_problem p;
    kt_how h;
    uint32_t *d;
    char msg[512] = "", named[128];
    bool ran;

    memset(&h, 0, sizeof(h));
    h.kernel = kernel;
    h.b_kmajor = true;
    h.layout = layout;
    if (!kt_generate(&p, s, false, seed, msg, sizeof(msg)))
        bail("%s", msg);
    if ((d = malloc((s->m * s->n > 0 ? s->m * s->n : 1) * sizeof(*d))) == NULL)
        bail("out of memory");
    snprintf(named, sizeof(named), "%s=%s", var, value);
    if (setenv(var, value, 1) != 0)
        bail("setenv %s", var);
    ran = kt_run(&p, &h, d, msg, sizeof(msg));
    unsetenv(var);
    ok(!ran && strstr(msg, named) != NULL, "%s refuses %s: %s", smma_gpu_kernel_name(kernel),
       named, msg);
    free(d);
    kt_free(&p);
}

const smma_model *
kt_model(const kt_device *dev, smma_gpu_kernel kernel, const smma_gemm_shape *s)
{
    const char *name = NULL;
    char msg[256];

    if (smma_gpu_gemm_model(kernel, s, dev->major, dev->minor, &name, msg, sizeof(msg)) !=
        SMMA_GPU_STATUS_OK) {
        diag("%s", msg);
        return NULL;
    }
    return tap_model(name);
}

/* ---- golden vector suites --------------------------------------------------- */

/* The block of field `name` of a case, or NULL. */
static const smma_vec_block *
block_of(const smma_vec_header *hd, const smma_vec_case *c, const char *name)
{
    int i = smma_vec_field_index(hd, name);

    return i < 0 || !hd->fields[i].block ? NULL : &c->blocks[i];
}

static uint64_t
scalar_of(const smma_vec_header *hd, const smma_vec_case *c, const char *name, uint64_t dflt)
{
    int i = smma_vec_field_index(hd, name);

    return i < 0 || hd->fields[i].block ? dflt : c->scalars[hd->fields[i].offset];
}

/* Copies a rows x cols block, transposed when t (into cols x rows). */
static uint32_t *
take(const smma_vec_block *b, bool t)
{
    uint32_t *v = malloc(b->rows * b->cols * sizeof(*v) + 1);
    size_t r, c;

    if (v != NULL)
        for (r = 0; r < b->rows; r++)
            for (c = 0; c < b->cols; c++)
                v[t ? c * b->rows + r : r * b->cols + c] = (uint32_t) b->v[r * b->cols + c];
    return v;
}

/* Builds the problem of one case; its expected D into *want (m x n). */
static bool
case_problem(const smma_vec_header *hd, const smma_vec_case *c, kt_problem *p,
             const smma_vec_block **want, char *msg, size_t len)
{
    const smma_vec_block *a = block_of(hd, c, "a"), *b = block_of(hd, c, "b");
    const smma_vec_block *sa = block_of(hd, c, "sa"), *sb = block_of(hd, c, "sb");
    const smma_vec_block *cc = block_of(hd, c, "c");
    int ia = smma_vec_field_index(hd, "a"), ib = smma_vec_field_index(hd, "b");
    int is = smma_vec_field_index(hd, sa != NULL ? "sa" : "sb");
    uint64_t alpha = scalar_of(hd, c, "alpha", 0x3f800000u);
    smma_gemm_shape *s = &p->s;
    size_t kb;

    memset(p, 0, sizeof(*p));
    if (a == NULL || b == NULL || cc == NULL) {
        snprintf(msg, len, "case %llu: no block a, b or c", (unsigned long long) c->index);
        return false;
    }
    s->m = scalar_of(hd, c, "m", 0);
    s->n = scalar_of(hd, c, "n", 0);
    s->k = scalar_of(hd, c, "k", 0);
    s->a_fmt = smma_vec_type_format(hd->fields[ia].type);
    s->b_fmt = smma_vec_type_format(hd->fields[ib].type);
    s->scale_fmt = sa != NULL || sb != NULL ? smma_vec_type_format(hd->fields[is].type)
                                            : SMMA_NONE;
    kb = sa != NULL ? sa->cols : sb != NULL ? sb->rows : 0;
    s->vec = kb > 0 && (s->k + 15) / 16 == kb ? 16 : 32;
    s->c_fmt = scalar_of(hd, c, "has_c", 1) ? SMMA_FP32 : SMMA_NONE;
    switch (scalar_of(hd, c, "d_fmt", 0)) { /* the kernel suites' codes (gen/kernel.c) */
    case 0:
        s->d_fmt = SMMA_FP32;
        break;
    case 1:
        s->d_fmt = SMMA_BF16;
        break;
    case 2:
        s->d_fmt = SMMA_FP16;
        break;
    default:
        snprintf(msg, len, "case %llu: d_fmt %llu is not 0, 1 or 2",
                 (unsigned long long) c->index,
                 (unsigned long long) scalar_of(hd, c, "d_fmt", 0));
        return false;
    }
    s->has_alpha = alpha != 0x3f800000u;
    s->alpha = (uint32_t) alpha;
    *want = block_of(hd, c, "d");
    if (*want == NULL || a->rows != s->m || a->cols != s->k || b->rows != s->k ||
        b->cols != s->n || (*want)->rows * (*want)->cols != s->m * s->n) {
        snprintf(msg, len, "case %llu: blocks do not match m, n, k",
                 (unsigned long long) c->index);
        return false;
    }
    p->a = take(a, false);
    p->b = take(b, true); /* k x n -> n x k */
    p->sa = sa != NULL ? take(sa, false) : NULL;
    p->sb = sb != NULL ? take(sb, true) : NULL; /* kb x n -> n x kb */
    p->c = s->c_fmt == SMMA_FP32 ? take(cc, false) : NULL;
    if (p->a == NULL || p->b == NULL || (sa != NULL && p->sa == NULL) ||
        (sb != NULL && p->sb == NULL) || (s->c_fmt == SMMA_FP32 && p->c == NULL)) {
        snprintf(msg, len, "out of memory");
        return false;
    }
    return true;
}

void
kt_check_suite(const char *name, const kt_how *h)
{
    char rel[256], msg[512] = "";
    char *path;
    smma_vec_reader *r = NULL;
    const smma_vec_case *c;
    smma_error err;
    uint64_t cases = 0, bad = 0, shown = 0, skipped = 0;
    bool good = true;
    const char *how = h->b_kmajor ? "B K-major" : "B N-major";

    snprintf(rel, sizeof(rel), "vectors/%s.vec", name);
    path = test_file_path(rel);
    if (smma_vec_open(path, &r, &err) != SMMA_OK) {
        ok(false, "%s with %s: %s", name, smma_gpu_kernel_name(h->kernel), err.msg);
        test_file_free(path);
        return;
    }
    while (good) {
        const smma_vec_block *want;
        kt_problem p;
        uint32_t *d;
        size_t i;

        if (smma_vec_next(r, &c, &err) != SMMA_OK) {
            snprintf(msg, sizeof(msg), "%s", err.msg);
            good = false;
            break;
        }
        if (c == NULL)
            break;
        if (!case_problem(smma_vec_header_of(r), c, &p, &want, msg, sizeof(msg))) {
            kt_free(&p);
            good = false;
            break;
        }
        if (h->max_m > 0 && p.s.m > h->max_m) {
            skipped++;
            kt_free(&p);
            continue;
        }
        cases++;
        d = malloc(p.s.m * p.s.n * sizeof(*d));
        if (d == NULL || !kt_run(&p, h, d, msg, sizeof(msg))) {
            diag("%s case %llu (%zux%zux%zu): %s", name, (unsigned long long) c->index, p.s.m,
                 p.s.n, p.s.k, msg);
            good = false;
        } else
            for (i = 0; i < p.s.m * p.s.n; i++)
                if (d[i] != (uint32_t) want->v[i]) {
                    bad++;
                    if (shown++ < 10)
                        diag("%s case %llu (%zux%zux%zu, D %s): D(%zu, %zu) want %08x got "
                             "%08x", name, (unsigned long long) c->index, p.s.m, p.s.n, p.s.k,
                             smma_format_name(p.s.d_fmt), i / p.s.n, i % p.s.n,
                             (unsigned) want->v[i], d[i]);
                }
        free(d);
        kt_free(&p);
    }
    if (!good && msg[0] != '\0')
        diag("%s: %s", name, msg);
    if (good && cases == 0 && skipped > 0) {
        skip("%s with %s: no case with m <= %zu", name, smma_gpu_kernel_name(h->kernel),
             h->max_m);
        smma_vec_close(r);
        test_file_free(path);
        return;
    }
    ok(good && bad == 0 && cases > 0, "%s with %s (%s, scales %s): %llu cases, %llu elements "
       "differ", name, smma_gpu_kernel_name(h->kernel), how, smma_scale_layout_name(h->layout),
       (unsigned long long) cases, (unsigned long long) bad);
    smma_vec_close(r);
    test_file_free(path);
}

/* ---- sampled verification ---------------------------------------------------- */

struct verify_job {
    const kt_problem *p;
    const smma_model *model;
    smma_gemm_operands op;
    const uint32_t *d;
    const uint32_t *ij; /* sample t: row ij[2t], column ij[2t + 1] */
};

static void
verify_range(uint64_t lo, uint64_t hi, void *ctx, sweep_result *r)
{
    const struct verify_job *j = ctx;
    uint64_t t;

    for (t = lo; t < hi; t++) {
        size_t i = j->ij[2 * t], jj = j->ij[2 * t + 1];
        uint32_t want = smma_gemm_element(j->model, &j->p->s, &j->op, i, jj);
        uint32_t got = j->d[i * j->p->s.n + jj];

        r->checked++;
        if (want != got)
            sweep_record(r, t, (uint32_t) i, want, got);
    }
}

uint64_t
kt_verify(const kt_problem *p, const smma_model *model, const kt_geometry *g, const uint32_t *d,
          uint64_t samples, uint64_t seed, uint64_t *checked)
{
    const smma_gemm_shape *s = &p->s;
    uint64_t tiles_m = (s->m + g->bm - 1) / g->bm, tiles_n = (s->n + g->bn - 1) / g->bn;
    uint64_t ntiles = tiles_m * tiles_n, warps = (uint64_t) g->warps_m * g->warps_n;
    unsigned wtm = g->bm / g->warps_m, wtn = g->bn / g->warps_n;
    /* A warp's tile: (wtm / 16) x (wtn / 8) mma tiles of 4 registers. */
    uint64_t slots = warps * (wtm / 16) * (wtn / 8) * 4, t, n;
    uint32_t *ij;
    struct verify_job job;
    sweep_result res;
    tap_rng rng;
    unsigned q;

    n = samples > ntiles ? samples : ntiles;
    if (n < slots)
        n = slots;
    ij = malloc(2 * n * sizeof(*ij));
    if (ij == NULL)
        bail("out of memory for %llu samples", (unsigned long long) n);
    tap_rng_seed(&rng, seed);
    for (t = 0; t < n; t++) {
        /* Tile t mod ntiles; slot (warp, mma tile, register) by a stride
         * coprime with the slot count (a power of two times 1): all slots
         * come up as t runs over any `slots` consecutive values. */
        uint64_t tile = t % ntiles, slot = (t * 2654435761u + seed) % slots;
        uint64_t tm = tile / tiles_n, tn = tile % tiles_n;
        unsigned reg = (unsigned) (slot % 4), mt = (unsigned) (slot / 4);
        unsigned ni = mt % (wtn / 8), mi = (mt / (wtn / 8)) % (wtm / 16);
        unsigned w = (unsigned) (mt / ((wtn / 8) * (wtm / 16)));
        size_t i = 0, j = 0;

        for (q = 0; q < 64; q++) {
            unsigned lane = (unsigned) (tap_rng_next(&rng) % 32);

            i = tm * g->bm + (w / g->warps_n) * wtm + 16 * mi + smma_frag_cd_row(lane, reg);
            j = tn * g->bn + (w % g->warps_n) * wtn + 8 * ni + smma_frag_cd_col(lane, reg);
            if (i < s->m && j < s->n)
                break;
            /* Past the edge of a ragged shape: another lane, then any
             * element of the tile's range. */
            if (q == 63) {
                i = (tm * g->bm + tap_rng_next(&rng) % g->bm) % s->m;
                j = (tn * g->bn + tap_rng_next(&rng) % g->bn) % s->n;
            }
        }
        ij[2 * t] = (uint32_t) i;
        ij[2 * t + 1] = (uint32_t) j;
    }
    job.p = p;
    job.model = model;
    job.op.a = p->a;
    job.op.lda = s->k;
    job.op.a_kmajor = true;
    job.op.b = p->b;
    job.op.ldb = s->k;
    job.op.b_kmajor = true;
    job.op.sa = p->sa;
    job.op.sb = p->sb;
    job.op.c = p->c;
    job.d = d;
    job.ij = ij;
    sweep_run(0, n, verify_range, &job, &res);
    for (q = 0; q < res.nfirst; q++) {
        uint64_t at = res.first[q].index;

        diag("D(%u, %u): want %08x got %08x", ij[2 * at], ij[2 * at + 1], res.first[q].want,
             res.first[q].got);
    }
    free(ij);
    *checked = res.checked;
    return res.mismatches;
}

/* ---- random problems -------------------------------------------------------- */

/* The codes a random problem draws from, per format: every finite code whose
 * value is 0 or has an exponent in [-20, 20] (all finite codes of the 4-, 6-
 * and 8-bit formats), as smma_gemm_generate's random class; e8m0 scales
 * 2^-20 .. 2^20, ue4m3 scales every finite code. */
struct code_table {
    uint32_t n;
    uint16_t code[65536];
};

static struct code_table *
code_table(smma_format f)
{
    static struct code_table *tables[SMMA_FORMAT_COUNT];
    const smma_format_desc *d = smma_format_info(f);
    struct code_table *t;
    uint32_t c;

    if (tables[f] != NULL)
        return tables[f];
    if ((t = calloc(1, sizeof(*t))) == NULL)
        bail("out of memory");
    for (c = 0; c < (1u << d->storage_bits) && d->storage_bits <= 16; c++) {
        double v = smma_decode(f, c);
        int e;

        if (!isfinite(v) || (f == SMMA_UE4M3 && c > 0x7e))
            continue;
        if (f == SMMA_E8M0 && (c < 107 || c > 147))
            continue;
        frexp(v, &e);
        if (f == SMMA_BF16 || f == SMMA_FP16) {
            if (v != 0 && (e - 1 < -20 || e - 1 > 20))
                continue;
        }
        t->code[t->n++] = (uint16_t) c;
    }
    tables[f] = t;
    return t;
}

static uint64_t
mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct gen_job {
    uint32_t *dst;
    size_t cols;
    smma_format f;
    const struct code_table *t;
    uint64_t seed;
};

/* Rows [lo, hi) of one operand; each row has its own stream, so the result
 * does not depend on the number of threads. */
static void
gen_rows(uint64_t lo, uint64_t hi, void *ctx, sweep_result *r)
{
    const struct gen_job *j = ctx;
    uint64_t row;
    size_t c;

    (void) r;
    for (row = lo; row < hi; row++) {
        uint64_t st = mix64(j->seed ^ (row * 0x2545f4914f6cdd1dull));

        for (c = 0; c < j->cols; c++) {
            uint64_t x = mix64(st += 0x9e3779b97f4a7c15ull);
            uint32_t *out = &j->dst[row * j->cols + c];

            if (j->f == SMMA_FP32) /* sign, exponent in [-20, 20], any mantissa */
                *out = (uint32_t) (x & 0x807fffffu) | (uint32_t) (107 + (x >> 32) % 41) << 23;
            else
                *out = j->t->code[(uint32_t) (((x >> 32) * j->t->n) >> 32)];
        }
    }
}

static bool
gen_matrix(uint32_t **dst, smma_format f, size_t rows, size_t cols, uint64_t seed)
{
    struct gen_job j;
    sweep_result r;

    if ((*dst = malloc(rows * cols * sizeof(uint32_t) + 1)) == NULL)
        return false;
    j.dst = *dst;
    j.cols = cols;
    j.f = f;
    j.t = f == SMMA_FP32 ? NULL : code_table(f);
    j.seed = seed;
    sweep_run(0, rows, gen_rows, &j, &r);
    return true;
}

bool
kt_generate(kt_problem *p, const smma_gemm_shape *s, bool with_c, uint64_t seed, char *msg,
            size_t len)
{
    size_t kb = smma_gemm_kblocks(s);
    bool scaled_a = s->scale_fmt != SMMA_NONE && s->a_fmt != SMMA_BF16 && s->a_fmt != SMMA_FP16;
    bool good;

    memset(p, 0, sizeof(*p));
    p->s = *s;
    p->s.c_fmt = with_c ? SMMA_FP32 : SMMA_NONE;
    good = gen_matrix(&p->a, s->a_fmt, s->m, s->k, mix64(seed ^ 1)) &&
           gen_matrix(&p->b, s->b_fmt, s->n, s->k, mix64(seed ^ 2)) &&
           (kb == 0 || !scaled_a || gen_matrix(&p->sa, s->scale_fmt, s->m, kb, mix64(seed ^ 3))) &&
           (kb == 0 || gen_matrix(&p->sb, s->scale_fmt, s->n, kb, mix64(seed ^ 4))) &&
           (!with_c || gen_matrix(&p->c, SMMA_FP32, s->m, s->n, mix64(seed ^ 5)));
    if (!good) {
        snprintf(msg, len, "out of memory for a %zux%zux%zu problem", s->m, s->n, s->k);
        kt_free(p);
    }
    return good;
}

void
kt_free(kt_problem *p)
{
    free(p->a);
    free(p->b);
    free(p->sa);
    free(p->sb);
    free(p->c);
    memset(p, 0, sizeof(*p));
}

/* One of the extreme bf16 or fp16 codes of kt_make_special, by r. */
static uint32_t
kt_special16(smma_format f, uint64_t r)
{
    static const uint32_t bf16[] = { 0x7f80, 0xff80, 0x7fc1, 0x7f7f, 0xff7f };
    static const uint32_t fp16[] = { 0x7c00, 0xfc00, 0x7e01, 0x7bff, 0xfbff };

    return f == SMMA_BF16 ? bf16[r % 5] : fp16[r % 5];
}

/* Extreme scales and codes in some rows and columns of a generated
 * problem: e8m0 0x00 (2^-127: products into bf16's subnormals), 0x01,
 * 0xfe (products past bf16's range) and 0xff (NaN), ue4m3 0x00, 0x01 and
 * 0x7f; e5m2 Inf and NaN codes, e4m3 NaN, -0; bf16 and fp16 Inf, a NaN
 * with a payload and the largest finite value of either sign (sums past
 * the range, Inf - Inf).  Every eighth row and column keeps its values,
 * so D is not all NaN. */
void
kt_make_special(kt_problem *p, uint64_t seed)
{
    const smma_gemm_shape *s = &p->s;
    static const uint32_t e8[] = { 0x00, 0x01, 0xfe, 0xff, 0x02, 0xfd };
    static const uint32_t ue[] = { 0x00, 0x01, 0x7f, 0x7e, 0x08 };
    size_t kb = smma_gemm_kblocks(s), i, j;
    uint64_t x = seed;

    for (i = 0; i < s->m; i++)
        for (j = 0; j < kb && p->sa != NULL; j++)
            if (i % 8 != 0 && (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
                p->sa[i * kb + j] = s->scale_fmt == SMMA_UE4M3 ? ue[(x >> 32) % 5]
                                                                : e8[(x >> 32) % 6];
    for (i = 0; i < s->n; i++)
        for (j = 0; j < kb; j++)
            if (i % 8 != 0 && (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
                p->sb[i * kb + j] = s->scale_fmt == SMMA_UE4M3 ? ue[(x >> 32) % 5]
                                                                : e8[(x >> 32) % 6];
    for (i = 0; i < s->m * s->k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 55 == 0 && i / s->k % 8) {
            if (s->a_fmt == SMMA_E5M2)
                p->a[i] = (x >> 40) % 2 ? 0x7c : 0xfe; /* Inf, NaN */
            else if (s->a_fmt == SMMA_E4M3)
                p->a[i] = (x >> 40) % 2 ? 0x7f : 0x80; /* NaN, -0 */
            else if (s->a_fmt == SMMA_BF16 || s->a_fmt == SMMA_FP16)
                p->a[i] = kt_special16(s->a_fmt, x >> 40);
        }
    for (i = 0; i < s->n * s->k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 55 == 0 && i / s->k % 8) {
            if (s->b_fmt == SMMA_E5M2)
                p->b[i] = (x >> 40) % 2 ? 0xfc : 0x7f; /* -Inf, NaN */
            else if (s->b_fmt == SMMA_E4M3)
                p->b[i] = (x >> 40) % 2 ? 0xff : 0x80;
            else if (s->b_fmt == SMMA_BF16 || s->b_fmt == SMMA_FP16)
                p->b[i] = kt_special16(s->b_fmt, x >> 40);
        }
}

uint64_t
kt_seed(void)
{
    const char *e = getenv("SMMA_SEED");

    return e != NULL && *e != '\0' ? strtoull(e, NULL, 0) : (uint64_t) time(NULL);
}

bool
kt_listed(const char *var, const char *name)
{
    const char *list = getenv(var), *at;
    size_t len = strlen(name);

    if (list == NULL || *list == '\0')
        return true;
    for (at = list; (at = strstr(at, name)) != NULL; at += len)
        if ((at == list || at[-1] == ',') && (at[len] == '\0' || at[len] == ','))
            return true;
    return false;
}
