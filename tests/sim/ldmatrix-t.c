/*
 * tests/sim/ldmatrix-t.c - ldmatrix / stmatrix .m8n8 .b16 as functions and
 * their executors.
 *
 *   - for every variant (ld/st, .x1/.x2/.x4, with and without .trans) the
 *     map (lane, reg, elem) -> (matrix, row, col) is a bijection onto the
 *     num matrices, and smma_matrix_coord / smma_matrix_slot are inverses;
 *   - address lanes: row r of matrix i comes from lane 8i + r, and lanes
 *     past 8 * num are unused;
 *   - literal slots read off PTX ISA 9.7.14.5.15 (a lane holds two adjacent
 *     elements of a row, or with .trans of a column);
 *   - the executors: literal words from a patterned shared memory with
 *     scattered row addresses, stmatrix then ldmatrix gives the registers
 *     back, and bad addresses or selectors are refused, outputs untouched;
 *   - the cross-check with fragment.h: ldmatrix.x4 with the usual address
 *     pattern gives mma.m16n8k16's A fragment (and m16n8k32's, byte-wise),
 *     ldmatrix.x2 of an n-major B and ldmatrix.x2.trans of a k-major B give
 *     the B fragment, lane by lane.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <softmma/fragment.h>
#include <softmma/ldmatrix.h>

#include "tap/basic.h"

#define SMEM 2048u

static const unsigned nums[3] = { 1, 2, 4 };

static smma_matrix_op
mkop(smma_matrix_kind kind, unsigned num, bool trans)
{
    smma_matrix_op op;

    op.kind = kind;
    op.num = num;
    op.trans = trans;
    return op;
}

static const char *
opname(const smma_matrix_op *op, char *buf, size_t size)
{
    snprintf(buf, size, "%s.x%u%s", op->kind == SMMA_LDMATRIX ? "ldmatrix" : "stmatrix",
             op->num, op->trans ? ".trans" : "");
    return buf;
}

static void
test_bijection(const smma_matrix_op *op)
{
    unsigned char seen[4][8][8];
    unsigned lane, reg, e, m, r, c, l2, r2, e2, bad_cover = 0, bad_inv = 0, bad_back = 0;
    char name[64];

    opname(op, name, sizeof(name));
    memset(seen, 0, sizeof(seen));
    for (lane = 0; lane < 32; lane++)
        for (reg = 0; reg < op->num; reg++)
            for (e = 0; e < 2; e++) {
                smma_matrix_coord(op, lane, reg, e, &m, &r, &c);
                if (m >= op->num || r >= 8 || c >= 8) {
                    if (bad_cover++ < 10)
                        diag("%s: lane %u reg %u elem %u -> (%u, %u, %u) outside", name, lane,
                             reg, e, m, r, c);
                    continue;
                }
                if (seen[m][r][c]++ != 0 && bad_cover++ < 10)
                    diag("%s: (%u, %u, %u) reached twice", name, m, r, c);
                if (smma_matrix_slot(op, m, r, c, &l2, &r2, &e2) != SMMA_OK || l2 != lane
                    || r2 != reg || e2 != e) {
                    if (bad_inv++ < 10)
                        diag("%s: slot(coord(%u, %u, %u)) = (%u, %u, %u)", name, lane, reg, e,
                             l2, r2, e2);
                }
            }
    ok(bad_cover == 0, "%s: every element of the %u matrices once", name, op->num);
    ok(bad_inv == 0, "%s: slot inverts coord", name);
    for (m = 0; m < op->num; m++)
        for (r = 0; r < 8; r++)
            for (c = 0; c < 8; c++) {
                unsigned m2, rr, cc;

                if (smma_matrix_slot(op, m, r, c, &l2, &r2, &e2) != SMMA_OK) {
                    bad_back++;
                    continue;
                }
                smma_matrix_coord(op, l2, r2, e2, &m2, &rr, &cc);
                if ((m2 != m || rr != r || cc != c) && bad_back++ < 10)
                    diag("%s: coord(slot(%u, %u, %u)) = (%u, %u, %u)", name, m, r, c, m2, rr,
                         cc);
            }
    ok(bad_back == 0, "%s: coord inverts slot", name);
}

static void
test_addr_lanes(void)
{
    unsigned i, lane, m, r, bad = 0;
    smma_matrix_op op;

    for (i = 0; i < 3; i++) {
        op = mkop(SMMA_LDMATRIX, nums[i], false);
        bad = 0;
        for (lane = 0; lane < 32; lane++) {
            int rc = smma_matrix_addr_row(&op, lane, &m, &r);

            if (lane < 8 * op.num) {
                if (rc != SMMA_OK || smma_matrix_addr_lane(m, r) != lane || m != lane / 8)
                    bad++;
            } else if (rc != SMMA_EINVAL) {
                bad++;
            }
        }
        ok(bad == 0, ".x%u: lanes 0..%u give the row addresses, lane 8i + r row r of "
           "matrix i", op.num, 8 * op.num - 1);
    }
    is_int(0, smma_matrix_addr_lane(0, 0), "row 0 of matrix 0: lane 0");
    is_int(13, smma_matrix_addr_lane(1, 5), "row 5 of matrix 1: lane 13");
    is_int(31, smma_matrix_addr_lane(3, 7), "row 7 of matrix 3: lane 31");
    is_int(32, smma_matrix_addr_lane(4, 0), "matrix 4: no lane");
}

static void
is_coord(const smma_matrix_op *op, unsigned lane, unsigned reg, unsigned e, unsigned wm,
         unsigned wr, unsigned wc)
{
    unsigned m, r, c;
    char name[64];

    smma_matrix_coord(op, lane, reg, e, &m, &r, &c);
    if (!ok(m == wm && r == wr && c == wc, "%s: lane %u reg %u elem %u holds matrix %u (%u, %u)",
            opname(op, name, sizeof(name)), lane, reg, e, wm, wr, wc))
        diag("got matrix %u (%u, %u)", m, r, c);
}

static void
test_literals(void)
{
    smma_matrix_op x4 = mkop(SMMA_LDMATRIX, 4, false), x4t = mkop(SMMA_LDMATRIX, 4, true);
    smma_matrix_op bad = mkop(SMMA_LDMATRIX, 3, false);
    unsigned m, r, c;

    /* Without .trans: lane t, row t / 4, columns 2 (t % 4) + elem. */
    is_coord(&x4, 0, 0, 0, 0, 0, 0);
    is_coord(&x4, 0, 0, 1, 0, 0, 1);
    is_coord(&x4, 1, 0, 0, 0, 0, 2);
    is_coord(&x4, 4, 1, 0, 1, 1, 0);
    is_coord(&x4, 5, 2, 1, 2, 1, 3);
    is_coord(&x4, 31, 3, 1, 3, 7, 7);
    /* With .trans: lane t, column t / 4, rows 2 (t % 4) + elem. */
    is_coord(&x4t, 0, 0, 0, 0, 0, 0);
    is_coord(&x4t, 0, 0, 1, 0, 1, 0);
    is_coord(&x4t, 1, 0, 0, 0, 2, 0);
    is_coord(&x4t, 4, 1, 1, 1, 1, 1);
    is_coord(&x4t, 5, 2, 1, 2, 3, 1);
    is_coord(&x4t, 31, 3, 1, 3, 7, 7);
    /* Outside. */
    smma_matrix_coord(&x4, 32, 0, 0, &m, &r, &c);
    ok(m == 4 && r == 8 && c == 8, "lane 32 is outside");
    smma_matrix_coord(&bad, 0, 0, 0, &m, &r, &c);
    ok(r == 8 && c == 8, ".x3: every slot outside");
}

