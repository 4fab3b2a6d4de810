/*
 * tests/ref/scale-layout-t.c - the scale-factor layouts (softmma/
 * scale_layout.h): literal offsets worked out by hand, the structure of the
 * 128x4 tile, triton5d against 128x4, the CDNA4 shuffles against a
 * transcription of the sources' view/permute code and against the lane
 * reading the sources give, bijection and round trips over many shapes
 * (ragged ones included), pack/unpack with padding, and the errors.
 *
 * Every literal offset below was computed by hand from the formulas in
 * doc/scale-layouts.md, which restate the cited sources:
 *   128x4:    ((m/128)*(Kb'/4) + kb/4)*512 + (m%32)*16 + ((m/32)%4)*4 + kb%4
 *   cdna4-16: (m/32)*(Kb'*32) + (kb/8)*256 + (kb%4)*64 + (m%16)*4
 *             + ((kb%8)/4)*2 + (m%32)/16
 *   cdna4-32: (m/32)*(Kb'*32) + (kb/8)*256 + (kb%2)*128 + (m%32)*4 + (kb%8)/2
 * where Kb' is Kb = ceil(K / V) rounded up to the layout's column tile.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/scale_layout.h>

#include "tap/basic.h"

/* ------------------------------------------------------------------ helpers */

/* Mismatch reporting: the first ten per test point are printed. */
static unsigned long mismatches;

static void miss(const char *fmt, ...) TAP_PRINTF(1, 2);

static void
miss(const char *fmt, ...)
{
    if (mismatches++ < 10) {
        char line[256];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);
        diag("%s", line);
    }
}

static size_t
offset_or_die(smma_scale_layout l, size_t rows, size_t k, unsigned vec, size_t m, size_t kb)
{
    smma_error err;
    size_t off = (size_t) -1;

    if (smma_scale_offset(l, rows, k, vec, m, kb, &off, &err) != SMMA_OK)
        diag("smma_scale_offset(%s, %zu, %zu, %u, %zu, %zu): %s", smma_scale_layout_name(l),
             rows, k, vec, m, kb, err.msg);
    return off;
}

/*
 * The offset, in the contiguous result of x.view(shape).permute(perm), of
 * the element at flat index p of the row-major x: a transcription of what
 * PyTorch's view + permute + contiguous do, used to replay the sources'
 * code literally.
 */
static size_t
permuted_offset(size_t p, const size_t *shape, const int *perm, int n)
{
    size_t idx[8], off = 0;
    int i;

    for (i = n - 1; i >= 0; i--) {
        idx[i] = p % shape[i];
        p /= shape[i];
    }
    for (i = 0; i < n; i++)
        off = off * shape[perm[i]] + idx[perm[i]];
    return off;
}

/* ------------------------------------------------------------------ names */

static void
test_names(void)
{
    static const char *const names[] = { "linear", "128x4", "triton5d", "cdna4-16",
                                         "cdna4-32" };
    smma_scale_layout l;
    smma_error err;
    unsigned i;
    int rc;

    for (i = 0; i < SMMA_SL_COUNT; i++) {
        l = SMMA_SL_COUNT;
        rc = smma_scale_layout_from_name(names[i], &l, &err);
        ok(rc == SMMA_OK && l == (smma_scale_layout) i &&
               strcmp(smma_scale_layout_name(l), names[i]) == 0,
           "layout name %s round trips", names[i]);
    }
    rc = smma_scale_layout_from_name("CDNA4-32", &l, &err);
    ok(rc == SMMA_OK && l == SMMA_SL_CDNA4_32, "layout names are case-insensitive");
    rc = smma_scale_layout_from_name("256x4", &l, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "'256x4'") != NULL && strstr(err.msg, "cdna4-16"),
       "unknown layout name: EINVAL naming it and the known ones (%s)", err.msg);
    is_string("?", smma_scale_layout_name(SMMA_SL_COUNT), "name of a non-layout is ?");
}

/* ------------------------------------------------------------------ shapes */

struct shape_case {
    smma_scale_layout l;
    size_t rows, k;
    unsigned vec;
    size_t kb, rows_pad, kb_pad, bytes;
};

