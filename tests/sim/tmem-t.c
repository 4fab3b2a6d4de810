/*
 * tests/sim/tmem-t.c - the Tensor Memory of tcgen05 and its instructions
 * (softmma/tmem.h).
 *
 *   - the memory: addresses, the access restriction, tcgen05.alloc/dealloc;
 *   - tcgen05.ld/st: for every shape, .num (fewer at TEST_LEVEL 0) and
 *     .pack, coord is a bijection onto the footprint and slot inverts it;
 *     register counts from the ISA table; literal cells worked out by hand
 *     from CUTLASS's Copy_Traits (see each case); the executors: st then ld
 *     round trips, a patterned TMEM read back, the access rules refused;
 *   - the D, A and scale-factor placements: bijections, literal cells,
 *     errors; tcgen05.cp: bijection of (row, byte, copy) onto the written
 *     bytes, literal lanes, an executed copy of the "128x4" scale layout
 *     (FACTS.md section 4) that the scale placement then reads back;
 *   - the tcgen05.mma executor: a hand-checked product (A a selection matrix,
 *     so D[m][n] = B[m % 16][n]); random tiles of every kind and format pair
 *     listed in the plan, packed into simulated shared memory and TMEM by
 *     this file, executed, and compared bit for bit with smma_gemm on the
 *     same codes under exact-rn and the B200 block-FMA models; the
 *     duplication of scale factors made visible; errors;
 *   - PTX: literal texts, the API's refusals with messages, and with CUDA
 *     every variant assembled by ptxas for sm_100a, refused for sm_90a, and
 *     illegal selectors refused by ptxas too;
 *   - the drawable form: labels of a few cells, NOT_MINE, EINVAL messages.
 */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/tc05_addr.h>
#include <softmma/tcgen05.h>
#include <softmma/tmem.h>

#include "ptxas.h"
#include "tap/basic.h"

static smma_tmem *
new_tmem(void)
{
    smma_tmem *t = malloc(sizeof(*t));

    if (t == NULL)
        sysbail("cannot allocate TMEM");
    smma_tmem_init(t);
    return t;
}

/* ---- the memory -------------------------------------------------------------- */

static void
test_memory(void)
{
    smma_tmem *t = new_tmem();
    smma_error err = { "" };
    uint32_t a1 = 0, a2 = 0, a3 = 0, a4 = 0;

    is_hex(0x00210013, smma_tmem_addr(33, 19), "address of lane 33 column 19");
    is_int(33, smma_tmem_addr_lane(0x00210013), "... lane back");
    is_int(19, smma_tmem_addr_col(0x00210013), "... column back");
    is_int(SMMA_OK, smma_tmem_addr_check(smma_tmem_addr(127, 511), &err), "lane 127 col 511");
    is_int(SMMA_EINVAL, smma_tmem_addr_check(smma_tmem_addr(128, 0), &err), "lane 128 refused");
    is_string("TMEM address 0x00800000: lane 128 is not below 128", err.msg, "... message");
    is_int(SMMA_EINVAL, smma_tmem_addr_check(smma_tmem_addr(0, 512), &err), "col 512 refused");
    is_int(96, smma_tmem_warp_first_lane(7), "warp 7 (warp 3 of its warpgroup): lanes 96..127");
    is_int(32, smma_tmem_warp_first_lane(1), "warp 1: lanes 32..63");

    is_int(SMMA_OK, smma_tmem_alloc(t, 32, &a1, &err), "alloc 32");
    is_int(SMMA_OK, smma_tmem_alloc(t, 64, &a2, &err), "alloc 64");
    is_int(SMMA_OK, smma_tmem_alloc(t, 32, &a3, &err), "alloc 32 again");
    ok(a1 == 0 && a2 == 64 && a3 == 32, "allocations at columns 0, 64 (aligned), 32 (got %lu, "
       "%lu, %lu)", (unsigned long) a1, (unsigned long) a2, (unsigned long) a3);
    is_int(SMMA_ENOMEM, smma_tmem_alloc(t, 512, &a4, &err), "alloc 512 does not fit");
    is_int(SMMA_EINVAL, smma_tmem_alloc(t, 48, &a4, &err), "alloc 48 refused");
    is_string("tcgen05.alloc: nCols 48 is not a power of two in [32, 512]", err.msg,
              "... message");
    is_int(SMMA_EINVAL, smma_tmem_dealloc(t, a2, 32, &err), "dealloc with the wrong size");
    is_int(SMMA_OK, smma_tmem_dealloc(t, a2, 64, &err), "dealloc 64");
    is_int(SMMA_EINVAL, smma_tmem_dealloc(t, a2, 64, &err), "dealloc twice refused");
    is_int(SMMA_OK, smma_tmem_alloc(t, 256, &a4, &err), "alloc 256 after the frees");
    is_hex(256, a4, "... at column 256");
    is_int(SMMA_EINVAL, smma_tmem_dealloc(t, smma_tmem_addr(0, 512), 32, &err),
           "dealloc at column 512 refused");
    is_string("tcgen05.dealloc: 0x00000200 with 32 columns is not an allocation", err.msg,
              "... message");
    ok(smma_tmem_dealloc(t, a1, 32, &err) == SMMA_OK &&
           smma_tmem_alloc(t, 32, &a1, &err) == SMMA_OK && a1 == 0,
       "a freed unit is free again: 32 columns at column 0 (got %lu)", (unsigned long) a1);
    free(t);
    t = new_tmem();
    ok(smma_tmem_alloc(t, 128, &a1, &err) == SMMA_OK && smma_tmem_alloc(t, 32, &a2, &err) ==
           SMMA_OK && a1 == 0 && a2 == 128,
       "alloc 128 at column 0, then 32 after all four of its units: column 128 (got %lu)",
       (unsigned long) a2);
    free(t);
}

/* ---- tcgen05.ld / st layouts ---------------------------------------------------------- */

static const unsigned max_num[SMMA_TMEM_SHAPE_COUNT] = { 128, 128, 64, 32, 128 };
static const unsigned regs_per_num[SMMA_TMEM_SHAPE_COUNT] = { 1, 1, 2, 4, 1 };
static const unsigned cols_per_num[SMMA_TMEM_SHAPE_COUNT] = { 1, 2, 4, 8, 1 };

static smma_tmem_ldst
mkldst(smma_tmem_shape s, unsigned num, bool pack, unsigned half_off)
{
    smma_tmem_ldst op;

    op.shape = s;
    op.num = num;
    op.pack = pack;
    op.half_off = half_off;
    return op;
}

static const char *
ldst_name(const smma_tmem_ldst *op, char *buf, size_t n)
{
    snprintf(buf, n, ".%s.x%u%s", smma_tmem_shape_name(op->shape), op->num,
             op->pack ? ".pack" : "");
    return buf;
}

/* Every (thread, reg, elem) reaches a distinct cell of the footprint, every
 * cell of the footprint is reached, and slot inverts coord. */
static bool
ldst_bijection(const smma_tmem_ldst *op)
{
    unsigned lanes = smma_tmem_ldst_lanes(op), cols = smma_tmem_ldst_cols(op);
    unsigned regs = smma_tmem_ldst_regs(op), nel = smma_tmem_ldst_elems(op);
    unsigned char *seen = calloc((size_t) lanes * cols, 1);
    unsigned t, r, e, dl, dc, t2, r2, e2, bad = 0, count = 0, used = 0;
    char name[64];

    if (seen == NULL)
        sysbail("out of memory");
    ldst_name(op, name, sizeof(name));
    for (t = 0; t < 32; t++)
        for (r = 0; r < regs; r++)
            for (e = 0; e < nel; e++) {
                if (smma_tmem_ldst_coord(op, t, r, e, &dl, &dc) != SMMA_OK || dl >= lanes
                    || dc >= cols) {
                    if (bad++ < 5)
                        diag("%s: T%u r%u e%u goes nowhere", name, t, r, e);
                    continue;
                }
                count++;
                if (seen[dl * cols + dc]++ && bad++ < 5)
                    diag("%s: (%u, %u) reached twice", name, dl, dc);
                if ((smma_tmem_ldst_slot(op, dl, dc, &t2, &r2, &e2) != SMMA_OK || t2 != t
                     || r2 != r || e2 != e) && bad++ < 5)
                    diag("%s: slot(%u, %u) is not T%u r%u e%u", name, dl, dc, t, r, e);
            }
    for (dl = 0; dl < lanes; dl++)
        for (dc = 0; dc < cols; dc++) {
            bool in = smma_tmem_ldst_slot(op, dl, dc, &t2, &r2, &e2) == SMMA_OK;

            used += seen[dl * cols + dc] != 0;
            if (in != (seen[dl * cols + dc] != 0) && bad++ < 5)
                diag("%s: slot of (%u, %u) disagrees with coord", name, dl, dc);
        }
    /* The footprint is all lanes x all columns except the gap of .16x32bx2. */
    if (used != 32 * regs * nel || count != used)
        bad++;
    free(seen);
    return bad == 0;
}

static void
test_ldst_layouts(void)
{
    unsigned s, num, bad_bij = 0, bad_regs = 0, variants = 0;
    bool quick = test_level() == 0;
    int p;

    for (s = 0; s < SMMA_TMEM_SHAPE_COUNT; s++)
        for (num = 1; num <= max_num[s]; num *= 2)
            for (p = 0; p < 2; p++) {
                unsigned w = cols_per_num[s] * num * (p ? 2 : 1);
                smma_tmem_ldst op = mkldst((smma_tmem_shape) s, num, p, 0);

                if (quick && num > 8 && num != max_num[s])
                    continue;
                if (s == SMMA_TMEM_16X32BX2)
                    op.half_off = w + (num % 3); /* a gap now and then */
                if (op.half_off + w > 512)
                    op.half_off = w;
                variants++;
                if (smma_tmem_ldst_regs(&op) != regs_per_num[s] * num)
                    bad_regs++;
                if (!ldst_bijection(&op))
                    bad_bij++;
            }
    ok(bad_bij == 0, "tcgen05.ld/st: %u variants, each a bijection of (thread, reg, elem) onto "
       "its TMEM footprint, slot the inverse of coord", variants);
    ok(bad_regs == 0, "registers per thread as the ISA table: num, num, 2 num, 4 num, num");
}

static void
is_cell(const smma_tmem_ldst *op, unsigned t, unsigned r, unsigned e, unsigned wl,
        unsigned wc, const char *why)
{
    unsigned dl = 999, dc = 999;
    char name[64];

    smma_tmem_ldst_coord(op, t, r, e, &dl, &dc);
    if (!ok(dl == wl && dc == wc, "%s T%u r%u%s holds lane %u column %u (%s)",
            ldst_name(op, name, sizeof(name)), t, r, e ? " elem 1" : "", wl, wc, why))
        diag("  got lane %u column %u", dl, dc);
}

