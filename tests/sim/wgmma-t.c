/*
 * tests/sim/wgmma-t.c - wgmma.mma_async (sm_90a): variants, register
 * fragments, the shared-memory descriptor, the executor, PTX text and the
 * drawable form.
 *
 *   - variants: every legal selector set is accepted, each illegal one
 *     refused with a message naming it; names round-trip;
 *   - fragments: literal slots read off the PTX ISA figures; every slot
 *     agrees with CUTLASS's CuTe layouts (ALayout_64x16, ALayout_64x32,
 *     CLayout_64xN), a second source; coord and slot are inverse bijections
 *     for every format and N; pack/unpack round-trip into literal words;
 *   - descriptor: literal words summed by hand from the ISA's table, round
 *     trips, refusals of the bits outside the table;
 *   - addresses: the ISA's worked examples, a start offset inside a 128B
 *     swizzle row (as kernels advance K), dense layouts as bijections;
 *   - executor: literal sums, then random tiles for every format pair,
 *     N = 8, 16, 64, 256, A from registers and from shared memory, K- and
 *     MN-major (16-bit), all four swizzles, random imm-scale and scale-d,
 *     equal to smma_gemm bitwise under exact-rn and h100-bf16 / h100-fp8;
 *   - PTX: literal text, then with CUDA: ptxas assembles each instruction
 *     for sm_90a and refuses it for sm_90; illegal N, trans on fp8, bad
 *     immediates are refused by the API and by ptxas;
 *   - grid: labels, NOT_MINE, errors, the list.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/wgmma.h>

#include "ptxas.h"
#include "tap/basic.h"

static const smma_format pairs[6][2] = {
    { SMMA_BF16, SMMA_BF16 }, { SMMA_FP16, SMMA_FP16 }, { SMMA_E4M3, SMMA_E4M3 },
    { SMMA_E4M3, SMMA_E5M2 }, { SMMA_E5M2, SMMA_E4M3 }, { SMMA_E5M2, SMMA_E5M2 },
};

static smma_wgmma_variant
make(unsigned p, unsigned n)
{
    return smma_wgmma_variant_make(pairs[p][0], pairs[p][1], n);
}

static smma_wgmma_frag
frag(const smma_wgmma_variant *v, smma_wgmma_operand op)
{
    smma_wgmma_frag f;
    smma_error err;

    if (smma_wgmma_frag_get(v, op, &f, &err) != SMMA_OK)
        bail("frag_get: %s", err.msg);
    return f;
}

static void
name_of(const smma_wgmma_variant *v, char *buf, size_t size)
{
    smma_error err;

    if (smma_wgmma_name(v, buf, size, &err) != SMMA_OK)
        bail("name: %s", err.msg);
}

/* ---- variants and names -------------------------------------------------- */

static void
expect_bad(const smma_wgmma_variant *v, const char *needle, const char *what)
{
    smma_error err = { "" };
    int rc = smma_wgmma_check(v, &err);

    ok(rc == SMMA_EINVAL && strstr(err.msg, needle) != NULL,
       "check refuses %s, naming '%s' (%s)", what, needle, err.msg);
}

static void
test_variants(void)
{
    unsigned n, bad = 0, count = 0, src, ta, tb, sa, sb;
    smma_wgmma_variant v;
    smma_format fmts[5] = { SMMA_BF16, SMMA_FP16, SMMA_E4M3, SMMA_E5M2, SMMA_FP32 };
    unsigned a, b;

    /* Every combination of the selectors: legal exactly as the ISA says. */
    for (a = 0; a < 5; a++)
    for (b = 0; b < 5; b++)
    for (n = 0; n <= 264; n += 4)
    for (src = 0; src < 2; src++)
    for (ta = 0; ta < 2; ta++)
    for (tb = 0; tb < 2; tb++)
    for (sa = 0; sa < 3; sa++)
    for (sb = 0; sb < 3; sb++) {
        static const int scales[3] = { 1, -1, 0 };
        bool half = a < 2, fp8 = a == 2 || a == 3, want;

        v = smma_wgmma_variant_make(fmts[a], fmts[b], n);
        v.a_smem = src;
        v.trans_a = ta;
        v.trans_b = tb;
        v.scale_a = scales[sa];
        v.scale_b = scales[sb];
        want = (half && b == a) || (fp8 && (b == 2 || b == 3));
        want = want && n >= 8 && n <= 256 && n % 8 == 0 && sa < 2 && sb < 2;
        want = want && (half || (!ta && !tb)) && (!ta || src);
        count++;
        if ((smma_wgmma_check(&v, NULL) == SMMA_OK) != want && bad++ < 10)
            diag("a %u b %u n %u src %u trans %u%u scale %d %d: want %s", a, b, n, src, ta, tb,
                 v.scale_a, v.scale_b, want ? "legal" : "illegal");
    }
    ok(bad == 0, "%u selector combinations: check accepts exactly the legal ones", count);

    v = make(0, 12);
    expect_bad(&v, "n 12", "N = 12");
    v = make(2, 264);
    expect_bad(&v, "n 264", "N = 264");
    v = make(0, 0);
    expect_bad(&v, "n 0", "N = 0");
    v = make(2, 64), v.a_smem = true, v.trans_a = true;
    expect_bad(&v, "trans_a", "imm-trans-a with e4m3");
    v = make(3, 64), v.trans_b = true;
    expect_bad(&v, "trans_b", "imm-trans-b with e4m3 x e5m2");
    v = make(0, 64), v.trans_a = true;
    expect_bad(&v, "register form", "imm-trans-a with A in registers");
    v = make(1, 64), v.scale_a = 2;
    expect_bad(&v, "scale_a", "imm-scale-a = 2");
    v = make(1, 64), v.scale_b = 0;
    expect_bad(&v, "scale_b", "imm-scale-b = 0");
    v = smma_wgmma_variant_make(SMMA_BF16, SMMA_FP16, 8);
    expect_bad(&v, "b_fmt", "bf16 x f16");
    v = smma_wgmma_variant_make(SMMA_E4M3, SMMA_BF16, 8);
    expect_bad(&v, "b_fmt", "e4m3 x bf16");
    v = smma_wgmma_variant_make(SMMA_E2M1, SMMA_E2M1, 8);
    expect_bad(&v, "a_fmt", "e2m1");
    expect_bad(NULL, "no wgmma variant", "NULL");
    v = make(0, 8);
    is_int(16, smma_wgmma_k(&v), "K of bf16 is 16");
    v = make(4, 8);
    is_int(32, smma_wgmma_k(&v), "K of e5m2 x e4m3 is 32");
}

static void
expect_name(const char *text, int want_rc, unsigned want_p, unsigned want_n)
{
    smma_wgmma_variant v;
    smma_error err = { "" };
    int rc = smma_wgmma_from_name(text, &v, &err);

    if (want_rc != SMMA_OK) {
        ok(rc == want_rc && err.msg[0] != '\0', "from_name refuses '%s' (%s)", text, err.msg);
        return;
    }
    ok(rc == SMMA_OK && v.a_fmt == pairs[want_p][0] && v.b_fmt == pairs[want_p][1] &&
       v.n == want_n && !v.a_smem && v.scale_a == 1 && v.scale_b == 1 && v.scale_d,
       "from_name reads '%s'", text);
}

