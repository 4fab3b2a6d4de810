/*
 * tests/sim/sm90-dry-t.c - the dry run of the sm_90a GEMM kernels: their
 * plan (gpu/sm90/plan.h and the pipeline of gpu/pipe.h, the functions the
 * kernels call) executed on the simulator's wgmma executor, compared bit for
 * bit with the golden vectors and smma_gemm under h100-bf16.
 *
 * For each kernel version, problem and tuning, the test runs the kernel's
 * plan CTA by CTA (clusters of two: both CTAs, each loading its half of the
 * stage's B for both), tile by tile in the scheduler's order and k-step by
 * k-step through the stage slots: it fills the simulated shared memory of
 * the slot box by box as TMA does from the plan's tensor maps (elements
 * outside the tensor 0, a box of 128-byte rows landing as the 128-byte
 * swizzle of its row-major bytes), applies the fix-up of a ragged k-step,
 * starts every warpgroup's accumulator from C (or 0), runs the wgmma of the
 * k-step (smma_wgmma_exec) with the descriptors and scale-d the plan gives,
 * then writes D: for a v2 plan with TMA stores, through the epilogue
 * buffers at the plan's offsets and out by the TMA store boxes; otherwise
 * from the accumulator registers.  D must equal:
 *   - the committed suites gemm.bf16.exact, gemm.bf16.model.h100-bf16, the
 *     kernel-scale gemm.bf16.kernel.* and the wgmma-tile suites
 *     gemm.bf16.wgmma.* and gemm.fp16.wgmma.model.h100-bf16;
 *   - smma_gemm under h100-bf16 on generated problems (ragged m, n, k, C,
 *     alpha, bf16/fp16 D, fp16 operands, N-major B, both tile widths,
 *     clusters of one and two, several tiles per CTA, D without TMA).
 * It also checks the rules of smma_sm90_check and the knobs, that the
 * plan's stage offsets equal the descriptors' view of the stage, that the
 * boxes of a k-step fill its stage once, and that a sum of -0 terms is +0
 * with or without the fix-up (h100-bf16's zero_plus).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/vectors.h>
#include <softmma/wgmma.h>

#include "sm90/sm90.h"
#include "tap/basic.h"

#define SMEM_BASE 1024u

static void *
xcalloc(size_t n, size_t size)
{
    void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);

    if (p == NULL)
        bail("out of memory");
    return p;
}

/* ---- a problem in the caller's storage ------------------------------------------------ */

typedef struct prob {
    smma_gemm_shape s;
    uint32_t *a, *b, *c;        /* codes: a m x k, b n x k, c m x n (NULL without C) */
    bool b_nmajor;              /* B stored k x n */
    uint8_t *ga, *gb;           /* 16-bit elements, rows of lda / ldb, gaps 0xa5 */
    size_t lda, ldb, ldd;
} prob;

static void
prob_free(prob *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->ga);
    free(p->gb);
    memset(p, 0, sizeof(*p));
}

/* Stores rows x cols codes (element (i, j) at codes[i * cs + j * js]) with
 * ld elements per row, the gap after cols filled with 0xa5 bytes (which
 * no plan may read). */
static uint8_t *
store16(const uint32_t *codes, size_t rows, size_t cols, size_t cs, size_t js, size_t ld)
{
    uint8_t *g = xcalloc(rows * ld, 2);
    size_t i, j;

    memset(g, 0xa5, rows * ld * 2);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            uint32_t v = codes[i * cs + j * js];

            g[(i * ld + j) * 2] = (uint8_t) v;
            g[(i * ld + j) * 2 + 1] = (uint8_t) (v >> 8);
        }
    return g;
}

/* The caller's buffers: lda past k by 8 to 15 (a multiple of 8), B K-major
 * (n x k) or N-major (k x n) likewise; ldd = n + ldd_pad. */
static void
prob_store(prob *p, bool b_nmajor, size_t ldd_pad)
{
    size_t m = p->s.m, n = p->s.n, k = p->s.k;

    free(p->ga);
    free(p->gb);
    p->b_nmajor = b_nmajor;
    p->lda = (k + 8 + 7) / 8 * 8;
    p->ga = store16(p->a, m, k, k, 1, p->lda);
    if (b_nmajor) {
        p->ldb = (n + 8 + 7) / 8 * 8;
        p->gb = store16(p->b, k, n, 1, k, p->ldb);
    } else {
        p->ldb = p->lda;
        p->gb = store16(p->b, n, k, k, 1, p->ldb);
    }
    p->ldd = n + ldd_pad;
}

static smma_gpu_gemm_args
prob_args(const prob *p)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape = p->s;
    a.a = p->ga;
    a.lda = p->lda;
    a.a_kmajor = true;
    a.b = p->gb;
    a.ldb = p->ldb;
    a.b_kmajor = !p->b_nmajor;
    a.c = p->c;
    a.ldc = p->s.n;
    a.d = (void *) (uintptr_t) ((p->ldd - p->s.n) % 8 == 0 ? 4096 : 4098);
    a.ldd = p->ldd;
    a.scale_layout = SMMA_SL_LINEAR;
    return a;
}

/* D of the problem under h100-bf16 (epilogue included). */
static uint32_t *
prob_expected(const prob *p)
{
    smma_gemm_operands ops;
    smma_error err;
    uint32_t *d = xcalloc(p->s.m * p->s.n, sizeof(uint32_t));

    memset(&ops, 0, sizeof(ops));
    ops.a = p->a;
    ops.lda = p->s.k;
    ops.a_kmajor = true;
    ops.b = p->b;
    ops.ldb = p->s.k;
    ops.b_kmajor = true;
    ops.c = p->c;
    if (smma_gemm(tap_model("h100-bf16"), &p->s, &ops, d, &err) != SMMA_OK)
        bail("smma_gemm: %s", err.msg);
    return d;
}

static void
prob_generate(prob *p, const smma_gemm_shape *s, smma_input_class cls, uint64_t seed)
{
    smma_gemm_data d;
    smma_error err;

    memset(p, 0, sizeof(*p));
    p->s = *s;
    if (smma_gemm_generate(s, cls, seed, &d, &err) != SMMA_OK)
        bail("smma_gemm_generate: %s", err.msg);
    p->a = d.a;
    p->b = d.b;
    p->c = d.c;
    free(d.sa);
    free(d.sb);
}

