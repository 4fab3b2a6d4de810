/*
 * tests/sim/sm80-plan-t.c - the address plans of the mma.sync kernels
 * (softmma/sm80.h), replayed on the simulator without a GPU.
 *
 * 1. The swizzle of shared-memory tiles is a bijection of (row, chunk, byte)
 *    onto the tile, keeps each row's bytes in the row, and puts the 16-byte
 *    units that one ldmatrix (or eight 16-byte loads) reads -- one logical
 *    chunk of eight consecutive rows -- in eight different bank groups.
 * 2. The sm80-v2 plan: tiles of A (K-major) and B (K-major and N-major) are
 *    stored in a simulated shared memory exactly as the kernel's loader
 *    stores them, every warp's ldmatrix.x4 of every k16 step is executed by
 *    the ldmatrix simulator with the lane addresses the kernel computes, and
 *    every register must hold the element that the mma.sync fragment layout
 *    (softmma/fragment.h) puts there.
 * 3. The order of CTA tiles is a bijection for every grid shape tried.
 * 4. sm80-bs-small versions 4 and 5: A's pieces cover its 16 rows once, a
 *    row after the other.
 * 5. sm80-bs-small version 3's raw ring, ldmatrix addresses, e2m1 exchange
 *    and A loads.
 * 6. sm80-bs-small versions 4 and 5: the converters' pieces of B cover a
 *    chunk once in runs of consecutive bytes; every bf16 pair a converter
 *    stores (B, and e2m1, 8-bit and bf16 A) is read by the mma lane and
 *    register that the m16n8k16 fragments, with the k order inside a
 *    block, assign it; the converters' stores and the mma warps' loads
 *    meet no bank conflict; block j's addresses are those of a block with
 *    the same swizzle plus a constant.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/fragment.h>
#include <softmma/ldmatrix.h>
#include <softmma/scale_layout.h>
#include <softmma/sm80.h>

#include "tap/basic.h"

static void
test_swizzle(void)
{
    static const unsigned widths[] = { 16, 32, 64, 128, 256, 512 };
    size_t w;

    for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
        unsigned rb = widths[w], rows = 64, cpr = rb / 16, r, c, b;
        uint8_t *seen = calloc((size_t) rows * rb, 1);
        bool bij = seen != NULL, in_row = true, free_of_conflicts = true;

        for (r = 0; bij && r < rows; r++)
            for (c = 0; c < cpr; c++)
                for (b = 0; b < 16; b++) {
                    uint32_t off = smma_sm80_smem_offset(r, c, b, rb);

                    if (off >= rows * rb || seen[off]++)
                        bij = false;
                    if (off / rb != r)
                        in_row = false;
                }
        for (r = 0; r < rows; r += 8)
            for (c = 0; c < cpr; c++) {
                unsigned groups = 0, q;

                for (q = 0; q < 8; q++)
                    groups |= 1u << ((smma_sm80_smem_offset(r + q, c, 0, rb) / 16) % 8);
                if (groups != 0xffu)
                    free_of_conflicts = false;
            }
        for (r = 0; r + 8 < rows && in_row; r++)
            for (c = 0; c < cpr; c++)
                if (smma_sm80_smem_offset(r + 8, c, 3, rb) != smma_sm80_smem_offset(r, c, 3, rb) +
                                                                   8 * rb)
                    in_row = false;
        ok(bij && in_row, "rows of %u bytes: the swizzle is a bijection within each row and "
           "repeats every 8 rows", rb);
        ok(free_of_conflicts, "rows of %u bytes: a chunk of 8 rows spans 8 bank groups", rb);
        free(seen);
    }
}

/* The plan of sm80-v2 (gpu/sm80/gemm_v2.cu): tiles of BM x BK (A), BN x BK
 * (B K-major) and BK x BN (B N-major) 16-bit elements, warps of 64 x 64. */
enum { BM = 128, BN = 256, BK = 64 };

/* A distinct 16-bit value for element (r, c) of an operand tile. */
static uint16_t
tag(unsigned r, unsigned c)
{
    return (uint16_t) (r * 256 + c);
}

/* Stores a rows x cols tile (the tile's row r holds tag(r, c)) in rows of
 * row_bytes bytes the way the loader does: 16-byte chunk c of row r at
 * smma_sm80_smem_offset(r, c, 0, row_bytes). */