static void
test_shapes(void)
{
    static const struct shape_case cases[] = {
        { SMMA_SL_LINEAR, 3, 100, 32, 4, 3, 4, 12 },        /* ceil(100/32) = 4 */
        { SMMA_SL_LINEAR, 5, 16, 16, 1, 5, 1, 5 },
        { SMMA_SL_128X4, 3, 100, 32, 4, 128, 4, 512 },
        { SMMA_SL_128X4, 130, 80, 16, 5, 256, 8, 2048 },    /* 80/16 = 5 -> 8 */
        { SMMA_SL_128X4, 256, 256, 32, 8, 256, 8, 2048 },
        { SMMA_SL_128X4, 1, 1, 16, 1, 128, 4, 512 },
        { SMMA_SL_TRITON5D, 130, 80, 16, 5, 256, 8, 2048 },
        { SMMA_SL_CDNA4_16, 40, 200, 32, 7, 64, 8, 512 },   /* ceil(200/32) = 7 */
        { SMMA_SL_CDNA4_32, 1, 1, 32, 1, 32, 8, 256 },
        { SMMA_SL_CDNA4_16, 64, 512, 32, 16, 64, 16, 1024 },
        { SMMA_SL_CDNA4_32, 33, 257, 32, 9, 64, 16, 1024 },
    };
    unsigned i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct shape_case *c = &cases[i];
        smma_scale_shape s;
        smma_error err;
        size_t bytes = 0;
        int rc = smma_scale_layout_shape(c->l, c->rows, c->k, c->vec, &s, &err);
        int rc2 = smma_scale_layout_size(c->l, c->rows, c->k, c->vec, &bytes, &err);
        bool good = rc == SMMA_OK && rc2 == SMMA_OK && s.kb == c->kb &&
                    s.rows_pad == c->rows_pad && s.kb_pad == c->kb_pad && s.bytes == c->bytes &&
                    bytes == c->bytes && s.rows == c->rows && s.k == c->k && s.vec == c->vec;

        ok(good, "%s rows %zu k %zu vec %u: Kb %zu, padded %zu x %zu = %zu bytes",
           smma_scale_layout_name(c->l), c->rows, c->k, c->vec, c->kb, c->rows_pad, c->kb_pad,
           c->bytes);
        if (!good)
            diag("seen: rc %d/%d Kb %zu padded %zu x %zu = %zu (size %zu)", rc, rc2, s.kb,
                 s.rows_pad, s.kb_pad, s.bytes, bytes);
    }
}

/* ------------------------------------------------------------------ literals */

struct lit {
    smma_scale_layout l;
    size_t rows, k;
    unsigned vec;
    size_t m, kb, off;
    const char *why;
};

static const struct lit literals[] = {
    /* 128x4, 256 rows, K 256, V 32: Kb = Kb' = 8, two tiles per 128 rows. */
    { SMMA_SL_128X4, 256, 256, 32, 0, 0, 0, "the first scale" },
    { SMMA_SL_128X4, 256, 256, 32, 0, 1, 1, "scale columns 0..3 are contiguous" },
    { SMMA_SL_128X4, 256, 256, 32, 0, 3, 3, "last column of the first tile" },
    { SMMA_SL_128X4, 256, 256, 32, 0, 4, 512, "column 4 starts the next tile (K-first)" },
    { SMMA_SL_128X4, 256, 256, 32, 0, 7, 515, "512 + 3" },
    { SMMA_SL_128X4, 256, 256, 32, 1, 0, 16, "row 1 at stride 16" },
    { SMMA_SL_128X4, 256, 256, 32, 31, 0, 496, "row 31 = 31*16" },
    { SMMA_SL_128X4, 256, 256, 32, 32, 0, 4, "row 32: the second 32-row group, +4" },
    { SMMA_SL_128X4, 256, 256, 32, 33, 2, 22, "16 + 4 + 2" },
    { SMMA_SL_128X4, 256, 256, 32, 64, 0, 8, "third 32-row group, +8" },
    { SMMA_SL_128X4, 256, 256, 32, 96, 0, 12, "fourth 32-row group, +12" },
    { SMMA_SL_128X4, 256, 256, 32, 127, 3, 511, "496 + 12 + 3: the last byte of a tile" },
    { SMMA_SL_128X4, 256, 256, 32, 128, 0, 1024, "rows 128.. follow both K tiles" },
    { SMMA_SL_128X4, 256, 256, 32, 128, 4, 1536, "tile (1,1) = 3*512" },
    { SMMA_SL_128X4, 256, 256, 32, 255, 7, 2047, "the last byte" },
    { SMMA_SL_128X4, 256, 256, 32, 200, 5, 1673, "1536 + 8*16 + 2*4 + 1" },
    /* Ragged 128x4: 3 rows, K 100 (Kb 4); 130 rows, K 80, V 16 (Kb 5 -> 8). */
    { SMMA_SL_128X4, 3, 100, 32, 2, 3, 35, "2*16 + 3" },
    { SMMA_SL_128X4, 130, 80, 16, 0, 4, 512, "Kb' = 8: two tiles per 128 rows" },
    { SMMA_SL_128X4, 130, 80, 16, 127, 4, 1020, "512 + 496 + 12" },
    { SMMA_SL_128X4, 130, 80, 16, 129, 4, 1552, "tile 3 = 1536, + 1*16" },
    /* triton5d is the same bytes. */
    { SMMA_SL_TRITON5D, 256, 256, 32, 200, 5, 1673, "same byte as 128x4" },
    { SMMA_SL_TRITON5D, 130, 80, 16, 129, 4, 1552, "same byte as 128x4" },
    /* linear */
    { SMMA_SL_LINEAR, 3, 100, 32, 2, 3, 11, "2*4 + 3" },
    { SMMA_SL_LINEAR, 130, 80, 16, 129, 4, 649, "129*5 + 4" },
    /* cdna4-16, 32 rows, K 256 (Kb 8): one 256-byte chunk. */
    { SMMA_SL_CDNA4_16, 32, 256, 32, 0, 0, 0, "op0 of lane 0" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 16, 0, 1, "rows 16..31 are op2: byte 1" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 0, 4, 2, "columns 4..7 are op1: byte 2" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 16, 4, 3, "op3: byte 3" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 1, 0, 4, "row 1 is lane 1: the next dword" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 0, 1, 64, "column 1 is lanes 16..31" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 15, 3, 252, "lane 63, op0" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 31, 7, 255, "lane 63, op3" },
    { SMMA_SL_CDNA4_16, 32, 256, 32, 17, 5, 71, "lane 17, op3: 64 + 4 + 2 + 1" },
    { SMMA_SL_CDNA4_16, 64, 512, 32, 33, 9, 836, "512 + 256 + 64 + 4" },
    { SMMA_SL_CDNA4_16, 40, 200, 32, 39, 6, 414, "ragged: 256 + 128 + 28 + 2" },
    /* cdna4-32, 32 rows, K 256 (Kb 8). */
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 0, 0, "op0 of lane 0" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 1, 128, "odd columns are lanes 32..63" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 2, 1, "columns 2,3 are op1: byte 1" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 3, 129, "lane 32, op1" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 6, 3, "lane 0, op3" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 0, 7, 131, "lane 32, op3" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 1, 0, 4, "row 1 is lane 1" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 31, 7, 255, "lane 63, op3" },
    { SMMA_SL_CDNA4_32, 32, 256, 32, 5, 4, 22, "lane 5, op2" },
    { SMMA_SL_CDNA4_32, 64, 512, 32, 33, 9, 900, "512 + 256 + 128 + 4" },
    { SMMA_SL_CDNA4_32, 40, 200, 32, 39, 6, 287, "ragged: 256 + 28 + 3" },
};