static void
test_names(void)
{
    unsigned p, n, bad = 0;
    char buf[64], ptx[96];
    smma_wgmma_variant v, back;
    smma_error err;

    static const char *const up[6][2] = {
        { "BF16", "BF16" }, { "F16", "F16" }, { "E4M3", "E4M3" },
        { "E4M3", "E5M2" }, { "E5M2", "E4M3" }, { "E5M2", "E5M2" },
    };

    for (p = 0; p < 6; p++)
        for (n = 8; n <= 256; n += 8) {
            v = make(p, n);
            name_of(&v, buf, sizeof(buf));
            snprintf(ptx, sizeof(ptx), "WGMMA.MMA_ASYNC.SYNC.ALIGNED.M64N%uK%u.F32.%s.%s", n,
                     smma_wgmma_k(&v), up[p][0], up[p][1]);
            if (smma_wgmma_from_name(buf, &back, &err) != SMMA_OK || back.a_fmt != v.a_fmt ||
                back.b_fmt != v.b_fmt || back.n != n ||
                smma_wgmma_from_name(ptx, &back, &err) != SMMA_OK || back.a_fmt != v.a_fmt ||
                back.b_fmt != v.b_fmt || back.n != n)
                bad++;
        }
    ok(bad == 0, "every name of 6 format pairs x 32 N, and its PTX spelling, reads back");
    v = make(0, 16);
    name_of(&v, buf, sizeof(buf));
    is_string("wgmma.m64n16k16.bf16", buf, "name of bf16 N 16");
    v = make(3, 64);
    name_of(&v, buf, sizeof(buf));
    is_string("wgmma.m64n64k32.e4m3.e5m2", buf, "name of e4m3 x e5m2 N 64");
    is_int(SMMA_ERANGE, smma_wgmma_name(&v, buf, 10, &err), "a short buffer is reported");
    expect_name("wgmma.m64n256k16.f16", SMMA_OK, 1, 256);
    expect_name("wgmma.m64n8k32.e5m2.e4m3", SMMA_OK, 4, 8);
    expect_name("wgmma.mma_async.sync.aligned.m64n24k16.f32.bf16.bf16", SMMA_OK, 0, 24);
    expect_name("WGMMA.MMA_ASYNC.SYNC.ALIGNED.M64N72K32.F32.E5M2.E5M2", SMMA_OK, 5, 72);
    expect_name("wgmma.m64n12k16.bf16", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.m64n16k16.e4m3", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.m64n16k32.e4m3", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.m64n16k16.bf16.bf16", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.f16", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.m64n16k16.bf16x", SMMA_EINVAL, 0, 0);
    expect_name("wgmma.m32n16k16.bf16", SMMA_EINVAL, 0, 0);
    expect_name("mma.m16n8k16.bf16", SMMA_EINVAL, 0, 0);
    {
        smma_gemm_shape s;

        v = make(2, 32);
        v.scale_d = false;
        ok(smma_wgmma_shape(&v, &s, &err) == SMMA_OK && s.m == 64 && s.n == 32 && s.k == 32 &&
           s.a_fmt == SMMA_E4M3 && s.c_fmt == SMMA_NONE && s.d_fmt == SMMA_FP32,
           "shape of e4m3 N 32 without scale-d: 64 x 32 x 32, no C");
    }
}

/* ---- register fragments -------------------------------------------------- */

struct lit {
    unsigned p, n, op, thread, reg, elem, row, col;
    const char *why;
};

static void
test_literals(void)
{
    /* Hand-derived cells: the ISA gives these layouts as figures ("WGMMA
     * .m64nNk16 register fragment layout for matrix A", "... for accumulator
     * matrix D", "WGMMA .m64nNk32 ... for matrix A"), in which warp w repeats
     * warp 0's mma.m16n8k16 / m16n8k32 picture 16w rows lower; each cell
     * below is worked out from that description by hand (group = lane / 4,
     * tig = lane % 4), and CuTe's layouts check every cell further down. */
    static const struct lit lits[] = {
        { 0, 8, SMMA_WGMMA_OP_A, 0, 0, 1, 0, 1, "T0 a1: row 0, col 1" },
        { 0, 8, SMMA_WGMMA_OP_A, 1, 0, 0, 0, 2, "T1 a0: row 0, col 2" },
        { 0, 8, SMMA_WGMMA_OP_A, 4, 0, 0, 1, 0, "T4 a0: row 1 (group 1)" },
        { 0, 8, SMMA_WGMMA_OP_A, 0, 1, 0, 8, 0, "T0 a2: row 8" },
        { 0, 8, SMMA_WGMMA_OP_A, 0, 2, 0, 0, 8, "T0 a4: col 8" },
        { 0, 8, SMMA_WGMMA_OP_A, 37, 2, 1, 17, 11, "T37 a5: warp 1 group 1 tig 1" },
        { 1, 8, SMMA_WGMMA_OP_A, 127, 3, 1, 63, 15, "T127 a7: the last element" },
        { 2, 8, SMMA_WGMMA_OP_A, 0, 0, 3, 0, 3, "fp8 T0 a3: row 0, col 3" },
        { 2, 8, SMMA_WGMMA_OP_A, 1, 0, 0, 0, 4, "fp8 T1 a0: col 4" },
        { 2, 8, SMMA_WGMMA_OP_A, 0, 1, 0, 8, 0, "fp8 T0 a4: row 8" },
        { 2, 8, SMMA_WGMMA_OP_A, 0, 2, 0, 0, 16, "fp8 T0 a8: col 16" },
        { 5, 8, SMMA_WGMMA_OP_A, 100, 3, 2, 57, 18, "fp8 T100 a14: warp 3 group 1 tig 0" },
        { 3, 8, SMMA_WGMMA_OP_A, 127, 3, 3, 63, 31, "fp8 T127 a15: the last element" },
        { 0, 8, SMMA_WGMMA_OP_D, 0, 1, 0, 0, 1, "D T0 d1: row 0, col 1" },
        { 0, 8, SMMA_WGMMA_OP_D, 0, 2, 0, 8, 0, "D T0 d2: row 8" },
        { 0, 8, SMMA_WGMMA_OP_D, 3, 3, 0, 8, 7, "D T3 d3: row 8, col 7" },
        { 0, 16, SMMA_WGMMA_OP_D, 0, 4, 0, 0, 8, "D T0 d4: col 8 (second block)" },
        { 2, 64, SMMA_WGMMA_OP_D, 37, 6, 0, 25, 10, "D T37 d6: warp 1, row 25, col 10" },
        { 1, 256, SMMA_WGMMA_OP_D, 127, 127, 0, 63, 255, "D T127 d127: the last element" },
    };
    size_t i;

    for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
        const struct lit *l = &lits[i];
        smma_wgmma_variant v = make(l->p, l->n);
        smma_wgmma_frag f = frag(&v, (smma_wgmma_operand) l->op);
        unsigned row = 999, col = 999, t = 999, r = 999, e = 999;

        smma_wgmma_coord(&f, l->thread, l->reg, l->elem, &row, &col);
        ok(row == l->row && col == l->col, "coord %s (got %u, %u)", l->why, row, col);
        ok(smma_wgmma_slot(&f, l->row, l->col, &t, &r, &e) == SMMA_OK && t == l->thread &&
           r == l->reg && e == l->elem, "slot  %s (got T%u r%u.%u)", l->why, t, r, e);
    }
}

/* CUTLASS's CuTe layouts (include/cute/atom/mma_traits_sm90_gmma.hpp), a
 * second source: thread t = (t % 4, t / 4 % 8, t / 32) with strides (s0, 1,
 * 16), value v = (v % x, v / x % 2, v / (2x)) with strides (64, 8, s2), and
 * the flat index m + 64 * col of a column-major 64-row tile:
 *   ALayout_64x16 and CLayout_64xN: s0 = 128, x = 2, s2 = 512
 *   ALayout_64x32:                  s0 = 256, x = 4, s2 = 1024
 * The value index is the element index i of the ISA (register i / elems). */
static void
cute_coord(unsigned elem_bits, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
    unsigned s0 = elem_bits == 8 ? 256 : 128, x = elem_bits == 8 ? 4 : 2;
    unsigned s2 = elem_bits == 8 ? 1024 : 512;
    unsigned idx = t % 4 * s0 + t / 4 % 8 + t / 32 * 16 + i % x * 64 + i / x % 2 * 8 +
                   i / (2 * x) * s2;

    *row = idx % 64;
    *col = idx / 64;
}

