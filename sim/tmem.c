/*
 * tmem.c - the Tensor Memory of tcgen05 and the instructions that use it:
 * tcgen05.ld/st layouts, the D/A placement of tcgen05.mma, scale-factor
 * placement, tcgen05.cp, the tcgen05.cp and tcgen05.mma executors, the PTX
 * text, and the drawable form.  The layouts and their sources are in
 * softmma/tmem.h.
 *
 * Each layout is a pair of functions: coord (who -> where) and its inverse
 * (where -> who), each solved from the formulas in the header, never one
 * computed by searching the other; tests/sim/tmem-t.c checks that they are
 * inverse bijections.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/tc05_addr.h>
#include <softmma/tmem.h>

/* softmma/tc05_addr.h numbers the shapes as these enums do. */
_Static_assert(SMMA_TMEM_CP_32X128B_WARPX4 == SMMA_TC05_CP_32X128B_WARPX4
               && SMMA_TMEM_CP_64X128B_01_23 == SMMA_TC05_CP_64X128B_01_23
               && SMMA_TMEM_CP_64X128B_02_13 == SMMA_TC05_CP_64X128B_02_13
               && SMMA_TMEM_CP_4X256B == SMMA_TC05_CP_4X256B, "tcgen05.cp shape numbers");
_Static_assert(SMMA_TMEM_32X32B == SMMA_TC05_LD_32X32B && SMMA_TMEM_16X64B == SMMA_TC05_LD_16X64B
               && SMMA_TMEM_16X128B == SMMA_TC05_LD_16X128B
               && SMMA_TMEM_16X256B == SMMA_TC05_LD_16X256B
               && SMMA_TMEM_16X32BX2 == SMMA_TC05_LD_16X32BX2, "tcgen05.ld shape numbers");

#define WARP 32u
#define LANES SMMA_TMEM_LANES
#define COLS SMMA_TMEM_COLS
#define UNITS (SMMA_TMEM_COLS / SMMA_TMEM_ALLOC_UNIT)
#define PARTITION 32u /* lanes per warp partition */

/* ---- the memory ------------------------------------------------------------ */

void
smma_tmem_init(smma_tmem *t)
{
    if (t != NULL)
        memset(t, 0, sizeof(*t));
}

uint32_t
smma_tmem_addr(unsigned lane, unsigned col)
{
    return smma_tc05_taddr(lane, col);
}

unsigned
smma_tmem_addr_lane(uint32_t addr)
{
    return addr >> 16;
}

unsigned
smma_tmem_addr_col(uint32_t addr)
{
    return addr & 0xFFFFu;
}

int
smma_tmem_addr_check(uint32_t addr, smma_error *err)
{
    if (smma_tmem_addr_lane(addr) >= LANES)
        return smma_error_set(err, SMMA_EINVAL,
                              "TMEM address 0x%08lx: lane %u is not below 128",
                              (unsigned long) addr, smma_tmem_addr_lane(addr));
    if (smma_tmem_addr_col(addr) >= COLS)
        return smma_error_set(err, SMMA_EINVAL,
                              "TMEM address 0x%08lx: column %u is not below 512",
                              (unsigned long) addr, smma_tmem_addr_col(addr));
    return SMMA_OK;
}

unsigned
smma_tmem_warp_first_lane(unsigned warp)
{
    return PARTITION * (warp % 4);
}

static bool
ncols_legal(unsigned n)
{
    return n >= 32 && n <= COLS && (n & (n - 1)) == 0;
}

int
smma_tmem_alloc(smma_tmem *t, unsigned ncols, uint32_t *addr, smma_error *err)
{
    bool used[UNITS];
    unsigned u, v, len;

    if (t == NULL || addr == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.alloc: no TMEM or output given");
    if (!ncols_legal(ncols))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.alloc: nCols %u is not a power of two in [32, 512]",
                              ncols);
    memset(used, 0, sizeof(used));
    for (u = 0; u < UNITS; u++)
        for (v = 0; v < t->alloc_len[u] && u + v < UNITS; v++)
            used[u + v] = true;
    len = ncols / SMMA_TMEM_ALLOC_UNIT;
    for (u = 0; u + len <= UNITS; u += len) {
        for (v = 0; v < len && !used[u + v]; v++)
            ;
        if (v == len) {
            t->alloc_len[u] = (unsigned char) len;
            *addr = smma_tmem_addr(0, u * SMMA_TMEM_ALLOC_UNIT);
            return SMMA_OK;
        }
    }
    return smma_error_set(err, SMMA_ENOMEM,
                          "tcgen05.alloc: no free run of %u columns (the instruction would "
                          "block)", ncols);
}

int
smma_tmem_dealloc(smma_tmem *t, uint32_t addr, unsigned ncols, smma_error *err)
{
    unsigned col = smma_tmem_addr_col(addr);

    if (t == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.dealloc: no TMEM given");
    if (!ncols_legal(ncols))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.dealloc: nCols %u is not a power of two in [32, 512]",
                              ncols);
    if (smma_tmem_addr_lane(addr) != 0 || col % SMMA_TMEM_ALLOC_UNIT != 0 || col >= COLS
        || t->alloc_len[col / SMMA_TMEM_ALLOC_UNIT] != ncols / SMMA_TMEM_ALLOC_UNIT)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.dealloc: 0x%08lx with %u columns is not an allocation",
                              (unsigned long) addr, ncols);
    t->alloc_len[col / SMMA_TMEM_ALLOC_UNIT] = 0;
    return SMMA_OK;
}

/* ---- tcgen05.ld / tcgen05.st ---------------------------------------------- */

static const char *const shape_names[SMMA_TMEM_SHAPE_COUNT] = {
    "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2",
};
/* Per shape: the largest .num, registers and columns per unit of .num. */
static const unsigned shape_max_num[SMMA_TMEM_SHAPE_COUNT] = { 128, 128, 64, 32, 128 };
static const unsigned shape_regs[SMMA_TMEM_SHAPE_COUNT] = { 1, 1, 2, 4, 1 };
static const unsigned shape_cols[SMMA_TMEM_SHAPE_COUNT] = { 1, 2, 4, 8, 1 };

const char *
smma_tmem_shape_name(smma_tmem_shape s)
{
    return (unsigned) s < SMMA_TMEM_SHAPE_COUNT ? shape_names[s] : "?";
}

static bool
pow2_upto(unsigned x, unsigned max)
{
    return x >= 1 && x <= max && (x & (x - 1)) == 0;
}

/* Columns of one half of .16x32bx2, or of the whole access otherwise. */
static unsigned
half_width(const smma_tmem_ldst *op)
{
    return shape_cols[op->shape] * op->num * (op->pack ? 2 : 1);
}

int
smma_tmem_ldst_check(const smma_tmem_ldst *op, smma_error *err)
{
    unsigned w;

    if (op == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no tcgen05.ld/st variant given");
    if ((unsigned) op->shape >= SMMA_TMEM_SHAPE_COUNT)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.ld/st shape %d is not a shape (32x32b, 16x64b, 16x128b, "
                              "16x256b, 16x32bx2)", (int) op->shape);
    if (!pow2_upto(op->num, shape_max_num[op->shape]))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.ld/st .%s: .x%u is not a valid .num (valid: .x1, .x2, "
                              ".x4, ... .x%u)", shape_names[op->shape], op->num,
                              shape_max_num[op->shape]);
    w = half_width(op);
    if (op->shape == SMMA_TMEM_16X32BX2) {
        if (op->half_off < w || op->half_off + w > COLS)
            return smma_error_set(err, SMMA_EINVAL,
                                  "tcgen05.ld/st .16x32bx2.x%u%s: immHalfSplitoff %u must be "
                                  "at least %u (the halves must not overlap) and leave both "
                                  "halves inside the 512 columns", op->num,
                                  op->pack ? " with pack" : "", op->half_off, w);
    } else if (op->half_off != 0) {
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.ld/st .%s takes no immHalfSplitoff (half_off %u, "
                              "must be 0)", shape_names[op->shape], op->half_off);
    }
    return SMMA_OK;
}

unsigned
smma_tmem_ldst_regs(const smma_tmem_ldst *op)
{
    if (smma_tmem_ldst_check(op, NULL) != SMMA_OK)
        return 0;
    return shape_regs[op->shape] * op->num;
}

unsigned
smma_tmem_ldst_elems(const smma_tmem_ldst *op)
{
    return op != NULL && op->pack ? 2 : 1;
}

unsigned
smma_tmem_ldst_lanes(const smma_tmem_ldst *op)
{
    return op != NULL && op->shape == SMMA_TMEM_32X32B ? 32 : 16;
}

unsigned
smma_tmem_ldst_cols(const smma_tmem_ldst *op)
{
    if (smma_tmem_ldst_check(op, NULL) != SMMA_OK)
        return 0;
    return op->shape == SMMA_TMEM_16X32BX2 ? op->half_off + half_width(op) : half_width(op);
}

int
smma_tmem_ldst_coord(const smma_tmem_ldst *op, unsigned lane, unsigned reg, unsigned elem,
                     unsigned *dlane, unsigned *dcol)
{
    unsigned t = lane, r = reg;

    if (smma_tmem_ldst_check(op, NULL) != SMMA_OK || lane >= WARP
        || reg >= smma_tmem_ldst_regs(op) || elem >= smma_tmem_ldst_elems(op))
        return SMMA_EINVAL;
    smma_tc05_ldst_cell((unsigned) op->shape, op->pack, op->half_off, t, r, elem, dlane, dcol);
    return SMMA_OK;
}

int
smma_tmem_ldst_slot(const smma_tmem_ldst *op, unsigned dlane, unsigned dcol, unsigned *lane,
                    unsigned *reg, unsigned *elem)
{
    unsigned w, half = 0, c, vc, e, t, r;

    if (smma_tmem_ldst_check(op, NULL) != SMMA_OK || dlane >= smma_tmem_ldst_lanes(op))
        return SMMA_EINVAL;
    w = half_width(op);
    c = dcol;
    if (op->shape == SMMA_TMEM_16X32BX2 && dcol >= op->half_off) {
        half = 1;
        c = dcol - op->half_off;
    }
    if (c >= w)
        return SMMA_EINVAL;
    vc = op->pack ? c / 2 : c;
    e = op->pack ? c % 2 : 0;
    switch (op->shape) {
    case SMMA_TMEM_32X32B:
        t = dlane;
        r = vc;
        break;
    case SMMA_TMEM_16X64B:
        t = 4 * (dlane % 8) + 2 * (vc % 2) + dlane / 8;
        r = vc / 2;
        break;
    case SMMA_TMEM_16X128B:
        t = 4 * (dlane % 8) + vc % 4;
        r = dlane / 8 + 2 * (vc / 4);
        break;
    case SMMA_TMEM_16X256B:
        t = 4 * (dlane % 8) + (vc % 8) / 2;
        r = vc % 2 + 2 * (dlane / 8) + 4 * (vc / 8);
        break;
    case SMMA_TMEM_16X32BX2:
    default:
        t = dlane + 16 * half;
        r = vc;
        break;
    }
    *lane = t;
    *reg = r;
    *elem = e;
    return SMMA_OK;
}

/* The access rules of tcgen05.ld/st for warp `warp` at taddr. */
static int
ldst_access(const smma_tmem_ldst *op, unsigned warp, uint32_t taddr, const char *what,
            smma_error *err)
{
    unsigned lane0 = smma_tmem_addr_lane(taddr), col0 = smma_tmem_addr_col(taddr);
    unsigned first = smma_tmem_warp_first_lane(warp), lanes;
    int rc = smma_tmem_ldst_check(op, err);

    if (rc != SMMA_OK)
        return rc;
    lanes = smma_tmem_ldst_lanes(op);
    if ((rc = smma_tmem_addr_check(taddr, err)) != SMMA_OK)
        return rc;
    if (lane0 < first || lane0 + lanes > first + PARTITION)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: warp %u may access lanes %u..%u only; this access covers "
                              "lanes %u..%u", what, warp, first, first + PARTITION - 1, lane0,
                              lane0 + lanes - 1);
    if (col0 + smma_tmem_ldst_cols(op) > COLS)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: columns %u..%u pass the last column 511", what, col0,
                              col0 + smma_tmem_ldst_cols(op) - 1);
    return SMMA_OK;
}

