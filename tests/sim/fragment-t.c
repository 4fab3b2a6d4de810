/*
 * tests/sim/fragment-t.c - mma.sync fragment layouts and the warp executor.
 *
 *   - every layout is a bijection of (lane, reg, elem) onto its tile, and
 *     smma_frag_coord / smma_frag_slot are inverses;
 *   - every slot agrees with a transcription of the PTX ISA's per-element
 *     formulas (9.7.14.5.8, 9.7.14.5.10: element i of a fragment, register
 *     i / elems), and literal coordinates read off the PTX ISA figures;
 *   - pack/unpack round trips, and packed registers hold literal words;
 *   - smma_mma_exec: one-hot A routes B's rows to D, zero A passes C through,
 *     and on random finite tiles it equals smma_gemm on the same tiles,
 *     bitwise, under exact-rn and the H100 block-FMA models;
 *   - names, lookups and errors.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/fragment.h>

#include "tap/basic.h"

#define NINSTR SMMA_MMA_INSTR_COUNT

static const smma_mma_instr all_instrs[NINSTR] = {
    SMMA_MMA_M16N8K16_BF16, SMMA_MMA_M16N8K16_F16, SMMA_MMA_M16N8K32_E4M3,
    SMMA_MMA_M16N8K32_E5M2, SMMA_MMA_M16N8K16_F16_F16,
};

static const smma_frag_layout *
layout(smma_mma_instr i, smma_operand op)
{
    const smma_frag_layout *l = smma_frag_layout_get(i, op);

    if (l == NULL)
        bail("no layout for instruction %d operand %d", (int) i, (int) op);
    return l;
}

/*
 * The PTX ISA formulas, transcribed per element index i of the fragment
 * (a0..a7 / a0..a15, b0..b3 / b0..b7, c0..c3), as written there:
 *
 * m16n8k16 .f16/.bf16 (9.7.14.5.8)
 *   A: row = groupID for 0 <= i < 2 || 4 <= i < 6, else groupID + 8;
 *      col = tig*2 + (i & 1) for i < 4, tig*2 + (i & 1) + 8 for i >= 4.
 *   B: row = tig*2 + (i & 1) for i < 2, tig*2 + (i & 1) + 8 for i >= 2;
 *      col = groupID.
 * m16n8k32 .e4m3/.e5m2 (9.7.14.5.10)
 *   A: row = groupID for 0 <= i < 4 || 8 <= i < 12, else groupID + 8;
 *      col = tig*4 + (i & 3) for i < 8, tig*4 + (i & 3) + 16 for i >= 8.
 *   B: row = tig*4 + (i & 3) for i < 4, tig*4 + (i & 3) + 16 for i >= 4;
 *      col = groupID.
 * C/D (both): row = groupID for i < 2, else groupID + 8;
 *      col = tig*2 + (i & 1).
 */
static void
ptx_coord(unsigned k, smma_operand op, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane % 4;

    if (op == SMMA_OP_C || op == SMMA_OP_D) {
        *row = i < 2 ? g : g + 8;
        *col = t * 2 + (i & 0x1);
    } else if (k == 16 && op == SMMA_OP_A) {
        *row = (i < 2 || (4 <= i && i < 6)) ? g : g + 8;
        *col = i < 4 ? t * 2 + (i & 0x1) : t * 2 + (i & 0x1) + 8;
    } else if (k == 16) {
        *row = i < 2 ? t * 2 + (i & 0x1) : t * 2 + (i & 0x1) + 8;
        *col = g;
    } else if (op == SMMA_OP_A) {
        *row = (i < 4 || (8 <= i && i < 12)) ? g : g + 8;
        *col = i < 8 ? t * 4 + (i & 0x3) : t * 4 + (i & 0x3) + 16;
    } else {
        *row = i < 4 ? t * 4 + (i & 0x3) : t * 4 + (i & 0x3) + 16;
        *col = g;
    }
}