/* The kernels' epilogue on the host: rn_fp32(alpha * acc), then to nearest
 * into bf16 / fp16 (NaN 0x7fff). */
static uint32_t
epilogue(const smma_gemm_shape *s, uint32_t acc)
{
    smma_cvt c = smma_cvt_default();
    uint32_t x = acc;

    c.round = SMMA_RN;
    c.sat = false;
    if (s->has_alpha) {
        double v = (double) smma_f32_from_bits(s->alpha) * (double) smma_f32_from_bits(acc);

        x = v != v ? 0x7fffffffu : smma_encode(SMMA_FP32, v, &c);
    }
    if (s->d_fmt == SMMA_FP32)
        return x;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return smma_encode_f32bits(s->d_fmt, x, &c);
}

/* ---- TMA on the host ----------------------------------------------------------------- */

/* Element (x, y) (innermost first) of the tensor map `map` over the
 * caller's buffers: 0 outside the tensor's dims, as TMA loads it. */
static uint32_t
tensor_elem(const smma_sm90_plan *pl, const prob *p, unsigned map, uint64_t x, uint64_t y)
{
    uint64_t dims[2], strides[1];
    uint32_t box[2];
    const uint8_t *g = map == SMMA_SM90_MAP_A ? p->ga : p->gb;
    size_t off;

    smma_sm90_tma_geom(pl, map, dims, strides, box);
    if (x >= dims[0] || y >= dims[1])
        return 0;
    off = (size_t) (y * strides[0] + x * 2);
    return g[off] | (uint32_t) g[off + 1] << 8;
}

/* The stage of k-step kit of CTA `rank` of its cluster, whose CTAs compute
 * the tiles at rows m0s[r] and column n0: its own box of A, and the boxes
 * of B every CTA of the cluster multicasts; a box of 128-byte rows lands
 * as the 128-byte swizzle of its row-major bytes.  cover (stage_bytes
 * counters, or NULL) counts the writes of every byte. */
static void
stage_image(const smma_sm90_plan *pl, const prob *p, uint32_t rank, const uint32_t *m0s,
            uint32_t n0, uint32_t kit, uint8_t *stage, unsigned *cover)
{
    uint32_t r, i, x, y;

    memset(stage, 0xee, pl->pipe.stage_bytes);
    for (r = 0; r < pl->pipe.cluster; r++)
        for (i = 0; i < smma_sm90_nboxes(pl); i++) {
            uint64_t dims[2], strides[1];
            uint32_t box[2], off;
            unsigned map;
            int32_t c[2];
            bool mc = smma_sm90_box(pl, i, m0s[r], n0, kit, r, &map, c, &off);

            if (r != rank && !mc)
                continue;
            smma_sm90_tma_geom(pl, map, dims, strides, box);
            for (y = 0; y < box[1]; y++)
                for (x = 0; x < box[0]; x++) {
                    uint32_t v = tensor_elem(pl, p, map, (uint64_t) c[0] + x,
                                             (uint64_t) c[1] + y);
                    uint32_t o = smma_tc05_swz(SMMA_TC05_SW_128B, off + y * 128 + x * 2);

                    stage[o] = (uint8_t) v;
                    stage[o + 1] = (uint8_t) (v >> 8);
                    if (cover != NULL) {
                        cover[o]++;
                        cover[o + 1]++;
                    }
                }
        }
}

/* ---- running the plan on the simulator ------------------------------------------------ */

/* What a run may leave out, to show that the test can fail. */
enum { RUN_ALL = 0, RUN_NO_FIXUP = 1 };

/*
 * Executes the plan: every CTA of the grid, its tiles in the scheduler's
 * order, the stage slots as the kernel cycles through them.  d receives
 * m x n codes of D (ld n).
 */
/* The cells of a run of len from origin that lie inside a dimension of
 * size: what smma_wgmma_exec_part computes of an edge tile (the rest are
 * never stored). */
static unsigned
part(size_t size, uint32_t origin, unsigned len)
{
    return size <= origin ? 0 : size - origin < len ? (unsigned) (size - origin) : len;
}