/* tcgen05.ld (to == NULL: from `from` into out) or tcgen05.st (from in into
 * `to`), through the one layout. */
static int
ldst_move(const char *what, const smma_tmem_ldst *op, const smma_tmem *from, smma_tmem *to,
          unsigned warp, uint32_t taddr, const uint32_t *in, uint32_t *out, smma_error *err)
{
    unsigned lane0 = smma_tmem_addr_lane(taddr), col0 = smma_tmem_addr_col(taddr);
    unsigned nregs, nel, th, r, e, dl, dc;
    int rc = ldst_access(op, warp, taddr, what, err);

    if (rc != SMMA_OK)
        return rc;
    if ((to == NULL && (from == NULL || out == NULL)) || (to != NULL && in == NULL))
        return smma_error_set(err, SMMA_EINVAL, "%s: no TMEM or registers given", what);
    nregs = smma_tmem_ldst_regs(op);
    nel = smma_tmem_ldst_elems(op);
    for (th = 0; th < WARP; th++)
        for (r = 0; r < nregs; r++) {
            uint32_t w = to != NULL ? in[th * nregs + r] : 0;

            for (e = 0; e < nel; e++) {
                smma_tmem_ldst_coord(op, th, r, e, &dl, &dc);
                if (to != NULL)
                    to->cell[lane0 + dl][col0 + dc] = op->pack ? (w >> (16 * e)) & 0xFFFFu : w;
                else if (op->pack)
                    w |= (from->cell[lane0 + dl][col0 + dc] & 0xFFFFu) << (16 * e);
                else
                    w = from->cell[lane0 + dl][col0 + dc];
            }
            if (to == NULL)
                out[th * nregs + r] = w;
        }
    return SMMA_OK;
}

int
smma_tmem_ld(const smma_tmem_ldst *op, const smma_tmem *t, unsigned warp, uint32_t taddr,
             uint32_t *regs, smma_error *err)
{
    return ldst_move("tcgen05.ld", op, t, NULL, warp, taddr, NULL, regs, err);
}

int
smma_tmem_st(const smma_tmem_ldst *op, smma_tmem *t, unsigned warp, uint32_t taddr,
             const uint32_t *regs, smma_error *err)
{
    if (t == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.st: no TMEM or registers given");
    return ldst_move("tcgen05.st", op, NULL, t, warp, taddr, regs, NULL, err);
}

/* ---- D and A in TMEM ---------------------------------------------------------- */

/* Whether (M, cta_group) has a modelled non-.ws data-path layout. */
static bool
m_legal(unsigned m, unsigned cg)
{
    return (cg == 1 && (m == 64 || m == 128)) || (cg == 2 && (m == 128 || m == 256));
}

/* The layouts whose rows map to lanes alone (F, D, A): row m -> (cta, lane). */
static void
row_to_lane(unsigned m_total, unsigned cg, unsigned lane0, unsigned m, unsigned *cta,
            unsigned *lane)
{
    if (m_total == 64) {                    /* Layout F */
        *cta = 0;
        *lane = lane0 + PARTITION * (m / 16) + m % 16;
    } else if (cg == 1) {                   /* Layout D */
        *cta = 0;
        *lane = m;
    } else {                                /* Layout A, M = 256 */
        *cta = m / 128;
        *lane = m % 128;
    }
}

/* The inverse of row_to_lane; false for a lane that holds no row. */
static bool
lane_to_row(unsigned m_total, unsigned cg, unsigned lane0, unsigned cta, unsigned lane,
            unsigned *m)
{
    unsigned rel;

    if (cta >= cg || lane >= LANES)
        return false;
    if (m_total == 64) {
        if (lane < lane0)
            return false;
        rel = lane - lane0;
        if (rel % PARTITION >= 16)
            return false;
        *m = 16 * (rel / PARTITION) + rel % PARTITION;
        return true;
    }
    *m = cg == 1 ? lane : 128 * cta + lane;
    return true;
}

/* Checks the lane field of an A or D address for its layout. */
static int
lane0_check(const char *what, unsigned m, unsigned cg, uint32_t addr, smma_error *err)
{
    unsigned lane0 = smma_tmem_addr_lane(addr);

    if (m == 64 && cg == 1) {
        if (lane0 != 0 && lane0 != 16)
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s address lane %u: M = 64 (Layout F) needs lane 0 or 16",
                                  what, lane0);
    } else if (lane0 != 0) {
        return smma_error_set(err, SMMA_EINVAL,
                              "%s address lane %u: M = %u with cta_group::%u needs lane 0",
                              what, lane0, m, cg);
    }
    return SMMA_OK;
}

static int
mcg_check(const char *what, unsigned m, unsigned cg, smma_error *err)
{
    if (cg != 1 && cg != 2)
        return smma_error_set(err, SMMA_EINVAL, "%s: cta_group %u is not 1 or 2", what, cg);
    if (!m_legal(m, cg))
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: M %u with cta_group::%u has no modelled data-path layout "
                              "(cta_group::1: 64, 128; cta_group::2: 128, 256)", what, m, cg);
    return SMMA_OK;
}

/* Columns D occupies: N, or N/2 in the 2x2 Layout B. */
static unsigned
d_cols(const smma_tmem_dlayout *l)
{
    return l->m == 128 && l->cta_group == 2 ? l->n / 2 : l->n;
}