/* Bijection, inverses, the PTX formulas, out-of-range behaviour. */
static void
check_layout(smma_mma_instr in, smma_operand op)
{
    const smma_frag_layout *l = layout(in, op);
    unsigned k = smma_mma_instr_k(in);
    unsigned char seen[32 * 32];
    unsigned lane, reg, e, row, col, r2, c2, l2, g2, e2;
    unsigned missing = 0, twice = 0, outside = 0, inv = 0, ptx = 0, bad_slot = 0;

    ok(32 * l->regs * l->elems == l->rows * l->cols && l->elems * l->elem_bits == 32 &&
           l->rows * l->cols <= sizeof(seen),
       "%s: 32 lanes x %u regs x %u elems cover %u x %u", l->name, l->regs, l->elems, l->rows,
       l->cols);
    memset(seen, 0, sizeof(seen));
    for (lane = 0; lane < 32; lane++)
        for (reg = 0; reg < l->regs; reg++)
            for (e = 0; e < l->elems; e++) {
                smma_frag_coord(l, lane, reg, e, &row, &col);
                if (row >= l->rows || col >= l->cols) {
                    outside++;
                    continue;
                }
                if (seen[row * l->cols + col]++)
                    twice++;
                if (smma_frag_slot(l, row, col, &l2, &g2, &e2) != SMMA_OK || l2 != lane ||
                    g2 != reg || e2 != e)
                    inv++;
                ptx_coord(k, op, lane, reg * l->elems + e, &r2, &c2);
                if (r2 != row || c2 != col) {
                    if (ptx++ < 5)
                        diag("%s lane %u reg %u elem %u: (%u, %u), PTX ISA says (%u, %u)",
                             l->name, lane, reg, e, row, col, r2, c2);
                }
            }
    for (row = 0; row < l->rows; row++)
        for (col = 0; col < l->cols; col++) {
            if (seen[row * l->cols + col] == 0)
                missing++;
            if (smma_frag_slot(l, row, col, &l2, &g2, &e2) != SMMA_OK || l2 >= 32 ||
                g2 >= l->regs || e2 >= l->elems) {
                bad_slot++;
                continue;
            }
            smma_frag_coord(l, l2, g2, e2, &r2, &c2);
            if (r2 != row || c2 != col)
                inv++;
        }
    ok(missing == 0 && twice == 0 && outside == 0,
       "%s is a bijection onto its tile (%u missing, %u twice, %u outside)", l->name, missing,
       twice, outside);
    ok(inv == 0 && bad_slot == 0, "%s: coord and slot are inverses (%u failures)", l->name,
       inv + bad_slot);
    ok(ptx == 0, "%s agrees with the PTX ISA formulas element by element (%u differ)", l->name,
       ptx);

    l2 = g2 = e2 = 99;
    ok(smma_frag_slot(l, l->rows, 0, &l2, &g2, &e2) == SMMA_EINVAL &&
           smma_frag_slot(l, 0, l->cols, &l2, &g2, &e2) == SMMA_EINVAL &&
           smma_frag_slot(l, 1000, 1000, &l2, &g2, &e2) == SMMA_EINVAL && l2 == 99 &&
           g2 == 99 && e2 == 99,
       "%s: slot refuses coordinates outside the tile", l->name);
    smma_frag_coord(l, 32, 0, 0, &row, &col);
    smma_frag_coord(l, 0, l->regs, 0, &r2, &c2);
    smma_frag_coord(l, 0, 0, l->elems, &l2, &g2);
    ok(row == l->rows && col == l->cols && r2 == l->rows && c2 == l->cols && l2 == l->rows &&
           g2 == l->cols,
       "%s: coord of an out-of-range slot lies outside the tile", l->name);
}

/* Literal coordinates, worked out by hand from the PTX ISA figures 79, 81,
 * 83 (m16n8k16) and 88 plus the B and C/D formulas of 9.7.14.5.10. */
struct lit {
    smma_mma_instr in;
    smma_operand op;
    unsigned lane, reg, elem, row, col;
};

