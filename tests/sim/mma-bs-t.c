/*
 * tests/sim/mma-bs-t.c - the sm_120a mma.sync kinds f8f6f4, mxf8f6f4, mxf4
 * and mxf4nvf4: variants, layouts, scale-factor selection, executor, PTX
 * text (checked with ptxas) and drawable form.
 *
 *   - variants: numbering, names, lookups, and this file's own reading of
 *     the PTX ISA's Table 36 and Table 37 against the API's checks, with
 *     their messages;
 *   - A, B, C, D layouts of every kind: bijections, coord/slot inverses,
 *     agreement with a transcription of the ISA's per-element formulas
 *     (9.7.14.5.10 for m16n8k32, 9.7.14.5.11 for m16n8k64), literal slots
 *     and literal register words, 8-bit containers and their padding;
 *   - scale-factor layouts for every scale_vec and every legal selector
 *     value: bijection onto the scale tile, inverses, agreement with
 *     CUTLASS's SFALayout / SFBLayout (an independent source) and with the
 *     ISA's lane and byte rules, literal slots; packing leaves the other
 *     bytes alone;
 *   - the executor: hand-checked cases (a scale of 2^3 in the byte that one
 *     row's scale comes from multiplies exactly that row of D by 8; a ue4m3
 *     scale of 2 doubles one k block of one column; a NaN scale; bytes and
 *     lanes that are not selected change nothing), and on random tiles it
 *     equals smma_gemm on the unpacked tiles, bitwise, for every variant
 *     under exact-rn, exact-rz and the block-FMA model h100-fp8, with the
 *     selectors cycling through their legal values; every selector
 *     combination for one variant of each scale_vec; errors;
 *   - PTX text: literals, and with ptxas (about 200 runs): every variant
 *     assembles for sm_120a and is refused for sm_120 (no 'a') and sm_100a
 *     (except where ptxas 13.0 differs from the ISA: shown as diagnostics),
 *     one of each kind for sm_90a; sm_121a and sm_120f; every legal selector
 *     combination; illegal selectors, scale_vec, stype and accumulator types
 *     are refused by both the API and ptxas;
 *   - the drawable form: labels of a few cells, NOT_MINE, errors, the list.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/mma_bs.h>

#include "ptxas.h"
#include "tap/basic.h"

#define NV SMMA_MMA_BS_COUNT

static const smma_format fmts[5] = { SMMA_E4M3, SMMA_E5M2, SMMA_E3M2, SMMA_E2M3, SMMA_E2M1 };

static smma_mma_bs
variant(unsigned i)
{
    smma_mma_bs v;
    smma_error err;

    if (smma_mma_bs_at(i, &v, &err) != SMMA_OK)
        bail("variant %u: %s", i, err.msg);
    return v;
}

static smma_frag_layout
layout(const smma_mma_bs *v, smma_operand op)
{
    smma_frag_layout l;
    smma_error err;

    if (smma_mma_bs_layout(v, op, &l, &err) != SMMA_OK)
        bail("layout: %s", err.msg);
    return l;
}

/* ---- this file's own reading of Tables 36 and 37 --------------------------- */

/* Legal (kind, scale_vec, stype) per Table 36: kind 0 f8f6f4 has none. */
static bool
ref_scales_legal(smma_mma_kind kind, unsigned sv, smma_format st)
{
    switch (kind) {
    case SMMA_MMA_KIND_F8F6F4: return sv == 0 && st == SMMA_NONE;
    case SMMA_MMA_KIND_MXF8F6F4: return sv == 1 && st == SMMA_E8M0;
    case SMMA_MMA_KIND_MXF4: return sv == 2 && st == SMMA_E8M0;
    case SMMA_MMA_KIND_MXF4NVF4:
        return (sv == 2 && st == SMMA_E8M0) || (sv == 4 && (st == SMMA_E8M0 || st == SMMA_UE4M3));
    default: return false;
    }
}

/* Table 37: byte-id-a, thread-id-a, byte-id-b, thread-id-b. */
static bool
ref_sel_legal(unsigned sv, unsigned bida, unsigned tida, unsigned bidb, unsigned tidb)
{
    static const unsigned bid_mask[5] = { 0, 0xF, 0x5, 0, 0x1 }; /* legal byte-ids */

    return bida < 8 && bidb < 8 && (bid_mask[sv] >> bida & 1) && (bid_mask[sv] >> bidb & 1) &&
           tida <= 1 && tidb <= 3;
}

/* A legal variant with one field changed (-1: unchanged), and the message. */
struct bad_field {
    unsigned variant;
    int scale_vec, scale_fmt, a_fmt;
    bool acc_f16;
    const char *msg;
};

static const struct bad_field bad_fields[] = {
    { 50, 4, -1, -1, false, "mxf4: scale_vec 4X is not legal (mxf4 takes 2X)" },
    { 51, -1, SMMA_UE4M3, -1, false,
      "mxf4nvf4: stype ue4m3 is not legal with scale_vec 2X (2X takes ue8m0; ue4m3 needs 4X)" },
    { 30, -1, SMMA_UE4M3, -1, false, "mxf8f6f4: stype ue4m3 is not legal (mxf8f6f4 takes ue8m0)" },
    { 50, -1, -1, SMMA_E4M3, false, "mxf4: atype e4m3 is not legal (mxf4 takes e2m1 only)" },
    { 3, -1, -1, -1, true,
      "f8f6f4 with .f16 C and D is legal PTX but not modelled by softmma (only .f32)" },
    { 33, -1, -1, -1, true, "mxf8f6f4: .block_scale takes .f32 C and D only, not .f16" },
    { 0, 1, SMMA_E8M0, -1, false,
      "f8f6f4 has no scale factors: scale_vec must be 0 and scale_fmt none (got 1X, e8m0)" },
    { 12, -1, -1, SMMA_BF16, false,
      "f8f6f4: atype bf16 is not legal (legal: e4m3, e5m2, e3m2, e2m3, e2m1)" },
};

