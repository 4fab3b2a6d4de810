/*
 * gen/mma.c - the mma suites: per-lane registers (or memory images) in and
 * D out of one instruction, executed by the simulator under a numerics
 * model: mma.sync and the sm_120a forms, wgmma, tcgen05.mma; their part of
 * the table and which are committed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/fragment.h>
#include <softmma/mma_bs.h>
#include <softmma/tcgen05.h>
#include <softmma/tmem.h>
#include <softmma/wgmma.h>

#include "internal.h"

/* ------------------------------------------------------------------ mma */

/* The number of random and exact-class cases of an mma suite. */
static unsigned
mma_cases(unsigned level, bool exact)
{
    if (exact)
        return level >= 2 ? 16 : 2;
    return level >= 2 ? 48 : 4;
}

/* Starts an mma suite: the model in the header, the scalar fields and the
 * blocks of the specs, the comments, and the model's own line. */
static int
start_mma(const smma_suite *s, unsigned level, uint64_t seed, const char *in,
          const char *blocks_in, const char *blocks_out, const char *const *comments,
          const char *provisional, smma_vec_header *h, smma_vec_writer **w, smma_error *err)
{
    char line[512];
    int rc;

    smma_gen_header(s, level, seed, h);
    snprintf(h->model, sizeof(h->model), "%s", s->model->name);
    rc = smma_gen_add_spec(h, in, false, false, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(h, blocks_in, false, true, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_spec(h, blocks_out, true, true, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_check(h, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(h, comments, w, err);
    snprintf(line, sizeof(line), "model %s: %s; status: %s", s->model->name,
             s->model->summary, s->model->status);
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(*w, line, err);
    if (rc == SMMA_OK && provisional != NULL)
        rc = smma_vec_put_comment(*w, provisional, err);
    return rc;
}


/* The inputs of case i: a K-major A and B, C and the scales of shape sh,
 * random or exact-class, from a seed of the suite's seed and the index. */
static int
mma_inputs(const smma_gemm_shape *sh, bool exact, uint64_t seed, unsigned i,
           smma_gemm_data *d, smma_error *err)
{
    uint64_t st = seed ^ (0x9e3779b97f4a7c15ull * (i + 1));

    return smma_gemm_generate(sh, exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, smma_gen_rand(&st),
                              d, err);
}

/* B of a K-major generated operand as a K x N row-major tile. */
static void
b_tile(const smma_gemm_shape *sh, const uint32_t *b, uint32_t *tile)
{
    size_t kk, j;

    for (kk = 0; kk < sh->k; kk++)
        for (j = 0; j < sh->n; j++)
            tile[kk * sh->n + j] = b[j * sh->k + kk];
}

static const char *const mma_sync_comments[] = {
    "a, b, c: the 32-bit registers of A, B and C, one row per lane (32 rows), one",
    "column per register, packed as the fragment suites of the instruction say",
    "(fragment.INSTRUCTION.a, .b, .c); d: D's registers after the instruction",
    "(fragment.INSTRUCTION.d); D = A B + C, each element by smma_dot under the model.",
    "class 0: random inputs (smma_gemm_generate, SMMA_CLASS_RANDOM), 1: exact-class",
    "inputs, on which every numerics model gives the same D", NULL
};

static int
mma_sync_case(const smma_suite *s, const smma_mma_bs *bs, const smma_mma_bs_sel *sel,
              const smma_gemm_shape *sh, const smma_gemm_data *d, struct smma_gen_case *mc,
              uint64_t *st, smma_error *err)
{
    uint32_t tile[64 * 16], a[32 * 4], b[32 * 2], c[32 * 4], dr[32 * 4], sfa[32], sfb[32];
    const smma_frag_layout *la, *lb, *lc;
    smma_frag_layout bl[3];
    unsigned i;
    int rc = SMMA_OK;

    if (bs == NULL) {
        la = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_A);
        lb = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_B);
        lc = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_C);
        smma_frag_pack(la, d->a, a);
        b_tile(sh, d->b, tile);
        smma_frag_pack(lb, tile, b);
        smma_frag_pack(lc, d->c, c);
        rc = smma_mma_exec((smma_mma_instr) s->var, s->model, a, b, c, dr, err);
    } else {
        for (i = 0; rc == SMMA_OK && i < 3; i++)
            rc = smma_mma_bs_layout(bs, (smma_operand) i, &bl[i], err);
        la = &bl[0];
        lb = &bl[1];
        lc = &bl[2];
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_A, d->a, a, err);
        b_tile(sh, d->b, tile);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_B, tile, b, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_C, d->c, c, err);
        /* The bytes the instruction does not read keep random values. */
        for (i = 0; i < 32; i++) {
            sfa[i] = (uint32_t) smma_gen_rand(st);
            sfb[i] = (uint32_t) smma_gen_rand(st);
        }
        if (rc == SMMA_OK && bs->scale_vec)
            rc = smma_mma_bs_sf_pack(bs, SMMA_OP_A, sel, d->sa, sfa, err);
        if (rc == SMMA_OK && bs->scale_vec)
            rc = smma_mma_bs_sf_pack(bs, SMMA_OP_B, sel, d->sb, sfb, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_exec(bs, sel, s->model, a, b, c, sfa, sfb, dr, err);
    }
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "a", a, 32, 32 * la->regs, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "b", b, 32, 32 * lb->regs, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "c", c, 32, 32 * lc->regs, err);
    if (rc == SMMA_OK && bs != NULL && bs->scale_vec) {
        rc = smma_gen_put_regs(mc, "sfa", sfa, 32, 32, err);
        if (rc == SMMA_OK)
            rc = smma_gen_put_regs(mc, "sfb", sfb, 32, 32, err);
    }
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "d", dr, 32, 32 * lc->regs, err);
    return rc;
}