static int
run_plan(const smma_sm90_plan *pl, const prob *p, unsigned flags, uint32_t *d, smma_error *err)
{
    const unsigned R = pl->bn / 2;
    size_t smem_size = SMEM_BASE + pl->smem_bytes;
    uint8_t *smem = xcalloc(smem_size, 1);
    uint32_t *regs = xcalloc((size_t) pl->wgs * 128 * R, sizeof(uint32_t));
    smma_wgmma_variant v;
    uint32_t c, i, kit, wg, t, r, j, row, col;
    int rc = SMMA_OK;

    v = smma_wgmma_variant_make(p->s.a_fmt, p->s.b_fmt, pl->bn);
    v.a_smem = true;
    v.trans_b = pl->b_nmajor;
    for (c = 0; c < pl->pipe.grid && rc == SMMA_OK; c++) {
        uint32_t iter = 0, ebuf[2] = { 0, 0 }, rank = c % pl->pipe.cluster;

        for (i = 0; i < smma_pipe_cta_nunits(&pl->pipe, c) && rc == SMMA_OK; i++) {
            uint32_t tm, tn, m0, n0, m0s[2], q;
            bool inside = smma_pipe_cta_tile(&pl->pipe, c, i, &tm, &tn);

            smma_sm90_origin(pl, tm, tn, &m0, &n0);
            for (q = 0; q < pl->pipe.cluster; q++) {
                uint32_t tq, nq;

                smma_pipe_cta_tile(&pl->pipe, c - rank + q, i, &tq, &nq);
                smma_sm90_origin(pl, tq, nq, &m0s[q], &nq);
            }
            /* The accumulators: C, or 0 (s90_load_c). */
            for (wg = 0; wg < pl->wgs; wg++)
                for (t = 0; t < 128; t++)
                    for (r = 0; r < R; r++) {
                        smma_sm90_d_cell(wg, t, r, &row, &col);
                        regs[(wg * 128 + t) * R + r] =
                            p->c != NULL && m0 + row < p->s.m && n0 + col < p->s.n
                            ? p->c[(size_t) (m0 + row) * p->s.n + n0 + col] : 0;
                    }
            for (kit = 0; kit < pl->pipe.kiters && rc == SMMA_OK; kit++, iter++) {
                uint32_t st = SMEM_BASE + smma_pipe_slot(&pl->pipe, iter) * pl->pipe.stage_bytes;

                stage_image(pl, p, rank, m0s, n0, kit, smem + st, NULL);
                for (wg = 0; wg < pl->wgs && !(flags & RUN_NO_FIXUP); wg++)
                    for (j = 0; j < 64 * smma_sm90_fix_cols(pl, kit); j++) {
                        uint32_t o = st + smma_sm90_fix_off(pl, kit, wg, j);

                        smem[o] = (uint8_t) SMMA_SM90_NEG_ZERO;
                        smem[o + 1] = (uint8_t) (SMMA_SM90_NEG_ZERO >> 8);
                    }
                for (wg = 0; wg < pl->wgs && rc == SMMA_OK; wg++)
                    for (j = 0; j < smma_sm90_nmma(pl, kit) && rc == SMMA_OK; j++) {
                        uint32_t *acc = regs + (size_t) wg * 128 * R;

                        v.scale_d = smma_sm90_scale_d(pl, kit, j);
                        rc = smma_wgmma_exec_part(&v, tap_model("h100-bf16"), NULL,
                                                  smma_sm90_desc_a(pl, st, wg, j),
                                                  smma_sm90_desc_b(pl, st, j), smem, smem_size,
                                                  acc, acc, part(p->s.m, m0 + 64 * wg, 64),
                                                  part(p->s.n, n0, pl->bn), err);
                    }
            }
            if (!inside || rc != SMMA_OK)
                continue;
            for (wg = 0; wg < pl->wgs; wg++) {
                const uint32_t *acc = regs + (size_t) wg * 128 * R;
                uint32_t cw = smma_sm90_epi_cols(pl), esz = pl->d_kind == SMMA_PIPE_F32 ? 4 : 2;

                if (!pl->epi_tma) {
                    for (t = 0; t < 128; t++)
                        for (r = 0; r < R; r++) {
                            smma_sm90_d_cell(wg, t, r, &row, &col);
                            if (m0 + row < p->s.m && n0 + col < p->s.n)
                                d[(size_t) (m0 + row) * p->s.n + n0 + col] =
                                    epilogue(&p->s, acc[t * R + r]);
                        }
                    continue;
                }
                for (q = 0; q < smma_sm90_epi_chunks(pl); q++) {
                    uint32_t buf = ebuf[wg]++ & 1, x, y, base;
                    int32_t co[2];

                    /* The registers of chunk q into the buffer. */
                    for (t = 0; t < 128; t++)
                        for (r = q * cw / 2; r < (q + 1) * cw / 2; r++) {
                            uint32_t val = epilogue(&p->s, acc[t * R + r]), o, b;

                            smma_sm90_d_cell(0, t, r, &row, &col);
                            o = SMEM_BASE + smma_sm90_epi_off(pl, wg, buf, row, col - q * cw);
                            for (b = 0; b < esz; b++)
                                smem[o + b] = (uint8_t) (val >> (8 * b));
                        }
                    /* The TMA store of the box: element (x, y) from the
                     * swizzled row-major bytes of the buffer. */
                    smma_sm90_epi_coord(pl, m0, n0, wg, q, co);
                    base = SMEM_BASE + pl->off_epi + (2 * wg + buf) * SMMA_SM90_EPI_BUF;
                    for (y = 0; y < 64; y++)
                        for (x = 0; x < cw; x++) {
                            uint32_t gx = (uint32_t) co[0] + x, gy = (uint32_t) co[1] + y;
                            uint32_t o = smma_tc05_swz(SMMA_TC05_SW_128B,
                                                       base + y * 128 + x * esz), val = 0, b;

                            if (gx >= p->s.n || gy >= p->s.m)
                                continue;
                            for (b = 0; b < esz; b++)
                                val |= (uint32_t) smem[o + b] << (8 * b);
                            d[(size_t) gy * p->s.n + gx] = val;
                        }
                }
            }
        }
    }
    free(smem);
    free(regs);
    return rc;
}

/* Runs a plan and counts the outputs that differ from want (the first five
 * are printed); -1 when the simulator refuses it. */