static void
test_ldst_literals(void)
{
    smma_tmem_ldst op;
    smma_error err = { "" };
    unsigned t, r, e;

    op = mkldst(SMMA_TMEM_32X32B, 2, false, 0);
    is_cell(&op, 5, 1, 0, 5, 1, "thread t reads lane t, register r column r: Figure 183");
    /* CUTLASS 16dp64b1x: DstLayout ((2,2,8),32):((512,32,64),1) in bits of
     * the 16 x 64 tile: thread 5 = (1,0,1): bit 512 + 64 = lane 1 + 8 = 9,
     * column 0; thread 6 = (0,1,1): bit 32 + 64: lane 1, column 1. */
    op = mkldst(SMMA_TMEM_16X64B, 1, false, 0);
    is_cell(&op, 5, 0, 0, 9, 0, "CUTLASS 16dp64b1x");
    is_cell(&op, 6, 0, 0, 1, 1, "CUTLASS 16dp64b1x");
    /* 16dp128b1x: ((4,8),(32,2)):((32,128),(1,1024)), 128 bits per lane:
     * thread 5 = (1,1): bit 32 + 128 -> lane 1 column 1; register 1 adds
     * 1024 bits = 8 lanes. */
    op = mkldst(SMMA_TMEM_16X128B, 1, false, 0);
    is_cell(&op, 5, 1, 0, 9, 1, "CUTLASS 16dp128b1x");
    /* 16dp256b1x: ((4,8),(64,2)):((64,256),(1,2048)): thread 5 = (1,1):
     * bits 64 + 256 -> lane 1, columns 2-3; register 2 = value 64 (v1 = 1)
     * adds 2048 bits = 8 lanes: lane 9 column 2.  2x: register 5 = (v0 = 32,
     * v1 = 0, v2 = 1): the third mode adds 256 bits = 8 columns. */
    op = mkldst(SMMA_TMEM_16X256B, 1, false, 0);
    is_cell(&op, 5, 2, 0, 9, 2, "CUTLASS 16dp256b1x");
    op = mkldst(SMMA_TMEM_16X256B, 2, false, 0);
    is_cell(&op, 3, 5, 0, 0, 15, "CUTLASS 16dp256b2x");
    /* 16dp32b (.16x32bx2) 2x: ((16,2),64):((128,64),1): threads 16-31 take
     * the second half, which starts at immHalfSplitoff. */
    op = mkldst(SMMA_TMEM_16X32BX2, 2, false, 4);
    is_cell(&op, 17, 1, 0, 1, 5, "second half at immHalfSplitoff 4");
    is_cell(&op, 1, 1, 0, 1, 1, "first half");
    /* .pack::16b: CUTLASS 16dp256b1x_16b ValID ((16,32),16):((1,32),DP):
     * 16 register bits per TMEM column, so register column c becomes
     * columns 2c, 2c + 1. */
    op = mkldst(SMMA_TMEM_32X32B, 1, true, 0);
    is_cell(&op, 7, 0, 1, 7, 1, "pack: element 1 from column 1");
    op = mkldst(SMMA_TMEM_16X256B, 1, true, 0);
    is_cell(&op, 5, 2, 1, 9, 5, "pack: column 2 becomes 4 and 5");
    is_int(2 * 8, smma_tmem_ldst_cols(&op), ".16x256b.x1.pack spans 16 columns");

    /* Register counts and footprints from the ISA table. */
    op = mkldst(SMMA_TMEM_16X256B, 32, false, 0);
    is_int(128, smma_tmem_ldst_regs(&op), ".16x256b.x32: 128 registers");
    op = mkldst(SMMA_TMEM_16X128B, 64, false, 0);
    is_int(128, smma_tmem_ldst_regs(&op), ".16x128b.x64: 128 registers");
    op = mkldst(SMMA_TMEM_16X32BX2, 8, false, 20);
    is_int(28, smma_tmem_ldst_cols(&op), ".16x32bx2.x8 with offset 20 spans 28 columns");
    is_int(SMMA_EINVAL, smma_tmem_ldst_slot(&op, 0, 10, &t, &r, &e), "... not the gap 8-19");

    /* Errors. */
    op = mkldst(SMMA_TMEM_16X64B, 256, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ldst_check(&op, &err), ".16x64b.x256 refused");
    is_string("tcgen05.ld/st .16x64b: .x256 is not a valid .num (valid: .x1, .x2, .x4, ... "
              ".x128)", err.msg, "... message");
    op = mkldst(SMMA_TMEM_16X256B, 64, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ldst_check(&op, &err), ".16x256b.x64 refused");
    is_string("tcgen05.ld/st .16x256b: .x64 is not a valid .num (valid: .x1, .x2, .x4, ... "
              ".x32)", err.msg, "... message");
    op = mkldst(SMMA_TMEM_32X32B, 3, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ldst_check(&op, &err), ".32x32b.x3 refused");
    is_int(0, smma_tmem_ldst_regs(&op), "... and has no register count");
    op = mkldst(SMMA_TMEM_16X32BX2, 4, false, 2);
    is_int(SMMA_EINVAL, smma_tmem_ldst_check(&op, &err), ".16x32bx2.x4 with halves overlapping");
    is_string("tcgen05.ld/st .16x32bx2.x4: immHalfSplitoff 2 must be at least 4 (the halves "
              "must not overlap) and leave both halves inside the 512 columns", err.msg,
              "... message");
    op = mkldst(SMMA_TMEM_16X64B, 4, false, 8);
    is_int(SMMA_EINVAL, smma_tmem_ldst_check(&op, &err), "immHalfSplitoff on .16x64b refused");
    is_int(SMMA_EINVAL, smma_tmem_ldst_coord(&op, 0, 0, 0, &t, &r), "... coord refuses it");
}

static void
test_ldst_exec(void)
{
    smma_tmem *t = new_tmem(), *u = new_tmem();
    smma_error err = { "" };
    uint32_t regs[32 * 128], back[32 * 128];
    unsigned s, num, lane, col, i, bad = 0, bad_rt = 0;
    smma_tmem_ldst op;
    tap_rng rng;
    int p;

    for (lane = 0; lane < 128; lane++)
        for (col = 0; col < 512; col++)
            t->cell[lane][col] = lane << 16 | col;
    /* A patterned TMEM read by warp 6 (lanes 64-95) at lane 64 + 16 (the
     * upper half of its partition), column 100. */
    for (s = 0; s < SMMA_TMEM_SHAPE_COUNT; s++) {
        unsigned dl, dc, th, r, e, lanes;
        uint32_t taddr;

        op = mkldst((smma_tmem_shape) s, 4, false, s == SMMA_TMEM_16X32BX2 ? 8 : 0);
        lanes = smma_tmem_ldst_lanes(&op);
        taddr = smma_tmem_addr(lanes == 32 ? 64 : 80, 100);
        if (smma_tmem_ld(&op, t, 6, taddr, regs, &err) != SMMA_OK) {
            bad++;
            diag("%s", err.msg);
            continue;
        }
        for (th = 0; th < 32; th++)
            for (r = 0; r < smma_tmem_ldst_regs(&op); r++) {
                e = 0;
                smma_tmem_ldst_coord(&op, th, r, e, &dl, &dc);
                if (regs[th * smma_tmem_ldst_regs(&op) + r]
                    != ((smma_tmem_addr_lane(taddr) + dl) << 16 | (100 + dc)))
                    bad++;
            }
    }
    ok(bad == 0, "tcgen05.ld: each register holds the cell its coordinate names");

    /* st then ld gives the registers back; with .unpack the high halves of
     * the cells are 0 and .pack ignores them. */
    tap_rng_seed(&rng, 0x746d656du);
    for (s = 0; s < SMMA_TMEM_SHAPE_COUNT; s++)
        for (num = 1; num <= max_num[s]; num *= 4)
            for (p = 0; p < 2; p++) {
                unsigned n;
                uint32_t taddr = smma_tmem_addr(32 + (s == 0 ? 0 : 16), 7);

                op = mkldst((smma_tmem_shape) s, num, p, 0);
                if (s == SMMA_TMEM_16X32BX2)
                    op.half_off = smma_tmem_ldst_elems(&op) * num;
                if (smma_tmem_ldst_cols(&op) + 7 > 512)
                    continue;
                n = 32 * smma_tmem_ldst_regs(&op);
                for (i = 0; i < n; i++)
                    regs[i] = (uint32_t) tap_rng_next(&rng);
                smma_tmem_init(u);
                if (smma_tmem_st(&op, u, 1, taddr, regs, &err) != SMMA_OK
                    || smma_tmem_ld(&op, u, 1, taddr, back, &err) != SMMA_OK) {
                    diag("%s", err.msg);
                    bad_rt++;
                    continue;
                }
                for (i = 0; i < n; i++)
                    if (back[i] != regs[i])
                        bad_rt++;
                if (p)
                    for (lane = 0; lane < 128; lane++)
                        for (col = 0; col < 512; col++)
                            if (u->cell[lane][col] >> 16)
                                bad_rt++;
            }
    ok(bad_rt == 0, "tcgen05.st then tcgen05.ld returns the registers (every shape, .num "
       "1, 4, 16, 64, with and without pack; .unpack writes 0 in bits 31-16)");

    op = mkldst(SMMA_TMEM_32X32B, 1, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ld(&op, t, 1, smma_tmem_addr(0, 0), regs, &err),
           "warp 1 may not read lanes 0-31");
    is_string("tcgen05.ld: warp 1 may access lanes 32..63 only; this access covers lanes 0..31",
              err.msg, "... message");
    is_int(SMMA_OK, smma_tmem_ld(&op, t, 5, smma_tmem_addr(32, 0), regs, &err),
           "warp 5 (warp 1 of the second warpgroup) reads lanes 32-63");
    op = mkldst(SMMA_TMEM_32X32B, 16, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ld(&op, t, 0, smma_tmem_addr(0, 500), regs, &err),
           "16 columns from column 500 pass column 511");
    is_string("tcgen05.ld: columns 500..515 pass the last column 511", err.msg, "... message");
    {
        unsigned dl, dc, nr = smma_tmem_ldst_regs(&op), ne = smma_tmem_ldst_elems(&op);

        ok(smma_tmem_ldst_coord(&op, 31, nr - 1, ne - 1, &dl, &dc) == SMMA_OK
               && smma_tmem_ldst_coord(&op, 32, 0, 0, &dl, &dc) == SMMA_EINVAL
               && smma_tmem_ldst_coord(&op, 0, nr, 0, &dl, &dc) == SMMA_EINVAL
               && smma_tmem_ldst_coord(&op, 0, 0, ne, &dl, &dc) == SMMA_EINVAL,
           "coord takes lane 31, register %u, element %u; refuses lane 32, register %u, "
           "element %u", nr - 1, ne - 1, nr, ne);
    }
    is_string("?", smma_tmem_shape_name(SMMA_TMEM_SHAPE_COUNT), "no name past the last shape");
    op = mkldst(SMMA_TMEM_16X64B, 1, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_st(&op, u, 0, smma_tmem_addr(20, 0), regs, &err),
           "a 16-lane access from lane 20 crosses the partition");
    op = mkldst(SMMA_TMEM_32X32B, 1, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_st(&op, u, 0, 0, NULL, &err), "st without registers refused");
    is_string("tcgen05.st: no TMEM or registers given", err.msg, "... message");
    is_int(SMMA_EINVAL, smma_tmem_ld(&op, t, 0, 0, NULL, &err), "ld without registers refused");
    op = mkldst(SMMA_TMEM_32X32B, 8, false, 0);
    is_int(SMMA_EINVAL, smma_tmem_ld(&op, t, 0, smma_tmem_addr(0, 508), regs, &err),
           "columns 508..515 refused");
    free(t);
    free(u);
}

/* ---- D, A and scale placement ------------------------------------------------------ */

/* (m, n) -> (cta, lane, col) is a bijection from M x N onto the cells that
 * d_elem accepts, and d_elem inverts it. */
static bool
d_bijection(const smma_tmem_dlayout *l)
{
    static unsigned char seen[2][128][512];
    unsigned m, n, cta, lane, col, m2, n2, bad = 0, cells = 0;

    memset(seen, 0, sizeof(seen));
    for (m = 0; m < l->m; m++)
        for (n = 0; n < l->n; n++) {
            if (smma_tmem_d_coord(l, m, n, &cta, &lane, &col) != SMMA_OK || cta >= l->cta_group
                || lane >= 128 || col >= 512) {
                bad++;
                continue;
            }
            if (seen[cta][lane][col]++)
                bad++;
            if (smma_tmem_d_elem(l, cta, lane, col, &m2, &n2) != SMMA_OK || m2 != m || n2 != n)
                bad++;
        }
    for (cta = 0; cta < l->cta_group; cta++)
        for (lane = 0; lane < 128; lane++)
            for (col = 0; col < 512; col++)
                if ((smma_tmem_d_elem(l, cta, lane, col, &m2, &n2) == SMMA_OK)
                    != (seen[cta][lane][col] != 0))
                    bad++;
                else
                    cells += seen[cta][lane][col];
    if (bad)
        diag("D M=%u N=%u cta_group::%u at 0x%08lx: %u faults", l->m, l->n, l->cta_group,
             (unsigned long) l->addr, bad);
    return bad == 0 && cells == l->m * l->n;
}

static void
test_d_layout(void)
{
    static const unsigned ms[4] = { 64, 128, 128, 256 }, cgs[4] = { 1, 1, 2, 2 };
    static const unsigned ns[] = { 8, 16, 48, 256 };
    smma_tmem_dlayout l;
    smma_error err = { "" };
    unsigned i, j, cta = 9, lane = 999, col = 999, m = 0, n = 0, count = 0, bad = 0;

    for (i = 0; i < 4; i++)
        for (j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
            if (cgs[i] == 2 && ns[j] % 16)
                continue;
            l.m = ms[i];
            l.n = ns[j];
            l.cta_group = cgs[i];
            l.addr = smma_tmem_addr(0, 256 - ns[j]);
            count++;
            bad += !d_bijection(&l);
            if (ms[i] == 64) {
                l.addr = smma_tmem_addr(16, 3);
                count++;
                bad += !d_bijection(&l);
            }
        }
    ok(bad == 0, "D: %u layouts (M 64/128/128x2/256, several N, lane 0 and 16), each a "
       "bijection from M x N onto its cells", count);

    l.m = 64;
    l.n = 32;
    l.cta_group = 1;
    l.addr = smma_tmem_addr(16, 40);
    smma_tmem_d_coord(&l, 17, 5, &cta, &lane, &col);
    ok(cta == 0 && lane == 49 && col == 45,
       "M=64 (Layout F) at lane 16: D[17][5] in lane 16 + 32 + 1 = 49, column 45");
    is_int(SMMA_EINVAL, smma_tmem_d_elem(&l, 0, 35, 40, &m, &n),
           "... lane 35 (the unused half of partition 1) holds nothing");
    l.m = 128;
    l.n = 32;
    l.cta_group = 2;
    l.addr = smma_tmem_addr(0, 0);
    smma_tmem_d_coord(&l, 70, 20, &cta, &lane, &col);
    ok(cta == 1 && lane == 70 && col == 4,
       "M=128 cta_group::2 (Layout B): D[70][20] in CTA 1, lane 6 + 64, column 20 - 16");
    l.m = 256;
    smma_tmem_d_coord(&l, 200, 31, &cta, &lane, &col);
    ok(cta == 1 && lane == 72 && col == 31, "M=256 (Layout A): D[200][31] in CTA 1 lane 72");

    l.m = 64;
    l.cta_group = 2;
    is_int(SMMA_EINVAL, smma_tmem_d_check(&l, &err), "M=64 with cta_group::2 refused");
    is_string("D: M 64 with cta_group::2 has no modelled data-path layout (cta_group::1: 64, "
              "128; cta_group::2: 128, 256)", err.msg, "... message");
    l.m = 128;
    l.cta_group = 1;
    l.addr = smma_tmem_addr(16, 0);
    is_int(SMMA_EINVAL, smma_tmem_d_check(&l, &err), "M=128 at lane 16 refused");
    is_string("D address lane 16: M = 128 with cta_group::1 needs lane 0", err.msg,
              "... message");
    for (i = 0; i < 2; i++) {
        /* N = 24 with cta_group::2 (M 256), N = 12 with cta_group::1 (M 128) */
        l.m = i == 0 ? 256 : 128;
        l.n = i == 0 ? 24 : 12;
        l.cta_group = i == 0 ? 2 : 1;
        l.addr = 0;
        is_int(SMMA_EINVAL, smma_tmem_d_check(&l, &err), "N=%u with cta_group::%u refused", l.n,
               l.cta_group);
        is_string(i == 0 ? "D: N 24 is not a multiple of 16 in [16, 256] (cta_group::2)"
                         : "D: N 12 is not a multiple of 8 in [8, 256] (cta_group::1)",
                  err.msg, "... message");
    }
    l.n = 16;
    ok(smma_tmem_d_coord(&l, 127, 15, &cta, &lane, &col) == SMMA_OK
           && smma_tmem_d_coord(&l, 128, 0, &cta, &lane, &col) == SMMA_EINVAL
           && smma_tmem_d_coord(&l, 0, 16, &cta, &lane, &col) == SMMA_EINVAL,
       "D coord takes (127, 15) of 128 x 16, refuses row 128 and column 16");
    l.m = 128;
    l.n = 256;
    l.cta_group = 1;
    l.addr = smma_tmem_addr(0, 257);
    is_int(SMMA_EINVAL, smma_tmem_d_check(&l, &err), "columns 257..512 refused");
}

