/*
 * wgmma.c - wgmma.mma_async (sm_90a): variants, register fragments, the
 * shared-memory matrix descriptor, the executor, PTX text and the drawable
 * form.  The formulas, bit tables and their sources (PTX ISA 9.7.15) are in
 * softmma/wgmma.h.
 *
 * smma_wgmma_coord and smma_wgmma_slot are each written from the ISA's
 * formulas (element index i -> row, col; and row, col solved for thread,
 * register and element), not one from the other; the tests check that they
 * are inverses.  Shared-memory addresses come from smma_tc05_smem_addr: the
 * canonical layouts are one text in the ISA for wgmma and tcgen05.
 */
#include <config.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/wgmma.h>
#include <softmma/wgmma_addr.h>

#define THREADS SMMA_WGMMA_THREADS
#define TILE_M 64u

static bool
is_half(smma_format f)
{
    return f == SMMA_BF16 || f == SMMA_FP16;
}

static bool
is_fp8(smma_format f)
{
    return f == SMMA_E4M3 || f == SMMA_E5M2;
}

/* The PTX type name of a wgmma input format. */
static const char *
ptx_type(smma_format f)
{
    switch (f) {
    case SMMA_BF16: return "bf16";
    case SMMA_FP16: return "f16";
    case SMMA_E4M3: return "e4m3";
    case SMMA_E5M2: return "e5m2";
    default: return "?";
    }
}

smma_wgmma_variant
smma_wgmma_variant_make(smma_format a, smma_format b, unsigned n)
{
    smma_wgmma_variant v;

    memset(&v, 0, sizeof(v));
    v.a_fmt = a;
    v.b_fmt = b;
    v.n = n;
    v.scale_a = v.scale_b = 1;
    v.scale_d = true;
    return v;
}