static long
diff_plan(const smma_sm90_plan *pl, const prob *p, unsigned flags, const uint32_t *want,
          const char *what)
{
    smma_error err;
    size_t i, mn = p->s.m * p->s.n;
    uint32_t *d = xcalloc(mn, sizeof(uint32_t));
    long bad = 0;

    for (i = 0; i < mn; i++)
        d[i] = 0xdeadbeefu;
    if (run_plan(pl, p, flags, d, &err) != SMMA_OK) {
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

/* Kernel k's plan with the choices *tu on `sms` multiprocessors against
 * want; one TAP point (none where TEST_SAMPLE leaves it out: its class is
 * the kernel, the pair, B's majorness -- its layout -- and which of m, n
 * and k are ragged for the plan's tiles). */
static void
check_plan(const prob *p, smma_gpu_kernel k, unsigned sms, const smma_sm90_tune *tu,
           const uint32_t *want, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);
    smma_sm90_plan pl;
    char msg[256], cls[200], key[400];
    long bad;

    if (smma_sm90_plan_init(&pl, &a, k, sms, tu, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        ok(false, "%s: plan: %s", what, msg);
        return;
    }
    snprintf(cls, sizeof(cls), "v%u %s B %s ragged %d%d%d", pl.version,
             smma_format_name(p->s.a_fmt), p->b_nmajor ? "N-major" : "K-major",
             p->s.m % pl.bm != 0, p->s.n % pl.bn != 0, p->s.k % pl.bk != 0);
    snprintf(key, sizeof(key), "v%u %s", pl.version, what);
    if (!sample_point(cls, key))
        return;
    bad = diff_plan(&pl, p, RUN_ALL, want, what);
    ok(bad == 0, "v%u %s, B %s (tile %ux%u, %u k-steps, %u stages, %u CTAs in clusters of %u, "
       "D %s): %ld of %zu outputs differ", pl.version, what, p->b_nmajor ? "N-major" : "K-major",
       pl.bm, pl.bn, pl.pipe.kiters, pl.pipe.stages, pl.pipe.grid, pl.pipe.cluster,
       pl.epi_tma ? "through TMA" : "from registers", bad, p->s.m * p->s.n);
}

/* ---- golden vector suites ------------------------------------------------------------------ */

static uint64_t
scalar(const smma_vec_header *h, const smma_vec_case *c, const char *name, uint64_t dflt)
{
    int i = smma_vec_field_index(h, name);

    return i < 0 || h->fields[i].block ? dflt : c->scalars[i];
}

static const smma_vec_block *
block(const smma_vec_header *h, const smma_vec_case *c, const char *name)
{
    int i = smma_vec_field_index(h, name);

    return i < 0 || !h->fields[i].block ? NULL : &c->blocks[i];
}

/* A case of a 16-bit gemm suite (the tile suites: C and D fp32; the
 * kernel-scale and wgmma ones: has_c, d_fmt, alpha) as a problem, and its
 * expected D. */
static bool
prob_from_case(prob *p, const smma_vec_header *h, const smma_vec_case *c, uint32_t **want,
               char *why, size_t len)
{
    static const smma_format dfmts[3] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };
    const smma_vec_block *ba = block(h, c, "a"), *bb = block(h, c, "b");
    const smma_vec_block *bc = block(h, c, "c"), *bd = block(h, c, "d");
    uint64_t dcode = scalar(h, c, "d_fmt", 0);
    size_t m, n, k, i, j;

    memset(p, 0, sizeof(*p));
    *want = NULL;
    if (ba == NULL || bb == NULL || bd == NULL || dcode > 2) {
        snprintf(why, len, "no blocks a, b and d, or a d_fmt past 2");
        return false;
    }
    m = (size_t) scalar(h, c, "m", 0);
    n = (size_t) scalar(h, c, "n", 0);
    k = (size_t) scalar(h, c, "k", 0);
    p->s.a_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "a")].type);
    p->s.b_fmt = smma_vec_type_format(h->fields[smma_vec_field_index(h, "b")].type);
    p->s.scale_fmt = SMMA_NONE;
    p->s.vec = 32;
    p->s.m = m;
    p->s.n = n;
    p->s.k = k;
    p->s.c_fmt = bc != NULL && scalar(h, c, "has_c", 1) ? SMMA_FP32 : SMMA_NONE;
    p->s.d_fmt = dfmts[dcode];
    p->s.has_alpha = smma_vec_field_index(h, "alpha") >= 0;
    p->s.alpha = (uint32_t) scalar(h, c, "alpha", 0x3f800000u);
    if (m == 0 || n == 0 || k == 0 || ba->rows != m || ba->cols != k || bb->rows != k
        || bb->cols != n || bd->rows != m || bd->cols != n) {
        snprintf(why, len, "block sizes do not match m %zu n %zu k %zu", m, n, k);
        return false;
    }
    p->a = xcalloc(m * k, sizeof(uint32_t));
    p->b = xcalloc(n * k, sizeof(uint32_t));
    for (i = 0; i < m * k; i++)
        p->a[i] = (uint32_t) ba->v[i];
    for (i = 0; i < k; i++)
        for (j = 0; j < n; j++)
            p->b[j * k + i] = (uint32_t) bb->v[i * n + j];
    if (p->s.c_fmt != SMMA_NONE) {
        p->c = xcalloc(m * n, sizeof(uint32_t));
        for (i = 0; i < m * n; i++)
            p->c[i] = (uint32_t) bc->v[i];
    }
    *want = xcalloc(m * n, sizeof(uint32_t));
    for (i = 0; i < m * n; i++)
        (*want)[i] = (uint32_t) bd->v[i];
    return true;
}

/* Every case of vectors/NAME.vec through v1 and v2 (v2 on 1 or 2
 * multiprocessors, clusters of 2 and 1 by turns), B K-major for even cases
 * and N-major for odd ones (both at level 2). */
static void
suite(const char *name)
{
    smma_vec_reader *r = NULL;
    const smma_vec_case *c = NULL;
    smma_error err;
    unsigned ncase = 0, mj;
    char rel[256], *path;
    int rc;

    snprintf(rel, sizeof(rel), "vectors/%s.vec", name);
    path = test_file_path(rel);
    rc = smma_vec_open(path, &r, &err);
    test_file_free(path);
    if (rc != SMMA_OK) {
        ok(false, "%s: %s", name, err.msg);
        return;
    }
    while ((rc = smma_vec_next(r, &c, &err)) == SMMA_OK && c != NULL) {
        prob p;
        uint32_t *want;
        char what[300], why[256];

        if (!prob_from_case(&p, smma_vec_header_of(r), c, &want, why, sizeof(why))) {
            ok(false, "%s case %u: %s", name, ncase, why);
            prob_free(&p);
            break;
        }
        for (mj = 0; mj < 2; mj++) {
            smma_sm90_tune tu;

            if (test_level() < 2 && mj != ncase % 2)
                continue;
            memset(&tu, 0, sizeof(tu));
            tu.cluster = 1 + (ncase + mj) % 2;
            prob_store(&p, mj == 1, ncase % 3 == 2 ? 3 : 0);
            snprintf(what, sizeof(what), "%s case %u (%zux%zux%zu)", name, ncase, p.s.m, p.s.n,
                     p.s.k);
            check_plan(&p, SMMA_GPU_SM90_V1, 0, NULL, want, what);
            check_plan(&p, SMMA_GPU_SM90_V2, 1 + ncase % 2, &tu, want, what);
        }
        free(want);
        prob_free(&p);
        ncase++;
    }
    if (rc != SMMA_OK)
        ok(false, "%s: %s", name, err.msg);
    else
        ok(ncase > 0, "%s: %u cases read", name, ncase);
    smma_vec_close(r);
}

/* ---- generated problems ------------------------------------------------------------------ */