static void
check_variants(void)
{
    smma_mma_bs v, w;
    smma_error err;
    unsigned i, j, bad = 0, kind, sv, st, a, b, legal = 0, agree = 0;
    static const smma_format sts[4] = { SMMA_NONE, SMMA_E8M0, SMMA_UE4M3, SMMA_E4M3 };
    char name[128];

    for (i = 0; i < NV; i++) {
        v = variant(i);
        if (smma_mma_bs_index(&v) != (int) i || smma_mma_bs_check(&v, &err) != SMMA_OK)
            bad++;
        if (smma_mma_bs_from_name(smma_mma_bs_name(&v), &w, &err) != SMMA_OK ||
            smma_mma_bs_index(&w) != (int) i)
            bad++;
        if (smma_mma_bs_from_name(smma_mma_bs_ptx_name(&v), &w, &err) != SMMA_OK ||
            smma_mma_bs_index(&w) != (int) i)
            bad++;
        for (j = 0; j < i; j++) {
            smma_mma_bs u = variant(j);

            if (strcmp(smma_mma_bs_name(&u), smma_mma_bs_name(&v)) == 0 ||
                strcmp(smma_mma_bs_ptx_name(&u), smma_mma_bs_ptx_name(&v)) == 0)
                bad++;
        }
    }
    ok(bad == 0, "%u variants: numbered, named uniquely, found by name and PTX spelling "
       "(%u failures)", NV, bad);
    v = variant(5 * 4 + 0);
    is_string("mma.m16n8k32.f8f6f4.e2m1.e4m3", smma_mma_bs_name(&v), "variant 20 is named");
    is_string("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e4m3.f32",
              smma_mma_bs_ptx_name(&v), "... and spelled");
    v = variant(25 + 5 * 0 + 4);
    is_string("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X"
              ".f32.e4m3.e2m1.f32.ue8m0", smma_mma_bs_ptx_name(&v), "variant 29 is spelled");
    v = variant(52);
    ok(v.kind == SMMA_MMA_KIND_MXF4NVF4 && v.scale_vec == 4 && v.scale_fmt == SMMA_UE4M3 &&
           strcmp(smma_mma_bs_name(&v), "mma.m16n8k64.mxf4nvf4.4x") == 0,
       "variant 52 is mxf4nvf4 4X ue4m3, %s", smma_mma_bs_name(&v));
    ok(smma_mma_bs_from_name("MMA.M16N8K64.MXF4NVF4", &w, &err) == SMMA_OK &&
           smma_mma_bs_index(&w) == 52 &&
           smma_mma_bs_from_name("mma.m16n8k64.mxf4nvf4.2x.ue8m0", &w, &err) == SMMA_OK &&
           smma_mma_bs_index(&w) == 51,
       "aliases: mma.m16n8k64.mxf4nvf4 is .4x; .2x.ue8m0 is .2x");
    ok(smma_mma_bs_from_name("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32"
                             ".e2m1.e2m1.f32.ue8m0", &w, &err) == SMMA_OK &&
           smma_mma_bs_index(&w) == 50 &&
           smma_mma_bs_from_name("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale"
                                 ".f32.e3m2.e2m3.f32.ue8m0", &w, &err) == SMMA_OK &&
           smma_mma_bs_index(&w) == 25 + 5 * 2 + 3,
       "PTX spellings without .scale_vec_size (defaults 2X, 1X) are found");
    ok(smma_mma_bs_from_name("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale"
                             ".f32.e2m1.e2m1.f32.ue8m0", &w, &err) == SMMA_EINVAL &&
           strstr(err.msg, "unknown instruction") != NULL,
       "mxf4nvf4 without .scale_vec_size is refused (it is mandatory): %s", err.msg);
    ok(smma_mma_bs_from_name("mma.m16n8k16.bf16", &w, &err) == SMMA_EINVAL &&
           strstr(err.msg, "mma.m16n8k64.mxf4") != NULL,
       "an unknown name is refused with the known forms");
    ok(smma_mma_bs_at(NV, &w, &err) == SMMA_EINVAL && strstr(err.msg, "53") != NULL,
       "variant %u is out of range: %s", NV, err.msg);

    /* Every (kind, atype, btype, scale_vec, stype) against Table 36. */
    bad = 0;
    for (kind = 0; kind < SMMA_MMA_KIND_COUNT + 1; kind++)
        for (a = 0; a < 6; a++)
            for (b = 0; b < 6; b++)
                for (sv = 0; sv <= 5; sv++)
                    for (st = 0; st < 4; st++) {
                        bool k64 = kind == SMMA_MMA_KIND_MXF4 || kind == SMMA_MMA_KIND_MXF4NVF4;
                        smma_format fa = a < 5 ? fmts[a] : SMMA_BF16;
                        smma_format fb = b < 5 ? fmts[b] : SMMA_BF16;
                        bool want = kind < SMMA_MMA_KIND_COUNT && a < 5 && b < 5 &&
                                    (!k64 || (fa == SMMA_E2M1 && fb == SMMA_E2M1)) &&
                                    ref_scales_legal((smma_mma_kind) kind, sv, sts[st]);

                        memset(&v, 0, sizeof(v));
                        v.kind = (smma_mma_kind) kind;
                        v.a_fmt = fa;
                        v.b_fmt = fb;
                        v.scale_vec = sv;
                        v.scale_fmt = sts[st];
                        legal += want;
                        if ((smma_mma_bs_check(&v, &err) == SMMA_OK) == want &&
                            (smma_mma_bs_index(&v) >= 0) == want)
                            agree++;
                        else if (bad++ < 5)
                            diag("kind %u %s %s sv %u %s: want %s", kind, smma_format_name(fa),
                                 smma_format_name(fb), sv, smma_format_name(sts[st]),
                                 want ? "legal" : "illegal");
                    }
    ok(legal == NV && agree == (SMMA_MMA_KIND_COUNT + 1) * 36 * 6 * 4,
       "the API's check agrees with Table 36 on %u combinations (%u legal)", agree, legal);

    /* Messages: a legal variant with one field changed. */
    for (i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
        const struct bad_field *t = &bad_fields[i];

        v = variant(t->variant);
        if (t->scale_vec >= 0)
            v.scale_vec = (unsigned) t->scale_vec;
        if (t->scale_fmt >= 0)
            v.scale_fmt = (smma_format) t->scale_fmt;
        if (t->a_fmt >= 0)
            v.a_fmt = (smma_format) t->a_fmt;
        v.acc_f16 = t->acc_f16;
        ok(smma_mma_bs_check(&v, &err) == SMMA_EINVAL && strcmp(err.msg, t->msg) == 0,
           "refused with the message \"%s\"", t->msg);
        if (strcmp(err.msg, t->msg) != 0)
            diag("got \"%s\"", err.msg);
    }
    ok(smma_mma_bs_check(NULL, &err) == SMMA_EINVAL, "no variant: %s", err.msg);

    /* Table 37 against the API, selector values 0..7. */
    bad = 0;
    for (i = 25; i < NV; i += 1) {
        unsigned ba, ta, bb, tb;

        if (i > 25 && i < 50)
            continue;
        v = variant(i);
        for (ba = 0; ba < 8; ba++)
            for (ta = 0; ta < 8; ta++)
                for (bb = 0; bb < 8; bb++)
                    for (tb = 0; tb < 8; tb++) {
                        smma_mma_bs_sel s = { ba, ta, bb, tb };

                        if ((smma_mma_bs_sel_check(&v, &s, &err) == SMMA_OK) !=
                            ref_sel_legal(v.scale_vec, ba, ta, bb, tb))
                            bad++;
                    }
    }
    ok(bad == 0, "the API's selector check agrees with Table 37 for 1X, 2X and 4X (%u differ)",
       bad);
    {
        smma_mma_bs_sel s = { 1, 0, 0, 0 };

        v = variant(51);
        smma_mma_bs_sel_check(&v, &s, &err);
        is_string("byte-id-a 1 is not legal with .scale_vec::2X (legal: 0 or 2)", err.msg,
                  "byte-id message");
        s.byte_id_a = 0;
        s.thread_id_a = 2;
        smma_mma_bs_sel_check(&v, &s, &err);
        is_string("thread-id-a 2 is not legal (legal: 0 or 1)", err.msg, "thread-id-a message");
        s.thread_id_a = 0;
        s.thread_id_b = 4;
        smma_mma_bs_sel_check(&v, &s, &err);
        is_string("thread-id-b 4 is not legal (legal: 0..3)", err.msg, "thread-id-b message");
        v = variant(52);
        s.thread_id_b = 0;
        s.byte_id_b = 2;
        smma_mma_bs_sel_check(&v, &s, &err);
        is_string("byte-id-b 2 is not legal with .scale_vec::4X (legal: 0)", err.msg,
                  "4X byte-id-b message");
        v = variant(7);
        ok(smma_mma_bs_sel_check(&v, NULL, &err) == SMMA_OK,
           "f8f6f4 takes no selectors (NULL is fine)");
        v = variant(40);
        ok(smma_mma_bs_sel_check(&v, NULL, &err) == SMMA_EINVAL, "mxf8f6f4 needs them: %s",
           err.msg);
    }
    snprintf(name, sizeof(name), "%s", smma_mma_bs_ptx_version(&v));
    v = variant(0);
    ok(smma_mma_bs_ptx_version(&v) != NULL && strcmp(smma_mma_bs_ptx_version(&v), "8.7") == 0,
       "the first variant is PTX ISA 8.7 too");
    v = variant(53);
    ok(strcmp(name, "8.7") == 0 && strcmp(smma_mma_bs_ptx_version(&v), "9.1") == 0 &&
           strcmp(smma_mma_bs_ptx_target(&v), "sm_120a") == 0,
       "PTX ISA 8.7 (9.1 for mxf4nvf4 4X ue8m0), target sm_120a");
}

/* ---- A, B, C, D layouts ------------------------------------------------------ */

/*
 * The ISA's formulas per element index i (register i / n), n = 4 containers
 * (m16n8k32) or 8 e2m1 (m16n8k64) per register; the ISA writes them with
 * the numbers of each shape put in:
 *   A: row = group for 0 <= i < n || 2n <= i < 3n, else group + 8;
 *      col = tig*n + (i & (n-1)) for i < 2n, + 4n for i >= 2n
 *      (k32: "i < 4 || 8 <= i < 12", "+ 16 for i >= 8";
 *       k64: "i < 8 || 16 <= i < 24", "+ 32 for i >= 16")
 *   B: row = tig*n + (i & (n-1)) for i < n, + 4n for i >= n; col = group
 *   C/D: row = group for i < 2, else group + 8; col = tig*2 + (i & 1)
 */
static void
ptx_coord(unsigned n, smma_operand op, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned group = lane >> 2, tig = lane % 4;

    switch (op) {
    case SMMA_OP_A:
        *row = (i < n || (2 * n <= i && i < 3 * n)) ? group : group + 8;
        *col = tig * n + (i & (n - 1)) + (i >= 2 * n ? 4 * n : 0);
        break;
    case SMMA_OP_B:
        *row = tig * n + (i & (n - 1)) + (i >= n ? 4 * n : 0);
        *col = group;
        break;
    default:
        *row = i < 2 ? group : group + 8;
        *col = tig * 2 + (i & 1);
        break;
    }
}

static void
check_layout(unsigned vi, smma_operand op)
{
    smma_mma_bs v = variant(vi);
    smma_frag_layout l = layout(&v, op);
    unsigned k = smma_mma_bs_k(&v);
    unsigned char seen[16 * 64];
    unsigned lane, reg, e, row, col, r2, c2, l2, g2, e2, n = 0, bad = 0, ptx = 0, inv = 0;

    memset(seen, 0, sizeof(seen));
    for (lane = 0; lane < 32; lane++)
        for (reg = 0; reg < l.regs; reg++)
            for (e = 0; e < l.elems; e++) {
                smma_frag_coord(&l, lane, reg, e, &row, &col);
                if (row >= l.rows || col >= l.cols || seen[row * l.cols + col]++) {
                    bad++;
                    continue;
                }
                n++;
                if (smma_frag_slot(&l, row, col, &l2, &g2, &e2) != SMMA_OK || l2 != lane ||
                    g2 != reg || e2 != e)
                    inv++;
                ptx_coord(k / 8, op, lane, reg * l.elems + e, &r2, &c2);
                if ((r2 != row || c2 != col) && ptx++ < 5)
                    diag("%s lane %u reg %u elem %u: (%u, %u), the ISA says (%u, %u)", l.name,
                         lane, reg, e, row, col, r2, c2);
            }
    ok(bad == 0 && n == l.rows * l.cols && inv == 0 && ptx == 0 &&
           l.elems * l.elem_bits == 32,
       "%s (%s): a bijection onto %u x %u, slot inverts coord, the ISA formulas hold "
       "(%u bad, %u inverse, %u formula)", l.name, smma_mma_bs_name(&v), l.rows, l.cols, bad,
       inv, ptx);
}

struct lit {
    unsigned variant;
    smma_operand op;
    unsigned lane, reg, elem, row, col;
};

/* Worked out by hand from the formulas above (group = lane / 4, tig =
 * lane % 4; element index i = reg * elems + elem). */
