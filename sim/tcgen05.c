/*
 * tcgen05.c - tcgen05.mma instruction and shared-memory descriptors, and the
 * canonical shared-memory operand layouts.  The bit tables and their sources
 * (PTX ISA "Instruction descriptor", "Shared memory descriptor", "Canonical
 * Layouts"; CUTLASS cute/arch/mma_sm100_desc.hpp) are in softmma/tcgen05.h.
 *
 * One checker serves encode and decode: encode checks the struct then packs;
 * decode unpacks, refuses set reserved bits, then runs the same checker, so
 * a word decodes exactly when it is the encoding of a legal struct.  The bit
 * packing, the swizzle and the canonical layouts are the functions of
 * softmma/tc05_addr.h, which the sm_100 kernels call too.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/tc05_addr.h>
#include <softmma/tcgen05.h>

static const char *const kind_names[SMMA_TC05_KIND_COUNT] = {
    "tf32", "f16", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4",
};

const char *
smma_tc05_kind_name(smma_tc05_kind kind)
{
    return (unsigned) kind < SMMA_TC05_KIND_COUNT ? kind_names[kind] : "?";
}

bool
smma_tc05_kind_block_scaled(smma_tc05_kind kind)
{
    return kind == SMMA_TC05_KIND_MXF8F6F4 || kind == SMMA_TC05_KIND_MXF4 ||
           kind == SMMA_TC05_KIND_MXF4NVF4;
}

/* Whether code is an A/B format of kind, and whether that format may be
 * MN-major.  CUTLASS (InstrDescriptor, a_major_): "Major value of 1 is only
 * valid for E4M3, E5M2, INT8 (signed and unsigned), F16, BF16 and TF32";
 * the ISA's mxf4/mxf4nvf4 table allows only "No Transpose = 0". */
static bool
fmt_legal(smma_tc05_kind kind, unsigned code, bool *mn_ok)
{
    *mn_ok = true;
    switch (kind) {
    case SMMA_TC05_KIND_TF32:
        return code == SMMA_TC05_TF32;
    case SMMA_TC05_KIND_F16:
        return code == SMMA_TC05_F16 || code == SMMA_TC05_BF16;
    case SMMA_TC05_KIND_I8:
        return code == SMMA_TC05_U8 || code == SMMA_TC05_S8;
    case SMMA_TC05_KIND_F8F6F4:
    case SMMA_TC05_KIND_MXF8F6F4:
        *mn_ok = code == SMMA_TC05_E4M3 || code == SMMA_TC05_E5M2;
        return code <= 5 && code != 2;
    case SMMA_TC05_KIND_MXF4:
    case SMMA_TC05_KIND_MXF4NVF4:
        *mn_ok = false;
        return code == SMMA_TC05_MXF4_E2M1;
    default:
        return false;
    }
}

static bool
d_legal(smma_tc05_kind kind, unsigned d)
{
    switch (kind) {
    case SMMA_TC05_KIND_TF32:
        return d == SMMA_TC05_D_F32;
    case SMMA_TC05_KIND_F16:
    case SMMA_TC05_KIND_F8F6F4:
        return d == SMMA_TC05_D_F16 || d == SMMA_TC05_D_F32;
    case SMMA_TC05_KIND_I8:
        return d == SMMA_TC05_D_S32;
    default:
        return false;
    }
}