/* The legal selectors of a block-scaled variant, {0, 0, 0, 0} first. */
static size_t
bs_selectors(const smma_mma_bs *v, smma_mma_bs_sel *out)
{
    unsigned x;
    size_t n = 0;

    for (x = 0; x < 256; x++) {
        smma_mma_bs_sel sel = { x & 3, x >> 2 & 3, x >> 4 & 3, x >> 6 & 3 };

        if (smma_mma_bs_sel_check(v, &sel, NULL) == SMMA_OK)
            out[n++] = sel;
    }
    return n;
}

static int
gen_mma_sync(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const bs_comments[] = {
        "sfa, sfb: the scale registers (scale-a-data, scale-b-data), one per lane, and",
        "byte_id_a, thread_id_a, byte_id_b, thread_id_b the selectors of the case",
        "(fragment.INSTRUCTION.sfa, .sfb), {0, 0, 0, 0} in case 0, then drawn from the",
        "legal ones; the bytes the instruction does not read hold random values, which",
        "a subject must not read", NULL
    };
    static const char *const f16_comments[] = {
        "c and d hold two f16 per register, the lower column in bits 15:0; no exact-class",
        "cases (they need an fp32 D)", NULL
    };
    smma_mma_bs v, *bs = NULL;
    smma_mma_bs_sel sels[256], zero = { 0, 0, 0, 0 };
    smma_gemm_shape sh;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct smma_gen_case mc;
    size_t nsel = 1;
    bool scaled = false, f16acc;
    char blocks_in[80];
    uint64_t st = seed;
    unsigned i, nrand, nexact;
    int rc;

    memset(&mc, 0, sizeof(mc));
    sels[0] = zero;
    if (s->isa == SMMA_SUITE_ISA_MMA_BS) {
        rc = smma_mma_bs_at(s->var, &v, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_shape(&v, &sh, err);
        bs = &v;
        scaled = v.scale_vec != 0;
        if (scaled)
            nsel = bs_selectors(&v, sels);
    } else {
        rc = smma_mma_instr_shape((smma_mma_instr) s->var, &sh, err);
    }
    if (rc != SMMA_OK)
        return rc;
    f16acc = sh.d_fmt != SMMA_FP32;
    snprintf(blocks_in, sizeof(blocks_in), "a:u32 b:u32 c:%s%s", f16acc ? "u32" : "fp32",
             scaled ? " sfa:u32 sfb:u32" : "");
    rc = start_mma(s, level, seed,
                   scaled ? "class:u8 byte_id_a:u8 thread_id_a:u8 byte_id_b:u8 thread_id_b:u8"
                          : "class:u8",
                   blocks_in, f16acc ? "d:u32" : "d:fp32", mma_sync_comments,
                   s->isa == SMMA_SUITE_ISA_MMA_BS
                       ? "sm_120a: every model here is provisional for this instruction "
                         "(none has been checked on a GPU)"
                       : NULL,
                   &h, &w, err);
    if (rc == SMMA_OK && scaled)
        rc = smma_gen_comments(w, bs_comments, err);
    if (rc == SMMA_OK && f16acc)
        rc = smma_gen_comments(w, f16_comments, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    nrand = mma_cases(level, false);
    nexact = f16acc ? 0 : mma_cases(level, true);
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;
        const smma_mma_bs_sel *sel = &sels[i == 0 ? 0 : smma_gen_rand(&st) % nsel];

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        mc.scalars[1] = sel->byte_id_a;
        mc.scalars[2] = sel->thread_id_a;
        mc.scalars[3] = sel->byte_id_b;
        mc.scalars[4] = sel->thread_id_b;
        rc = mma_sync_case(s, bs, sel, &sh, &d, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    smma_gen_case_free(&mc);
    return smma_gen_finish(rc, w, out);
}

/* The immediates of wgmma case i: the swizzle of B's descriptor cycles
 * through none, 128B, 64B, 32B; B is N-major (16-bit only) in odd cases;
 * A is negated in every third, B in every fifth from case 1; scale-d is
 * false in every fourth from case 2; the core matrices or atoms of B are
 * adjacent along K (k_inner) in cases 2, 3, 6, 7, ... */
static void
wgmma_case_variant(unsigned i, smma_wgmma_variant *v, smma_wgmma_swizzle *swz, bool *k_inner)
{
    bool wide = v->a_fmt == SMMA_BF16 || v->a_fmt == SMMA_FP16;

    *swz = (smma_wgmma_swizzle) (i % 4);
    *k_inner = (i >> 1) & 1;
    v->trans_b = wide && i % 2 == 1;
    v->scale_a = i % 3 == 2 ? -1 : 1;
    v->scale_b = i % 5 == 1 ? -1 : 1;
    v->scale_d = i % 4 != 2;
}

static int
wgmma_case(const smma_suite *s, unsigned i, const smma_gemm_shape *sh,
           const smma_gemm_data *d, struct smma_gen_case *mc, uint64_t *st, smma_error *err)
{
    smma_wgmma_variant v = smma_wgmma_variant_make(smma_gen_wgmma_fmts[s->var][0],
                                                   smma_gen_wgmma_fmts[s->var][1], s->n);
    uint32_t a[128 * 4], *tile, *din, *dout, bytes, j;
    uint8_t *smem;
    smma_wgmma_frag fa, fd;
    smma_wgmma_swizzle swz;
    smma_wgmma_desc desc;
    uint64_t bdesc, *sv;
    bool k_inner;
    size_t size;
    int rc;

    wgmma_case_variant(i, &v, &swz, &k_inner);
    rc = smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_A, &fa, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_D, &fd, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, swz, k_inner, 0, &desc, &bytes, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_desc_encode(&desc, &bdesc, err);
    if (rc != SMMA_OK)
        return rc;
    size = (bytes + 15) / 16 * 16;
    smem = malloc(size);
    tile = malloc(sh->k * sh->n * sizeof(*tile));
    din = malloc(128 * fd.regs * sizeof(*din));
    dout = malloc(128 * fd.regs * sizeof(*dout));
    if (smem == NULL || tile == NULL || din == NULL || dout == NULL) {
        free(smem);
        free(tile);
        free(din);
        free(dout);
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    /* Bytes of the image that hold no element of B stay random. */
    for (j = 0; j < size; j++)
        smem[j] = (uint8_t) smma_gen_rand(st);
    b_tile(sh, d->b, tile);
    smma_wgmma_pack(&fa, d->a, a);
    smma_wgmma_pack(&fd, d->c, din);
    if (!v.scale_d)
        for (j = 0; j < 128 * fd.regs; j++)
            din[j] = (uint32_t) smma_gen_rand(st);
    rc = smma_wgmma_smem_store(&v, SMMA_WGMMA_OP_B, bdesc, tile, smem, size, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_exec(&v, s->model, a, 0, bdesc, smem, size, din, dout, err);
    mc->scalars[1] = v.scale_d;
    mc->scalars[2] = v.scale_a < 0;
    mc->scalars[3] = v.scale_b < 0;
    mc->scalars[4] = v.trans_b;
    mc->scalars[5] = bdesc;
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "a", a, 128, 128 * fa.regs, err);
    if (rc == SMMA_OK && (sv = smma_gen_case_block(mc, "smem", size / 16, 16)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (j = 0; rc == SMMA_OK && j < size; j++)
        sv[j] = smem[j];
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "d_in", din, 128, 128 * fd.regs, err);
    if (rc == SMMA_OK)
        rc = smma_gen_put_regs(mc, "d", dout, 128, 128 * fd.regs, err);
    free(smem);
    free(tile);
    free(din);
    free(dout);
    return rc;
}

static int
gen_mma_wgmma(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
              smma_error *err)
{
    static const char *const comments[] = {
        "a: the registers of A (wgmma with A from registers), one row per thread of the",
        "warpgroup (128 rows), one column per register (fragment.INSTRUCTION.a); smem:",
        "the shared memory from address 0, 16 bytes a row, holding B as the descriptor",
        "b_desc (64 bits, PTX ISA \"Matrix Descriptor Format\") describes it, bytes outside",
        "B random; d_in, d: D's registers (fragment.INSTRUCTION.d) before and after",
        "wgmma.mma_async ... d, a, b_desc, scale_d, imm-scale-a, imm-scale-b[, imm-trans-b]",
        "with imm-scale-a = -1 when neg_a is 1 (else 1), the same for B, imm-trans-b =",
        "trans_b (B N-major; bf16/f16 only); with scale_d 0, D = A B and d_in is random",
        "and not read.  D = A B + D, each element by smma_dot under the model.  class 0:",
        "random inputs, 1: exact-class inputs (every numerics model gives the same D)", NULL
    };
    smma_wgmma_variant v = smma_wgmma_variant_make(smma_gen_wgmma_fmts[s->var][0],
                                                   smma_gen_wgmma_fmts[s->var][1], s->n);
    smma_gemm_shape sh;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct smma_gen_case mc;
    uint64_t st = seed;
    unsigned i, nrand = mma_cases(level, false), nexact = mma_cases(level, true);
    int rc = smma_wgmma_shape(&v, &sh, err);

    memset(&mc, 0, sizeof(mc));
    if (rc == SMMA_OK)
        rc = start_mma(s, level, seed,
                       "class:u8 scale_d:u8 neg_a:u8 neg_b:u8 trans_b:u8 b_desc:u64",
                       "a:u32 smem:u8 d_in:fp32", "d:fp32", comments, NULL, &h, &w, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        rc = wgmma_case(s, i, &sh, &d, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    smma_gen_case_free(&mc);
    return smma_gen_finish(rc, w, out);
}

/* The tcgen05.mma forms of the mma suites, var 0..55: kind::f16 with f16
 * and with bf16 A and B (0, 1); kind::f8f6f4 (2 + 5 ia + ib) and
 * kind::mxf8f6f4 1X (27 + 5 ia + ib), ia and ib in the order e4m3 e5m2
 * e3m2 e2m3 e2m1; kind::mxf4 2X (52); kind::mxf4nvf4 2X with ue8m0 scales
 * (53), 4X with ue4m3 (54) and 4X with ue8m0 (55).  Always cta_group::1,
 * M = 128, N = s->n, A and B K-major in shared memory, D f32. */
struct tc05_form {
    smma_tc05_kind kind;
    smma_format a, b, scale;
    unsigned a_code, b_code, scale_vec, elem_bits;
};

static const smma_format tc05_f8[5] = { SMMA_E4M3, SMMA_E5M2, SMMA_E3M2, SMMA_E2M3, SMMA_E2M1 };
static const unsigned tc05_f8_code[5] = { SMMA_TC05_E4M3, SMMA_TC05_E5M2, SMMA_TC05_E3M2,
                                          SMMA_TC05_E2M3, SMMA_TC05_E2M1 };

static struct tc05_form
tc05_form(unsigned var)
{
    struct tc05_form f;

    memset(&f, 0, sizeof(f));
    f.scale = SMMA_NONE;
    if (var < 2) {
        f.kind = SMMA_TC05_KIND_F16;
        f.a = f.b = var ? SMMA_BF16 : SMMA_FP16;
        f.a_code = f.b_code = var ? SMMA_TC05_BF16 : SMMA_TC05_F16;
        f.elem_bits = 16;
    } else if (var < 52) {
        unsigned j = (var - 2) % 25;

        f.kind = var < 27 ? SMMA_TC05_KIND_F8F6F4 : SMMA_TC05_KIND_MXF8F6F4;
        f.a = tc05_f8[j / 5];
        f.b = tc05_f8[j % 5];
        f.a_code = tc05_f8_code[j / 5];
        f.b_code = tc05_f8_code[j % 5];
        f.elem_bits = 8;
        if (var >= 27) {
            f.scale = SMMA_E8M0;
            f.scale_vec = 1;
        }
    } else {
        f.kind = var == 52 ? SMMA_TC05_KIND_MXF4 : SMMA_TC05_KIND_MXF4NVF4;
        f.a = f.b = SMMA_E2M1;
        f.a_code = f.b_code = SMMA_TC05_MXF4_E2M1;
        f.elem_bits = 4;
        f.scale = var == 54 ? SMMA_UE4M3 : SMMA_E8M0;
        f.scale_vec = var >= 54 ? 4 : 2;
    }
    return f;
}

/* The name of a form: "m128n16k32.f8f6f4.e4m3.e2m1", "m128n16k64.mxf4nvf4.4x"... */
static void
tc05_name(unsigned var, unsigned n, char *buf, size_t size)
{
    struct tc05_form f = tc05_form(var);
    unsigned k = smma_tc05_mma_k(f.kind, false);
    int at = snprintf(buf, size, "tcgen05.m128n%uk%u.%s", n, k, smma_tc05_kind_name(f.kind));

    if (f.kind == SMMA_TC05_KIND_F16)
        snprintf(buf + at, size - (size_t) at, ".%s", f.a == SMMA_FP16 ? "f16" : "bf16");
    else if (f.elem_bits == 8)
        snprintf(buf + at, size - (size_t) at, ".%s.%s", smma_format_name(f.a),
                 smma_format_name(f.b));
    else if (f.kind == SMMA_TC05_KIND_MXF4NVF4)
        snprintf(buf + at, size - (size_t) at, ".%ux%s", f.scale_vec,
                 var == 55 ? ".ue8m0" : "");
}

static smma_gemm_shape
tc05_shape(const struct tc05_form *f, unsigned n)
{
    smma_gemm_shape sh;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = f->a;
    sh.b_fmt = f->b;
    sh.scale_fmt = f->scale;
    sh.k = smma_tc05_mma_k(f->kind, false);
    sh.vec = f->scale_vec ? (unsigned) sh.k / f->scale_vec : 32;
    sh.c_fmt = sh.d_fmt = SMMA_FP32;
    sh.m = 128;
    sh.n = n;
    return sh;
}

/* K-major canonical layout of `rows` rows in swizzle mode sw (softmma/
 * tcgen05.h): without swizzling the core matrices of 8 rows x 16 bytes
 * lie next to each other along M/N (SBO 128), the two along K LBO apart;
 * swizzled, 8-row atoms of W bytes follow each other (SBO 8W, LBO 16). */
static smma_tc05_layout
tc05_layout(smma_tc05_swizzle sw, unsigned bits, unsigned rows, uint32_t *bytes)
{
    smma_tc05_layout l;
    unsigned w = smma_tc05_swizzle_bytes(sw);

    l.mn_major = false;
    l.swizzle = sw;
    l.elem_bits = bits;
    if (sw == SMMA_TC05_SWIZZLE_NONE) {
        l.sbo = 128;
        l.lbo = 128 * ((rows + 7) / 8);
        *bytes = 2 * l.lbo;
    } else {
        l.lbo = 16;
        l.sbo = 8 * w;
        *bytes = (rows + 7) / 8 * 8 * w;
    }
    return l;
}

/* Stores the code of element (row, k) at its address: a 16-bit element
 * little-endian, an 8-bit container with 4- and 6-bit codes in bits 5:2
 * (e2m1) or 5:0, zero elsewhere; two e2m1 to a byte for 4-bit operands. */
static int
tc05_put(uint8_t *smem, const smma_tc05_layout *l, uint32_t start, unsigned row, unsigned k,
         smma_format f, uint32_t code, smma_error *err)
{
    uint32_t byte;
    unsigned bit;
    int rc = smma_tc05_smem_addr(l, start, row, k, &byte, &bit, err);

    if (rc != SMMA_OK)
        return rc;
    if (l->elem_bits == 16) {
        smem[byte] = (uint8_t) code;
        smem[byte + 1] = (uint8_t) (code >> 8);
    } else if (l->elem_bits == 8) {
        smem[byte] = (uint8_t) (f == SMMA_E2M1 ? code << 2 : code);
    } else {
        smem[byte] = (uint8_t) ((smem[byte] & ~(0xFu << bit)) | (code & 0xFu) << bit);
    }
    return SMMA_OK;
}

/* The TMEM columns of a case: D at 0, then scale_A (4 columns for 128
 * rows), then scale_B. */
#define TC05_SFA_COL(n) (n)
#define TC05_SFB_COL(n) ((n) + 4)

static int
tc05_case(const smma_suite *s, unsigned i, unsigned level, const smma_gemm_shape *sh,
          const smma_gemm_data *d, smma_tmem *t, struct smma_gen_case *mc, uint64_t *st,
          smma_error *err)
{
    static const smma_tc05_swizzle swz[4] = { SMMA_TC05_SWIZZLE_NONE, SMMA_TC05_SWIZZLE_32B,
                                              SMMA_TC05_SWIZZLE_64B, SMMA_TC05_SWIZZLE_128B };
    struct tc05_form f = tc05_form(s->var);
    smma_tc05_swizzle sw = swz[level >= 2 ? i % 4 : i % 2];
    smma_tmem_dlayout dl = { 128, s->n, 1, 0 };
    smma_tmem_sflayout sfa = { 128, f.scale_vec, 0, smma_tmem_addr(0, TC05_SFA_COL(s->n)) };
    smma_tmem_sflayout sfb = { s->n, f.scale_vec, 0, smma_tmem_addr(0, TC05_SFB_COL(s->n)) };
    unsigned ncols = f.scale_vec ? TC05_SFB_COL(s->n) + 1 : s->n, m, n, k, kb, p, ids[4], nid = 0;
    uint32_t abytes, bbytes, bstart, idw, lane, col, byte;
    smma_tc05_layout la = tc05_layout(sw, f.elem_bits, 128, &abytes);
    smma_tc05_layout lb = tc05_layout(sw, f.elem_bits, s->n, &bbytes);
    smma_tc05_sdesc sd;
    smma_tc05_idesc id;
    smma_tc05_mma op;
    smma_tc05_cta cta;
    uint8_t *smem;
    uint64_t *v;
    size_t size;
    int rc = SMMA_OK;

    bstart = (abytes + 1023) / 1024 * 1024;
    size = bstart + (bbytes + 15) / 16 * 16;
    smem = calloc(size, 1);
    if (smem == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    memset(&id, 0, sizeof(id));
    id.a_fmt = f.a_code;
    id.b_fmt = f.b_code;
    id.negate_a = i % 3 == 2;
    id.negate_b = i % 5 == 1;
    id.n = s->n;
    id.m = 128;
    if (f.scale_vec) {
        for (k = 0; k < 4; k++) {
            sfa.sf_id = k;
            if (smma_tmem_sf_check(&sfa, NULL) == SMMA_OK)
                ids[nid++] = k;
        }
        id.scale_fmt = f.scale == SMMA_UE4M3 ? SMMA_TC05_SCALE_UE4M3 : SMMA_TC05_SCALE_UE8M0;
        sfa.sf_id = id.sfa_id = ids[i % nid];
        sfb.sf_id = id.sfb_id = ids[(i / 2) % nid];
    } else {
        id.d_fmt = SMMA_TC05_D_F32;
    }
    memset(&op, 0, sizeof(op));
    op.kind = f.kind;
    op.cta_group = 1;
    op.scale_vec = f.scale_vec;
    op.d_taddr = dl.addr;
    op.sfa_taddr = sfa.addr;
    op.sfb_taddr = sfb.addr;
    op.enable_input_d = i % 4 != 2;
    rc = smma_tc05_idesc_encode(f.kind, &id, &idw, err);
    op.idesc = idw;
    memset(&sd, 0, sizeof(sd));
    sd.swizzle = sw;
    sd.lbo = la.lbo;
    sd.sbo = la.sbo;
    if (rc == SMMA_OK)
        rc = smma_tc05_sdesc_encode(&sd, &op.a_desc, err);
    sd.start = bstart;
    sd.lbo = lb.lbo;
    sd.sbo = lb.sbo;
    if (rc == SMMA_OK)
        rc = smma_tc05_sdesc_encode(&sd, &op.b_desc, err);
    for (m = 0; rc == SMMA_OK && m < 128; m++)
        for (k = 0; rc == SMMA_OK && k < sh->k; k++)
            rc = tc05_put(smem, &la, 0, m, k, f.a, d->a[m * sh->k + k], err);
    for (n = 0; rc == SMMA_OK && n < s->n; n++)
        for (k = 0; rc == SMMA_OK && k < sh->k; k++)
            rc = tc05_put(smem, &lb, bstart, n, k, f.b, d->b[n * sh->k + k], err);
    /* TMEM: D (random when it is not read), the scales with random bytes
     * where the instruction reads nothing. */
    smma_tmem_init(t);
    for (lane = 0; lane < 128; lane++)
        for (col = 0; col < ncols; col++)
            t->cell[lane][col] = (uint32_t) smma_gen_rand(st);
    for (m = 0; op.enable_input_d && m < 128; m++)
        for (n = 0; n < s->n; n++)
            t->cell[m][n] = d->c[m * s->n + n];
    for (kb = 0; kb < f.scale_vec; kb++)
        for (p = 0; p < 4; p++) {
            for (m = 0; m < 128; m++) {
                smma_tmem_sf_coord(&sfa, m, kb, p, &lane, &col, &byte);
                t->cell[lane][col] &= ~(0xFFu << (8 * byte));
                t->cell[lane][col] |= d->sa[m * f.scale_vec + kb] << (8 * byte);
            }
            for (n = 0; n < s->n; n++) {
                smma_tmem_sf_coord(&sfb, n, kb, p, &lane, &col, &byte);
                t->cell[lane][col] &= ~(0xFFu << (8 * byte));
                t->cell[lane][col] |= d->sb[n * f.scale_vec + kb] << (8 * byte);
            }
        }
    mc->scalars[1] = op.idesc;
    mc->scalars[2] = op.a_desc;
    mc->scalars[3] = op.b_desc;
    mc->scalars[4] = op.enable_input_d;
    if (rc == SMMA_OK && (v = smma_gen_case_block(mc, "smem", size / 16, 16)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (k = 0; rc == SMMA_OK && k < size; k++)
        v[k] = smem[k];
    if (rc == SMMA_OK && (v = smma_gen_case_block(mc, "tmem", 128, ncols)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (lane = 0; rc == SMMA_OK && lane < 128; lane++)
        for (col = 0; col < ncols; col++)
            v[lane * ncols + col] = t->cell[lane][col];
    cta.smem = smem;
    cta.smem_size = size;
    cta.tmem = t;
    if (rc == SMMA_OK)
        rc = smma_tc05_mma_exec(&op, s->model, &cta, err);
    if (rc == SMMA_OK && (v = smma_gen_case_block(mc, "d", 128, s->n)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (m = 0; rc == SMMA_OK && m < 128; m++)
        for (n = 0; n < s->n; n++)
            v[m * s->n + n] = t->cell[m][n];
    free(smem);
    return rc;
}

static int
gen_mma_tc05(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const comments[] = {
        "tcgen05.mma.cta_group::1.kind::KIND[.block_scale.scale_vec::NX] [d_taddr], a_desc,",
        "b_desc, idesc[, [sfa_taddr], [sfb_taddr]], enable_input_d, with d_taddr = lane 0",
        "column 0 and, for the block-scaled kinds, sfa_taddr column N, sfb_taddr column",
        "N + 4.  idesc: the instruction descriptor (PTX ISA \"Instruction descriptor\"; M",
        "128, N, the formats, negate A / B, the scale format and ids); a_desc, b_desc: the",
        "shared-memory descriptors (A at address 0, B after it, both K-major, the swizzle",
        "cycling through none and 32B at level 1, every mode at level 2); smem: the shared",
        "memory from address 0, 16 bytes a row (f16/bf16 elements little-endian, f8f6f4",
        "and mxf8f6f4 elements one per byte, e2m1 in bits 5:2 and e2m3/e3m2 in bits 5:0,",
        "mxf4 and mxf4nvf4 two e2m1 per byte, the lower k in the low nibble); tmem: lanes",
        "0-127 x the columns from 0: D (layout D: lane m, column n; random and not read",
        "when enable_input_d is 0), then scale_A and scale_B as fragment.tcgen05.sf.* says",
        "(four copies, the other bytes random); d: columns 0..N-1 after the instruction, so",
        "d[m][n] = D[m][n].  class 0: random inputs, 1: exact-class inputs", NULL
    };
    struct tc05_form f = tc05_form(s->var);
    smma_gemm_shape sh = tc05_shape(&f, s->n);
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct smma_gen_case mc;
    uint64_t st = seed;
    unsigned i, nrand = level >= 2 ? 24 : 3, nexact = level >= 2 ? 8 : 1;
    smma_tmem *t = malloc(sizeof(*t));
    int rc = t == NULL ? smma_error_set(err, SMMA_ENOMEM, "out of memory") : SMMA_OK;

    memset(&mc, 0, sizeof(mc));
    if (rc == SMMA_OK)
        rc = start_mma(s, level, seed, "class:u8 idesc:u32 a_desc:u64 b_desc:u64 "
                       "enable_input_d:u8", "smem:u8 tmem:u32", "d:fp32", comments,
                       "sm_100a: every model here is provisional for this instruction (none "
                       "has been checked on a GPU)", &h, &w, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        rc = tc05_case(s, i, level, &sh, &d, t, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    smma_gen_case_free(&mc);
    free(t);
    return smma_gen_finish(rc, w, out);
}

int
smma_gen_mma(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
        smma_error *err)
{
    switch (s->isa) {
    case SMMA_SUITE_ISA_MMA:
    case SMMA_SUITE_ISA_MMA_BS:
        return gen_mma_sync(s, level, seed, out, err);
    case SMMA_SUITE_ISA_WGMMA:
        return gen_mma_wgmma(s, level, seed, out, err);
    case SMMA_SUITE_ISA_TC05:
        return gen_mma_tc05(s, level, seed, out, err);
    default:
        break;
    }
    return smma_error_set(err, SMMA_EINVAL, "%s: no mma generator", s->name);
}


/* The models of the mma suites of an instruction family and format: the
 * validated or primary model of the instruction (h100-bf16 for the 16-bit
 * forms of mma.sync and wgmma, h100-fp8 for wgmma on fp8; the provisional
 * b200-fp8 for the sm_120a forms and the fp8/fp6/fp4 kinds of tcgen05, and
 * b200-bf16 for its kind::f16) and exact-rn.  mma.sync on fp8 has
 * no model that fits the H100 (bench/h100-mma-probe.md): exact-rn only. */
static size_t
mma_models(smma_suite_isa isa, smma_format a, const char **names)
{
    size_t n = 0;

    if (isa == SMMA_SUITE_ISA_MMA_BS ||
        (isa == SMMA_SUITE_ISA_TC05 && a != SMMA_BF16 && a != SMMA_FP16))
        names[n++] = "b200-fp8";
    else if (isa == SMMA_SUITE_ISA_TC05)
        names[n++] = "b200-bf16";
    else if (a == SMMA_BF16 || a == SMMA_FP16)
        names[n++] = "h100-bf16";
    else if (isa == SMMA_SUITE_ISA_WGMMA)
        names[n++] = "h100-fp8";
    names[n++] = "exact-rn";
    return n;
}

/* Adds the mma suite of an instruction named instr under each model that
 * can compute its shape (smma_model_check). */
static void
mma_add(smma_suite_isa isa, unsigned var, unsigned n, const char *instr,
        const smma_gemm_shape *sh)
{
    const char *names[4];
    const smma_model *m;
    size_t k, nm = mma_models(isa, sh->a_fmt, names);
    smma_suite *s;

    for (k = 0; k < nm; k++) {
        if (smma_model_from_name(names[k], &m, NULL) != SMMA_OK ||
            smma_model_check(m, sh, NULL) != SMMA_OK)
            continue;
        s = smma_gen_add(SMMA_SUITE_MMA, isa, var, 0, n, "mma.%s.%s", instr, m->name);
        if (s != NULL)
            s->model = m;
    }
}

void
smma_gen_mma_suites(void)
{
    smma_gemm_shape sh;
    smma_mma_bs v;
    unsigned i, k;
    char name[64];

    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        if (smma_mma_instr_shape((smma_mma_instr) i, &sh, NULL) == SMMA_OK)
            mma_add(SMMA_SUITE_ISA_MMA, i, 0, smma_mma_instr_name((smma_mma_instr) i) + 4, &sh);
    for (i = 0; i < SMMA_MMA_BS_COUNT; i++)
        if (smma_mma_bs_at(i, &v, NULL) == SMMA_OK && smma_mma_bs_shape(&v, &sh, NULL) == SMMA_OK)
            mma_add(SMMA_SUITE_ISA_MMA_BS, i, 0, smma_mma_bs_name(&v) + 4, &sh);
    for (i = 0; i < 6; i++)
        for (k = 8; k <= 256; k *= k == 8 ? 8 : 4) {
            smma_wgmma_variant wv = smma_wgmma_variant_make(smma_gen_wgmma_fmts[i][0],
                                                            smma_gen_wgmma_fmts[i][1], k);

            if (smma_wgmma_shape(&wv, &sh, NULL) == SMMA_OK &&
                smma_wgmma_name(&wv, name, sizeof(name), NULL) == SMMA_OK)
                mma_add(SMMA_SUITE_ISA_WGMMA, i, k, name, &sh);
        }
    for (i = 0; i < 56; i++) {
        struct tc05_form f = tc05_form(i);

        sh = tc05_shape(&f, 16);
        tc05_name(i, 16, name, sizeof(name));
        mma_add(SMMA_SUITE_ISA_TC05, i, 16, name, &sh);
    }
}

/* Committed: every mma.sync suite; the sm_120a forms f8f6f4 and mxf8f6f4
 * on e4m3 x e2m1, mxf4, and mxf4nvf4 2X, 4X and 4X with ue8m0 scales;
 * wgmma at N = 8; tcgen05 kind::f16 on bf16, f8f6f4 on e4m3, mxf8f6f4 on
 * e4m3 x e2m1, mxf4nvf4 4X with ue4m3 scales. */
bool
smma_gen_mma_committed(const smma_suite *s)
{
    return s->isa == SMMA_SUITE_ISA_MMA ||
           (s->isa == SMMA_SUITE_ISA_MMA_BS && (s->var == 4 || s->var == 29 || s->var >= 50)) ||
           (s->isa == SMMA_SUITE_ISA_WGMMA && s->n == 8) ||
           (s->isa == SMMA_SUITE_ISA_TC05 &&
            (s->var == 1 || s->var == 2 || s->var == 31 || s->var == 54));
}