static const struct lit lits[] = {
    /* m16n8k64 A, lane 5 (g1 t1) reg 2 elem 3: i = 19, row g = 1, col 8 + 3 + 32. */
    { 50, SMMA_OP_A, 5, 2, 3, 1, 43 },
    /* lane 30 (g7 t2) reg 1 elem 7: i = 15, row g + 8 = 15, col 16 + 7. */
    { 52, SMMA_OP_A, 30, 1, 7, 15, 23 },
    /* m16n8k64 B, lane 9 (g2 t1) reg 1 elem 6: i = 14, row 8 + 6 + 32, col 2. */
    { 51, SMMA_OP_B, 9, 1, 6, 46, 2 },
    /* lane 31 (g7 t3) reg 0 elem 0: row 24, col 7. */
    { 53, SMMA_OP_B, 31, 0, 0, 24, 7 },
    /* m16n8k32 A (containers), lane 6 (g1 t2) reg 1 elem 2: i = 6, row 9, col 10. */
    { 24, SMMA_OP_A, 6, 1, 2, 9, 10 },
    /* m16n8k32 B, lane 18 (g4 t2) reg 1 elem 1: i = 5, row 8 + 1 + 16, col 4. */
    { 37, SMMA_OP_B, 18, 1, 1, 25, 4 },
    /* C/D, lane 6 reg 3: (9, 5). */
    { 50, SMMA_OP_D, 6, 3, 0, 9, 5 },
    { 12, SMMA_OP_C, 31, 0, 0, 7, 6 },
};

static void
check_layout_literals(void)
{
    size_t i;

    for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
        const struct lit *t = &lits[i];
        smma_mma_bs v = variant(t->variant);
        smma_frag_layout l = layout(&v, t->op);
        unsigned row, col, lane = 99, reg = 99, elem = 99;

        smma_frag_coord(&l, t->lane, t->reg, t->elem, &row, &col);
        ok(row == t->row && col == t->col &&
               smma_frag_slot(&l, t->row, t->col, &lane, &reg, &elem) == SMMA_OK &&
               lane == t->lane && reg == t->reg && elem == t->elem,
           "%s: lane %u reg %u elem %u <-> (%u, %u)", l.name, t->lane, t->reg, t->elem, t->row,
           t->col);
    }
}

/* Codes of format f at tile index i: a pattern that uses every code. */
static uint32_t
pattern(smma_format f, unsigned i)
{
    return i & ((1u << smma_format_info(f)->bits) - 1);
}

static void
check_containers(tap_rng *rng)
{
    uint32_t tile[16 * 64], back[16 * 64], regs[32 * 4];
    smma_mma_bs v;
    smma_frag_layout l;
    smma_error err;
    unsigned vi, op, i, n, bad = 0;

    /* Round trips for every variant and operand, random codes. */
    for (vi = 0; vi < NV; vi++) {
        v = variant(vi);
        for (op = SMMA_OP_A; op <= SMMA_OP_D; op++) {
            l = layout(&v, (smma_operand) op);
            n = l.rows * l.cols;
            for (i = 0; i < n; i++)
                tile[i] = op >= SMMA_OP_C ? (uint32_t) tap_rng_next(rng)
                                          : pattern(l.fmt, (unsigned) tap_rng_next(rng));
            if (smma_mma_bs_pack(&v, (smma_operand) op, tile, regs, &err) != SMMA_OK ||
                smma_mma_bs_unpack(&v, (smma_operand) op, regs, back, &err) != SMMA_OK ||
                memcmp(tile, back, n * sizeof(*tile)) != 0)
                bad++;
        }
    }
    ok(bad == 0, "unpack(pack(tile)) == tile for every operand of every variant (%u bad)",
       bad);

    /* Literal words: tile element i holds pattern(f, i). */
    v = variant(24); /* f8f6f4 e2m1.e2m1 */
    l = layout(&v, SMMA_OP_A);
    for (i = 0; i < 16 * 32; i++)
        tile[i] = pattern(SMMA_E2M1, i);
    smma_mma_bs_pack(&v, SMMA_OP_A, tile, regs, &err);
    is_hex(0x0C080400, regs[0], "f8f6f4 e2m1 A: lane 0 reg 0 holds codes 0..3 in bits 5:2");
    /* lane 6 reg 1 = (9, 8..11): codes (296..299) & 15 = 8..11 -> 0x20, 0x24, 0x28, 0x2c. */
    is_hex(0x2C282420, regs[6 * 4 + 1], "... lane 6 reg 1 holds (9, 8..11)");
    v = variant(25 + 5 * 2 + 2); /* mxf8f6f4 e3m2.e3m2 */
    for (i = 0; i < 16 * 32; i++)
        tile[i] = pattern(SMMA_E3M2, i);
    smma_mma_bs_pack(&v, SMMA_OP_A, tile, regs, &err);
    is_hex(0x2B2A2928, regs[6 * 4 + 1], "mxf8f6f4 e3m2 A: lane 6 reg 1 holds codes 40..43");
    v = variant(50); /* mxf4: packed e2m1 */
    for (i = 0; i < 16 * 64; i++)
        tile[i] = pattern(SMMA_E2M1, i);
    smma_mma_bs_pack(&v, SMMA_OP_A, tile, regs, &err);
    is_hex(0x76543210, regs[0], "mxf4 A: lane 0 reg 0 holds (0, 0..7), element 0 lowest");
    /* lane 5 reg 2 = (1, 40..47): codes (104..111) & 15. */
    is_hex(0xFEDCBA98, regs[5 * 4 + 2], "mxf4 A: lane 5 reg 2 holds (1, 40..47)");
    for (i = 0; i < 64 * 8; i++)
        tile[i] = pattern(SMMA_E2M1, i);
    smma_mma_bs_pack(&v, SMMA_OP_B, tile, regs, &err);
    /* lane 9 (g2 t1) reg 1: k = 40..47 of n = 2: codes (8k + 2) & 15 = 2, 10, 2, ... */
    is_hex(0xA2A2A2A2, regs[9 * 2 + 1], "mxf4 B: lane 9 reg 1 holds k 40..47 of n 2");

    /* Padding and code width. */
    v = variant(24);
    memset(regs, 0, sizeof(regs));
    regs[13 * 4 + 2] = 0x00010000; /* lane 13 reg 2 byte 2: e2m1 container 0x01 */
    ok(smma_mma_bs_unpack(&v, SMMA_OP_A, regs, back, &err) == SMMA_EINVAL &&
           strcmp(err.msg, "mma.m16n8k32.f8f6f4 a: lane 13 reg 2 byte 2: e2m1 container 0x01 "
                           "has padding bits set (mask 0xc3 must be 0)") == 0,
       "an e2m1 container with bit 0 set is refused: %s", err.msg);
    v = variant(25 + 5 * 3 + 3); /* e2m3 */
    regs[13 * 4 + 2] = 0x40000000;
    ok(smma_mma_bs_unpack(&v, SMMA_OP_A, regs, back, &err) == SMMA_EINVAL &&
           strstr(err.msg, "e2m3 container 0x40") != NULL,
       "an e2m3 container with bit 6 set is refused");
    v = variant(0);
    regs[13 * 4 + 2] = 0xFFFFFFFF;
    ok(smma_mma_bs_unpack(&v, SMMA_OP_A, regs, back, &err) == SMMA_OK &&
           back[3 * 32 + 16 + 4 + 3] == 0xFF,
       "e4m3 fills its byte: 0xff is a code (lane 13 reg 2 = (3, 20..23))");
    v = variant(50);
    ok(smma_mma_bs_unpack(&v, SMMA_OP_A, regs, back, &err) == SMMA_OK,
       "packed e2m1 has no padding");
    ok(smma_mma_bs_unpack(&v, SMMA_OP_A, regs, NULL, &err) == SMMA_EINVAL &&
           strstr(err.msg, ": NULL tile or register array") != NULL &&
           smma_mma_bs_unpack(&v, SMMA_OP_A, NULL, back, &err) == SMMA_EINVAL &&
           smma_mma_bs_pack(&v, SMMA_OP_A, NULL, regs, &err) == SMMA_EINVAL &&
           smma_mma_bs_pack(&v, SMMA_OP_A, tile, NULL, &err) == SMMA_EINVAL,
       "pack and unpack refuse either array missing (%s)", err.msg);
    memset(tile, 0, sizeof(tile));
    tile[5] = 0x10;
    ok(smma_mma_bs_pack(&v, SMMA_OP_A, tile, regs, &err) == SMMA_EINVAL &&
           strstr(err.msg, "(0, 5) code 0x10 does not fit e2m1") != NULL,
       "pack refuses a code wider than its format: %s", err.msg);
    ok(smma_mma_bs_layout(&v, (smma_operand) 4, &l, &err) == SMMA_EINVAL,
       "layout refuses operand 4: %s", err.msg);
}

/* ---- scale factors ----------------------------------------------------------- */

/* CUTLASS mma_traits_sm120.hpp, read independently of the ISA text:
 * SFALayout ((2,2,8),K):((8,0,1),16) -> row m = 8 * (t & 1) + t / 4;
 * SFBLayout ((4,8),K):((0,1),8) -> column n = t / 4. */
static unsigned
cute_mn(smma_operand op, unsigned lane)
{
    return op == SMMA_OP_A ? 8 * (lane & 1) + lane / 4 : lane / 4;
}

/* The ISA's listings: which lanes (thread-id) and which bytes (byte-id). */
static bool
isa_provider(smma_operand op, const smma_mma_bs_sel *s, unsigned lane)
{
    return op == SMMA_OP_A ? (lane % 4 == 2 * s->thread_id_a || lane % 4 == 2 * s->thread_id_a + 1)
                           : lane % 4 == s->thread_id_b;
}