/* Shared memory with row r of matrix m at 48 * (4 m + r) reversed within
 * each matrix, plus 16 bytes of padding: rows far from contiguous.  Element
 * (m, r, c) holds 0x0mrc. */
static void
scattered(unsigned num, uint32_t addr[32], uint8_t *smem)
{
    unsigned lane, m, r, c;

    memset(smem, 0xee, SMEM);
    for (lane = 0; lane < 32; lane++)
        addr[lane] = 0xfffffff1u; /* unused lanes: garbage the executor must ignore */
    for (m = 0; m < num; m++)
        for (r = 0; r < 8; r++) {
            uint32_t a = 32 * (8 * m + (7 - r)) + 16 * (m & 1);

            addr[8 * m + r] = a;
            for (c = 0; c < 8; c++) {
                smem[a + 2 * c] = (uint8_t) ((r << 4) | c);
                smem[a + 2 * c + 1] = (uint8_t) m;
            }
        }
}

static void
test_exec_literals(void)
{
    smma_matrix_op op;
    uint32_t addr[32], regs[32 * 4];
    static uint8_t smem[SMEM];
    smma_error err;

    scattered(4, addr, smem);
    op = mkop(SMMA_LDMATRIX, 4, false);
    is_int(SMMA_OK, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err), "ldmatrix.x4 runs");
    is_hex(0x00010000, regs[0 * 4 + 0], "x4: lane 0 reg 0 = matrix 0 row 0 cols 0, 1");
    is_hex(0x02130212, regs[5 * 4 + 2], "x4: lane 5 reg 2 = matrix 2 row 1 cols 2, 3");
    is_hex(0x03770376, regs[31 * 4 + 3], "x4: lane 31 reg 3 = matrix 3 row 7 cols 6, 7");
    op.trans = true;
    is_int(SMMA_OK, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err),
           "ldmatrix.x4.trans runs");
    is_hex(0x00100000, regs[0 * 4 + 0], "x4.trans: lane 0 reg 0 = matrix 0 col 0 rows 0, 1");
    is_hex(0x02310221, regs[5 * 4 + 2], "x4.trans: lane 5 reg 2 = matrix 2 col 1 rows 2, 3");
    is_hex(0x03770367, regs[31 * 4 + 3], "x4.trans: lane 31 reg 3 = matrix 3 col 7 rows 6, 7");
    op = mkop(SMMA_LDMATRIX, 1, false);
    is_int(SMMA_OK, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err),
           "ldmatrix.x1 ignores the addresses of lanes 8..31");
    is_hex(0x00230022, regs[9], "x1: lane 9 reg 0 = row 2 cols 2, 3");
}