static void
test_a_layout(void)
{
    static const unsigned bits[3] = { 16, 8, 4 };
    static const unsigned ms[3] = { 64, 128, 256 }, cgs[3] = { 1, 1, 2 };
    smma_tmem_alayout l;
    smma_error err = { "" };
    unsigned i, j, m, k, cta, lane, col, bit, m2, k2, bad = 0;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            unsigned char *seen = calloc(2 * 128 * 512 * 32, 1);

            if (seen == NULL)
                sysbail("out of memory");
            l.m = ms[i];
            l.k = 512 / bits[j];        /* K = 32, 64, 128: two to four cells */
            l.cta_group = cgs[i];
            l.elem_bits = bits[j];
            l.addr = smma_tmem_addr(ms[i] == 64 ? 16 : 0, 9);
            for (m = 0; m < l.m; m++)
                for (k = 0; k < l.k; k++) {
                    if (smma_tmem_a_coord(&l, m, k, &cta, &lane, &col, &bit) != SMMA_OK) {
                        bad++;
                        continue;
                    }
                    if (seen[((cta * 128 + lane) * 512 + col) * 32 + bit]++)
                        bad++;
                    if (smma_tmem_a_elem(&l, cta, lane, col, bit, &m2, &k2) != SMMA_OK
                        || m2 != m || k2 != k)
                        bad++;
                }
            free(seen);
        }
    ok(bad == 0, "A in TMEM: M 64/128/256, 16-, 8- and 4-bit elements: coord injective, "
       "elem its inverse");
    l.m = 128;
    l.k = 16;
    l.cta_group = 1;
    l.elem_bits = 16;
    l.addr = smma_tmem_addr(0, 40);
    smma_tmem_a_coord(&l, 3, 5, &cta, &lane, &col, &bit);
    ok(lane == 3 && col == 42 && bit == 16, "16-bit A[3][5]: lane 3, column 40 + 2, bits 31-16");
    l.k = 64;
    l.elem_bits = 4;
    smma_tmem_a_coord(&l, 3, 9, &cta, &lane, &col, &bit);
    ok(col == 41 && bit == 4, "4-bit A[3][9]: column 41, bits 7-4");
    ok(smma_tmem_a_coord(&l, 127, 63, &cta, &lane, &col, &bit) == SMMA_OK
           && smma_tmem_a_coord(&l, 128, 0, &cta, &lane, &col, &bit) == SMMA_EINVAL
           && smma_tmem_a_coord(&l, 0, 64, &cta, &lane, &col, &bit) == SMMA_EINVAL,
       "A[127][63] of a 128 x 64 A has a cell; row 128 and column 64 none");
    ok(smma_tmem_a_elem(&l, 0, 127, 40, 0, &m2, &k2) == SMMA_OK
           && smma_tmem_a_elem(&l, 1, 3, 40, 0, &m2, &k2) == SMMA_EINVAL
           && smma_tmem_a_elem(&l, 0, 128, 40, 0, &m2, &k2) == SMMA_EINVAL,
       "A in TMEM with cta_group::1: lane 127 of CTA 0 holds a row, CTA 1 and lane 128 none");
    l.cta_group = 2;
    is_int(SMMA_EINVAL, smma_tmem_a_check(&l, &err), "A in TMEM, M=128 cta_group::2 refused");
    is_string("A in TMEM with M = 128 and cta_group::2 (A duplicated across lane halves) is "
              "not modelled", err.msg, "... message");
}

/* The scale address operand with the SF_ID in bits 31-30 (CUTLASS's
 * convention, smma_tc05_sf_taddr): accepted where it agrees with the
 * descriptor's SF_ID or is 0, refused where it disagrees. */
static void
test_sf_addr_id(void)
{
    smma_tmem_sflayout l = { 128, 1, 2, 0 };
    smma_error err = { "" };
    unsigned lane, col, byte, lane2, col2, byte2;

    l.addr = smma_tc05_sf_taddr(smma_tmem_addr(0, 40), 2);
    ok(l.addr == 0x80000028u && smma_tc05_sf_taddr_id(l.addr) == 2
       && smma_tc05_sf_taddr_base(l.addr) == smma_tmem_addr(0, 40),
       "smma_tc05_sf_taddr: SF_ID 2 in bits 31-30 of column 40, and its inverse");
    is_int(SMMA_OK, smma_tmem_sf_check(&l, &err),
           "scale address with SF_ID bits 2, descriptor SF_ID 2: accepted");
    smma_tmem_sf_coord(&l, 37, 0, 3, &lane, &col, &byte);
    l.addr = smma_tmem_addr(0, 40);
    smma_tmem_sf_coord(&l, 37, 0, 3, &lane2, &col2, &byte2);
    ok(lane == lane2 && col == col2 && byte == byte2 && byte == 2 && col == 41,
       "... and it reads the same cell as the address without the bits");
    l.addr = smma_tc05_sf_taddr(smma_tmem_addr(0, 40), 1);
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err),
           "scale address with SF_ID bits 1, descriptor SF_ID 2: refused");
    is_string("scale factors: address 0x40000028 carries SF_ID 1 in bits 31-30 but the "
              "instruction descriptor's SF_ID is 2 (either field may be the one the hardware "
              "reads, so they must agree)", err.msg, "... message");
    l.sf_id = 0;
    l.addr = smma_tc05_sf_taddr(smma_tmem_addr(0, 40), 0);
    is_int(SMMA_OK, smma_tmem_sf_check(&l, &err),
           "scale address with SF_ID bits 0, descriptor SF_ID 0: accepted");
    l.addr = smma_tc05_sf_taddr(smma_tmem_addr(0, 40), 3);
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err),
           "scale address with SF_ID bits 3, descriptor SF_ID 0: refused");
    l.sf_id = 3;
    l.addr = smma_tc05_sf_taddr(smma_tmem_addr(4, 40), 3);
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err),
           "SF_ID bits that agree do not excuse a lane field of 4 below them");
}

static void
test_sf_layout(void)
{
    static const unsigned rows[3] = { 128, 256, 100 };
    smma_tmem_sflayout l;
    smma_error err = { "" };
    unsigned vec, id, i, r, kb, p, lane, col, byte, r2, kb2, p2, bad = 0, n = 0;

    for (vec = 1; vec <= 4; vec *= 2)
        for (id = 0; id < 4; id++)
            for (i = 0; i < 3; i++) {
                unsigned char seen[128][16][4];

                l.rows = rows[i];
                l.vec = vec;
                l.sf_id = id;
                l.addr = smma_tmem_addr(0, 500 - 8);
                if (smma_tmem_sf_check(&l, NULL) != SMMA_OK)
                    continue;
                n++;
                memset(seen, 0, sizeof(seen));
                for (r = 0; r < l.rows; r++)
                    for (kb = 0; kb < vec; kb++)
                        for (p = 0; p < 4; p++) {
                            if (smma_tmem_sf_coord(&l, r, kb, p, &lane, &col, &byte)
                                != SMMA_OK || col < 492 || col >= 508 || byte >= 4) {
                                bad++;
                                continue;
                            }
                            if (lane / 32 != p || seen[lane][col - 492][byte]++)
                                bad++;
                            if (smma_tmem_sf_elem(&l, lane, col, byte, &r2, &kb2, &p2)
                                != SMMA_OK || r2 != r || kb2 != kb || p2 != p)
                                bad++;
                        }
                for (lane = 0; lane < 128; lane++)
                    for (col = 492; col < 508; col++)
                        for (byte = 0; byte < 4; byte++)
                            if ((smma_tmem_sf_elem(&l, lane, col, byte, &r2, &kb2, &p2)
                                 == SMMA_OK) != (seen[lane][col - 492][byte] != 0))
                                bad++;
            }
    ok(bad == 0 && n == 21, "scale factors: %u layouts (1X ids 0-3, 2X ids 0 and 2, 4X id 0; "
       "128, 256, 100 rows): a bijection onto their bytes, copy p in lanes 32p..32p+31", n);
    l.rows = 128;
    l.vec = 1;
    l.sf_id = 2;
    l.addr = smma_tmem_addr(0, 8);
    smma_tmem_sf_coord(&l, 37, 0, 3, &lane, &col, &byte);
    ok(lane == 101 && col == 9 && byte == 2,
       "1X, SF_ID 2: row 37, copy 3 in lane 96 + 5, column 8 + 1, byte 2");
    l.vec = 4;
    l.sf_id = 0;
    smma_tmem_sf_coord(&l, 127, 3, 0, &lane, &col, &byte);
    ok(lane == 31 && col == 11 && byte == 3, "4X: row 127, block 3, copy 0 in lane 31, "
       "column 11, byte 3");
    l.sf_id = 2;
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err), "4X with SF_ID 2 refused");
    is_string("scale factors: SF_ID 2 is not legal with .scale_vec::4X (legal: 0)", err.msg,
              "... message");
    l.vec = 2;
    l.sf_id = 1;
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err), "2X with SF_ID 1 refused");
    l.vec = 1;
    l.sf_id = 0;
    l.addr = smma_tmem_addr(32, 0);
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err), "scale address at lane 32 refused");
    l.addr = smma_tmem_addr(0, 8);
    l.sf_id = 4;
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err), "1X with SF_ID 4 refused");
    l.sf_id = 3;
    ok(smma_tmem_sf_elem(&l, 128, 8, 3, &r, &kb, &p) == SMMA_EINVAL,
       "no scale in lane 128");
    l.sf_id = 0;
    {
        unsigned row, byte2, copy2;

        ok(smma_tmem_cp_src(SMMA_TMEM_CP_128X256B, 128, 0, 0, &row, &byte2, &copy2) ==
               SMMA_EINVAL,
           "tcgen05.cp: no source for lane 128");
    }
    /* ceil(rows / 32) columns: the edges of a partition of 32 rows. */
    {
        static const unsigned rw[6] = { 1, 31, 32, 33, 128, 256 }, cols[6] = { 1, 1, 1, 2, 4, 8 };

        for (i = 0, bad = 0; i < 6; i++) {
            l.rows = rw[i];
            bad += smma_tmem_sf_cols(&l) != cols[i];
        }
        ok(bad == 0 && smma_tmem_sf_cols(NULL) == 0,
           "smma_tmem_sf_cols: 1, 31, 32, 33, 128, 256 rows take 1, 1, 1, 2, 4, 8 columns; "
           "no layout none");
    }
    l.rows = 128;
    l.addr = smma_tmem_addr(0, 508);
    is_int(SMMA_OK, smma_tmem_sf_check(&l, &err), "128 rows at column 508: columns 508..511");
    l.addr = smma_tmem_addr(0, 509);
    is_int(SMMA_EINVAL, smma_tmem_sf_check(&l, &err), "128 rows at column 509 refused");
    is_string("scale factors: columns pass the last column 511", err.msg, "... message");
    test_sf_addr_id();
}

/* ---- tcgen05.cp ---------------------------------------------------------------------- */

static smma_tmem_cp
mkcp(smma_tmem_cp_shape s, unsigned cg, smma_tmem_cp_fmt f)
{
    smma_tmem_cp op;

    op.shape = s;
    op.cta_group = cg;
    op.fmt = f;
    return op;
}

static uint64_t
mksdesc(uint32_t start, uint32_t lbo, uint32_t sbo, smma_tc05_swizzle sw)
{
    smma_tc05_sdesc d;
    uint64_t v = 0;
    smma_error err;

    memset(&d, 0, sizeof(d));
    d.start = start;
    d.lbo = lbo;
    d.sbo = sbo;
    d.swizzle = sw;
    if (smma_tc05_sdesc_encode(&d, &v, &err) != SMMA_OK)
        bail("descriptor: %s", err.msg);
    return v;
}