static void
test_literals(void)
{
    unsigned i;

    for (i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
        const struct lit *c = &literals[i];
        size_t got = offset_or_die(c->l, c->rows, c->k, c->vec, c->m, c->kb);
        size_t m = 0, kb = 0;
        bool pad = true;
        smma_error err;

        is_int((long long) c->off, (long long) got,
               "%s rows %zu k %zu vec %u: (%zu,%zu) -> %zu (%s)", smma_scale_layout_name(c->l),
               c->rows, c->k, c->vec, c->m, c->kb, c->off, c->why);
        ok(smma_scale_coord(c->l, c->rows, c->k, c->vec, c->off, &m, &kb, &pad, &err) ==
                   SMMA_OK &&
               m == c->m && kb == c->kb && !pad,
           "%s: byte %zu is (%zu,%zu)", smma_scale_layout_name(c->l), c->off, c->m, c->kb);
    }
}

/* ------------------------------------------------------------------ 128x4 structure */

static void
test_128x4_structure(void)
{
    /* 256 rows, K 512, V 32: Kb = 16, 4 tiles along K. */
    const size_t rows = 256, k = 512, kbn = 16;
    size_t m, kb, g, i, j;

    mismatches = 0;
    for (kb = 0; kb < kbn; kb++)
        for (m = 0; m < 32; m++) {
            size_t base = offset_or_die(SMMA_SL_128X4, rows, k, 32, 0, kb);
            size_t got = offset_or_die(SMMA_SL_128X4, rows, k, 32, m, kb);

            if (got != base + 16 * m)
                miss("m %zu kb %zu: %zu, wanted %zu", m, kb, got, base + 16 * m);
        }
    ok(mismatches == 0, "128x4: rows 0..31 of a tile lie at stride 16");

    mismatches = 0;
    for (g = 0; g < 4; g++)
        for (m = 0; m < 32; m++)
            for (kb = 0; kb < kbn; kb++) {
                size_t a = offset_or_die(SMMA_SL_128X4, rows, k, 32, m, kb);
                size_t b = offset_or_die(SMMA_SL_128X4, rows, k, 32, 128 + 32 * g + m, kb);
                size_t c = offset_or_die(SMMA_SL_128X4, rows, k, 32, 32 * g + m, kb);

                if (c != a + 4 * g || b != a + 4 * g + 2048)
                    miss("group %zu row %zu kb %zu: %zu", g, m, kb, c);
            }
    ok(mismatches == 0, "128x4: the four 32-row groups lie at stride 4 (both tile rows)");

    mismatches = 0;
    for (m = 0; m < rows; m++)
        for (kb = 0; kb < kbn; kb++) {
            size_t a = offset_or_die(SMMA_SL_128X4, rows, k, 32, m, kb - kb % 4);
            size_t got = offset_or_die(SMMA_SL_128X4, rows, k, 32, m, kb);

            if (got != a + kb % 4)
                miss("m %zu kb %zu: %zu, wanted %zu", m, kb, got, a + kb % 4);
        }
    ok(mismatches == 0, "128x4: scale columns are contiguous in fours");

    mismatches = 0;
    for (i = 0; i < rows / 128; i++)
        for (j = 0; j < kbn / 4; j++) {
            size_t got = offset_or_die(SMMA_SL_128X4, rows, k, 32, 128 * i, 4 * j);

            if (got != (i * (kbn / 4) + j) * 512)
                miss("tile (%zu,%zu) starts at %zu, wanted %zu", i, j, got,
                     (i * (kbn / 4) + j) * 512);
        }
    ok(mismatches == 0, "128x4: 512-byte tiles, ordered K-first");
}