int
smma_tmem_d_check(const smma_tmem_dlayout *l, smma_error *err)
{
    int rc;

    if (l == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no D layout given");
    if ((rc = mcg_check("D", l->m, l->cta_group, err)) != SMMA_OK)
        return rc;
    if (l->n < 8 || l->n > 256 || l->n % (l->cta_group == 2 ? 16 : 8) != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "D: N %u is not a multiple of %u in [%u, 256] (cta_group::%u)",
                              l->n, l->cta_group == 2 ? 16 : 8, l->cta_group == 2 ? 16 : 8,
                              l->cta_group);
    if ((rc = lane0_check("D", l->m, l->cta_group, l->addr, err)) != SMMA_OK)
        return rc;
    if (smma_tmem_addr_col(l->addr) + d_cols(l) > COLS)
        return smma_error_set(err, SMMA_EINVAL,
                              "D: columns %u..%u pass the last column 511",
                              smma_tmem_addr_col(l->addr),
                              smma_tmem_addr_col(l->addr) + d_cols(l) - 1);
    return SMMA_OK;
}

int
smma_tmem_d_coord(const smma_tmem_dlayout *l, unsigned m, unsigned n, unsigned *cta,
                  unsigned *lane, unsigned *col)
{
    if (smma_tmem_d_check(l, NULL) != SMMA_OK || m >= l->m || n >= l->n)
        return SMMA_EINVAL;
    smma_tc05_d_cell(l->m, l->n, l->cta_group, smma_tmem_addr_lane(l->addr),
                     smma_tmem_addr_col(l->addr), m, n, cta, lane, col);
    return SMMA_OK;
}

int
smma_tmem_d_elem(const smma_tmem_dlayout *l, unsigned cta, unsigned lane, unsigned col,
                 unsigned *m, unsigned *n)
{
    unsigned col0;

    if (smma_tmem_d_check(l, NULL) != SMMA_OK)
        return SMMA_EINVAL;
    col0 = smma_tmem_addr_col(l->addr);
    if (col < col0 || col >= col0 + d_cols(l) || cta >= l->cta_group || lane >= LANES)
        return SMMA_EINVAL;
    if (l->m == 128 && l->cta_group == 2) {
        *m = 64 * cta + lane % 64;
        *n = (lane / 64) * (l->n / 2) + (col - col0);
        return SMMA_OK;
    }
    if (!lane_to_row(l->m, l->cta_group, smma_tmem_addr_lane(l->addr), cta, lane, m))
        return SMMA_EINVAL;
    *n = col - col0;
    return SMMA_OK;
}

int
smma_tmem_a_check(const smma_tmem_alayout *l, smma_error *err)
{
    int rc;

    if (l == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no A layout given");
    if ((rc = mcg_check("A in TMEM", l->m, l->cta_group, err)) != SMMA_OK)
        return rc;
    if (l->m == 128 && l->cta_group == 2)
        return smma_error_set(err, SMMA_EINVAL,
                              "A in TMEM with M = 128 and cta_group::2 (A duplicated across "
                              "lane halves) is not modelled");
    if (l->elem_bits != 16 && l->elem_bits != 8 && l->elem_bits != 4)
        return smma_error_set(err, SMMA_EINVAL,
                              "A in TMEM: elem_bits %u is not 16, 8 or 4", l->elem_bits);
    if (l->k == 0 || l->k * l->elem_bits % 32 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "A in TMEM: K %u does not fill whole 32-bit cells", l->k);
    if ((rc = lane0_check("A", l->m, l->cta_group, l->addr, err)) != SMMA_OK)
        return rc;
    if (smma_tmem_addr_col(l->addr) + l->k * l->elem_bits / 32 > COLS)
        return smma_error_set(err, SMMA_EINVAL, "A in TMEM: columns pass the last column 511");
    return SMMA_OK;
}

int
smma_tmem_a_coord(const smma_tmem_alayout *l, unsigned m, unsigned k, unsigned *cta,
                  unsigned *lane, unsigned *col, unsigned *bit)
{
    unsigned per;

    if (smma_tmem_a_check(l, NULL) != SMMA_OK || m >= l->m || k >= l->k)
        return SMMA_EINVAL;
    per = 32 / l->elem_bits;
    row_to_lane(l->m, l->cta_group, smma_tmem_addr_lane(l->addr), m, cta, lane);
    *col = smma_tmem_addr_col(l->addr) + k / per;
    *bit = (k % per) * l->elem_bits;
    return SMMA_OK;
}

int
smma_tmem_a_elem(const smma_tmem_alayout *l, unsigned cta, unsigned lane, unsigned col,
                 unsigned bit, unsigned *m, unsigned *k)
{
    unsigned col0;

    if (smma_tmem_a_check(l, NULL) != SMMA_OK)
        return SMMA_EINVAL;
    col0 = smma_tmem_addr_col(l->addr);
    if (col < col0 || col >= col0 + l->k * l->elem_bits / 32 || bit >= 32
        || bit % l->elem_bits != 0)
        return SMMA_EINVAL;
    if (!lane_to_row(l->m, l->cta_group, smma_tmem_addr_lane(l->addr), cta, lane, m))
        return SMMA_EINVAL;
    *k = (col - col0) * (32 / l->elem_bits) + bit / l->elem_bits;
    return SMMA_OK;
}

/* ---- scale factors ------------------------------------------------------------- */

/* The scale address operand: lane field 0 below bits 31-30, and bits 31-30
 * either 0 (the SF_ID in the descriptor alone) or the descriptor's SF_ID.
 * Bits that disagree are refused: the hardware reads one of the two fields
 * and softmma cannot tell which (doc/tcgen05.md, "Two readings"). */
static int
sf_addr_check(const smma_tmem_sflayout *l, smma_error *err)
{
    unsigned lane = smma_tmem_addr_lane(smma_tc05_sf_taddr_base(l->addr));
    unsigned id = smma_tc05_sf_taddr_id(l->addr);

    if (lane != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: address lane %u is not 0 (the four copies fill "
                              "all 128 lanes)", lane);
    if (id != 0 && id != l->sf_id)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: address 0x%08lx carries SF_ID %u in bits 31-30 "
                              "but the instruction descriptor's SF_ID is %u (either field may "
                              "be the one the hardware reads, so they must agree)",
                              (unsigned long) l->addr, id, l->sf_id);
    return SMMA_OK;
}

int
smma_tmem_sf_check(const smma_tmem_sflayout *l, smma_error *err)
{
    int rc;

    if (l == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no scale-factor layout given");
    if (l->vec != 1 && l->vec != 2 && l->vec != 4)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: vec %u is not 1, 2 or 4 (.scale_vec::1X/2X/4X)",
                              l->vec);
    if ((l->vec == 1 && l->sf_id > 3) || (l->vec == 2 && l->sf_id != 0 && l->sf_id != 2)
        || (l->vec == 4 && l->sf_id != 0))
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: SF_ID %u is not legal with .scale_vec::%uX "
                              "(legal: %s)", l->sf_id, l->vec,
                              l->vec == 1 ? "0..3" : l->vec == 2 ? "0 or 2" : "0");
    if (l->rows == 0 || l->rows > 256)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: %u rows is not in [1, 256]", l->rows);
    if ((rc = sf_addr_check(l, err)) != SMMA_OK)
        return rc;
    if (smma_tmem_addr_col(l->addr) + smma_tmem_sf_cols(l) > COLS)
        return smma_error_set(err, SMMA_EINVAL,
                              "scale factors: columns pass the last column 511");
    return SMMA_OK;
}

unsigned
smma_tmem_sf_cols(const smma_tmem_sflayout *l)
{
    return l == NULL ? 0 : (l->rows + PARTITION - 1) / PARTITION;
}

int
smma_tmem_sf_coord(const smma_tmem_sflayout *l, unsigned row, unsigned kb, unsigned copy,
                   unsigned *lane, unsigned *col, unsigned *byte)
{
    if (smma_tmem_sf_check(l, NULL) != SMMA_OK || row >= l->rows || kb >= l->vec || copy >= 4)
        return SMMA_EINVAL;
    smma_tc05_sf_cell(smma_tmem_addr_col(l->addr), l->sf_id, row, kb, copy, lane, col, byte);
    return SMMA_OK;
}

int
smma_tmem_sf_elem(const smma_tmem_sflayout *l, unsigned lane, unsigned col, unsigned byte,
                  unsigned *row, unsigned *kb, unsigned *copy)
{
    unsigned col0, r;

    if (smma_tmem_sf_check(l, NULL) != SMMA_OK || lane >= LANES)
        return SMMA_EINVAL;
    col0 = smma_tmem_addr_col(l->addr);
    if (col < col0 || byte < l->sf_id || byte >= l->sf_id + l->vec)
        return SMMA_EINVAL;
    r = PARTITION * (col - col0) + lane % PARTITION;
    if (r >= l->rows)
        return SMMA_EINVAL;
    *row = r;
    *kb = byte - l->sf_id;
    *copy = lane / PARTITION;
    return SMMA_OK;
}

/* ---- tcgen05.cp ------------------------------------------------------------------ */

static const char *const cp_names[SMMA_TMEM_CP_SHAPE_COUNT] = {
    "128x256b", "4x256b", "128x128b", "64x128b.warpx2::02_13", "64x128b.warpx2::01_23",
    "32x128b.warpx4",
};
static const unsigned cp_rows[SMMA_TMEM_CP_SHAPE_COUNT] = { 128, 4, 128, 64, 64, 32 };
static const unsigned cp_bytes[SMMA_TMEM_CP_SHAPE_COUNT] = { 32, 32, 16, 16, 16, 16 };
static const unsigned cp_copies[SMMA_TMEM_CP_SHAPE_COUNT] = { 1, 1, 1, 2, 2, 4 };
static const char *const cp_fmt_names[SMMA_TMEM_CP_FMT_COUNT] = {
    "", ".b8x16.b6x16_p32", ".b8x16.b4x16_p64",
};

const char *
smma_tmem_cp_shape_name(smma_tmem_cp_shape s)
{
    return (unsigned) s < SMMA_TMEM_CP_SHAPE_COUNT ? cp_names[s] : "?";
}

int
smma_tmem_cp_check(const smma_tmem_cp *op, smma_error *err)
{
    if (op == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no tcgen05.cp variant given");
    if ((unsigned) op->shape >= SMMA_TMEM_CP_SHAPE_COUNT)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp shape %d is not a shape (128x256b, 4x256b, 128x128b, "
                              "64x128b.warpx2::02_13, 64x128b.warpx2::01_23, 32x128b.warpx4)",
                              (int) op->shape);
    if (op->cta_group != 1 && op->cta_group != 2)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.cp: cta_group %u is not 1 or 2",
                              op->cta_group);
    if ((unsigned) op->fmt >= SMMA_TMEM_CP_FMT_COUNT)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp: format %d is not plain, b6x16_p32 or b4x16_p64",
                              (int) op->fmt);
    return SMMA_OK;
}

unsigned
smma_tmem_cp_rows(smma_tmem_cp_shape s)
{
    return (unsigned) s < SMMA_TMEM_CP_SHAPE_COUNT ? cp_rows[s] : 0;
}

unsigned
smma_tmem_cp_row_bytes(smma_tmem_cp_shape s)
{
    return (unsigned) s < SMMA_TMEM_CP_SHAPE_COUNT ? cp_bytes[s] : 0;
}

unsigned
smma_tmem_cp_copies(smma_tmem_cp_shape s)
{
    return (unsigned) s < SMMA_TMEM_CP_SHAPE_COUNT ? cp_copies[s] : 0;
}

int
smma_tmem_cp_coord(smma_tmem_cp_shape s, unsigned row, unsigned byte, unsigned copy,
                   unsigned *dlane, unsigned *dcol, unsigned *dbyte)
{
    if ((unsigned) s >= SMMA_TMEM_CP_SHAPE_COUNT || row >= cp_rows[s] || byte >= cp_bytes[s]
        || copy >= cp_copies[s])
        return SMMA_EINVAL;
    smma_tc05_cp_cell((unsigned) s, row, byte, copy, dlane, dcol, dbyte);
    return SMMA_OK;
}

int
smma_tmem_cp_src(smma_tmem_cp_shape s, unsigned dlane, unsigned dcol, unsigned dbyte,
                 unsigned *row, unsigned *byte, unsigned *copy)
{
    if ((unsigned) s >= SMMA_TMEM_CP_SHAPE_COUNT || dlane >= LANES || dbyte >= 4
        || dcol >= cp_bytes[s] / 4)
        return SMMA_EINVAL;
    switch (s) {
    case SMMA_TMEM_CP_4X256B:
        if (dlane % PARTITION != 0)
            return SMMA_EINVAL;
        *row = dlane / PARTITION;
        *copy = 0;
        break;
    case SMMA_TMEM_CP_64X128B_02_13:
        *row = dlane % 64;
        *copy = dlane / 64;
        break;
    case SMMA_TMEM_CP_64X128B_01_23:
        *row = PARTITION * (dlane / 64) + dlane % PARTITION;
        *copy = (dlane / PARTITION) % 2;
        break;
    case SMMA_TMEM_CP_32X128B_WARPX4:
        *row = dlane % PARTITION;
        *copy = dlane / PARTITION;
        break;
    default:
        *row = dlane;
        *copy = 0;
        break;
    }
    *byte = 4 * dcol + dbyte;
    return SMMA_OK;
}

/* Decodes a matrix descriptor and refuses the fields softmma does not
 * model. */
static int
sdesc_read(const char *what, uint64_t v, smma_tc05_sdesc *d, smma_error *err)
{
    int rc = smma_tc05_sdesc_decode(v, d, err);

    if (rc != SMMA_OK)
        return rc;
    if (d->base_offset != 0 || d->lbo_absolute)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: descriptor base offset %u / absolute LBO %d are not "
                              "modelled (must be 0)", what, d->base_offset,
                              (int) d->lbo_absolute);
    return SMMA_OK;
}

/* The byte address of element (row, k) of a descriptor's operand, checked
 * against the size of the simulated shared memory (nbytes of the element
 * must be inside). */
static int
smem_elem(const smma_tc05_sdesc *d, bool mn_major, unsigned elem_bits, unsigned row,
          unsigned k, size_t smem_size, const char *what, uint32_t *byte, unsigned *bit,
          smma_error *err)
{
    smma_tc05_layout l;
    unsigned nbytes = elem_bits >= 8 ? elem_bits / 8 : 1;
    int rc;

    l.mn_major = mn_major;
    l.swizzle = d->swizzle;
    l.elem_bits = elem_bits;
    l.lbo = d->lbo;
    l.sbo = d->sbo;
    rc = smma_tc05_smem_addr(&l, d->start, row, k, byte, bit, err);
    if (rc != SMMA_OK)
        return rc;
    if ((size_t) *byte + nbytes > smem_size)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: element (%u, %u) at shared byte 0x%lx is outside the %zu "
                              "bytes of shared memory", what, row, k, (unsigned long) *byte,
                              smem_size);
    return SMMA_OK;
}