struct gen {
    size_t m, n, k;
    smma_format in, c, d;
    bool alpha, b_nmajor;
    size_t ldd_pad;             /* ldd = n + pad: 0 or a multiple of 8 keeps the TMA store */
    unsigned sms;               /* v2's multiprocessors */
    smma_sm90_tune tu;
};

static const struct gen gens[] = {
    /* One tile of each. */
    { 64, 128, 64, SMMA_BF16, SMMA_NONE, SMMA_FP32, false, false, 0, 132, { 0, 0, 0, 0, 0, 0, 0 } },
    /* Ragged m, n, k; C; bf16 D through TMA; several tiles per CTA. */
    { 300, 272, 200, SMMA_BF16, SMMA_FP32, SMMA_BF16, false, false, 0, 3, { 0, 0, 0, 0, 0, 0, 0 } },
    /* fp16 operands and D, alpha, N-major B, clusters of one, 128-wide tiles. */
    { 130, 200, 77, SMMA_FP16, SMMA_FP32, SMMA_FP16, true, true, 8, 2, { 128, 3, 1, 0, 0, 0, 0 } },
    /* D stored from the registers (ldd = n + 3), N-major B, clusters of two. */
    { 257, 129, 129, SMMA_BF16, SMMA_NONE, SMMA_FP32, true, true, 3, 4, { 256, 2, 2, 1, 0, 0, 0 } },
    /* k = 1, m = 1, n = 1. */
    { 1, 1, 1, SMMA_BF16, SMMA_FP32, SMMA_FP32, false, false, 0, 132, { 0, 0, 0, 0, 0, 0, 0 } },
    /* Many k-steps through few slots, groups of 2 tile rows. */
    { 384, 264, 700, SMMA_BF16, SMMA_FP32, SMMA_BF16, true, false, 0, 4, { 0, 2, 2, 2, 0, 0, 0 } },
};

static void
test_generated(void)
{
    size_t i;

    for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
        const struct gen *g = &gens[i];
        smma_gemm_shape s;
        prob p;
        uint32_t *want;
        char what[200];

        if (test_level() == 0 && i > 2)
            continue;
        memset(&s, 0, sizeof(s));
        s.a_fmt = s.b_fmt = g->in;
        s.scale_fmt = SMMA_NONE;
        s.vec = 32;
        s.c_fmt = g->c;
        s.d_fmt = g->d;
        s.m = g->m;
        s.n = g->n;
        s.k = g->k;
        s.has_alpha = g->alpha;
        s.alpha = 0x3fa00000u; /* 1.25 */
        prob_generate(&p, &s, i % 2 == 0 && g->d == SMMA_FP32 ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM,
                      0x5d90 + i);
        prob_store(&p, g->b_nmajor, g->ldd_pad);
        want = prob_expected(&p);
        snprintf(what, sizeof(what), "%s %zux%zux%zu C %s D %s%s", smma_format_name(g->in),
                 g->m, g->n, g->k, smma_format_name(g->c), smma_format_name(g->d),
                 g->alpha ? " alpha 1.25" : "");
        check_plan(&p, SMMA_GPU_SM90_V1, 0, NULL, want, what);
        check_plan(&p, SMMA_GPU_SM90_V2, g->sms, &g->tu, want, what);
        free(want);
        prob_free(&p);
    }
}

/* A ragged K whose every term is -0: C = -0 and every product -0 give +0
 * under h100-bf16 (zero_plus: the H100/H200 tensor cores give +0 there,
 * tests/gpu/wgmma-t's signed-zero points), with the fix-up (-0 in A's
 * padding) and without it (TMA's +0): the padding cannot change a result,
 * and the plan gives the model's +0 either way. */
static void
test_padding(void)
{
    smma_gemm_shape s;
    smma_gpu_gemm_args a;
    smma_sm90_plan pl;
    prob p;
    uint32_t *want;
    char msg[256];
    size_t i;

    memset(&s, 0, sizeof(s));
    memset(&p, 0, sizeof(p));
    s.a_fmt = s.b_fmt = SMMA_BF16;
    s.scale_fmt = SMMA_NONE;
    s.vec = 32;
    s.c_fmt = s.d_fmt = SMMA_FP32;
    s.m = 64;
    s.n = 128;
    s.k = 40;
    p.s = s;
    p.a = xcalloc(s.m * s.k, sizeof(uint32_t));
    p.b = xcalloc(s.n * s.k, sizeof(uint32_t));
    p.c = xcalloc(s.m * s.n, sizeof(uint32_t));
    for (i = 0; i < s.m * s.k; i++)
        p.a[i] = 0x8000;                /* -0 times +0: every product is -0 */
    for (i = 0; i < s.m * s.n; i++)
        p.c[i] = 0x80000000u;
    prob_store(&p, false, 0);
    want = prob_expected(&p);
    ok(want[0] == 0, "C = -0 plus -0 products is +0 under h100-bf16 (0x%08lx)",
       (unsigned long) want[0]);
    check_plan(&p, SMMA_GPU_SM90_V1, 0, NULL, want, "-0 sum, K 40 in a k-step of 64");
    a = prob_args(&p);
    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_V1, 0, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    ok(diff_plan(&pl, &p, RUN_NO_FIXUP, want, "no fix-up") == 0,
       "without the fix-up (A's padding +0) the same +0");
    free(want);
    prob_free(&p);
}

/* ---- the plan against the simulator's own functions --------------------------------------- */

/* The plan's stage offsets of A and B equal the addresses the descriptors
 * of every wgmma describe (smma_wgmma_smem_addr), for every row and k they
 * read, both majornesses of B and both tile widths. */