static const struct lit lits[] = {
    /* m16n8k16 A: lane 0 holds (0,0),(0,1) in a0; lane 5 = group 1, tig 1:
     * a3 (reg 1, elem 1) is (9, 3); lane 14 = g3 t2: a4 (reg 2) is (3, 12);
     * lane 31 = g7 t3: a7 (reg 3, elem 1) is (15, 15). */
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_A, 0, 0, 0, 0, 0 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_A, 0, 0, 1, 0, 1 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_A, 5, 1, 1, 9, 3 },
    { SMMA_MMA_M16N8K16_F16, SMMA_OP_A, 14, 2, 0, 3, 12 },
    { SMMA_MMA_M16N8K16_F16, SMMA_OP_A, 31, 3, 1, 15, 15 },
    /* m16n8k16 B (row = k, col = n): lane 7 = g1 t3: b1 is (k 7, n 1);
     * lane 30 = g7 t2: b2 (reg 1, elem 0) is (k 12, n 7). */
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_B, 0, 0, 0, 0, 0 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_B, 7, 0, 1, 7, 1 },
    { SMMA_MMA_M16N8K16_F16, SMMA_OP_B, 30, 1, 0, 12, 7 },
    { SMMA_MMA_M16N8K16_F16, SMMA_OP_B, 31, 1, 1, 15, 7 },
    /* C/D: lane 0 c0..c3 = (0,0) (0,1) (8,0) (8,1); lane 6 = g1 t2: c3 is
     * (9, 5); lane 31: c3 is (15, 7). */
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_C, 0, 0, 0, 0, 0 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_C, 0, 1, 0, 0, 1 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_C, 0, 2, 0, 8, 0 },
    { SMMA_MMA_M16N8K16_BF16, SMMA_OP_D, 0, 3, 0, 8, 1 },
    { SMMA_MMA_M16N8K16_F16, SMMA_OP_D, 6, 3, 0, 9, 5 },
    { SMMA_MMA_M16N8K32_E4M3, SMMA_OP_C, 31, 3, 0, 15, 7 },
    { SMMA_MMA_M16N8K32_E5M2, SMMA_OP_D, 6, 2, 0, 9, 4 },
    /* m16n8k32 A: lane 0 a3 is (0, 3); lane 6 = g1 t2: a6 (reg 1, elem 2)
     * is (9, 10); lane 13 = g3 t1: a8 (reg 2, elem 0) is (3, 20); lane 31:
     * a15 (reg 3, elem 3) is (15, 31). */
    { SMMA_MMA_M16N8K32_E4M3, SMMA_OP_A, 0, 0, 3, 0, 3 },
    { SMMA_MMA_M16N8K32_E4M3, SMMA_OP_A, 6, 1, 2, 9, 10 },
    { SMMA_MMA_M16N8K32_E5M2, SMMA_OP_A, 13, 2, 0, 3, 20 },
    { SMMA_MMA_M16N8K32_E5M2, SMMA_OP_A, 31, 3, 3, 15, 31 },
    /* m16n8k32 B: lane 9 = g2 t1: b3 is (k 7, n 2); lane 18 = g4 t2: b5
     * (reg 1, elem 1) is (k 25, n 4); lane 31: b7 is (k 31, n 7). */
    { SMMA_MMA_M16N8K32_E4M3, SMMA_OP_B, 0, 0, 0, 0, 0 },
    { SMMA_MMA_M16N8K32_E4M3, SMMA_OP_B, 9, 0, 3, 7, 2 },
    { SMMA_MMA_M16N8K32_E5M2, SMMA_OP_B, 18, 1, 1, 25, 4 },
    { SMMA_MMA_M16N8K32_E5M2, SMMA_OP_B, 31, 1, 3, 31, 7 },
    /* f16 C/D (two f16 per register): lane 0 c0 c1 = (0, 0) (0, 1) in reg
     * 0, c2 c3 = (8, 0) (8, 1) in reg 1; lane 6 = g1 t2: c3 (reg 1, elem 1)
     * is (9, 5); lane 31: c3 is (15, 7). */
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_C, 0, 0, 1, 0, 1 },
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_C, 0, 1, 0, 8, 0 },
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_D, 6, 1, 1, 9, 5 },
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_D, 31, 1, 1, 15, 7 },
    /* ... and its A and B are those of the f32 form. */
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_A, 5, 2, 1, 1, 11 },
    { SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_B, 30, 1, 0, 12, 7 },
};