static bool
isa_byte(unsigned sv, unsigned bid, unsigned byte)
{
    return sv == 4 || (sv == 2 ? byte / 2 == bid / 2 : byte == bid);
}

/* Every selector value of Table 37 for scale_vec sv, as a list. */
static unsigned
all_sels(unsigned sv, smma_mma_bs_sel *out)
{
    unsigned ba, ta, bb, tb, n = 0;

    for (ba = 0; ba < 4; ba++)
        for (ta = 0; ta < 2; ta++)
            for (bb = 0; bb < 4; bb++)
                for (tb = 0; tb < 4; tb++)
                    if (ref_sel_legal(sv, ba, ta, bb, tb)) {
                        smma_mma_bs_sel s = { ba, ta, bb, tb };

                        out[n++] = s;
                    }
    return n;
}

static void
check_sf_layout(unsigned vi)
{
    smma_mma_bs v = variant(vi);
    smma_mma_bs_sel sels[128];
    unsigned ns = all_sels(v.scale_vec, sels), si, op, lane, byte, mn, kb, l2, b2;
    unsigned bad = 0, inv = 0, src = 0, count = 0;
    smma_error err;

    for (si = 0; si < ns; si++)
        for (op = SMMA_OP_A; op <= SMMA_OP_B; op++) {
            const smma_mma_bs_sel *s = &sels[si];
            unsigned nmn = op == SMMA_OP_A ? 16 : 8, bid;
            unsigned char seen[16 * 4];

            bid = op == SMMA_OP_A ? s->byte_id_a : s->byte_id_b;
            memset(seen, 0, sizeof(seen));
            for (lane = 0; lane < 32; lane++)
                for (byte = 0; byte < 4; byte++) {
                    bool want = isa_provider((smma_operand) op, s, lane) &&
                                isa_byte(v.scale_vec, bid, byte);

                    if (smma_mma_bs_sf_coord(&v, (smma_operand) op, s, lane, byte, &mn, &kb,
                                             &err) != SMMA_OK)
                        bail("sf_coord: %s", err.msg);
                    if ((mn < nmn) != want || (mn < nmn) != (kb < v.scale_vec)) {
                        bad++;
                        continue;
                    }
                    if (!want)
                        continue;
                    count++;
                    if (seen[mn * 4 + kb]++)
                        bad++;
                    if (mn != cute_mn((smma_operand) op, lane) || kb != byte - bid)
                        src++;
                    if (smma_mma_bs_sf_slot(&v, (smma_operand) op, s, mn, kb, &l2, &b2, &err) !=
                            SMMA_OK ||
                        l2 != lane || b2 != byte)
                        inv++;
                }
            for (mn = 0; mn < nmn; mn++)
                for (kb = 0; kb < v.scale_vec; kb++)
                    if (!seen[mn * 4 + kb])
                        bad++;
        }
    ok(bad == 0 && inv == 0 && src == 0 && count == ns * 24 * v.scale_vec,
       "%s: for all %u selector sets the scale registers cover scale_A 16 x %u and scale_B "
       "%u x 8 once each, in the ISA's lanes and bytes, rows as CUTLASS's SFALayout; slot "
       "inverts coord (%u bad, %u CUTLASS, %u inverse)", smma_mma_bs_name(&v), ns,
       v.scale_vec, v.scale_vec, bad, src, inv);
}

static void
check_sf_literals(void)
{
    smma_mma_bs v;
    smma_mma_bs_sel s = { 2, 1, 3, 3 };
    smma_error err;
    uint32_t regs[32], sf[16 * 4];
    unsigned lane = 99, byte = 99, mn, kb, i, other = 0;

    v = variant(25); /* 1X */
    /* Row 9 = group 1, upper row of the pair: lane 4 + 2 * 1 + 1 = 7. */
    ok(smma_mma_bs_sf_slot(&v, SMMA_OP_A, &s, 9, 0, &lane, &byte, &err) == SMMA_OK &&
           lane == 7 && byte == 2,
       "1X byte-id-a 2 thread-id-a 1: row 9's scale is lane 7 byte 2 (%u, %u)", lane, byte);
    ok(smma_mma_bs_sf_slot(&v, SMMA_OP_B, &s, 5, 0, &lane, &byte, &err) == SMMA_OK &&
           lane == 23 && byte == 3,
       "1X byte-id-b 3 thread-id-b 3: column 5's scale is lane 23 byte 3");
    smma_mma_bs_sf_coord(&v, SMMA_OP_A, &s, 6, 2, &mn, &kb, &err);
    ok(mn == 1 && kb == 0, "lane 6 byte 2 is row 1 (lower lane of the pair)");
    smma_mma_bs_sf_coord(&v, SMMA_OP_A, &s, 5, 2, &mn, &kb, &err);
    ok(mn == 16 && kb == 1, "lane 5 (thread pair 0) is not read: (16, 1) lies outside");
    v = variant(52); /* 4X */
    s.byte_id_a = s.byte_id_b = 0;
    s.thread_id_a = 0;
    ok(smma_mma_bs_sf_slot(&v, SMMA_OP_A, &s, 3, 2, &lane, &byte, &err) == SMMA_OK &&
           lane == 12 && byte == 2,
       "4X thread-id-a 0: row 3 k block 2 is lane 12 byte 2");
    v = variant(51); /* 2X */
    s.byte_id_a = 2;
    s.byte_id_b = 2;
    ok(smma_mma_bs_sf_slot(&v, SMMA_OP_A, &s, 8, 1, &lane, &byte, &err) == SMMA_OK &&
           lane == 1 && byte == 3,
       "2X byte-id-a 2: row 8 k block 1 is lane 1 byte 3");
    smma_mma_bs_sf_coord(&v, SMMA_OP_B, &s, 31, 2, &mn, &kb, &err);
    ok(mn == 7 && kb == 0, "2X byte-id-b 2 thread-id-b 3: lane 31 byte 2 is column 7 block 0");
    ok(smma_mma_bs_sf_slot(&v, SMMA_OP_A, &s, 16, 0, &lane, &byte, &err) == SMMA_EINVAL &&
           strstr(err.msg, "outside its 16 x 2 tile") != NULL,
       "a coordinate outside the scale tile is refused: %s", err.msg);

    /* sf_pack touches only the selected bytes. */
    s.thread_id_a = 1;
    for (i = 0; i < 32; i++)
        regs[i] = 0xA5A5A5A5u;
    for (i = 0; i < 16 * 2; i++)
        sf[i] = i;
    smma_mma_bs_sf_pack(&v, SMMA_OP_A, &s, sf, regs, &err);
    for (i = 0; i < 32; i++) {
        uint32_t want = i % 4 >= 2 ? ((uint32_t) (2 * (i / 4 + 8 * (i % 2)) + 1) << 24) |
                                         ((uint32_t) (2 * (i / 4 + 8 * (i % 2))) << 16) | 0xA5A5u
                                   : 0xA5A5A5A5u;

        if (regs[i] != want && other++ < 3)
            diag("lane %u: 0x%08lx, want 0x%08lx", i, (unsigned long) regs[i],
                 (unsigned long) want);
    }
    ok(other == 0, "2X byte-id-a 2 thread-id-a 1: sf_pack writes bytes 2, 3 of lanes 4g+2, "
       "4g+3 only");
    sf[3] = 0x100;
    ok(smma_mma_bs_sf_pack(&v, SMMA_OP_A, &s, sf, regs, &err) == SMMA_EINVAL,
       "sf_pack refuses a code above 0xff: %s", err.msg);
    v = variant(3);
    ok(smma_mma_bs_sf_coord(&v, SMMA_OP_A, &s, 0, 0, &mn, &kb, &err) == SMMA_EINVAL &&
           strstr(err.msg, "has no scale factors") != NULL,
       "f8f6f4 has no scale factors: %s", err.msg);
    v = variant(50);
    ok(smma_mma_bs_sf_coord(&v, SMMA_OP_C, &s, 0, 0, &mn, &kb, &err) == SMMA_EINVAL,
       "C has no scale factors: %s", err.msg);
    s.byte_id_a = 1;
    ok(smma_mma_bs_sf_coord(&v, SMMA_OP_A, &s, 0, 0, &mn, &kb, &err) == SMMA_EINVAL &&
           strstr(err.msg, "byte-id-a 1") != NULL,
       "illegal selectors are refused by sf_coord: %s", err.msg);
}

/* ---- the executor ---------------------------------------------------------- */

struct regs {
    uint32_t a[32 * 4], b[32 * 2], c[32 * 4], d[32 * 4], sfa[32], sfb[32];
};

/* All A and B elements `one`, C = 0, every scale `sone`, packed. */
static void
fill_ones(const smma_mma_bs *v, const smma_mma_bs_sel *s, uint32_t one, uint32_t sone,
          struct regs *r)
{
    uint32_t tile[16 * 64], sf[16 * 4];
    smma_error err;
    unsigned i;

    for (i = 0; i < 16 * 64; i++)
        tile[i] = one;
    for (i = 0; i < 16 * 4; i++)
        sf[i] = sone;
    memset(r, 0, sizeof(*r));
    if (smma_mma_bs_pack(v, SMMA_OP_A, tile, r->a, &err) != SMMA_OK ||
        smma_mma_bs_pack(v, SMMA_OP_B, tile, r->b, &err) != SMMA_OK ||
        (v->scale_vec != 0 &&
         (smma_mma_bs_sf_pack(v, SMMA_OP_A, s, sf, r->sfa, &err) != SMMA_OK ||
          smma_mma_bs_sf_pack(v, SMMA_OP_B, s, sf, r->sfb, &err) != SMMA_OK)))
        bail("fill_ones: %s", err.msg);
}