/*
 * tcgen05.cp.cta_group::2 on a pair: each CTA's own shared memory at the
 * descriptor's address into its own TMEM at taddr (two 128x4 scale blocks
 * that differ, as scale_A's rows differ between the CTAs of a 2SM GEMM),
 * every copy of .32x128b.warpx4 in both CTAs; refusals write no cell.
 */
static void
test_cp_pair(smma_tmem *t0, uint8_t *smem0)
{
    smma_tmem *t1 = new_tmem();
    uint8_t *smem1 = calloc(65536, 1);
    smma_tc05_cta pair[2];
    smma_tmem_cp op = mkcp(SMMA_TMEM_CP_32X128B_WARPX4, 2, SMMA_TMEM_CP_PLAIN);
    smma_tmem_sflayout sl = { 128, 4, 0, 0 };
    smma_error err = { "" };
    unsigned q, m, kb, c, lane, col, byte, bad = 0;
    uint32_t saved;

    if (smem1 == NULL)
        sysbail("out of memory");
    for (m = 0; m < 128; m++)
        for (kb = 0; kb < 4; kb++) {
            unsigned off = 2048 + (m % 32) * 16 + ((m / 32) % 4) * 4 + kb;

            smem0[off] = (uint8_t) (m * 4 + kb + 3);
            smem1[off] = (uint8_t) (m * 4 + kb + 130);
        }
    pair[0].smem = smem0;
    pair[1].smem = smem1;
    pair[0].smem_size = pair[1].smem_size = 65536;
    pair[0].tmem = t0;
    pair[1].tmem = t1;
    smma_tmem_init(t0);
    is_int(SMMA_OK, smma_tc05_cp_exec(&op, pair, mksdesc(2048, 16, 128, SMMA_TC05_SWIZZLE_NONE),
                                      smma_tmem_addr(0, 60), &err),
           "tcgen05.cp.cta_group::2.32x128b.warpx4 of a 128x4 block in each CTA");
    sl.addr = smma_tmem_addr(0, 60);
    for (q = 0; q < 2; q++)
        for (m = 0; m < 128; m++)
            for (kb = 0; kb < 4; kb++)
                for (c = 0; c < 4; c++) {
                    smma_tmem_sf_coord(&sl, m, kb, c, &lane, &col, &byte);
                    if ((pair[q].tmem->cell[lane][col] >> (8 * byte) & 0xFF)
                        != ((m * 4 + kb + (q ? 130 : 3)) & 0xFF))
                        bad++;
                }
    ok(bad == 0, "... each CTA reads its own block back from all four copies (%u bytes differ)",
       bad);
    saved = t1->cell[0][60];
    smem1[2048] ^= 0xFF;
    pair[1].smem_size = 2048 + 200;
    is_int(SMMA_EINVAL, smma_tc05_cp_exec(&op, pair, mksdesc(2048, 16, 128,
                                                             SMMA_TC05_SWIZZLE_NONE),
                                          smma_tmem_addr(0, 60), &err),
           "a source outside CTA 1's shared memory refused");
    ok(strstr(err.msg, "(CTA 1)") != NULL, "... the message names CTA 1 (\"%s\")", err.msg);
    pair[1].smem_size = 65536;
    pair[1].tmem = NULL;
    is_int(SMMA_EINVAL, smma_tc05_cp_exec(&op, pair, mksdesc(2048, 16, 128,
                                                             SMMA_TC05_SWIZZLE_NONE),
                                          smma_tmem_addr(0, 60), &err),
           "a pair without CTA 1's TMEM refused");
    is_string("tcgen05.cp.cta_group::2: CTA 1 of the pair has no shared memory or TMEM", err.msg,
              "... message");
    ok(t1->cell[0][60] == saved, "... neither refusal wrote a cell");
    op.cta_group = 1;
    pair[1].tmem = t1;
    smma_tmem_init(t1);
    is_int(SMMA_OK, smma_tc05_cp_exec(&op, pair, mksdesc(2048, 16, 128, SMMA_TC05_SWIZZLE_NONE),
                                      smma_tmem_addr(0, 80), &err),
           "cta_group::1 through the pair executor");
    ok(t1->cell[0][80] == 0 && t0->cell[0][80] == t0->cell[0][60],
       "... copies into CTA 0 alone");
    free(smem1);
    free(t1);
}

static void
test_cp(void)
{
    smma_tmem *t = new_tmem();
    uint8_t *smem = calloc(65536, 1);
    smma_error err = { "" };
    smma_tmem_cp op;
    unsigned s, r, b, c, dl, dc, db, r2, b2, c2, bad = 0, m, kb, lane, col, byte;
    smma_tmem_sflayout sl;

    if (smem == NULL)
        sysbail("out of memory");
    for (s = 0; s < SMMA_TMEM_CP_SHAPE_COUNT; s++) {
        unsigned char seen[128][8][4];
        unsigned written = 0;

        memset(seen, 0, sizeof(seen));
        for (r = 0; r < smma_tmem_cp_rows(s); r++)
            for (b = 0; b < smma_tmem_cp_row_bytes(s); b++)
                for (c = 0; c < smma_tmem_cp_copies(s); c++) {
                    if (smma_tmem_cp_coord(s, r, b, c, &dl, &dc, &db) != SMMA_OK || dl >= 128
                        || dc >= 8 || seen[dl][dc][db]++) {
                        bad++;
                        continue;
                    }
                    written++;
                    if (smma_tmem_cp_src(s, dl, dc, db, &r2, &b2, &c2) != SMMA_OK || r2 != r
                        || b2 != b || c2 != c)
                        bad++;
                }
        for (dl = 0; dl < 128; dl++)
            for (dc = 0; dc < 8; dc++)
                for (db = 0; db < 4; db++)
                    if ((smma_tmem_cp_src(s, dl, dc, db, &r2, &b2, &c2) == SMMA_OK)
                        != (seen[dl][dc][db] != 0))
                        bad++;
        if (written != smma_tmem_cp_rows(s) * smma_tmem_cp_row_bytes(s)
                       * smma_tmem_cp_copies(s))
            bad++;
    }
    ok(bad == 0, "tcgen05.cp: every shape maps (row, byte, copy) one-to-one onto the bytes "
       "it writes, and src inverts coord");
    smma_tmem_cp_coord(SMMA_TMEM_CP_64X128B_02_13, 10, 5, 1, &dl, &dc, &db);
    ok(dl == 74 && dc == 1 && db == 1, ".64x128b.warpx2::02_13: row 10 byte 5, copy 1 "
       "(warp 2 of pair 0/2) in lane 74, column 1, byte 1");
    smma_tmem_cp_coord(SMMA_TMEM_CP_64X128B_01_23, 40, 0, 1, &dl, &dc, &db);
    ok(dl == 104, ".64x128b.warpx2::01_23: row 40 (second half, pair 2/3), copy 1: lane "
       "64 + 32 + 8");
    smma_tmem_cp_coord(SMMA_TMEM_CP_4X256B, 3, 31, 0, &dl, &dc, &db);
    ok(dl == 96 && dc == 7 && db == 3, ".4x256b: row 3 in lane 96, byte 31 in column 7");

    /* The "128x4" scale layout (FACTS.md section 4): byte (m % 32) * 16 +
     * ((m / 32) % 4) * 4 + kb of a 512-byte block; .32x128b.warpx4 with a
     * K-major, unswizzled descriptor (16-byte rows, SBO 128) puts it where
     * the 4X scale placement reads it, in all four copies. */
    for (m = 0; m < 128; m++)
        for (kb = 0; kb < 4; kb++)
            smem[1024 + (m % 32) * 16 + ((m / 32) % 4) * 4 + kb] = (uint8_t) (m * 4 + kb + 1);
    op = mkcp(SMMA_TMEM_CP_32X128B_WARPX4, 1, SMMA_TMEM_CP_PLAIN);
    is_int(SMMA_OK, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(1024, 16, 128,
                                                                SMMA_TC05_SWIZZLE_NONE),
                                      t, smma_tmem_addr(0, 20), &err),
           "tcgen05.cp.32x128b.warpx4 of a 128x4 scale block");
    sl.rows = 128;
    sl.vec = 4;
    sl.sf_id = 0;
    sl.addr = smma_tmem_addr(0, 20);
    bad = 0;
    for (m = 0; m < 128; m++)
        for (kb = 0; kb < 4; kb++)
            for (c = 0; c < 4; c++) {
                smma_tmem_sf_coord(&sl, m, kb, c, &lane, &col, &byte);
                if ((t->cell[lane][col] >> (8 * byte) & 0xFF) != ((m * 4 + kb + 1) & 0xFF))
                    bad++;
            }
    ok(bad == 0, "... the 4X scale placement reads every (row, block) back from every copy");
    /* One core matrix wide, the copy never uses the LBO: CuTe writes 16
     * (SMMA_TC05_CP_LBO, the kernels' value), an LBO of 0 copies the same. */
    is_int(SMMA_OK, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(1024, 0, 128,
                                                                SMMA_TC05_SWIZZLE_NONE),
                                      t, smma_tmem_addr(0, 40), &err),
           "tcgen05.cp.32x128b.warpx4 of the same block with LBO 0");
    bad = 0;
    for (lane = 0; lane < 128; lane++)
        for (col = 0; col < 4; col++)
            if (t->cell[lane][40 + col] != t->cell[lane][20 + col])
                bad++;
    ok(bad == 0 && SMMA_TC05_CP_LBO == 16,
       "... every cell equal to the copy with LBO 16 (SMMA_TC05_CP_LBO)");

    /* A swizzled 128x256b copy: each cell as the address function says. */
    for (r = 0; r < 65536; r++)
        smem[r] = (uint8_t) (r * 7 + (r >> 8));
    op = mkcp(SMMA_TMEM_CP_128X256B, 1, SMMA_TMEM_CP_PLAIN);
    is_int(SMMA_OK, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(8192, 16, 1024,
                                                                SMMA_TC05_SWIZZLE_128B),
                                      t, smma_tmem_addr(0, 100), &err),
           "tcgen05.cp.128x256b from a 128B-swizzled source");
    bad = 0;
    for (r = 0; r < 128; r++)
        for (b = 0; b < 32; b++) {
            smma_tc05_layout l = { false, SMMA_TC05_SWIZZLE_128B, 8, 16, 1024 };
            uint32_t addr;
            unsigned bit;

            smma_tc05_smem_addr(&l, 8192, r, b, &addr, &bit, NULL);
            if ((t->cell[r][100 + b / 4] >> (8 * (b % 4)) & 0xFF) != smem[addr])
                bad++;
        }
    ok(bad == 0, "... every byte of every row where smma_tc05_smem_addr says");

    op = mkcp(SMMA_TMEM_CP_128X128B, 1, SMMA_TMEM_CP_B4X16_P64);
    is_int(SMMA_EINVAL, smma_tmem_cp_exec(&op, smem, 65536, 0, t, 0, &err),
           "decompression refused by the executor");
    is_string("tcgen05.cp.b8x16.b4x16_p64: decompression is not modelled (the packed bit order "
              "is only in the ISA's figures)", err.msg, "... message");
    op = mkcp(SMMA_TMEM_CP_128X128B, 2, SMMA_TMEM_CP_PLAIN);
    is_int(SMMA_EINVAL, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(0, 16, 128, 0), t, 0,
                                          &err), "cta_group::2 refused by the one-CTA executor");
    is_string("tcgen05.cp.cta_group::2 copies into both CTAs of a pair: smma_tc05_cp_exec takes "
              "the pair", err.msg, "... message");
    test_cp_pair(t, smem);
    op = mkcp(SMMA_TMEM_CP_128X128B, 1, SMMA_TMEM_CP_PLAIN);
    is_int(SMMA_EINVAL, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(0, 16, 128, 0), t,
                                          smma_tmem_addr(32, 0), &err), "taddr lane 32 refused");
    /* .128x128b writes 4 columns: from column 508 its last is 511. */
    is_int(SMMA_OK, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(0, 16, 128, 0), t,
                                      smma_tmem_addr(0, 508), &err),
           "tcgen05.cp.128x128b at column 508 (columns 508..511)");
    is_int(SMMA_EINVAL, smma_tmem_cp_exec(&op, smem, 65536, mksdesc(0, 16, 128, 0), t,
                                          smma_tmem_addr(0, 509), &err),
           "... at column 509 refused");
    is_string("tcgen05.cp.128x128b: columns 509..512 pass the last column 511", err.msg,
              "... message");
    is_int(SMMA_EINVAL, smma_tmem_cp_exec(&op, smem, 1000, mksdesc(0, 16, 128, 0), t, 0, &err),
           "a source outside the shared memory refused");
    op.shape = SMMA_TMEM_CP_SHAPE_COUNT;
    is_int(SMMA_EINVAL, smma_tmem_cp_check(&op, &err), "an unknown shape refused");
    free(smem);
    free(t);
}

/* ---- tcgen05.mma ----------------------------------------------------------------------- */

#define SMEM_BYTES 0x20000u
#define A_START 0x0000u
#define B_START 0x10000u
#define D_COL 0u
#define A_COL 256u
#define SFA_COL 300u
#define SFB_COL 310u