static void
test_bijection(void)
{
    static unsigned char seen[64 * 256];
    unsigned p, n, op, bad_cute = 0, bad_bij = 0, layouts = 0;

    for (p = 0; p < 6; p++)
        for (n = 8; n <= 256; n += 8)
            for (op = 0; op < 2; op++) {
                smma_wgmma_variant v = make(p, n);
                smma_wgmma_frag f = frag(&v, op ? SMMA_WGMMA_OP_D : SMMA_WGMMA_OP_A);
                unsigned t, r, e, row, col, ct, cr, ce, cur, cuc;

                if (op == 0 && n != 8 && n != 256)
                    continue; /* A does not depend on N */
                layouts++;
                if (128 * f.regs * f.elems != f.rows * f.cols)
                    bad_bij++;
                memset(seen, 0, sizeof(seen));
                for (t = 0; t < 128; t++)
                    for (r = 0; r < f.regs; r++)
                        for (e = 0; e < f.elems; e++) {
                            smma_wgmma_coord(&f, t, r, e, &row, &col);
                            if (row >= f.rows || col >= f.cols || seen[row * f.cols + col]++ ||
                                smma_wgmma_slot(&f, row, col, &ct, &cr, &ce) != SMMA_OK ||
                                ct != t || cr != r || ce != e) {
                                if (bad_bij++ < 10)
                                    diag("layout %u/%u/%u: T%u r%u.%u -> (%u, %u)", p, n, op,
                                         t, r, e, row, col);
                                continue;
                            }
                            cute_coord(f.elem_bits, t, r * f.elems + e, &cur, &cuc);
                            if ((cur != row || cuc != col) && bad_cute++ < 10)
                                diag("layout %u/%u/%u: T%u r%u.%u -> (%u, %u), CuTe (%u, %u)",
                                     p, n, op, t, r, e, row, col, cur, cuc);
                        }
            }
    ok(bad_bij == 0, "%u layouts (A of 6 format pairs, D of every N): coord is a bijection "
       "onto the tile and slot its inverse", layouts);
    ok(bad_cute == 0, "every slot of those layouts agrees with CuTe's ALayout_64x16, "
       "ALayout_64x32 and CLayout_64xN");
    {
        smma_wgmma_variant v = make(0, 8);
        smma_wgmma_frag f = frag(&v, SMMA_WGMMA_OP_A);
        unsigned row = 0, col = 0, t = 7, r = 7, e = 7;

        smma_wgmma_coord(&f, 128, 0, 0, &row, &col);
        ok(row == 64 && col == 16, "coord of thread 128 lies outside the tile");
        smma_wgmma_coord(&f, 0, 4, 0, &row, &col);
        ok(row == 64 && col == 16, "coord of register 4 lies outside the tile");
        ok(smma_wgmma_slot(&f, 64, 0, &t, &r, &e) == SMMA_EINVAL && t == 7,
           "slot of row 64 is refused, outputs untouched");
        ok(smma_wgmma_slot(&f, 0, 16, &t, &r, &e) == SMMA_EINVAL, "slot of col 16 is refused");
    }
}

static void
test_pack(void)
{
    static uint32_t tile[64 * 256], back[64 * 256], regs[128 * 128];
    unsigned p, op, i, bad = 0;

    for (p = 0; p < 6; p++)
        for (op = 0; op < 2; op++) {
            smma_wgmma_variant v = make(p, 256);
            smma_wgmma_frag f = frag(&v, op ? SMMA_WGMMA_OP_D : SMMA_WGMMA_OP_A);

            for (i = 0; i < f.rows * f.cols; i++)
                tile[i] = (i * 2654435761u) & (f.elem_bits == 32 ? 0xffffffffu
                                                                 : (1u << f.elem_bits) - 1);
            smma_wgmma_pack(&f, tile, regs);
            smma_wgmma_unpack(&f, regs, back);
            if (memcmp(tile, back, sizeof(uint32_t) * f.rows * f.cols) != 0)
                bad++;
        }
    ok(bad == 0, "pack then unpack gives the tile back (A and D of every format pair, N 256)");

    {
        /* Code (row, col) = 256 row + col, masked; thread 37 register 2 of
         * bf16 A holds (17, 10) low and (17, 11) high; of e4m3 A, thread
         * 100 register 3 holds (57, 16..19). */
        smma_wgmma_variant v = make(0, 8);
        smma_wgmma_frag f = frag(&v, SMMA_WGMMA_OP_A);
        unsigned r, c;

        for (r = 0; r < 64; r++)
            for (c = 0; c < 16; c++)
                tile[r * 16 + c] = (256 * r + c) & 0xffff;
        smma_wgmma_pack(&f, tile, regs);
        is_hex((uint32_t) (256 * 17 + 11) << 16 | (256 * 17 + 10), regs[37 * 4 + 2],
               "bf16 A: T37 r2 holds (17, 11) high and (17, 10) low");
        v = make(2, 8);
        f = frag(&v, SMMA_WGMMA_OP_A);
        for (r = 0; r < 64; r++)
            for (c = 0; c < 32; c++)
                tile[r * 32 + c] = (r + 4 * c) & 0xff;
        smma_wgmma_pack(&f, tile, regs);
        is_hex((uint32_t) (57 + 76) << 24 | (uint32_t) (57 + 72) << 16 |
               (uint32_t) (57 + 68) << 8 | (57 + 64), regs[100 * 4 + 3],
               "e4m3 A: T100 r3 holds (57, 16..19), low to high");
        v = make(0, 16);
        f = frag(&v, SMMA_WGMMA_OP_D);
        for (i = 0; i < 64 * 16; i++)
            tile[i] = i;
        smma_wgmma_pack(&f, tile, regs);
        is_hex(25 * 16 + 10, regs[37 * 8 + 6], "D N 16: T37 r6 holds (25, 10)");
    }
    {
        smma_wgmma_variant v = make(0, 8);
        smma_wgmma_frag f;
        smma_error err = { "" };

        ok(smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_B, &f, &err) == SMMA_EINVAL &&
           strstr(err.msg, "shared memory") != NULL, "B has no register fragment (%s)",
           err.msg);
        v.n = 7;
        ok(smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_D, &f, &err) == SMMA_EINVAL &&
           strstr(err.msg, "n 7") != NULL, "no fragment for N 7 (%s)", err.msg);
    }
}

/* ---- the descriptor ---------------------------------------------------------- */

