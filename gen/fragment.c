/*
 * gen/fragment.c - the fragment suites: every slot of a modeled layout,
 * (lane, register, element) -> (row, col), from the simulator's layout
 * functions (softmma/fragment.h, mma_bs.h, ldmatrix.h, wgmma.h, tmem.h);
 * their part of the table and which are committed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/fragment.h>
#include <softmma/ldmatrix.h>
#include <softmma/mma_bs.h>
#include <softmma/tmem.h>
#include <softmma/wgmma.h>

#include "internal.h"

/* Starts a suite of one line per case: the header with the scalar fields
 * of in and out, and the comment lines (NULL-terminated). */
static int
start_rows(const smma_suite *s, unsigned level, uint64_t seed, const char *in,
           const char *out, const char *const *comments, smma_vec_writer **w, smma_error *err)
{
    smma_vec_header h;
    int rc;

    smma_gen_header(s, level, seed, &h);
    rc = smma_gen_add_spec(&h, in, false, false, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(&h, out, true, false, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, w, err);
    return rc;
}

static const char *const op_names[] = { "a", "b", "c", "d", "sfa", "sfb" };
#define OP_SFA 4u
#define OP_SFB 5u

/* The lowest set bit of x (x != 0). */
static unsigned
low_bit(uint32_t x)
{
    unsigned b = 0;

    while (b < 31 && !(x >> b & 1))
        b++;
    return b;
}

/* The register fragments of mma.sync (bs NULL) and of the sm_120a forms:
 * every (lane, reg, elem) with its (row, col) and the lowest bit of the
 * element in the register.  For the sm_120a forms that bit comes from
 * packing a tile with the one element set (smma_mma_bs_pack), so the 8-bit
 * containers of 4- and 6-bit codes show. */
static int
frag_mma_regs(const smma_frag_layout *l, const smma_mma_bs *bs, smma_operand op,
              smma_vec_writer *w, smma_error *err)
{
    uint32_t tile[16 * 64], regs[32 * 4];
    uint32_t mask = l->fmt == SMMA_FP32 || l->fmt == SMMA_FORMAT_COUNT
                        ? 0xffffffffu
                        : (uint32_t) ((1ull << smma_format_info(l->fmt)->bits) - 1);
    unsigned lane, reg, elem, row, col;
    int rc = SMMA_OK;

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < l->regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < l->elems; elem++) {
                uint64_t r[6] = { lane, reg, elem, 0, 0, elem * l->elem_bits };

                smma_frag_coord(l, lane, reg, elem, &row, &col);
                r[3] = row;
                r[4] = col;
                if (bs != NULL) {
                    memset(tile, 0, sizeof(tile));
                    tile[row * l->cols + col] = mask;
                    rc = smma_mma_bs_pack(bs, op, tile, regs, err);
                    r[5] = low_bit(regs[lane * l->regs + reg]);
                }
                if (rc == SMMA_OK)
                    rc = smma_vec_put_row(w, r, err);
            }
    return rc;
}

static int
frag_mma(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
         smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of lane lane (elem 0 in the",
        "low bits); row, col: its place in the operand tile (A 16 x K: row m, col k;",
        "B K x 8: row k, col n; C, D 16 x 8: row m, col n); lsb: the element's lowest bit",
        "in the register.  PTX ISA 9.7.14.5.8 and 9.7.14.5.10 (softmma/fragment.h)", NULL
    };
    const smma_frag_layout *l = smma_frag_layout_get((smma_mma_instr) s->var,
                                                     (smma_operand) s->op);
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        comments, &w, err);

    if (rc == SMMA_OK)
        rc = frag_mma_regs(l, NULL, (smma_operand) s->op, w, err);
    return smma_gen_finish(rc, w, out);
}

/* The scale-factor registers of a block-scaled sm_120a form: for every
 * legal {byte-id, thread-id} of the operand, every (lane, byte) that the
 * instruction reads, with the scale it holds. */
