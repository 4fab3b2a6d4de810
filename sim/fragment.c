/*
 * fragment.c - mma.sync fragment layouts as functions, and the warp-level
 * executor.  The layouts and their sources (PTX ISA 9.7.14.5.8 and
 * 9.7.14.5.10) are in softmma/fragment.h.
 *
 * Every layout of the four instructions is one of three shapes, told apart
 * by the public fields alone (so a caller's copy of a layout works too):
 *   A: elem_bits < 32 and cols > 8; runs of `elems` consecutive k per
 *      register, the second half of K in registers 2 and 3;
 *   B: elem_bits < 32 and cols == 8; the same runs along k, column = group;
 *   C/D: acc and elem_bits == 32; pairs of columns, rows group and group + 8;
 *   C/D f16: acc and elem_bits == 16; two columns per register, the second
 *      register for row group + 8.
 * smma_frag_coord and smma_frag_slot are each written from the PTX ISA's
 * formulas, not one from the other; the tests check that they are inverses.
 */
#include <config.h>

#include <string.h>
#include <strings.h>

#include <softmma/fragment.h>
#include <softmma/sm80.h>

#define WARP 32u
#define TILE_MAX (16u * 32u) /* the largest tile: A of m16n8k32 */

enum shape { SHAPE_A, SHAPE_B, SHAPE_CD, SHAPE_CD16 };

struct instr_info {
    const char *name;
    const char *ptx;
    smma_format fmt;
    smma_format acc;  /* the format of C and D */
    unsigned k;
    smma_frag_layout op[4];
};

#define FRAG16(n, f)                                                                      \
    {                                                                                     \
        { n " a", f, 16, 16, 4, 2, 16, false }, { n " b", f, 16, 8, 2, 2, 16, false },    \
        { n " c", SMMA_FP32, 16, 8, 4, 1, 32, true },                                     \
        { n " d", SMMA_FP32, 16, 8, 4, 1, 32, true }                                      \
    }
#define FRAG16H(n)                                                                        \
    {                                                                                     \
        { n " a", SMMA_FP16, 16, 16, 4, 2, 16, false },                                   \
        { n " b", SMMA_FP16, 16, 8, 2, 2, 16, false },                                    \
        { n " c", SMMA_FP16, 16, 8, 2, 2, 16, true },                                     \
        { n " d", SMMA_FP16, 16, 8, 2, 2, 16, true }                                      \
    }
#define FRAG32(n, f)                                                                      \
    {                                                                                     \
        { n " a", f, 16, 32, 4, 4, 8, false }, { n " b", f, 32, 8, 2, 4, 8, false },      \
        { n " c", SMMA_FP32, 16, 8, 4, 1, 32, true },                                     \
        { n " d", SMMA_FP32, 16, 8, 4, 1, 32, true }                                      \
    }

static const struct instr_info instrs[SMMA_MMA_INSTR_COUNT] = {
    { "mma.m16n8k16.bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", SMMA_BF16,
      SMMA_FP32, 16, FRAG16("mma.m16n8k16.bf16", SMMA_BF16) },
    { "mma.m16n8k16.f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", SMMA_FP16,
      SMMA_FP32, 16, FRAG16("mma.m16n8k16.f16", SMMA_FP16) },
    { "mma.m16n8k32.e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", SMMA_E4M3,
      SMMA_FP32, 32, FRAG32("mma.m16n8k32.e4m3", SMMA_E4M3) },
    { "mma.m16n8k32.e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", SMMA_E5M2,
      SMMA_FP32, 32, FRAG32("mma.m16n8k32.e5m2", SMMA_E5M2) },
    { "mma.m16n8k16.f16.f16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", SMMA_FP16,
      SMMA_FP16, 16, FRAG16H("mma.m16n8k16.f16.f16") },
};

static enum shape
shape_of(const smma_frag_layout *l)
{
    if (l->acc || l->elem_bits == 32)
        return l->elem_bits == 16 ? SHAPE_CD16 : SHAPE_CD;
    return l->cols == 8 ? SHAPE_B : SHAPE_A;
}

const smma_frag_layout *
smma_frag_layout_get(smma_mma_instr i, smma_operand op)
{
    if ((unsigned) i >= SMMA_MMA_INSTR_COUNT || (unsigned) op > SMMA_OP_D)
        return NULL;
    return &instrs[i].op[op];
}