static void
test_desc(void)
{
    /* Hand-summed from the ISA's "Matrix Descriptor Format" table. */
    static const struct {
        smma_wgmma_desc d;
        uint64_t want;
        const char *why;
    } lit[] = {
        { { 0, 128, 256, 0, SMMA_WGMMA_SWIZZLE_NONE }, 0x0000001000080000ull,
          "8<<16 | 16<<32 (K-major, no swizzle)" },
        { { 0x400, 16, 1024, 0, SMMA_WGMMA_SWIZZLE_128B }, 0x4000004000010040ull,
          "0x40 | 1<<16 | 64<<32 | 1<<62 (128B)" },
        { { 0x1230, 0x40, 0x200, 3, SMMA_WGMMA_SWIZZLE_64B }, 0x8006002000040123ull,
          "0x123 | 4<<16 | 32<<32 | 3<<49 | 2<<62 (64B)" },
        { { 0x3FFF0, 0x3FFF0, 0x3FFF0, 7, SMMA_WGMMA_SWIZZLE_32B }, 0xC00E3FFF3FFF3FFFull,
          "every field full, 32B = 3<<62" },
    };
    size_t i;
    tap_rng rng;
    unsigned long bad = 0, legal = 0;
    smma_wgmma_desc d, back;
    smma_error err = { "" };
    uint64_t v = 0;

    for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
        v = 0;
        if (smma_wgmma_desc_encode(&lit[i].d, &v, &err) != SMMA_OK)
            diag("%s", err.msg);
        is_hex(lit[i].want, v, "desc %s", lit[i].why);
        ok(smma_wgmma_desc_decode(lit[i].want, &back, &err) == SMMA_OK &&
           memcmp(&back, &lit[i].d, sizeof(back)) == 0, "desc 0x%016llx decodes to its fields",
           (unsigned long long) lit[i].want);
    }
    tap_rng_seed(&rng, 0x96aa);
    for (i = 0; i < 100000; i++) {
        uint64_t r = tap_rng_next(&rng), again = 0;
        const uint64_t unnamed = (uint64_t) 3 << 14 | (uint64_t) 3 << 30 |
                                 (uint64_t) 7 << 46 | (uint64_t) 0x3FF << 52;
        bool want;
        int rc;

        if (i % 4 != 0)
            r &= ~unnamed;
        if (i % 8 == 1)
            r &= ~((uint64_t) 7 << 49);
        want = !(r & unnamed) && !(r >> 62 == 0 && (r >> 49 & 7) != 0);
        memset(&back, 0, sizeof(back));
        rc = smma_wgmma_desc_decode(r, &back, &err);
        if (rc == SMMA_OK)
            rc = smma_wgmma_desc_encode(&back, &again, &err) == SMMA_OK && again == r ? SMMA_OK
                                                                                       : -1;
        legal += want;
        if ((rc == SMMA_OK) != want && bad++ < 10)
            diag("word 0x%016llx: rc %d, want %d (%s)", (unsigned long long) r, rc, want,
                 err.msg);
    }
    ok(bad == 0, "100000 words: decode accepts exactly the %lu legal ones, which re-encode to "
       "themselves", legal);

    memset(&d, 0, sizeof(d));
    d.lbo = 8;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "lbo"),
       "encode refuses LBO 8 (%s)", err.msg);
    d.lbo = 0, d.start = 0x40000;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "start"),
       "encode refuses start 2^18 (%s)", err.msg);
    d.start = 0, d.sbo = 0x12348;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "sbo"),
       "encode refuses an unaligned SBO (%s)", err.msg);
    d.sbo = 0, d.base_offset = 1;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL &&
       strstr(err.msg, "without swizzling"), "encode refuses a base offset without swizzling "
       "(%s)", err.msg);
    d.swizzle = SMMA_WGMMA_SWIZZLE_64B, d.base_offset = 8;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "base_offset"),
       "encode refuses base offset 8 (%s)", err.msg);
    d.base_offset = 0, d.swizzle = (smma_wgmma_swizzle) 4;
    ok(smma_wgmma_desc_encode(&d, &v, &err) == SMMA_EINVAL && strstr(err.msg, "swizzle"),
       "encode refuses swizzle 4 (%s)", err.msg);
    ok(smma_wgmma_desc_decode(0x0000001000080000ull | 1ull << 46, &back, &err) == SMMA_EINVAL &&
       strstr(err.msg, "46-48"), "decode refuses bit 46 (tcgen05's fixed 0b001) (%s)",
       err.msg);
    ok(smma_wgmma_desc_decode(0x0000001000080000ull | 1ull << 61, &back, &err) == SMMA_EINVAL,
       "decode refuses bit 61 (tcgen05's swizzle field)");
    ok(smma_wgmma_desc_decode(0x0000001000080000ull | 1ull << 15, &back, &err) == SMMA_EINVAL,
       "decode refuses bit 15");
    ok(smma_wgmma_desc_decode(0x0000001000080000ull | 2ull << 49, &back, &err) == SMMA_EINVAL &&
       strstr(err.msg, "base_offset"), "decode refuses a base offset without swizzling (%s)",
       err.msg);
    is_int(SMMA_TC05_SWIZZLE_128B, smma_wgmma_swizzle_tc05(SMMA_WGMMA_SWIZZLE_128B),
           "wgmma 128B (1) is tcgen05 2");
    is_int(SMMA_TC05_SWIZZLE_64B, smma_wgmma_swizzle_tc05(SMMA_WGMMA_SWIZZLE_64B),
           "wgmma 64B (2) is tcgen05 4");
    is_int(SMMA_TC05_SWIZZLE_32B, smma_wgmma_swizzle_tc05(SMMA_WGMMA_SWIZZLE_32B),
           "wgmma 32B (3) is tcgen05 6");
    is_int(16, smma_wgmma_swizzle_bytes(SMMA_WGMMA_SWIZZLE_NONE), "none: 16-byte rows");
    is_int(32, smma_wgmma_swizzle_bytes(SMMA_WGMMA_SWIZZLE_32B), "32B: 32 bytes");
    is_int(0, smma_wgmma_swizzle_bytes((smma_wgmma_swizzle) 4), "mode 4: 0 bytes");
}

/* ---- shared-memory addresses ---------------------------------------------------- */

static uint32_t
addr(uint32_t start, uint32_t lbo, uint32_t sbo, smma_wgmma_swizzle s, bool mn, unsigned bits,
     unsigned row, unsigned k)
{
    smma_wgmma_desc d = { start, lbo, sbo, 0, s };
    uint32_t byte = 0xFFFFFFFF;
    smma_error err = { "" };

    if (smma_wgmma_smem_addr(&d, mn, bits, row, k, &byte, &err) != SMMA_OK)
        diag("(%u, %u): %s", row, k, err.msg);
    return byte;
}

static void
test_addr(void)
{
    unsigned r, k, bad = 0;
    smma_wgmma_desc d = { 0, 16, 1024, 2, SMMA_WGMMA_SWIZZLE_128B };
    uint32_t byte;
    smma_error err = { "" };

    /* The ISA's canonical-layout examples (see tests/sim/tcgen05-t.c), and
     * addresses summed by hand. */
    static const struct {
        uint32_t start, lbo, sbo;
        smma_wgmma_swizzle s;
        bool mn;
        unsigned bits, row, k;
        uint32_t want;
        const char *why;
    } lit[] = {
        { 0, 256, 128, SMMA_WGMMA_SWIZZLE_NONE, false, 16, 9, 10, 404,
          "K-major none bf16 (9, 10): 16 + 128 + 2*2 + 256" },
        { 0, 256, 128, SMMA_WGMMA_SWIZZLE_NONE, true, 16, 9, 9, 402,
          "MN-major none bf16 (9, 9): 2 + 128 + 16 + 256" },
        { 0, 256, 512, SMMA_WGMMA_SWIZZLE_32B, true, 16, 1, 5, 178,
          "MN-major 32B bf16 (1, 5): 162, bit 7 flips bit 4" },
        { 0, 512, 1024, SMMA_WGMMA_SWIZZLE_64B, true, 16, 3, 3, 214,
          "MN-major 64B bf16 (3, 3): 198, bits 7-8 = 01" },
        { 0, 16, 1024, SMMA_WGMMA_SWIZZLE_128B, false, 16, 1, 0, 144,
          "K-major 128B bf16 (1, 0): 128, bit 7 flips bit 4" },
        { 0, 16, 1024, SMMA_WGMMA_SWIZZLE_128B, false, 16, 7, 8, 992,
          "K-major 128B bf16 (7, 8): 912, bits 7-9 = 111" },
        { 32, 16, 1024, SMMA_WGMMA_SWIZZLE_128B, false, 16, 1, 0, 176,
          "K-major 128B bf16 at start 32, (1, 0): 160, bit 7 flips bit 4" },
        { 0x4000, 16, 512, SMMA_WGMMA_SWIZZLE_64B, false, 8, 8, 19, 0x4000 + 512 + 19,
          "K-major 64B e4m3 at 0x4000, (8, 19): start + SBO + 19, bits 7-8 of 0x4213 are 0" },
    };
    size_t i;

    for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++)
        is_int(lit[i].want, addr(lit[i].start, lit[i].lbo, lit[i].sbo, lit[i].s, lit[i].mn,
                                 lit[i].bits, lit[i].row, lit[i].k), "address %s", lit[i].why);

    /* A kernel steps K inside a 128-byte swizzled row by adding 32 bytes to
     * the start: the element k of the tile at start + 32 is element k + 16
     * of the tile at start (bf16), because the swizzle is one of absolute
     * address bits. */
    for (r = 0; r < 64; r++)
        for (k = 0; k < 16; k++)
            if (addr(1024 + 32, 16, 1024, SMMA_WGMMA_SWIZZLE_128B, false, 16, r, k) !=
                addr(1024, 16, 1024, SMMA_WGMMA_SWIZZLE_128B, false, 16, r, k + 16))
                bad++;
    ok(bad == 0, "128B K-major bf16: start + 32 reads the tile's columns 16..31");

    ok(smma_wgmma_smem_addr(&d, false, 16, 0, 0, &byte, &err) == SMMA_EINVAL &&
       strstr(err.msg, "base offset 2"), "a base offset is not modelled (%s)", err.msg);
    d.base_offset = 0;
    ok(smma_wgmma_smem_addr(&d, false, 32, 0, 0, &byte, &err) == SMMA_EINVAL &&
       strstr(err.msg, "elem_bits"), "32-bit elements are refused (%s)", err.msg);
    d.swizzle = SMMA_WGMMA_SWIZZLE_32B;
    ok(smma_wgmma_smem_addr(&d, false, 16, 0, 16, &byte, &err) == SMMA_EINVAL &&
       strstr(err.msg, "k 16"), "K-major 32B bf16: k 16 leaves the atom (%s)", err.msg);
}