static int
frag_mma_sf(const smma_mma_bs *v, unsigned op, smma_vec_writer *w, smma_error *err)
{
    smma_operand o = op == OP_SFA ? SMMA_OP_A : SMMA_OP_B;
    unsigned bid, tid, lane, byte, mn, kblk;
    int rc = SMMA_OK;

    for (bid = 0; rc == SMMA_OK && bid < 4; bid++)
        for (tid = 0; rc == SMMA_OK && tid < 4; tid++) {
            smma_mma_bs_sel sel = smma_mma_bs_sel_of(o, bid, tid);

            if (smma_mma_bs_sel_check(v, &sel, NULL) != SMMA_OK)
                continue;
            for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
                for (byte = 0; rc == SMMA_OK && byte < 4; byte++) {
                    uint64_t r[6] = { bid, tid, lane, byte, 0, 0 };

                    rc = smma_mma_bs_sf_coord(v, o, &sel, lane, byte, &mn, &kblk, err);
                    if (rc != SMMA_OK || kblk >= v->scale_vec)
                        continue;
                    r[4] = mn;
                    r[5] = kblk;
                    rc = smma_vec_put_row(w, r, err);
                }
        }
    return rc;
}

static int
frag_mma_bs(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
            smma_error *err)
{
    static const char *const regs_comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of lane lane; row, col: its",
        "place in the tile (A 16 x K: row m, col k; B K x 8: row k, col n; C, D 16 x 8);",
        "lsb: its lowest bit in the register: 4- and 6-bit codes of the m16n8k32 kinds sit",
        "in 8-bit containers (e2m1 bits 5:2, e2m3 and e3m2 bits 5:0), the m16n8k64 kinds",
        "pack eight e2m1 per register.  PTX ISA 9.7.14.5.10, 9.7.14.5.11, 9.7.14.5.14",
        "(softmma/mma_bs.h); sm_120a: not yet checked on a GPU", NULL
    };
    static const char *const sf_comments[] = {
        "byte_id, thread_id: the selectors of this operand (every legal pair); lane, byte:",
        "a byte of the 32-bit scale register that the instruction reads; m (scale_A) or n",
        "(scale_B), kblk: the scale it holds, for row m of A or column n of B and the k",
        "block kblk (k in [kblk K/S, (kblk+1) K/S)).  Bytes not listed are not read.",
        "PTX ISA 9.7.14.3 Tables 36-37 and Figures 43-45, with CUTLASS's SFALayout /",
        "SFBLayout for what only the figures show (softmma/mma_bs.h); sm_120a: not yet",
        "checked on a GPU", NULL
    };
    smma_mma_bs v;
    smma_frag_layout l;
    smma_vec_writer *w = NULL;
    int rc = smma_mma_bs_at(s->var, &v, err);

    if (rc == SMMA_OK && s->op >= OP_SFA) {
        rc = start_rows(s, level, seed, "byte_id:u8 thread_id:u8 lane:u8 byte:u8",
                        s->op == OP_SFA ? "m:u8 kblk:u8" : "n:u8 kblk:u8", sf_comments, &w,
                        err);
        if (rc == SMMA_OK)
            rc = frag_mma_sf(&v, s->op, w, err);
        return smma_gen_finish(rc, w, out);
    }
    if (rc == SMMA_OK)
        rc = smma_mma_bs_layout(&v, (smma_operand) s->op, &l, err);
    if (rc == SMMA_OK)
        rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        regs_comments, &w, err);
    if (rc == SMMA_OK)
        rc = frag_mma_regs(&l, &v, (smma_operand) s->op, w, err);
    return smma_gen_finish(rc, w, out);
}

/* ldmatrix / stmatrix: var = 6 kind + 2 log2(num) + trans. */
static smma_matrix_op
ldmatrix_op(unsigned var)
{
    smma_matrix_op op;

    op.kind = (smma_matrix_kind) (var / 6);
    op.num = 1u << (var / 2 % 3);
    op.trans = var & 1;
    return op;
}

static int
frag_ldmatrix(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
              smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: 16-bit element elem (0: bits 15:0) of register reg of lane lane;",
        "matrix, row, col: the element of the 8x8 matrices as they lie in shared memory:",
        "row r of matrix i at the address given by lane 8i + r, col c at byte 2c of it.",
        "PTX ISA 9.7.14.5.15-16 (softmma/ldmatrix.h)", NULL
    };
    smma_matrix_op op = ldmatrix_op(s->var);
    smma_vec_writer *w = NULL;
    unsigned lane, reg, elem, matrix, row, col;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8",
                        "matrix:u8 row:u8 col:u8 lsb:u8", comments, &w, err);

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < op.num; reg++)
            for (elem = 0; rc == SMMA_OK && elem < 2; elem++) {
                uint64_t r[7] = { lane, reg, elem, 0, 0, 0, 16 * elem };

                smma_matrix_coord(&op, lane, reg, elem, &matrix, &row, &col);
                r[3] = matrix;
                r[4] = row;
                r[5] = col;
                rc = smma_vec_put_row(w, r, err);
            }
    return smma_gen_finish(rc, w, out);
}