int
smma_tc05_cp_exec(const smma_tmem_cp *op, const smma_tc05_cta *ctas, uint64_t sdesc,
                  uint32_t taddr, smma_error *err)
{
    uint8_t data[2][128 * 32];
    smma_tc05_sdesc d;
    unsigned rows, nb, r, b, c, q, dl, dc, db, bit, col0 = smma_tmem_addr_col(taddr);
    uint32_t addr;
    int rc = smma_tmem_cp_check(op, err);

    if (rc != SMMA_OK)
        return rc;
    if (op->fmt != SMMA_TMEM_CP_PLAIN)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp%s: decompression is not modelled (the packed bit "
                              "order is only in the ISA's figures)", cp_fmt_names[op->fmt]);
    if (ctas == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.cp: no CTAs given");
    for (q = 0; q < op->cta_group; q++)
        if (ctas[q].smem == NULL || ctas[q].tmem == NULL)
            return smma_error_set(err, SMMA_EINVAL,
                                  "tcgen05.cp.cta_group::%u: CTA %u of the pair has no shared "
                                  "memory or TMEM", op->cta_group, q);
    if ((rc = smma_tmem_addr_check(taddr, err)) != SMMA_OK)
        return rc;
    rows = cp_rows[op->shape];
    nb = cp_bytes[op->shape];
    if (smma_tmem_addr_lane(taddr) != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp.%s: taddr lane %u is not 0", cp_names[op->shape],
                              smma_tmem_addr_lane(taddr));
    if (col0 + nb / 4 > COLS)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp.%s: columns %u..%u pass the last column 511",
                              cp_names[op->shape], col0, col0 + nb / 4 - 1);
    if ((rc = sdesc_read("tcgen05.cp", sdesc, &d, err)) != SMMA_OK)
        return rc;
    /* Every CTA's source first, so that a refusal writes no cell. */
    for (q = 0; q < op->cta_group; q++)
        for (r = 0; r < rows; r++)
            for (b = 0; b < nb; b++) {
                rc = smem_elem(&d, false, 8, r, b, ctas[q].smem_size,
                               q == 0 ? "tcgen05.cp source" : "tcgen05.cp source (CTA 1)",
                               &addr, &bit, err);
                if (rc != SMMA_OK)
                    return rc;
                data[q][r * nb + b] = ctas[q].smem[addr];
            }
    for (q = 0; q < op->cta_group; q++)
        for (r = 0; r < rows; r++)
            for (b = 0; b < nb; b++)
                for (c = 0; c < cp_copies[op->shape]; c++) {
                    uint32_t *cell;

                    smma_tmem_cp_coord(op->shape, r, b, c, &dl, &dc, &db);
                    cell = &ctas[q].tmem->cell[dl][col0 + dc];
                    *cell = (*cell & ~((uint32_t) 0xFF << (8 * db)))
                            | (uint32_t) data[q][r * nb + b] << (8 * db);
                }
    return SMMA_OK;
}

int
smma_tmem_cp_exec(const smma_tmem_cp *op, const uint8_t *smem, size_t smem_size,
                  uint64_t sdesc, smma_tmem *t, uint32_t taddr, smma_error *err)
{
    smma_tc05_cta cta;
    int rc = smma_tmem_cp_check(op, err);

    if (rc != SMMA_OK)
        return rc;
    if (op->cta_group != 1)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.cp.cta_group::2 copies into both CTAs of a pair: "
                              "smma_tc05_cp_exec takes the pair");
    cta.smem = smem;
    cta.smem_size = smem_size;
    cta.tmem = t;
    return smma_tc05_cp_exec(op, &cta, sdesc, taddr, err);
}

/* ---- tcgen05.mma ------------------------------------------------------------------ */

unsigned
smma_tc05_mma_k(smma_tc05_kind kind, bool k96)
{
    switch (kind) {
    case SMMA_TC05_KIND_TF32:
        return 8;
    case SMMA_TC05_KIND_F16:
        return 16;
    case SMMA_TC05_KIND_F8F6F4:
    case SMMA_TC05_KIND_I8:
    case SMMA_TC05_KIND_MXF8F6F4:
        return 32;
    case SMMA_TC05_KIND_MXF4:
    case SMMA_TC05_KIND_MXF4NVF4:
        return k96 ? 96 : 64;
    default:
        return 0;
    }
}

/* The .scale_vec::NX a block-scaled kind allows, as a mask of 1 << N (ISA
 * "Valid combinations of scale_vectorsize with types and MMA-Kind"). */
static unsigned
scale_vec_mask(smma_tc05_kind kind)
{
    switch (kind) {
    case SMMA_TC05_KIND_MXF8F6F4:
        return 1u << 1;
    case SMMA_TC05_KIND_MXF4:
        return 1u << 2;
    case SMMA_TC05_KIND_MXF4NVF4:
        return 1u << 2 | 1u << 4;
    default:
        return 0;
    }
}

int
smma_tc05_mma_check(const smma_tc05_mma *op, smma_error *err)
{
    const char *kn;
    unsigned mask;

    if (op == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no tcgen05.mma given");
    if ((unsigned) op->kind >= SMMA_TC05_KIND_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.mma: kind %d is not a kind",
                              (int) op->kind);
    kn = smma_tc05_kind_name(op->kind);
    if (op->cta_group != 1 && op->cta_group != 2)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.mma: cta_group %u is not 1 or 2",
                              op->cta_group);
    if (op->ws && op->cta_group != 1)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.ws: .cta_group::%u is not legal (.ws takes "
                              ".cta_group::1 only)", op->cta_group);
    mask = scale_vec_mask(op->kind);
    if (op->ws && mask != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.ws: .kind::%s is not legal with .ws (tf32, f16, "
                              "f8f6f4, i8 only)", kn);
    if (mask != 0 && (op->scale_vec > 4 || !(mask >> op->scale_vec & 1)))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.kind::%s: .scale_vec::%uX is not legal (legal: %s)",
                              kn, op->scale_vec,
                              op->kind == SMMA_TC05_KIND_MXF8F6F4 ? ".scale_vec::1X"
                              : op->kind == SMMA_TC05_KIND_MXF4 ? ".scale_vec::2X"
                              : ".scale_vec::2X, .scale_vec::4X");
    if (mask == 0 && op->scale_vec != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.kind::%s has no .block_scale (scale_vec %u must be "
                              "0)", kn, op->scale_vec);
    return SMMA_OK;
}

/* How an A or B element of a kind is stored: its format, the storage bits,
 * and where the code sits in them. */
struct elem_store {
    smma_format fmt;
    unsigned bits;      /* storage per element: 16, 8 or 4 */
    unsigned shift;     /* the code's lowest bit in the storage */
    unsigned width;     /* the code's bits */
};

static bool
elem_store_of(smma_tc05_kind kind, unsigned code, struct elem_store *e)
{
    e->shift = 0;
    e->bits = 8;
    e->width = 8;
    switch (kind) {
    case SMMA_TC05_KIND_F16:
        e->bits = e->width = 16;
        e->fmt = code == SMMA_TC05_BF16 ? SMMA_BF16 : SMMA_FP16;
        return code == SMMA_TC05_F16 || code == SMMA_TC05_BF16;
    case SMMA_TC05_KIND_F8F6F4:
    case SMMA_TC05_KIND_MXF8F6F4:
        switch (code) {
        case SMMA_TC05_E4M3:
            e->fmt = SMMA_E4M3;
            return true;
        case SMMA_TC05_E5M2:
            e->fmt = SMMA_E5M2;
            return true;
        case SMMA_TC05_E2M3:
            e->fmt = SMMA_E2M3;
            e->width = 6;
            return true;
        case SMMA_TC05_E3M2:
            e->fmt = SMMA_E3M2;
            e->width = 6;
            return true;
        case SMMA_TC05_E2M1:            /* 0b00ABCD00: bits 5-2 */
            e->fmt = SMMA_E2M1;
            e->width = 4;
            e->shift = 2;
            return true;
        default:
            return false;
        }
    case SMMA_TC05_KIND_MXF4:
    case SMMA_TC05_KIND_MXF4NVF4:
        e->fmt = SMMA_E2M1;
        e->bits = e->width = 4;
        return code == SMMA_TC05_MXF4_E2M1;
    default:
        return false;
    }
}

static uint32_t
smem_load(const uint8_t *smem, uint32_t byte, unsigned bit, unsigned bits)
{
    if (bits == 16)
        return smem[byte] | (uint32_t) smem[byte + 1] << 8;
    if (bits == 8)
        return smem[byte];
    return (uint32_t) (smem[byte] >> bit) & 0xFu;
}

static uint32_t
elem_code(const struct elem_store *e, uint32_t raw, bool negate)
{
    uint32_t code = (raw >> e->shift) & ((UINT32_C(1) << e->width) - 1);

    return negate ? code ^ UINT32_C(1) << (e->width - 1) : code;
}

/* The checks of the executor that the qualifiers and the descriptor alone
 * decide; fills the shape, the element storage and the D format. */
static int
mma_plan(const smma_tc05_mma *op, const smma_tc05_idesc *id, smma_gemm_shape *s,
         struct elem_store *ea, struct elem_store *eb, smma_error *err)
{
    const char *kn = smma_tc05_kind_name(op->kind);
    bool bs = smma_tc05_kind_block_scaled(op->kind);
    unsigned cg = op->cta_group;
    smma_format dfmt;

    if (id->sparse)
        return smma_error_set(err, SMMA_EINVAL, "sparse A (tcgen05.mma.sp) is not modelled");
    if (id->k96)
        return smma_error_set(err, SMMA_EINVAL, ".kind::%s with K = 96 is not modelled", kn);
    if (id->max_shift != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "instruction descriptor max_shift %u belongs to .ws, which is "
                              "not executed", id->max_shift);
    if (bs && cg == 2 && id->m == 128)
        return smma_error_set(err, SMMA_EINVAL,
                              "block-scaled tcgen05.mma with M = 128 and cta_group::2 is not "
                              "modelled (how the 2x2 data path duplicates scale_B over its "
                              "lane halves is not established)");
    if (!m_legal(id->m, cg) || (bs && id->m != 128 * cg))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.cta_group::%u.kind::%s: M %u is not executed "
                              "(cta_group::1: 64, 128; cta_group::2: 128, 256; block-scaled: "
                              "128 with cta_group::1, 256 with cta_group::2)", cg, kn, id->m);
    if (cg == 2 && id->n % 16 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "N %u is not a multiple of 16, as cta_group::2 requires", id->n);
    if (!elem_store_of(op->kind, id->a_fmt, ea) || !elem_store_of(op->kind, id->b_fmt, eb))
        return smma_error_set(err, SMMA_EINVAL, ".kind::%s: A/B format codes %u/%u", kn,
                              id->a_fmt, id->b_fmt);
    dfmt = bs || id->d_fmt == SMMA_TC05_D_F32 ? SMMA_FP32 : SMMA_FP16;
    if (dfmt == SMMA_FP16 && op->kind == SMMA_TC05_KIND_F16
        && (ea->fmt == SMMA_BF16 || eb->fmt == SMMA_BF16))
        return smma_error_set(err, SMMA_EINVAL,
                              ".kind::f16 with an f16 D takes f16 A and B only (ISA shape "
                              "table: no bf16 with .f16 D)");
    if (op->a_tmem && id->a_mn_major)
        return smma_error_set(err, SMMA_EINVAL,
                              "A from TMEM with transpose A set is not modelled (A in TMEM "
                              "is row-major)");
    if (id->b_mn_major && eb->bits == 8 && id->n % (cg == 1 ? 16 : 32) != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "8-bit N-major (transposed) B needs N a multiple of %u with "
                              "cta_group::%u (N is %u)", cg == 1 ? 16 : 32, cg, id->n);
    memset(s, 0, sizeof(*s));
    s->a_fmt = ea->fmt;
    s->b_fmt = eb->fmt;
    s->scale_fmt = SMMA_NONE;
    s->vec = 32;
    if (bs) {
        if (id->scale_fmt == SMMA_TC05_SCALE_UE4M3 && op->scale_vec != 4)
            return smma_error_set(err, SMMA_EINVAL,
                                  "UE4M3 scales need .scale_vec::4X (this is ::%uX)",
                                  op->scale_vec);
        s->scale_fmt = id->scale_fmt == SMMA_TC05_SCALE_UE8M0 ? SMMA_E8M0 : SMMA_UE4M3;
        s->vec = op->scale_vec == 4 ? 16 : 32;
    }
    s->c_fmt = op->enable_input_d ? dfmt : SMMA_NONE;
    s->d_fmt = dfmt;
    s->m = id->m;
    s->n = id->n;
    s->k = smma_tc05_mma_k(op->kind, false);
    return SMMA_OK;
}