/* Every dense layout: each element's bytes lie in [start, start + bytes),
 * no byte twice; store then load gives the tile back. */
static void
test_dense(void)
{
    static uint8_t smem[65536];
    static unsigned char used[65536];
    static uint32_t tile[64 * 256], back[64 * 256];
    static const unsigned ns[3] = { 8, 64, 256 };
    unsigned p, ni, op, s, mn, inner, count = 0, bad = 0;
    smma_error err = { "" };

    for (p = 0; p < 6; p++)
    for (ni = 0; ni < 3; ni++)
    for (op = 0; op < 2; op++)
    for (s = 0; s < 4; s++)
    for (mn = 0; mn < (p < 2 ? 2u : 1u); mn++)
    for (inner = 0; inner < 2; inner++) {
        smma_wgmma_variant v = make(p, ns[ni]);
        smma_wgmma_operand o = op ? SMMA_WGMMA_OP_B : SMMA_WGMMA_OP_A;
        smma_wgmma_desc d;
        uint32_t bytes = 0, start = 2048, byte;
        uint64_t w;
        unsigned rows = op ? v.n : 64, k = smma_wgmma_k(&v), eb = p < 2 ? 2 : 1, r, kk, j;
        bool good = true;

        v.a_smem = true;
        v.trans_a = op == 0 && mn;
        v.trans_b = op == 1 && mn;
        if (smma_wgmma_desc_dense(&v, o, (smma_wgmma_swizzle) s, inner, start, &d, &bytes,
                                  &err) != SMMA_OK ||
            smma_wgmma_desc_encode(&d, &w, &err) != SMMA_OK || start + bytes > sizeof(smem)) {
            diag("dense %u/%u/%u/%u/%u/%u: %s", p, ns[ni], op, s, mn, inner, err.msg);
            bad++;
            continue;
        }
        count++;
        memset(used, 0, sizeof(used));
        for (r = 0; r < rows && good; r++)
            for (kk = 0; kk < k && good; kk++) {
                if (smma_wgmma_smem_addr(&d, mn, eb * 8, r, kk, &byte, &err) != SMMA_OK ||
                    byte < start || byte + eb > start + bytes) {
                    good = false;
                    break;
                }
                for (j = 0; j < eb; j++)
                    if (used[byte + j]++)
                        good = false;
            }
        for (j = 0; j < rows * k; j++)
            tile[j] = (j * 40503u + p) & (eb == 2 ? 0xffff : 0xff);
        memset(smem, 0xA5, sizeof(smem));
        if (good && (smma_wgmma_smem_store(&v, o, w, tile, smem, sizeof(smem), &err) != SMMA_OK ||
                     smma_wgmma_smem_load(&v, o, w, smem, sizeof(smem), back, &err) != SMMA_OK ||
                     memcmp(tile, back, sizeof(uint32_t) * rows * k) != 0))
            good = false;
        if (!good && bad++ < 10)
            diag("dense %s N %u %s swizzle %u %s-major inner %u: LBO %lu SBO %lu bytes %lu (%s)",
                 op ? "B" : "A", v.n, smma_format_name(v.a_fmt), s, mn ? "MN" : "K", inner,
                 (unsigned long) d.lbo, (unsigned long) d.sbo, (unsigned long) bytes, err.msg);
    }
    ok(bad == 0 && count > 200, "%u dense layouts (A and B, every format pair, N 8/64/256, "
       "every swizzle, K- and MN-major, both orders): bijections into their extent, and "
       "store/load round trips", count);
    {
        smma_wgmma_variant v = make(0, 64);
        smma_wgmma_desc d;
        uint32_t bytes = 0;

        ok(smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, SMMA_WGMMA_SWIZZLE_NONE, true, 0, &d,
                                 &bytes, &err) == SMMA_OK && d.lbo == 128 && d.sbo == 256 &&
           bytes == 2048, "dense bf16 B N 64, K-major none, K inner: LBO 128, SBO 256, 2048 B");
        v.trans_b = true;
        ok(smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, SMMA_WGMMA_SWIZZLE_128B, false, 0, &d,
                                 &bytes, &err) == SMMA_OK && d.lbo == 1024 && d.sbo == 1024 &&
           bytes == 2048, "dense bf16 B N 64, N-major 128B: LBO 1024, SBO 1024, 2048 B");
        ok(smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, SMMA_WGMMA_SWIZZLE_128B, false, 512, &d,
                                 &bytes, &err) == SMMA_EINVAL && strstr(err.msg, "1024"),
           "dense 128B refuses start 512 (%s)", err.msg);
        ok(smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_D, SMMA_WGMMA_SWIZZLE_NONE, false, 0, &d,
                                 &bytes, &err) == SMMA_EINVAL, "dense refuses operand D");
    }
    {
        smma_wgmma_variant v = make(0, 8);
        smma_wgmma_desc d = { 0, 128, 256, 0, SMMA_WGMMA_SWIZZLE_NONE };
        uint64_t w;

        smma_wgmma_desc_encode(&d, &w, NULL);
        memset(smem, 0, 4096);
        ok(smma_wgmma_smem_store(&v, SMMA_WGMMA_OP_B, w, tile, smem, 200, &err) == SMMA_EINVAL &&
           strstr(err.msg, "outside") && smem[0] == 0, "store refuses a tile that leaves smem, "
           "writing nothing (%s)", err.msg);
        ok(smma_wgmma_smem_load(&v, SMMA_WGMMA_OP_D, w, smem, 4096, back, &err) == SMMA_EINVAL,
           "load refuses operand D");
        ok(smma_wgmma_smem_load(&v, SMMA_WGMMA_OP_B, w | 1ull << 50 | 1ull << 62, smem, 4096,
                                back, &err) == SMMA_EINVAL && strstr(err.msg, "base offset"),
           "load refuses a base offset (%s)", err.msg);
    }
}

/* ---- the executor ------------------------------------------------------------- */

