/*
 * mma_bs.c - the sm_120a mma.sync kinds f8f6f4, mxf8f6f4, mxf4 and
 * mxf4nvf4: variants, layouts, scale-factor selection, executor, PTX text
 * and drawable form.  The rules and their sources (PTX ISA 9.7.14.3,
 * 9.7.14.5.10, 9.7.14.5.11, 9.7.14.5.14; CUTLASS mma_traits_sm120.hpp) are
 * in softmma/mma_bs.h.
 *
 * The A, B, C and D layouts are smma_frag_layout objects: the m16n8k64
 * formulas of the ISA (col = tig * 8 + (i & 7) [+ 32], B row likewise) are
 * fragment.c's general A and B shapes with 8 elements of 4 bits per
 * register, so smma_frag_coord and smma_frag_slot serve them unchanged.  The
 * scale-factor layout is new: smma_mma_bs_sf_coord and smma_mma_bs_sf_slot
 * are each written from the selector rules, not one from the other.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/mma_bs.h>

#define WARP 32u
#define NFMT 5u
#define KMAX 64u

/* The element types in the ISA's order (.f8f6f4type = {.e4m3, .e5m2, .e3m2,
 * .e2m3, .e2m1}); the variant numbers follow it. */
static const smma_format elem_fmts[NFMT] = { SMMA_E4M3, SMMA_E5M2, SMMA_E3M2, SMMA_E2M3,
                                             SMMA_E2M1 };

static const char *const kind_names[SMMA_MMA_KIND_COUNT] = { "f8f6f4", "mxf8f6f4", "mxf4",
                                                              "mxf4nvf4" };

#define ROW5(pre, a, post)                                                                \
    pre a ".e4m3" post, pre a ".e5m2" post, pre a ".e3m2" post, pre a ".e2m3" post,       \
        pre a ".e2m1" post
#define ALL25(pre, post)                                                                  \
    ROW5(pre, "e4m3", post), ROW5(pre, "e5m2", post), ROW5(pre, "e3m2", post),            \
        ROW5(pre, "e2m3", post), ROW5(pre, "e2m1", post)

static const char *const short_names[SMMA_MMA_BS_COUNT] = {
    ALL25("mma.m16n8k32.f8f6f4.", ""),
    ALL25("mma.m16n8k32.mxf8f6f4.", ""),
    "mma.m16n8k64.mxf4",
    "mma.m16n8k64.mxf4nvf4.2x",
    "mma.m16n8k64.mxf4nvf4.4x",
    "mma.m16n8k64.mxf4nvf4.4x.ue8m0",
};

#define PTX_HEAD "mma.sync.aligned."
static const char *const ptx_names[SMMA_MMA_BS_COUNT] = {
    ALL25(PTX_HEAD "m16n8k32.row.col.kind::f8f6f4.f32.", ".f32"),
    ALL25(PTX_HEAD "m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.",
          ".f32.ue8m0"),
    PTX_HEAD "m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0",
    PTX_HEAD "m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0",
    PTX_HEAD "m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
    PTX_HEAD "m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0",
};

/* Layout names, per kind and operand (the element formats vary within a
 * kind; the layouts do not). */
static const char *const layout_names[SMMA_MMA_KIND_COUNT][4] = {
    { "mma.m16n8k32.f8f6f4 a", "mma.m16n8k32.f8f6f4 b", "mma.m16n8k32.f8f6f4 c",
      "mma.m16n8k32.f8f6f4 d" },
    { "mma.m16n8k32.mxf8f6f4 a", "mma.m16n8k32.mxf8f6f4 b", "mma.m16n8k32.mxf8f6f4 c",
      "mma.m16n8k32.mxf8f6f4 d" },
    { "mma.m16n8k64.mxf4 a", "mma.m16n8k64.mxf4 b", "mma.m16n8k64.mxf4 c",
      "mma.m16n8k64.mxf4 d" },
    { "mma.m16n8k64.mxf4nvf4 a", "mma.m16n8k64.mxf4nvf4 b", "mma.m16n8k64.mxf4nvf4 c",
      "mma.m16n8k64.mxf4nvf4 d" },
};

static int
fmt_index(smma_format f)
{
    unsigned i;

    for (i = 0; i < NFMT; i++)
        if (elem_fmts[i] == f)
            return (int) i;
    return -1;
}

static const char *
kind_name(const smma_mma_bs *v)
{
    return (unsigned) v->kind < SMMA_MMA_KIND_COUNT ? kind_names[v->kind] : "?";
}

static bool
is_k64(smma_mma_kind k)
{
    return k == SMMA_MMA_KIND_MXF4 || k == SMMA_MMA_KIND_MXF4NVF4;
}

/* The name of a .scale_vec value for messages ("none" for 0). */
static const char *
sv_name(unsigned sv)
{
    switch (sv) {
    case 0: return "none";
    case 1: return "1X";
    case 2: return "2X";
    case 4: return "4X";
    default: return "not 1X, 2X or 4X";
    }
}

static const char *
scale_name(smma_format f)
{
    return f == SMMA_NONE ? "none" : smma_format_name(f);
}