int
smma_tc05_idesc_check(smma_tc05_kind kind, const smma_tc05_idesc *d, smma_error *err)
{
    const char *kn = smma_tc05_kind_name(kind);
    bool bs = smma_tc05_kind_block_scaled(kind);
    bool mxf4 = kind == SMMA_TC05_KIND_MXF4 || kind == SMMA_TC05_KIND_MXF4NVF4;
    bool a_mn_ok, b_mn_ok;

    if ((unsigned) kind >= SMMA_TC05_KIND_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05 kind %d is not a kind", (int) kind);
    if (d == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no instruction descriptor given");
    if (!fmt_legal(kind, d->a_fmt, &a_mn_ok))
        return smma_error_set(err, SMMA_EINVAL, "a_fmt %u is not an A format of .kind::%s",
                              d->a_fmt, kn);
    if (!fmt_legal(kind, d->b_fmt, &b_mn_ok))
        return smma_error_set(err, SMMA_EINVAL, "b_fmt %u is not a B format of .kind::%s",
                              d->b_fmt, kn);
    if (d->a_mn_major && !a_mn_ok)
        return smma_error_set(err, SMMA_EINVAL,
                              "a_mn_major (transpose A) is not allowed for A format %u of "
                              ".kind::%s", d->a_fmt, kn);
    if (d->b_mn_major && !b_mn_ok)
        return smma_error_set(err, SMMA_EINVAL,
                              "b_mn_major (transpose B) is not allowed for B format %u of "
                              ".kind::%s", d->b_fmt, kn);
    if (kind == SMMA_TC05_KIND_I8 && (d->negate_a || d->negate_b))
        return smma_error_set(err, SMMA_EINVAL, "negate_a/negate_b must be 0 for .kind::i8");
    if (d->n < 8 || d->n > 256 || d->n % 8 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "n %u is not a multiple of 8 in [8, 256]", d->n);
    if (bs) {
        unsigned idmax = mxf4 ? 2 : 3;

        if (d->m != 128 && d->m != 256)
            return smma_error_set(err, SMMA_EINVAL,
                                  "m %u is not 128 or 256 (.kind::%s encodes m >> 7)", d->m, kn);
        if (d->sparse_id || d->saturate || d->d_fmt || d->max_shift)
            return smma_error_set(err, SMMA_EINVAL,
                                  "sparse_id, saturate, d_fmt and max_shift must be 0 for "
                                  ".kind::%s", kn);
        if (d->scale_fmt > 1 ||
            (d->scale_fmt == SMMA_TC05_SCALE_UE4M3 && kind != SMMA_TC05_KIND_MXF4NVF4))
            return smma_error_set(err, SMMA_EINVAL,
                                  "scale_fmt %u is not legal for .kind::%s (UE8M0 = 1%s)",
                                  d->scale_fmt, kn,
                                  kind == SMMA_TC05_KIND_MXF4NVF4 ? ", UE4M3 = 0" : "");
        if (d->sfa_id > idmax || (mxf4 && d->sfa_id % 2))
            return smma_error_set(err, SMMA_EINVAL, "sfa_id %u is not legal for .kind::%s (%s)",
                                  d->sfa_id, kn, mxf4 ? "0 or 2" : "0..3");
        if (d->sfb_id > idmax || (mxf4 && d->sfb_id % 2))
            return smma_error_set(err, SMMA_EINVAL, "sfb_id %u is not legal for .kind::%s (%s)",
                                  d->sfb_id, kn, mxf4 ? "0 or 2" : "0..3");
        if (d->k96 && !mxf4)
            return smma_error_set(err, SMMA_EINVAL, "k96 (bit 31) is reserved for .kind::%s",
                                  kn);
        if (d->k96 && d->sparse)
            return smma_error_set(err, SMMA_EINVAL, "k96 is only legal for dense .kind::%s",
                                  kn);
    } else {
        if (d->m != 32 && d->m != 64 && d->m != 128 && d->m != 256)
            return smma_error_set(err, SMMA_EINVAL,
                                  "m %u is not 64, 128 or 256 (or 32 for .ws)", d->m);
        if (d->sfa_id || d->sfb_id || d->scale_fmt || d->k96)
            return smma_error_set(err, SMMA_EINVAL,
                                  "sfa_id, sfb_id, scale_fmt and k96 must be 0 for .kind::%s",
                                  kn);
        if (!d_legal(kind, d->d_fmt))
            return smma_error_set(err, SMMA_EINVAL, "d_fmt %u is not a D format of .kind::%s",
                                  d->d_fmt, kn);
        if (d->saturate && kind != SMMA_TC05_KIND_I8)
            return smma_error_set(err, SMMA_EINVAL, "saturate is only legal for .kind::i8");
        if (d->sparse_id > 3 || (d->sparse_id && !d->sparse))
            return smma_error_set(err, SMMA_EINVAL,
                                  "sparse_id %u must be 0..3, and 0 when dense", d->sparse_id);
        if (d->max_shift > 3)
            return smma_error_set(err, SMMA_EINVAL, "max_shift %u is not 0..3", d->max_shift);
    }
    if (d->m == 256 && d->n % 16 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "n %u is not a multiple of 16, as m 256 (cta_group::2) requires",
                              d->n);
    return SMMA_OK;
}

int
smma_tc05_idesc_encode(smma_tc05_kind kind, const smma_tc05_idesc *d, uint32_t *out,
                       smma_error *err)
{
    uint32_t v;
    int rc = smma_tc05_idesc_check(kind, d, err);

    if (rc != SMMA_OK)
        return rc;
    if (out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no output word given");
    v = smma_tc05_idesc_ab(d->sparse, d->a_fmt, d->b_fmt, d->negate_a, d->negate_b,
                           d->a_mn_major, d->b_mn_major, d->n);
    if (smma_tc05_kind_block_scaled(kind))
        v |= smma_tc05_idesc_bs(d->sfb_id, d->scale_fmt, d->m, d->sfa_id, d->k96);
    else
        v |= smma_tc05_idesc_dense(d->sparse_id, d->saturate, d->d_fmt, d->m, d->max_shift);
    *out = v;
    return SMMA_OK;
}

#define FIELD(v, lo, n) (((v) >> (lo)) & ((1u << (n)) - 1u))

int
smma_tc05_idesc_decode(smma_tc05_kind kind, uint32_t v, smma_tc05_idesc *d, smma_error *err)
{
    const char *kn = smma_tc05_kind_name(kind);
    uint32_t reserved;

    if ((unsigned) kind >= SMMA_TC05_KIND_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05 kind %d is not a kind", (int) kind);
    if (d == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no instruction descriptor given");
    if (smma_tc05_kind_block_scaled(kind)) {
        /* Bits 0-1, 3, 6, 24-26; 12 for mxf4*; 31 for mxf8f6f4. */
        reserved = 0x3u | 1u << 3 | 1u << 6 | 0x7u << 24;
        if (kind == SMMA_TC05_KIND_MXF8F6F4)
            reserved |= 1u << 31;
        else
            reserved |= 1u << 12;
    } else {
        reserved = 1u << 6 | 1u << 23 | 1u << 29;
    }
    if (v & reserved)
        return smma_error_set(err, SMMA_EINVAL,
                              "reserved bits 0x%08lx are set in .kind::%s descriptor 0x%08lx",
                              (unsigned long) (v & reserved), kn, (unsigned long) v);
    memset(d, 0, sizeof(*d));
    d->sparse = FIELD(v, 2, 1);
    d->a_fmt = FIELD(v, 7, 3);
    d->b_fmt = FIELD(v, 10, 3);
    d->negate_a = FIELD(v, 13, 1);
    d->negate_b = FIELD(v, 14, 1);
    d->a_mn_major = FIELD(v, 15, 1);
    d->b_mn_major = FIELD(v, 16, 1);
    d->n = FIELD(v, 17, 6) << 3;
    if (smma_tc05_kind_block_scaled(kind)) {
        d->sfb_id = FIELD(v, 4, 2);
        d->scale_fmt = FIELD(v, 23, 1);
        d->m = FIELD(v, 27, 2) << 7;
        d->sfa_id = FIELD(v, 29, 2);
        d->k96 = FIELD(v, 31, 1);
    } else {
        d->sparse_id = FIELD(v, 0, 2);
        d->saturate = FIELD(v, 3, 1);
        d->d_fmt = FIELD(v, 4, 2);
        d->m = FIELD(v, 24, 5) << 4;
        d->max_shift = FIELD(v, 30, 2);
    }
    return smma_tc05_idesc_check(kind, d, err);
}

/* ---- shared-memory descriptor ---------------------------------------------- */

static bool
swizzle_valid(unsigned s)
{
    return s == 0 || s == 1 || s == 2 || s == 4 || s == 6;
}

static int
check_offset(const char *name, uint32_t x, smma_error *err)
{
    if (x % 16 != 0 || x > 0x3FFFFu)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s 0x%lx is not a multiple of 16 below 2^18", name,
                              (unsigned long) x);
    return SMMA_OK;
}

int
smma_tc05_sdesc_encode(const smma_tc05_sdesc *d, uint64_t *out, smma_error *err)
{
    uint64_t v;
    int rc;

    if (d == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no shared-memory descriptor given");
    if ((rc = check_offset("start", d->start, err)) != SMMA_OK ||
        (rc = check_offset("lbo", d->lbo, err)) != SMMA_OK ||
        (rc = check_offset("sbo", d->sbo, err)) != SMMA_OK)
        return rc;
    if (d->base_offset > 7)
        return smma_error_set(err, SMMA_EINVAL, "base_offset %u is not 0..7", d->base_offset);
    if (!swizzle_valid((unsigned) d->swizzle))
        return smma_error_set(err, SMMA_EINVAL,
                              "swizzle %d is not 0, 1, 2, 4 or 6", (int) d->swizzle);
    v = smma_tc05_sdesc_word(d->start, d->lbo, d->sbo, d->base_offset, d->lbo_absolute,
                             (unsigned) d->swizzle);
    *out = v;
    return SMMA_OK;
}

int
smma_tc05_sdesc_decode(uint64_t v, smma_tc05_sdesc *d, smma_error *err)
{
    const uint64_t reserved = (uint64_t) 0x3 << 14 | (uint64_t) 0x3 << 30 |
                              (uint64_t) 0xFF << 53;
    unsigned sw = (unsigned) (v >> 61);

    if (d == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no shared-memory descriptor given");
    if (((v >> 46) & 7) != 1)
        return smma_error_set(err, SMMA_EINVAL,
                              "bits 46-48 of 0x%016llx are %u, not the fixed 0b001",
                              (unsigned long long) v, (unsigned) ((v >> 46) & 7));
    if (v & reserved)
        return smma_error_set(err, SMMA_EINVAL,
                              "reserved bits 0x%016llx are set in 0x%016llx",
                              (unsigned long long) (v & reserved), (unsigned long long) v);
    if (!swizzle_valid(sw))
        return smma_error_set(err, SMMA_EINVAL,
                              "swizzle mode %u (bits 61-63) is invalid (3, 5, 7)", sw);
    d->start = (uint32_t) (v & 0x3FFF) << 4;
    d->lbo = (uint32_t) ((v >> 16) & 0x3FFF) << 4;
    d->sbo = (uint32_t) ((v >> 32) & 0x3FFF) << 4;
    d->base_offset = (unsigned) ((v >> 49) & 7);
    d->lbo_absolute = (v >> 52) & 1;
    d->swizzle = (smma_tc05_swizzle) sw;
    return SMMA_OK;
}

unsigned
smma_tc05_swizzle_bytes(smma_tc05_swizzle s)
{
    return smma_tc05_swz_bytes((unsigned) s);
}

uint32_t
smma_tc05_swizzle_apply(smma_tc05_swizzle s, uint32_t addr)
{
    return smma_tc05_swz((unsigned) s, addr);
}

int
smma_tc05_smem_addr(const smma_tc05_layout *l, uint32_t start, unsigned row, unsigned k,
                    uint32_t *byte, unsigned *bit, smma_error *err)
{
    uint64_t w, lin; /* lin in bits */

    if (l == NULL || byte == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no layout or output given");
    if (l->elem_bits != 4 && l->elem_bits != 8 && l->elem_bits != 16 && l->elem_bits != 32)
        return smma_error_set(err, SMMA_EINVAL, "elem_bits %u is not 4, 8, 16 or 32",
                              l->elem_bits);
    if (l->swizzle == SMMA_TC05_SWIZZLE_128B_BASE32B)
        return smma_error_set(err, SMMA_EINVAL,
                              "swizzle 128B with 32B atomicity has no canonical layout in the "
                              "PTX ISA table; not modelled");
    w = smma_tc05_swizzle_bytes(l->swizzle);
    if (w == 0)
        return smma_error_set(err, SMMA_EINVAL, "swizzle %d is not 0, 2, 4 or 6",
                              (int) l->swizzle);
    if (!l->mn_major && l->swizzle != SMMA_TC05_SWIZZLE_NONE
        && (uint64_t) k * l->elem_bits >= w * 8)
        return smma_error_set(err, SMMA_EINVAL,
                              "k %u is outside the %u-byte swizzle atom of a K-major layout", k,
                              (unsigned) w);
    lin = smma_tc05_canon_bits(l->mn_major, (unsigned) w, l->elem_bits, l->lbo, l->sbo, row, k);
    lin += (uint64_t) start * 8;
    if (lin >> 3 > UINT32_MAX)
        return smma_error_set(err, SMMA_EINVAL, "address of (%u, %u) overflows 32 bits", row,
                              k);
    *byte = smma_tc05_swizzle_apply(l->swizzle, (uint32_t) (lin >> 3));
    if (bit != NULL)
        *bit = (unsigned) (lin & 7);
    return SMMA_OK;
}

/* ---- shared-memory tiles, drawable ------------------------------------------------ */

static const struct {
    smma_tc05_swizzle mode;
    const char *name;
} swizzle_names[] = {
    { SMMA_TC05_SWIZZLE_NONE, "none" }, { SMMA_TC05_SWIZZLE_32B, "32B" },
    { SMMA_TC05_SWIZZLE_64B, "64B" }, { SMMA_TC05_SWIZZLE_128B, "128B" },
    { SMMA_TC05_SWIZZLE_128B_BASE32B, "128B-base32B" },
};

const char *
smma_tc05_swizzle_name(smma_tc05_swizzle s)
{
    size_t i;

    for (i = 0; i < sizeof(swizzle_names) / sizeof(swizzle_names[0]); i++)
        if (swizzle_names[i].mode == s)
            return swizzle_names[i].name;
    return "?";
}

int
smma_tc05_swizzle_from_name(const char *name, smma_tc05_swizzle *out, smma_error *err)
{
    size_t i;

    for (i = 0; name != NULL && i < sizeof(swizzle_names) / sizeof(swizzle_names[0]); i++)
        if (strcasecmp(name, swizzle_names[i].name) == 0) {
            *out = swizzle_names[i].mode;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL, "unknown swizzle '%s' (known: none, 32B, 64B, "
                          "128B, 128B-base32B)", name != NULL ? name : "(none)");
}

/* param[0..4]: mn_major, swizzle, elem_bits, lbo, sbo. */
static void
smem_layout(const smma_grid *g, smma_tc05_layout *l)
{
    l->mn_major = g->param[0] != 0;
    l->swizzle = (smma_tc05_swizzle) g->param[1];
    l->elem_bits = g->param[2];
    l->lbo = g->param[3];
    l->sbo = g->param[4];
}

static void
smem_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    smma_tc05_layout l;
    uint32_t byte;
    unsigned bit;

    smem_layout(g, &l);
    if (smma_tc05_smem_addr(&l, 0, row, col, &byte, &bit, NULL) != SMMA_OK) {
        out->owner = SMMA_GRID_NOBODY;
        snprintf(out->label, sizeof(out->label), ".");
        return;
    }
    out->owner = byte / 16;     /* its 16-byte chunk (the colour: chunk % 32) */
    if (bit != 0)
        snprintf(out->label, sizeof(out->label), "%u.%u", (unsigned) byte, bit);
    else
        snprintf(out->label, sizeof(out->label), "%u", (unsigned) byte);
}

int
smma_tc05_smem_grid(const smma_tc05_layout *l, unsigned rows, unsigned k, smma_grid *g,
                    smma_error *err)
{
    smma_error why;
    uint32_t byte;
    unsigned bit, r, c;

    if (l == NULL || g == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no layout or grid given");
    if (rows == 0 || rows > 256 || k == 0 || k > 256)
        return smma_error_set(err, SMMA_EINVAL, "a tile of %u x %u: rows and k must be 1..256",
                              rows, k);
    for (r = 0; r < rows; r++)
        for (c = 0; c < k; c++)
            if (smma_tc05_smem_addr(l, 0, r, c, &byte, &bit, &why) != SMMA_OK)
                return smma_error_set(err, SMMA_EINVAL, "element (%u, %u): %s", r, c, why.msg);
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "smem %s %s", smma_tc05_swizzle_name(l->swizzle),
             l->mn_major ? "mn" : "k");
    snprintf(g->what, sizeof(g->what), "%u x %u %u-bit elements, %s-major, swizzle %s, LBO %u, "
             "SBO %u, from address 0", rows, k, l->elem_bits, l->mn_major ? "MN" : "K",
             smma_tc05_swizzle_name(l->swizzle), (unsigned) l->lbo, (unsigned) l->sbo);
    strcpy(g->row_axis, "mn");
    strcpy(g->col_axis, "k");
    strcpy(g->legend, l->elem_bits == 4 ? "byte address[.bit]" : "byte address");
    g->rows = rows;
    g->cols = k;
    g->cell = smem_cell;
    g->param[0] = l->mn_major;
    g->param[1] = (unsigned) l->swizzle;
    g->param[2] = l->elem_bits;
    g->param[3] = l->lbo;
    g->param[4] = l->sbo;
    return SMMA_OK;
}
