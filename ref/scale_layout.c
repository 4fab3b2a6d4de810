/*
 * scale_layout.c - scale-factor layouts: (row, scale column) <-> byte
 * offset.  The formulas and their sources are in softmma/scale_layout.h and
 * doc/scale-layouts.md.
 *
 * Each layout has an offset function and a coordinate function written
 * from its own definition; the tests check each against the others, against
 * literal offsets worked out by hand, and against a transcription of the
 * sources' view/permute code.  triton5d deliberately goes through its 5-D
 * index rather than reusing the 128x4 formula, so that the claim "the same
 * bytes" is tested, not assumed.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/scale_layout.h>

struct layout_info {
    const char *name;
    unsigned row_tile;
    unsigned col_tile;
    bool mx_only; /* only vec 32 */
};

static const struct layout_info layouts[SMMA_SL_COUNT] = {
    { "linear", 1, 1, false },
    { "128x4", 128, 4, false },
    { "triton5d", 128, 4, false },
    { "cdna4-16", 32, 8, true },
    { "cdna4-32", 32, 8, true },
};

#define KNOWN_NAMES "linear, 128x4, triton5d, cdna4-16, cdna4-32"

int
smma_scale_layout_from_name(const char *name, smma_scale_layout *out, smma_error *err)
{
    unsigned i;

    if (name == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no scale layout name given");
    for (i = 0; i < SMMA_SL_COUNT; i++)
        if (strcasecmp(name, layouts[i].name) == 0) {
            *out = (smma_scale_layout) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL, "unknown scale layout '%s' (known: %s)", name,
                          KNOWN_NAMES);
}

const char *
smma_scale_layout_name(smma_scale_layout l)
{
    if ((unsigned) l >= SMMA_SL_COUNT)
        return "?";
    return layouts[l].name;
}

/* Rounds x up to a multiple of t; false when that does not fit. */
static bool
round_up(size_t x, size_t t, size_t *out)
{
    size_t r = x % t;

    if (r == 0) {
        *out = x;
        return true;
    }
    if (x > SIZE_MAX - (t - r))
        return false;
    *out = x + (t - r);
    return true;
}

int
smma_scale_layout_shape(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                        smma_scale_shape *out, smma_error *err)
{
    smma_scale_shape s;

    if ((unsigned) l >= SMMA_SL_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "layout %d is not a scale layout (known: %s)",
                              (int) l, KNOWN_NAMES);
    if (rows == 0)
        return smma_error_set(err, SMMA_EINVAL, "rows must be at least 1 (got 0)");
    if (k == 0)
        return smma_error_set(err, SMMA_EINVAL, "k must be at least 1 (got 0)");
    if (vec != 16 && vec != 32)
        return smma_error_set(err, SMMA_EINVAL, "vec must be 16 or 32 (got %u)", vec);
    if (layouts[l].mx_only && vec != 32)
        return smma_error_set(err, SMMA_EINVAL,
                              "vec must be 32 for layout %s (CDNA4 scaled MFMAs take one e8m0 "
                              "scale per 32 elements; got %u)",
                              layouts[l].name, vec);
    if (out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no place for the result (NULL)");
    memset(&s, 0, sizeof(s));
    s.layout = l;
    s.rows = rows;
    s.k = k;
    s.vec = vec;
    s.kb = k / vec + (k % vec != 0);
    s.row_tile = layouts[l].row_tile;
    s.col_tile = layouts[l].col_tile;
    if (!round_up(rows, s.row_tile, &s.rows_pad) || !round_up(s.kb, s.col_tile, &s.kb_pad) ||
        s.rows_pad > SIZE_MAX / s.kb_pad)
        return smma_error_set(err, SMMA_ERANGE,
                              "a %zu x %zu scale matrix in layout %s (padded to multiples of "
                              "%u x %u) does not fit in size_t bytes",
                              rows, s.kb, layouts[l].name, s.row_tile, s.col_tile);
    s.bytes = s.rows_pad * s.kb_pad;
    *out = s;
    return SMMA_OK;
}

int
smma_scale_layout_size(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                       size_t *bytes, smma_error *err)
{
    smma_scale_shape s;
    int rc;

    if (bytes == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no place for the size (NULL)");
    rc = smma_scale_layout_shape(l, rows, k, vec, &s, err);
    if (rc == SMMA_OK)
        *bytes = s.bytes;
    return rc;
}

/* The 5-D index of the Triton tutorial's (R'/128, Kb'/4, 32, 4, 4) tensor. */
static void
triton5d_index(size_t m, size_t kb, size_t idx[5])
{
    idx[0] = m / 128;
    idx[1] = kb / 4;
    idx[2] = m % 32;
    idx[3] = (m / 32) % 4;
    idx[4] = kb % 4;
}

/* The offset of (m, kb), both inside the padded matrix, unchecked. */
static size_t
offset_of(const smma_scale_shape *s, size_t m, size_t kb)
{
    size_t idx[5];

    switch (s->layout) {
    case SMMA_SL_LINEAR:
        return m * s->kb + kb;
    case SMMA_SL_128X4:
        return ((m / 128) * (s->kb_pad / 4) + kb / 4) * 512 + (m % 32) * 16 +
               ((m / 32) % 4) * 4 + kb % 4;
    case SMMA_SL_TRITON5D:
        /* Row-major over the shape (R'/128, Kb'/4, 32, 4, 4). */
        triton5d_index(m, kb, idx);
        return (((idx[0] * (s->kb_pad / 4) + idx[1]) * 32 + idx[2]) * 4 + idx[3]) * 4 + idx[4];
    case SMMA_SL_CDNA4_16:
        return (m / 32) * (s->kb_pad * 32) + (kb / 8) * 256 + (kb % 4) * 64 + (m % 16) * 4 +
               ((kb % 8) / 4) * 2 + (m % 32) / 16;
    case SMMA_SL_CDNA4_32:
        return (m / 32) * (s->kb_pad * 32) + (kb / 8) * 256 + (kb % 2) * 128 + (m % 32) * 4 +
               (kb % 8) / 2;
    default:
        return 0;
    }
}

/* The padded coordinate of the byte at off < s->bytes, unchecked. */
static void
coord_of(const smma_scale_shape *s, size_t off, size_t *m, size_t *kb)
{
    size_t q, r, idx[5];

    switch (s->layout) {
    case SMMA_SL_LINEAR:
        *m = off / s->kb;
        *kb = off % s->kb;
        break;
    case SMMA_SL_128X4:
        q = off / 512; /* the tile, K-first */
        r = off % 512;
        *m = (q / (s->kb_pad / 4)) * 128 + ((r / 4) % 4) * 32 + r / 16;
        *kb = (q % (s->kb_pad / 4)) * 4 + r % 4;
        break;
    case SMMA_SL_TRITON5D:
        idx[4] = off % 4;
        idx[3] = (off / 4) % 4;
        idx[2] = (off / 16) % 32;
        idx[1] = (off / 512) % (s->kb_pad / 4);
        idx[0] = (off / 512) / (s->kb_pad / 4);
        *m = idx[0] * 128 + idx[3] * 32 + idx[2];
        *kb = idx[1] * 4 + idx[4];
        break;
    case SMMA_SL_CDNA4_16:
        q = off / (s->kb_pad * 32); /* the 32-row group */
        r = off % (s->kb_pad * 32);
        *m = q * 32 + (r % 2) * 16 + (r / 4) % 16;
        *kb = (r / 256) * 8 + ((r / 2) % 2) * 4 + (r % 256) / 64;
        break;
    case SMMA_SL_CDNA4_32:
        q = off / (s->kb_pad * 32);
        r = off % (s->kb_pad * 32);
        *m = q * 32 + (r / 4) % 32;
        *kb = (r / 256) * 8 + (r % 4) * 2 + (r % 256) / 128;
        break;
    default:
        *m = *kb = 0;
        break;
    }
}

/* Checks that (m, kb) lies in the rows x kb matrix. */
static int
check_coord(const smma_scale_shape *s, size_t m, size_t kb, smma_error *err)
{
    if (m >= s->rows)
        return smma_error_set(err, SMMA_EINVAL,
                              "m = %zu is out of range: the scale matrix has %zu rows", m,
                              s->rows);
    if (kb >= s->kb)
        return smma_error_set(err, SMMA_EINVAL,
                              "kb = %zu is out of range: there are %zu scale columns "
                              "(k %zu / vec %u, rounded up)",
                              kb, s->kb, s->k, s->vec);
    return SMMA_OK;
}

int
smma_scale_offset(smma_scale_layout l, size_t rows, size_t k, unsigned vec, size_t m,
                  size_t kb, size_t *off, smma_error *err)
{
    smma_scale_shape s;
    int rc = smma_scale_layout_shape(l, rows, k, vec, &s, err);

    if (rc != SMMA_OK)
        return rc;
    if ((rc = check_coord(&s, m, kb, err)) != SMMA_OK)
        return rc;
    if (off == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no place for the offset (NULL)");
    *off = offset_of(&s, m, kb);
    return SMMA_OK;
}

int
smma_scale_coord(smma_scale_layout l, size_t rows, size_t k, unsigned vec, size_t off,
                 size_t *m, size_t *kb, bool *is_padding, smma_error *err)
{
    smma_scale_shape s;
    int rc = smma_scale_layout_shape(l, rows, k, vec, &s, err);

    if (rc != SMMA_OK)
        return rc;
    if (off >= s.bytes)
        return smma_error_set(err, SMMA_EINVAL,
                              "off = %zu is out of range: the %s array has %zu bytes", off,
                              layouts[l].name, s.bytes);
    if (m == NULL || kb == NULL || is_padding == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no place for the coordinate (NULL)");
    coord_of(&s, off, m, kb);
    *is_padding = *m >= s.rows || *kb >= s.kb;
    return SMMA_OK;
}

int
smma_scale_pack(smma_scale_layout l, size_t rows, size_t k, unsigned vec,
                const uint8_t *linear, uint8_t *out, uint8_t fill, smma_error *err)
{
    smma_scale_shape s;
    size_t m, kb;
    int rc = smma_scale_layout_shape(l, rows, k, vec, &s, err);

    if (rc != SMMA_OK)
        return rc;
    if (linear == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s array is NULL",
                              linear == NULL ? "the linear" : "the output");
    /* Every byte of the array is either padding or exactly one scale (the
     * layouts are bijections, which the tests check), so filling first and
     * then placing the scales defines every byte. */
    memset(out, fill, s.bytes);
    for (m = 0; m < s.rows; m++)
        for (kb = 0; kb < s.kb; kb++)
            out[offset_of(&s, m, kb)] = linear[m * s.kb + kb];
    return SMMA_OK;
}

int
smma_scale_unpack(smma_scale_layout l, size_t rows, size_t k, unsigned vec, const uint8_t *in,
                  uint8_t *linear, smma_error *err)
{
    smma_scale_shape s;
    size_t m, kb;
    int rc = smma_scale_layout_shape(l, rows, k, vec, &s, err);

    if (rc != SMMA_OK)
        return rc;
    if (in == NULL || linear == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s array is NULL",
                              in == NULL ? "the input" : "the linear");
    for (m = 0; m < s.rows; m++)
        for (kb = 0; kb < s.kb; kb++)
            linear[m * s.kb + kb] = in[offset_of(&s, m, kb)];
    return SMMA_OK;
}

int
smma_scale_triton5d_index(size_t rows, size_t k, unsigned vec, size_t m, size_t kb,
                          size_t idx[5], smma_error *err)
{
    smma_scale_shape s;
    int rc = smma_scale_layout_shape(SMMA_SL_TRITON5D, rows, k, vec, &s, err);

    if (rc != SMMA_OK)
        return rc;
    if ((rc = check_coord(&s, m, kb, err)) != SMMA_OK)
        return rc;
    if (idx == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no place for the index (NULL)");
    triton5d_index(m, kb, idx);
    return SMMA_OK;
}