static int
check_operand_fmt(const smma_mma_bs *v, const char *which, smma_format f, smma_error *err)
{
    if (is_k64(v->kind)) {
        if (f != SMMA_E2M1)
            return smma_error_set(err, SMMA_EINVAL, "%s: %s %s is not legal (%s takes e2m1 only)",
                                  kind_name(v), which, smma_format_name(f), kind_name(v));
    } else if (fmt_index(f) < 0) {
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: %s %s is not legal (legal: e4m3, e5m2, e3m2, e2m3, e2m1)",
                              kind_name(v), which, smma_format_name(f));
    }
    return SMMA_OK;
}

/* Table 36, and the syntax's .f32-only C and D for the block-scaled kinds. */
static int
check_scales(const smma_mma_bs *v, smma_error *err)
{
    const char *kn = kind_name(v);

    switch (v->kind) {
    case SMMA_MMA_KIND_F8F6F4:
        if (v->scale_vec != 0 || v->scale_fmt != SMMA_NONE)
            return smma_error_set(err, SMMA_EINVAL,
                                  "f8f6f4 has no scale factors: scale_vec must be 0 and "
                                  "scale_fmt none (got %s, %s)", sv_name(v->scale_vec),
                                  scale_name(v->scale_fmt));
        return SMMA_OK;
    case SMMA_MMA_KIND_MXF8F6F4:
    case SMMA_MMA_KIND_MXF4:
        if (v->scale_vec != (v->kind == SMMA_MMA_KIND_MXF4 ? 2u : 1u))
            return smma_error_set(err, SMMA_EINVAL, "%s: scale_vec %s is not legal (%s takes %s)",
                                  kn, sv_name(v->scale_vec), kn,
                                  v->kind == SMMA_MMA_KIND_MXF4 ? "2X" : "1X");
        if (v->scale_fmt != SMMA_E8M0)
            return smma_error_set(err, SMMA_EINVAL, "%s: stype %s is not legal (%s takes ue8m0)",
                                  kn, scale_name(v->scale_fmt), kn);
        return SMMA_OK;
    case SMMA_MMA_KIND_MXF4NVF4:
    default:
        if (v->scale_vec != 2 && v->scale_vec != 4)
            return smma_error_set(err, SMMA_EINVAL,
                                  "mxf4nvf4: scale_vec %s is not legal (mxf4nvf4 takes 2X or 4X)",
                                  sv_name(v->scale_vec));
        if (v->scale_fmt != SMMA_E8M0 && v->scale_fmt != SMMA_UE4M3)
            return smma_error_set(err, SMMA_EINVAL,
                                  "mxf4nvf4: stype %s is not legal (ue8m0, or ue4m3 with 4X)",
                                  scale_name(v->scale_fmt));
        if (v->scale_vec == 2 && v->scale_fmt != SMMA_E8M0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "mxf4nvf4: stype ue4m3 is not legal with scale_vec 2X (2X "
                                  "takes ue8m0; ue4m3 needs 4X)");
        return SMMA_OK;
    }
}