static void
test_round_trip(void)
{
    unsigned i, t, lane, bad;
    uint32_t addr[32], in[32 * 4], out[32 * 4];
    static uint8_t smem[SMEM];
    smma_matrix_op st, ld;
    smma_error err;
    tap_rng g;
    char name[64];

    tap_rng_seed(&g, 0x1d5a);
    for (i = 0; i < 3; i++)
        for (t = 0; t < 2; t++) {
            st = mkop(SMMA_STMATRIX, nums[i], t != 0);
            ld = mkop(SMMA_LDMATRIX, nums[i], t != 0);
            scattered(st.num, addr, smem);
            for (lane = 0; lane < 32 * st.num; lane++)
                in[lane] = (uint32_t) tap_rng_next(&g);
            memset(out, 0, sizeof(out));
            bad = smma_stmatrix_exec(&st, addr, in, smem, SMEM, &err) != SMMA_OK;
            bad += smma_ldmatrix_exec(&ld, addr, smem, SMEM, out, &err) != SMMA_OK;
            for (lane = 0; lane < 32 * st.num; lane++)
                if (in[lane] != out[lane] && bad++ < 10)
                    diag("lane %u reg %u: stored %08x, loaded %08x", lane / st.num,
                         lane % st.num, (unsigned) in[lane], (unsigned) out[lane]);
            ok(bad == 0, "%s then ldmatrix gives the registers back",
               opname(&st, name, sizeof(name)));
        }
    /* stmatrix.trans then ldmatrix without: the registers of the transpose. */
    st = mkop(SMMA_STMATRIX, 1, true);
    ld = mkop(SMMA_LDMATRIX, 1, false);
    scattered(1, addr, smem);
    for (lane = 0; lane < 32; lane++)
        in[lane] = ((uint32_t) (lane * 2 + 1) << 16) | (lane * 2);
    smma_stmatrix_exec(&st, addr, in, smem, SMEM, &err);
    smma_ldmatrix_exec(&ld, addr, smem, SMEM, out, &err);
    /* Element (r, c) was written from transposed slot: lane 4c + r / 2, half r % 2,
     * value 2 (4c + r / 2) + r % 2 = 8c + r. */
    is_hex(((uint32_t) 8 << 16) | 0, out[0], "stmatrix.trans: row 0 holds column 0 of regs");
    is_hex(((uint32_t) (8 * 3 + 5) << 16) | (8 * 2 + 5), out[5 * 4 + 1],
           "stmatrix.trans: lane 21 row 5 cols 2, 3");
}