static void
test_smem_view(void)
{
    unsigned bn, nmaj, wg, j, row, kk, bad = 0, total = 0;

    for (bn = 128; bn <= 256; bn *= 2)
        for (nmaj = 0; nmaj < 2; nmaj++) {
            smma_gpu_gemm_args a;
            smma_sm90_plan p;
            smma_sm90_tune tu = { bn, 0, 1, 0, 0, 0, 0 };
            char msg[256];
            uint32_t st = SMEM_BASE + 1024u * 48;

            memset(&a, 0, sizeof(a));
            a.shape.a_fmt = a.shape.b_fmt = SMMA_BF16;
            a.shape.scale_fmt = SMMA_NONE;
            a.shape.vec = 32;
            a.shape.c_fmt = SMMA_NONE;
            a.shape.d_fmt = SMMA_FP32;
            a.shape.m = a.shape.n = a.shape.k = 512;
            a.lda = a.ldb = a.ldd = 512;
            a.a_kmajor = true;
            a.b_kmajor = !nmaj;
            if (smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V2, 4, &tu, msg, sizeof(msg)) != 0)
                bail("plan: %s", msg);
            for (j = 0; j < SMMA_SM90_K16; j++)
                for (wg = 0; wg < 3; wg++) {     /* wg 2: B */
                    smma_wgmma_desc d;
                    smma_error err;
                    bool is_b = wg == 2;
                    unsigned rows = is_b ? bn : 64;

                    if (smma_wgmma_desc_decode(is_b ? smma_sm90_desc_b(&p, st, j)
                                                    : smma_sm90_desc_a(&p, st, wg, j),
                                               &d, &err) != SMMA_OK)
                        bail("descriptor: %s", err.msg);
                    for (row = 0; row < rows; row++)
                        for (kk = 0; kk < 16; kk++) {
                            uint32_t byte, want;

                            if (smma_wgmma_smem_addr(&d, is_b && nmaj, 16, row, kk, &byte, &err)
                                != SMMA_OK)
                                bail("smem_addr: %s", err.msg);
                            want = st + (is_b ? smma_sm90_smem_b(&p, row, 16 * j + kk)
                                              : smma_sm90_smem_a(&p, 64 * wg + row,
                                                                 16 * j + kk));
                            total++;
                            if (byte != want && bad++ < 5)
                                diag("bn %u %s wgmma %u %s row %u k %u: descriptor 0x%x, plan "
                                     "0x%x", bn, nmaj ? "N-major" : "K-major", j,
                                     is_b ? "B" : wg ? "A (wg 1)" : "A (wg 0)", row, kk, byte,
                                     want);
                        }
                }
        }
    ok(bad == 0, "the plan's swizzled stage offsets equal the wgmma descriptors' addresses "
       "(%u of %u differ)", bad, total);
}

/* The boxes of a k-step (the CTA's own and its peer's multicast) write
 * every byte of the stage once, and each epilogue buffer's offsets are one
 * to one. */
static void
test_cover(void)
{
    static const struct { unsigned bn, cluster; bool nmaj; } cfg[] = {
        { 256, 2, false }, { 256, 2, true }, { 128, 1, false }, { 128, 1, true }, { 128, 2, true },
    };
    unsigned ci, bad = 0, epi_bad = 0;

    for (ci = 0; ci < sizeof(cfg) / sizeof(cfg[0]); ci++) {
        smma_gemm_shape s;
        smma_gpu_gemm_args a;
        smma_sm90_plan pl;
        smma_sm90_tune tu = { cfg[ci].bn, 0, cfg[ci].cluster, 0, 0, 0, 0 };
        prob p;
        char msg[256];
        unsigned *cover, rank, i, wg, buf, row, col, esz;
        uint8_t *stage;
        uint32_t m0s[2] = { 0, 128 };

        memset(&s, 0, sizeof(s));
        s.a_fmt = s.b_fmt = SMMA_BF16;
        s.scale_fmt = SMMA_NONE;
        s.vec = 32;
        s.c_fmt = SMMA_NONE;
        s.d_fmt = ci % 2 ? SMMA_BF16 : SMMA_FP32;
        s.m = s.n = 256;
        s.k = 64;
        prob_generate(&p, &s, SMMA_CLASS_RANDOM, 7);
        prob_store(&p, cfg[ci].nmaj, 0);
        a = prob_args(&p);
        if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_V2, 4, &tu, msg, sizeof(msg)) != 0)
            bail("plan: %s", msg);
        cover = xcalloc(pl.pipe.stage_bytes, sizeof(unsigned));
        stage = xcalloc(pl.pipe.stage_bytes, 1);
        for (rank = 0; rank < pl.pipe.cluster; rank++) {
            memset(cover, 0, pl.pipe.stage_bytes * sizeof(unsigned));
            stage_image(&pl, &p, rank, m0s, 0, 0, stage, cover);
            for (i = 0; i < pl.pipe.stage_bytes; i++)
                bad += cover[i] != (i < pl.pipe.stage_tx ? 1u : 0u);
        }
        esz = s.d_fmt == SMMA_FP32 ? 4 : 2;
        for (wg = 0; wg < 2; wg++)
            for (buf = 0; buf < 2; buf++) {
                memset(cover, 0, pl.pipe.stage_bytes * sizeof(unsigned));
                for (row = 0; row < 64; row++)
                    for (col = 0; col < smma_sm90_epi_cols(&pl); col++) {
                        uint32_t o = smma_sm90_epi_off(&pl, wg, buf, row, col)
                                     - pl.off_epi - (2 * wg + buf) * SMMA_SM90_EPI_BUF;

                        if (o + esz > SMMA_SM90_EPI_BUF)
                            epi_bad++;
                        else
                            cover[o]++;
                    }
                for (i = 0; i < SMMA_SM90_EPI_BUF; i += esz)
                    epi_bad += cover[i] != 1;
            }
        free(cover);
        free(stage);
        prob_free(&p);
    }
    ok(bad == 0, "the boxes of every CTA of a cluster fill each stage once (%u bytes off)",
       bad);
    ok(epi_bad == 0, "every epilogue buffer's offsets are one to one (%u off)", epi_bad);
}

/* ---- acceptance ----------------------------------------------------------------------------- */

static smma_gpu_gemm_args
args_of(smma_format f, size_t m, size_t n, size_t k)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape.a_fmt = a.shape.b_fmt = f;
    a.shape.scale_fmt = SMMA_NONE;
    a.shape.vec = 32;
    a.shape.c_fmt = SMMA_NONE;
    a.shape.d_fmt = SMMA_BF16;
    a.shape.m = m;
    a.shape.n = n;
    a.shape.k = k;
    a.lda = a.ldb = (k + 7) / 8 * 8;
    a.a_kmajor = a.b_kmajor = true;
    a.ldd = n;
    return a;
}