static void
test_exec_literals(void)
{
    static uint32_t a[128 * 4], c[128 * 128], d[128 * 128];
    static uint8_t smem[4096];
    smma_wgmma_variant v = make(0, 8);
    smma_wgmma_desc desc = { 0, 128, 256, 0, SMMA_WGMMA_SWIZZLE_NONE };
    const smma_model *exact = tap_model("exact-rn");
    uint64_t bd;
    unsigned i;
    smma_error err = { "" };

    /* All ones (bf16 0x3F80): each D element is 16 (+ C). */
    smma_wgmma_desc_encode(&desc, &bd, NULL);
    for (i = 0; i < 128 * 4; i++)
        a[i] = 0x3F803F80u;
    for (i = 0; i < 256; i += 2) {
        smem[i] = 0x80;
        smem[i + 1] = 0x3F;
    }
    for (i = 0; i < 128 * 4; i++)
        c[i] = 0x3F800000u; /* 1.0 */
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, c, d, &err) == SMMA_OK &&
       d[0] == 0x41880000u && d[37 * 4 + 3] == 0x41880000u,
       "ones: D = 16 + 1 = 17 (0x41880000) everywhere (%s)", err.msg);
    v.scale_d = false;
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, NULL, d, &err) == SMMA_OK &&
       d[5] == 0x41800000u, "ones without scale-d: D = 16 (0x41800000)");
    {
        static const uint32_t zeros[128 * 4];

        ok(smma_wgmma_exec(&v, exact, zeros, 0, bd, smem, 256, c, d, &err) == SMMA_OK &&
           d[0] == 0 && d[37 * 4 + 3] == 0,
           "A of zeros without scale-d: D = +0 exactly, C not read (got 0x%08x)", d[0]);
    }
    v.scale_a = -1;
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, NULL, d, &err) == SMMA_OK &&
       d[127 * 4] == 0xC1800000u, "imm-scale-a -1: D = -16 (0xC1800000)");
    v.scale_b = -1;
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, NULL, d, &err) == SMMA_OK &&
       d[64] == 0x41800000u, "imm-scale-a and -b -1: D = 16");

    /* Errors. */
    v = make(0, 8);
    {
        smma_wgmma_desc dd;
        uint32_t bytes = 0;
        char buf[4] = "x";

        ok(smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, SMMA_WGMMA_SWIZZLE_NONE, true, 0, &dd,
                                 NULL, &err) == SMMA_EINVAL &&
               smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, SMMA_WGMMA_SWIZZLE_NONE, true, 0,
                                     NULL, &bytes, &err) == SMMA_EINVAL,
           "dense descriptor without its size or its descriptor output: refused");
        ok(smma_wgmma_smem_store(&v, SMMA_WGMMA_OP_B, bd, NULL, smem, 256, &err) ==
               SMMA_EINVAL &&
               smma_wgmma_smem_load(&v, SMMA_WGMMA_OP_B, bd, smem, 256, NULL, &err) ==
               SMMA_EINVAL &&
               smma_wgmma_smem_store(&v, SMMA_WGMMA_OP_B, bd, c, NULL, 256, &err) ==
               SMMA_EINVAL,
           "smem store and load without a tile or without shared memory: refused");
        ok(smma_wgmma_ptx(&v, buf, 1, &err) != SMMA_OK && buf[0] == '\0',
           "PTX text into a buffer of 1 byte: refused, the buffer left empty");
        ok(smma_wgmma_desc_decode((uint64_t) 1 << 52, &dd, &err) == SMMA_EINVAL &&
               strstr(err.msg, "0x0010000000000000") != NULL,
           "a descriptor with bit 52 alone set is refused (%s)", err.msg);
    }
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 255, c, d, &err) == SMMA_EINVAL &&
       strstr(err.msg, "outside"), "B outside smem is refused (%s)", err.msg);
    ok(smma_wgmma_exec(&v, exact, NULL, 0, bd, smem, 256, c, d, &err) == SMMA_EINVAL,
       "A registers NULL are refused");
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, NULL, d, &err) == SMMA_EINVAL,
       "D in NULL with scale-d is refused");
    ok(smma_wgmma_exec_part(&v, exact, a, 0, bd, smem, 256, c, d, 65, 8, &err) == SMMA_EINVAL
       && strstr(err.msg, "65 x 8"), "a part of 65 rows is refused (%s)", err.msg);
    ok(smma_wgmma_exec_part(&v, exact, a, 0, bd, smem, 256, c, d, 64, 9, &err) == SMMA_EINVAL
       && strstr(err.msg, "64 x 9"), "a part of 9 columns of N 8 is refused (%s)", err.msg);
    ok(smma_wgmma_exec(&v, exact, a, 0, bd | 1ull << 47, smem, 256, c, d, &err) == SMMA_EINVAL,
       "a descriptor with bit 47 set is refused");
    v.a_smem = true;
    ok(smma_wgmma_exec(&v, exact, NULL, bd | 1ull << 62 | 1ull << 49, bd, smem, 4096, c, d,
                       &err) == SMMA_EINVAL && strstr(err.msg, "base offset"),
       "an A descriptor with a base offset is refused (%s)", err.msg);
    v.n = 12;
    ok(smma_wgmma_exec(&v, exact, a, 0, bd, smem, 256, c, d, &err) == SMMA_EINVAL &&
       strstr(err.msg, "n 12"), "N 12 is refused (%s)", err.msg);
}

/* One random execution of v against smma_gemm: A (registers or smem at 0)
 * and B (smem after A) in dense layouts of swizzles sa and sb. */
static bool
exec_vs_gemm(const smma_wgmma_variant *v, const smma_model *model, smma_wgmma_swizzle swa,
             smma_wgmma_swizzle swb, bool inner, uint64_t seed)
{
    static uint8_t smem[65536];
    static uint32_t atile[64 * 32], btile[32 * 256], aregs[128 * 4], dregs[128 * 128];
    static uint32_t dout[128 * 128], want[64 * 256], got[64 * 256], an[64 * 32];
    static uint32_t bn[256 * 32];
    smma_gemm_shape s;
    smma_gemm_data data;
    smma_gemm_operands ops;
    smma_wgmma_frag fa, fd;
    smma_wgmma_desc da, db;
    uint64_t wa = 0, wb = 0;
    uint32_t abytes = 0, bbytes = 0, bstart;
    unsigned k, n = v->n, i, j, kk, rows, cols;
    uint32_t sign = v->a_fmt == SMMA_BF16 || v->a_fmt == SMMA_FP16 ? 0x8000 : 0x80;
    smma_error err = { "" };
    bool good = true;

    if (smma_wgmma_shape(v, &s, &err) != SMMA_OK ||
        smma_gemm_generate(&s, SMMA_CLASS_RANDOM, seed, &data, &err) != SMMA_OK)
        bail("exec_vs_gemm: %s", err.msg);
    k = (unsigned) s.k;
    fa = frag(v, SMMA_WGMMA_OP_A);
    fd = frag(v, SMMA_WGMMA_OP_D);
    /* The reference's operands, negated as imm-scale says. */
    for (i = 0; i < 64 * k; i++)
        an[i] = data.a[i] ^ (v->scale_a < 0 ? sign : 0);
    for (i = 0; i < n * k; i++)
        bn[i] = data.b[i] ^ (v->scale_b < 0 ? sign : 0);
    ops = smma_gemm_data_operands(&s, &data);
    ops.a = an;
    ops.b = bn;
    if (smma_gemm(model, &s, &ops, want, &err) != SMMA_OK)
        bail("smma_gemm: %s", err.msg);
    /* The instruction's operands. */
    memcpy(atile, data.a, sizeof(uint32_t) * 64 * k);
    for (kk = 0; kk < k; kk++)
        for (j = 0; j < n; j++)
            btile[kk * n + j] = data.b[j * k + kk];
    memset(smem, 0x5A, sizeof(smem));
    if (v->a_smem) {
        if (smma_wgmma_desc_dense(v, SMMA_WGMMA_OP_A, swa, inner, 0, &da, &abytes, &err) ||
            smma_wgmma_desc_encode(&da, &wa, &err) ||
            smma_wgmma_smem_store(v, SMMA_WGMMA_OP_A, wa, atile, smem, sizeof(smem), &err))
            bail("A: %s", err.msg);
    } else {
        smma_wgmma_pack(&fa, atile, aregs);
    }
    bstart = (abytes + 1023) / 1024 * 1024;
    if (smma_wgmma_desc_dense(v, SMMA_WGMMA_OP_B, swb, !inner, bstart, &db, &bbytes, &err) ||
        smma_wgmma_desc_encode(&db, &wb, &err) ||
        smma_wgmma_smem_store(v, SMMA_WGMMA_OP_B, wb, btile, smem, sizeof(smem), &err))
        bail("B: %s", err.msg);
    if (v->scale_d)
        smma_wgmma_pack(&fd, data.c, dregs);
    else
        for (i = 0; i < 128 * n / 2; i++)
            dregs[i] = 0x7FC00001u + i; /* must be ignored */
    if (smma_wgmma_exec(v, model, aregs, wa, wb, smem, bstart + bbytes, dregs, dout, &err) !=
        SMMA_OK) {
        diag("exec: %s", err.msg);
        good = false;
    } else {
        smma_wgmma_unpack(&fd, dout, got);
        for (i = 0; i < 64 * n && good; i++)
            if (got[i] != want[i]) {
                diag("  D[%u][%u]: want 0x%08lx got 0x%08lx", i / n, i % n,
                     (unsigned long) want[i], (unsigned long) got[i]);
                good = false;
            }
    }
    /* The same over part of D (smma_wgmma_exec_part): the cells of the
     * first rows x cols equal, the others SMMA_WGMMA_UNCOMPUTED. */
    rows = (unsigned) ((seed >> 40) % 65);
    cols = (unsigned) ((seed >> 48) % (n + 1));
    if (good && smma_wgmma_exec_part(v, model, aregs, wa, wb, smem, bstart + bbytes, dregs, dout,
                                     rows, cols, &err) != SMMA_OK) {
        diag("exec_part: %s", err.msg);
        good = false;
    } else if (good) {
        smma_wgmma_unpack(&fd, dout, got);
        for (i = 0; i < 64 * n && good; i++)
            if (got[i] != (i / n < rows && i % n < cols ? want[i] : SMMA_WGMMA_UNCOMPUTED)) {
                diag("  part %u x %u: D[%u][%u]: want 0x%08lx got 0x%08lx", rows, cols, i / n,
                     i % n, (unsigned long) want[i], (unsigned long) got[i]);
                good = false;
            }
    }
    smma_gemm_data_free(&data);
    return good;
}