const char *
smma_mma_instr_name(smma_mma_instr i)
{
    return (unsigned) i < SMMA_MMA_INSTR_COUNT ? instrs[i].name : "?";
}

const char *
smma_mma_instr_ptx(smma_mma_instr i)
{
    return (unsigned) i < SMMA_MMA_INSTR_COUNT ? instrs[i].ptx : "?";
}

smma_format
smma_mma_instr_format(smma_mma_instr i)
{
    return (unsigned) i < SMMA_MMA_INSTR_COUNT ? instrs[i].fmt : SMMA_FORMAT_COUNT;
}

unsigned
smma_mma_instr_k(smma_mma_instr i)
{
    return (unsigned) i < SMMA_MMA_INSTR_COUNT ? instrs[i].k : 0;
}

int
smma_mma_instr_from_name(const char *name, smma_mma_instr *out, smma_error *err)
{
    unsigned i;

    if (name == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no instruction name given");
    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        if (strcasecmp(name, instrs[i].name) == 0 || strcasecmp(name, instrs[i].ptx) == 0) {
            *out = (smma_mma_instr) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL,
                          "unknown instruction '%s' (known: mma.m16n8k16.bf16, "
                          "mma.m16n8k16.f16, mma.m16n8k32.e4m3, mma.m16n8k32.e5m2, "
                          "mma.m16n8k16.f16.f16)", name);
}

int
smma_mma_instr_shape(smma_mma_instr i, smma_gemm_shape *s, smma_error *err)
{
    if ((unsigned) i >= SMMA_MMA_INSTR_COUNT || s == NULL)
        return smma_error_set(err, SMMA_EINVAL, "instruction %d is not a modeled mma", (int) i);
    memset(s, 0, sizeof(*s));
    s->a_fmt = s->b_fmt = instrs[i].fmt;
    s->scale_fmt = SMMA_NONE;
    s->vec = 32;
    s->c_fmt = s->d_fmt = instrs[i].acc;
    s->m = 16;
    s->n = 8;
    s->k = instrs[i].k;
    return SMMA_OK;
}

/*
 * (lane, reg, elem) -> (row, col).  A and B follow the PTX formulas
 *   A: row = group + 8 * (reg & 1), col = tig * elems + elem + (reg >> 1) * K/2
 *      (k16: "col = tig*2 + (i & 1) [+ 8 for i >= 4]", row group + 8 for
 *      a2, a3, a6, a7; k32: "col = tig*4 + (i & 3) [+ 16 for i >= 8]", row
 *      group + 8 for a4..a7 and a12..a15: element i sits in register
 *      i / elems, so both are this formula);
 *   B: row = tig * elems + elem + reg * K/2, col = group;
 *   C/D: row = group + 8 * (reg >> 1), col = tig * 2 + (reg & 1);
 *   C/D f16: row = group + 8 * reg, col = tig * 2 + elem (the ISA's c0..c3
 *      are elements 0, 1 of registers 0 and 1).
 */
void
smma_frag_coord(const smma_frag_layout *l, unsigned lane, unsigned reg, unsigned elem,
                unsigned *row, unsigned *col)
{
    if (lane >= WARP || reg >= l->regs || elem >= l->elems) {
        *row = l->rows;
        *col = l->cols;
        return;
    }
    switch (shape_of(l)) {
    case SHAPE_A:
        *row = smma_frag_a_row(lane, reg);
        *col = smma_frag_a_col(lane, reg, elem, l->elems, l->cols);
        break;
    case SHAPE_B:
        *row = smma_frag_b_row(lane, reg, elem, l->elems, l->rows);
        *col = smma_frag_b_col(lane);
        break;
    case SHAPE_CD16:
        *row = smma_frag_cd16_row(lane, reg);
        *col = smma_frag_cd16_col(lane, elem);
        break;
    case SHAPE_CD:
    default:
        *row = smma_frag_cd_row(lane, reg);
        *col = smma_frag_cd_col(lane, reg);
        break;
    }
}

/* (row, col) -> (lane, reg, elem), solved from the same formulas: the half
 * of K picks the register pair, the position in the half picks tig and the
 * element. */
int
smma_frag_slot(const smma_frag_layout *l, unsigned row, unsigned col, unsigned *lane,
               unsigned *reg, unsigned *elem)
{
    unsigned half, pos;

    if (row >= l->rows || col >= l->cols)
        return SMMA_EINVAL;
    switch (shape_of(l)) {
    case SHAPE_A:
        half = col / (l->cols / 2);
        pos = col % (l->cols / 2);
        *lane = (row % 8) * 4 + pos / l->elems;
        *reg = (row / 8) + 2 * half;
        *elem = pos % l->elems;
        break;
    case SHAPE_B:
        half = row / (l->rows / 2);
        pos = row % (l->rows / 2);
        *lane = col * 4 + pos / l->elems;
        *reg = half;
        *elem = pos % l->elems;
        break;
    case SHAPE_CD16:
        *lane = (row % 8) * 4 + col / 2;
        *reg = row / 8;
        *elem = col % 2;
        break;
    case SHAPE_CD:
    default:
        *lane = (row % 8) * 4 + col / 2;
        *reg = (row / 8) * 2 + col % 2;
        *elem = 0;
        break;
    }
    return SMMA_OK;
}

static uint32_t
elem_mask(const smma_frag_layout *l)
{
    return l->elem_bits >= 32 ? UINT32_C(0xffffffff) : (UINT32_C(1) << l->elem_bits) - 1;
}

void
smma_frag_pack(const smma_frag_layout *l, const uint32_t *tile, uint32_t *regs)
{
    uint32_t mask = elem_mask(l);
    unsigned lane, reg, e, row, col;

    for (lane = 0; lane < WARP; lane++)
        for (reg = 0; reg < l->regs; reg++) {
            uint32_t w = 0;

            for (e = 0; e < l->elems; e++) {
                smma_frag_coord(l, lane, reg, e, &row, &col);
                w |= (tile[row * l->cols + col] & mask) << (e * l->elem_bits);
            }
            regs[lane * l->regs + reg] = w;
        }
}

void
smma_frag_unpack(const smma_frag_layout *l, const uint32_t *regs, uint32_t *tile)
{
    uint32_t mask = elem_mask(l);
    unsigned lane, reg, e, row, col;

    for (lane = 0; lane < WARP; lane++)
        for (reg = 0; reg < l->regs; reg++) {
            uint32_t w = regs[lane * l->regs + reg];

            for (e = 0; e < l->elems; e++) {
                smma_frag_coord(l, lane, reg, e, &row, &col);
                tile[row * l->cols + col] = (w >> (e * l->elem_bits)) & mask;
            }
        }
}

int
smma_mma_exec(smma_mma_instr i, const smma_model *model, const uint32_t *a_regs,
              const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
              smma_error *err)
{
    /* Tiles on the stack: A row-major (a row of A is a contiguous k run),
     * B transposed to n-major so a column of B is one too. */
    uint32_t a[TILE_MAX], b[TILE_MAX], bt[TILE_MAX], c[16 * 8], d[16 * 8];
    smma_gemm_shape s;
    const struct instr_info *in;
    unsigned row, col, kk, k;
    int rc;

    if (smma_mma_instr_shape(i, &s, err) != SMMA_OK)
        return SMMA_EINVAL;
    if (model == NULL || a_regs == NULL || b_regs == NULL || c_regs == NULL || d_regs == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: NULL model or register array",
                              smma_mma_instr_name(i));
    rc = smma_model_check(model, &s, err);
    if (rc != SMMA_OK)
        return rc;
    in = &instrs[i];
    k = in->k;
    smma_frag_unpack(&in->op[SMMA_OP_A], a_regs, a);
    smma_frag_unpack(&in->op[SMMA_OP_B], b_regs, b);
    smma_frag_unpack(&in->op[SMMA_OP_C], c_regs, c);
    for (kk = 0; kk < k; kk++)
        for (col = 0; col < 8; col++)
            bt[col * k + kk] = b[kk * 8 + col];
    for (row = 0; row < 16; row++)
        for (col = 0; col < 8; col++)
            d[row * 8 + col] = smma_dot(model, &s, &a[row * k], &bt[col * k], NULL, NULL,
                                        c[row * 8 + col]);
    smma_frag_pack(&in->op[SMMA_OP_D], d, d_regs);
    return SMMA_OK;
}