int
smma_wgmma_check(const smma_wgmma_variant *v, smma_error *err)
{
    if (v == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no wgmma variant given");
    if (!is_half(v->a_fmt) && !is_fp8(v->a_fmt))
        return smma_error_set(err, SMMA_EINVAL,
                              "a_fmt %s is not a wgmma input format (bf16, f16, e4m3, e5m2)",
                              smma_format_name(v->a_fmt));
    if (is_half(v->a_fmt) && v->b_fmt != v->a_fmt)
        return smma_error_set(err, SMMA_EINVAL,
                              "b_fmt %s must equal a_fmt %s (.bf16 and .f16 wgmma take one "
                              "type for A and B)", smma_format_name(v->b_fmt),
                              smma_format_name(v->a_fmt));
    if (is_fp8(v->a_fmt) && !is_fp8(v->b_fmt))
        return smma_error_set(err, SMMA_EINVAL,
                              "b_fmt %s is not e4m3 or e5m2, as the fp8 a_fmt %s requires",
                              smma_format_name(v->b_fmt), smma_format_name(v->a_fmt));
    if (v->n < 8 || v->n > SMMA_WGMMA_N_MAX || v->n % 8 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "n %u is not a multiple of 8 in [8, 256] (shapes .m64nNk%u)",
                              v->n, is_half(v->a_fmt) ? 16 : 32);
    if (v->scale_a != 1 && v->scale_a != -1)
        return smma_error_set(err, SMMA_EINVAL, "scale_a (imm-scale-a) %d is not 1 or -1",
                              v->scale_a);
    if (v->scale_b != 1 && v->scale_b != -1)
        return smma_error_set(err, SMMA_EINVAL, "scale_b (imm-scale-b) %d is not 1 or -1",
                              v->scale_b);
    if (is_fp8(v->a_fmt) && (v->trans_a || v->trans_b))
        return smma_error_set(err, SMMA_EINVAL,
                              "%s (imm-%s) is only legal for .bf16 and .f16: fp8 operands must "
                              "be K-major", v->trans_a ? "trans_a" : "trans_b",
                              v->trans_a ? "trans-a" : "trans-b");
    if (v->trans_a && !v->a_smem)
        return smma_error_set(err, SMMA_EINVAL,
                              "trans_a (imm-trans-a) needs A in shared memory (a_smem): the "
                              "register form of A has no imm-trans-a");
    return SMMA_OK;
}

unsigned
smma_wgmma_k(const smma_wgmma_variant *v)
{
    if (v == NULL)
        return 0;
    return is_half(v->a_fmt) ? 16 : is_fp8(v->a_fmt) ? 32 : 0;
}

int
smma_wgmma_name(const smma_wgmma_variant *v, char *buf, size_t size, smma_error *err)
{
    int rc = smma_wgmma_check(v, err), n;

    if (rc != SMMA_OK)
        return rc;
    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the name");
    if (is_half(v->a_fmt))
        n = snprintf(buf, size, "wgmma.m64n%uk16.%s", v->n, ptx_type(v->a_fmt));
    else
        n = snprintf(buf, size, "wgmma.m64n%uk32.%s.%s", v->n, ptx_type(v->a_fmt),
                     ptx_type(v->b_fmt));
    if (n < 0 || (size_t) n >= size)
        return smma_error_set(err, SMMA_ERANGE, "the name needs %d bytes, buffer has %zu",
                              n + 1, size);
    return SMMA_OK;
}

/* Reads one PTX type name at *p (up to the next '.' or the end). */
static bool
read_type(const char **p, smma_format *f)
{
    static const smma_format fmts[4] = { SMMA_BF16, SMMA_FP16, SMMA_E4M3, SMMA_E5M2 };
    size_t len = strcspn(*p, ".");
    unsigned i;

    for (i = 0; i < 4; i++) {
        const char *t = ptx_type(fmts[i]);

        if (strlen(t) == len && strncasecmp(*p, t, len) == 0) {
            *f = fmts[i];
            *p += len;
            return true;
        }
    }
    return false;
}

/* Reads a decimal number of at most 4 digits at *p. */
static bool
read_uint(const char **p, unsigned *out)
{
    unsigned v = 0, digits = 0;

    while (isdigit((unsigned char) **p) && digits < 5) {
        v = v * 10 + (unsigned) (**p - '0');
        (*p)++;
        digits++;
    }
    *out = v;
    return digits > 0 && digits < 5;
}

static bool
skip(const char **p, const char *word)
{
    size_t len = strlen(word);

    if (strncasecmp(*p, word, len) != 0)
        return false;
    *p += len;
    return true;
}

int
smma_wgmma_from_name(const char *name, smma_wgmma_variant *v, smma_error *err)
{
    const char *p = name;
    smma_format a = SMMA_FORMAT_COUNT, b = SMMA_FORMAT_COUNT;
    unsigned n = 0, k = 0;
    bool full, good;
    smma_wgmma_variant r;
    smma_error why;
    int rc;

    if (name == NULL || v == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no wgmma name given");
    good = skip(&p, "wgmma.");
    full = good && skip(&p, "mma_async.sync.aligned.");
    good = good && skip(&p, "m64n") && read_uint(&p, &n) && skip(&p, "k") &&
           read_uint(&p, &k) && (k == 16 || k == 32);
    if (good && full)
        good = skip(&p, ".f32");
    good = good && skip(&p, ".") && read_type(&p, &a);
    if (good && (full || k == 32))
        good = skip(&p, ".") && read_type(&p, &b);
    else
        b = a;
    good = good && *p == '\0' && ((k == 16 && is_half(a)) || (k == 32 && is_fp8(a)));
    if (!good)
        return smma_error_set(err, SMMA_EINVAL,
                              "unknown wgmma instruction '%s' (known: wgmma.m64nNk16.bf16, "
                              "wgmma.m64nNk16.f16, wgmma.m64nNk32.{e4m3,e5m2}.{e4m3,e5m2} with "
                              "N = 8..256 step 8, or their PTX spelling "
                              "wgmma.mma_async.sync.aligned.m64nNkK.f32.A.B)", name);
    r = smma_wgmma_variant_make(a, b, n);
    rc = smma_wgmma_check(&r, &why);
    if (rc != SMMA_OK)
        return smma_error_set(err, rc, "%.80s: %s", name, why.msg);
    *v = r;
    return SMMA_OK;
}

int
smma_wgmma_shape(const smma_wgmma_variant *v, smma_gemm_shape *s, smma_error *err)
{
    int rc = smma_wgmma_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (s == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no shape given");
    memset(s, 0, sizeof(*s));
    s->a_fmt = v->a_fmt;
    s->b_fmt = v->b_fmt;
    s->scale_fmt = SMMA_NONE;
    s->vec = 32;
    s->c_fmt = v->scale_d ? SMMA_FP32 : SMMA_NONE;
    s->d_fmt = SMMA_FP32;
    s->m = TILE_M;
    s->n = v->n;
    s->k = smma_wgmma_k(v);
    return SMMA_OK;
}

/* ---- register fragments ------------------------------------------------- */

int
smma_wgmma_frag_get(const smma_wgmma_variant *v, smma_wgmma_operand op, smma_wgmma_frag *f,
                    smma_error *err)
{
    int rc = smma_wgmma_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (f == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no fragment given");
    f->rows = TILE_M;
    switch (op) {
    case SMMA_WGMMA_OP_A:
        f->fmt = v->a_fmt;
        f->cols = smma_wgmma_k(v);
        f->regs = 4;
        f->elem_bits = is_half(v->a_fmt) ? 16 : 8;
        f->elems = 32 / f->elem_bits;
        return SMMA_OK;
    case SMMA_WGMMA_OP_D:
        f->fmt = SMMA_FP32;
        f->cols = v->n;
        f->regs = v->n / 2;
        f->elem_bits = 32;
        f->elems = 1;
        return SMMA_OK;
    case SMMA_WGMMA_OP_B:
        return smma_error_set(err, SMMA_EINVAL,
                              "wgmma B has no register fragment: it is read from shared memory "
                              "through b-desc");
    default:
        return smma_error_set(err, SMMA_EINVAL, "wgmma operand %d is not A, B or D", (int) op);
    }
}

/*
 * (thread, reg, elem) -> (row, col), from the ISA's element index i:
 *   A 16-bit (i < 8):   row 16w + group + 8 ((i >> 1) & 1), col 2 tig + (i & 1) + 8 (i >> 2)
 *   A 8-bit (i < 16):   row 16w + group + 8 ((i >> 2) & 1), col 4 tig + (i & 3) + 16 (i >> 3)
 *   D f32 (i = reg):    row 16w + group + 8 ((i >> 1) & 1), col 8 (i >> 2) + 2 tig + (i & 1)
 */
void
smma_wgmma_coord(const smma_wgmma_frag *f, unsigned thread, unsigned reg, unsigned elem,
                 unsigned *row, unsigned *col)
{
    unsigned w = thread / 32, group = thread % 32 / 4, tig = thread % 4, i;

    if (thread >= THREADS || reg >= f->regs || elem >= f->elems) {
        *row = f->rows;
        *col = f->cols;
        return;
    }
    i = reg * f->elems + elem;
    switch (f->elem_bits) {
    case 16:
        smma_wgmma_a16_cell(thread, reg, elem, row, col);
        break;
    case 8:
        *row = 16 * w + group + 8 * ((i >> 2) & 1);
        *col = 4 * tig + (i & 3) + 16 * (i >> 3);
        break;
    default:
        smma_wgmma_d_cell(thread, i, row, col);
        break;
    }
}

/* (row, col) -> slot: the warp from row / 16, the group from row % 8, the
 * upper half (row % 16 >= 8) picks the odd registers of a pair; along the
 * columns A has two halves of K/2 (register pairs 0-1 and 2-3), each cut
 * into four runs of `elems` per tig, and D has blocks of 8 columns (four
 * registers each) cut into pairs per tig. */
int
smma_wgmma_slot(const smma_wgmma_frag *f, unsigned row, unsigned col, unsigned *thread,
                unsigned *reg, unsigned *elem)
{
    unsigned w, group, upper, half, pos;

    if (row >= f->rows || col >= f->cols)
        return SMMA_EINVAL;
    w = row / 16;
    group = row % 8;
    upper = row % 16 / 8;
    if (f->elem_bits == 32) {
        *thread = 32 * w + 4 * group + col % 8 / 2;
        *reg = 4 * (col / 8) + 2 * upper + col % 2;
        *elem = 0;
        return SMMA_OK;
    }
    half = col / (f->cols / 2);
    pos = col % (f->cols / 2);
    *thread = 32 * w + 4 * group + pos / f->elems;
    *reg = 2 * half + upper;
    *elem = pos % f->elems;
    return SMMA_OK;
}

static uint32_t
elem_mask(unsigned bits)
{
    return bits >= 32 ? UINT32_C(0xffffffff) : (UINT32_C(1) << bits) - 1;
}

void
smma_wgmma_pack(const smma_wgmma_frag *f, const uint32_t *tile, uint32_t *regs)
{
    uint32_t mask = elem_mask(f->elem_bits);
    unsigned t, r, e, row, col;

    for (t = 0; t < THREADS; t++)
        for (r = 0; r < f->regs; r++) {
            uint32_t word = 0;

            for (e = 0; e < f->elems; e++) {
                smma_wgmma_coord(f, t, r, e, &row, &col);
                word |= (tile[row * f->cols + col] & mask) << (e * f->elem_bits);
            }
            regs[t * f->regs + r] = word;
        }
}

void
smma_wgmma_unpack(const smma_wgmma_frag *f, const uint32_t *regs, uint32_t *tile)
{
    uint32_t mask = elem_mask(f->elem_bits);
    unsigned t, r, e, row, col;

    for (t = 0; t < THREADS; t++)
        for (r = 0; r < f->regs; r++)
            for (e = 0; e < f->elems; e++) {
                smma_wgmma_coord(f, t, r, e, &row, &col);
                tile[row * f->cols + col] = (regs[t * f->regs + r] >> (e * f->elem_bits)) & mask;
            }
}

/* ---- the shared-memory matrix descriptor ------------------------------------- */

/* Bits the ISA's table gives no field: 14-15, 30-31, 46-48, 52-61. */
#define DESC_UNNAMED                                                                       \
    ((uint64_t) 0x3 << 14 | (uint64_t) 0x3 << 30 | (uint64_t) 0x7 << 46 |                  \
     (uint64_t) 0x3FF << 52)

static int
check_addr(const char *name, uint32_t x, smma_error *err)
{
    if (x % 16 != 0 || x > 0x3FFF0u)
        return smma_error_set(err, SMMA_EINVAL, "%s 0x%lx is not a multiple of 16 below 2^18",
                              name, (unsigned long) x);
    return SMMA_OK;
}

static int
check_desc(const smma_wgmma_desc *d, smma_error *err)
{
    int rc;

    if ((rc = check_addr("start", d->start, err)) != SMMA_OK ||
        (rc = check_addr("lbo", d->lbo, err)) != SMMA_OK ||
        (rc = check_addr("sbo", d->sbo, err)) != SMMA_OK)
        return rc;
    if ((unsigned) d->swizzle > 3)
        return smma_error_set(err, SMMA_EINVAL,
                              "swizzle %d is not 0 (none), 1 (128B), 2 (64B) or 3 (32B)",
                              (int) d->swizzle);
    if (d->base_offset > 7)
        return smma_error_set(err, SMMA_EINVAL, "base_offset %u is not 0..7", d->base_offset);
    if (d->base_offset != 0 && d->swizzle == SMMA_WGMMA_SWIZZLE_NONE)
        return smma_error_set(err, SMMA_EINVAL,
                              "base_offset %u is given without swizzling (the ISA: valid for "
                              "all swizzling modes except the no-swizzle mode)", d->base_offset);
    return SMMA_OK;
}

int
smma_wgmma_desc_encode(const smma_wgmma_desc *d, uint64_t *out, smma_error *err)
{
    int rc;

    if (d == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no wgmma descriptor given");
    rc = check_desc(d, err);
    if (rc != SMMA_OK)
        return rc;
    *out = smma_wgmma_desc_word(d->start, d->lbo, d->sbo, d->base_offset,
                                (unsigned) d->swizzle);
    return SMMA_OK;
}

int
smma_wgmma_desc_decode(uint64_t v, smma_wgmma_desc *d, smma_error *err)
{
    smma_wgmma_desc r;
    int rc;

    if (d == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no wgmma descriptor given");
    if (v & DESC_UNNAMED)
        return smma_error_set(err, SMMA_EINVAL,
                              "bits 0x%016llx of wgmma descriptor 0x%016llx are set, outside "
                              "the fields of the ISA's table (14-15, 30-31, 46-48, 52-61)",
                              (unsigned long long) (v & DESC_UNNAMED), (unsigned long long) v);
    r.start = (uint32_t) (v & 0x3FFF) << 4;
    r.lbo = (uint32_t) (v >> 16 & 0x3FFF) << 4;
    r.sbo = (uint32_t) (v >> 32 & 0x3FFF) << 4;
    r.base_offset = (unsigned) (v >> 49 & 7);
    r.swizzle = (smma_wgmma_swizzle) (v >> 62);
    rc = check_desc(&r, err);
    if (rc == SMMA_OK)
        *d = r;
    return rc;
}

smma_tc05_swizzle
smma_wgmma_swizzle_tc05(smma_wgmma_swizzle s)
{
    switch (s) {
    case SMMA_WGMMA_SWIZZLE_128B: return SMMA_TC05_SWIZZLE_128B;
    case SMMA_WGMMA_SWIZZLE_64B: return SMMA_TC05_SWIZZLE_64B;
    case SMMA_WGMMA_SWIZZLE_32B: return SMMA_TC05_SWIZZLE_32B;
    default: return SMMA_TC05_SWIZZLE_NONE;
    }
}

unsigned
smma_wgmma_swizzle_bytes(smma_wgmma_swizzle s)
{
    return (unsigned) s <= 3 ? smma_tc05_swizzle_bytes(smma_wgmma_swizzle_tc05(s)) : 0;
}

int
smma_wgmma_smem_addr(const smma_wgmma_desc *d, bool mn_major, unsigned elem_bits,
                     unsigned row, unsigned k, uint32_t *byte, smma_error *err)
{
    smma_tc05_layout l;
    int rc;

    if (d == NULL || byte == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no descriptor or output given");
    rc = check_desc(d, err);
    if (rc != SMMA_OK)
        return rc;
    if (elem_bits != 8 && elem_bits != 16)
        return smma_error_set(err, SMMA_EINVAL, "elem_bits %u is not 8 or 16", elem_bits);
    if (d->base_offset != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "base offset %u: only patterns that start at their repeat "
                              "boundary (base offset 0) are modelled", d->base_offset);
    l.mn_major = mn_major;
    l.swizzle = smma_wgmma_swizzle_tc05(d->swizzle);
    l.elem_bits = elem_bits;
    l.lbo = d->lbo;
    l.sbo = d->sbo;
    return smma_tc05_smem_addr(&l, d->start, row, k, byte, NULL, err);
}

int
smma_wgmma_desc_dense(const smma_wgmma_variant *v, smma_wgmma_operand op,
                      smma_wgmma_swizzle s, bool k_inner, uint32_t start, smma_wgmma_desc *d,
                      uint32_t *bytes, smma_error *err)
{
    unsigned eb, rows, w, atoms;
    bool mn;
    int rc = smma_wgmma_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (d == NULL || bytes == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no descriptor or size output given");
    if (op != SMMA_WGMMA_OP_A && op != SMMA_WGMMA_OP_B)
        return smma_error_set(err, SMMA_EINVAL, "operand %d is not A or B", (int) op);
    if ((unsigned) s > 3)
        return smma_error_set(err, SMMA_EINVAL, "swizzle %d is not 0..3", (int) s);
    w = smma_wgmma_swizzle_bytes(s);
    if (start % 16 != 0 || (s != SMMA_WGMMA_SWIZZLE_NONE && start % (8 * w) != 0))
        return smma_error_set(err, SMMA_EINVAL,
                              "start 0x%lx is not a multiple of %u (the %s)",
                              (unsigned long) start, s == SMMA_WGMMA_SWIZZLE_NONE ? 16 : 8 * w,
                              s == SMMA_WGMMA_SWIZZLE_NONE ? "16-byte alignment"
                                                           : "swizzle pattern's repeat");
    eb = is_half(v->a_fmt) ? 2 : 1;
    rows = op == SMMA_WGMMA_OP_A ? TILE_M : v->n;
    mn = op == SMMA_WGMMA_OP_A ? v->trans_a : v->trans_b;
    memset(d, 0, sizeof(*d));
    d->start = start;
    d->swizzle = s;
    if (!mn && s == SMMA_WGMMA_SWIZZLE_NONE) {
        d->lbo = k_inner ? 128 : 16 * rows;
        d->sbo = k_inner ? 256 : 128;
        *bytes = rows * 32;
    } else if (!mn) {
        d->lbo = 16;
        d->sbo = 8 * w;
        *bytes = rows * w;
    } else if (s == SMMA_WGMMA_SWIZZLE_NONE) {
        d->lbo = k_inner ? 128 : 128 * rows / (16 / eb);
        d->sbo = k_inner ? 256 : 128;
        *bytes = rows * 32;
    } else {
        atoms = (rows * eb + w - 1) / w;
        d->lbo = k_inner ? 16 * w : 8 * w;
        d->sbo = k_inner ? 8 * w : 8 * w * atoms;
        *bytes = atoms * 2 * 8 * w;
    }
    return check_desc(d, err);
}

/* The descriptor, majorness and element size of op, checked; the tile's
 * rows and K. */
static int
operand_setup(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc,
              smma_wgmma_desc *d, bool *mn, unsigned *eb, unsigned *mnext, unsigned *k,
              smma_error *err)
{
    int rc = smma_wgmma_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (op != SMMA_WGMMA_OP_A && op != SMMA_WGMMA_OP_B)
        return smma_error_set(err, SMMA_EINVAL,
                              "operand %d is not A or B (the shared-memory operands)",
                              (int) op);
    rc = smma_wgmma_desc_decode(desc, d, err);
    if (rc != SMMA_OK)
        return rc;
    *mn = op == SMMA_WGMMA_OP_A ? v->trans_a : v->trans_b;
    *eb = is_half(v->a_fmt) ? 2 : 1;
    *mnext = op == SMMA_WGMMA_OP_A ? TILE_M : v->n;
    *k = smma_wgmma_k(v);
    return SMMA_OK;
}

/* Moves a tile between smem and codes: store when `store`, else load.
 * Every address is checked before anything is written. */
static int
smem_move(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc, bool store,
          uint32_t *tile, uint8_t *smem, size_t smem_size, smma_error *err)
{
    smma_wgmma_desc d;
    bool mn = false;
    unsigned eb = 1, rows = 0, k = 0, r, kk, pass;
    uint32_t byte;
    int rc;

    rc = operand_setup(v, op, desc, &d, &mn, &eb, &rows, &k, err);
    if (rc != SMMA_OK)
        return rc;
    if (tile == NULL || smem == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no tile or shared memory given");
    for (pass = 0; pass < 2; pass++)
        for (r = 0; r < rows; r++)
            for (kk = 0; kk < k; kk++) {
                /* A is stored (m, k), B (k, n). */
                size_t at = op == SMMA_WGMMA_OP_A ? (size_t) r * k + kk : (size_t) kk * rows + r;

                rc = smma_wgmma_smem_addr(&d, mn, eb * 8, r, kk, &byte, err);
                if (rc != SMMA_OK)
                    return rc;
                if (pass == 0) {
                    if ((size_t) byte + eb > smem_size)
                        return smma_error_set(err, SMMA_EINVAL,
                                              "%c element (%u, %u) at byte 0x%lx lies outside "
                                              "the %zu bytes of shared memory",
                                              op == SMMA_WGMMA_OP_A ? 'A' : 'B',
                                              op == SMMA_WGMMA_OP_A ? r : kk,
                                              op == SMMA_WGMMA_OP_A ? kk : r,
                                              (unsigned long) byte, smem_size);
                } else if (store) {
                    smem[byte] = (uint8_t) tile[at];
                    if (eb == 2)
                        smem[byte + 1] = (uint8_t) (tile[at] >> 8);
                } else {
                    tile[at] = smem[byte] | (eb == 2 ? (uint32_t) smem[byte + 1] << 8 : 0);
                }
            }
    return SMMA_OK;
}

int
smma_wgmma_smem_store(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc,
                      const uint32_t *tile, uint8_t *smem, size_t smem_size, smma_error *err)
{
    /* smem_move only reads the tile when storing. */
    return smem_move(v, op, desc, true, (uint32_t *) (uintptr_t) tile, smem, smem_size, err);
}

int
smma_wgmma_smem_load(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc,
                     const uint8_t *smem, size_t smem_size, uint32_t *tile, smma_error *err)
{
    /* smem_move only reads smem when loading. */
    return smem_move(v, op, desc, false, tile, (uint8_t *) (uintptr_t) smem, smem_size, err);
}

/* ---- the executor ------------------------------------------------------------ */

int
smma_wgmma_exec(const smma_wgmma_variant *v, const smma_model *model, const uint32_t *a_regs,
                uint64_t a_desc, uint64_t b_desc, const uint8_t *smem, size_t smem_size,
                const uint32_t *d_in, uint32_t *d_out, smma_error *err)
{
    return smma_wgmma_exec_part(v, model, a_regs, a_desc, b_desc, smem, smem_size, d_in, d_out,
                                TILE_M, v != NULL ? v->n : 0, err);
}

int
smma_wgmma_exec_part(const smma_wgmma_variant *v, const smma_model *model,
                     const uint32_t *a_regs, uint64_t a_desc, uint64_t b_desc,
                     const uint8_t *smem, size_t smem_size, const uint32_t *d_in,
                     uint32_t *d_out, unsigned rows, unsigned cols, smma_error *err)
{
    smma_gemm_shape s;
    smma_wgmma_frag fa, fd;
    uint32_t *a, *b, *bt, *c, *d;
    unsigned k, i, j, kk, n;
    uint32_t sign_a, sign_b;
    int rc;

    rc = smma_wgmma_shape(v, &s, err);
    if (rc != SMMA_OK)
        return rc;
    if (model == NULL || d_out == NULL || (v->scale_d && d_in == NULL) ||
        (!v->a_smem && a_regs == NULL))
        return smma_error_set(err, SMMA_EINVAL, "wgmma: NULL model, A, D or register array");
    if (rows > TILE_M || cols > v->n)
        return smma_error_set(err, SMMA_EINVAL, "wgmma: part of %u x %u cells of a %u x %u D",
                              rows, cols, TILE_M, v->n);
    rc = smma_model_check(model, &s, err);
    if (rc != SMMA_OK)
        return rc;
    smma_wgmma_frag_get(v, SMMA_WGMMA_OP_A, &fa, NULL);
    smma_wgmma_frag_get(v, SMMA_WGMMA_OP_D, &fd, NULL);
    k = fa.cols;
    n = v->n;
    a = malloc(sizeof(uint32_t) * (TILE_M * k + 2 * k * n + 2 * TILE_M * n));
    if (a == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "wgmma: out of memory");
    b = a + TILE_M * k;
    bt = b + k * n;
    c = bt + k * n;
    d = c + TILE_M * n;
    if (v->a_smem)
        rc = smma_wgmma_smem_load(v, SMMA_WGMMA_OP_A, a_desc, smem, smem_size, a, err);
    else
        smma_wgmma_unpack(&fa, a_regs, a);
    if (rc == SMMA_OK)
        rc = smma_wgmma_smem_load(v, SMMA_WGMMA_OP_B, b_desc, smem, smem_size, b, err);
    if (rc != SMMA_OK) {
        free(a);
        return rc;
    }
    if (v->scale_d)
        smma_wgmma_unpack(&fd, d_in, c);
    /* imm-scale -1 negates each element: flip the sign bit of its code. */
    sign_a = v->scale_a < 0 ? UINT32_C(1) << (fa.elem_bits - 1) : 0;
    sign_b = v->scale_b < 0 ? UINT32_C(1) << (fa.elem_bits - 1) : 0;
    for (i = 0; i < TILE_M * k; i++)
        a[i] ^= sign_a;
    for (kk = 0; kk < k; kk++)
        for (j = 0; j < n; j++)
            bt[j * k + kk] = b[kk * n + j] ^ sign_b;
    for (i = 0; i < TILE_M; i++)
        for (j = 0; j < n; j++)
            d[i * n + j] = i >= rows || j >= cols ? SMMA_WGMMA_UNCOMPUTED
                           : smma_dot(model, &s, &a[i * k], &bt[j * k], NULL, NULL,
                                      v->scale_d ? c[i * n + j] : 0);
    smma_wgmma_pack(&fd, d, d_out);
    free(a);
    return SMMA_OK;
}

/* ---- PTX text ------------------------------------------------------------------- */

/* Appends to buf at *len; SMMA_ERANGE once the text no longer fits. */
static int
append(char *buf, size_t size, size_t *len, smma_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int
append(char *buf, size_t size, size_t *len, smma_error *err, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf + (*len < size ? *len : size), *len < size ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return smma_error_set(err, SMMA_ERANGE, "cannot format the PTX text");
    *len += (size_t) n;
    if (*len >= size)
        return smma_error_set(err, SMMA_ERANGE, "PTX text needs more than the %zu bytes of "
                              "the buffer", size);
    return SMMA_OK;
}

int
smma_wgmma_ptx(const smma_wgmma_variant *v, char *buf, size_t size, smma_error *err)
{
    size_t len = 0;
    unsigned i;
    int rc = smma_wgmma_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the PTX text");
    if (size > 0)
        buf[0] = '\0';
    rc = append(buf, size, &len, err, "wgmma.mma_async.sync.aligned.m64n%uk%u.f32.%s.%s {",
                v->n, smma_wgmma_k(v), ptx_type(v->a_fmt), ptx_type(v->b_fmt));
    for (i = 0; rc == SMMA_OK && i < v->n / 2; i++)
        rc = append(buf, size, &len, err, "%s%%d%u", i ? ", " : "", i);
    if (rc == SMMA_OK)
        rc = append(buf, size, &len, err, "}, %s, %%desc_b, %%p, %d, %d",
                    v->a_smem ? "%desc_a" : "{%a0, %a1, %a2, %a3}", v->scale_a, v->scale_b);
    if (rc == SMMA_OK && is_half(v->a_fmt) && v->a_smem)
        rc = append(buf, size, &len, err, ", %d", v->trans_a ? 1 : 0);
    if (rc == SMMA_OK && is_half(v->a_fmt))
        rc = append(buf, size, &len, err, ", %d", v->trans_b ? 1 : 0);
    if (rc == SMMA_OK)
        rc = append(buf, size, &len, err, ";");
    return rc;
}

const char *
smma_wgmma_ptx_target(const smma_wgmma_variant *v)
{
    return smma_wgmma_check(v, NULL) == SMMA_OK ? "sm_90a" : NULL;
}

int
smma_wgmma_ptx_sync(smma_wgmma_sync op, unsigned n, char *buf, size_t size, smma_error *err)
{
    size_t len = 0;

    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the PTX text");
    if (size > 0)
        buf[0] = '\0';
    switch (op) {
    case SMMA_WGMMA_FENCE:
    case SMMA_WGMMA_COMMIT:
        if (n != 0)
            return smma_error_set(err, SMMA_EINVAL, "wgmma.%s takes no N (got %u)",
                                  op == SMMA_WGMMA_FENCE ? "fence" : "commit_group", n);
        return append(buf, size, &len, err, "wgmma.%s.sync.aligned;",
                      op == SMMA_WGMMA_FENCE ? "fence" : "commit_group");
    case SMMA_WGMMA_WAIT:
        return append(buf, size, &len, err, "wgmma.wait_group.sync.aligned %u;", n);
    default:
        return smma_error_set(err, SMMA_EINVAL,
                              "wgmma synchronization %d is not fence, commit_group or "
                              "wait_group", (int) op);
    }
}

/* ---- drawable form ---------------------------------------------------------- */

static void
grid_frag(const smma_grid *g, smma_wgmma_frag *f)
{
    f->fmt = SMMA_FP32; /* not used by smma_wgmma_slot or smma_wgmma_coord */
    f->rows = g->param[1];
    f->cols = g->param[2];
    f->regs = g->param[3];
    f->elems = g->param[4];
    f->elem_bits = g->param[5];
}

/* param[0]: 0 for A, 1 for D; param[1..5]: the fragment's rows, cols, regs,
 * elems, elem_bits. */
static void
grid_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    smma_wgmma_frag f;
    unsigned t, r, e;

    grid_frag(g, &f);
    if (smma_wgmma_slot(&f, g->row0 + row, g->col0 + col, &t, &r, &e) != SMMA_OK) {
        out->owner = SMMA_GRID_NOBODY;
        snprintf(out->label, sizeof(out->label), ".");
        return;
    }
    out->owner = t;
    if (g->param[0] == 0)
        snprintf(out->label, sizeof(out->label), "T%u:r%u.%u", t, r, e);
    else
        snprintf(out->label, sizeof(out->label), "T%u:r%u", t, r);
}

static void
grid_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *out)
{
    smma_wgmma_frag f;

    grid_frag(g, &f);
    out->kind = SMMA_HOLDER_REG;
    if (smma_wgmma_slot(&f, row, col, &out->thread, &out->reg, &out->elem) != SMMA_OK)
        smma_holder_none(out);
}

static int
grid_coord(const smma_grid *g, unsigned thread, unsigned reg, unsigned elem, unsigned *row,
           unsigned *col)
{
    smma_wgmma_frag f;

    grid_frag(g, &f);
    smma_wgmma_coord(&f, thread, reg, elem, row, col);
    return *row < f.rows && *col < f.cols ? SMMA_OK : SMMA_EINVAL;
}

int
smma_wgmma_grid(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
                smma_error *err)
{
    smma_wgmma_variant v;
    smma_wgmma_frag f;
    smma_wgmma_operand op;
    char name[64];
    int rc;

    (void) o;
    if (instr == NULL || strncasecmp(instr, "wgmma.", 6) != 0)
        return SMMA_GRID_NOT_MINE;
    rc = smma_wgmma_from_name(instr, &v, err);
    if (rc != SMMA_OK)
        return rc;
    if (operand == NULL || g == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: no operand or grid given", instr);
    if (strcasecmp(operand, "a") == 0)
        op = SMMA_WGMMA_OP_A;
    else if (strcasecmp(operand, "d") == 0)
        op = SMMA_WGMMA_OP_D;
    else
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: operand '%s' has no register layout (drawable: a, d; B is "
                              "read from shared memory through its descriptor: softmma layout "
                              "smem)", instr,
                              operand);
    smma_wgmma_frag_get(&v, op, &f, NULL);
    smma_wgmma_name(&v, name, sizeof(name), NULL);
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s %s", name, op == SMMA_WGMMA_OP_A ? "a" : "d");
    snprintf(g->row_axis, sizeof(g->row_axis), "m");
    snprintf(g->col_axis, sizeof(g->col_axis), "%s", op == SMMA_WGMMA_OP_A ? "k" : "n");
    if (op == SMMA_WGMMA_OP_A)
        snprintf(g->what, sizeof(g->what),
                 "A %u x %u %s from registers: 4 registers of %u elements per thread, "
                 "128 threads (warp w holds rows 16w..16w+15)", f.rows, f.cols,
                 ptx_type(v.a_fmt), f.elems);
    else
        snprintf(g->what, sizeof(g->what),
                 "D %u x %u f32: %u registers per thread, 128 threads (warp w holds rows "
                 "16w..16w+15)", f.rows, f.cols, f.regs);
    snprintf(g->legend, sizeof(g->legend), "%s",
             op == SMMA_WGMMA_OP_A ? "T<thread>:r<register>.<element>" : "T<thread>:r<register>");
    g->rows = f.rows;
    g->cols = f.cols;
    g->cell = grid_cell;
    g->param[0] = op == SMMA_WGMMA_OP_A ? 0 : 1;
    g->param[1] = f.rows;
    g->param[2] = f.cols;
    g->param[3] = f.regs;
    g->param[4] = f.elems;
    g->param[5] = f.elem_bits;
    smma_grid_queries(g, 128, f.regs, f.elems, grid_holder, grid_coord);
    return SMMA_OK;
}

void
smma_wgmma_grid_list(smma_grid_emit_fn emit, void *ctx)
{
    static const smma_format pairs[6][2] = {
        { SMMA_BF16, SMMA_BF16 }, { SMMA_FP16, SMMA_FP16 }, { SMMA_E4M3, SMMA_E4M3 },
        { SMMA_E4M3, SMMA_E5M2 }, { SMMA_E5M2, SMMA_E4M3 }, { SMMA_E5M2, SMMA_E5M2 },
    };
    static const unsigned ns[2] = { 8, 256 };
    unsigned p, i, op;

    for (p = 0; p < 6; p++)
        for (i = 0; i < 2; i++)
            for (op = 0; op < 2; op++) {
                smma_wgmma_variant v = smma_wgmma_variant_make(pairs[p][0], pairs[p][1], ns[i]);
                smma_grid g;
                char name[64];

                smma_wgmma_name(&v, name, sizeof(name), NULL);
                if (smma_wgmma_grid(name, op ? "d" : "a", NULL, &g, NULL) == SMMA_OK)
                    emit(name, op ? "d" : "a", g.what, ctx);
            }
}