/* ------------------------------------------------------------------ many shapes */

static const size_t row_set[] = { 1, 3, 16, 31, 32, 33, 64, 127, 128, 129, 200, 256, 300 };
static const size_t k_set[] = { 1, 15, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 256, 300, 513 };
static const size_t row_set0[] = { 1, 33, 129 };
static const size_t k_set0[] = { 1, 17, 100, 300 };

struct shape_iter {
    const size_t *rows, *ks;
    size_t nrows, nks;
    size_t i; /* over rows x ks x {16, 32} */
};

static void
shapes_begin(struct shape_iter *it)
{
    if (test_level() == 0) {
        it->rows = row_set0;
        it->nrows = sizeof(row_set0) / sizeof(row_set0[0]);
        it->ks = k_set0;
        it->nks = sizeof(k_set0) / sizeof(k_set0[0]);
    } else {
        it->rows = row_set;
        it->nrows = sizeof(row_set) / sizeof(row_set[0]);
        it->ks = k_set;
        it->nks = sizeof(k_set) / sizeof(k_set[0]);
    }
    it->i = 0;
}

/* Next shape valid for layout l; false at the end. */
static bool
shapes_next(struct shape_iter *it, smma_scale_layout l, smma_scale_shape *s)
{
    smma_error err;

    while (it->i < it->nrows * it->nks * 2) {
        size_t i = it->i++;
        unsigned vec = i % 2 ? 32 : 16;
        size_t rows = it->rows[(i / 2) % it->nrows];
        size_t k = it->ks[(i / 2) / it->nrows];

        if (vec == 16 && (l == SMMA_SL_CDNA4_16 || l == SMMA_SL_CDNA4_32))
            continue;
        if (smma_scale_layout_shape(l, rows, k, vec, s, &err) != SMMA_OK)
            bail("shape %s %zu %zu %u: %s", smma_scale_layout_name(l), rows, k, vec, err.msg);
        return true;
    }
    return false;
}

/* Bijection and both round trips, every layout, every shape. */
static void
test_bijection(smma_scale_layout l)
{
    struct shape_iter it;
    smma_scale_shape s;
    unsigned long bad_shape = 0, bad_fwd = 0, bad_inv = 0, bad_pad = 0, nshapes = 0;
    const char *name = smma_scale_layout_name(l);

    shapes_begin(&it);
    mismatches = 0;
    while (shapes_next(&it, l, &s)) {
        unsigned char *seen = calloc(s.bytes, 1), *seen_pad = calloc(s.bytes, 1);
        size_t m, kb, off, npad = 0;
        smma_error err;

        if (seen == NULL || seen_pad == NULL)
            sysbail("out of memory");
        nshapes++;
        if (s.rows_pad % s.row_tile != 0 || s.kb_pad % s.col_tile != 0 || s.rows_pad < s.rows ||
            s.rows_pad - s.rows >= s.row_tile || s.kb_pad < s.kb ||
            s.kb_pad - s.kb >= s.col_tile || s.bytes != s.rows_pad * s.kb_pad ||
            s.kb != (s.k + s.vec - 1) / s.vec) {
            bad_shape++;
            miss("shape rows %zu k %zu: padded %zu x %zu", s.rows, s.k, s.rows_pad, s.kb_pad);
        }
        /* (m, kb) -> off: in range, never twice, and back. */
        for (m = 0; m < s.rows; m++)
            for (kb = 0; kb < s.kb; kb++) {
                size_t m2 = 0, kb2 = 0;
                bool pad = true;

                if (smma_scale_offset(l, s.rows, s.k, s.vec, m, kb, &off, &err) != SMMA_OK ||
                    off >= s.bytes || seen[off]) {
                    bad_fwd++;
                    miss("rows %zu k %zu: (%zu,%zu) out of range or repeated", s.rows, s.k, m,
                         kb);
                    continue;
                }
                seen[off] = 1;
                if (smma_scale_coord(l, s.rows, s.k, s.vec, off, &m2, &kb2, &pad, &err) !=
                        SMMA_OK ||
                    m2 != m || kb2 != kb || pad) {
                    bad_fwd++;
                    miss("rows %zu k %zu: (%zu,%zu) -> off -> other coordinate", s.rows, s.k, m,
                         kb);
                }
            }
        /* off -> padded coordinate: distinct over the whole padded matrix,
         * padding exactly where no scale went. */
        for (off = 0; off < s.bytes; off++) {
            bool pad = false;

            if (smma_scale_coord(l, s.rows, s.k, s.vec, off, &m, &kb, &pad, &err) != SMMA_OK ||
                m >= s.rows_pad || kb >= s.kb_pad || seen_pad[m * s.kb_pad + kb]) {
                bad_inv++;
                miss("rows %zu k %zu: byte %zu -> bad or repeated coordinate (%zu)", s.rows,
                     s.k, off, m);
                continue;
            }
            seen_pad[m * s.kb_pad + kb] = 1;
            if (pad != (m >= s.rows || kb >= s.kb) || pad != !seen[off]) {
                bad_pad++;
                miss("rows %zu k %zu: byte %zu padding flag wrong (%d)", s.rows, s.k, off,
                     (int) pad);
            }
            npad += pad;
        }
        if (npad != s.bytes - s.rows * s.kb) {
            bad_pad++;
            miss("rows %zu k %zu: %zu padding bytes, wanted %zu", s.rows, s.k, npad,
                 s.bytes - s.rows * s.kb);
        }
        free(seen);
        free(seen_pad);
    }
    ok(bad_shape == 0, "%s: padded shape right over %lu shapes", name, nshapes);
    ok(bad_fwd == 0, "%s: (m,kb) -> offset is one-to-one and coord inverts it", name);
    ok(bad_inv == 0, "%s: offset -> padded coordinate is one-to-one over every byte", name);
    ok(bad_pad == 0, "%s: padding bytes are exactly the ones no scale maps to", name);
}