static void
test_exec_random(void)
{
    static const unsigned ns[4] = { 8, 16, 64, 256 };
    int level = test_level();
    tap_rng rng;
    unsigned p, m, ni, src, ta, tb, s, count, bad, rot = 0;

    tap_rng_seed(&rng, 0x3c90a);
    for (p = 0; p < 6; p++)
        for (m = 0; m < 2; m++) {
            const char *mname = m == 0 ? "exact-rn" : p < 2 ? "h100-bf16" : "h100-fp8";
            const smma_model *model = tap_model(mname);

            count = bad = 0;
            for (ni = 0; ni < 4; ni++)
            for (src = 0; src < 2; src++)
            for (ta = 0; ta < (p < 2 && src ? 2u : 1u); ta++)
            for (tb = 0; tb < (p < 2 ? 2u : 1u); tb++) {
                unsigned pick = rot++ % 4;

                for (s = 0; s < 4; s++) {
                    smma_wgmma_variant v = make(p, ns[ni]);
                    uint64_t r = tap_rng_next(&rng);

                    /* Level 1: every swizzle up to N 64, one (rotating) at
                     * N 256; level 0: N 8 and 64 only, one swizzle each. */
                    if ((level == 0 && (ni % 2 == 1 || s != pick)) ||
                        (level == 1 && ni == 3 && s != pick))
                        continue;
                    v.a_smem = src;
                    v.trans_a = ta;
                    v.trans_b = tb;
                    v.scale_a = r & 1 ? -1 : 1;
                    v.scale_b = r & 2 ? -1 : 1;
                    v.scale_d = (r & 12) != 0;
                    count++;
                    if (!exec_vs_gemm(&v, model, (smma_wgmma_swizzle) s,
                                      (smma_wgmma_swizzle) ((s + 1 + (r >> 4) % 3) % 4),
                                      (r >> 8) & 1, r >> 16) &&
                        bad++ < 10)
                        diag("%s %s N %u A %s trans %u%u swizzle %u scale %d %d d %d: mismatch",
                             mname, smma_format_name(v.a_fmt), v.n, src ? "smem" : "regs", ta,
                             tb, s, v.scale_a, v.scale_b, v.scale_d);
                }
            }
            ok(bad == 0 && count > 0, "%s x %s under %s: %u random executions (N 8/16/64/256, "
               "A in registers and smem, %severy swizzle, random imm-scale and scale-d) equal "
               "smma_gemm", smma_format_name(pairs[p][0]), smma_format_name(pairs[p][1]),
               mname, count, p < 2 ? "K- and MN-major, " : "");
        }
}

/* ---- PTX --------------------------------------------------------------------------- */

/* A module body: the declarations, %p and the descriptors set, then the
 * instruction between fence and commit/wait. */
static int
assemble(const char *instr, const char *target, const char *version, bool show)
{
    char body[8192];

    snprintf(body, sizeof(body),
             "%s    mov.b64 %%desc_a, 0;\n    mov.b64 %%desc_b, 0;\n"
             "    setp.ne.b32 %%p, 1, 0;\n    wgmma.fence.sync.aligned;\n    %s\n"
             "    wgmma.commit_group.sync.aligned;\n    wgmma.wait_group.sync.aligned 0;\n",
             SMMA_WGMMA_PTX_DECLS, instr);
    return ptxas_module(version, target, body, show);
}

static void
test_ptx_text(void)
{
    char buf[2048];
    smma_wgmma_variant v;
    smma_error err = { "" };

    v = make(0, 8);
    v.a_smem = true;
    smma_wgmma_ptx(&v, buf, sizeof(buf), &err);
    is_string("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3}, "
              "%desc_a, %desc_b, %p, 1, 1, 0, 0;", buf, "bf16 N 8, A descriptor");
    v = make(1, 16);
    v.scale_b = -1;
    v.trans_b = true;
    smma_wgmma_ptx(&v, buf, sizeof(buf), &err);
    is_string("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%d0, %d1, %d2, %d3, %d4, "
              "%d5, %d6, %d7}, {%a0, %a1, %a2, %a3}, %desc_b, %p, 1, -1, 1;", buf,
              "f16 N 16, A registers, B negated and N-major");
    v = make(3, 8);
    v.a_smem = true;
    v.scale_a = -1;
    smma_wgmma_ptx(&v, buf, sizeof(buf), &err);
    is_string("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%d0, %d1, %d2, %d3}, "
              "%desc_a, %desc_b, %p, -1, 1;", buf, "e4m3 x e5m2 N 8: no trans immediates");
    v = make(0, 256);
    ok(smma_wgmma_ptx(&v, buf, sizeof(buf), &err) == SMMA_OK &&
       strstr(buf, "%d126, %d127}, {%a0") != NULL, "N 256 names %%d0 .. %%d127");
    is_int(SMMA_ERANGE, smma_wgmma_ptx(&v, buf, 100, &err), "a short buffer is reported");
    is_string("sm_90a", smma_wgmma_ptx_target(&v), "minimum target sm_90a");
    v.n = 12;
    ok(smma_wgmma_ptx(&v, buf, sizeof(buf), &err) == SMMA_EINVAL && strstr(err.msg, "n 12"),
       "N 12 is refused (%s)", err.msg);
    ok(smma_wgmma_ptx_target(&v) == NULL, "... and has no target");
    v = make(2, 8), v.a_smem = true, v.trans_a = true;
    ok(smma_wgmma_ptx(&v, buf, sizeof(buf), &err) == SMMA_EINVAL && strstr(err.msg, "trans_a"),
       "imm-trans-a with e4m3 is refused (%s)", err.msg);
    smma_wgmma_ptx_sync(SMMA_WGMMA_FENCE, 0, buf, sizeof(buf), &err);
    is_string("wgmma.fence.sync.aligned;", buf, "fence text");
    smma_wgmma_ptx_sync(SMMA_WGMMA_COMMIT, 0, buf, sizeof(buf), &err);
    is_string("wgmma.commit_group.sync.aligned;", buf, "commit_group text");
    smma_wgmma_ptx_sync(SMMA_WGMMA_WAIT, 3, buf, sizeof(buf), &err);
    is_string("wgmma.wait_group.sync.aligned 3;", buf, "wait_group 3 text");
    ok(smma_wgmma_ptx_sync(SMMA_WGMMA_FENCE, 1, buf, sizeof(buf), &err) == SMMA_EINVAL,
       "fence with an N is refused (%s)", err.msg);
    ok(smma_wgmma_ptx_sync((smma_wgmma_sync) 3, 0, buf, sizeof(buf), &err) == SMMA_EINVAL,
       "an unknown synchronization is refused");
}