static void
test_errors(void)
{
    smma_matrix_op op = mkop(SMMA_LDMATRIX, 4, false), st = mkop(SMMA_STMATRIX, 2, false);
    uint32_t addr[32], regs[32 * 4], keep[32 * 4];
    static uint8_t smem[SMEM], smem2[SMEM];
    smma_error err;
    unsigned lane, m, r;

    scattered(4, addr, smem);
    for (lane = 0; lane < 32 * 4; lane++)
        regs[lane] = keep[lane] = 0xabcd0000u + lane;
    addr[9] += 2;
    is_int(SMMA_EINVAL, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err),
           "a misaligned row address is refused");
    is_string("ldmatrix: lane 9: row address 0x1d2 is not 16-byte aligned", err.msg,
              "... with a message naming the lane");
    ok(memcmp(regs, keep, sizeof(regs)) == 0, "... registers untouched");
    addr[9] = SMEM - 8;
    is_int(SMMA_EINVAL, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err),
           "a row past the end of shared memory is refused");
    addr[9] = SMEM - 16;
    is_int(SMMA_OK, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err),
           "the last 16 bytes are a valid row");
    op.num = 3;
    is_int(SMMA_EINVAL, smma_ldmatrix_exec(&op, addr, smem, SMEM, regs, &err), ".x3 refused");
    is_string("ldmatrix: .x3 is not a valid .num (valid: .x1, .x2, .x4)", err.msg,
              "... with a message");
    ok(smma_matrix_slot(&op, 0, 0, 0, &lane, &m, &r) == SMMA_EINVAL, "... and has no slots");
    op.num = 4;
    is_int(SMMA_EINVAL, smma_ldmatrix_exec(&op, addr, NULL, SMEM, regs, &err),
           "no shared memory is refused");
    is_string("ldmatrix: NULL argument", err.msg, "... naming ldmatrix");
    st.num = 8;
    is_int(SMMA_EINVAL, smma_matrix_op_check(&st, &err), "stmatrix .x8 refused");
    is_string("stmatrix: .x8 is not a valid .num (valid: .x1, .x2, .x4)", err.msg,
              "... with a message");
    st.num = 2;
    memcpy(smem2, smem, SMEM);
    addr[3] = 5;
    is_int(SMMA_EINVAL, smma_stmatrix_exec(&st, addr, regs, smem, SMEM, &err),
           "stmatrix refuses a misaligned row");
    ok(memcmp(smem, smem2, SMEM) == 0, "... shared memory untouched");
    addr[3] = 0;
    op.num = 4;
    is_int(SMMA_EINVAL, smma_stmatrix_exec(&op, addr, regs, smem, SMEM, &err),
           "an ldmatrix variant given to the stmatrix executor is refused");
    is_int(SMMA_EINVAL, smma_ldmatrix_exec(&op, addr, NULL, SMEM, regs, &err),
           "NULL shared memory refused");
    ok(smma_matrix_slot(&op, 4, 0, 0, &lane, &m, &r) == SMMA_EINVAL
           && smma_matrix_slot(&op, 0, 8, 0, &lane, &m, &r) == SMMA_EINVAL
           && smma_matrix_slot(&op, 0, 0, 8, &lane, &m, &r) == SMMA_EINVAL,
       "slot refuses coordinates outside");
}

/* Compares ldmatrix's registers with fragment.h's packing of the same tile,
 * lane by lane, showing the first ten differences. */
static void
compare_regs(const char *what, const uint32_t *want, const uint32_t *got, unsigned n)
{
    unsigned i, bad = 0;

    for (i = 0; i < 32 * n; i++)
        if (want[i] != got[i] && bad++ < 10)
            diag("%s: lane %u reg %u: fragment %08x, ldmatrix %08x", what, i / n, i % n,
                 (unsigned) want[i], (unsigned) got[i]);
    ok(bad == 0, "%s", what);
}

/* The tile in shared memory at base, rows of row_bytes, row stride stride;
 * elements of elem_bytes bytes, little endian. */
static void
store_tile(uint8_t *smem, uint32_t base, unsigned stride, const uint32_t *tile, unsigned rows,
           unsigned cols, unsigned elem_bytes)
{
    unsigned r, c, b;

    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            for (b = 0; b < elem_bytes; b++)
                smem[base + r * stride + c * elem_bytes + b] =
                    (uint8_t) (tile[r * cols + c] >> (8 * b));
}