/* D as a 16 x 8 tile of doubles. */
static void
exec_tile(const smma_mma_bs *v, const smma_mma_bs_sel *s, const char *model, struct regs *r,
          double *out)
{
    smma_frag_layout ld = layout(v, SMMA_OP_D);
    uint32_t d[128];
    smma_error err;
    unsigned i;

    if (smma_mma_bs_exec(v, s, tap_model(model), r->a, r->b, r->c, r->sfa, r->sfb, r->d,
                         &err) != SMMA_OK)
        bail("exec %s: %s", smma_mma_bs_name(v), err.msg);
    smma_frag_unpack(&ld, r->d, d);
    for (i = 0; i < 128; i++)
        out[i] = smma_decode(SMMA_FP32, d[i]);
}

static void
check_hand_cases(void)
{
    smma_mma_bs v;
    smma_mma_bs_sel s = { 2, 1, 0, 2 };
    struct regs r;
    smma_error err;
    double d[128];
    unsigned i, bad = 0;

    /* mxf8f6f4 e4m3 x e4m3, all 1.0 (0x38), scales 2^0 (127): D = 32.  The
     * scale of row 5 comes from lane 4 * 5 + 2 * 1 + 0 = 22, byte 2; 130 =
     * 2^3 there makes row 5 of D 256 and nothing else changes. */
    v = variant(25);
    fill_ones(&v, &s, 0x38, 127, &r);
    r.sfa[22] = (r.sfa[22] & 0xFF00FFFFu) | 130u << 16;
    exec_tile(&v, &s, "exact-rn", &r, d);
    for (i = 0; i < 128; i++)
        if (d[i] != (i / 8 == 5 ? 256.0 : 32.0) && bad++ < 3)
            diag("D[%u][%u] = %g", i / 8, i % 8, d[i]);
    ok(bad == 0, "mxf8f6f4 1X: 2^3 in lane 22 byte 2 (byte-id-a 2, thread-id-a 1) multiplies "
       "row 5 of D by 8, and only row 5");
    /* The same byte in lane 20 (thread pair 0) and byte 1 of lane 22 are not
     * read. */
    fill_ones(&v, &s, 0x38, 127, &r);
    r.sfa[20] = 0xFFFFFFFFu;
    r.sfa[22] = (r.sfa[22] & 0x00FF0000u) | 0x820081FFu;
    r.sfa[23] = (r.sfa[23] & 0x00FF0000u) | 0x81000081u;
    exec_tile(&v, &s, "exact-rn", &r, d);
    bad = 0;
    for (i = 0; i < 128; i++)
        if (d[i] != 32.0)
            bad++;
    ok(bad == 0, "bytes and lanes the selectors do not pick change nothing");
    /* Row 13 (upper lane of the pair, 4 * 5 + 3 = 23) instead. */
    r.sfa[23] = (r.sfa[23] & 0xFF00FFFFu) | 126u << 16;
    exec_tile(&v, &s, "exact-rn", &r, d);
    bad = 0;
    for (i = 0; i < 128; i++)
        if (d[i] != (i / 8 == 13 ? 16.0 : 32.0))
            bad++;
    ok(bad == 0, "2^-1 in lane 23 byte 2 halves row 13 of D");
    /* scale_B of column 6 is lane 4 * 6 + 2 = 26, byte 0 (thread-id-b 2). */
    r.sfb[26] = (r.sfb[26] & 0xFFFFFF00u) | 0xFFu;
    exec_tile(&v, &s, "exact-rn", &r, d);
    bad = 0;
    for (i = 0; i < 128; i++)
        if ((i % 8 == 6) != (d[i] != d[i]))
            bad++;
    ok(bad == 0, "a NaN scale (e8m0 0xff) in lane 26 byte 0 makes column 6 of D NaN");

    /* mxf4nvf4 4X ue4m3, e2m1 1.0 (0x2), scales 1.0 (0x38): D = 64.  2.0
     * (0x40) for k block 2 (k 32..47) of column 3, lane 4 * 3 + 1 = 13 byte 2
     * (thread-id-b 1): D[.][3] = 48 + 32 = 80. */
    v = variant(52);
    s.byte_id_a = s.byte_id_b = 0;
    s.thread_id_a = 0;
    s.thread_id_b = 1;
    fill_ones(&v, &s, 0x2, 0x38, &r);
    r.sfb[13] = (r.sfb[13] & 0xFF00FFFFu) | 0x40u << 16;
    exec_tile(&v, &s, "exact-rz", &r, d);
    bad = 0;
    for (i = 0; i < 128; i++)
        if (d[i] != (i % 8 == 3 ? 80.0 : 64.0))
            bad++;
    ok(bad == 0, "mxf4nvf4 4X ue4m3: 2.0 in lane 13 byte 2 doubles k 32..47 of column 3");
    r.sfb[13] |= 0x80u << 16;
    ok(smma_mma_bs_exec(&v, &s, tap_model("exact-rn"), r.a, r.b, r.c, r.sfa, r.sfb, r.d,
                        &err) == SMMA_EINVAL &&
           strcmp(err.msg, "scale_B lane 13 byte 2: 0xc0 is not a ue4m3 code (its most "
                           "significant bit must be 0)") == 0,
       "a ue4m3 scale byte with bit 7 set is refused: %s", err.msg);

    /* f8f6f4 e2m1 x e2m3, no scales: 1.0 is e2m1 0x2 (container 0x08) and
     * e2m3 0x08; D = 32.  B row k = 7 set to 0 for column 1 changes D[.][1]
     * to 31. */
    v = variant(5 * 4 + 3);
    {
        uint32_t ta[16 * 32], tb[32 * 8];

        for (i = 0; i < 16 * 32; i++)
            ta[i] = 0x2;
        for (i = 0; i < 32 * 8; i++)
            tb[i] = i == 7 * 8 + 1 ? 0 : 0x08;
        memset(&r, 0, sizeof(r));
        smma_mma_bs_pack(&v, SMMA_OP_A, ta, r.a, &err);
        smma_mma_bs_pack(&v, SMMA_OP_B, tb, r.b, &err);
        is_hex(0x08080808, r.a[0], "f8f6f4 e2m1 A: 1.0 is container 0x08 (0b00001000)");
        if (smma_mma_bs_exec(&v, NULL, tap_model("exact-rn"), r.a, r.b, r.c, NULL, NULL, r.d,
                             &err) != SMMA_OK)
            bail("%s", err.msg);
        /* lane 4 (g1 t0) holds D[1][0], D[1][1] in regs 0, 1. */
        is_hex(smma_f32_bits(31.0f), r.d[4 * 4 + 1], "D[1][1] = 31 (k 7 of column 1 is 0)");
        is_hex(smma_f32_bits(32.0f), r.d[4 * 4 + 0], "D[1][0] = 32");
    }
}

/* Packs generated operands (K-major A and B, as smma_gemm_generate makes
 * them) into registers; the scale registers start as garbage, so only the
 * bytes the selectors pick can matter. */
static void
pack_generated(const smma_mma_bs *v, const smma_mma_bs_sel *sel, const smma_gemm_data *g,
               tap_rng *rng, struct regs *r)
{
    unsigned k = smma_mma_bs_k(v), n, kk, i;
    uint32_t btile[64 * 8];
    smma_error err;

    for (n = 0; n < 8; n++)
        for (kk = 0; kk < k; kk++)
            btile[kk * 8 + n] = g->b[n * k + kk];
    for (i = 0; i < 32; i++) {
        r->sfa[i] = (uint32_t) tap_rng_next(rng);
        r->sfb[i] = (uint32_t) tap_rng_next(rng);
    }
    if (smma_mma_bs_pack(v, SMMA_OP_A, g->a, r->a, &err) != SMMA_OK ||
        smma_mma_bs_pack(v, SMMA_OP_B, btile, r->b, &err) != SMMA_OK ||
        smma_mma_bs_pack(v, SMMA_OP_C, g->c, r->c, &err) != SMMA_OK ||
        (v->scale_vec != 0 &&
         (smma_mma_bs_sf_pack(v, SMMA_OP_A, sel, g->sa, r->sfa, &err) != SMMA_OK ||
          smma_mma_bs_sf_pack(v, SMMA_OP_B, sel, g->sb, r->sfb, &err) != SMMA_OK)))
        bail("pack: %s", err.msg);
}

/* Random tiles: exec equals smma_gemm on the same tiles, bitwise.  Tile t
 * takes selector set (37 t) mod ns, spread over all of them; with every_sel
 * there is one tile per selector set. */