/* Reads element (row, k) of A or B of CTA `c` from its shared memory. */
static int
read_smem_elem(const smma_tc05_cta *cta, const smma_tc05_sdesc *d, bool mn_major,
               const struct elem_store *e, unsigned row, unsigned k, bool negate,
               const char *what, uint32_t *code, smma_error *err)
{
    uint32_t byte;
    unsigned bit;
    int rc = smem_elem(d, mn_major, e->bits, row, k, cta->smem_size, what, &byte, &bit, err);

    if (rc != SMMA_OK)
        return rc;
    *code = elem_code(e, smem_load(cta->smem, byte, bit, e->bits), negate);
    return SMMA_OK;
}

/* Reads the inputs of the instruction into a (M x K), b (N x K, n-major),
 * sa (M x nkb), sb (4 copies per CTA of N x nkb) and c (M x N); part[m] is
 * 4 cta + the lane partition of D's row m: the CTA whose TMEM holds the
 * row, and the copy of the scales the row uses there. */
static int
mma_gather(const smma_tc05_mma *op, const smma_tc05_idesc *id, const smma_gemm_shape *s,
           const struct elem_store *ea, const struct elem_store *eb,
           const smma_tc05_cta *ctas, const smma_tmem_dlayout *dl, const unsigned *part,
           uint32_t *a, uint32_t *b, uint32_t *sa, uint32_t *sb, uint32_t *c,
           smma_error *err)
{
    unsigned M = id->m, N = id->n, K = (unsigned) s->k, cg = op->cta_group;
    unsigned m, n, k, kb, p, cta, lane, col, bit, byte, nkb = 0;
    smma_tc05_sdesc ad, bd;
    smma_tmem_alayout al;
    smma_tmem_sflayout sfa, sfb;
    int rc;

    if (op->a_tmem) {
        al.m = M;
        al.k = K;
        al.cta_group = cg;
        al.elem_bits = ea->bits;
        al.addr = op->a_taddr;
        if ((rc = smma_tmem_a_check(&al, err)) != SMMA_OK)
            return rc;
    } else if ((rc = sdesc_read("A descriptor", op->a_desc, &ad, err)) != SMMA_OK) {
        return rc;
    }
    if ((rc = sdesc_read("B descriptor", op->b_desc, &bd, err)) != SMMA_OK)
        return rc;
    if (s->scale_fmt != SMMA_NONE) {
        nkb = op->scale_vec;
        sfa.rows = M / cg;
        sfb.rows = N;
        sfa.vec = sfb.vec = op->scale_vec;
        sfa.sf_id = id->sfa_id;
        sfb.sf_id = id->sfb_id;
        sfa.addr = op->sfa_taddr;
        sfb.addr = op->sfb_taddr;
        if ((rc = smma_tmem_sf_check(&sfa, err)) != SMMA_OK
            || (rc = smma_tmem_sf_check(&sfb, err)) != SMMA_OK)
            return rc;
    }
    for (m = 0; m < M; m++)
        for (k = 0; k < K; k++) {
            uint32_t *dst = &a[m * K + k];

            if (op->a_tmem) {
                smma_tmem_a_coord(&al, m, k, &cta, &lane, &col, &bit);
                *dst = elem_code(ea, ctas[cta].tmem->cell[lane][col] >> bit, id->negate_a);
            } else if ((rc = read_smem_elem(&ctas[m / (M / cg)], &ad, id->a_mn_major, ea,
                                            m % (M / cg), k, id->negate_a, "A", dst, err))
                       != SMMA_OK) {
                return rc;
            }
        }
    for (n = 0; n < N; n++)
        for (k = 0; k < K; k++)
            if ((rc = read_smem_elem(&ctas[n / (N / cg)], &bd, id->b_mn_major, eb,
                                     n % (N / cg), k, id->negate_b, "B", &b[n * K + k], err))
                != SMMA_OK)
                return rc;
    for (kb = 0; kb < nkb; kb++) {
        for (m = 0; m < M; m++) {
            smma_tmem_sf_coord(&sfa, m % (M / cg), kb, part[m] % 4, &lane, &col, &byte);
            sa[m * nkb + kb] = ctas[part[m] / 4].tmem->cell[lane][col] >> (8 * byte) & 0xFFu;
        }
        for (p = 0; p < 4 * cg; p++)
            for (n = 0; n < N; n++) {
                smma_tmem_sf_coord(&sfb, n, kb, p % 4, &lane, &col, &byte);
                sb[(p * N + n) * nkb + kb] =
                    ctas[p / 4].tmem->cell[lane][col] >> (8 * byte) & 0xFFu;
            }
    }
    if (s->c_fmt != SMMA_NONE)
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++) {
                uint32_t cell;

                smma_tmem_d_coord(dl, m, n, &cta, &lane, &col);
                cell = ctas[cta].tmem->cell[lane][col];
                c[m * N + n] = s->c_fmt == SMMA_FP32 ? cell : cell & 0xFFFFu;
            }
    return SMMA_OK;
}

int
smma_tc05_mma_exec(const smma_tc05_mma *op, const smma_model *model,
                   const smma_tc05_cta *ctas, smma_error *err)
{
    smma_tc05_idesc id;
    struct elem_store ea, eb;
    smma_gemm_shape s;
    smma_tmem_dlayout dl;
    unsigned part[256], M, N, K, nkb, m, n, cta, lane, col, i;
    uint32_t *a, *b, *sa, *sb, *c, *out;
    size_t total;
    int rc = smma_tc05_mma_check(op, err);

    if (rc != SMMA_OK)
        return rc;
    if (op->ws)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.mma.ws is not executed");
    if (op->kind == SMMA_TC05_KIND_TF32 || op->kind == SMMA_TC05_KIND_I8)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.mma.kind::%s is not executed (the numerics layer has no "
                              "%s format)", smma_tc05_kind_name(op->kind),
                              op->kind == SMMA_TC05_KIND_I8 ? "integer" : "tf32");
    if (model == NULL || ctas == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.mma: no model or CTAs given");
    for (i = 0; i < op->cta_group; i++)
        if (ctas[i].smem == NULL || ctas[i].tmem == NULL)
            return smma_error_set(err, SMMA_EINVAL,
                                  "tcgen05.mma: CTA %u has no shared memory or TMEM", i);
    if ((rc = smma_tc05_idesc_decode(op->kind, op->idesc, &id, err)) != SMMA_OK)
        return rc;
    if ((rc = mma_plan(op, &id, &s, &ea, &eb, err)) != SMMA_OK)
        return rc;
    if ((rc = smma_model_check(model, &s, err)) != SMMA_OK)
        return rc;
    M = id.m;
    N = id.n;
    K = (unsigned) s.k;
    nkb = s.scale_fmt == SMMA_NONE ? 0 : op->scale_vec;
    dl.m = M;
    dl.n = N;
    dl.cta_group = op->cta_group;
    dl.addr = op->d_taddr;
    if ((rc = smma_tmem_d_check(&dl, err)) != SMMA_OK)
        return rc;
    for (m = 0; m < M; m++) {
        smma_tmem_d_coord(&dl, m, 0, &cta, &lane, &col);
        part[m] = 4 * cta + lane / PARTITION;
    }
    total = (size_t) M * K + (size_t) N * K + (size_t) M * nkb
            + 4 * (size_t) op->cta_group * N * nkb + 2 * (size_t) M * N;
    a = malloc(total * sizeof(uint32_t));
    if (a == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "tcgen05.mma: out of memory");
    b = a + (size_t) M * K;
    sa = b + (size_t) N * K;
    sb = sa + (size_t) M * nkb;
    c = sb + 4 * (size_t) op->cta_group * N * nkb;
    out = c + (size_t) M * N;
    memset(c, 0, (size_t) M * N * sizeof(uint32_t));
    rc = mma_gather(op, &id, &s, &ea, &eb, ctas, &dl, part, a, b, sa, sb, c, err);
    if (rc == SMMA_OK) {
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++)
                out[m * N + n] = smma_dot(model, &s, &a[m * K], &b[n * K],
                                          nkb ? &sa[m * nkb] : NULL,
                                          nkb ? &sb[(part[m] * N + n) * nkb] : NULL,
                                          c[m * N + n]);
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++) {
                uint32_t v = out[m * N + n];

                smma_tmem_d_coord(&dl, m, n, &cta, &lane, &col);
                ctas[cta].tmem->cell[lane][col] = s.d_fmt == SMMA_FP32 ? v : v & 0xFFFFu;
            }
    }
    free(a);
    return rc;
}

/* ---- tcgen05.commit ------------------------------------------------------------------ */

int
smma_tc05_commit_targets(const smma_tc05_commit *op, unsigned cluster_size, unsigned rank,
                         unsigned bar_rank, uint32_t *targets, smma_error *err)
{
    if (op == NULL || targets == NULL)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.commit: no operation or result given");
    if (op->cta_group != 1 && op->cta_group != 2)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05.commit: cta_group %u is not 1 or 2",
                              op->cta_group);
    if (cluster_size < 1 || cluster_size > 16)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.commit: a cluster of %u CTAs (1 to 16)", cluster_size);
    if (op->cta_group == 2 && cluster_size % 2 != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.commit.cta_group::2: a cluster of %u CTAs has no pair for "
                              "every CTA (the size must be even)", cluster_size);
    if (rank >= cluster_size)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.commit: issuing rank %u is outside the cluster of %u",
                              rank, cluster_size);
    if (!op->multicast) {
        if (op->cta_mask != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "tcgen05.commit: ctaMask 0x%x without .multicast::cluster",
                                  (unsigned) op->cta_mask);
        if (bar_rank >= cluster_size)
            return smma_error_set(err, SMMA_EINVAL,
                                  "tcgen05.commit: the barrier's rank %u is outside the cluster "
                                  "of %u", bar_rank, cluster_size);
        *targets = UINT32_C(1) << bar_rank;
        return SMMA_OK;
    }
    if (op->cta_mask == 0 || op->cta_mask > 0xFFFFu
        || (op->cta_mask >> cluster_size) != 0)
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.commit.multicast::cluster: ctaMask 0x%x %s",
                              (unsigned) op->cta_mask,
                              op->cta_mask == 0 ? "names no CTA"
                              : op->cta_mask > 0xFFFFu ? "is wider than 16 bits"
                              : "names a rank outside the cluster");
    *targets = op->cta_mask;
    return SMMA_OK;
}