/* pack then unpack, padding = fill, nothing written past the end. */
static void
test_pack(smma_scale_layout l)
{
    struct shape_iter it;
    smma_scale_shape s;
    unsigned long bad_place = 0, bad_fill = 0, bad_round = 0, bad_end = 0;
    const char *name = smma_scale_layout_name(l);
    tap_rng rng;
    unsigned n = 0;

    tap_rng_seed(&rng, 0x5ca1e + (uint64_t) l);
    shapes_begin(&it);
    mismatches = 0;
    while (shapes_next(&it, l, &s)) {
        size_t nlin = s.rows * s.kb, i, m, kb;
        uint8_t *lin = malloc(nlin), *back = malloc(nlin), *out = malloc(s.bytes + 16);
        uint8_t fill = n++ % 2 ? 0x00 : 0xa5;
        smma_error err;

        if (lin == NULL || back == NULL || out == NULL)
            sysbail("out of memory");
        for (i = 0; i < nlin; i++)
            lin[i] = (uint8_t) tap_rng_next(&rng);
        memset(out, 0x3c, s.bytes + 16);
        memset(back, 0, nlin);
        if (smma_scale_pack(l, s.rows, s.k, s.vec, lin, out, fill, &err) != SMMA_OK ||
            smma_scale_unpack(l, s.rows, s.k, s.vec, out, back, &err) != SMMA_OK)
            bail("pack/unpack %s: %s", name, err.msg);
        for (m = 0; m < s.rows; m++)
            for (kb = 0; kb < s.kb; kb++) {
                size_t off = offset_or_die(l, s.rows, s.k, s.vec, m, kb);

                if (out[off] != lin[m * s.kb + kb]) {
                    bad_place++;
                    miss("rows %zu k %zu: scale (%zu,%zu) not at its offset", s.rows, s.k, m,
                         kb);
                }
            }
        for (i = 0; i < s.bytes; i++) {
            bool pad;

            if (smma_scale_coord(l, s.rows, s.k, s.vec, i, &m, &kb, &pad, &err) != SMMA_OK)
                bail("coord: %s", err.msg);
            if (pad && out[i] != fill) {
                bad_fill++;
                miss("rows %zu k %zu: padding byte %zu is 0x%02x", s.rows, s.k, i,
                     (unsigned) out[i]);
            }
        }
        for (i = 0; i < 16; i++)
            if (out[s.bytes + i] != 0x3c)
                bad_end++;
        if (memcmp(lin, back, nlin) != 0) {
            bad_round++;
            miss("rows %zu k %zu vec %u: unpack(pack(x)) != x", s.rows, s.k, s.vec);
        }
        free(lin);
        free(back);
        free(out);
    }
    ok(bad_place == 0, "%s: pack puts every scale at its offset", name);
    ok(bad_fill == 0, "%s: pack writes the fill byte in every padding byte", name);
    ok(bad_end == 0, "%s: pack writes nothing past the array's size", name);
    ok(bad_round == 0, "%s: unpack(pack(x)) == x", name);
}

/* ------------------------------------------------------------------ sources replayed */

/*
 * The sources' code, replayed with permuted_offset over many shapes:
 *
 *  - triton5d / 128x4: the Triton tutorial unpacks its (R'/128, Kb'/4, 32,
 *    4, 4) tensor with .permute(0, 3, 2, 1, 4).reshape(R', Kb'): byte p of
 *    the stored tensor is element permuted_offset(p, ...) of the row-major
 *    (R', Kb') matrix.
 *  - cdna4-16: shuffle_scales_cdna4 (Triton tutorial and test_matmul.py),
 *    view(R'/32, 2, 16, Kb'/8, 2, 4, 1).permute(0, 3, 5, 2, 4, 1, 6), and
 *    AITER's e8m0_shuffle / rocm-libraries' preSwizzleScalesGFX950,
 *    view(R'/32, 2, 16, Kb'/8, 2, 4).permute(0, 3, 5, 2, 4, 1).
 *  - cdna4-32: view(R'/32, 32, Kb'/8, 4, 2, 1).permute(0, 2, 4, 1, 3, 5).
 */