static void
check_random(unsigned vi, const char *model_name, size_t tiles, uint64_t seed, bool every_sel)
{
    smma_mma_bs v = variant(vi);
    /* The model's arithmetic on every variant, also where its definition
     * stops (h100-fp8 on e3m2): the executor must equal smma_gemm. */
    smma_model any = smma_model_any_inputs(tap_model(model_name));
    const smma_model *m = &any;
    smma_mma_bs_sel sels[128];
    unsigned ns = v.scale_vec != 0 ? all_sels(v.scale_vec, sels) : 1, i;
    smma_frag_layout ld = layout(&v, SMMA_OP_D);
    smma_gemm_shape s;
    smma_error err;
    size_t t, bad = 0, cases = 0;
    tap_rng rng;

    if (smma_mma_bs_shape(&v, &s, &err) != SMMA_OK)
        bail("%s", err.msg);
    tap_rng_seed(&rng, seed);
    tiles = every_sel ? ns : tiles;
    for (t = 0; t < tiles; t++) {
        const smma_mma_bs_sel *sel = &sels[every_sel ? t : (37 * t) % ns];
        uint32_t want[128], got[128], keep[32 * 4];
        smma_gemm_operands op;
        smma_gemm_data g;
        struct regs r;

        if (smma_gemm_generate(&s, SMMA_CLASS_RANDOM, seed + t, &g, &err) != SMMA_OK)
            bail("generate: %s", err.msg);
        pack_generated(&v, sel, &g, &rng, &r);
        op = smma_gemm_data_operands(&s, &g);
        if (smma_gemm(m, &s, &op, want, &err) != SMMA_OK ||
            smma_mma_bs_exec(&v, sel, m, r.a, r.b, r.c, r.sfa, r.sfb, r.d, &err) != SMMA_OK)
            bail("%s: %s", smma_mma_bs_name(&v), err.msg);
        smma_frag_unpack(&ld, r.d, got);
        for (i = 0; i < 128; i++, cases++)
            if (got[i] != want[i] && bad++ < 5)
                diag("%s seed %llu sel {%u,%u},{%u,%u} D[%u][%u]: want %08lx got %08lx",
                     smma_mma_bs_name(&v), (unsigned long long) (seed + t), sel->byte_id_a,
                     sel->thread_id_a, sel->byte_id_b, sel->thread_id_b, i / 8, i % 8,
                     (unsigned long) want[i], (unsigned long) got[i]);
        /* D may be C's registers. */
        memcpy(keep, r.d, sizeof(keep));
        if (t == 0 &&
            (smma_mma_bs_exec(&v, sel, m, r.a, r.b, r.c, r.sfa, r.sfb, r.c, &err) != SMMA_OK ||
             memcmp(keep, r.c, sizeof(keep)) != 0))
            bad++;
        smma_gemm_data_free(&g);
    }
    ok(bad == 0 && cases == tiles * 128,
       "%s under %s: exec == smma_gemm on %zu elements (%zu tiles%s), %zu differ",
       smma_mma_bs_name(&v), model_name, cases, tiles,
       every_sel ? ", every selector set" : "", bad);
}

/* Exact-class inputs (smma_gemm_generate SMMA_CLASS_EXACT): every model
 * gives the same bits, for every variant -- the property the GPU test
 * relies on to check layouts independently of the accumulation. */
static void
check_exact_class(void)
{
    static const char *const names[5] = { "exact-rn", "exact-rz", "h100-fp8", "b200-fp8",
                                           "fp32-fma-seq" };
    unsigned vi, m, bad = 0;

    for (vi = 0; vi < NV; vi++) {
        smma_mma_bs v = variant(vi);
        smma_gemm_shape s;
        smma_gemm_data g;
        smma_gemm_operands op;
        smma_error err;
        uint32_t first[128], d[128];

        if (smma_mma_bs_shape(&v, &s, &err) != SMMA_OK ||
            smma_gemm_generate(&s, SMMA_CLASS_EXACT, 4242 + vi, &g, &err) != SMMA_OK)
            bail("%s", err.msg);
        op = smma_gemm_data_operands(&s, &g);
        for (m = 0; m < 5; m++) {
            smma_model any = smma_model_any_inputs(tap_model(names[m]));

            if (smma_gemm(&any, &s, &op, m == 0 ? first : d, &err) != SMMA_OK)
                bail("%s: %s", names[m], err.msg);
            if (m > 0 && memcmp(first, d, sizeof(d)) != 0 && bad++ < 3)
                diag("%s: %s differs from exact-rn on exact-class input", smma_mma_bs_name(&v),
                     names[m]);
        }
        smma_gemm_data_free(&g);
    }
    ok(bad == 0, "exact-class tiles of every variant: five models give the same bits");
}

static void
check_exec_errors(void)
{
    smma_mma_bs v = variant(30);
    smma_mma_bs_sel s = { 0, 0, 0, 0 }, bad_sel = { 0, 0, 0, 4 };
    struct regs r;
    uint32_t before[32 * 4];
    smma_error err;

    memset(&r, 0, sizeof(r));
    memset(r.d, 0x77, sizeof(r.d));
    memcpy(before, r.d, sizeof(before));
    ok(smma_mma_bs_exec(&v, &bad_sel, tap_model("exact-rn"), r.a, r.b, r.c, r.sfa, r.sfb, r.d,
                        &err) == SMMA_EINVAL &&
           strstr(err.msg, "thread-id-b 4") != NULL && memcmp(before, r.d, sizeof(before)) == 0,
       "illegal selectors are refused, D untouched: %s", err.msg);
    ok(smma_mma_bs_exec(&v, &s, tap_model("exact-rn"), r.a, r.b, r.c, NULL, r.sfb, r.d,
                        &err) == SMMA_EINVAL,
       "a block-scaled variant needs scale registers: %s", err.msg);
    v = variant(2);
    ok(smma_mma_bs_exec(&v, NULL, tap_model("h100-fp8-promote32"), r.a, r.b, r.c, NULL, NULL,
                        r.d, &err) == SMMA_EINVAL &&
           strstr(err.msg, "h100-fp8-promote32") != NULL &&
           memcmp(before, r.d, sizeof(before)) == 0,
       "a model that cannot compute the shape is refused: %s", err.msg);
    r.a[0] = 0x80; /* e4m3 x e3m2: A is e4m3, any byte is a code */
    r.b[0] = 0x40; /* e3m2 container with bit 6 set */
    ok(smma_mma_bs_exec(&v, NULL, tap_model("exact-rn"), r.a, r.b, r.c, NULL, NULL, r.d,
                        &err) == SMMA_EINVAL &&
           strstr(err.msg, "padding") != NULL && memcmp(before, r.d, sizeof(before)) == 0,
       "nonzero container padding is refused: %s", err.msg);
    ok(smma_mma_bs_exec(&v, NULL, NULL, r.a, r.b, r.c, NULL, NULL, r.d, &err) == SMMA_EINVAL,
       "no model: %s", err.msg);
}

/* ---- PTX text and ptxas -------------------------------------------------------- */

static int
assemble(const char *version, const char *target, const char *instrs, bool show)
{
    size_t n = strlen(instrs) + 1024;
    char *body = malloc(n);
    int rc;

    if (body == NULL)
        sysbail("malloc");
    snprintf(body, n, "%s    .reg .f16x2 %%dh<2>;\n    .reg .f16x2 %%ch<2>;\n%s\n",
             SMMA_MMA_BS_PTX_DECLS, instrs);
    rc = ptxas_module(version, target, body, show);
    free(body);
    return rc;
}

#define OPERANDS "{%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3}"

/* PTX text written by hand, for what the API refuses to emit. */
static void
raw(char *buf, size_t size, const char *instr, unsigned ba, unsigned ta, unsigned bb,
    unsigned tb)
{
    snprintf(buf, size, "%s %s, %%sfa, {%u, %u}, %%sfb, {%u, %u};", instr, OPERANDS, ba, ta,
             bb, tb);
}

static void
check_ptx_text(void)
{
    smma_mma_bs v = variant(52);
    smma_mma_bs_sel s = { 0, 1, 0, 3 }, bad = { 1, 0, 0, 0 };
    smma_error err;
    char buf[512];

    ok(smma_mma_bs_ptx(&v, &s, buf, sizeof(buf), &err) == SMMA_OK &&
           strcmp(buf, "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale"
                       ".scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 " OPERANDS
                       ", %sfa, {0, 1}, %sfb, {0, 3};") == 0,
       "the PTX text of mxf4nvf4 4X: %s", buf);
    v = variant(5 * 1 + 2);
    ok(smma_mma_bs_ptx(&v, NULL, buf, sizeof(buf), &err) == SMMA_OK &&
           strcmp(buf, "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e5m2.e3m2.f32 "
                       OPERANDS ";") == 0,
       "the PTX text of f8f6f4 e5m2 x e3m2: %s", buf);
    v = variant(50);
    ok(smma_mma_bs_ptx(&v, &bad, buf, sizeof(buf), &err) == SMMA_EINVAL &&
           strstr(err.msg, "byte-id-a 1 is not legal with .scale_vec::2X") != NULL,
       "illegal selectors get no PTX text: %s", err.msg);
    ok(smma_mma_bs_ptx(&v, &s, buf, 40, &err) == SMMA_ERANGE, "a short buffer: %s", err.msg);
    {
        char want[96];
        size_t len;

        if (smma_mma_bs_ptx(&v, &s, buf, sizeof(buf), &err) != SMMA_OK)
            bail("no PTX text: %s", err.msg);
        len = strlen(buf);
        snprintf(want, sizeof(want), "PTX text needs %zu bytes, buffer has %zu", len + 1, len);
        ok(smma_mma_bs_ptx(&v, &s, buf, len, &err) == SMMA_ERANGE && strcmp(err.msg, want) == 0,
           "a buffer one byte short: the message counts the terminator (%s)", err.msg);
        ok(smma_mma_bs_ptx(&v, &s, buf, len + 1, &err) == SMMA_OK && strlen(buf) == len,
           "a buffer of exactly its size holds it");
    }
}

/* An illegal form: its description, the PTX text and how the API refuses. */
struct illegal {
    const char *what;
    const char *instr;       /* PTX spelling, written with selectors {0,0},{0,0} */
    const char *api_name;    /* refused by smma_mma_bs_from_name */
};