static void
check_literals(void)
{
    size_t i;

    for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
        const struct lit *t = &lits[i];
        const smma_frag_layout *l = layout(t->in, t->op);
        unsigned row, col, lane = 99, reg = 99, elem = 99;

        smma_frag_coord(l, t->lane, t->reg, t->elem, &row, &col);
        ok(row == t->row && col == t->col && smma_frag_slot(l, t->row, t->col, &lane, &reg,
                                                            &elem) == SMMA_OK &&
               lane == t->lane && reg == t->reg && elem == t->elem,
           "%s: lane %u reg %u elem %u <-> (%u, %u)", l->name, t->lane, t->reg, t->elem, t->row,
           t->col);
    }
}

/* Pack/unpack round trips, and literal register words. */
static void
check_pack(smma_mma_instr in, smma_operand op, tap_rng *rng)
{
    const smma_frag_layout *l = layout(in, op);
    uint32_t tile[512], back[512], regs[32 * 4];
    uint32_t mask = l->elem_bits == 32 ? 0xffffffffu : (1u << l->elem_bits) - 1;
    unsigned n = l->rows * l->cols, i, round;
    bool good = true;

    for (round = 0; round < 20; round++) {
        for (i = 0; i < n; i++)
            tile[i] = (uint32_t) tap_rng_next(rng) & mask;
        memset(regs, 0xa5, sizeof(regs));
        smma_frag_pack(l, tile, regs);
        memset(back, 0x5a, sizeof(back));
        smma_frag_unpack(l, regs, back);
        if (memcmp(tile, back, n * sizeof(*tile)) != 0)
            good = false;
    }
    ok(good, "%s: unpack(pack(tile)) == tile on 20 random tiles", l->name);

    /* Codes above elem_bits are dropped, so a register is exactly the
     * elements' low bits. */
    for (i = 0; i < n; i++)
        tile[i] = 0xffffff00u | i;
    smma_frag_pack(l, tile, regs);
    smma_frag_unpack(l, regs, back);
    good = true;
    for (i = 0; i < n; i++)
        if (back[i] != (tile[i] & mask))
            good = false;
    ok(good, "%s: pack keeps the low %u bits of each code", l->name, l->elem_bits);
}

/* Words worked out by hand: tile element (r, c) = (r * cols + c) & 0xff. */
static void
check_pack_literals(void)
{
    uint32_t tile[512], regs[32 * 4];
    const smma_frag_layout *l;
    unsigned i;

    /* k16 A, lane 5 reg 1 = (9,2) (9,3): codes 146, 147. */
    l = layout(SMMA_MMA_M16N8K16_BF16, SMMA_OP_A);
    for (i = 0; i < 256; i++)
        tile[i] = i & 0xff;
    smma_frag_pack(l, tile, regs);
    is_hex(0x00930092, regs[5 * 4 + 1],
           "mma.m16n8k16 a: lane 5 reg 1 holds (9,2) low, (9,3) high");
    /* k16 B, lane 30 reg 1 = (k 12, n 7) (k 13, n 7): codes 103, 111. */
    l = layout(SMMA_MMA_M16N8K16_F16, SMMA_OP_B);
    for (i = 0; i < 128; i++)
        tile[i] = i;
    smma_frag_pack(l, tile, regs);
    is_hex(0x006f0067, regs[30 * 2 + 1], "mma.m16n8k16 b: lane 30 reg 1 holds k 12, 13 of n 7");
    /* k32 A, lane 6 reg 1 = (9, 8..11): codes 296..299 & 0xff. */
    l = layout(SMMA_MMA_M16N8K32_E4M3, SMMA_OP_A);
    for (i = 0; i < 512; i++)
        tile[i] = i & 0xff;
    smma_frag_pack(l, tile, regs);
    is_hex(0x2b2a2928, regs[6 * 4 + 1], "mma.m16n8k32 a: lane 6 reg 1 holds (9, 8..11)");
    /* k32 B, lane 9 reg 0 = (k 4..7, n 2): codes 34, 42, 50, 58. */
    l = layout(SMMA_MMA_M16N8K32_E5M2, SMMA_OP_B);
    for (i = 0; i < 256; i++)
        tile[i] = i;
    smma_frag_pack(l, tile, regs);
    is_hex(0x3a322a22, regs[9 * 2 + 0], "mma.m16n8k32 b: lane 9 reg 0 holds k 4..7 of n 2");
    /* C, lane 6 reg 3 = (9, 5): code 77. */
    l = layout(SMMA_MMA_M16N8K32_E5M2, SMMA_OP_C);
    for (i = 0; i < 128; i++)
        tile[i] = 0x3f800000u + i;
    smma_frag_pack(l, tile, regs);
    is_hex(0x3f80004d, regs[6 * 4 + 3], "mma c: lane 6 reg 3 holds (9, 5)");
    /* f16 C, lane 6 reg 1 = (9, 4) (9, 5): codes 76, 77. */
    l = layout(SMMA_MMA_M16N8K16_F16_F16, SMMA_OP_C);
    for (i = 0; i < 128; i++)
        tile[i] = 0x3c00u + i;
    smma_frag_pack(l, tile, regs);
    is_hex(0x3c4d3c4c, regs[6 * 2 + 1], "mma f16 c: lane 6 reg 1 holds (9, 4) and (9, 5)");
}