static void
test_sources(void)
{
    static const int perm_t5[5] = { 0, 3, 2, 1, 4 };
    static const int perm_16[7] = { 0, 3, 5, 2, 4, 1, 6 };
    static const int perm_16a[6] = { 0, 3, 5, 2, 4, 1 };
    static const int perm_32[6] = { 0, 2, 4, 1, 3, 5 };
    static const smma_scale_layout five[2] = { SMMA_SL_TRITON5D, SMMA_SL_128X4 };
    struct shape_iter it;
    smma_scale_shape s;
    unsigned long bad;
    unsigned t;

    for (t = 0; t < 2; t++) {
        bad = 0;
        mismatches = 0;
        shapes_begin(&it);
        while (shapes_next(&it, five[t], &s)) {
            size_t shape[5] = { s.rows_pad / 128, s.kb_pad / 4, 32, 4, 4 };
            size_t off, m, kb;
            bool pad;
            smma_error err;

            for (off = 0; off < s.bytes; off++) {
                size_t lin = permuted_offset(off, shape, perm_t5, 5);

                if (smma_scale_coord(five[t], s.rows, s.k, s.vec, off, &m, &kb, &pad, &err) !=
                        SMMA_OK ||
                    lin != m * s.kb_pad + kb ||
                    (!pad && offset_or_die(five[t], s.rows, s.k, s.vec, m, kb) != off)) {
                    bad++;
                    miss("rows %zu k %zu: byte %zu is element %zu", s.rows, s.k, off, lin);
                }
            }
        }
        ok(bad == 0, "%s: the Triton tutorial's permute(0, 3, 2, 1, 4) unpacking, replayed",
           smma_scale_layout_name(five[t]));
    }

    bad = 0;
    mismatches = 0;
    shapes_begin(&it);
    while (shapes_next(&it, SMMA_SL_CDNA4_16, &s)) {
        size_t shape7[7] = { s.rows_pad / 32, 2, 16, s.kb_pad / 8, 2, 4, 1 };
        size_t shape6[6] = { s.rows_pad / 32, 2, 16, s.kb_pad / 8, 2, 4 };
        size_t m, kb;

        for (m = 0; m < s.rows; m++)
            for (kb = 0; kb < s.kb; kb++) {
                size_t off = offset_or_die(SMMA_SL_CDNA4_16, s.rows, s.k, 32, m, kb);
                size_t a = permuted_offset(m * s.kb_pad + kb, shape7, perm_16, 7);
                size_t b = permuted_offset(m * s.kb_pad + kb, shape6, perm_16a, 6);

                if (off != a || off != b) {
                    bad++;
                    miss("(%zu,%zu): %zu, the sources say %zu", m, kb, off, a);
                }
            }
    }
    ok(bad == 0, "cdna4-16: Triton's shuffle_scales_cdna4(16) and AITER's e8m0_shuffle, "
                 "replayed");

    bad = 0;
    mismatches = 0;
    shapes_begin(&it);
    while (shapes_next(&it, SMMA_SL_CDNA4_32, &s)) {
        size_t shape6[6] = { s.rows_pad / 32, 32, s.kb_pad / 8, 4, 2, 1 };
        size_t m, kb;

        for (m = 0; m < s.rows; m++)
            for (kb = 0; kb < s.kb; kb++) {
                size_t off = offset_or_die(SMMA_SL_CDNA4_32, s.rows, s.k, 32, m, kb);
                size_t a = permuted_offset(m * s.kb_pad + kb, shape6, perm_32, 6);

                if (off != a) {
                    bad++;
                    miss("(%zu,%zu): %zu, the source says %zu", m, kb, off, a);
                }
            }
    }
    ok(bad == 0, "cdna4-32: Triton's shuffle_scales_cdna4(32), replayed");
}

/*
 * The reading the sources give the CDNA4 shuffles: in each 256-byte chunk
 * (32 rows x 8 scale columns, a 32x256 operand tile), lane l's dword holds
 * its scale for each of the four MFMAs covering the tile.
 *   16x16x128: lane l gives row l%16 and K group l/16 (4 groups of 32) of
 *   an op; op = 2*(row half) + (K half); byte order op0, op2, op1, op3.
 *   32x32x64: lane l gives row l%32 and K group l/32 (2 groups of 32);
 *   op = (kb%8)/2; byte order op0, op1, op2, op3.
 */
static void
test_cdna4_lanes(void)
{
    static const unsigned byte_of_op16[4] = { 0, 2, 1, 3 };
    unsigned lane, op;
    unsigned long bad = 0;

    mismatches = 0;
    for (op = 0; op < 4; op++)
        for (lane = 0; lane < 64; lane++) {
            size_t m = (op / 2) * 16 + lane % 16, kb = (op % 2) * 4 + lane / 16;
            size_t off = offset_or_die(SMMA_SL_CDNA4_16, 64, 512, 32, 32 + m, 8 + kb);

            if (off != 512 + 256 + lane * 4 + byte_of_op16[op]) {
                bad++;
                miss("op %u lane %u: byte %zu (row %zu)", op, lane, off, m);
            }
        }
    ok(bad == 0, "cdna4-16: lane l's dword holds ops 0, 2, 1, 3 of a 32x256 tile");

    bad = 0;
    mismatches = 0;
    for (op = 0; op < 4; op++)
        for (lane = 0; lane < 64; lane++) {
            size_t m = lane % 32, kb = op * 2 + lane / 32;
            size_t off = offset_or_die(SMMA_SL_CDNA4_32, 64, 512, 32, 32 + m, 8 + kb);

            if (off != 512 + 256 + lane * 4 + op) {
                bad++;
                miss("op %u lane %u: byte %zu (row %zu)", op, lane, off, m);
            }
        }
    ok(bad == 0, "cdna4-32: lane l's dword holds ops 0, 1, 2, 3 of a 32x256 tile");
}