int
smma_mma_bs_check(const smma_mma_bs *v, smma_error *err)
{
    int rc;

    if (v == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no mma variant given");
    if ((unsigned) v->kind >= SMMA_MMA_KIND_COUNT)
        return smma_error_set(err, SMMA_EINVAL,
                              "kind %d is not a kind (f8f6f4 0, mxf8f6f4 1, mxf4 2, mxf4nvf4 3)",
                              (int) v->kind);
    if ((rc = check_operand_fmt(v, "atype", v->a_fmt, err)) != SMMA_OK ||
        (rc = check_operand_fmt(v, "btype", v->b_fmt, err)) != SMMA_OK)
        return rc;
    if (v->acc_f16)
        return v->kind == SMMA_MMA_KIND_F8F6F4
                   ? smma_error_set(err, SMMA_EINVAL,
                                    "f8f6f4 with .f16 C and D is legal PTX but not modelled by "
                                    "softmma (only .f32)")
                   : smma_error_set(err, SMMA_EINVAL,
                                    "%s: .block_scale takes .f32 C and D only, not .f16",
                                    kind_name(v));
    return check_scales(v, err);
}

static bool
byte_id_legal(unsigned sv, unsigned bid)
{
    return sv == 1 ? bid <= 3 : sv == 2 ? (bid == 0 || bid == 2) : bid == 0;
}

static const char *
byte_id_legal_values(unsigned sv)
{
    return sv == 1 ? "0..3" : sv == 2 ? "0 or 2" : "0";
}

smma_mma_bs_sel
smma_mma_bs_sel_of(smma_operand op, unsigned bid, unsigned tid)
{
    smma_mma_bs_sel sel = { 0, 0, 0, 0 };

    if (op == SMMA_OP_A) {
        sel.byte_id_a = bid;
        sel.thread_id_a = tid;
    } else {
        sel.byte_id_b = bid;
        sel.thread_id_b = tid;
    }
    return sel;
}

int
smma_mma_bs_sel_check(const smma_mma_bs *v, const smma_mma_bs_sel *s, smma_error *err)
{
    int rc = smma_mma_bs_check(v, err);
    unsigned sv;

    if (rc != SMMA_OK || v->kind == SMMA_MMA_KIND_F8F6F4)
        return rc;
    if (s == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: no selectors given", kind_name(v));
    sv = v->scale_vec;
    if (s->thread_id_a > 1)
        return smma_error_set(err, SMMA_EINVAL, "thread-id-a %u is not legal (legal: 0 or 1)",
                              s->thread_id_a);
    if (s->thread_id_b > 3)
        return smma_error_set(err, SMMA_EINVAL, "thread-id-b %u is not legal (legal: 0..3)",
                              s->thread_id_b);
    if (!byte_id_legal(sv, s->byte_id_a))
        return smma_error_set(err, SMMA_EINVAL,
                              "byte-id-a %u is not legal with .scale_vec::%s (legal: %s)",
                              s->byte_id_a, sv_name(sv), byte_id_legal_values(sv));
    if (!byte_id_legal(sv, s->byte_id_b))
        return smma_error_set(err, SMMA_EINVAL,
                              "byte-id-b %u is not legal with .scale_vec::%s (legal: %s)",
                              s->byte_id_b, sv_name(sv), byte_id_legal_values(sv));
    return SMMA_OK;
}

int
smma_mma_bs_index(const smma_mma_bs *v)
{
    int base;

    if (smma_mma_bs_check(v, NULL) != SMMA_OK)
        return -1;
    switch (v->kind) {
    case SMMA_MMA_KIND_F8F6F4:
    case SMMA_MMA_KIND_MXF8F6F4:
        base = v->kind == SMMA_MMA_KIND_F8F6F4 ? 0 : 25;
        return base + 5 * fmt_index(v->a_fmt) + fmt_index(v->b_fmt);
    case SMMA_MMA_KIND_MXF4:
        return 50;
    case SMMA_MMA_KIND_MXF4NVF4:
    default:
        return v->scale_vec == 2 ? 51 : v->scale_fmt == SMMA_UE4M3 ? 52 : 53;
    }
}

int
smma_mma_bs_at(unsigned index, smma_mma_bs *v, smma_error *err)
{
    if (v == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no variant to fill");
    if (index >= SMMA_MMA_BS_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "variant %u is out of range (0..%u)", index,
                              SMMA_MMA_BS_COUNT - 1);
    memset(v, 0, sizeof(*v));
    v->scale_fmt = SMMA_E8M0;
    if (index < 50) {
        v->kind = index < 25 ? SMMA_MMA_KIND_F8F6F4 : SMMA_MMA_KIND_MXF8F6F4;
        v->a_fmt = elem_fmts[(index % 25) / 5];
        v->b_fmt = elem_fmts[index % 5];
        v->scale_vec = index < 25 ? 0 : 1;
        if (index < 25)
            v->scale_fmt = SMMA_NONE;
        return SMMA_OK;
    }
    v->a_fmt = v->b_fmt = SMMA_E2M1;
    v->kind = index == 50 ? SMMA_MMA_KIND_MXF4 : SMMA_MMA_KIND_MXF4NVF4;
    v->scale_vec = index <= 51 ? 2 : 4;
    if (index == 52)
        v->scale_fmt = SMMA_UE4M3;
    return SMMA_OK;
}

const char *
smma_mma_bs_name(const smma_mma_bs *v)
{
    int i = smma_mma_bs_index(v);

    return i < 0 ? "?" : short_names[i];
}

const char *
smma_mma_bs_ptx_name(const smma_mma_bs *v)
{
    int i = smma_mma_bs_index(v);

    return i < 0 ? "?" : ptx_names[i];
}

/* The PTX spelling of variant i without its .scale_vec_size (which PTX
 * lets default for mxf8f6f4 and mxf4), or "" for the others. */
static void
ptx_name_default_sv(unsigned i, char *buf, size_t size)
{
    const char *p = ptx_names[i], *sv = strstr(p, ".scale_vec::");

    buf[0] = '\0';
    if (i < 25 || i > 50 || sv == NULL)
        return;
    snprintf(buf, size, "%.*s%s", (int) (sv - p), p, sv + strlen(".scale_vec::1X"));
}

int
smma_mma_bs_from_name(const char *name, smma_mma_bs *out, smma_error *err)
{
    static const struct {
        const char *alias;
        unsigned index;
    } aliases[] = {
        { "mma.m16n8k64.mxf4nvf4", 52 },
        { "mma.m16n8k64.mxf4nvf4.2x.ue8m0", 51 },
        { "mma.m16n8k64.mxf4nvf4.4x.ue4m3", 52 },
    };
    char buf[128];
    unsigned i;

    if (name == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no instruction name given");
    for (i = 0; i < SMMA_MMA_BS_COUNT; i++) {
        ptx_name_default_sv(i, buf, sizeof(buf));
        if (strcasecmp(name, short_names[i]) == 0 || strcasecmp(name, ptx_names[i]) == 0 ||
            (buf[0] != '\0' && strcasecmp(name, buf) == 0))
            return smma_mma_bs_at(i, out, err);
    }
    for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
        if (strcasecmp(name, aliases[i].alias) == 0)
            return smma_mma_bs_at(aliases[i].index, out, err);
    return smma_error_set(err, SMMA_EINVAL,
                          "unknown instruction '%.48s' (known: "
                          "mma.m16n8k32.{f8f6f4,mxf8f6f4}.A.B, A and B in e4m3 e5m2 e3m2 "
                          "e2m3 e2m1; mma.m16n8k64.mxf4; "
                          "mma.m16n8k64.mxf4nvf4{.2x,.4x,.4x.ue8m0}; or the PTX spelling)",
                          name);
}

unsigned
smma_mma_bs_k(const smma_mma_bs *v)
{
    if (smma_mma_bs_check(v, NULL) != SMMA_OK)
        return 0;
    return is_k64(v->kind) ? 64 : 32;
}

int
smma_mma_bs_shape(const smma_mma_bs *v, smma_gemm_shape *s, smma_error *err)
{
    int rc = smma_mma_bs_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (s == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no shape to fill");
    memset(s, 0, sizeof(*s));
    s->a_fmt = v->a_fmt;
    s->b_fmt = v->b_fmt;
    s->m = 16;
    s->n = 8;
    s->k = smma_mma_bs_k(v);
    s->scale_fmt = v->scale_fmt;
    s->vec = v->scale_vec == 0 ? 32 : (unsigned) s->k / v->scale_vec;
    s->c_fmt = s->d_fmt = SMMA_FP32;
    return SMMA_OK;
}

int
smma_mma_bs_layout(const smma_mma_bs *v, smma_operand op, smma_frag_layout *out,
                   smma_error *err)
{
    int rc = smma_mma_bs_check(v, err);
    unsigned k, bits;

    if (rc != SMMA_OK)
        return rc;
    if ((unsigned) op > SMMA_OP_D || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: operand %d is not a, b, c or d",
                              smma_mma_bs_name(v), (int) op);
    k = smma_mma_bs_k(v);
    bits = k == 64 ? 4 : 8; /* packed e2m1, or one 8-bit container */
    out->name = layout_names[v->kind][op];
    out->acc = op == SMMA_OP_C || op == SMMA_OP_D;
    switch (op) {
    case SMMA_OP_A:
    case SMMA_OP_B:
        out->fmt = op == SMMA_OP_A ? v->a_fmt : v->b_fmt;
        out->rows = op == SMMA_OP_A ? 16 : k;
        out->cols = op == SMMA_OP_A ? k : 8;
        out->regs = op == SMMA_OP_A ? 4 : 2;
        out->elems = 32 / bits;
        out->elem_bits = bits;
        break;
    default:
        out->fmt = SMMA_FP32;
        out->rows = 16;
        out->cols = 8;
        out->regs = 4;
        out->elems = 1;
        out->elem_bits = 32;
        break;
    }
    return SMMA_OK;
}

/* ---- 8-bit containers ---------------------------------------------------- */

/* Bits of the code of format f (4, 6 or 8). */
static unsigned
code_bits(smma_format f)
{
    return smma_format_info(f)->bits;
}

/* The container bits that must be zero, for m16n8k32 operands: e2m1 in bits
 * 5:2, e3m2 and e2m3 in bits 5:0, fp8 filling the byte. */
static uint32_t
padding_mask(smma_format f)
{
    unsigned b = code_bits(f);

    return b == 4 ? 0xC3u : b == 6 ? 0xC0u : 0u;
}

static int
operand_args(const smma_mma_bs *v, smma_operand op, const void *in, const void *out,
             smma_frag_layout *l, smma_error *err)
{
    int rc = smma_mma_bs_layout(v, op, l, err);

    if (rc != SMMA_OK)
        return rc;
    if (in == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: NULL tile or register array", l->name);
    return SMMA_OK;
}

int
smma_mma_bs_pack(const smma_mma_bs *v, smma_operand op, const uint32_t *tile,
                 uint32_t *regs, smma_error *err)
{
    uint32_t t[16 * KMAX];
    smma_frag_layout l;
    unsigned i, n, bits;
    int rc = operand_args(v, op, tile, regs, &l, err);

    if (rc != SMMA_OK)
        return rc;
    if (l.elem_bits == 32) {
        smma_frag_pack(&l, tile, regs);
        return SMMA_OK;
    }
    n = l.rows * l.cols;
    bits = code_bits(l.fmt);
    for (i = 0; i < n; i++) {
        if (tile[i] >> bits != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s: element (%u, %u) code 0x%lx does not fit %s (%u bits)",
                                  l.name, i / l.cols, i % l.cols, (unsigned long) tile[i],
                                  smma_format_name(l.fmt), bits);
        t[i] = l.elem_bits == 8 && bits == 4 ? tile[i] << 2 : tile[i];
    }
    smma_frag_pack(&l, t, regs);
    return SMMA_OK;
}

int
smma_mma_bs_unpack(const smma_mma_bs *v, smma_operand op, const uint32_t *regs,
                   uint32_t *tile, smma_error *err)
{
    smma_frag_layout l;
    unsigned i, n, lane, reg, elem;
    uint32_t pad;
    int rc = operand_args(v, op, regs, tile, &l, err);

    if (rc != SMMA_OK)
        return rc;
    smma_frag_unpack(&l, regs, tile);
    if (l.elem_bits != 8)
        return SMMA_OK;
    n = l.rows * l.cols;
    pad = padding_mask(l.fmt);
    for (i = 0; i < n; i++) {
        if (tile[i] & pad) {
            smma_frag_slot(&l, i / l.cols, i % l.cols, &lane, &reg, &elem);
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s: lane %u reg %u byte %u: %s container 0x%02lx has "
                                  "padding bits set (mask 0x%02lx must be 0)", l.name, lane,
                                  reg, elem, smma_format_name(l.fmt), (unsigned long) tile[i],
                                  (unsigned long) pad);
        }
        if (code_bits(l.fmt) == 4)
            tile[i] >>= 2;
    }
    return SMMA_OK;
}

/* ---- scale factors -------------------------------------------------------- */

static int
sf_args(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel, smma_error *err)
{
    int rc = smma_mma_bs_check(v, err);

    if (rc != SMMA_OK)
        return rc;
    if (v->kind == SMMA_MMA_KIND_F8F6F4)
        return smma_error_set(err, SMMA_EINVAL, "%s has no scale factors",
                              smma_mma_bs_name(v));
    if (op != SMMA_OP_A && op != SMMA_OP_B)
        return smma_error_set(err, SMMA_EINVAL,
                              "operand %d has no scale factors (only A and B have)", (int) op);
    return smma_mma_bs_sel_check(v, sel, err);
}

/* The listings of 9.7.14.3, per lane: is it a provider, and of which row
 * (A) or column (B); then per byte: is it one the byte-id selects. */
int
smma_mma_bs_sf_coord(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                     unsigned lane, unsigned byte, unsigned *mn, unsigned *kblk,
                     smma_error *err)
{
    unsigned quad = lane % 4, bid;
    int rc = sf_args(v, op, sel, err);

    if (rc != SMMA_OK)
        return rc;
    *mn = op == SMMA_OP_A ? 16 : 8;
    *kblk = v->scale_vec;
    bid = op == SMMA_OP_A ? sel->byte_id_a : sel->byte_id_b;
    if (lane >= WARP || byte >= 4 || byte < bid || byte >= bid + v->scale_vec)
        return SMMA_OK;
    if (op == SMMA_OP_A) {
        /* thread-id-a picks the pair lane % 4 in {2 tid, 2 tid + 1}; the
         * lower lane of the pair gives row group, the upper row group + 8. */
        if (quad / 2 != sel->thread_id_a)
            return SMMA_OK;
        *mn = lane / 4 + 8 * (quad % 2);
    } else {
        /* thread-id-b picks lane % 4 == tid; lane 4n + tid gives column n. */
        if (quad != sel->thread_id_b)
            return SMMA_OK;
        *mn = lane / 4;
    }
    *kblk = byte - bid;
    return SMMA_OK;
}

int
smma_mma_bs_sf_slot(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                    unsigned mn, unsigned kblk, unsigned *lane, unsigned *byte,
                    smma_error *err)
{
    unsigned nmn = op == SMMA_OP_A ? 16 : 8;
    int rc = sf_args(v, op, sel, err);

    if (rc != SMMA_OK)
        return rc;
    if (mn >= nmn || kblk >= v->scale_vec)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale_%c coordinate (%u, %u) is outside its %u x %u tile",
                              op == SMMA_OP_A ? 'A' : 'B', mn, kblk, nmn, v->scale_vec);
    if (op == SMMA_OP_A) {
        *lane = 4 * (mn % 8) + 2 * sel->thread_id_a + mn / 8;
        *byte = sel->byte_id_a + kblk;
    } else {
        *lane = 4 * mn + sel->thread_id_b;
        *byte = sel->byte_id_b + kblk;
    }
    return SMMA_OK;
}

int
smma_mma_bs_sf_pack(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                    const uint32_t *sf, uint32_t *regs, smma_error *err)
{
    unsigned mn, kb, lane, byte, nmn = op == SMMA_OP_A ? 16 : 8, sv;
    int rc = sf_args(v, op, sel, err);

    if (rc != SMMA_OK)
        return rc;
    if (sf == NULL || regs == NULL)
        return smma_error_set(err, SMMA_EINVAL, "NULL scale tile or register array");
    sv = v->scale_vec;
    for (mn = 0; mn < nmn; mn++)
        for (kb = 0; kb < sv; kb++) {
            uint32_t code = sf[mn * sv + kb];

            if (code > 0xffu)
                return smma_error_set(err, SMMA_EINVAL,
                                      "scale_%c (%u, %u): code 0x%lx does not fit a byte",
                                      op == SMMA_OP_A ? 'A' : 'B', mn, kb,
                                      (unsigned long) code);
            smma_mma_bs_sf_slot(v, op, sel, mn, kb, &lane, &byte, NULL);
            regs[lane] = (regs[lane] & ~(UINT32_C(0xff) << (8 * byte))) | code << (8 * byte);
        }
    return SMMA_OK;
}

int
smma_mma_bs_sf_unpack(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                      const uint32_t *regs, uint32_t *sf, smma_error *err)
{
    unsigned lane, byte, mn, kb;
    int rc = sf_args(v, op, sel, err);

    if (rc != SMMA_OK)
        return rc;
    if (sf == NULL || regs == NULL)
        return smma_error_set(err, SMMA_EINVAL, "NULL scale tile or register array");
    for (lane = 0; lane < WARP; lane++)
        for (byte = 0; byte < 4; byte++) {
            smma_mma_bs_sf_coord(v, op, sel, lane, byte, &mn, &kb, NULL);
            if (kb < v->scale_vec)
                sf[mn * v->scale_vec + kb] = (regs[lane] >> (8 * byte)) & 0xffu;
        }
    return SMMA_OK;
}

/* A ue4m3 scale is a byte whose most significant bit is 0. */
static int
check_ue4m3(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
            const uint32_t *sf, smma_error *err)
{
    unsigned nmn = op == SMMA_OP_A ? 16 : 8, mn, kb, lane, byte;

    if (v->scale_fmt != SMMA_UE4M3)
        return SMMA_OK;
    for (mn = 0; mn < nmn; mn++)
        for (kb = 0; kb < v->scale_vec; kb++)
            if (sf[mn * v->scale_vec + kb] & 0x80u) {
                smma_mma_bs_sf_slot(v, op, sel, mn, kb, &lane, &byte, NULL);
                return smma_error_set(err, SMMA_EINVAL,
                                      "scale_%c lane %u byte %u: 0x%02lx is not a ue4m3 code "
                                      "(its most significant bit must be 0)",
                                      op == SMMA_OP_A ? 'A' : 'B', lane, byte,
                                      (unsigned long) sf[mn * v->scale_vec + kb]);
            }
    return SMMA_OK;
}

/* ---- executor --------------------------------------------------------------- */

int
smma_mma_bs_exec(const smma_mma_bs *v, const smma_mma_bs_sel *sel,
                 const smma_model *model, const uint32_t *a_regs, const uint32_t *b_regs,
                 const uint32_t *c_regs, const uint32_t *sfa_regs,
                 const uint32_t *sfb_regs, uint32_t *d_regs, smma_error *err)
{
    /* A row-major (a row is a contiguous k run), B transposed to n-major. */
    uint32_t a[16 * KMAX], b[KMAX * 8], bt[KMAX * 8], c[16 * 8], d[16 * 8];
    uint32_t sa[16 * 4], sb[8 * 4];
    smma_frag_layout ld;
    smma_gemm_shape s;
    bool scaled;
    unsigned k, kk, row, col, sv;
    int rc = smma_mma_bs_shape(v, &s, err);

    if (rc != SMMA_OK)
        return rc;
    scaled = v->kind != SMMA_MMA_KIND_F8F6F4;
    if (model == NULL || a_regs == NULL || b_regs == NULL || c_regs == NULL ||
        d_regs == NULL || (scaled && (sfa_regs == NULL || sfb_regs == NULL)))
        return smma_error_set(err, SMMA_EINVAL, "%s: NULL model or register array",
                              smma_mma_bs_name(v));
    if ((rc = smma_mma_bs_sel_check(v, sel, err)) != SMMA_OK ||
        (rc = smma_model_check(model, &s, err)) != SMMA_OK ||
        (rc = smma_mma_bs_unpack(v, SMMA_OP_A, a_regs, a, err)) != SMMA_OK ||
        (rc = smma_mma_bs_unpack(v, SMMA_OP_B, b_regs, b, err)) != SMMA_OK ||
        (rc = smma_mma_bs_unpack(v, SMMA_OP_C, c_regs, c, err)) != SMMA_OK)
        return rc;
    if (scaled &&
        ((rc = smma_mma_bs_sf_unpack(v, SMMA_OP_A, sel, sfa_regs, sa, err)) != SMMA_OK ||
         (rc = smma_mma_bs_sf_unpack(v, SMMA_OP_B, sel, sfb_regs, sb, err)) != SMMA_OK ||
         (rc = check_ue4m3(v, SMMA_OP_A, sel, sa, err)) != SMMA_OK ||
         (rc = check_ue4m3(v, SMMA_OP_B, sel, sb, err)) != SMMA_OK))
        return rc;
    k = (unsigned) s.k;
    sv = v->scale_vec;
    for (kk = 0; kk < k; kk++)
        for (col = 0; col < 8; col++)
            bt[col * k + kk] = b[kk * 8 + col];
    for (row = 0; row < 16; row++)
        for (col = 0; col < 8; col++)
            d[row * 8 + col] = smma_dot(model, &s, &a[row * k], &bt[col * k],
                                        scaled ? &sa[row * sv] : NULL,
                                        scaled ? &sb[col * sv] : NULL, c[row * 8 + col]);
    smma_mma_bs_layout(v, SMMA_OP_D, &ld, NULL);
    smma_frag_pack(&ld, d, d_regs);
    return SMMA_OK;
}

/* ---- PTX -------------------------------------------------------------------- */

int
smma_mma_bs_ptx(const smma_mma_bs *v, const smma_mma_bs_sel *sel, char *buf, size_t size,
                smma_error *err)
{
    static const char operands[] = "{%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
                                   "{%c0, %c1, %c2, %c3}";
    int rc = smma_mma_bs_sel_check(v, sel, err), n;

    if (rc != SMMA_OK)
        return rc;
    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the PTX text");
    if (v->kind == SMMA_MMA_KIND_F8F6F4)
        n = snprintf(buf, size, "%s %s;", smma_mma_bs_ptx_name(v), operands);
    else
        n = snprintf(buf, size, "%s %s, %%sfa, {%u, %u}, %%sfb, {%u, %u};",
                     smma_mma_bs_ptx_name(v), operands, sel->byte_id_a, sel->thread_id_a,
                     sel->byte_id_b, sel->thread_id_b);
    if (n < 0 || (size_t) n >= size)
        return smma_error_set(err, SMMA_ERANGE, "PTX text needs %d bytes, buffer has %zu",
                              n + 1, size);
    return SMMA_OK;
}

const char *
smma_mma_bs_ptx_target(const smma_mma_bs *v)
{
    return smma_mma_bs_index(v) < 0 ? NULL : "sm_120a";
}

const char *
smma_mma_bs_ptx_version(const smma_mma_bs *v)
{
    int i = smma_mma_bs_index(v);

    return i < 0 ? NULL : i == 53 ? "9.1" : "8.7";
}

/* ---- drawable form ------------------------------------------------------- */

enum { GRID_SFA = 4, GRID_SFB = 5 };

static void
grid_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    smma_mma_bs v;
    smma_mma_bs_sel sel;
    smma_frag_layout l;
    unsigned op = g->param[1], lane, reg, elem;

    out->owner = SMMA_GRID_NOBODY;
    snprintf(out->label, sizeof(out->label), ".");
    if (smma_mma_bs_at(g->param[0], &v, NULL) != SMMA_OK)
        return;
    if (op <= SMMA_OP_D) {
        smma_mma_bs_layout(&v, (smma_operand) op, &l, NULL);
        if (smma_frag_slot(&l, row, col, &lane, &reg, &elem) != SMMA_OK)
            return;
        if (l.elems == 1)
            snprintf(out->label, sizeof(out->label), "T%u:r%u", lane, reg);
        else
            snprintf(out->label, sizeof(out->label), "T%u:r%u.%u", lane, reg, elem);
    } else {
        sel = smma_mma_bs_sel_of(op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, g->param[2],
                                 g->param[3]);
        /* sfa: row m, column k block; sfb: row k block, column n. */
        if (smma_mma_bs_sf_slot(&v, op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, &sel,
                                op == GRID_SFA ? row : col, op == GRID_SFA ? col : row, &lane,
                                &elem, NULL) != SMMA_OK)
            return;
        snprintf(out->label, sizeof(out->label), "T%u:b%u", lane, elem);
    }
    out->owner = lane;
}

/* The queries: (row, col) of the drawn tile, which is the operand's. */
static void
grid_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *out)
{
    smma_mma_bs v;
    smma_mma_bs_sel sel;
    smma_frag_layout l;
    unsigned op = g->param[1];

    smma_holder_none(out);
    if (smma_mma_bs_at(g->param[0], &v, NULL) != SMMA_OK)
        return;
    if (op <= SMMA_OP_D) {
        smma_mma_bs_layout(&v, (smma_operand) op, &l, NULL);
        if (smma_frag_slot(&l, row, col, &out->thread, &out->reg, &out->elem) == SMMA_OK)
            out->kind = SMMA_HOLDER_REG;
        return;
    }
    sel = smma_mma_bs_sel_of(op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, g->param[2], g->param[3]);
    if (smma_mma_bs_sf_slot(&v, op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, &sel,
                            op == GRID_SFA ? row : col, op == GRID_SFA ? col : row,
                            &out->thread, &out->elem, NULL) == SMMA_OK) {
        out->kind = SMMA_HOLDER_BYTE;
        out->reg = 0;
    }
}

static int
grid_coord(const smma_grid *g, unsigned thread, unsigned reg, unsigned elem, unsigned *row,
           unsigned *col)
{
    smma_mma_bs v;
    smma_mma_bs_sel sel;
    smma_frag_layout l;
    unsigned op = g->param[1], mn, kb;

    if (smma_mma_bs_at(g->param[0], &v, NULL) != SMMA_OK)
        return SMMA_EINVAL;
    if (op <= SMMA_OP_D) {
        smma_mma_bs_layout(&v, (smma_operand) op, &l, NULL);
        smma_frag_coord(&l, thread, reg, elem, row, col);
        return *row < l.rows && *col < l.cols ? SMMA_OK : SMMA_EINVAL;
    }
    sel = smma_mma_bs_sel_of(op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, g->param[2], g->param[3]);
    if (reg != 0 || smma_mma_bs_sf_coord(&v, op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, &sel,
                                         thread, elem, &mn, &kb, NULL) != SMMA_OK
        || kb >= v.scale_vec)
        return SMMA_EINVAL;
    *row = op == GRID_SFA ? mn : kb;
    *col = op == GRID_SFA ? kb : mn;
    return SMMA_OK;
}

/* One line describing operand op of v with the selectors bid, tid. */
static void
describe(const smma_mma_bs *v, unsigned op, unsigned bid, unsigned tid, char *buf,
         size_t size)
{
    static const char *const opn[4] = { "A", "B", "C", "D" };
    unsigned k = smma_mma_bs_k(v), sv = v->scale_vec & 7u;
    unsigned per = sv != 0 ? (k / sv) & 127u : 0; /* k per scale block */
    smma_format f = op == SMMA_OP_A ? v->a_fmt : v->b_fmt;

    if (op == SMMA_OP_C || op == SMMA_OP_D) {
        snprintf(buf, size, "%s 16 x 8 fp32, 4 registers per lane", opn[op]);
    } else if (op <= SMMA_OP_B) {
        const char *how = k == 64 ? "packed 8 per register"
                          : code_bits(f) == 4 ? "in 8-bit containers (bits 5:2), 4 per register"
                          : code_bits(f) == 6 ? "in 8-bit containers (bits 5:0), 4 per register"
                                              : "4 per register";

        snprintf(buf, size, "%s %u x %u %s, %s, %u registers per lane", opn[op],
                 op == SMMA_OP_A ? 16 : k, op == SMMA_OP_A ? k : 8, smma_format_name(f), how,
                 op == SMMA_OP_A ? 4 : 2);
    } else if (op == GRID_SFA) {
        /* Selectors are 0..3 (checked); the masks let the compiler see it. */
        snprintf(buf, size, "scale_A 16 x %u %s, k blocks of %u; byte-id-a %u, thread-id-a %u: "
                 "lanes 4g+%u (row g), 4g+%u (row g+8)", sv,
                 smma_format_name(v->scale_fmt), per, bid & 3u, tid & 1u, 2 * (tid & 1u),
                 2 * (tid & 1u) + 1);
    } else {
        snprintf(buf, size, "scale_B %u x 8 %s, k blocks of %u; byte-id-b %u, thread-id-b %u: "
                 "lanes 4n+%u", sv, smma_format_name(v->scale_fmt), per, bid & 3u,
                 tid & 3u, tid & 3u);
    }
}

static const char *const grid_ops[6] = { "a", "b", "c", "d", "sfa", "sfb" };

int
smma_mma_bs_grid(const char *instr, const char *operand, const smma_grid_opts *o,
                 smma_grid *g, smma_error *err)
{
    smma_mma_bs v;
    smma_mma_bs_sel sel;
    smma_frag_layout l;
    unsigned op, nops, bid, tid, sv;
    const char *name;
    int rc;

    if (instr == NULL || smma_mma_bs_from_name(instr, &v, NULL) != SMMA_OK)
        return SMMA_GRID_NOT_MINE;
    name = smma_mma_bs_name(&v);
    nops = v.kind == SMMA_MMA_KIND_F8F6F4 ? 4 : 6;
    for (op = 0; op < nops; op++)
        if (operand != NULL && strcasecmp(operand, grid_ops[op]) == 0)
            break;
    if (op == nops)
        return smma_error_set(err, SMMA_EINVAL, "%s: unknown operand '%s' (known: a, b, c, d%s)",
                              name, operand == NULL ? "" : operand,
                              nops == 6 ? ", sfa, sfb" : "");
    if (g == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no grid to fill");
    if (o != NULL && (o->sf_id >= 0 || o->num >= 0))
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: the scale-factor id and .num are tcgen05 selectors; mma.sync "
                              "takes byte-id and thread-id", name);
    bid = o != NULL && o->byte_id >= 0 ? (unsigned) o->byte_id : 0;
    tid = o != NULL && o->thread_id >= 0 ? (unsigned) o->thread_id : 0;
    if (op <= SMMA_OP_D && o != NULL && (o->byte_id >= 0 || o->thread_id >= 0))
        return smma_error_set(err, SMMA_EINVAL,
                              "%s %s: byte-id and thread-id select scale factors; they apply "
                              "to sfa and sfb only", name, grid_ops[op]);
    if (op > SMMA_OP_D) {
        sel = smma_mma_bs_sel_of(op == GRID_SFA ? SMMA_OP_A : SMMA_OP_B, bid, tid);
        if ((rc = smma_mma_bs_sel_check(&v, &sel, err)) != SMMA_OK)
            return rc;
    }
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s %s", name, grid_ops[op]);
    describe(&v, op, bid, tid, g->what, sizeof(g->what));
    sv = v.scale_vec;
    if (op <= SMMA_OP_D) {
        smma_mma_bs_layout(&v, (smma_operand) op, &l, NULL);
        g->rows = l.rows;
        g->cols = l.cols;
        snprintf(g->row_axis, sizeof(g->row_axis), "%s", op == SMMA_OP_B ? "k" : "m");
        snprintf(g->col_axis, sizeof(g->col_axis), "%s", op == SMMA_OP_A ? "k" : "n");
        snprintf(g->legend, sizeof(g->legend), "%s",
                 l.elems == 1 ? "T<lane>:r<register>" : "T<lane>:r<register>.<element>");
    } else {
        g->rows = op == GRID_SFA ? 16 : sv;
        g->cols = op == GRID_SFA ? sv : 8;
        snprintf(g->row_axis, sizeof(g->row_axis), "%s",
                 op == GRID_SFA ? "m" : "k block");
        snprintf(g->col_axis, sizeof(g->col_axis), "%s",
                 op == GRID_SFA ? "k block" : "n");
        snprintf(g->legend, sizeof(g->legend), "T<lane>:b<byte of the scale register>");
    }
    g->cell = grid_cell;
    g->param[0] = (unsigned) smma_mma_bs_index(&v);
    g->param[1] = op;
    g->param[2] = bid;
    g->param[3] = tid;
    if (op <= SMMA_OP_D)
        smma_grid_queries(g, 32, l.regs, l.elems, grid_holder, grid_coord);
    else
        smma_grid_queries(g, 32, 1, 4, grid_holder, grid_coord);
    return SMMA_OK;
}

void
smma_mma_bs_grid_list(smma_grid_emit_fn emit, void *ctx)
{
    smma_mma_bs v;
    char what[128];
    unsigned i, op;

    for (i = 0; i < SMMA_MMA_BS_COUNT; i++) {
        smma_mma_bs_at(i, &v, NULL);
        for (op = 0; op < (v.kind == SMMA_MMA_KIND_F8F6F4 ? 4u : 6u); op++) {
            describe(&v, op, 0, 0, what, sizeof(what));
            emit(short_names[i], grid_ops[op], what, ctx);
        }
    }
}