static void
store_tile(uint8_t *smem, unsigned rows, unsigned cols, unsigned row_bytes, bool swap)
{
    unsigned r, c;

    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++) {
            uint16_t v = swap ? tag(c, r) : tag(r, c);
            uint32_t off = smma_sm80_smem_offset(r, c / 8, (c % 8) * 2, row_bytes);

            smem[off] = (uint8_t) v;
            smem[off + 1] = (uint8_t) (v >> 8);
        }
}

/* Executes one ldmatrix.x4 with the lane rows and chunks given. */
static bool
ldsm(uint8_t *smem, size_t size, unsigned row_bytes, const unsigned *rows,
     const unsigned *chunks, bool trans, uint32_t *regs)
{
    smma_matrix_op op = { SMMA_LDMATRIX, 4, trans };
    uint32_t addr[32];
    smma_error err;
    unsigned l;

    for (l = 0; l < 32; l++)
        addr[l] = smma_sm80_smem_offset(rows[l], chunks[l], 0, row_bytes);
    return smma_ldmatrix_exec(&op, addr, smem, size, regs, &err) == SMMA_OK;
}

/* The element held by (lane, reg, elem) of a fragment must be tag(row, col)
 * of the operand, (row, col) from the mma layout plus the tile origin. */
static void
test_v2_a(void)
{
    const smma_frag_layout *la = smma_frag_layout_get(SMMA_MMA_M16N8K16_BF16, SMMA_OP_A);
    size_t size = BM * BK * 2;
    uint8_t *smem = calloc(size, 1);
    unsigned wm, mi, kk, l, bad = 0, loads = 0;

    store_tile(smem, BM, BK, BK * 2, false);
    for (wm = 0; wm < BM; wm += 64)
        for (mi = 0; mi < 4; mi++)
            for (kk = 0; kk < BK / 16; kk++) {
                unsigned rows[32], chunks[32], r, e;
                uint32_t regs[32 * 4];

                for (l = 0; l < 32; l++)
                    smma_sm80_ldsm_a(l, wm + 16 * mi, kk, &rows[l], &chunks[l]);
                if (!ldsm(smem, size, BK * 2, rows, chunks, false, regs)) {
                    bad++;
                    continue;
                }
                loads++;
                for (l = 0; l < 32; l++)
                    for (r = 0; r < 4; r++)
                        for (e = 0; e < 2; e++) {
                            unsigned row, col;

                            smma_frag_coord(la, l, r, e, &row, &col);
                            if ((uint16_t) (regs[l * 4 + r] >> (16 * e)) !=
                                tag(wm + 16 * mi + row, 16 * kk + col))
                                bad++;
                        }
            }
    ok(bad == 0 && loads == 32, "sm80-v2 A: %u ldmatrix.x4 give the mma A fragments (%u wrong)",
       loads, bad);
    free(smem);
}

static void
test_v2_b(bool kmajor)
{
    const smma_frag_layout *lb = smma_frag_layout_get(SMMA_MMA_M16N8K16_BF16, SMMA_OP_B);
    size_t size = BN * BK * 2;
    unsigned row_bytes = kmajor ? BK * 2 : BN * 2;
    uint8_t *smem = calloc(size, 1);
    unsigned wn, nj, kk, l, bad = 0, loads = 0;

    /* The B tile: element (k, n) is tag(n, k); K-major rows are n. */
    if (kmajor)
        store_tile(smem, BN, BK, row_bytes, false);
    else
        store_tile(smem, BK, BN, row_bytes, true);
    for (wn = 0; wn < BN; wn += 64)
        for (nj = 0; nj < 4; nj++)
            for (kk = 0; kk < BK / 16; kk++) {
                unsigned rows[32], chunks[32], r, e;
                uint32_t regs[32 * 4];

                for (l = 0; l < 32; l++) {
                    if (kmajor)
                        smma_sm80_ldsm_b_kmajor(l, wn + 16 * nj, kk, &rows[l], &chunks[l]);
                    else
                        smma_sm80_ldsm_b_nmajor(l, wn + 16 * nj, kk, &rows[l], &chunks[l]);
                }
                if (!ldsm(smem, size, row_bytes, rows, chunks, !kmajor, regs)) {
                    bad++;
                    continue;
                }
                loads++;
                /* Registers 0, 1: the n8 tile at wn + 16 nj; 2, 3: the next. */
                for (l = 0; l < 32; l++)
                    for (r = 0; r < 4; r++)
                        for (e = 0; e < 2; e++) {
                            unsigned k, n;

                            smma_frag_coord(lb, l, r % 2, e, &k, &n);
                            if ((uint16_t) (regs[l * 4 + r] >> (16 * e)) !=
                                tag(wn + 16 * nj + 8 * (r / 2) + n, 16 * kk + k))
                                bad++;
                        }
            }
    ok(bad == 0 && loads == 64, "sm80-v2 B %s: %u ldmatrix.x4%s give the mma B fragments "
       "(%u wrong)", kmajor ? "K-major" : "N-major", loads, kmajor ? "" : ".trans", bad);
    free(smem);
}