/* ---- PTX text ------------------------------------------------------------------------ */

/* A bounded text being written; the first overflow sticks. */
struct text {
    char *buf;
    size_t size, len;
    bool overflow;
};

static void put(struct text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void
put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    bool room = t->len < t->size;

    va_start(ap, fmt);
    n = vsnprintf(room ? t->buf + t->len : NULL, room ? t->size - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->overflow = true;
        return;
    }
    t->len += (size_t) n;
    if (t->len >= t->size)
        t->overflow = true;
}

static int
text_done(const struct text *t, smma_error *err)
{
    if (t->overflow)
        return smma_error_set(err, SMMA_ERANGE, "PTX text needs %zu bytes, buffer has %zu",
                              t->len + 1, t->size);
    return SMMA_OK;
}

static int
text_start(struct text *t, char *buf, size_t size, smma_error *err)
{
    t->buf = buf;
    t->size = size;
    t->len = 0;
    t->overflow = false;
    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the PTX text");
    if (size > 0)
        buf[0] = '\0';
    return SMMA_OK;
}

static void
put_regs(struct text *t, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        put(t, "%s%%t%u", i == 0 ? "{" : ", ", i);
    put(t, "}");
}

static int
ptx_ldst(bool st, const smma_tmem_ldst *op, char *buf, size_t size, smma_error *err)
{
    struct text t;
    int rc = text_start(&t, buf, size, err);

    if (rc != SMMA_OK || (rc = smma_tmem_ldst_check(op, err)) != SMMA_OK)
        return rc;
    put(&t, "tcgen05.%s.sync.aligned.%s.x%u%s.b32 ", st ? "st" : "ld", shape_names[op->shape],
        op->num, op->pack ? (st ? ".unpack::16b" : ".pack::16b") : "");
    if (st) {
        put(&t, "[%%taddr], ");
        if (op->shape == SMMA_TMEM_16X32BX2)
            put(&t, "%u, ", op->half_off);
        put_regs(&t, smma_tmem_ldst_regs(op));
    } else {
        put_regs(&t, smma_tmem_ldst_regs(op));
        put(&t, ", [%%taddr]");
        if (op->shape == SMMA_TMEM_16X32BX2)
            put(&t, ", %u", op->half_off);
    }
    put(&t, ";");
    return text_done(&t, err);
}

int
smma_ptx_tc05_ld(const smma_tmem_ldst *op, char *buf, size_t size, smma_error *err)
{
    return ptx_ldst(false, op, buf, size, err);
}

int
smma_ptx_tc05_st(const smma_tmem_ldst *op, char *buf, size_t size, smma_error *err)
{
    return ptx_ldst(true, op, buf, size, err);
}

int
smma_ptx_tc05_cp(const smma_tmem_cp *op, char *buf, size_t size, smma_error *err)
{
    struct text t;
    int rc = text_start(&t, buf, size, err);

    if (rc != SMMA_OK || (rc = smma_tmem_cp_check(op, err)) != SMMA_OK)
        return rc;
    put(&t, "tcgen05.cp.cta_group::%u.%s%s [%%taddr], %%tsdesc;", op->cta_group,
        cp_names[op->shape], cp_fmt_names[op->fmt]);
    return text_done(&t, err);
}

int
smma_ptx_tc05_mma(const smma_tc05_mma *op, char *buf, size_t size, smma_error *err)
{
    struct text t;
    int rc = text_start(&t, buf, size, err);

    if (rc != SMMA_OK || (rc = smma_tc05_mma_check(op, err)) != SMMA_OK)
        return rc;
    put(&t, "tcgen05.mma%s.cta_group::%u.kind::%s", op->ws ? ".ws" : "", op->cta_group,
        smma_tc05_kind_name(op->kind));
    if (op->scale_vec != 0)
        put(&t, ".block_scale.scale_vec::%uX", op->scale_vec);
    put(&t, " [%%taddr], %s, %%tbdesc, %%tidesc, ", op->a_tmem ? "[%tatmem]" : "%tadesc");
    if (op->scale_vec != 0)
        put(&t, "[%%tsfa], [%%tsfb], ");
    put(&t, "%%tp;");
    return text_done(&t, err);
}

int
smma_ptx_tc05_misc(smma_tc05_misc which, unsigned cta_group, unsigned ncols, char *buf,
                   size_t size, smma_error *err)
{
    struct text t;
    int rc = text_start(&t, buf, size, err);

    if (rc != SMMA_OK)
        return rc;
    if ((unsigned) which >= SMMA_TC05_MISC_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05 instruction %d is not modelled",
                              (int) which);
    if (which <= SMMA_TC05_COMMIT_MC && cta_group != 1 && cta_group != 2)
        return smma_error_set(err, SMMA_EINVAL, "tcgen05: cta_group %u is not 1 or 2",
                              cta_group);
    if ((which == SMMA_TC05_ALLOC || which == SMMA_TC05_DEALLOC) && !ncols_legal(ncols))
        return smma_error_set(err, SMMA_EINVAL,
                              "tcgen05.%s: nCols %u is not a power of two in [32, 512]",
                              which == SMMA_TC05_ALLOC ? "alloc" : "dealloc", ncols);
    switch (which) {
    case SMMA_TC05_ALLOC:
        put(&t, "tcgen05.alloc.cta_group::%u.sync.aligned.shared::cta.b32 [%%tdst], %u;",
            cta_group, ncols);
        break;
    case SMMA_TC05_DEALLOC:
        put(&t, "tcgen05.dealloc.cta_group::%u.sync.aligned.b32 %%taddr, %u;", cta_group,
            ncols);
        break;
    case SMMA_TC05_RELINQUISH:
        put(&t, "tcgen05.relinquish_alloc_permit.cta_group::%u.sync.aligned;", cta_group);
        break;
    case SMMA_TC05_COMMIT:
        put(&t, "tcgen05.commit.cta_group::%u.mbarrier::arrive::one.shared::cluster.b64 "
                "[%%tmbar];", cta_group);
        break;
    case SMMA_TC05_COMMIT_MC:
        put(&t, "tcgen05.commit.cta_group::%u.mbarrier::arrive::one.shared::cluster"
                ".multicast::cluster.b64 [%%tmbar], %%tmask;", cta_group);
        break;
    case SMMA_TC05_WAIT_LD:
        put(&t, "tcgen05.wait::ld.sync.aligned;");
        break;
    case SMMA_TC05_WAIT_ST:
        put(&t, "tcgen05.wait::st.sync.aligned;");
        break;
    case SMMA_TC05_FENCE_BEFORE:
        put(&t, "tcgen05.fence::before_thread_sync;");
        break;
    case SMMA_TC05_FENCE_AFTER:
    default:
        put(&t, "tcgen05.fence::after_thread_sync;");
        break;
    }
    return text_done(&t, err);
}

const char *
smma_ptx_tc05_mma_version(const smma_tc05_mma *op)
{
    if (op != NULL && (op->kind == SMMA_TC05_KIND_MXF4NVF4 || op->scale_vec == 4))
        return "8.7";
    return SMMA_PTX_TC05_VERSION;
}

/* ---- drawable form ---------------------------------------------------------------- */

enum { GRID_LDST = 0, GRID_D, GRID_SF, GRID_CP, GRID_A };

#define GRID_N 16u /* N of the D pictures when the name gives none */

/* The scale-factor pictures: name suffix, kind and vector size. */
static const struct {
    const char *name;
    unsigned vec;
} sf_grids[] = {
    { "tcgen05.mma.mxf8f6f4.1x", 1 },
    { "tcgen05.mma.mxf4.2x", 2 },
    { "tcgen05.mma.mxf4nvf4.2x", 2 },
    { "tcgen05.mma.mxf4nvf4.4x", 4 },
};

/* The D and A pictures: name, M, cta_group. */
static const struct {
    const char *name;
    unsigned m, cg;
    const char *layout;
} d_grids[] = {
    { "tcgen05.mma.m64", 64, 1, "Layout F" },
    { "tcgen05.mma.m128", 128, 1, "Layout D" },
    { "tcgen05.mma.m128.cg2", 128, 2, "Layout B" },
    { "tcgen05.mma.m256", 256, 2, "Layout A" },
};

/* The data-path layout of (M, cta_group), "?" when none. */
static const char *
d_layout_name(unsigned m, unsigned cg)
{
    size_t i;

    for (i = 0; i < sizeof(d_grids) / sizeof(d_grids[0]); i++)
        if (d_grids[i].m == m && d_grids[i].cg == cg)
            return d_grids[i].layout;
    return "?";
}

/* The layout of A in TMEM for a grid's parameters: M, K, cta_group and the
 * element width in param[1..4]. */
static void
grid_alayout(const smma_grid *g, smma_tmem_alayout *l)
{
    l->m = g->param[1];
    l->k = g->param[2];
    l->cta_group = g->param[3];
    l->elem_bits = g->param[4];
    l->addr = 0;
}

/* The layout of D for a grid's parameters: M, cta_group, N in param[1..3]. */
static void
grid_dlayout(const smma_grid *g, smma_tmem_dlayout *l)
{
    l->m = g->param[1];
    l->cta_group = g->param[2];
    l->n = g->param[3];
    l->addr = 0;
}

/* The scale-factor layout of a grid in each CTA: vec, sf_id in
 * param[1..2], its rows in param[5] (scale_B of cta_group::2: all N rows
 * in each CTA; scale_A: the CTA's 128 rows); param[3] is 1 for scale_B,
 * param[4] the cta_group. */
static void
grid_sflayout(const smma_grid *g, smma_tmem_sflayout *l)
{
    l->rows = g->param[5];
    l->vec = g->param[1];
    l->sf_id = g->param[2];
    l->addr = 0;
}