struct mcase {
    smma_tc05_kind kind;
    unsigned a_fmt, b_fmt, d_fmt;   /* descriptor codes */
    unsigned m, n, cg;
    bool a_mn, b_mn;
    smma_tc05_swizzle swz;
    bool a_tmem, acc, neg_a, neg_b;
    unsigned scale_vec, scale_fmt, sfa_id, sfb_id;
    unsigned lane0;
};

/* This file's reading of the storage (softmma/tmem.h, FACTS.md section 1):
 * format, bits per element in memory, and the code's position. */
static smma_format
case_fmt(smma_tc05_kind kind, unsigned code, unsigned *bits, unsigned *shift, unsigned *width)
{
    static const smma_format f8[6] = { SMMA_E4M3, SMMA_E5M2, SMMA_FORMAT_COUNT, SMMA_E2M3,
                                       SMMA_E3M2, SMMA_E2M1 };
    static const unsigned w8[6] = { 8, 8, 0, 6, 6, 4 };

    *shift = 0;
    if (kind == SMMA_TC05_KIND_F16) {
        *bits = *width = 16;
        return code == 1 ? SMMA_BF16 : SMMA_FP16;
    }
    if (kind == SMMA_TC05_KIND_MXF4 || kind == SMMA_TC05_KIND_MXF4NVF4) {
        *bits = *width = 4;
        return SMMA_E2M1;
    }
    *bits = 8;
    *width = w8[code];
    *shift = code == 5 ? 2 : 0;
    return f8[code];
}

/* A canonical layout for an operand of `rows` rows: the LBO and SBO that
 * pack its core matrices (or swizzle atoms) without overlap. */
static smma_tc05_layout
case_layout(bool mn, smma_tc05_swizzle sw, unsigned bits, unsigned rows)
{
    smma_tc05_layout l;
    unsigned w = smma_tc05_swizzle_bytes(sw), t = 128 / bits, ct = (w / 16) * t;

    l.mn_major = mn;
    l.swizzle = sw;
    l.elem_bits = bits;
    if (!mn && sw == SMMA_TC05_SWIZZLE_NONE) {
        l.sbo = 128;
        l.lbo = 128 * ((rows + 7) / 8);
    } else if (!mn) {
        l.lbo = 16;
        l.sbo = 8 * w;
    } else if (sw == SMMA_TC05_SWIZZLE_NONE) {
        l.sbo = 128;
        l.lbo = 128 * ((rows + t - 1) / t);
    } else {
        l.lbo = 8 * w;
        l.sbo = 8 * w * ((rows + ct - 1) / ct);
    }
    return l;
}

static void
put_elem(uint8_t *smem, const smma_tc05_layout *l, uint32_t start, unsigned row, unsigned k,
         uint32_t stored)
{
    uint32_t byte;
    unsigned bit;
    smma_error err;

    if (smma_tc05_smem_addr(l, start, row, k, &byte, &bit, &err) != SMMA_OK)
        bail("smem address: %s", err.msg);
    if (byte + 2 > SMEM_BYTES)
        bail("smem address 0x%lx out of range", (unsigned long) byte);
    if (l->elem_bits == 16) {
        smem[byte] = (uint8_t) stored;
        smem[byte + 1] = (uint8_t) (stored >> 8);
    } else if (l->elem_bits == 8) {
        smem[byte] = (uint8_t) stored;
    } else {
        smem[byte] = (uint8_t) ((smem[byte] & ~(0xFu << bit)) | (stored & 0xFu) << bit);
    }
}

/* The stored form of a code: in its container, with random bits around it. */
static uint32_t
stored_form(uint32_t code, unsigned bits, unsigned shift, unsigned width, tap_rng *r)
{
    uint32_t mask = ((1u << width) - 1) << shift;

    if (bits != 8)
        return code;
    return (code << shift) | ((uint32_t) tap_rng_next(r) & 0xFFu & ~mask);
}

static const char *
case_name(const struct mcase *c, char *buf, size_t n)
{
    unsigned ab, as, aw;
    smma_format fa = case_fmt(c->kind, c->a_fmt, &ab, &as, &aw);
    smma_format fb = case_fmt(c->kind, c->b_fmt, &ab, &as, &aw);

    snprintf(buf, n, "%s %sx%s%s M%u N%u cta%u%s%s%s%s%s sw%d%s", smma_tc05_kind_name(c->kind),
             smma_format_name(fa), smma_format_name(fb),
             c->scale_vec ? (c->scale_fmt ? " ue8m0" : " ue4m3") : (c->d_fmt ? "" : "->f16"),
             c->m, c->n, c->cg, c->a_tmem ? " A:tmem" : "", c->a_mn ? " A:mn" : "",
             c->b_mn ? " B:mn" : "", c->acc ? " +D" : "", c->neg_a || c->neg_b ? " neg" : "",
             (int) c->swz, c->scale_vec ? (c->scale_vec == 4 ? " 4X" : c->scale_vec == 2 ? " 2X"
                                           : " 1X") : "");
    return buf;
}

struct mrun {
    smma_tmem *t[2];
    uint8_t *smem[2];
};

/* Builds the case in shared memory and TMEM, executes it, and compares D
 * with smma_gemm on the same codes.  tamper: change partition 2's copy of
 * scale_B before executing.  Returns the number of differing elements and
 * fills rows_hit with the rows that differ. */
/* What run_case changes in the scales after placing them: nothing, one
 * copy (partition 2) of scale_B in CTA 0, all of scale_B in CTA 1, or
 * scale_A of CTA 1's rows. */
enum { TAMPER_NONE = 0, TAMPER_SFB_COPY2, TAMPER_SFB_CTA1, TAMPER_SFA_CTA1 };

static long
run_case(const struct mcase *c, const char *model_name, uint64_t seed, struct mrun *w,
         int tamper, unsigned char *rows_hit)
{
    const smma_model *model = tap_model(model_name);
    smma_tc05_idesc id;
    smma_tc05_mma op;
    smma_tc05_cta ctas[2];
    smma_gemm_shape s;
    smma_gemm_data data;
    smma_gemm_operands ops;
    smma_error err = { "" };
    smma_tmem_dlayout dl = { c->m, c->n, c->cg, smma_tmem_addr(c->lane0, D_COL) };
    smma_tmem_alayout al;
    smma_tmem_sflayout sfa, sfb;
    unsigned ab, ash, aw, bb, bsh, bw, K, nkb, mc, nc, m, n, k, kb, p, cta, lane, col, bit, byte;
    smma_format fa, fb, dfmt;
    smma_tc05_layout la, lb;
    uint32_t *ra, *rb, *dref, idw;
    tap_rng rng;
    long bad = 0;
    char name[160];

    memset(&id, 0, sizeof(id));
    id.a_fmt = c->a_fmt;
    id.b_fmt = c->b_fmt;
    id.negate_a = c->neg_a;
    id.negate_b = c->neg_b;
    id.a_mn_major = c->a_mn;
    id.b_mn_major = c->b_mn;
    id.n = c->n;
    id.m = c->m;
    if (c->scale_vec) {
        id.scale_fmt = c->scale_fmt;
        id.sfa_id = c->sfa_id;
        id.sfb_id = c->sfb_id;
    } else {
        id.d_fmt = c->d_fmt;
    }
    if (smma_tc05_idesc_encode(c->kind, &id, &idw, &err) != SMMA_OK)
        bail("%s: %s", case_name(c, name, sizeof(name)), err.msg);
    fa = case_fmt(c->kind, c->a_fmt, &ab, &ash, &aw);
    fb = case_fmt(c->kind, c->b_fmt, &bb, &bsh, &bw);
    dfmt = c->scale_vec || c->d_fmt == 1 ? SMMA_FP32 : SMMA_FP16;
    K = smma_tc05_mma_k(c->kind, false);
    memset(&s, 0, sizeof(s));
    s.a_fmt = fa;
    s.b_fmt = fb;
    s.scale_fmt = c->scale_vec == 0 ? SMMA_NONE : c->scale_fmt ? SMMA_E8M0 : SMMA_UE4M3;
    s.vec = c->scale_vec == 4 ? 16 : 32;
    s.c_fmt = c->acc ? dfmt : SMMA_NONE;
    s.d_fmt = dfmt;
    s.m = c->m;
    s.n = c->n;
    s.k = K;
    nkb = c->scale_vec;
    if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, seed, &data, &err) != SMMA_OK)
        bail("generate: %s", err.msg);
    tap_rng_seed(&rng, seed ^ 0x5eed);
    mc = c->m / c->cg;
    nc = c->n / c->cg;
    la = case_layout(c->a_mn, c->swz, ab, mc);
    lb = case_layout(c->b_mn, c->swz, bb, nc);
    for (p = 0; p < 2; p++) {
        smma_tmem_init(w->t[p]);
        for (m = 0; m < SMEM_BYTES; m++)
            w->smem[p][m] = (uint8_t) tap_rng_next(&rng);
    }
    /* A and B into each CTA's shared memory (or A into TMEM), C into D. */
    al.m = c->m;
    al.k = K;
    al.cta_group = c->cg;
    al.elem_bits = ab;
    al.addr = smma_tmem_addr(c->lane0, A_COL);
    for (m = 0; m < c->m; m++)
        for (k = 0; k < K; k++) {
            uint32_t v = stored_form(data.a[m * K + k], ab, ash, aw, &rng);

            if (!c->a_tmem) {
                put_elem(w->smem[m / mc], &la, A_START, m % mc, k, v);
                continue;
            }
            if (smma_tmem_a_coord(&al, m, k, &cta, &lane, &col, &bit) != SMMA_OK)
                bail("A coordinate (%u, %u)", m, k);
            w->t[cta]->cell[lane][col] &= ~(((1u << (ab == 16 ? 16 : ab)) - 1) << bit);
            w->t[cta]->cell[lane][col] |= v << bit;
        }
    for (n = 0; n < c->n; n++)
        for (k = 0; k < K; k++)
            put_elem(w->smem[n / nc], &lb, B_START, n % nc, k,
                     stored_form(data.b[n * K + k], bb, bsh, bw, &rng));
    for (m = 0; m < c->m; m++)
        for (n = 0; n < c->n; n++) {
            smma_tmem_d_coord(&dl, m, n, &cta, &lane, &col);
            w->t[cta]->cell[lane][col] = c->acc ? (dfmt == SMMA_FP32 ? data.c[m * c->n + n]
                                                   : data.c[m * c->n + n]
                                                     | (uint32_t) tap_rng_next(&rng) << 16)
                                                : (uint32_t) tap_rng_next(&rng);
        }
    if (nkb) {
        /* scale_A: each CTA its M / cta_group rows; scale_B: all of N in each
         * CTA (softmma/tmem.h, smma_tc05_mma_exec). */
        sfa.rows = mc;
        sfb.rows = c->n;
        sfa.vec = sfb.vec = nkb;
        sfa.sf_id = c->sfa_id;
        sfb.sf_id = c->sfb_id;
        sfa.addr = smma_tmem_addr(0, SFA_COL);
        sfb.addr = smma_tmem_addr(0, SFB_COL);
        for (cta = 0; cta < c->cg; cta++)
            for (lane = 0; lane < 128; lane++)
                for (col = SFA_COL; col < SFB_COL + 8; col++)
                    w->t[cta]->cell[lane][col] = (uint32_t) tap_rng_next(&rng);
        for (kb = 0; kb < nkb; kb++)
            for (p = 0; p < 4; p++) {
                for (m = 0; m < c->m; m++) {
                    uint32_t v = data.sa[m * nkb + kb];

                    if (tamper == TAMPER_SFA_CTA1 && m >= mc)
                        v = v == 0x7f ? 0x70 : v + 1;
                    smma_tmem_sf_coord(&sfa, m % mc, kb, p, &lane, &col, &byte);
                    w->t[m / mc]->cell[lane][col] &= ~(0xFFu << (8 * byte));
                    w->t[m / mc]->cell[lane][col] |= v << (8 * byte);
                }
                for (cta = 0; cta < c->cg; cta++)
                    for (n = 0; n < c->n; n++) {
                        uint32_t v = data.sb[n * nkb + kb];

                        if ((tamper == TAMPER_SFB_COPY2 && p == 2 && cta == 0)
                            || (tamper == TAMPER_SFB_CTA1 && cta == 1))
                            v = v == 0x7f ? 0x70 : v + 1; /* another finite scale */
                        smma_tmem_sf_coord(&sfb, n, kb, p, &lane, &col, &byte);
                        w->t[cta]->cell[lane][col] &= ~(0xFFu << (8 * byte));
                        w->t[cta]->cell[lane][col] |= v << (8 * byte);
                    }
            }
    }
    memset(&op, 0, sizeof(op));
    op.kind = c->kind;
    op.cta_group = c->cg;
    op.a_tmem = c->a_tmem;
    op.scale_vec = c->scale_vec;
    op.idesc = idw;
    op.a_desc = mksdesc(A_START, la.lbo, la.sbo, c->swz);
    op.b_desc = mksdesc(B_START, lb.lbo, lb.sbo, c->swz);
    op.a_taddr = al.addr;
    op.d_taddr = dl.addr;
    op.sfa_taddr = smma_tmem_addr(0, SFA_COL);
    op.sfb_taddr = smma_tmem_addr(0, SFB_COL);
    op.enable_input_d = c->acc;
    for (p = 0; p < 2; p++) {
        ctas[p].smem = w->smem[p];
        ctas[p].smem_size = SMEM_BYTES;
        ctas[p].tmem = w->t[p];
    }
    if (smma_tc05_mma_exec(&op, model, ctas, &err) != SMMA_OK) {
        diag("%s: %s", case_name(c, name, sizeof(name)), err.msg);
        smma_gemm_data_free(&data);
        return -1;
    }
    /* The reference: smma_gemm on the codes, negated where asked. */
    ra = malloc((size_t) c->m * K * sizeof(uint32_t));
    rb = malloc((size_t) c->n * K * sizeof(uint32_t));
    dref = malloc((size_t) c->m * c->n * sizeof(uint32_t));
    if (ra == NULL || rb == NULL || dref == NULL)
        sysbail("out of memory");
    for (m = 0; m < c->m * K; m++)
        ra[m] = data.a[m] ^ (c->neg_a ? 1u << (aw - 1) : 0);
    for (n = 0; n < c->n * K; n++)
        rb[n] = data.b[n] ^ (c->neg_b ? 1u << (bw - 1) : 0);
    ops = smma_gemm_data_operands(&s, &data);
    ops.a = ra;
    ops.b = rb;
    if (smma_gemm(model, &s, &ops, dref, &err) != SMMA_OK)
        bail("smma_gemm: %s", err.msg);
    for (m = 0; m < c->m; m++)
        for (n = 0; n < c->n; n++) {
            uint32_t cell, got;

            smma_tmem_d_coord(&dl, m, n, &cta, &lane, &col);
            cell = w->t[cta]->cell[lane][col];
            got = dfmt == SMMA_FP32 ? cell : cell & 0xFFFFu;
            if (got != dref[m * c->n + n] || (dfmt != SMMA_FP32 && cell >> 16)) {
                if (rows_hit != NULL)
                    rows_hit[m] = 1;
                if (bad++ < 3 && rows_hit == NULL)
                    diag("  %s D[%u][%u]: got 0x%08lx, smma_gemm 0x%08lx",
                         case_name(c, name, sizeof(name)), m, n, (unsigned long) cell,
                         (unsigned long) dref[m * c->n + n]);
            }
        }
    free(ra);
    free(rb);
    free(dref);
    smma_gemm_data_free(&data);
    return bad;
}