/* The format pairs of wgmma, in list order. */
const smma_format smma_gen_wgmma_fmts[6][2] = {
    { SMMA_BF16, SMMA_BF16 }, { SMMA_FP16, SMMA_FP16 }, { SMMA_E4M3, SMMA_E4M3 },
    { SMMA_E4M3, SMMA_E5M2 }, { SMMA_E5M2, SMMA_E4M3 }, { SMMA_E5M2, SMMA_E5M2 },
};

static int
frag_wgmma(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
           smma_error *err)
{
    static const char *const comments[] = {
        "thread, reg, elem: element elem (from the low bits) of 32-bit register reg of",
        "thread thread (0..127) of the warpgroup; row, col: its place in A (64 x K: row m,",
        "col k) or D (64 x N: row m, col n); lsb: its lowest bit in the register.  B has",
        "no register fragment (shared memory, see the mma suites).  PTX ISA 9.7.15.5.1.1",
        "(softmma/wgmma.h)", NULL
    };
    smma_wgmma_variant v = smma_wgmma_variant_make(smma_gen_wgmma_fmts[s->var][0],
                                                   smma_gen_wgmma_fmts[s->var][1], s->n);
    smma_wgmma_frag f;
    smma_vec_writer *w = NULL;
    unsigned t, reg, elem, row, col;
    int rc = smma_wgmma_frag_get(&v, s->op ? SMMA_WGMMA_OP_D : SMMA_WGMMA_OP_A, &f, err);

    if (rc == SMMA_OK)
        rc = start_rows(s, level, seed, "thread:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        comments, &w, err);
    for (t = 0; rc == SMMA_OK && t < SMMA_WGMMA_THREADS; t++)
        for (reg = 0; rc == SMMA_OK && reg < f.regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < f.elems; elem++) {
                uint64_t r[6] = { t, reg, elem, 0, 0, elem * f.elem_bits };

                smma_wgmma_coord(&f, t, reg, elem, &row, &col);
                r[3] = row;
                r[4] = col;
                rc = smma_vec_put_row(w, r, err);
            }
    return smma_gen_finish(rc, w, out);
}

/* tcgen05.ld / st: var = st << 4 | pack << 3 | shape, s->n = .num; the
 * second half of .16x32bx2 starts right after the first (immHalfSplitoff =
 * the width of one half, the least legal value). */
static smma_tmem_ldst
tmem_ldst_op(unsigned var, unsigned num)
{
    smma_tmem_ldst op;

    op.shape = (smma_tmem_shape) (var & 7);
    op.num = num;
    op.pack = var >> 3 & 1;
    op.half_off = op.shape == SMMA_TMEM_16X32BX2 ? num * (op.pack ? 2 : 1) : 0;
    return op;
}

static int
frag_tmem_ldst(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
               smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of thread lane of the warp",
        "(elem 1 only with .pack::16b / .unpack::16b: bits 31:16); dlane, dcol: the TMEM",
        "cell it is loaded from or stored to, as lane and column offsets from taddr; lsb:",
        "its lowest bit in the register (16-bit elements use bits 15:0 of their cell).",
        ".16x32bx2: immHalfSplitoff = the column width of one half.  PTX ISA 9.7.16.2.3",
        "and Figures 183-187, 193 (softmma/tmem.h); sm_100a: not yet checked on a GPU", NULL
    };
    smma_tmem_ldst op = tmem_ldst_op(s->var, s->n);
    unsigned regs = smma_tmem_ldst_regs(&op), elems = smma_tmem_ldst_elems(&op);
    unsigned lane, reg, elem, dlane, dcol;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "dlane:u8 dcol:u16 lsb:u8",
                        comments, &w, err);

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < elems; elem++) {
                uint64_t r[6] = { lane, reg, elem, 0, 0, 16 * elem };

                if (smma_tmem_ldst_coord(&op, lane, reg, elem, &dlane, &dcol) != SMMA_OK)
                    rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
                r[3] = dlane;
                r[4] = dcol;
                if (rc == SMMA_OK)
                    rc = smma_vec_put_row(w, r, err);
            }
    return smma_gen_finish(rc, w, out);
}

/* The D layouts of tcgen05.mma: M, cta_group and the lane of the address. */
static const unsigned tmem_d_layouts[5][3] = {
    { 64, 1, 0 }, { 64, 1, 16 }, { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 },
};