static void
check_names(void)
{
    static const char *const names[NINSTR] = {
        "mma.m16n8k16.bf16", "mma.m16n8k16.f16", "mma.m16n8k32.e4m3", "mma.m16n8k32.e5m2",
        "mma.m16n8k16.f16.f16",
    };
    static const smma_format fmts[NINSTR] = { SMMA_BF16, SMMA_FP16, SMMA_E4M3, SMMA_E5M2,
                                              SMMA_FP16 };
    static const unsigned bits[NINSTR] = { 16, 16, 8, 8, 16 };
    smma_mma_instr got;
    smma_error err;
    unsigned i;
    char buf[64];

    for (i = 0; i < NINSTR; i++) {
        const smma_frag_layout *a = layout(all_instrs[i], SMMA_OP_A);
        const smma_frag_layout *b = layout(all_instrs[i], SMMA_OP_B);
        const smma_frag_layout *c = layout(all_instrs[i], SMMA_OP_C);
        const smma_frag_layout *d = layout(all_instrs[i], SMMA_OP_D);
        unsigned k = bits[i] == 16 ? 16 : 32;

        is_string(names[i], smma_mma_instr_name(all_instrs[i]), "instruction %u is named", i);
        snprintf(buf, sizeof(buf), "%s a", names[i]);
        ok(strcmp(a->name, buf) == 0 && a->fmt == fmts[i] && a->rows == 16 && a->cols == k &&
               a->regs == 4 && a->elems == 32 / bits[i] && a->elem_bits == bits[i],
           "%s: A is 16 x %u %s, 4 regs of %u", buf, k, smma_format_name(fmts[i]),
           32 / bits[i]);
        snprintf(buf, sizeof(buf), "%s b", names[i]);
        ok(strcmp(b->name, buf) == 0 && b->fmt == fmts[i] && b->rows == k && b->cols == 8 &&
               b->regs == 2 && b->elems == 32 / bits[i] && b->elem_bits == bits[i],
           "%s: B is %u x 8, 2 regs", buf, k);
        if (all_instrs[i] == SMMA_MMA_M16N8K16_F16_F16)
            ok(strcmp(c->name + strlen(names[i]), " c") == 0 &&
                   strcmp(d->name + strlen(names[i]), " d") == 0 && c->fmt == SMMA_FP16 &&
                   d->fmt == SMMA_FP16 && c->rows == 16 && c->cols == 8 && c->regs == 2 &&
                   c->elems == 2 && c->elem_bits == 16 && d->regs == 2 && d->elems == 2 &&
                   c->acc && d->acc && !a->acc && !b->acc,
               "%s: C and D are 16 x 8 f16, 2 regs of 2", names[i]);
        else
            ok(strcmp(c->name + strlen(names[i]), " c") == 0 &&
                   strcmp(d->name + strlen(names[i]), " d") == 0 && c->fmt == SMMA_FP32 &&
                   d->fmt == SMMA_FP32 && c->rows == 16 && c->cols == 8 && c->regs == 4 &&
                   c->elems == 1 && c->elem_bits == 32 && d->regs == 4 && d->elems == 1 &&
                   c->acc && d->acc && !a->acc && !b->acc,
               "%s: C and D are 16 x 8 fp32, 4 regs of 1", names[i]);
        ok(smma_mma_instr_from_name(names[i], &got, &err) == SMMA_OK && got == all_instrs[i],
           "'%s' is found", names[i]);
        ok(smma_mma_instr_from_name(smma_mma_instr_ptx(all_instrs[i]), &got, &err) == SMMA_OK &&
               got == all_instrs[i],
           "'%s' is found", smma_mma_instr_ptx(all_instrs[i]));
    }
    is_string("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
              smma_mma_instr_ptx(SMMA_MMA_M16N8K32_E4M3), "the PTX spelling of e4m3");
    ok(smma_mma_instr_from_name("mma.m16n8k32.e2m1", &got, &err) == SMMA_EINVAL &&
           strstr(err.msg, "mma.m16n8k32.e2m1") != NULL &&
           strstr(err.msg, "mma.m16n8k16.bf16") != NULL,
       "an unknown instruction is refused by name: %s", err.msg);
    ok(smma_mma_instr_from_name(NULL, &got, &err) == SMMA_EINVAL, "no name is refused");
    ok(smma_frag_layout_get(SMMA_MMA_INSTR_COUNT, SMMA_OP_A) == NULL &&
           smma_frag_layout_get(SMMA_MMA_M16N8K16_BF16, (smma_operand) 4) == NULL,
       "layout_get refuses out-of-range arguments");
    is_string("?", smma_mma_instr_name(SMMA_MMA_INSTR_COUNT), "an unknown instruction is '?'");
}