static void
test_ptxas(void)
{
    static const unsigned ns_quick[3] = { 8, 64, 256 };
    bool have = ptxas_available(), full = test_level() >= 2;
    char buf[2048], name[64], bad[2048];
    unsigned p, ni, src, ta, tb, count, fails, sync;
    smma_wgmma_variant v;

    for (p = 0; p < 6; p++)
        for (src = 0; src < 2; src++) {
            if (!have) {
                skip_block(2, PTXAS_SKIP);
                continue;
            }
            count = fails = 0;
            for (ni = 0; ni < (full ? 32u : 3u); ni++)
            for (ta = 0; ta < (p < 2 && src ? 2u : 1u); ta++)
            for (tb = 0; tb < (p < 2 ? 2u : 1u); tb++) {
                v = make(p, full ? 8 * (ni + 1) : ns_quick[ni]);
                v.a_smem = src;
                v.trans_a = ta;
                v.trans_b = tb;
                v.scale_a = ni % 2 ? -1 : 1;
                if (smma_wgmma_ptx(&v, buf, sizeof(buf), NULL) != SMMA_OK)
                    bail("ptx of pair %u N %u", p, v.n);
                count++;
                if (assemble(buf, "sm_90a", SMMA_WGMMA_PTX_VERSION, false) != 0 &&
                    fails++ == 0) {
                    diag("refused: %s", buf);
                    assemble(buf, "sm_90a", SMMA_WGMMA_PTX_VERSION, true);
                }
            }
            ok(fails == 0, "ptxas assembles %u forms of %s x %s (N %s, A %s, every imm-trans) "
               "for sm_90a", count, smma_format_name(pairs[p][0]),
               smma_format_name(pairs[p][1]), full ? "8..256" : "8, 64, 256",
               src ? "descriptor" : "registers");
            v = make(p, 64);
            v.a_smem = src;
            name_of(&v, name, sizeof(name));
            smma_wgmma_ptx(&v, buf, sizeof(buf), NULL);
            ok(assemble(buf, "sm_90", SMMA_WGMMA_PTX_VERSION, false) != 0,
               "ptxas refuses %s (A %s) for sm_90", name, src ? "descriptor" : "registers");
        }
    for (sync = 0; sync < 3; sync++) {
        smma_wgmma_ptx_sync((smma_wgmma_sync) sync, sync == 2 ? 1 : 0, buf, sizeof(buf), NULL);
        if (!have) {
            skip_block(2, PTXAS_SKIP);
            continue;
        }
        snprintf(bad, sizeof(bad), "    %.200s\n", buf);
        is_int(0, ptxas_module(SMMA_WGMMA_PTX_VERSION, "sm_90a", bad, false),
               "ptxas assembles '%s' for sm_90a", buf);
        ok(ptxas_module(SMMA_WGMMA_PTX_VERSION, "sm_90", bad, false) != 0,
           "ptxas refuses '%s' for sm_90", buf);
    }
    if (!have) {
        skip_block(8, PTXAS_SKIP);
        return;
    }
    v = make(0, 8);
    smma_wgmma_ptx(&v, buf, sizeof(buf), NULL);
    ok(assemble(buf, "sm_90a", "7.8", false) != 0, "ptxas refuses it under PTX ISA 7.8");
    ok(assemble(buf, "sm_100a", "8.7", false) != 0, "ptxas refuses it for sm_100a");
    /* Illegal selectors, written by hand where the API refuses to write
     * them: N 12 and 264, trans immediates on fp8, imm-scale 2, imm-trans-a
     * with A registers. */
    ok(assemble("wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3, "
                "%d4, %d5}, %desc_a, %desc_b, %p, 1, 1, 0, 0;", "sm_90a",
                SMMA_WGMMA_PTX_VERSION, false) != 0, "ptxas refuses N 12");
    strcpy(bad, "wgmma.mma_async.sync.aligned.m64n264k32.f32.e4m3.e4m3 {");
    for (ni = 0; ni < 132; ni++)
        snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%s%%d%u", ni ? ", " : "",
                 ni % 128);
    strcat(bad, "}, %desc_a, %desc_b, %p, 1, 1;");
    ok(assemble(bad, "sm_90a", SMMA_WGMMA_PTX_VERSION, false) != 0, "ptxas refuses N 264");
    ok(assemble("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%d0, %d1, %d2, %d3}, "
                "%desc_a, %desc_b, %p, 1, 1, 0, 0;", "sm_90a", SMMA_WGMMA_PTX_VERSION,
                false) != 0, "ptxas refuses trans immediates on e4m3 x e5m2");
    ok(assemble("wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2 {%d0, %d1, %d2, %d3}, "
                "{%a0, %a1, %a2, %a3}, %desc_b, %p, 1, 1, 1;", "sm_90a",
                SMMA_WGMMA_PTX_VERSION, false) != 0,
       "ptxas refuses imm-trans-b on e5m2 with A registers");
    ok(assemble("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3}, "
                "%desc_a, %desc_b, %p, 2, 1, 0, 0;", "sm_90a", SMMA_WGMMA_PTX_VERSION,
                false) != 0, "ptxas refuses imm-scale-a 2");
    ok(assemble("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3}, "
                "{%a0, %a1, %a2, %a3}, %desc_b, %p, 1, 1, 0, 0;", "sm_90a",
                SMMA_WGMMA_PTX_VERSION, false) != 0,
       "ptxas refuses imm-trans-a with A registers");
}

/* ---- grid ------------------------------------------------------------------------ */

static void
cell_is(const smma_grid *g, unsigned row, unsigned col, unsigned owner, const char *label)
{
    smma_grid_cell c;

    g->cell(g, row, col, &c);
    ok(c.owner == owner && strcmp(c.label, label) == 0, "%s (%u, %u) is %s (got %s)", g->name,
       row, col, label, c.label);
}

static void
count_emit(const char *instr, const char *operand, const char *what, void *ctx)
{
    unsigned *n = ctx;
    smma_grid g;

    if (smma_wgmma_grid(instr, operand, NULL, &g, NULL) == SMMA_OK && what != NULL &&
        strcmp(what, g.what) == 0)
        (*n)++;
}

static void
test_grid(void)
{
    smma_grid g;
    smma_error err = { "" };
    unsigned listed = 0;
    smma_grid_lookup_fn fn = smma_wgmma_grid;
    smma_grid_list_fn list = smma_wgmma_grid_list;

    ok(fn("wgmma.m64n16k16.bf16", "a", NULL, &g, &err) == SMMA_OK && g.rows == 64 &&
       g.cols == 16 && strcmp(g.name, "wgmma.m64n16k16.bf16 a") == 0 &&
       strcmp(g.row_axis, "m") == 0 && strcmp(g.col_axis, "k") == 0,
       "bf16 A: 64 x 16, rows m, cols k (%s)", g.what);
    cell_is(&g, 17, 11, 37, "T37:r2.1");
    cell_is(&g, 63, 15, 127, "T127:r3.1");
    ok(fn("wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e4m3", "A", NULL, &g, &err) ==
       SMMA_OK && g.cols == 32 && strcmp(g.name, "wgmma.m64n64k32.e5m2.e4m3 a") == 0,
       "the PTX spelling of e5m2 x e4m3 A: 64 x 32");
    cell_is(&g, 57, 18, 100, "T100:r3.2");
    ok(fn("wgmma.m64n24k32.e4m3.e4m3", "d", NULL, &g, &err) == SMMA_OK && g.cols == 24 &&
       strcmp(g.col_axis, "n") == 0, "e4m3 D N 24: 64 x 24, cols n");
    cell_is(&g, 25, 10, 37, "T37:r6");
    cell_is(&g, 63, 23, 127, "T127:r11");
    is_int(SMMA_GRID_NOT_MINE, fn("mma.m16n8k16.bf16", "a", NULL, &g, &err),
           "mma.sync is not the wgmma family's");
    ok(fn("wgmma.m64n12k16.bf16", "a", NULL, &g, &err) == SMMA_EINVAL &&
       strstr(err.msg, "wgmma.m64n12k16.bf16") != NULL, "N 12 is refused (%s)", err.msg);
    ok(fn("wgmma.m64n16k16.bf16", "b", NULL, &g, &err) == SMMA_EINVAL &&
       strstr(err.msg, "'b'") != NULL && strstr(err.msg, "a, d") != NULL,
       "operand b is refused, naming the drawable ones (%s)", err.msg);
    list(count_emit, &listed);
    is_int(24, listed, "the list names 24 layouts, each drawable");
}

int
main(void)
{
    plan_lazy();
    test_variants();
    test_names();
    test_literals();
    test_bijection();
    test_pack();
    test_desc();
    test_addr();
    test_dense();
    test_exec_literals();
    test_exec_random();
    test_ptx_text();
    test_ptxas();
    test_grid();
    return exit_status();
}