static int
frag_tmem_d(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
            smma_error *err)
{
    static const char *const comments[] = {
        "m, n: element (row m, column n) of D (M x N) of tcgen05.mma; cta, lane, col: the",
        "CTA of the pair and the TMEM cell that holds it, D's address at column 0 (a 16-bit",
        "D element sits in bits 15:0 of its cell).  PTX ISA 9.7.16.10.5 Layouts A, B, D, F",
        "with CUTLASS's tmem_frg for the row order (softmma/tmem.h); sm_100a: not yet",
        "checked on a GPU", NULL
    };
    const unsigned *d = tmem_d_layouts[s->var];
    smma_tmem_dlayout l = { d[0], s->n, d[1], smma_tmem_addr(d[2], 0) };
    unsigned m, n, cta, lane, col;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "m:u8 n:u8", "cta:u8 lane:u8 col:u16", comments, &w,
                        err);

    for (m = 0; rc == SMMA_OK && m < l.m; m++)
        for (n = 0; rc == SMMA_OK && n < l.n; n++) {
            uint64_t r[5] = { m, n, 0, 0, 0 };

            if (smma_tmem_d_coord(&l, m, n, &cta, &lane, &col) != SMMA_OK)
                rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
            r[2] = cta;
            r[3] = lane;
            r[4] = col;
            if (rc == SMMA_OK)
                rc = smma_vec_put_row(w, r, err);
        }
    return smma_gen_finish(rc, w, out);
}

static int
frag_tmem_sf(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const comments[] = {
        "sf_id: the instruction descriptor's scale-factor id (every legal one); row, kb,",
        "copy: scale (row, k block) of scale_A (row m) or scale_B (row n), copy 0..3 of",
        "the duplication to the four lane partitions; lane, col, byte: the TMEM cell and",
        "its byte that hold it, the scale address at column 0.  PTX ISA 9.7.16.10.7 with",
        "CUTLASS's tmem_sf_frg (softmma/tmem.h); sm_100a: not yet checked on a GPU", NULL
    };
    smma_tmem_sflayout l = { s->n, s->var, 0, 0 };
    unsigned id, row, kb, copy, lane, col, byte;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "sf_id:u8 row:u8 kb:u8 copy:u8", "lane:u8 col:u8 byte:u8",
                        comments, &w, err);

    for (id = 0; rc == SMMA_OK && id < 4; id++) {
        l.sf_id = id;
        if (smma_tmem_sf_check(&l, NULL) != SMMA_OK)
            continue;
        for (row = 0; rc == SMMA_OK && row < l.rows; row++)
            for (kb = 0; rc == SMMA_OK && kb < l.vec; kb++)
                for (copy = 0; rc == SMMA_OK && copy < 4; copy++) {
                    uint64_t r[7] = { id, row, kb, copy, 0, 0, 0 };

                    if (smma_tmem_sf_coord(&l, row, kb, copy, &lane, &col, &byte) != SMMA_OK)
                        rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
                    r[4] = lane;
                    r[5] = col;
                    r[6] = byte;
                    if (rc == SMMA_OK)
                        rc = smma_vec_put_row(w, r, err);
                }
    }
    return smma_gen_finish(rc, w, out);
}

int
smma_gen_fragment(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    switch (s->isa) {
    case SMMA_SUITE_ISA_MMA:
        return frag_mma(s, level, seed, out, err);
    case SMMA_SUITE_ISA_MMA_BS:
        return frag_mma_bs(s, level, seed, out, err);
    case SMMA_SUITE_ISA_LDMATRIX:
        return frag_ldmatrix(s, level, seed, out, err);
    case SMMA_SUITE_ISA_WGMMA:
        return frag_wgmma(s, level, seed, out, err);
    case SMMA_SUITE_ISA_TMEM_LDST:
        return frag_tmem_ldst(s, level, seed, out, err);
    case SMMA_SUITE_ISA_TMEM_D:
        return frag_tmem_d(s, level, seed, out, err);
    case SMMA_SUITE_ISA_TMEM_SF:
        return frag_tmem_sf(s, level, seed, out, err);
    case SMMA_SUITE_ISA_TC05:
        break;
    }
    return smma_error_set(err, SMMA_EINVAL, "%s: no fragment generator", s->name);
}


static const unsigned wgmma_ns[] = { 8, 16, 64, 256 };