static void
test_triton5d_index(void)
{
    size_t idx[5] = { 9, 9, 9, 9, 9 }, m, kb;
    smma_error err;
    unsigned long bad = 0;
    int rc;

    rc = smma_scale_triton5d_index(256, 256, 32, 200, 5, idx, &err);
    ok(rc == SMMA_OK && idx[0] == 1 && idx[1] == 1 && idx[2] == 8 && idx[3] == 2 && idx[4] == 1,
       "triton5d: (200,5) is [1][1][8][2][1]");
    rc = smma_scale_triton5d_index(130, 80, 16, 129, 4, idx, &err);
    ok(rc == SMMA_OK && idx[0] == 1 && idx[1] == 1 && idx[2] == 1 && idx[3] == 0 && idx[4] == 0,
       "triton5d: (129,4) is [1][1][1][0][0]");
    /* off = a*(Kb'/4)*512 + b*512 + c*16 + d*4 + e, m = a*128 + d*32 + c,
     * kb = b*4 + e, over a whole 256 x 16 matrix. */
    mismatches = 0;
    for (m = 0; m < 256; m++)
        for (kb = 0; kb < 16; kb++) {
            size_t off = offset_or_die(SMMA_SL_TRITON5D, 256, 512, 32, m, kb);

            if (smma_scale_triton5d_index(256, 512, 32, m, kb, idx, &err) != SMMA_OK ||
                idx[0] * 128 + idx[3] * 32 + idx[2] != m || idx[1] * 4 + idx[4] != kb ||
                off != idx[0] * 4 * 512 + idx[1] * 512 + idx[2] * 16 + idx[3] * 4 + idx[4] ||
                idx[1] >= 4 || idx[2] >= 32 || idx[3] >= 4 || idx[4] >= 4) {
                bad++;
                miss("(%zu,%zu): byte %zu, index [%zu]...", m, kb, off, idx[0]);
            }
        }
    ok(bad == 0, "triton5d: the 5-D index gives m, kb and the byte offset as documented");
    rc = smma_scale_triton5d_index(256, 256, 32, 256, 0, idx, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "m = 256") != NULL,
       "triton5d index: m out of range is EINVAL (%s)", err.msg);
}

/* ------------------------------------------------------------------ errors */