/* Registers of the three inputs of one instruction. */
struct regs {
    uint32_t a[32 * 4], b[32 * 2], c[32 * 4], d[32 * 4];
};

/* A one-hot: A[i][p(i)] = 1, else +0, with p a permutation-like map; B
 * nonzero finite; C = +0.  Under exact-rn D[i][j] is B[p(i)][j] exactly. */
static void
check_routing(smma_mma_instr in, tap_rng *rng)
{
    const smma_model *exact = tap_model("exact-rn");
    smma_format f = smma_mma_instr_format(in);
    unsigned k = smma_mma_instr_k(in), i, j, kk, bad = 0;
    smma_cvt cvt = smma_cvt_default();
    uint32_t a[16 * 32], b[32 * 8], c[16 * 8], d[16 * 8], one = smma_encode(f, 1.0, &cvt);
    bool f16acc = layout(in, SMMA_OP_D)->fmt == SMMA_FP16;
    struct regs r;
    smma_error err;
    int rc;

    memset(&r, 0, sizeof(r));
    for (i = 0; i < 16; i++)
        for (kk = 0; kk < k; kk++)
            a[i * k + kk] = kk == (5 * i + 3) % k ? one : 0;
    for (kk = 0; kk < k * 8; kk++) {
        uint32_t code;

        do
            code = (uint32_t) tap_rng_next(rng) &
                   (f == SMMA_BF16 || f == SMMA_FP16 ? 0xffffu : 0xffu);
        while (smma_code_is_nan(f, code) || smma_code_is_inf(f, code) ||
               smma_decode(f, code) == 0);
        b[kk] = code;
    }
    memset(c, 0, sizeof(c));
    smma_frag_pack(layout(in, SMMA_OP_A), a, r.a);
    smma_frag_pack(layout(in, SMMA_OP_B), b, r.b);
    smma_frag_pack(layout(in, SMMA_OP_C), c, r.c);
    rc = smma_mma_exec(in, exact, r.a, r.b, r.c, r.d, &err);
    smma_frag_unpack(layout(in, SMMA_OP_D), r.d, d);
    for (i = 0; i < 16; i++)
        for (j = 0; j < 8; j++) {
            uint32_t bij = b[((5 * i + 3) % k) * 8 + j];
            uint32_t want = f16acc ? bij : smma_f32_bits((float) smma_decode(f, bij));

            if (d[i * 8 + j] != want && bad++ < 10)
                diag("D[%u][%u] = %08x, want B[%u][%u] = %08x", i, j, d[i * 8 + j],
                     (5 * i + 3) % k, j, want);
        }
    ok(rc == SMMA_OK && bad == 0, "%s: one-hot A routes row p(i) of B to row i of D (%u bad)",
       smma_mma_instr_name(in), bad);

    /* A = 0: D = C for nonzero finite C. */
    memset(a, 0, sizeof(a));
    for (i = 0; i < 128; i++)
        c[i] = f16acc ? (uint32_t) (0x3c00u + (tap_rng_next(rng) & 0x3ff)) ^
                            ((i & 1) ? 0x8000u : 0)
                      : (uint32_t) (0x3f800000u + (tap_rng_next(rng) & 0x007fffff)) ^
                            ((i & 1) ? 0x80000000u : 0);
    smma_frag_pack(layout(in, SMMA_OP_A), a, r.a);
    smma_frag_pack(layout(in, SMMA_OP_C), c, r.c);
    rc = smma_mma_exec(in, exact, r.a, r.b, r.c, r.d, &err);
    smma_frag_unpack(layout(in, SMMA_OP_D), r.d, d);
    ok(rc == SMMA_OK && memcmp(c, d, sizeof(c)) == 0, "%s: A = 0 passes C through to D",
       smma_mma_instr_name(in));
    ok(smma_mma_exec(in, NULL, r.a, r.b, r.c, r.d, &err) == SMMA_EINVAL
           && smma_mma_exec(in, exact, r.a, r.b, r.c, NULL, &err) == SMMA_EINVAL,
       "%s: no model, or no D registers: refused", smma_mma_instr_name(in));
    /* The registers of C are those of D: D[lane][reg] = C[lane][reg]. */
    ok(memcmp(r.c, r.d, sizeof(r.c)) == 0, "%s: C and D share one register layout",
       smma_mma_instr_name(in));
}