void
smma_gen_fragment_suites(void)
{
    unsigned i, op, num, k, shape, pack, st, li, n;
    char name[64];
    smma_mma_bs v;

    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        for (op = 0; op < 4; op++)
            smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_MMA, i, op, 0, "fragment.%s.%s",
                         smma_mma_instr_name((smma_mma_instr) i), op_names[op]);
    for (i = 0; i < SMMA_MMA_BS_COUNT; i++) {
        smma_mma_bs_at(i, &v, NULL);
        for (op = 0; op < (v.scale_vec ? 6u : 4u); op++)
            smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_MMA_BS, i, op, 0, "fragment.%s.%s",
                         smma_mma_bs_name(&v), op_names[op]);
    }
    for (i = 0; i < 12; i++) {
        smma_matrix_op mo = ldmatrix_op(i);

        smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_LDMATRIX, i, 0, 0, "fragment.%s.x%u%s",
                     mo.kind == SMMA_LDMATRIX ? "ldmatrix" : "stmatrix", mo.num,
                     mo.trans ? ".trans" : "");
    }
    for (i = 0; i < 6; i++)
        for (k = 0; k < sizeof(wgmma_ns) / sizeof(wgmma_ns[0]); k++)
            for (op = 0; op < 2; op++) {
                smma_wgmma_variant wv = smma_wgmma_variant_make(
                    smma_gen_wgmma_fmts[i][0], smma_gen_wgmma_fmts[i][1], wgmma_ns[k]);

                smma_wgmma_name(&wv, name, sizeof(name), NULL);
                smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_WGMMA, i, op, wgmma_ns[k],
                             "fragment.%s.%s", name, op ? "d" : "a");
            }
    for (st = 0; st < 2; st++)
        for (shape = 0; shape < SMMA_TMEM_SHAPE_COUNT; shape++)
            for (pack = 0; pack < 2; pack++)
                for (num = 1; num <= 128; num *= 2) {
                    smma_tmem_ldst lo = tmem_ldst_op(st << 4 | pack << 3 | shape, num);

                    if (smma_tmem_ldst_check(&lo, NULL) != SMMA_OK)
                        continue;
                    smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_TMEM_LDST,
                                 st << 4 | pack << 3 | shape, 0, num,
                                 "fragment.tcgen05.%s.%s.x%u%s", st ? "st" : "ld",
                                 smma_tmem_shape_name((smma_tmem_shape) shape), num,
                                 pack ? (st ? ".unpack" : ".pack") : "");
                }
    for (li = 0; li < 5; li++)
        for (n = 16; n <= 256; n *= 4)
            smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_TMEM_D, li, 0, n,
                         "fragment.tcgen05.d.m%un%u.cg%u%s", tmem_d_layouts[li][0], n,
                         tmem_d_layouts[li][1], tmem_d_layouts[li][2] ? ".lane16" : "");
    for (i = 1; i <= 4; i *= 2)
        for (n = 128; n <= 256; n *= 2)
            smma_gen_add(SMMA_SUITE_FRAGMENT, SMMA_SUITE_ISA_TMEM_SF, i, 0, n,
                         "fragment.tcgen05.sf.%ux.r%u", i, n);
}

/* Committed: every mma.sync and ldmatrix/stmatrix fragment; of the sm_120a
 * forms one per kind and scale vector (f8f6f4 and mxf8f6f4 with e4m3 A and
 * e2m1 B, mxf4, mxf4nvf4 2X and 4X); wgmma at N = 8 and 64; tcgen05.ld of
 * every shape at .x1 (with and without .pack) and .x8; the D layouts at
 * N = 16; the scale factors of 128 rows. */
bool
smma_gen_fragment_committed(const smma_suite *s)
{
    switch (s->isa) {
    case SMMA_SUITE_ISA_MMA:
    case SMMA_SUITE_ISA_LDMATRIX:
        return true;
    case SMMA_SUITE_ISA_MMA_BS:
        return s->var == 4 || s->var == 29 || (s->var >= 50 && s->var <= 52);
    case SMMA_SUITE_ISA_WGMMA:
        return s->n == 8 || s->n == 64;
    case SMMA_SUITE_ISA_TMEM_LDST:
        return !(s->var >> 4) && (s->n == 1 || (s->n == 8 && !(s->var >> 3 & 1)));
    case SMMA_SUITE_ISA_TMEM_D:
        return s->n == 16;
    case SMMA_SUITE_ISA_TMEM_SF:
        return s->n == 128;
    case SMMA_SUITE_ISA_TC05:
        break;
    }
    return false;
}