/* The kernel reaches its addresses from a base per lane (or thread) plus a
 * step: those must be the addresses of the plans checked above. */
static void
test_steps(void)
{
    unsigned l, w, t, kk, bad_a = 0, bad_bk = 0, bad_bn = 0, bad_ld = 0, it;
    static const unsigned widths[] = { 128, 512 };

    for (l = 0; l < 32; l++)
        for (w = 0; w < 4; w++)
            for (t = 0; t < 4; t++)
                for (kk = 0; kk < 4; kk++) {
                    unsigned row, chunk;

                    smma_sm80_ldsm_a(l, 64 * (w % 2) + 16 * t, kk, &row, &chunk);
                    if (smma_sm80_ldsm_step128(smma_sm80_ldsm_a_base(l, 64 * (w % 2), 128), t,
                                               kk) != smma_sm80_smem_offset(row, chunk, 0, 128))
                        bad_a++;
                    smma_sm80_ldsm_b_kmajor(l, 64 * w + 16 * t, kk, &row, &chunk);
                    if (smma_sm80_ldsm_step128(smma_sm80_ldsm_bk_base(l, 64 * w, 128), t, kk) !=
                        smma_sm80_smem_offset(row, chunk, 0, 128))
                        bad_bk++;
                    smma_sm80_ldsm_b_nmajor(l, 64 * w + 16 * t, kk, &row, &chunk);
                    if (smma_sm80_ldsm_bn_base(l, 64 * w + 16 * t, 512) + 16 * 512 * kk !=
                        smma_sm80_smem_offset(row, chunk, 0, 512))
                        bad_bn++;
                }
    for (w = 0; w < 2; w++)
        for (t = 0; t < 256; t++)
            for (it = 0; it < 8; it++) {
                unsigned rb = widths[w], cpr = rb / 16, id = t + 256 * it;

                if (smma_sm80_load_base(t, rb) + it * smma_sm80_load_stride(256, rb) !=
                    smma_sm80_smem_offset(id / cpr, id % cpr, 0, rb))
                    bad_ld++;
            }
    ok(bad_a == 0, "A fragments: base ^ 32 kk + 2048 mi is the plan's address (%u wrong)",
       bad_a);
    ok(bad_bk == 0, "K-major B fragments: base ^ 32 kk + 2048 nj (%u wrong)", bad_bk);
    ok(bad_bn == 0, "N-major B fragments: base(nj) + 8192 kk (%u wrong)", bad_bn);
    ok(bad_ld == 0, "loads: base + it x stride is chunk thread + 256 it (%u wrong)", bad_ld);
}

/* The 128x4 scale offsets the kernels compute equal the layout's. */
static void
test_scales(void)
{
    static const size_t shapes[][2] = { { 128, 128 }, { 300, 1000 }, { 1, 32 }, { 257, 4096 } };
    size_t si, bad = 0, n = 0;

    for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
        size_t rows = shapes[si][0], k = shapes[si][1], kb = (k + 31) / 32, m, j, off;
        smma_error err;

        for (m = 0; m < rows; m++)
            for (j = 0; j < kb; j++, n++)
                if (smma_scale_offset(SMMA_SL_128X4, rows, k, 32, m, j, &off, &err) != SMMA_OK ||
                    off != smma_sm80_scale_128x4((uint32_t) m, (uint32_t) j,
                                                 (uint32_t) ((kb + 3) / 4 * 4)))
                    bad++;
    }
    ok(bad == 0, "smma_sm80_scale_128x4 equals smma_scale_offset on %zu scales (%zu wrong)", n,
       bad);

    /* smma_sm80_scale_off: either layout, vectors of 32 and 16 */
    bad = n = 0;
    for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
        unsigned vec, lay;

        for (vec = 16; vec <= 32; vec += 16)
            for (lay = 0; lay < 2; lay++) {
                size_t rows = shapes[si][0], k = shapes[si][1], kb = (k + vec - 1) / vec, m, j;
                size_t off;
                smma_error err;

                for (m = 0; m < rows; m++)
                    for (j = 0; j < kb; j++, n++)
                        if (smma_scale_offset(lay ? SMMA_SL_128X4 : SMMA_SL_LINEAR, rows, k, vec,
                                              m, j, &off, &err) != SMMA_OK ||
                            off != smma_sm80_scale_off((int) lay, (uint32_t) m, (uint32_t) j,
                                                       (uint32_t) kb,
                                                       (uint32_t) ((kb + 3) / 4 * 4)))
                            bad++;
            }
    }
    ok(bad == 0, "smma_sm80_scale_off equals smma_scale_offset in both layouts on %zu scales "
       "(%zu wrong)", n, bad);

    /* sm80-bs-large's version 2 copies one aligned word per row and k tile:
     * blocks 4w .. 4w + 3 of a row lie at its offset for block 0 plus 512 w
     * plus 0 .. 3. */
    bad = n = 0;
    for (uint32_t r = 0; r < 300; r++)
        for (uint32_t c = 0; c < 40; c++, n++)
            if (smma_sm80_scale_128x4(r, c, 40) !=
                smma_sm80_scale_128x4(r, 0, 40) + 512 * (c / 4) + c % 4)
                bad++;
    ok(bad == 0, "128x4: the word of blocks 4w .. 4w + 3 of a row is its block 0's plus 512 w "
       "(%zu scales, %zu wrong)", n, bad);
}