/* Random finite tiles: exec equals smma_gemm on the same tiles, bitwise. */
static void
check_random(smma_mma_instr in, const char *model_name, size_t tiles, uint64_t seed)
{
    const smma_model *m = tap_model(model_name);
    smma_gemm_shape s;
    smma_error err;
    unsigned k = smma_mma_instr_k(in), i, j, kk;
    size_t t, cases = 0, bad = 0;
    int rc = SMMA_OK;

    if (smma_mma_instr_shape(in, &s, &err) != SMMA_OK)
        bail("%s", err.msg);
    for (t = 0; t < tiles && rc == SMMA_OK; t++) {
        smma_gemm_data g;
        smma_gemm_operands op;
        uint32_t btile[32 * 8], ref[128], d[128];
        struct regs r;

        memset(&r, 0, sizeof(r));
        if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, seed + t, &g, &err) != SMMA_OK)
            bail("generate: %s", err.msg);
        op = smma_gemm_data_operands(&s, &g);
        if (smma_gemm(m, &s, &op, ref, &err) != SMMA_OK)
            bail("gemm: %s", err.msg);
        /* g.a is K-major (row-major 16 x K); g.b is K-major per column. */
        for (kk = 0; kk < k; kk++)
            for (j = 0; j < 8; j++)
                btile[kk * 8 + j] = g.b[j * k + kk];
        smma_frag_pack(layout(in, SMMA_OP_A), g.a, r.a);
        smma_frag_pack(layout(in, SMMA_OP_B), btile, r.b);
        smma_frag_pack(layout(in, SMMA_OP_C), g.c, r.c);
        rc = smma_mma_exec(in, m, r.a, r.b, r.c, r.d, &err);
        if (rc != SMMA_OK) {
            diag("exec: %s", err.msg);
            smma_gemm_data_free(&g);
            break;
        }
        smma_frag_unpack(layout(in, SMMA_OP_D), r.d, d);
        for (i = 0; i < 16; i++)
            for (j = 0; j < 8; j++) {
                cases++;
                if (d[i * 8 + j] != ref[i * 8 + j] && bad++ < 10)
                    diag("seed %llu D[%u][%u]: want %08x (%.9g) got %08x (%.9g)",
                         (unsigned long long) (seed + t), i, j, ref[i * 8 + j],
                         smma_decode(s.d_fmt, ref[i * 8 + j]), d[i * 8 + j],
                         smma_decode(s.d_fmt, d[i * 8 + j]));
            }
        /* In-place: D written over C gives the same bits. */
        if (t == 0) {
            rc = smma_mma_exec(in, m, r.a, r.b, r.c, r.c, &err);
            ok(rc == SMMA_OK && memcmp(r.c, r.d, sizeof(r.d)) == 0,
               "%s %s: D may be C's registers", smma_mma_instr_name(in), model_name);
        }
        smma_gemm_data_free(&g);
    }
    ok(rc == SMMA_OK && bad == 0 && cases == tiles * 128,
       "%s under %s: exec == smma_gemm on %zu random elements (%zu tiles), %zu differ",
       smma_mma_instr_name(in), model_name, cases, tiles, bad);
}