#define F16K SMMA_TC05_KIND_F16
#define F864 SMMA_TC05_KIND_F8F6F4
#define MXF8 SMMA_TC05_KIND_MXF8F6F4
#define MXF4 SMMA_TC05_KIND_MXF4
#define NVF4 SMMA_TC05_KIND_MXF4NVF4
#define SWN SMMA_TC05_SWIZZLE_NONE
#define SW32 SMMA_TC05_SWIZZLE_32B
#define SW64 SMMA_TC05_SWIZZLE_64B
#define SW128 SMMA_TC05_SWIZZLE_128B

/* kind, a, b, d, M, N, cta, a_mn, b_mn, swizzle, a_tmem, acc, neg_a, neg_b,
 * scale_vec, scale_fmt (1 ue8m0, 0 ue4m3), sfa_id, sfb_id, D lane. */
static const struct mcase mcases[] = {
    { F16K, 1, 1, 1, 128, 64, 1, false, false, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
    { F16K, 0, 0, 1, 128, 16, 1, true, true, SW64, false, false, false, false, 0, 0, 0, 0, 0 },
    { F16K, 0, 0, 0, 64, 32, 1, false, false, SWN, false, true, true, false, 0, 0, 0, 0, 16 },
    { F16K, 1, 1, 1, 128, 8, 1, false, false, SW32, true, false, false, true, 0, 0, 0, 0, 0 },
    { F16K, 1, 1, 1, 256, 32, 2, false, false, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
    { F16K, 0, 0, 1, 128, 32, 2, true, true, SWN, false, true, false, false, 0, 0, 0, 0, 0 },
    { F16K, 1, 1, 1, 256, 16, 2, false, true, SW32, true, false, false, false, 0, 0, 0, 0, 0 },
    { F16K, 0, 0, 1, 64, 8, 1, false, true, SW128, true, true, false, false, 0, 0, 0, 0, 0 },
    { F864, 0, 1, 1, 128, 32, 1, false, false, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
    { F864, 3, 4, 1, 128, 16, 1, false, false, SW64, false, false, false, false, 0, 0, 0, 0, 0 },
    { F864, 5, 0, 1, 64, 24, 1, false, false, SWN, false, true, false, true, 0, 0, 0, 0, 0 },
    { F864, 5, 5, 1, 128, 8, 1, false, false, SW32, true, false, true, false, 0, 0, 0, 0, 0 },
    { F864, 1, 0, 1, 128, 32, 1, true, true, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
    { F864, 4, 5, 0, 128, 16, 1, false, false, SW64, false, true, false, false, 0, 0, 0, 0, 0 },
    { F864, 0, 0, 1, 256, 32, 2, false, false, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
    { MXF8, 0, 0, 0, 128, 64, 1, false, false, SW128, false, true, false, false, 1, 1, 1, 3, 0 },
    { MXF8, 5, 4, 0, 128, 16, 1, false, false, SW32, true, false, false, false, 1, 1, 0, 2, 0 },
    { MXF8, 3, 1, 0, 128, 256, 1, false, false, SW64, false, true, true, true, 1, 1, 3, 0, 0 },
    { MXF4, 1, 1, 0, 128, 32, 1, false, false, SW128, false, true, false, false, 2, 1, 2, 0, 0 },
    { MXF4, 1, 1, 0, 128, 8, 1, false, false, SW32, true, false, false, false, 2, 1, 0, 2, 0 },
    { NVF4, 1, 1, 0, 128, 16, 1, false, false, SWN, false, false, false, false, 2, 1, 2, 2, 0 },
    { NVF4, 1, 1, 0, 128, 48, 1, false, false, SW64, false, true, false, false, 4, 1, 0, 0, 0 },
    { NVF4, 1, 1, 0, 128, 128, 1, false, false, SW128, false, true, true, true, 4, 0, 0, 0, 0 },
    { NVF4, 1, 1, 0, 128, 16, 1, false, false, SW32, true, true, false, false, 4, 0, 0, 0, 0 },
    { MXF8, 0, 3, 0, 256, 64, 2, false, false, SW128, false, true, false, false, 1, 1, 2, 1, 0 },
    { MXF8, 5, 1, 0, 256, 256, 2, false, false, SW64, true, false, true, false, 1, 1, 3, 3, 0 },
    { MXF4, 1, 1, 0, 256, 32, 2, false, false, SW128, false, false, false, true, 2, 1, 2, 0, 0 },
    { NVF4, 1, 1, 0, 256, 128, 2, false, false, SW128, false, true, false, false, 4, 0, 0, 0, 0 },
    { NVF4, 1, 1, 0, 256, 16, 2, false, false, SW32, false, true, false, false, 2, 1, 0, 2, 0 },
    /* 8-bit N-major B with cta_group::1: N a multiple of 16 (not of 32);
     * with cta_group::2 a multiple of 32 */
    { F864, 0, 0, 1, 128, 48, 1, false, true, SW64, false, true, false, false, 0, 0, 0, 0, 0 },
    { F864, 0, 0, 1, 256, 64, 2, false, true, SW128, false, true, false, false, 0, 0, 0, 0, 0 },
};
#define NMCASES (sizeof(mcases) / sizeof(mcases[0]))

static void
test_mma_random(struct mrun *w)
{
    size_t i, j;
    bool quick = test_level() == 0;
    char name[160];

    for (i = 0; i < NMCASES; i++) {
        const struct mcase *c = &mcases[i];
        const char *models[2] = { "exact-rn", c->kind == F16K ? "b200-bf16" : "b200-fp8" };

        for (j = 0; j < 2; j++) {
            long bad;

            if (quick && (i + j) % 3 != 0) {
                skip("%s under %s: TEST_LEVEL 0", case_name(c, name, sizeof(name)), models[j]);
                continue;
            }
            bad = run_case(c, models[j], 0x7463ull * (i + 1) + j, w, TAMPER_NONE, NULL);
            ok(bad == 0, "tcgen05.mma %s under %s: D equals smma_gemm bitwise (%ld of %u "
               "differ)", case_name(c, name, sizeof(name)), models[j], bad, c->m * c->n);
        }
    }
}

/* Changes one part of the scales of case c and counts the rows of D that
 * change inside [lo, hi) and outside it. */
static void
duplication(struct mrun *w, const struct mcase *c, int tamper, unsigned lo, unsigned hi,
            const char *what)
{
    unsigned char rows[256];
    unsigned m, outside = 0, inside = 0;
    long bad;

    memset(rows, 0, sizeof(rows));
    bad = run_case(c, "exact-rn", 99, w, tamper, rows);
    for (m = 0; m < c->m; m++) {
        if (rows[m] && (m < lo || m >= hi))
            outside++;
        inside += rows[m] && m >= lo && m < hi;
    }
    ok(bad > 0 && outside == 0 && inside > (hi - lo) / 2,
       "%s changed: only rows %u-%u of D change (%u of %u rows)", what, lo, hi - 1, inside,
       hi - lo);
}

static void
test_mma_duplication(struct mrun *w)
{
    duplication(w, &mcases[22], TAMPER_SFB_COPY2, 64, 96, "scale_B copy of partition 2");
    duplication(w, &mcases[27], TAMPER_SFB_COPY2, 64, 96,
                "cta_group::2: CTA 0's scale_B copy of partition 2");
    duplication(w, &mcases[27], TAMPER_SFB_CTA1, 128, 256,
                "cta_group::2: CTA 1's scale_B (its duplicate of every N row)");
    duplication(w, &mcases[24], TAMPER_SFA_CTA1, 128, 256,
                "cta_group::2: scale_A of CTA 1's rows");
}

/* D[m][n] = sum_k A[m][k] B[k][n] with A[m][k] = 1 where k == m % 16: row m of
 * D is row m % 16 of B, whose elements are k * 8 + n. */
static void
test_mma_literal(struct mrun *w)
{
    smma_tc05_idesc id;
    smma_tc05_mma op;
    smma_tc05_cta cta;
    smma_error err = { "" };
    smma_cvt cvt = smma_cvt_default();
    smma_tc05_layout la = case_layout(false, SMMA_TC05_SWIZZLE_NONE, 16, 128);
    smma_tc05_layout lb = case_layout(false, SMMA_TC05_SWIZZLE_NONE, 16, 8);
    unsigned m, n, k;
    uint32_t idw, saved;

    memset(w->smem[0], 0, SMEM_BYTES);
    smma_tmem_init(w->t[0]);
    for (m = 0; m < 128; m++)
        for (k = 0; k < 16; k++)
            put_elem(w->smem[0], &la, A_START, m, k, k == m % 16 ? 0x3F80 : 0);
    for (n = 0; n < 8; n++)
        for (k = 0; k < 16; k++)
            put_elem(w->smem[0], &lb, B_START, n, k, smma_encode(SMMA_BF16, k * 8.0 + n, &cvt));
    memset(&id, 0, sizeof(id));
    id.d_fmt = SMMA_TC05_D_F32;
    id.a_fmt = id.b_fmt = SMMA_TC05_BF16;
    id.m = 128;
    id.n = 8;
    smma_tc05_idesc_encode(SMMA_TC05_KIND_F16, &id, &idw, NULL);
    memset(&op, 0, sizeof(op));
    op.kind = SMMA_TC05_KIND_F16;
    op.cta_group = 1;
    op.idesc = idw;
    op.a_desc = mksdesc(A_START, la.lbo, la.sbo, SMMA_TC05_SWIZZLE_NONE);
    op.b_desc = mksdesc(B_START, lb.lbo, lb.sbo, SMMA_TC05_SWIZZLE_NONE);
    op.d_taddr = smma_tmem_addr(0, 64);
    cta.smem = w->smem[0];
    cta.smem_size = SMEM_BYTES;
    cta.tmem = w->t[0];
    is_int(SMMA_OK, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           "bf16 M128 N8 with a selection matrix A");
    is_hex(0x41300000, w->t[0]->cell[17][64 + 3], "D[17][3] = B[1][3] = 11.0 in lane 17, "
           "column 64 + 3");
    is_hex(0x421C0000, w->t[0]->cell[100][64 + 7], "D[100][7] = B[4][7] = 39.0 in lane 100, "
           "column 71");

    /* Refusals leave D alone. */
    saved = w->t[0]->cell[17][67];
    op.kind = SMMA_TC05_KIND_TF32;
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           "kind::tf32 refused");
    is_string("tcgen05.mma.kind::tf32 is not executed (the numerics layer has no tf32 format)",
              err.msg, "... message");
    op.kind = SMMA_TC05_KIND_F16;
    op.ws = true;
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           ".ws refused by the executor");
    op.ws = false;
    id.d_fmt = SMMA_TC05_D_F16;
    smma_tc05_idesc_encode(SMMA_TC05_KIND_F16, &id, &op.idesc, NULL);
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           "bf16 inputs with an f16 D refused");
    is_string(".kind::f16 with an f16 D takes f16 A and B only (ISA shape table: no bf16 with "
              ".f16 D)", err.msg, "... message");
    id.d_fmt = SMMA_TC05_D_F32;
    id.n = 256;
    smma_tc05_idesc_encode(SMMA_TC05_KIND_F16, &id, &op.idesc, NULL);
    op.d_taddr = smma_tmem_addr(0, 300);
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           "D columns 300..555 refused");
    id.n = 8;
    smma_tc05_idesc_encode(SMMA_TC05_KIND_F16, &id, &op.idesc, NULL);
    op.d_taddr = smma_tmem_addr(0, 64);
    op.b_desc = mksdesc(SMEM_BYTES - 64, 128, 128, SMMA_TC05_SWIZZLE_NONE);
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), &cta, &err),
           "B outside the shared memory refused");
    is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, NULL, &cta, &err), "no model refused");
    is_string("tcgen05.mma: no model or CTAs given", err.msg, "... message");
    is_hex(saved, w->t[0]->cell[17][67], "... D untouched by the refusals");
    op.kind = SMMA_TC05_KIND_MXF4NVF4;
    op.scale_vec = 1;
    is_int(SMMA_EINVAL, smma_tc05_mma_check(&op, &err), "mxf4nvf4 with .scale_vec::1X refused");
    is_string("tcgen05.mma.kind::mxf4nvf4: .scale_vec::1X is not legal (legal: .scale_vec::2X, "
              ".scale_vec::4X)", err.msg, "... message");
    op.kind = SMMA_TC05_KIND_MXF8F6F4;
    op.scale_vec = 4;
    is_int(SMMA_EINVAL, smma_tc05_mma_check(&op, &err), "mxf8f6f4 with .scale_vec::4X refused");
    op.kind = SMMA_TC05_KIND_COUNT;
    is_int(SMMA_EINVAL, smma_tc05_mma_check(&op, &err), "the kind past the last refused");
    is_string("tcgen05.mma: kind 7 is not a kind", err.msg, "... message");
    op.kind = SMMA_TC05_KIND_F16;
    op.scale_vec = 0;
    op.ws = true;
    op.cta_group = 2;
    is_int(SMMA_EINVAL, smma_tc05_mma_check(&op, &err), ".ws with cta_group::2 refused");
    is_string("tcgen05.mma.ws: .cta_group::2 is not legal (.ws takes .cta_group::1 only)",
              err.msg, "... message");

    /* Block-scaled with cta_group::2: M = 256 only (the 2x2 data path's
     * scale_B is not modelled), and M = 256 not with cta_group::1. */
    {
        smma_tc05_cta pair[2] = { cta, { w->smem[1], SMEM_BYTES, w->t[1] } };

        memset(&id, 0, sizeof(id));
        id.a_fmt = id.b_fmt = SMMA_TC05_E4M3;
        id.scale_fmt = SMMA_TC05_SCALE_UE8M0;
        id.m = 128;
        id.n = 64;
        smma_tc05_idesc_encode(SMMA_TC05_KIND_MXF8F6F4, &id, &op.idesc, NULL);
        op.ws = false;
        op.kind = SMMA_TC05_KIND_MXF8F6F4;
        op.scale_vec = 1;
        op.sfa_taddr = smma_tmem_addr(0, SFA_COL);
        op.sfb_taddr = smma_tmem_addr(0, SFB_COL);
        saved = w->t[1]->cell[5][64];
        is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), pair, &err),
               "block-scaled M = 128 with cta_group::2 refused");
        is_string("block-scaled tcgen05.mma with M = 128 and cta_group::2 is not modelled (how "
                  "the 2x2 data path duplicates scale_B over its lane halves is not "
                  "established)", err.msg, "... message");
        id.m = 256;
        smma_tc05_idesc_encode(SMMA_TC05_KIND_MXF8F6F4, &id, &op.idesc, NULL);
        op.cta_group = 1;
        is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), pair, &err),
               "block-scaled M = 256 with cta_group::1 refused");
        is_string("tcgen05.mma.cta_group::1.kind::mxf8f6f4: M 256 is not executed (cta_group::1: "
                  "64, 128; cta_group::2: 128, 256; block-scaled: 128 with cta_group::1, 256 "
                  "with cta_group::2)", err.msg, "... message");
        op.cta_group = 2;
        op.sfb_taddr = smma_tmem_addr(0, 508);
        is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), pair, &err),
               "cta_group::2 with scale_B columns past 511 refused");
        op.sfb_taddr = smma_tmem_addr(0, SFB_COL);
        pair[1].tmem = NULL;
        is_int(SMMA_EINVAL, smma_tc05_mma_exec(&op, tap_model("exact-rn"), pair, &err),
               "cta_group::2 without CTA 1's TMEM refused");
        is_string("tcgen05.mma: CTA 1 has no shared memory or TMEM", err.msg, "... message");
        is_hex(saved, w->t[1]->cell[5][64], "... CTA 1's D untouched by the refusals");
    }
}