static void
expect_refusal(const smma_gpu_gemm_args *a, smma_gpu_kernel k, const char *needle,
               const char *what)
{
    char msg[256] = "";
    int rc = smma_sm90_check(a, k, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_EINVAL && strstr(msg, needle) != NULL, "refused: %s (\"%s\")",
       what, msg);
}

static void
test_check(void)
{
    smma_gpu_gemm_args a;
    smma_sm90_plan p;
    smma_sm90_tune tu;
    char msg[256];
    int rc;

    a = args_of(SMMA_BF16, 1, 1, 1);
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_V1, msg, sizeof(msg)),
           "v1 takes bf16 1 x 1 x 1");
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_V2, msg, sizeof(msg)),
           "v2 takes bf16 1 x 1 x 1");
    a = args_of(SMMA_BF16, 8192, 8192, 8192);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V2, 132, NULL, msg, sizeof(msg));
    ok(p.bm == 128 && p.bn == 256 && p.pipe.stages == 4 && p.pipe.cluster == 2
       && p.pipe.grid == 132 && p.pipe.group == 2 && p.epi_tma
       && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT + 1024,
       "8192^3 on v2: 128 x 256 tiles, %u stages of %u bytes, clusters of %u, grid %u, "
       "%u bytes of shared memory", p.pipe.stages, p.pipe.stage_bytes, p.pipe.cluster,
       p.pipe.grid, p.smem_bytes);
    a = args_of(SMMA_FP16, 16, 100, 4096);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V2, 132, NULL, msg, sizeof(msg));
    ok(p.bn == 128 && p.pipe.stages == 6 && p.pipe.cluster == 1 && p.pipe.grid == 1 && p.fp16,
       "fp16 16 x 100 x 4096 on v2: one 128 x 128 tile, 6 stages, no cluster");
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V1, 132, NULL, msg, sizeof(msg));
    ok(p.bm == 64 && p.bn == 128 && p.pipe.stages == 4 && p.pipe.grid == 1 && !p.epi_tma,
       "v1: one 64 x 128 tile per CTA, 4 stages, D from the registers");
    a = args_of(SMMA_BF16, 1000, 1000, 1000);
    a.ldd = 1003;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V2, 132, NULL, msg, sizeof(msg));
    ok(!p.epi_tma, "v2 with ldd 1003 stores D from the registers");

    a = args_of(SMMA_BF16, 16, 16, 16);
    a.shape.b_fmt = SMMA_FP16;
    expect_refusal(&a, SMMA_GPU_SM90_V1, "bf16 x bf16 or fp16 x fp16", "bf16 x fp16");
    a = args_of(SMMA_E4M3, 16, 16, 32);
    a.shape.scale_fmt = SMMA_E8M0;
    expect_refusal(&a, SMMA_GPU_SM90_V2, "with scales", "mxfp8");
    a = args_of(SMMA_BF16, 16, 16, 16);
    a.a_kmajor = false;
    a.lda = 16;
    expect_refusal(&a, SMMA_GPU_SM90_V2, "K-major", "M-major A");
    a = args_of(SMMA_BF16, 16, 16, 20);
    a.lda = 20;
    expect_refusal(&a, SMMA_GPU_SM90_V2, "lda = 20", "lda 20");
    a = args_of(SMMA_BF16, 16, 16, 16);
    a.b = (const void *) (uintptr_t) 8;
    expect_refusal(&a, SMMA_GPU_SM90_V1, "16-byte aligned", "B at an 8-byte boundary");
    a = args_of(SMMA_BF16, 16, 16, 16);
    a.shape.c_fmt = SMMA_BF16;
    a.ldc = 16;
    expect_refusal(&a, SMMA_GPU_SM90_V1, "C must be fp32", "bf16 C");
    a = args_of(SMMA_BF16, 16, 16, 16);
    a.ldd = 8;
    expect_refusal(&a, SMMA_GPU_SM90_V1, "shorter than its row", "ldd < n");
    a = args_of(SMMA_BF16, 16, 16, 16);
    a.shape.m = 0;
    expect_refusal(&a, SMMA_GPU_SM90_V1, "sm90-v1: ", "m = 0");
    expect_refusal(&a, SMMA_GPU_SM80_V1, "not sm90-v1, sm90-v2, sm90-promote32, sm90-bs or sm90-mixed",
                   "an sm80 kernel");
    a = args_of(SMMA_BF16, 16, 16, 16);
    memset(&tu, 0, sizeof(tu));
    tu.stages = 8;
    tu.bn = 256;
    ok(smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_V2, 132, &tu, msg, sizeof(msg))
       == SMMA_GPU_STATUS_EINVAL && strstr(msg, "8 stages") != NULL,
       "8 stages of 128 x 256 do not fit (\"%s\")", msg);

    /* The knobs. */
    setenv("SMMA_SM90_CLUSTER", "3", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_CLUSTER=3") != NULL, "SMMA_SM90_CLUSTER=3 refused (\"%s\")",
       msg);
    setenv("SMMA_SM90_CLUSTER", "1", 1);
    setenv("SMMA_SM90_BN", "192", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_BN=192") != NULL, "SMMA_SM90_BN=192 refused (\"%s\")", msg);
    setenv("SMMA_SM90_BN", "128", 1);
    setenv("SMMA_SM90_STAGES", "5", 1);
    setenv("SMMA_SM90_GROUP", "4", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_OK && tu.bn == 128
       && tu.stages == 5 && tu.cluster == 1 && tu.group == 4, "the knobs are read");
    /* sm90-mixed's: X's rows (a power of two from 8) and the atoms of a k-step. */
    setenv("SMMA_SM90_BN", "8", 1);
    setenv("SMMA_SM90_KQ", "4", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_OK && tu.bn == 8
       && tu.kq == 4, "SMMA_SM90_BN=8 and SMMA_SM90_KQ=4 are read");
    setenv("SMMA_SM90_KQ", "3", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_KQ=3") != NULL, "SMMA_SM90_KQ=3 refused (\"%s\")", msg);
    setenv("SMMA_SM90_KQ", "8", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_KQ=8") != NULL, "SMMA_SM90_KQ=8 refused (\"%s\")", msg);
    unsetenv("SMMA_SM90_KQ");
    setenv("SMMA_SM90_BN", "4", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_BN=4") != NULL, "SMMA_SM90_BN=4 refused (\"%s\")", msg);
    setenv("SMMA_SM90_BN", "128", 1);
    setenv("SMMA_SM90_GROUP", "x", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_GROUP=x") != NULL, "SMMA_SM90_GROUP=x refused");
    setenv("SMMA_SM90_GROUP", "4", 1);
    setenv("SMMA_SM90_PRE", "2", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_PRE=2") != NULL, "SMMA_SM90_PRE=2 refused (\"%s\")", msg);
    setenv("SMMA_SM90_PRE", "0", 1);
    rc = smma_sm90_tune_env(&tu, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && tu.pre == 1, "SMMA_SM90_PRE=0: never a pass (pre %u)",
       tu.pre);
    setenv("SMMA_SM90_PRE", "1", 1);
    rc = smma_sm90_tune_env(&tu, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && tu.pre == 2,
       "SMMA_SM90_PRE=1: a pass wherever it applies (pre %u)", tu.pre);
    unsetenv("SMMA_SM90_PRE");
    setenv("SMMA_SM90_P32_SPROD", "2", 1);
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_EINVAL
       && strstr(msg, "SMMA_SM90_P32_SPROD=2") != NULL,
       "SMMA_SM90_P32_SPROD=2 refused (\"%s\")", msg);
    setenv("SMMA_SM90_P32_SPROD", "0", 1);
    rc = smma_sm90_tune_env(&tu, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && tu.sprod == 1,
       "SMMA_SM90_P32_SPROD=0: the scales' products in fp32 only (sprod %u)", tu.sprod);
    setenv("SMMA_SM90_P32_SPROD", "1", 1);
    rc = smma_sm90_tune_env(&tu, msg, sizeof(msg));
    ok(rc == SMMA_GPU_STATUS_OK && tu.sprod == 2,
       "SMMA_SM90_P32_SPROD=1: on the tensor core (sprod %u)", tu.sprod);
    unsetenv("SMMA_SM90_P32_SPROD");
    unsetenv("SMMA_SM90_CLUSTER");
    unsetenv("SMMA_SM90_BN");
    unsetenv("SMMA_SM90_STAGES");
    unsetenv("SMMA_SM90_GROUP");
    ok(smma_sm90_tune_env(&tu, msg, sizeof(msg)) == SMMA_GPU_STATUS_OK && tu.bn == 0
       && tu.stages == 0 && tu.cluster == 0 && tu.group == 0 && tu.pre == 0 && tu.sprod == 0,
       "unset knobs: the defaults");
}

/* The scheduler: every tile once, each cluster's CTAs on one unit. */
static void
test_schedule(void)
{
    static const struct { uint32_t tm, tn, cluster, group, grid; } cfg[] = {
        { 64, 32, 2, 8, 132 }, { 7, 5, 2, 2, 6 }, { 7, 5, 1, 3, 4 }, { 1, 9, 1, 16, 132 },
        { 3, 3, 2, 1, 2 },
    };
    unsigned ci, bad = 0, total = 0;

    for (ci = 0; ci < sizeof(cfg) / sizeof(cfg[0]); ci++) {
        smma_pipe pp;
        unsigned *seen = xcalloc((size_t) cfg[ci].tm * cfg[ci].tn, sizeof(unsigned));
        uint32_t c, i, tm, tn, t;

        memset(&pp, 0, sizeof(pp));
        pp.tiles_m = cfg[ci].tm;
        pp.tiles_n = cfg[ci].tn;
        pp.cluster = cfg[ci].cluster;
        pp.group = cfg[ci].group;
        pp.grid = cfg[ci].grid;
        for (c = 0; c < pp.grid; c++)
            for (i = 0; i < smma_pipe_cta_nunits(&pp, c); i++) {
                uint32_t tm0, tn0;
                bool in = smma_pipe_cta_tile(&pp, c, i, &tm, &tn);

                smma_pipe_cta_tile(&pp, c - c % pp.cluster, i, &tm0, &tn0);
                bad += tn != tn0 || tm != tm0 + c % pp.cluster || in != (tm < pp.tiles_m);
                if (in && tn < pp.tiles_n)
                    seen[tm * pp.tiles_n + tn]++;
            }
        for (t = 0; t < pp.tiles_m * pp.tiles_n; t++) {
            total++;
            bad += seen[t] != 1;
        }
        free(seen);
    }
    ok(bad == 0, "the scheduler gives every tile to one CTA, a cluster one unit (%u of %u "
       "off)", bad, total);

    /* The ring's position stepped without a division is the one computed. */
    {
        smma_pipe pp;
        smma_pipe_pos pos = { 0, 0 };
        uint32_t st, iter;

        bad = 0;
        memset(&pp, 0, sizeof(pp));
        for (st = 1; st <= 8; st++) {
            pp.stages = st;
            pos.slot = pos.phase = 0;
            for (iter = 0; iter < 100; iter++, smma_pipe_next(&pp, &pos))
                bad += pos.slot != smma_pipe_slot(&pp, iter)
                       || pos.phase != smma_pipe_phase(&pp, iter);
        }
        ok(bad == 0, "smma_pipe_next steps through smma_pipe_slot and _phase (%u off)", bad);
    }
}

int
main(void)
{
    static const char *const suites[] = {
        "gemm.bf16.exact", "gemm.bf16.model.h100-bf16", "gemm.bf16.kernel.exact",
        "gemm.bf16.kernel.model.h100-bf16", "gemm.bf16.wgmma.exact",
        "gemm.bf16.wgmma.model.h100-bf16", "gemm.fp16.wgmma.model.h100-bf16",
    };
    double t0 = tap_seconds();
    size_t i;

    plan_lazy();
    test_check();
    test_schedule();
    test_smem_view();
    test_cover();
    test_padding();
    for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
        suite(suites[i]);
    test_generated();
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}