static void
check_exec_errors(void)
{
    struct regs r;
    smma_error err;
    uint32_t before[32 * 4];

    memset(&r, 0, sizeof(r));
    memset(r.d, 0x77, sizeof(r.d));
    memcpy(before, r.d, sizeof(before));
    ok(smma_mma_exec(SMMA_MMA_M16N8K32_E4M3, tap_model("h100-fp8-promote32"), r.a, r.b, r.c, r.d,
                     &err) == SMMA_EINVAL &&
           strstr(err.msg, "h100-fp8-promote32") != NULL &&
           memcmp(before, r.d, sizeof(before)) == 0,
       "a model that cannot compute the shape is refused, D untouched: %s", err.msg);
    ok(smma_mma_exec(SMMA_MMA_INSTR_COUNT, tap_model("exact-rn"), r.a, r.b, r.c, r.d, &err) ==
           SMMA_EINVAL,
       "an unknown instruction is refused: %s", err.msg);
    ok(smma_mma_exec(SMMA_MMA_M16N8K16_BF16, NULL, r.a, r.b, r.c, r.d, &err) == SMMA_EINVAL,
       "no model is refused: %s", err.msg);
}

int
main(void)
{
    int level = test_level();
    size_t tiles = level == 0 ? 3 : level == 1 ? 400 : 5000;
    tap_rng rng;
    unsigned i, op;

    plan_lazy();
    tap_rng_seed(&rng, 20250611);
    for (i = 0; i < NINSTR; i++)
        for (op = SMMA_OP_A; op <= SMMA_OP_D; op++)
            check_layout(all_instrs[i], (smma_operand) op);
    check_literals();
    for (i = 0; i < NINSTR; i++)
        for (op = SMMA_OP_A; op <= SMMA_OP_D; op++)
            check_pack(all_instrs[i], (smma_operand) op, &rng);
    check_pack_literals();
    check_names();
    for (i = 0; i < NINSTR; i++)
        check_routing(all_instrs[i], &rng);
    check_exec_errors();

    /* Level 1: 400 tiles = 51,200 output elements (dot products of K with C)
     * per (instruction, model), 102,400 per instruction. */
    for (i = 0; i < NINSTR; i++) {
        bool fp8 = smma_mma_instr_k(all_instrs[i]) == 32;

        check_random(all_instrs[i], "exact-rn", tiles, 1000 + 7919 * i);
        check_random(all_instrs[i], fp8 ? "h100-fp8" : "h100-bf16", tiles, 500000 + 7919 * i);
    }
    return exit_status();
}