/* ---- PTX ------------------------------------------------------------------------------ */

static int
assemble(const char *version, const char *target, const char *instr, bool show)
{
    char body[8192];

    snprintf(body, sizeof(body),
             "%s    mov.b32 %%taddr, 0;\n    mov.b32 %%tatmem, 0;\n    mov.b32 %%tsfa, 0;\n"
             "    mov.b32 %%tsfb, 0;\n    mov.b32 %%tidesc, 0;\n    mov.b32 %%tdst, 0;\n"
             "    mov.b64 %%tadesc, 0;\n    mov.b64 %%tbdesc, 0;\n    mov.b64 %%tsdesc, 0;\n"
             "    mov.b64 %%tmbar, 0;\n    mov.b16 %%tmask, 3;\n"
             "    setp.eq.u32 %%tp, %%taddr, 0;\n    %s\n",
             SMMA_PTX_TC05_DECLS, instr);
    return ptxas_module(version, target, body, show);
}

/* Assembles text at sm_100a (must pass) and at sm_90a (must fail); returns
 * the number of points reported. */
static void
check_asm(const char *version, const char *text, bool also_below, unsigned *bad)
{
    if (assemble(version, SMMA_PTX_TC05_TARGET, text, *bad < 3) != 0) {
        if ((*bad)++ < 3)
            diag("ptxas refuses: %s", text);
    }
    if (also_below && assemble(version, "sm_90a", text, false) == 0) {
        if ((*bad)++ < 3)
            diag("ptxas accepts for sm_90a: %s", text);
    }
}

static void
test_ptx_api(void)
{
    char buf[2048];
    smma_error err = { "" };
    smma_tmem_ldst op;
    smma_tmem_cp cp;
    smma_tc05_mma mma;

    op = mkldst(SMMA_TMEM_16X64B, 2, true, 0);
    is_int(SMMA_OK, smma_ptx_tc05_ld(&op, buf, sizeof(buf), &err), "ld text");
    is_string("tcgen05.ld.sync.aligned.16x64b.x2.pack::16b.b32 {%t0, %t1}, [%taddr];", buf,
              "... exact");
    op = mkldst(SMMA_TMEM_16X32BX2, 1, false, 1);
    smma_ptx_tc05_st(&op, buf, sizeof(buf), &err);
    is_string("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%taddr], 1, {%t0};", buf,
              ".16x32bx2 st text");
    op = mkldst(SMMA_TMEM_16X32BX2, 2, true, 4);
    smma_ptx_tc05_ld(&op, buf, sizeof(buf), &err);
    is_string("tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32 {%t0, %t1}, [%taddr], 4;", buf,
              ".16x32bx2 ld text");
    op = mkldst(SMMA_TMEM_32X32B, 128, false, 0);
    is_int(SMMA_ERANGE, smma_ptx_tc05_ld(&op, buf, 100, &err), "a short buffer: ERANGE");
    op = mkldst(SMMA_TMEM_16X128B, 128, false, 0);
    is_int(SMMA_EINVAL, smma_ptx_tc05_ld(&op, buf, sizeof(buf), &err), ".16x128b.x128 refused");
    is_string("tcgen05.ld/st .16x128b: .x128 is not a valid .num (valid: .x1, .x2, .x4, ... "
              ".x64)", err.msg, "... message");
    cp = mkcp(SMMA_TMEM_CP_64X128B_01_23, 2, SMMA_TMEM_CP_B6X16_P32);
    smma_ptx_tc05_cp(&cp, buf, sizeof(buf), &err);
    is_string("tcgen05.cp.cta_group::2.64x128b.warpx2::01_23.b8x16.b6x16_p32 [%taddr], %tsdesc;",
              buf, "cp text");
    memset(&mma, 0, sizeof(mma));
    mma.kind = SMMA_TC05_KIND_F16;
    mma.cta_group = 1;
    smma_ptx_tc05_mma(&mma, buf, sizeof(buf), &err);
    is_string("tcgen05.mma.cta_group::1.kind::f16 [%taddr], %tadesc, %tbdesc, %tidesc, %tp;",
              buf, "mma text");
    mma.kind = SMMA_TC05_KIND_MXF4NVF4;
    mma.cta_group = 2;
    mma.a_tmem = true;
    mma.scale_vec = 4;
    smma_ptx_tc05_mma(&mma, buf, sizeof(buf), &err);
    is_string("tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [%taddr], "
              "[%tatmem], %tbdesc, %tidesc, [%tsfa], [%tsfb], %tp;", buf, "block-scale text");
    is_string("8.7", smma_ptx_tc05_mma_version(&mma), "... needs PTX ISA 8.7");
    mma.kind = SMMA_TC05_KIND_I8;
    mma.scale_vec = 0;
    mma.cta_group = 1;
    mma.a_tmem = false;
    mma.ws = true;
    smma_ptx_tc05_mma(&mma, buf, sizeof(buf), &err);
    is_string("tcgen05.mma.ws.cta_group::1.kind::i8 [%taddr], %tadesc, %tbdesc, %tidesc, %tp;",
              buf, ".ws text");
    is_string("8.6", smma_ptx_tc05_mma_version(&mma), "... PTX ISA 8.6");
    mma.kind = SMMA_TC05_KIND_MXF4;
    mma.ws = false;
    mma.scale_vec = 4;
    is_int(SMMA_EINVAL, smma_ptx_tc05_mma(&mma, buf, sizeof(buf), &err),
           "mxf4 with .scale_vec::4X refused");
    is_string("tcgen05.mma.kind::mxf4: .scale_vec::4X is not legal (legal: .scale_vec::2X)",
              err.msg, "... message");
    mma.kind = SMMA_TC05_KIND_F16;
    mma.scale_vec = 2;
    is_int(SMMA_EINVAL, smma_ptx_tc05_mma(&mma, buf, sizeof(buf), &err),
           "kind::f16 with a scale vector refused");
    smma_ptx_tc05_misc(SMMA_TC05_ALLOC, 2, 64, buf, sizeof(buf), &err);
    is_string("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%tdst], 64;", buf,
              "alloc text");
    is_int(SMMA_EINVAL, smma_ptx_tc05_misc(SMMA_TC05_DEALLOC, 1, 48, buf, sizeof(buf), &err),
           "dealloc of 48 columns refused");
    is_string("tcgen05.dealloc: nCols 48 is not a power of two in [32, 512]", err.msg,
              "... message");
    is_int(SMMA_EINVAL, smma_ptx_tc05_misc(SMMA_TC05_COMMIT, 3, 0, buf, sizeof(buf), &err),
           "commit with cta_group 3 refused");
    smma_ptx_tc05_misc(SMMA_TC05_COMMIT_MC, 2, 0, buf, sizeof(buf), &err);
    is_string("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster"
              ".multicast::cluster.b64 [%tmbar], %tmask;", buf, "multicast commit text");
    is_int(SMMA_EINVAL, smma_ptx_tc05_misc(SMMA_TC05_COMMIT_MC, 0, 0, buf, sizeof(buf), &err),
           "multicast commit with cta_group 0 refused");
}

/* The barriers tcgen05.commit arrives on. */
static void
test_commit(void)
{
    smma_tc05_commit op = { 2, true, 0x3 };
    smma_error err = { "" };
    uint32_t t = 0;

    is_int(SMMA_OK, smma_tc05_commit_targets(&op, 2, 0, 0, &t, &err),
           "cta_group::2 multicast to 0b11 from the leader of a pair");
    is_hex(0x3, t, "... both CTAs' barriers");
    op.cta_mask = 0xC;
    is_int(SMMA_OK, smma_tc05_commit_targets(&op, 4, 3, 0, &t, &err),
           "cta_group::2 multicast to 0b1100 in a cluster of 4, from rank 3");
    is_hex(0xC, t, "... the second pair's barriers");
    op.multicast = false;
    op.cta_mask = 0;
    is_int(SMMA_OK, smma_tc05_commit_targets(&op, 2, 1, 0, &t, &err),
           "cta_group::2 without multicast from rank 1 to rank 0's barrier");
    is_hex(0x1, t, "... the barrier of the address, in rank 0");
    op.cta_mask = 1;
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 2, 0, 0, &t, &err),
           "a ctaMask without .multicast refused");
    is_string("tcgen05.commit: ctaMask 0x1 without .multicast::cluster", err.msg,
              "... message");
    op.multicast = true;
    op.cta_mask = 0;
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 2, 0, 0, &t, &err),
           "multicast to no CTA refused");
    is_string("tcgen05.commit.multicast::cluster: ctaMask 0x0 names no CTA", err.msg,
              "... message");
    op.cta_mask = 0x7;
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 2, 0, 0, &t, &err),
           "multicast past the cluster refused");
    is_string("tcgen05.commit.multicast::cluster: ctaMask 0x7 names a rank outside the cluster",
              err.msg, "... message");
    op.cta_mask = 0x1;
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 3, 0, 0, &t, &err),
           "cta_group::2 in a cluster of 3 refused");
    is_string("tcgen05.commit.cta_group::2: a cluster of 3 CTAs has no pair for every CTA (the "
              "size must be even)", err.msg, "... message");
    op.cta_group = 1;
    is_int(SMMA_OK, smma_tc05_commit_targets(&op, 3, 2, 0, &t, &err),
           "cta_group::1 multicast in a cluster of 3");
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 3, 3, 0, &t, &err),
           "an issuing rank outside the cluster refused");
    op.cta_group = 3;
    is_int(SMMA_EINVAL, smma_tc05_commit_targets(&op, 2, 0, 0, &t, &err),
           "cta_group 3 refused");
}