static void
grid_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    unsigned a, b, c;

    out->owner = SMMA_GRID_NOBODY;
    snprintf(out->label, sizeof(out->label), ".");
    switch (g->param[0]) {
    case GRID_LDST: {
        smma_tmem_ldst op;

        op.shape = (smma_tmem_shape) g->param[1];
        op.num = g->param[2];
        op.pack = false;
        op.half_off = g->param[3];
        if (smma_tmem_ldst_slot(&op, row, col, &a, &b, &c) == SMMA_OK) {
            out->owner = a;
            snprintf(out->label, sizeof(out->label), "T%u:r%u", a, b);
        }
        break;
    }
    case GRID_A: {
        smma_holder h;

        g->holder(g, row, col, &h);
        if (h.kind != SMMA_HOLDER_NONE) {
            out->owner = h.thread;
            smma_holder_label(&h, g->elems, out->label, sizeof(out->label));
        }
        break;
    }
    case GRID_D: {
        smma_tmem_dlayout l;

        grid_dlayout(g, &l);
        if (smma_tmem_d_elem(&l, row / LANES, row % LANES, col, &a, &b) == SMMA_OK) {
            out->owner = 4 * (row / LANES) + (row % LANES) / PARTITION;
            snprintf(out->label, sizeof(out->label), "m%u,n%u", a, b);
        }
        break;
    }
    case GRID_SF: {
        smma_tmem_sflayout l;

        grid_sflayout(g, &l);
        if (smma_tmem_sf_elem(&l, row % LANES, col / 4, col % 4, &a, &b, &c) == SMMA_OK) {
            out->owner = 4 * (row / LANES) + c;
            snprintf(out->label, sizeof(out->label), "%c%u,k%u", g->param[3] ? 'n' : 'm',
                     g->param[3] ? a : a + l.rows * (row / LANES), b);
        }
        break;
    }
    case GRID_CP:
    default:
        if (smma_tmem_cp_src((smma_tmem_cp_shape) g->param[1], row % LANES, col, 0, &a, &b,
                             &c) == SMMA_OK) {
            out->owner = cp_copies[g->param[1]] * (row / LANES) + c;
            snprintf(out->label, sizeof(out->label), "r%u.w%u", a, b / 4);
        }
        break;
    }
}

/* ---- queries: the operand's (row, col) <-> (thread or TMEM lane, register or
 * column, element); every TMEM holder is copy 0 and thread 128 c + lane for
 * the lanes of CTA c. */

static void
grid_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *out)
{
    unsigned cta = 0, lane, c, e;
    int rc;

    smma_holder_none(out);
    switch (g->param[0]) {
    case GRID_LDST: {
        smma_tmem_ldst op = { (smma_tmem_shape) g->param[1], g->param[2], false,
                              g->param[3] };

        if (smma_tmem_ldst_slot(&op, row, col, &lane, &c, &e) != SMMA_OK)
            return;
        out->kind = SMMA_HOLDER_REG;
        out->thread = lane;
        out->reg = c;
        out->elem = e;
        return;
    }
    case GRID_A: {
        smma_tmem_alayout l;

        grid_alayout(g, &l);
        rc = smma_tmem_a_coord(&l, row, col, &cta, &lane, &c, &e);
        e /= l.elem_bits;
        break;
    }
    case GRID_D: {
        smma_tmem_dlayout l;

        grid_dlayout(g, &l);
        rc = smma_tmem_d_coord(&l, row, col, &cta, &lane, &c);
        e = 0;
        break;
    }
    case GRID_SF: {
        smma_tmem_sflayout l;

        grid_sflayout(g, &l);
        if (!g->param[3])
            cta = row / l.rows; /* scale_A: the CTA of the row; scale_B: CTA 0's copy */
        rc = smma_tmem_sf_coord(&l, row % l.rows, col, 0, &lane, &c, &e);
        break;
    }
    case GRID_CP:
    default:
        rc = smma_tmem_cp_coord((smma_tmem_cp_shape) g->param[1], row, 4 * col, 0, &lane, &c,
                                &e);
        break;
    }
    if (rc != SMMA_OK)
        return;
    out->kind = SMMA_HOLDER_TMEM;
    out->thread = LANES * cta + lane;
    out->reg = c;
    out->elem = e;
}

static int
grid_coord(const smma_grid *g, unsigned thread, unsigned reg, unsigned elem, unsigned *row,
           unsigned *col)
{
    unsigned cta = thread / LANES, lane = thread % LANES, copy;

    switch (g->param[0]) {
    case GRID_LDST: {
        smma_tmem_ldst op = { (smma_tmem_shape) g->param[1], g->param[2], false,
                              g->param[3] };

        return smma_tmem_ldst_coord(&op, thread, reg, elem, row, col);
    }
    case GRID_A: {
        smma_tmem_alayout l;

        grid_alayout(g, &l);
        return smma_tmem_a_elem(&l, cta, lane, reg, elem * l.elem_bits, row, col);
    }
    case GRID_D: {
        smma_tmem_dlayout l;

        grid_dlayout(g, &l);
        return smma_tmem_d_elem(&l, cta, lane, reg, row, col);
    }
    case GRID_SF: {
        smma_tmem_sflayout l;
        int rc;

        grid_sflayout(g, &l);
        if (cta >= (g->param[4] ? g->param[4] : 1u))
            return SMMA_EINVAL;
        rc = smma_tmem_sf_elem(&l, lane, reg, elem, row, col, &copy);
        if (rc == SMMA_OK && !g->param[3])
            *row += l.rows * cta;
        return rc;
    }
    case GRID_CP:
    default:
        if (cta >= (g->param[2] ? g->param[2] : 1u)
            || smma_tmem_cp_src((smma_tmem_cp_shape) g->param[1], lane, reg, elem, row, col,
                                &copy) != SMMA_OK || *col % 4 != 0)
            return SMMA_EINVAL;
        *col /= 4;
        return SMMA_OK;
    }
}

/* The queries of a picture of tensor memory whose operand is rows x cols
 * (axes row_axis, col_axis). */
static void
grid_tmem_queries(smma_grid *g, unsigned rows, unsigned cols, const char *row_axis,
                  const char *col_axis, unsigned threads, unsigned regs, unsigned elems)
{
    g->op_rows = rows;
    g->op_cols = cols;
    snprintf(g->op_row_axis, sizeof(g->op_row_axis), "%s", row_axis);
    snprintf(g->op_col_axis, sizeof(g->op_col_axis), "%s", col_axis);
    g->tmem_picture = true;
    g->threads = threads;
    g->regs = regs;
    g->elems = elems;
    g->holder = grid_holder;
    g->coord = grid_coord;
}

/* "tcgen05.mma.m<M>[n<N>][.cg1|.cg2][.<kind>]": M, N (GRID_N when not
 * given), cta_group (2 for M = 256 or .cg2, else 1) and kind (f16 when not
 * given).  SMMA_GRID_NOT_MINE for a name that does not start with
 * "tcgen05.mma.m" and a digit; SMMA_EINVAL naming the part at fault. */
static int
mma_grid_name(const char *instr, unsigned *m, unsigned *n, unsigned *cg, smma_tc05_kind *kind,
              smma_error *err)
{
    const char *p = instr + 13;
    char *end;
    unsigned i;

    if (strncmp(instr, "tcgen05.mma.m", 13) != 0 || *p < '0' || *p > '9')
        return SMMA_GRID_NOT_MINE;
    *m = (unsigned) strtoul(p, &end, 10);
    *n = GRID_N;
    *cg = *m == 256 ? 2 : 1;
    *kind = SMMA_TC05_KIND_F16;
    p = end;
    if (*p == 'n') {
        if (p[1] < '0' || p[1] > '9')
            return smma_error_set(err, SMMA_EINVAL, "%s: 'n' must be followed by N", instr);
        *n = (unsigned) strtoul(p + 1, &end, 10);
        p = end;
    }
    while (*p == '.') {
        size_t len = strcspn(p + 1, ".");

        if (len == 3 && strncmp(p + 1, "cg", 2) == 0 && (p[3] == '1' || p[3] == '2')) {
            *cg = (unsigned) (p[3] - '0');
        } else {
            for (i = 0; i < SMMA_TC05_KIND_COUNT; i++)
                if (strlen(smma_tc05_kind_name((smma_tc05_kind) i)) == len
                    && strncmp(p + 1, smma_tc05_kind_name((smma_tc05_kind) i), len) == 0)
                    break;
            if (i == SMMA_TC05_KIND_COUNT)
                return smma_error_set(err, SMMA_EINVAL, "%s: unknown part '.%.*s' (known: "
                                      ".cg1, .cg2, and a kind: .f16, .tf32, .f8f6f4, .i8, "
                                      ".mxf8f6f4, .mxf4, .mxf4nvf4)", instr, (int) len, p + 1);
            *kind = (smma_tc05_kind) i;
        }
        p += 1 + len;
    }
    if (*p != '\0')
        return smma_error_set(err, SMMA_EINVAL, "%s: unexpected '%s' (the form is "
                              "tcgen05.mma.m<M>[n<N>][.cg2][.<kind>])", instr, p);
    return SMMA_OK;
}

/* The storage width of A's elements in TMEM for a kind (softmma/tmem.h):
 * 16 f16, 4 mxf4*, 32 tf32 (refused by smma_tmem_a_check), else 8. */
static unsigned
a_elem_bits(smma_tc05_kind kind)
{
    switch (kind) {
    case SMMA_TC05_KIND_F16: return 16;
    case SMMA_TC05_KIND_TF32: return 32;
    case SMMA_TC05_KIND_MXF4:
    case SMMA_TC05_KIND_MXF4NVF4: return 4;
    default: return 8;
    }
}

static int
grid_operand(const char *instr, const char *operand, const char *want1, const char *want2,
             smma_error *err)
{
    if (operand != NULL
        && (strcmp(operand, want1) == 0 || (want2 != NULL && strcmp(operand, want2) == 0)))
        return SMMA_OK;
    return smma_error_set(err, SMMA_EINVAL, "operand '%s' of %s is not one of: %s%s%s",
                          operand != NULL ? operand : "(none)", instr, want1,
                          want2 != NULL ? ", " : "", want2 != NULL ? want2 : "");
}

static void
grid_names(smma_grid *g, const char *instr, const char *operand, const char *row_axis,
           const char *col_axis, const char *legend)
{
    snprintf(g->name, sizeof(g->name), "%s %s", instr, operand);
    snprintf(g->row_axis, sizeof(g->row_axis), "%s", row_axis);
    snprintf(g->col_axis, sizeof(g->col_axis), "%s", col_axis);
    snprintf(g->legend, sizeof(g->legend), "%s", legend);
    g->cell = grid_cell;
}

static int
grid_ldst(const char *instr, const char *operand, smma_tmem_shape shape,
          const smma_grid_opts *o, smma_grid *g, smma_error *err)
{
    smma_tmem_ldst op;
    int rc = grid_operand(instr, operand, "d", NULL, err);

    if (rc != SMMA_OK)
        return rc;
    op.shape = shape;
    op.num = o != NULL && o->num >= 0 ? (unsigned) o->num : 1;
    op.pack = false;
    op.half_off = 0;
    if (shape == SMMA_TMEM_16X32BX2)
        op.half_off = op.num;
    if ((rc = smma_tmem_ldst_check(&op, err)) != SMMA_OK)
        return rc;
    grid_names(g, instr, operand, "lane", "col", "T<thread>:r<register>");
    snprintf(g->what, sizeof(g->what),
             "%s.x%u: %u TMEM lanes x %u columns from taddr, %u registers per thread%s",
             instr, op.num, smma_tmem_ldst_lanes(&op), smma_tmem_ldst_cols(&op),
             smma_tmem_ldst_regs(&op),
             shape == SMMA_TMEM_16X32BX2 ? ", immHalfSplitoff = num" : "");
    g->rows = smma_tmem_ldst_lanes(&op);
    g->cols = smma_tmem_ldst_cols(&op);
    g->param[0] = GRID_LDST;
    g->param[1] = (unsigned) shape;
    g->param[2] = op.num;
    g->param[3] = op.half_off;
    smma_grid_queries(g, 32, smma_tmem_ldst_regs(&op), 1, grid_holder, grid_coord);
    return SMMA_OK;
}