static void
test_mma_cross_check(void)
{
    static uint8_t smem[SMEM];
    uint32_t a[16 * 32], b[16 * 8], bt[8 * 16], want[32 * 4], got[32 * 4], addr[32];
    const smma_frag_layout *la, *lb;
    smma_matrix_op op;
    smma_error err;
    unsigned i, lane, stride = 48; /* padded rows, as kernels use against bank conflicts */
    tap_rng g;

    tap_rng_seed(&g, 0xa11);
    /* A of m16n8k16: 16 x 16 16-bit, row-major.  Lane l points at row l % 16,
     * k half l / 16: matrices (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15),
     * (8-15, 8-15), which are a0..a3. */
    la = smma_frag_layout_get(SMMA_MMA_M16N8K16_BF16, SMMA_OP_A);
    for (i = 0; i < 16 * 16; i++)
        a[i] = (uint32_t) tap_rng_next(&g) & 0xffff;
    memset(smem, 0, SMEM);
    store_tile(smem, 64, stride, a, 16, 16, 2);
    for (lane = 0; lane < 32; lane++)
        addr[lane] = 64 + (lane % 16) * stride + (lane / 16) * 16;
    op = mkop(SMMA_LDMATRIX, 4, false);
    smma_frag_pack(la, a, want);
    if (smma_ldmatrix_exec(&op, addr, smem, SMEM, got, &err) != SMMA_OK)
        bail("%s", err.msg);
    compare_regs("ldmatrix.x4 of row-major A = mma.m16n8k16 A fragment", want, got, 4);

    /* A of m16n8k32 (8-bit): the same addresses, each b16 two k. */
    la = smma_frag_layout_get(SMMA_MMA_M16N8K32_E4M3, SMMA_OP_A);
    for (i = 0; i < 16 * 32; i++)
        a[i] = (uint32_t) tap_rng_next(&g) & 0xff;
    store_tile(smem, 64, stride, a, 16, 32, 1);
    smma_frag_pack(la, a, want);
    if (smma_ldmatrix_exec(&op, addr, smem, SMEM, got, &err) != SMMA_OK)
        bail("%s", err.msg);
    compare_regs("ldmatrix.x4 of row-major 8-bit A = mma.m16n8k32 A fragment", want, got, 4);

    /* B of m16n8k16, 16 (k) x 8 (n).  Stored n-major (B^T row-major):
     * ldmatrix.x2, lane l < 16 at row n = l % 8, k half l / 8. */
    lb = smma_frag_layout_get(SMMA_MMA_M16N8K16_F16, SMMA_OP_B);
    for (i = 0; i < 16 * 8; i++)
        b[i] = (uint32_t) tap_rng_next(&g) & 0xffff;
    for (i = 0; i < 16 * 8; i++)
        bt[(i % 8) * 16 + i / 8] = b[i];
    memset(smem, 0, SMEM);
    store_tile(smem, 0, stride, bt, 8, 16, 2);
    for (lane = 0; lane < 32; lane++)
        addr[lane] = (lane % 8) * stride + ((lane / 8) % 2) * 16;
    op = mkop(SMMA_LDMATRIX, 2, false);
    smma_frag_pack(lb, b, want);
    if (smma_ldmatrix_exec(&op, addr, smem, SMEM, got, &err) != SMMA_OK)
        bail("%s", err.msg);
    compare_regs("ldmatrix.x2 of n-major B = mma.m16n8k16 B fragment", want, got, 2);

    /* The same B stored k-major (row-major K x N): ldmatrix.x2.trans, lane
     * l < 16 at row k = l. */
    memset(smem, 0, SMEM);
    store_tile(smem, 0, stride, b, 16, 8, 2);
    for (lane = 0; lane < 32; lane++)
        addr[lane] = (lane % 16) * stride;
    op.trans = true;
    if (smma_ldmatrix_exec(&op, addr, smem, SMEM, got, &err) != SMMA_OK)
        bail("%s", err.msg);
    compare_regs("ldmatrix.x2.trans of k-major B = mma.m16n8k16 B fragment", want, got, 2);
}

int
main(void)
{
    unsigned k, i, t;
    smma_matrix_op op;

    plan(3 * 12 + 7 + 14 + 10 + 8 + 15 + 6);
    for (k = 0; k < 2; k++)
        for (i = 0; i < 3; i++)
            for (t = 0; t < 2; t++) {
                op = mkop((smma_matrix_kind) k, nums[i], t != 0);
                test_bijection(&op);
            }
    test_addr_lanes();
    test_literals();
    test_exec_literals();
    test_round_trip();
    test_errors();
    test_mma_cross_check();
    return exit_status();
}