static void
test_tile_order(void)
{
    static const uint32_t grids[][3] = { { 64, 32, 8 }, { 1, 56, 8 }, { 13, 7, 8 }, { 3, 1, 8 },
                                         { 9, 9, 4 }, { 32, 16, 8 } };
    size_t g;

    for (g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
        uint32_t tm_n = grids[g][0], tn_n = grids[g][1], pid, tm, tn;
        uint8_t *seen = calloc((size_t) tm_n * tn_n, 1);
        bool bij = seen != NULL;

        for (pid = 0; bij && pid < tm_n * tn_n; pid++) {
            smma_sm80_tile_of(pid, tm_n, tn_n, grids[g][2], &tm, &tn);
            if (tm >= tm_n || tn >= tn_n || seen[tm * tn_n + tn]++)
                bij = false;
        }
        ok(bij, "CTA order over %u x %u tiles in groups of %u is a bijection", tm_n, tn_n,
           grids[g][2]);
        free(seen);
    }
}


/* A's pieces in sm80-bs-small versions 4 and 5 (softmma/sm80.h section
 * 5): 16 rows of rb bytes a chunk (128: e2m1, 256: 8 bits, 512: bf16),
 * every byte once, a row after the other. */
static void
test_small_apiece(void)
{
    static const unsigned rbs[] = { 128, 256, 512 };
    static const char *const names[] = { "e2m1", "8-bit", "bf16" };
    unsigned f;

    for (f = 0; f < 3; f++) {
        const unsigned rb = rbs[f], rp = rb / 16;
        uint8_t seen[16 * 512];
        unsigned p, row, byte, bad = 0;

        memset(seen, 0, sizeof(seen));
        for (p = 0; p < 16 * rp; p++) {
            smma_sm80_small_apiece(p, rp, &row, &byte);
            if (row >= 16 || byte + 16 > rb || seen[row * rb + byte]++ || row != p / rp ||
                byte != 16 * (p % rp))
                bad++;
        }
        ok(bad == 0, "bs-small %s: A's pieces cover its 16 rows once, a row after the other "
           "(%u wrong)", names[f], bad);
    }
}

/* sm80-bs-small version 3 (the end of gpu/sm80/bs_small.cu): the raw ring's swizzle,
 * the ldmatrix addresses, the k each lane holds (through the e2m1
 * exchange) and A's 8-byte loads. */