/* tcgen05.mma a and d at any legal M, N, cta_group and kind. */
static int
grid_mma(const char *instr, const char *operand, smma_grid *g, smma_error *err)
{
    unsigned m, n, cg;
    smma_tc05_kind kind;
    smma_error why;
    int rc = mma_grid_name(instr, &m, &n, &cg, &kind, err);

    if (rc != SMMA_OK)
        return rc;
    if ((rc = grid_operand(instr, operand, "a", "d", err)) != SMMA_OK)
        return rc;
    if (operand[0] == 'd') {
        smma_tmem_dlayout l = { m, n, cg, 0 };

        if ((rc = smma_tmem_d_check(&l, &why)) != SMMA_OK)
            return smma_error_set(err, rc, "%s d: %s", instr, why.msg);
        grid_names(g, instr, operand, "lane", "col", "m<row>,n<column> of D");
        snprintf(g->what, sizeof(g->what),
                 "D of M = %u, N = %u, cta_group::%u (%s) at lane 0, column 0%s", m, n, cg,
                 d_layout_name(m, cg), cg == 2 ? "; rows 128-255 are CTA 1's lanes" : "");
        g->rows = LANES * cg;
        g->cols = d_cols(&l);
        g->param[0] = GRID_D;
        g->param[1] = m;
        g->param[2] = cg;
        g->param[3] = n;
        grid_tmem_queries(g, m, n, "m", "n", LANES * cg, g->cols, 1);
    } else {
        smma_tmem_alayout l = { m, smma_tc05_mma_k(kind, false), cg, a_elem_bits(kind), 0 };

        if ((rc = smma_tmem_a_check(&l, &why)) != SMMA_OK)
            return smma_error_set(err, rc, "%s a: %s", instr, why.msg);
        grid_names(g, instr, operand, "m", "k", "L<TMEM lane>:c<column>.<element>");
        snprintf(g->what, sizeof(g->what),
                 "A %u x %u (.kind::%s, %u-bit storage) from TMEM at lane 0, column 0, "
                 "cta_group::%u%s", m, l.k, smma_tc05_kind_name(kind), l.elem_bits, cg,
                 cg == 2 ? "; lanes 128-255 are CTA 1's" : "");
        g->rows = m;
        g->cols = l.k;
        g->param[0] = GRID_A;
        g->param[1] = m;
        g->param[2] = l.k;
        g->param[3] = cg;
        g->param[4] = l.elem_bits;
        grid_tmem_queries(g, m, l.k, "m", "k", LANES * cg, l.k * l.elem_bits / 32,
                          32 / l.elem_bits);
        g->tmem_picture = false;
    }
    return SMMA_OK;
}

/* 1 when instr is base, 2 when it is base followed by ".cg2", else 0. */
static unsigned
cg_name(const char *instr, const char *base)
{
    size_t n = strlen(base);

    if (strncmp(instr, base, n) != 0)
        return 0;
    return instr[n] == '\0' ? 1 : strcmp(instr + n, ".cg2") == 0 ? 2 : 0;
}

int
smma_tmem_grid(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
               smma_error *err)
{
    char name[64];
    unsigned i, cg;
    int rc;

    if (instr == NULL || strncmp(instr, "tcgen05.", 8) != 0)
        return SMMA_GRID_NOT_MINE;
    if (g == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no grid given");
    memset(g, 0, sizeof(*g));
    for (i = 0; i < SMMA_TMEM_SHAPE_COUNT; i++) {
        snprintf(name, sizeof(name), "tcgen05.ld.%s", shape_names[i]);
        if (strcmp(instr, name) == 0)
            return grid_ldst(instr, operand, (smma_tmem_shape) i, o, g, err);
    }
    if ((rc = grid_mma(instr, operand, g, err)) != SMMA_GRID_NOT_MINE)
        return rc;
    for (i = 0; i < sizeof(sf_grids) / sizeof(sf_grids[0]); i++)
        if ((cg = cg_name(instr, sf_grids[i].name)) != 0) {
            smma_tmem_sflayout l;
            bool sfb;

            if ((rc = grid_operand(instr, operand, "sfa", "sfb", err)) != SMMA_OK)
                return rc;
            sfb = operand[2] == 'b';
            l.rows = sfb ? 128 * cg : 128;
            l.vec = sf_grids[i].vec;
            l.sf_id = o != NULL && o->sf_id >= 0 ? (unsigned) o->sf_id : 0;
            l.addr = 0;
            if ((rc = smma_tmem_sf_check(&l, err)) != SMMA_OK)
                return rc;
            grid_names(g, instr, operand, "lane", "byte",
                       sfb ? "n<column>,k<block>" : "m<row>,k<block>");
            if (cg == 1)
                snprintf(g->what, sizeof(g->what),
                         "scale_%c of %s = 128 at column 0, SF_ID %u, .scale_vec::%uX; byte "
                         "column = 4 * TMEM column + byte; owner = copy", sfb ? 'B' : 'A',
                         sfb ? "N" : "M", l.sf_id, l.vec);
            else
                snprintf(g->what, sizeof(g->what),
                         "scale_%c of %s = 256, cta_group::2 (lanes 128-255: CTA 1), SF_ID %u, "
                         ".scale_vec::%uX; %s; owner = 4 CTA + copy", sfb ? 'B' : 'A',
                         sfb ? "N" : "M", l.sf_id, l.vec,
                         sfb ? "all of N in each CTA" : "each CTA its 128 rows");
            g->rows = LANES * cg;
            g->cols = 4 * smma_tmem_sf_cols(&l);
            g->copies = sfb ? 4 * cg : 4;
            g->param[0] = GRID_SF;
            g->param[1] = l.vec;
            g->param[2] = l.sf_id;
            g->param[3] = sfb;
            g->param[4] = cg;
            g->param[5] = l.rows;
            grid_tmem_queries(g, sfb ? l.rows : 128 * cg, l.vec, sfb ? "n" : "m", "k block",
                              LANES * cg, smma_tmem_sf_cols(&l), 4);
            return SMMA_OK;
        }
    for (i = 0; i < SMMA_TMEM_CP_SHAPE_COUNT; i++) {
        snprintf(name, sizeof(name), "tcgen05.cp.%s", cp_names[i]);
        if ((cg = cg_name(instr, name)) != 0) {
            if ((rc = grid_operand(instr, operand, "d", NULL, err)) != SMMA_OK)
                return rc;
            grid_names(g, instr, operand, "lane", "col", "r<source row>.w<32-bit word>");
            snprintf(g->what, sizeof(g->what),
                     cg == 1 ? "%s: %u source rows of %u bytes into TMEM from lane 0, %u cop%s"
                             : "%s: each CTA %u rows of %u bytes into its TMEM, %u cop%s; "
                               "lanes 128+: CTA 1",
                     instr, cp_rows[i], cp_bytes[i], cp_copies[i],
                     cp_copies[i] == 1 ? "y" : "ies");
            g->rows = LANES * cg;
            g->cols = cp_bytes[i] / 4;
            g->copies = cp_copies[i] * cg;
            g->param[0] = GRID_CP;
            g->param[1] = i;
            g->param[2] = cg;
            grid_tmem_queries(g, cp_rows[i], cp_bytes[i] / 4, "row", "word", LANES * cg,
                              cp_bytes[i] / 4, 1);
            return SMMA_OK;
        }
    }
    return SMMA_GRID_NOT_MINE;
}

void
smma_tmem_grid_list(smma_grid_emit_fn emit, void *ctx)
{
    char name[64], what[160];
    unsigned i;

    for (i = 0; i < SMMA_TMEM_SHAPE_COUNT; i++) {
        snprintf(name, sizeof(name), "tcgen05.ld.%s", shape_names[i]);
        snprintf(what, sizeof(what), "tcgen05.ld/st .%s registers of one warp in TMEM "
                 "(selector num)", shape_names[i]);
        emit(name, "d", what, ctx);
    }
    for (i = 0; i < sizeof(d_grids) / sizeof(d_grids[0]); i++) {
        snprintf(what, sizeof(what), "tcgen05.mma D in TMEM, M = %u, N = 16 (any N: "
                 "m%un<N>), cta_group::%u (%s)", d_grids[i].m, d_grids[i].m, d_grids[i].cg,
                 d_grids[i].layout);
        emit(d_grids[i].name, "d", what, ctx);
        if (d_grids[i].m == 128 && d_grids[i].cg == 2)
            continue; /* A is not modelled there */
        snprintf(what, sizeof(what), "tcgen05.mma A in TMEM, M = %u, .kind::f16 (any kind: "
                 ".<kind>), cta_group::%u", d_grids[i].m, d_grids[i].cg);
        emit(d_grids[i].name, "a", what, ctx);
    }
    for (i = 0; i < sizeof(sf_grids) / sizeof(sf_grids[0]); i++) {
        snprintf(what, sizeof(what), "scale_A in TMEM, .scale_vec::%uX (selector sf_id)",
                 sf_grids[i].vec);
        emit(sf_grids[i].name, "sfa", what, ctx);
        snprintf(what, sizeof(what), "scale_B in TMEM, .scale_vec::%uX (selector sf_id)",
                 sf_grids[i].vec);
        emit(sf_grids[i].name, "sfb", what, ctx);
        snprintf(name, sizeof(name), "%s.cg2", sf_grids[i].name);
        snprintf(what, sizeof(what), "scale_A of M = 256 over a CTA pair, .scale_vec::%uX",
                 sf_grids[i].vec);
        emit(name, "sfa", what, ctx);
        snprintf(what, sizeof(what), "scale_B of N = 256 in both CTAs of a pair, "
                 ".scale_vec::%uX", sf_grids[i].vec);
        emit(name, "sfb", what, ctx);
    }
    for (i = 0; i < SMMA_TMEM_CP_SHAPE_COUNT; i++) {
        snprintf(name, sizeof(name), "tcgen05.cp.%s", cp_names[i]);
        snprintf(what, sizeof(what), "tcgen05.cp.%s: shared-memory rows in TMEM",
                 cp_names[i]);
        emit(name, "d", what, ctx);
        snprintf(name, sizeof(name), "tcgen05.cp.%s.cg2", cp_names[i]);
        snprintf(what, sizeof(what), "tcgen05.cp.cta_group::2.%s: each CTA's rows in its "
                 "own TMEM", cp_names[i]);
        emit(name, "d", what, ctx);
    }
}