static void
test_ptxas(void)
{
    char buf[2048];
    smma_tmem_ldst op;
    smma_tmem_cp cp;
    smma_tc05_mma mma;
    unsigned s, num, k, cg, a, f, w, bad, n, v;
    int p, st;
    bool full = test_level() >= 2;

    if (!ptxas_available()) {
        skip_block(7, PTXAS_SKIP);
        return;
    }
    /* About 120 ptxas runs at the default level, all combinations at level 2.
     * tcgen05.ld / st: every shape, .x1 and the largest .num (level 2: every
     * .num), with and without pack. */
    for (st = 0; st < 2; st++) {
        bad = n = 0;
        for (s = 0; s < SMMA_TMEM_SHAPE_COUNT; s++)
            for (num = 1; num <= max_num[s]; num *= 2)
                for (p = 0; p < 2; p++) {
                    if (!full && num != 1 && (num != max_num[s] || st || p))
                        continue;
                    op = mkldst((smma_tmem_shape) s, num, p, 0);
                    if (s == SMMA_TMEM_16X32BX2)
                        op.half_off = num * (p ? 2 : 1);
                    if ((st ? smma_ptx_tc05_st : smma_ptx_tc05_ld)(&op, buf, sizeof(buf), NULL)
                        != SMMA_OK)
                        bail("no text for %s", smma_tmem_shape_name(op.shape));
                    check_asm(SMMA_PTX_TC05_VERSION, buf, n == 0, &bad);
                    n++;
                }
        ok(bad == 0, "ptxas assembles %u tcgen05.%s variants for sm_100a (the first is refused "
           "for sm_90a)", n, st ? "st" : "ld");
    }
    /* tcgen05.cp: every shape and cta_group; the formats with cta_group::1
     * (level 2: every combination). */
    bad = n = 0;
    for (s = 0; s < SMMA_TMEM_CP_SHAPE_COUNT; s++)
        for (cg = 1; cg <= 2; cg++)
            for (f = 0; f < SMMA_TMEM_CP_FMT_COUNT; f++) {
                if (!full && cg == 2 && f != 0)
                    continue;
                cp = mkcp((smma_tmem_cp_shape) s, cg, (smma_tmem_cp_fmt) f);
                smma_ptx_tc05_cp(&cp, buf, sizeof(buf), NULL);
                check_asm(SMMA_PTX_TC05_VERSION, buf, n == 0, &bad);
                n++;
            }
    ok(bad == 0, "ptxas assembles %u tcgen05.cp variants (and refuses one for sm_90a)", n);
    /* tcgen05.mma: every kind, cta_group, A source, .ws, legal scale vector;
     * each refused for sm_90a, and the PTX 8.7 ones refused at 8.6. */
    bad = n = 0;
    for (k = 0; k < SMMA_TC05_KIND_COUNT; k++)
        for (cg = 1; cg <= 2; cg++)
            for (a = 0; a < 2; a++)
                for (w = 0; w < 2; w++)
                    for (v = 0; v <= 4; v++) {
                        memset(&mma, 0, sizeof(mma));
                        mma.kind = (smma_tc05_kind) k;
                        mma.cta_group = cg;
                        mma.a_tmem = a;
                        mma.ws = w;
                        mma.scale_vec = v;
                        if (smma_ptx_tc05_mma(&mma, buf, sizeof(buf), NULL) != SMMA_OK)
                            continue;
                        check_asm(smma_ptx_tc05_mma_version(&mma), buf, full || n % 8 == 0,
                                  &bad);
                        if (strcmp(smma_ptx_tc05_mma_version(&mma), "8.7") == 0
                            && (full || (cg == 1 && !a))
                            && assemble("8.6", SMMA_PTX_TC05_TARGET, buf, false) == 0 && bad++ < 3)
                            diag("ptxas accepts at PTX 8.6: %s", buf);
                        n++;
                    }
    ok(bad == 0 && n == 40, "ptxas assembles all %u legal tcgen05.mma qualifier sets at their "
       "PTX version for sm_100a, refuses every 8th (level 2: every one) for sm_90a, and the "
       "8.7 ones at 8.6", n);
    bad = n = 0;
    for (k = 0; k < SMMA_TC05_MISC_COUNT; k++)
        for (cg = 1; cg <= 2; cg++) {
            if (k >= SMMA_TC05_WAIT_LD && cg == 2)
                continue;
            smma_ptx_tc05_misc((smma_tc05_misc) k, cg, 32, buf, sizeof(buf), NULL);
            check_asm(SMMA_PTX_TC05_VERSION, buf, full || cg == 2 || k >= SMMA_TC05_WAIT_LD,
                      &bad);
            n++;
        }
    ok(bad == 0, "ptxas assembles alloc, dealloc, relinquish_alloc_permit, commit and its "
       ".multicast::cluster form (both cta_groups), wait::ld/st and the fences for sm_100a, "
       "refuses each kind for sm_90a (%u)", n);
    /* The minimum: PTX ISA 8.6 with sm_100a; 8.5 does not know the target. */
    ok(assemble("8.5", SMMA_PTX_TC05_TARGET, "tcgen05.wait::ld.sync.aligned;", false) != 0,
       "ptxas refuses PTX ISA 8.5 for sm_100a");
    /* Illegal selectors, refused by ptxas as by the API. */
    {
        static const char *const illegal[] = {
            "tcgen05.ld.sync.aligned.16x64b.x256.b32 {%t0}, [%taddr];",
            "tcgen05.ld.sync.aligned.32x32b.x3.b32 {%t0, %t1, %t2}, [%taddr];",
            "tcgen05.ld.sync.aligned.16x256b.x64.b32 {%t0}, [%taddr];",
            "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::4X [%taddr], "
            "%tadesc, %tbdesc, %tidesc, [%tsfa], [%tsfb], %tp;",
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::1X [%taddr], "
            "%tadesc, %tbdesc, %tidesc, [%tsfa], [%tsfb], %tp;",
            "tcgen05.mma.ws.cta_group::2.kind::f16 [%taddr], %tadesc, %tbdesc, %tidesc, %tp;",
            "tcgen05.cp.cta_group::1.64x128b [%taddr], %tsdesc;",
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%tdst], 48;",
            "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster"
            ".multicast::cluster.b64 [%tmbar];",
        };
        size_t i;

        bad = 0;
        for (i = 0; i < sizeof(illegal) / sizeof(illegal[0]); i++)
            if (assemble("8.7", SMMA_PTX_TC05_TARGET, illegal[i], false) == 0 && bad++ < 3)
                diag("ptxas accepts %s", illegal[i]);
        ok(bad == 0, "ptxas refuses .16x64b.x256, .32x32b.x3, .16x256b.x64, mxf8f6f4 with "
           "4X, mxf4nvf4 with 1X, .ws with cta_group::2, .64x128b without multicast, alloc "
           "of 48 columns, a multicast commit without ctaMask");
    }
    /* Not test points: what ptxas accepts outside the model. */
    diag("ptxas %s .16x32bx2 with immHalfSplitoff 0 (the API refuses overlapping halves)",
         assemble("8.6", SMMA_PTX_TC05_TARGET,
                  "tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%t0, %t1}, [%taddr], 0;", false)
             == 0 ? "accepts" : "refuses");
}

/* ---- the drawable form -------------------------------------------------------------------- */

static void
is_label(const char *instr, const char *operand, int num, int sf_id, unsigned row,
         unsigned col, const char *want)
{
    smma_grid g;
    smma_grid_cell cell;
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    smma_error err = { "" };

    o.num = num;
    o.sf_id = sf_id;
    if (smma_tmem_grid(instr, operand, &o, &g, &err) != SMMA_OK) {
        ok(false, "%s %s: %s", instr, operand, err.msg);
        return;
    }
    g.cell(&g, row, col, &cell);
    is_string(want, cell.label, "%s %s: cell (%u, %u)", instr, operand, row, col);
}

static unsigned grid_listed, grid_found;

static void
count_grid(const char *instr, const char *operand, const char *what, void *ctx)
{
    smma_grid g;
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;

    (void) what;
    (void) ctx;
    grid_listed++;
    if (smma_tmem_grid(instr, operand, &o, &g, NULL) == SMMA_OK && g.rows > 0 && g.cols > 0)
        grid_found++;
}

static void
test_grid(void)
{
    smma_grid g;
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    smma_error err = { "" };

    is_label("tcgen05.ld.16x256b", "d", -1, -1, 9, 2, "T5:r2");
    is_label("tcgen05.ld.32x32b", "d", 4, -1, 3, 2, "T3:r2");
    is_label("tcgen05.ld.16x32bx2", "d", 2, -1, 1, 3, "T17:r1");
    is_label("tcgen05.mma.m64", "d", -1, -1, 33, 4, "m17,n4");
    is_label("tcgen05.mma.m64", "d", -1, -1, 20, 4, ".");
    is_label("tcgen05.mma.m256", "d", -1, -1, 200, 5, "m200,n5");
    is_label("tcgen05.mma.m128.cg2", "d", -1, -1, 70, 4, "m6,n12");
    is_label("tcgen05.mma.mxf4nvf4.4x", "sfa", -1, -1, 37, 6, "m37,k2");
    is_label("tcgen05.mma.mxf8f6f4.1x", "sfb", -1, 3, 5, 3, "n5,k0");
    is_label("tcgen05.mma.mxf8f6f4.1x", "sfb", -1, 3, 5, 0, ".");
    is_label("tcgen05.cp.64x128b.warpx2::01_23", "d", -1, -1, 104, 1, "r40.w1");
    is_label("tcgen05.mma.mxf8f6f4.1x.cg2", "sfa", -1, 2, 170, 10, "m202,k0");
    is_label("tcgen05.mma.mxf8f6f4.1x.cg2", "sfb", -1, -1, 170, 28, "n234,k0");
    is_label("tcgen05.mma.mxf8f6f4.1x.cg2", "sfb", -1, -1, 42, 28, "n234,k0");
    is_label("tcgen05.cp.32x128b.warpx4.cg2", "d", -1, -1, 200, 2, "r8.w2");
    is_int(SMMA_OK, smma_tmem_grid("tcgen05.mma.m128", "d", &o, &g, &err), "m128 d");
    ok(g.rows == 128 && g.cols == 16, "... 128 lanes x 16 columns (got %u x %u)", g.rows,
       g.cols);
    is_int(SMMA_GRID_NOT_MINE, smma_tmem_grid("mma.m16n8k16.bf16", "a", &o, &g, &err),
           "mma.sync is not the family's");
    is_int(SMMA_GRID_NOT_MINE, smma_tmem_grid("tcgen05.foo", "d", &o, &g, &err),
           "tcgen05.foo is not the family's");
    is_int(SMMA_EINVAL, smma_tmem_grid("tcgen05.ld.32x32b", "a", &o, &g, &err),
           "operand a of tcgen05.ld.32x32b refused");
    is_string("operand 'a' of tcgen05.ld.32x32b is not one of: d", err.msg, "... message");
    o.num = 256;
    is_int(SMMA_EINVAL, smma_tmem_grid("tcgen05.ld.16x64b", "d", &o, &g, &err),
           "num 256 refused");
    is_string("tcgen05.ld/st .16x64b: .x256 is not a valid .num (valid: .x1, .x2, .x4, ... "
              ".x128)", err.msg, "... message");
    o.num = -1;
    o.sf_id = 1;
    is_int(SMMA_EINVAL, smma_tmem_grid("tcgen05.mma.mxf4nvf4.4x", "sfb", &o, &g, &err),
           "sf_id 1 with 4X refused");
    is_string("scale factors: SF_ID 1 is not legal with .scale_vec::4X (legal: 0)", err.msg,
              "... message");
    grid_listed = grid_found = 0;
    smma_tmem_grid_list(count_grid, NULL);
    ok(grid_listed == 40 && grid_found == grid_listed,
       "the list names 40 drawable layouts, each found by the lookup (%u of %u)", grid_found,
       grid_listed);
}

int
main(void)
{
    struct mrun w;
    unsigned i;

    plan_lazy();
    test_memory();
    test_ldst_layouts();
    test_ldst_literals();
    test_ldst_exec();
    test_d_layout();
    test_a_layout();
    test_sf_layout();
    test_cp();
    for (i = 0; i < 2; i++) {
        w.t[i] = new_tmem();
        w.smem[i] = malloc(SMEM_BYTES);
        if (w.smem[i] == NULL)
            sysbail("out of memory");
    }
    test_mma_literal(&w);
    test_mma_random(&w);
    test_mma_duplication(&w);
    for (i = 0; i < 2; i++) {
        free(w.t[i]);
        free(w.smem[i]);
    }
    test_ptx_api();
    test_commit();
    test_ptxas();
    test_grid();
    return exit_status();
}