static uint32_t
prmt(uint32_t a, uint32_t b, uint32_t sel)
{
    uint64_t v = ((uint64_t) b << 32) | a;
    uint32_t r = 0;
    int i;

    for (i = 0; i < 4; i++)
        r |= (uint32_t) ((v >> (8 * ((sel >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return r;
}

/* sm80-bs-small version 6's ring and A (softmma/sm80.h section 6): the raw
 * pieces of a chunk, each lane's k, and the mma lanes' 8-byte loads of A. */
static void
test_s3(void)
{
    uint8_t seen[SMMA_SM80_S3_CHUNK / 16];
    unsigned r, p, lane, t, i, bad = 0, bad_k = 0, bad_act = 0, cover[16];

    memset(seen, 0, sizeof(seen));
    for (r = 0; r < 16; r++)
        for (p = 0; p < 16; p++) {
            uint32_t off = smma_sm80_s3_raw_off(r, p);

            if (off % 16 != 0 || off >= SMMA_SM80_S3_CHUNK || seen[off / 16]++ ||
                off / SMMA_SM80_S3_ROW != r)
                bad++;
        }
    ok(bad == 0, "bs-small ring: the raw pieces of a chunk fill its 4096 bytes once, each row "
       "its own 256 (%u wrong)", bad);
    /* every block's 16 k once over the four lanes, four consecutive k from k0 each */
    memset(cover, 0, sizeof(cover));
    for (t = 0; t < 4; t++)
        for (i = 0; i < 4; i++)
            if (smma_sm80_s3_k0(t) + i < 16)
                cover[smma_sm80_s3_k0(t) + i]++;
            else
                bad_k++;
    for (i = 0; i < 16; i++)
        bad_k += cover[i] != 1;
    ok(bad_k == 0, "bs-small ring: the four lanes hold a block's 16 k once, four consecutive "
       "from k0 each (%u wrong)", bad_k);
    {
        unsigned kc, nt, j, h;

        for (kc = 256; kc <= 512; kc += 256) /* A's 8-byte loads, a half-warp a wavefront */
            for (nt = 0; nt < 2; nt++)
                for (j = 0; j < kc / 16; j++)
                    for (h = 0; h < 2; h++) {
                        unsigned slots = 0;

                        for (lane = 16 * h; lane < 16 * h + 16; lane++) {
                            uint32_t off = smma_sm80_s3_act_off(
                                8 * nt + lane / 4, 16 * j + smma_sm80_s3_k0(lane % 4), kc);

                            if (off % 8 != 0)
                                bad_act++;
                            slots |= 1u << (off / 8 % 16);
                        }
                        if (slots != 0xffffu)
                            bad_act++;
                    }
    }
    ok(bad_act == 0, "bs-small ring: the mma lanes' 8-byte loads of A meet no bank conflict (%u)",
       bad_act);
    {
        unsigned kc, m, k, bad_rows = 0;

        /* rows of 2 kc + 32 bytes: a row's kc bf16 and 32 bytes of padding */
        for (kc = 256; kc <= 512; kc += 256)
            for (m = 0; m < 16; m++)
                for (k = 0; k < kc; k++)
                    bad_rows += smma_sm80_s3_act_off(m, k, kc) != m * (2 * kc + 32) + 2 * k;
        ok(bad_rows == 0, "bs-small ring: element (m, k) of A's converted chunk at m (2 kc + "
           "32) + 2 k, rows apart (%u wrong)", bad_rows);
    }
}

/* sm80-bs-small version 4 (softmma/sm80.h section 7): 256 converter
 * threads, chunks of 256 k (16 blocks), a CTA of 32 rows of B (two 16-row
 * tiles) and A's at most 16 rows (two n8 tiles).  A tag names a bf16 pair
 * by its row and first k: the converters write tags where the offsets say,
 * the mma lanes read them back into registers. */
#define S4_TAG(row, k) (((uint32_t) (row) << 16) | (uint32_t) (k))

static void
test_s4_b(unsigned h)
{
    enum { BLOCKS = 16, ROWS = 32, CVT = 2 * BLOCKS * 512 };
    const unsigned CT = 256 / h, tpr = 16 / h;
    static uint32_t mem[CVT / 4];
    uint8_t seen[ROWS * BLOCKS];
    unsigned it, ct, bad_cover = 0, bad_run = 0, bad_st = 0, bad_bank = 0, bad_k = 0;
    unsigned bad_rd = 0, bad_imm = 0;

    memset(seen, 0, sizeof(seen));
    memset(mem, 0xff, sizeof(mem));
    for (it = 0; it < 2 * h; it++)
        for (ct = 0; ct < CT; ct++) {
            unsigned row, blk, row1, blk1;

            smma_sm80_s4_piece(it, ct, h, &row, &blk);
            if (row >= ROWS || blk >= BLOCKS || seen[row * BLOCKS + blk]++)
                bad_cover++;
            /* 16 / h threads: as many consecutive blocks of a row (block
             * group it / 2), then of the next row */
            if (ct % tpr != 0) {
                smma_sm80_s4_piece(it, ct - 1, h, &row1, &blk1);
                if (row1 != row || blk1 + 1 != blk)
                    bad_run++;
            } else if (blk != tpr * (it / 2))
                bad_run++;
            else if (ct % 32 != 0) {
                smma_sm80_s4_piece(it, ct - tpr, h, &row1, &blk1);
                if (row1 + 1 != row || blk1 != blk)
                    bad_run++;
            }
        }
    /* The stores: thread ct stores, for each block (pieces 2 b and 2 b + 1)
     * and u, the slot of lane (r % 8) 4 + u: the two pieces' pairs 2 u and
     * 2 u + 1 (k 4 u .. 4 u + 3). */
    for (ct = 0; ct < h * CT; ct += 8) {
        unsigned u, t, b = ct / CT;

        for (u = 0; u < 4; u++) {
            unsigned mask = 0;

            for (t = ct % CT; t < ct % CT + 8; t++) {
                unsigned row, blk, row1, blk1, lane;
                uint32_t off;

                smma_sm80_s4_piece(2 * b, t, h, &row, &blk);
                smma_sm80_s4_piece(2 * b + 1, t, h, &row1, &blk1);
                lane = (row % 8) * 4 + u;
                off = smma_sm80_s4_bfrag_off(row / 16, blk, BLOCKS, lane);
                if (blk1 != blk || row1 != row + 8 || row % 16 >= 8 || off % 16 != 0 ||
                    off + 16 > CVT || mem[off / 4] != 0xffffffffu)
                    bad_st++;
                mem[off / 4] = S4_TAG(row, 16 * blk + 4 * u);
                mem[off / 4 + 1] = S4_TAG(row1, 16 * blk + 4 * u);
                mem[off / 4 + 2] = S4_TAG(row, 16 * blk + 4 * u + 2);
                mem[off / 4 + 3] = S4_TAG(row1, 16 * blk + 4 * u + 2);
                mask |= 1u << (off / 16 % 8);
            }
            if (mask != 0xffu)
                bad_bank++;
        }
    }
    /* Every mma lane's registers of every block: a0, a2 row g, a1, a3 row
     * g + 8, k 4 t and 4 t + 2 of the block. */
    for (ct = 0; ct < 2 * BLOCKS * 32; ct++) {
        unsigned w = ct / (BLOCKS * 32), j = ct / 32 % BLOCKS, lane = ct % 32;
        unsigned g = lane / 4, t = lane % 4;
        uint32_t off = smma_sm80_s4_bfrag_off(w, j, BLOCKS, lane);

        if (mem[off / 4] != S4_TAG(16 * w + g, 16 * j + 4 * t) ||
            mem[off / 4 + 1] != S4_TAG(16 * w + g + 8, 16 * j + 4 * t) ||
            mem[off / 4 + 2] != S4_TAG(16 * w + g, 16 * j + 4 * t + 2) ||
            mem[off / 4 + 3] != S4_TAG(16 * w + g + 8, 16 * j + 4 * t + 2))
            bad_k++;
        if (off != smma_sm80_s4_bfrag_off(w, j % 8, BLOCKS, lane) + 512 * (j - j % 8))
            bad_imm++;
        if (lane % 8 == 0) {
            unsigned mask = 0, l;

            for (l = lane; l < lane + 8; l++)
                mask |= 1u << (smma_sm80_s4_bfrag_off(w, j, BLOCKS, l) / 16 % 8);
            if (mask != 0xffu)
                bad_rd++;
        }
    }
    ok(bad_cover == 0 && bad_run == 0, "bs-small v4 B, %u block(s) a thread: the pieces cover a "
       "chunk's 32 rows x 16 blocks once, %u threads' copies as many blocks of a row in order "
       "(%u, %u wrong)", h, tpr, bad_cover, bad_run);
    ok(bad_st == 0, "bs-small v4 B, %u block(s) a thread: a thread's pieces 2 b, 2 b + 1 are one "
       "block of rows r and r + 8, each 16-byte store fills a free slot (%u wrong)", h, bad_st);
    ok(bad_bank == 0, "bs-small v4 B, %u block(s) a thread: a quarter-warp's stores hit 8 bank "
       "groups (%u)", h, bad_bank);
    ok(bad_k == 0, "bs-small v4 B, %u block(s) a thread: every mma lane reads rows g, g + 8 and k "
       "4t .. 4t + 3 of each block into a0 .. a3 (%u wrong)", h, bad_k);
    if (h > 1)
        return; /* the mma warps' side does not depend on h */
    ok(bad_rd == 0, "bs-small v4 B: an mma warp's 16-byte loads meet no bank conflict (%u)",
       bad_rd);
    ok(bad_imm == 0, "bs-small v4 B: block j's slot is block j %% 8's plus 512 (j - j %% 8) "
       "(%u wrong)", bad_imm);
}

static void
test_s4_a(void)
{
    enum { CT = 256, BLOCKS = 16, KC = 256, AFR = 2 * BLOCKS * 256 };
    static const unsigned rbs[] = { 128, 256, 512 };
    static const char *const names[] = { "e2m1", "8-bit", "bf16" };
    unsigned f, bad_rd = 0, bad_imm = 0;

    for (f = 0; f < 3; f++) {
        const unsigned rb = rbs[f], rp = rb / 16, pieces = 16 * rp;
        const unsigned np = rb == 128 ? 16 : rb == 512 ? 4 : 8; /* bf16 pairs of a piece */
        static uint32_t mem[AFR / 4];
        unsigned it, ct, q, bad_st = 0, bad_bank = 0, bad_k = 0;

        memset(mem, 0xff, sizeof(mem));
        for (it = 0; it * CT < pieces; it++)
            for (ct = 0; ct < CT; ct += 8)
                for (q = 0; q < np / 4; q++) { /* a quarter-warp's q-th 16-byte store */
                    unsigned mask = 0, t;

                    for (t = ct; t < ct + 8; t++) {
                        unsigned row, byte, k, j, h, lane;
                        uint32_t off;

                        if (it * CT + t >= pieces)
                            continue;
                        smma_sm80_small_apiece(it * CT + t, rp, &row, &byte);
                        k = byte * KC / rb + 8 * q;
                        j = k / 16;
                        h = k % 16 / 8;
                        lane = (row % 8) * 4 + 2 * h;
                        off = smma_sm80_s4_afrag_off(row / 8, j, BLOCKS, lane);
                        if (off % 16 != 0 || off + 16 > AFR || mem[off / 4] != 0xffffffffu ||
                            smma_sm80_s4_afrag_off(row / 8, j, BLOCKS, lane + 1) != off + 8)
                            bad_st++;
                        mem[off / 4] = S4_TAG(row, k);
                        mem[off / 4 + 1] = S4_TAG(row, k + 2);
                        mem[off / 4 + 2] = S4_TAG(row, k + 4);
                        mem[off / 4 + 3] = S4_TAG(row, k + 6);
                        mask |= 1u << (off / 16 % 8);
                    }
                    if (it * CT + ct < pieces && mask != 0xffu)
                        bad_bank++;
                }
        for (ct = 0; ct < 2 * BLOCKS * 32; ct++) {
            unsigned nt = ct / (BLOCKS * 32), j = ct / 32 % BLOCKS, lane = ct % 32;
            uint32_t off = smma_sm80_s4_afrag_off(nt, j, BLOCKS, lane);

            if (mem[off / 4] != S4_TAG(8 * nt + lane / 4, 16 * j + 4 * (lane % 4)) ||
                mem[off / 4 + 1] != S4_TAG(8 * nt + lane / 4, 16 * j + 4 * (lane % 4) + 2))
                bad_k++;
            if (f == 0) {
                unsigned j0 = 0;

                while (smma_sm80_s4_axor(j0) != smma_sm80_s4_axor(j))
                    j0++;
                if (off != smma_sm80_s4_afrag_off(nt, j0, BLOCKS, lane) + 256 * (j - j0))
                    bad_imm++;
                if (lane % 16 == 0) {
                    unsigned mask = 0, l;

                    for (l = lane; l < lane + 16; l++)
                        mask |= 1u << (smma_sm80_s4_afrag_off(nt, j, BLOCKS, l) / 8 % 16);
                    if (mask != 0xffffu)
                        bad_rd++;
                }
            }
        }
        ok(bad_st == 0, "bs-small v4 %s A: each 16-byte store fills two lanes' free registers "
           "(%u wrong)", names[f], bad_st);
        ok(bad_bank == 0, "bs-small v4 %s A: a quarter-warp's stores hit 8 bank groups (%u)",
           names[f], bad_bank);
        ok(bad_k == 0, "bs-small v4 %s A: every mma lane reads row 8 nt + g, k 4t .. 4t + 3 of "
           "each block into b0, b1 (%u wrong)", names[f], bad_k);
    }
    ok(bad_rd == 0, "bs-small v4 A: an mma warp's 8-byte loads meet no bank conflict (%u)",
       bad_rd);
    ok(bad_imm == 0, "bs-small v4 A: block j's offset is that of the first block with its XOR "
       "plus 256 times the difference (%u wrong)", bad_imm);
}

/* sm80-bs-small version 6 (softmma/sm80.h section 8): the table of bf16
 * pairs has one word per byte and lane in 64 KB; a lane's prmt of its word
 * gives the table entry of the byte it wants; the word loads of a warp from
 * version 3's ring and its table loads meet no bank conflict; the lanes'
 * bytes cover each block's 16 k once, four consecutive from
 * smma_sm80_s3_k0(t). */
static void
test_s6(void)
{
    static uint8_t owner[65536];
    unsigned x, lane, t, i, j, bad = 0, bad_word = 0, bad_bank = 0, bad_k = 0;

    memset(owner, 0, sizeof(owner));
    for (x = 0; x < 256; x++)
        for (lane = 0; lane < 32; lane++) {
            uint32_t off = smma_sm80_s6_lut_off(x, lane);

            if (off % 256 >= 128 || off / 256 != x)
                bad++;
            for (i = 0; i < 4; i++)
                if (off + i >= sizeof(owner) || owner[off + i]++ != 0)
                    bad++;
        }
    ok(bad == 0, "bs-small v6: the table (256 x 32 words) lies in the lower 128 bytes of each "
       "256 of 64 KB, each word once (%u wrong)", bad);
    /* lane (g, t) of the prmt: the word holding its byte 2 (t % 2) + i */
    for (lane = 0; lane < 32; lane++)
        for (i = 0; i < 2; i++) {
            unsigned b = smma_sm80_s6_byte(lane % 4, i);
            uint32_t sel = 0x7604u | b << 4, word = 0x9c5a31e7u ^ (lane * 0x01010101u);

            if (prmt(word, 4 * lane, sel) != smma_sm80_s6_lut_off((word >> (8 * b)) & 0xffu, lane))
                bad_word++;
        }
    ok(bad_word == 0, "bs-small v6: prmt(word, 4 lane, 0x7604 | byte << 4) is the table entry of "
       "that byte for the lane (%u wrong)", bad_word);
    /* the word loads of block j (piece j / 2 of a 512-k chunk, its half j
     * % 2): rows g and g + 8, word t / 2 */
    for (j = 0; j < 32; j++)
        for (i = 0; i < 2; i++) {
            uint32_t seen[32];
            unsigned nb = 0, k, dup;

            for (lane = 0; lane < 32; lane++) {
                uint32_t a = smma_sm80_s3_raw_off(lane / 4 + 8 * i, j / 2) + 8 * (j % 2) +
                             4 * (lane % 4 / 2);

                for (dup = 0, k = 0; k < nb; k++)
                    if (seen[k] == a)
                        dup = 1;
                    else if (seen[k] / 4 % 32 == a / 4 % 32)
                        bad_bank++;
                if (!dup)
                    seen[nb++] = a;
            }
        }
    for (lane = 0; lane < 32; lane++) /* the table: bank = lane for every byte */
        if (smma_sm80_s6_lut_off(lane * 7 % 256, lane) / 4 % 32 != lane)
            bad_bank++;
    ok(bad_bank == 0, "bs-small v6: a warp's word loads of a block and its table loads meet no "
       "bank conflict (%u)", bad_bank);
    {
        unsigned cover[16];

        memset(cover, 0, sizeof(cover));
        for (t = 0; t < 4; t++)
            for (i = 0; i < 2; i++) {
                /* byte b of word t / 2 is byte 4 (t / 2) + b of the block */
                unsigned kb = 2 * (4 * (t / 2) + smma_sm80_s6_byte(t, i));

                if (kb != smma_sm80_s3_k0(t) + 2 * i)
                    bad_k++;
                cover[kb]++;
                cover[kb + 1]++;
            }
        for (i = 0; i < 16; i++)
            bad_k += cover[i] != 1;
    }
    ok(bad_k == 0, "bs-small v6: lane t's two bytes are k 4 t .. 4 t + 3, the four lanes a "
       "block's 16 k once (%u wrong)", bad_k);
}

int
main(void)
{
    plan_lazy();
    test_swizzle();
    test_v2_a();
    test_v2_b(true);
    test_v2_b(false);
    test_steps();
    test_scales();
    test_tile_order();
    test_small_apiece();
    test_s3();
    test_s6();
    test_s4_b(1);
    test_s4_b(2);
    test_s4_a();
    return exit_status();
}