static void
test_errors(void)
{
    smma_error err;
    size_t off = 77, bytes = 77, m = 77, kb = 77;
    bool pad = false;
    uint8_t lin[16] = { 0 }, out[512];
    int rc;

    rc = smma_scale_layout_size(SMMA_SL_128X4, 0, 64, 32, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "rows") != NULL && bytes == 77,
       "rows 0: EINVAL naming rows (%s)", err.msg);
    rc = smma_scale_layout_size(SMMA_SL_LINEAR, 4, 0, 32, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "k must") != NULL, "k 0: EINVAL naming k (%s)",
       err.msg);
    rc = smma_scale_layout_size(SMMA_SL_128X4, 4, 64, 8, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "vec") != NULL && strstr(err.msg, "8") != NULL,
       "vec 8: EINVAL naming vec (%s)", err.msg);
    rc = smma_scale_layout_size(SMMA_SL_CDNA4_16, 32, 256, 16, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "vec") != NULL && strstr(err.msg, "cdna4-16"),
       "cdna4-16 with vec 16: EINVAL (%s)", err.msg);
    rc = smma_scale_layout_size(SMMA_SL_CDNA4_32, 32, 256, 16, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "cdna4-32") != NULL,
       "cdna4-32 with vec 16: EINVAL (%s)", err.msg);
    rc = smma_scale_layout_size((smma_scale_layout) 99, 32, 256, 32, &bytes, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "99") != NULL, "layout 99: EINVAL (%s)", err.msg);
    rc = smma_scale_layout_size(SMMA_SL_128X4, 32, 256, 32, NULL, &err);
    is_int(SMMA_EINVAL, rc, "size with a NULL result: EINVAL");
    rc = smma_scale_layout_size(SMMA_SL_128X4, 0, 256, 32, &bytes, NULL);
    is_int(SMMA_EINVAL, rc, "a NULL error pointer is allowed");

    /* Overflow: rounding rows up, and the product. */
    rc = smma_scale_layout_size(SMMA_SL_128X4, SIZE_MAX, 64, 32, &bytes, &err);
    ok(rc == SMMA_ERANGE && strstr(err.msg, "size_t") != NULL,
       "128x4: rows SIZE_MAX cannot be padded: ERANGE (%s)", err.msg);
    rc = smma_scale_layout_size(SMMA_SL_LINEAR, SIZE_MAX, 64, 32, &bytes, &err);
    is_int(SMMA_ERANGE, rc, "linear: SIZE_MAX rows x 2 columns: ERANGE");
    rc = smma_scale_layout_size(SMMA_SL_CDNA4_32, SIZE_MAX / 64, SIZE_MAX / 2, 32, &bytes, &err);
    is_int(SMMA_ERANGE, rc, "cdna4-32: huge rows x huge K: ERANGE");
    bytes = 0;
    rc = smma_scale_layout_size(SMMA_SL_LINEAR, SIZE_MAX, 1, 32, &bytes, &err);
    ok(rc == SMMA_OK && bytes == SIZE_MAX, "linear: SIZE_MAX rows x 1 column fits exactly");
    bytes = 0;
    rc = smma_scale_layout_size(SMMA_SL_128X4, SIZE_MAX - SIZE_MAX % 128, 1, 32, &bytes,
                                &err);
    is_int(SMMA_ERANGE, rc, "128x4: 4 padded columns times the largest 128-multiple: ERANGE");
    ok(strstr(err.msg, "(padded to multiples of 128 x 4) does not fit in size_t") != NULL,
       "... the message gives the tile, rows first (%s)", err.msg);

    /* Coordinates out of range name the coordinate and the bound. */
    rc = smma_scale_offset(SMMA_SL_128X4, 3, 100, 32, 3, 0, &off, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "m = 3") != NULL && strstr(err.msg, "3 rows") &&
           off == 77,
       "offset: m = rows is EINVAL (%s)", err.msg);
    rc = smma_scale_offset(SMMA_SL_128X4, 3, 100, 32, 0, 4, &off, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "kb = 4") != NULL && strstr(err.msg, "4 scale") &&
           off == 77,
       "offset: kb = Kb is EINVAL, even inside the padding (%s)", err.msg);
    is_string("kb = 4 is out of range: there are 4 scale columns (k 100 / vec 32, rounded up)",
              err.msg, "... the message gives k and vec");
    rc = smma_scale_offset(SMMA_SL_CDNA4_16, 40, 200, 32, 39, 7, &off, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "kb = 7") != NULL, "cdna4-16: kb = 7 of 7 (%s)",
       err.msg);
    rc = smma_scale_offset(SMMA_SL_128X4, 3, 100, 32, 0, 0, NULL, &err);
    is_int(SMMA_EINVAL, rc, "offset with a NULL result: EINVAL");
    rc = smma_scale_coord(SMMA_SL_128X4, 3, 100, 32, 512, &m, &kb, &pad, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "off = 512") != NULL && strstr(err.msg, "512 bytes"),
       "coord: off = size is EINVAL (%s)", err.msg);
    rc = smma_scale_coord(SMMA_SL_LINEAR, 3, 100, 32, 12, &m, &kb, &pad, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "12 bytes") != NULL, "coord linear: off = 12 of 12");
    rc = smma_scale_coord(SMMA_SL_128X4, 3, 100, 32, 0, &m, NULL, &pad, &err);
    is_int(SMMA_EINVAL, rc, "coord with a NULL result: EINVAL");
    rc = smma_scale_coord(SMMA_SL_128X4, 3, 100, 32, 511, &m, &kb, &pad, &err);
    ok(rc == SMMA_OK && m == 127 && kb == 3 && pad, "coord: byte 511 is padding (127,3)");
    rc = smma_scale_coord(SMMA_SL_128X4, 3, 100, 32, 16 * 3, &m, &kb, &pad, &err);
    ok(rc == SMMA_OK && m == 3 && kb == 0 && pad, "coord: byte 48 is padding row 3");

    /* pack/unpack errors leave the output as it was. */
    memset(out, 0x11, sizeof(out));
    rc = smma_scale_pack(SMMA_SL_128X4, 0, 100, 32, lin, out, 0, &err);
    ok(rc == SMMA_EINVAL && out[0] == 0x11 && out[511] == 0x11,
       "pack with rows 0: EINVAL, output untouched");
    rc = smma_scale_pack(SMMA_SL_128X4, 3, 100, 32, NULL, out, 0, &err);
    ok(rc == SMMA_EINVAL && strstr(err.msg, "linear") != NULL && out[0] == 0x11,
       "pack from NULL: EINVAL (%s)", err.msg);
    rc = smma_scale_pack(SMMA_SL_128X4, 3, 100, 32, lin, NULL, 0, &err);
    is_int(SMMA_EINVAL, rc, "pack to NULL: EINVAL");
    rc = smma_scale_unpack(SMMA_SL_128X4, 3, 100, 32, NULL, lin, &err);
    is_int(SMMA_EINVAL, rc, "unpack from NULL: EINVAL");
    rc = smma_scale_unpack(SMMA_SL_CDNA4_32, 3, 100, 16, out, lin, &err);
    is_int(SMMA_EINVAL, rc, "unpack cdna4-32 with vec 16: EINVAL");
}

int
main(void)
{
    unsigned l;

    plan_lazy();
    test_names();
    test_shapes();
    test_literals();
    test_128x4_structure();
    test_triton5d_index();
    test_sources();
    test_cdna4_lanes();
    for (l = 0; l < SMMA_SL_COUNT; l++) {
        test_bijection((smma_scale_layout) l);
        test_pack((smma_scale_layout) l);
    }
    test_errors();
    return exit_status();
}