static const struct illegal illegal_forms[] = {
    { "mxf4 with .scale_vec::1X",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::1X.f32.e2m1.e2m1"
      ".f32.ue8m0", NULL },
    { "mxf4 with .scale_vec::4X",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::4X.f32.e2m1.e2m1"
      ".f32.ue8m0", NULL },
    { "mxf4 with .ue4m3",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1"
      ".f32.ue4m3", NULL },
    { "mxf4nvf4 with .scale_vec::1X",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::1X.f32.e2m1"
      ".e2m1.f32.ue8m0", NULL },
    { "mxf4nvf4 .scale_vec::2X with .ue4m3",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1"
      ".e2m1.f32.ue4m3", NULL },
    { "mxf4nvf4 without .scale_vec_size",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
      NULL },
    { "mxf8f6f4 with .scale_vec::2X",
      "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::2X.f32.e4m3"
      ".e4m3.f32.ue8m0", NULL },
    { "mxf8f6f4 with .ue4m3",
      "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3"
      ".e4m3.f32.ue4m3", NULL },
    { "mxf4 with e4m3 A",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e4m3.e2m1"
      ".f32.ue8m0", NULL },
    { "mxf8f6f4 with m16n8k64",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3"
      ".e4m3.f32.ue8m0", NULL },
};

/* Illegal selector values per scale_vec: {variant, ba, ta, bb, tb}. */
static const unsigned illegal_sels[][5] = {
    { 30, 4, 0, 0, 0 }, { 30, 0, 2, 0, 0 }, { 30, 0, 0, 4, 0 }, { 30, 0, 0, 0, 4 },
    { 50, 1, 0, 0, 0 }, { 50, 3, 0, 0, 0 }, { 51, 0, 0, 1, 0 }, { 51, 0, 2, 0, 0 },
    { 50, 0, 0, 0, 4 }, { 52, 1, 0, 0, 0 }, { 52, 2, 0, 0, 0 }, { 52, 0, 0, 2, 0 },
    { 52, 0, 2, 0, 0 }, { 52, 0, 0, 0, 4 },
};

static void
check_ptxas(void)
{
    bool have = ptxas_available(), has91 = false;
    smma_mma_bs v;
    smma_mma_bs_sel s;
    smma_error err;
    char buf[512];
    unsigned i, j, bad, nkind;
    static const unsigned one_per_kind[4] = { 7, 33, 50, 52 };

    if (have) {
        has91 = assemble("9.1", "sm_120a", "", false) == 0;
        diag("ptxas %s PTX ISA 9.1", has91 ? "knows" : "predates");
    }
    /* Every variant: sm_120a yes; sm_120 and sm_100a no. */
    for (i = 0; i < NV; i++) {
        smma_mma_bs_sel sl;
        const char *ver;

        v = variant(i);
        /* Vary the selectors over the variants. */
        memset(&sl, 0, sizeof(sl));
        sl.thread_id_a = i % 2;
        sl.thread_id_b = i % 4;
        if (v.scale_vec == 1) {
            sl.byte_id_a = i % 4;
            sl.byte_id_b = (i / 4) % 4;
        } else if (v.scale_vec == 2) {
            sl.byte_id_a = 2 * (i % 2);
            sl.byte_id_b = 2 - 2 * (i % 2);
        }
        if (smma_mma_bs_ptx(&v, &sl, buf, sizeof(buf), &err) != SMMA_OK)
            bail("%s", err.msg);
        ver = smma_mma_bs_ptx_version(&v);
        if (!have) {
            skip_block(3, PTXAS_SKIP);
            continue;
        }
        if (i == 53 && !has91) {
            skip("%s needs PTX ISA 9.1, which this ptxas predates", smma_mma_bs_name(&v));
            ok(assemble("9.0", "sm_120a", buf, false) != 0,
               "ptxas refuses %s under PTX ISA 9.0 (a 9.1 feature)", smma_mma_bs_name(&v));
            skip("%s: PTX ISA 9.1", smma_mma_bs_name(&v));
            continue;
        }
        is_int(0, assemble(ver, "sm_120a", buf, true), "ptxas assembles %s for sm_120a",
               smma_mma_bs_name(&v));
        ok(assemble(ver, "sm_120", buf, false) != 0, "ptxas refuses %s for sm_120 (no 'a')",
           smma_mma_bs_name(&v));
        if (i < 25 && i % 5 <= 1 && i / 5 <= 1) {
            /* Not a test point: ptxas 13.0 accepts kind::f8f6f4 with e4m3/e5m2
             * operands only for sm_100a, although the ISA's Target ISA Notes
             * make .kind sm_120a-only.  The API keeps the ISA's sm_120a. */
            diag("ptxas %s %s for sm_100a (the ISA says sm_120a)",
                 assemble(ver, "sm_100a", buf, false) == 0 ? "accepts" : "refuses",
                 smma_mma_bs_name(&v));
            skip("%s on sm_100a: ptxas and the ISA differ (diagnostic above)",
                 smma_mma_bs_name(&v));
        } else {
            ok(assemble(ver, "sm_100a", buf, false) != 0, "ptxas refuses %s for sm_100a",
               smma_mma_bs_name(&v));
        }
    }
    /* One of each kind: sm_90a no, sm_121a yes, sm_120f as the ISA says
     * (yes for f8f6f4 and mxf8f6f4 from PTX ISA 8.8). */
    for (nkind = 0; nkind < 4; nkind++) {
        v = variant(one_per_kind[nkind]);
        memset(&s, 0, sizeof(s));
        smma_mma_bs_ptx(&v, &s, buf, sizeof(buf), &err);
        if (!have) {
            skip_block(nkind < 2 ? 3 : 2, PTXAS_SKIP);
            continue;
        }
        ok(assemble("8.7", "sm_90a", buf, false) != 0, "ptxas refuses %s for sm_90a",
           smma_mma_bs_name(&v));
        is_int(0, assemble("8.8", "sm_121a", buf, true), "ptxas assembles %s for sm_121a",
               smma_mma_bs_name(&v));
        if (nkind < 2)
            is_int(0, assemble("8.8", "sm_120f", buf, true), "ptxas assembles %s for sm_120f",
                   smma_mma_bs_name(&v));
        else
            /* Not a test point: the ISA names only sm_120a and sm_121a for
             * mxf4 and mxf4nvf4; ptxas 13.0 accepts sm_120f too. */
            diag("ptxas %s %s for sm_120f (the ISA: sm_120a and sm_121a only)",
                 assemble("8.8", "sm_120f", buf, false) == 0 ? "accepts" : "refuses",
                 smma_mma_bs_name(&v));
    }
    /* Every legal selector set of each scale_vec, in one module each. */
    for (j = 0; j < 3; j++) {
        static const unsigned vs[3] = { 44, 51, 52 };
        smma_mma_bs_sel sels[128];
        unsigned ns, n = 0;
        char *all;

        v = variant(vs[j]);
        ns = all_sels(v.scale_vec, sels);
        all = malloc(ns * 256 + 1);
        if (all == NULL)
            sysbail("malloc");
        all[0] = '\0';
        bad = 0;
        for (i = 0; i < ns; i++) {
            if (smma_mma_bs_ptx(&v, &sels[i], buf, sizeof(buf), &err) != SMMA_OK)
                bad++;
            n += (unsigned) snprintf(all + n, ns * 256 + 1 - n, "    %s\n", buf);
        }
        if (!have)
            skip(PTXAS_SKIP);
        else
            ok(bad == 0 && assemble("8.7", "sm_120a", all, true) == 0,
               "ptxas assembles %s with each of its %u legal selector sets",
               smma_mma_bs_name(&v), ns);
        free(all);
    }
    /* Illegal selectors: the API and ptxas refuse them.  First the control:
     * the same hand-written instructions with selectors 0 assemble. */
    {
        char all[sizeof(illegal_sels) / sizeof(illegal_sels[0]) * 300];
        size_t n = 0;

        for (i = 0; i < sizeof(illegal_sels) / sizeof(illegal_sels[0]); i++) {
            v = variant(illegal_sels[i][0]);
            raw(buf, sizeof(buf), smma_mma_bs_ptx_name(&v), 0, 0, 0, 0);
            n += (size_t) snprintf(all + n, sizeof(all) - n, "    %s\n", buf);
        }
        if (!have)
            skip(PTXAS_SKIP);
        else
            is_int(0, assemble("8.7", "sm_120a", all, true),
                   "control: the hand-written texts below assemble with selectors 0");
    }
    for (i = 0; i < sizeof(illegal_sels) / sizeof(illegal_sels[0]); i++) {
        const unsigned *t = illegal_sels[i];
        smma_mma_bs_sel sl = { t[1], t[2], t[3], t[4] };

        v = variant(t[0]);
        ok(smma_mma_bs_ptx(&v, &sl, buf, sizeof(buf), &err) == SMMA_EINVAL,
           "the API refuses %s with {%u, %u}, {%u, %u}: %s", smma_mma_bs_name(&v), t[1], t[2],
           t[3], t[4], err.msg);
        raw(buf, sizeof(buf), smma_mma_bs_ptx_name(&v), t[1], t[2], t[3], t[4]);
        if (!have)
            skip(PTXAS_SKIP);
        else
            ok(assemble("8.7", "sm_120a", buf, false) != 0, "... and so does ptxas");
    }
    /* Illegal kind / scale_vec / stype / type combinations. */
    for (i = 0; i < sizeof(illegal_forms) / sizeof(illegal_forms[0]); i++) {
        smma_mma_bs w;

        ok(smma_mma_bs_from_name(illegal_forms[i].instr, &w, &err) == SMMA_EINVAL,
           "the API knows no %s", illegal_forms[i].what);
        raw(buf, sizeof(buf), illegal_forms[i].instr, 0, 0, 0, 0);
        if (!have)
            skip(PTXAS_SKIP);
        else
            ok(assemble("8.7", "sm_120a", buf, true) != 0, "ptxas refuses %s (its reason above)",
               illegal_forms[i].what);
    }
    /* .f16 C and D: legal for f8f6f4 (not modelled), illegal for block_scale. */
    if (!have) {
        skip_block(2, PTXAS_SKIP);
    } else {
        is_int(0, assemble("8.7", "sm_120a", "    mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4"
                           ".f16.e2m1.e4m3.f16 {%dh0, %dh1}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
                           "{%ch0, %ch1};", true),
               "ptxas assembles kind::f8f6f4 with .f16 C and D (legal; softmma does not "
               "model it)");
        ok(assemble("8.7", "sm_120a", "    mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4"
                    ".block_scale.scale_vec::1X.f16.e2m1.e4m3.f16.ue8m0 {%dh0, %dh1}, "
                    "{%a0, %a1, %a2, %a3}, {%b0, %b1}, {%ch0, %ch1}, %sfa, {0, 0}, %sfb, "
                    "{0, 0};", false) != 0,
           "ptxas refuses kind::mxf8f6f4 with .f16 C and D");
    }
}

/* ---- drawable form ----------------------------------------------------------- */

static void
cell_label(const smma_grid *g, unsigned row, unsigned col, char *out, size_t n)
{
    smma_grid_cell c;

    g->cell(g, row, col, &c);
    snprintf(out, n, "%s", c.label);
}

struct listing {
    unsigned n, bad;
};

static void
count_one(const char *instr, const char *operand, const char *what, void *ctx)
{
    struct listing *l = ctx;
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    smma_grid g;
    smma_error err;
    unsigned r, c, held = 0;

    l->n++;
    if (what == NULL || what[0] == '\0' ||
        smma_mma_bs_grid(instr, operand, &o, &g, &err) != SMMA_OK) {
        l->bad++;
        return;
    }
    for (r = 0; r < g.rows; r++)
        for (c = 0; c < g.cols; c++) {
            smma_grid_cell cell;

            g.cell(&g, r, c, &cell);
            held += cell.owner < 32;
        }
    if (held != g.rows * g.cols)
        l->bad++;
}

/* Lookups the drawable form refuses, and a part of each message. */
struct grid_error {
    const char *instr, *operand;
    int byte_id, thread_id, sf_id;
    const char *want;
};

static const struct grid_error grid_errors[] = {
    { "mma.m16n8k32.f8f6f4.e4m3.e4m3", "sfa", -1, -1, -1,
      "mma.m16n8k32.f8f6f4.e4m3.e4m3: unknown operand 'sfa' (known: a, b, c, d)" },
    { "mma.m16n8k64.mxf4", "e", -1, -1, -1, "unknown operand 'e' (known: a, b, c, d, sfa, sfb)" },
    { "mma.m16n8k64.mxf4", "sfa", 1, -1, -1,
      "byte-id-a 1 is not legal with .scale_vec::2X (legal: 0 or 2)" },
    { "mma.m16n8k64.mxf4", "sfb", -1, 4, -1, "thread-id-b 4 is not legal (legal: 0..3)" },
    { "mma.m16n8k64.mxf4nvf4.4x", "sfa", -1, 2, -1, "thread-id-a 2 is not legal" },
    { "mma.m16n8k64.mxf4", "a", -1, 0, -1, "apply to sfa and sfb only" },
    { "mma.m16n8k64.mxf4", "sfa", -1, -1, 1, "mma.sync takes byte-id and thread-id" },
};

static void
check_grid(void)
{
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    smma_grid g;
    smma_error err;
    char lab[32];
    struct listing l = { 0, 0 };
    size_t i;

    o.byte_id = 0;
    o.thread_id = 1;
    ok(smma_mma_bs_grid("mma.m16n8k64.mxf4nvf4", "sfa", &o, &g, &err) == SMMA_OK &&
           g.rows == 16 && g.cols == 4 && strcmp(g.name, "mma.m16n8k64.mxf4nvf4.4x sfa") == 0,
       "mma.m16n8k64.mxf4nvf4 sfa --byte-id 0 --thread-id 1: 16 x 4 (%s)", g.what);
    cell_label(&g, 9, 2, lab, sizeof(lab));
    is_string("T7:b2", lab, "... row 9, k block 2 is lane 7 byte 2");
    cell_label(&g, 0, 0, lab, sizeof(lab));
    is_string("T2:b0", lab, "... row 0, k block 0 is lane 2 byte 0");
    o.byte_id = 2;
    o.thread_id = 3;
    ok(smma_mma_bs_grid("mma.m16n8k64.mxf4", "sfb", &o, &g, &err) == SMMA_OK && g.rows == 2 &&
           g.cols == 8 && strcmp(g.row_axis, "k block") == 0,
       "mxf4 sfb: 2 x 8, rows are k blocks");
    cell_label(&g, 1, 5, lab, sizeof(lab));
    is_string("T23:b3", lab, "... k block 1 of column 5 is lane 23 byte 3");
    o = (smma_grid_opts) SMMA_GRID_OPTS_NONE;
    ok(smma_mma_bs_grid("mma.m16n8k32.f8f6f4.e2m1.e4m3", "a", &o, &g, &err) == SMMA_OK &&
           g.rows == 16 && g.cols == 32,
       "f8f6f4 a: 16 x 32 (%s)", g.what);
    cell_label(&g, 9, 10, lab, sizeof(lab));
    is_string("T6:r1.2", lab, "... (9, 10) is lane 6 reg 1 elem 2");
    ok(smma_mma_bs_grid("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale"
                        ".scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0", "b", NULL, &g, &err) ==
           SMMA_OK,
       "the PTX spelling is accepted");
    cell_label(&g, 46, 2, lab, sizeof(lab));
    is_string("T9:r1.6", lab, "mxf4 b (46, 2) is lane 9 reg 1 elem 6");
    smma_mma_bs_grid("mma.m16n8k64.mxf4nvf4.4x.ue8m0", "d", NULL, &g, &err);
    cell_label(&g, 9, 5, lab, sizeof(lab));
    is_string("T6:r3", lab, "d (9, 5) is lane 6 reg 3 (one element per register)");
    ok(smma_mma_bs_grid("mma.m16n8k32.mxf8f6f4.e4m3.e4m3", "sfa", NULL, &g, &err) == SMMA_OK,
       "selectors default to 0");
    cell_label(&g, 8, 0, lab, sizeof(lab));
    is_string("T1:b0", lab, "... row 8 is lane 1 byte 0");
    is_int(SMMA_GRID_NOT_MINE, smma_mma_bs_grid("mma.m16n8k16.bf16", "a", NULL, &g, &err),
           "mma.m16n8k16.bf16 is not this family's");
    is_int(SMMA_GRID_NOT_MINE, smma_mma_bs_grid("wgmma.m64n8k16.bf16", "a", NULL, &g, &err),
           "nor is wgmma");
    for (i = 0; i < sizeof(grid_errors) / sizeof(grid_errors[0]); i++) {
        const struct grid_error *t = &grid_errors[i];

        o = (smma_grid_opts) SMMA_GRID_OPTS_NONE;
        o.byte_id = t->byte_id;
        o.thread_id = t->thread_id;
        o.sf_id = t->sf_id;
        ok(smma_mma_bs_grid(t->instr, t->operand, &o, &g, &err) == SMMA_EINVAL &&
               strstr(err.msg, t->want) != NULL,
           "%s %s refused: %s", t->instr, t->operand, err.msg);
    }
    smma_mma_bs_grid_list(count_one, &l);
    ok(l.n == 25 * 4 + 29 * 6 && l.bad == 0,
       "the list has %u layouts (want %u), every one drawable with every cell held (%u bad)",
       l.n, 25 * 4 + 29 * 6, l.bad);
}

int
main(void)
{
    int level = test_level();
    size_t tiles = level == 0 ? 2 : level == 1 ? 12 : 200;
    static const char *const models[3] = { "exact-rn", "exact-rz", "h100-fp8" };
    tap_rng rng;
    unsigned i, op, m;

    plan_lazy();
    tap_rng_seed(&rng, 20250612);
    check_variants();
    for (i = 0; i < 4; i++)
        for (op = SMMA_OP_A; op <= SMMA_OP_D; op++)
            check_layout((unsigned[]){ 3, 30, 50, 52 }[i], (smma_operand) op);
    check_layout_literals();
    check_containers(&rng);
    for (i = 0; i < 4; i++)
        check_sf_layout((unsigned[]){ 25, 50, 51, 52 }[i]);
    check_sf_literals();
    {
        smma_mma_bs_sel a = smma_mma_bs_sel_of(SMMA_OP_A, 2, 1);
        smma_mma_bs_sel b = smma_mma_bs_sel_of(SMMA_OP_B, 1, 3);

        ok(a.byte_id_a == 2 && a.thread_id_a == 1 && a.byte_id_b == 0 && a.thread_id_b == 0 &&
               b.byte_id_a == 0 && b.thread_id_a == 0 && b.byte_id_b == 1 && b.thread_id_b == 3,
           "sel_of puts the selectors on the named operand's scales, the other's at 0");
    }
    check_hand_cases();
    for (i = 0; i < NV; i++)
        for (m = 0; m < 3; m++)
            check_random(i, models[m], tiles, 7000 + 101 * i + 17 * m, false);
    /* Every selector set, one tile each, for one variant of each scale_vec. */
    check_random(44, "exact-rn", 0, 90000, true);
    check_random(51, "h100-fp8", 0, 91000, true);
    check_random(52, "exact-rz", 0, 92000, true);
    check_random(53, "exact-rn", 0, 93000, true);
    check_exact_class();
    check_exec_errors();
    check_ptx_text();
    check_ptxas();
    check_grid();
    return exit_status();
}
