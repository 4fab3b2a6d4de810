/*
 * softmma/mma_bs.h - the sm_120a mma.sync instructions on FP8/FP6/FP4
 * operands, plain (.kind::f8f6f4) and block-scaled (.kind::mxf8f6f4,
 * .kind::mxf4, .kind::mxf4nvf4): their variants, the register layouts of A,
 * B, C and D, the layouts of the scale-factor registers with their byte and
 * thread selectors, a warp-level executor, and the exact PTX text.
 *
 * Sources (PTX ISA 9.0/9.1; sections numbered 9.7.14 there, 9.7.15 in some
 * later versions):
 *   - 9.7.14.5.14 "Multiply-and-Accumulate Instruction: mma": the syntax of
 *     the "Alternate floating point type" and "... with block scaling" forms,
 *     the 8-bit containers, the examples, the Target ISA Notes;
 *   - 9.7.14.3 "Block Scaling for mma.sync": Table 35 "Shapes for scale
 *     matrices", Table 36 "Valid combinations of .scale_vec_size and .kind",
 *     Table 37 "Valid values for various selector components", the rules for
 *     thread-id and byte-id and Figures 43-45 (images);
 *   - 9.7.14.5.10 "Matrix Fragments for mma.m16n8k32" (Figure 88 and the
 *     formulas for .e4m3/.e5m2/.e3m2/.e2m3/.e2m1 A and B, C/D .f32) and
 *     9.7.14.5.11 "Matrix Fragments for mma.m16n8k64" (Figures 93-96,
 *     .e2m1 A and B);
 *   - CUTLASS include/cute/atom/mma_traits_sm120.hpp (SFALayout, SFBLayout)
 *     and include/cute/arch/mma_sm120.hpp (scale registers of 8, 16 and 32
 *     bits for 1X, 2X and 4X), read to cross-check the scale layouts.
 *
 * The variants (Table 36; atype and btype each one of e4m3, e5m2, e3m2,
 * e2m3, e2m1; C and D .f32):
 *
 *   kind       shape     scale_vec  stype          K per scale  variants
 *   f8f6f4     m16n8k32  (none)     (none)         -            25
 *   mxf8f6f4   m16n8k32  1X         ue8m0          32           25
 *   mxf4       m16n8k64  2X         ue8m0          32           1 (e2m1 only)
 *   mxf4nvf4   m16n8k64  2X         ue8m0          32           1 (e2m1 only)
 *   mxf4nvf4   m16n8k64  4X         ue4m3          16           1 (e2m1 only)
 *   mxf4nvf4   m16n8k64  4X         ue8m0          16           1 (PTX ISA 9.1)
 *
 * Everything else is refused with a message: mxf4 with 1X or 4X or ue4m3,
 * mxf4nvf4 with 1X or with 2X ue4m3, mxf8f6f4 with 2X, 4X or ue4m3,
 * mxf4/mxf4nvf4 operands other than e2m1, and .f16 C/D for the block-scaled
 * kinds (their syntax has .f32 only).  .kind::f8f6f4 with .f16 C and D is
 * legal PTX, but softmma does not model f16 accumulators: refused as "not
 * modelled".
 *
 * Operand tiles and registers per lane (group = lane / 4, tig = lane % 4):
 *
 *   m16n8k32  A 16 x 32: 4 registers of 4 8-bit containers
 *               reg 0 (group, 4tig..4tig+3)   reg 1 (group+8, 4tig..4tig+3)
 *               reg 2 (group, 4tig+16..+19)   reg 3 (group+8, 4tig+16..+19)
 *             B 32 x 8: 2 registers of 4 containers
 *               reg 0 (k = 4tig..4tig+3, n = group), reg 1 (k = 4tig+16..+19)
 *   m16n8k64  A 16 x 64: 4 registers of 8 packed e2m1
 *               reg 0 (group, 8tig..8tig+7)   reg 1 (group+8, 8tig..8tig+7)
 *               reg 2 (group, 8tig+32..+39)   reg 3 (group+8, 8tig+32..+39)
 *             B 64 x 8: 2 registers of 8 packed e2m1
 *               reg 0 (k = 8tig..8tig+7, n = group), reg 1 (k = 8tig+32..+39)
 *   both      C, D 16 x 8 fp32: reg 0, 1 (group, 2tig, 2tig+1),
 *               reg 2, 3 (group+8, 2tig, 2tig+1)
 *
 * Element e of a register sits in bits [e * w, (e+1) * w), w = 8 or 4 (the
 * ISA's "Elements (low to high)").  In the 8-bit containers of the m16n8k32
 * kinds (ISA: "must be packed in an 8-bit container"): e4m3 and e5m2 fill
 * the byte; e3m2 and e2m3 sit in bits 5:0 with bits 7:6 zero; e2m1 sits in
 * bits 5:2 ("central 4 bits") with bits 7:6 and 1:0 zero.  The m16n8k64
 * kinds take e2m1 packed, 8 per register, no padding.
 *
 * Scale factors.  scale_A is 16 x S (row m, k block) and scale_B is S x 8
 * (k block, column n), S = scale_vec (1, 2 or 4); k block j covers k in
 * [j * K/S, (j+1) * K/S).  Each lane passes one 32-bit register for each
 * (scale-a-data, scale-b-data) and the selectors {byte-id-a, thread-id-a},
 * {byte-id-b, thread-id-b} say which lanes and bytes are read:
 *
 *   thread-id-a  0 or 1: lanes with lane % 4 in {2 tid, 2 tid + 1} provide
 *                scale_A; lane 4g + 2 tid holds row g, lane 4g + 2 tid + 1
 *                holds row g + 8.
 *   thread-id-b  0..3: lanes with lane % 4 == tid provide scale_B; lane
 *                4n + tid holds column n.
 *   byte-id      1X: 0..3, the one byte read; 2X: 0 or 2, bytes bid and
 *                bid + 1 hold k blocks 0 and 1; 4X: 0, bytes 0..3 hold k
 *                blocks 0..3.
 *
 * So k block j of row m of A is byte bid_a + j of lane
 * 4 (m % 8) + 2 tid_a + m / 8, and k block j of column n of B is byte
 * bid_b + j of lane 4n + tid_b.  The ISA text fixes which lanes and bytes
 * are read (Table 37 and the listings of 9.7.14.3).  Two points are drawn
 * only in its Figures 43 and 45, which softmma takes from CUTLASS's
 * SFALayout / SFBLayout (thread-id 0) and the CUTLASS scale registers
 * (byte-id 0): within the thread pair the lower lane holds row g and the
 * upper row g + 8; within the selected bytes the lower byte holds the lower
 * k block.  For thread-id-a 1 and byte-id 2 the same order is assumed.
 *
 * The variant numbers (smma_mma_bs_index) are shared with the GPU probe
 * (gpu/probes/mma_bs_probe.h) and never change:
 *   0..24   f8f6f4 atype x btype, number 5 * ia + ib with the order e4m3 0,
 *           e5m2 1, e3m2 2, e2m3 3, e2m1 4
 *   25..49  mxf8f6f4, 25 + 5 * ia + ib
 *   50 mxf4 2X ue8m0, 51 mxf4nvf4 2X ue8m0, 52 mxf4nvf4 4X ue4m3,
 *   53 mxf4nvf4 4X ue8m0
 */
#ifndef SOFTMMA_MMA_BS_H
#define SOFTMMA_MMA_BS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/format.h>
#include <softmma/fragment.h>
#include <softmma/gemm.h>
#include <softmma/grid.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The .kind qualifiers.  The numbering never changes. */
typedef enum smma_mma_kind {
    SMMA_MMA_KIND_F8F6F4 = 0, /* m16n8k32, no scales */
    SMMA_MMA_KIND_MXF8F6F4,   /* m16n8k32, block_scale */
    SMMA_MMA_KIND_MXF4,       /* m16n8k64, block_scale, e2m1 */
    SMMA_MMA_KIND_MXF4NVF4,   /* m16n8k64, block_scale, e2m1 */
    SMMA_MMA_KIND_COUNT
} smma_mma_kind;

/* One instruction variant. */
typedef struct smma_mma_bs {
    smma_mma_kind kind;
    smma_format a_fmt, b_fmt; /* e4m3, e5m2, e3m2, e2m3 or e2m1 (mxf4*: e2m1) */
    unsigned scale_vec;       /* 0 for f8f6f4; 1, 2 or 4 (.scale_vec::1X/2X/4X) */
    smma_format scale_fmt;    /* SMMA_NONE for f8f6f4; SMMA_E8M0 or SMMA_UE4M3 */
    bool acc_f16;             /* .f16 C and D: not modelled (legal only for f8f6f4) */
} smma_mma_bs;

/* The selectors {byte-id-a, thread-id-a}, {byte-id-b, thread-id-b}. */
typedef struct smma_mma_bs_sel {
    unsigned byte_id_a, thread_id_a;
    unsigned byte_id_b, thread_id_b;
} smma_mma_bs_sel;

/* The selectors that put byte-id bid and thread-id tid on the scales of
 * operand op (SMMA_OP_A: scale-a, otherwise scale-b), the other operand's
 * selectors 0.  Not checked: see smma_mma_bs_sel_check. */
smma_mma_bs_sel smma_mma_bs_sel_of(smma_operand op, unsigned bid, unsigned tid);

/* The number of modeled variants. */
#define SMMA_MMA_BS_COUNT 54u

/* Checks a variant against the ISA's syntax and Table 36 (see above).
 * Returns SMMA_OK, or SMMA_EINVAL with a message naming the bad field and
 * its legal values (e.g. "mxf4: scale_vec 4X is not legal (mxf4 takes
 * 2X)"). */
int smma_mma_bs_check(const smma_mma_bs *v, smma_error *err);

/* Checks selectors against Table 37 for a (valid) block-scaled variant:
 * thread-id-a 0..1, thread-id-b 0..3, byte-id 0..3 (1X), 0 or 2 (2X), 0
 * (4X).  Returns SMMA_OK, or SMMA_EINVAL naming the selector, its value and
 * the legal ones.  For .kind::f8f6f4 (no scales) s is not read and may be
 * NULL. */
int smma_mma_bs_sel_check(const smma_mma_bs *v, const smma_mma_bs_sel *s, smma_error *err);

/* The variant of number index (0 .. SMMA_MMA_BS_COUNT - 1) into *v.
 * Returns SMMA_OK, or SMMA_EINVAL for an index out of range. */
int smma_mma_bs_at(unsigned index, smma_mma_bs *v, smma_error *err);

/* The number of a valid variant, or -1 for an invalid one. */
int smma_mma_bs_index(const smma_mma_bs *v);

/* The short name of a valid variant, "?" for an invalid one:
 *   "mma.m16n8k32.f8f6f4.<atype>.<btype>", "mma.m16n8k32.mxf8f6f4.<a>.<b>",
 *   "mma.m16n8k64.mxf4", "mma.m16n8k64.mxf4nvf4.2x",
 *   "mma.m16n8k64.mxf4nvf4.4x" (ue4m3 scales, NVFP4),
 *   "mma.m16n8k64.mxf4nvf4.4x.ue8m0". */
const char *smma_mma_bs_name(const smma_mma_bs *v);

/* The full PTX spelling of a valid variant (no operands), e.g.
 * "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X
 * .f32.e4m3.e2m1.f32.ue8m0" (one word); "?" for an invalid one. */
const char *smma_mma_bs_ptx_name(const smma_mma_bs *v);

/* Looks a variant up by its short name or its full PTX spelling
 * (case-insensitive).  Also accepted: "mma.m16n8k64.mxf4nvf4" (= .4x, the
 * NVFP4 form), ".2x.ue8m0" and ".4x.ue4m3" suffixes, and the PTX spellings
 * of mxf8f6f4 and mxf4 without .scale_vec_size (which default to 1X and 2X
 * in PTX).  Returns SMMA_OK and fills *out, or SMMA_EINVAL with a message
 * naming the unknown name and the forms that are known. */
int smma_mma_bs_from_name(const char *name, smma_mma_bs *out, smma_error *err);

/* K of a valid variant (32 or 64), 0 for an invalid one. */
unsigned smma_mma_bs_k(const smma_mma_bs *v);

/* The shape smma_mma_bs_exec computes: m 16, n 8, K, the element formats,
 * scale_fmt and vec = K / scale_vec (SMMA_NONE without scales), C and D
 * fp32.  Returns SMMA_EINVAL (message from smma_mma_bs_check) for an invalid
 * variant. */
int smma_mma_bs_shape(const smma_mma_bs *v, smma_gemm_shape *s, smma_error *err);

/* The fragment layout of operand op (A, B, C or D) of a valid variant,
 * filled into *out; smma_frag_coord, smma_frag_slot, smma_frag_pack and
 * smma_frag_unpack then work on it (on registers of 8-bit containers or
 * packed e2m1 codes).  out->fmt is the operand's element format.  Returns
 * SMMA_OK or SMMA_EINVAL. */
int smma_mma_bs_layout(const smma_mma_bs *v, smma_operand op, smma_frag_layout *out,
                       smma_error *err);

/* Packs a tile of element codes of operand op (A 16 x K or B K x 8,
 * row-major, one code per uint32_t; C or D fp32 bits) into per-lane
 * registers (32 * regs words), putting 4- and 6-bit codes into their 8-bit
 * containers for the m16n8k32 kinds.  Returns SMMA_OK, or SMMA_EINVAL (regs
 * then unspecified) for an invalid variant or a code with bits above its
 * format's width, naming the element. */
int smma_mma_bs_pack(const smma_mma_bs *v, smma_operand op, const uint32_t *tile,
                     uint32_t *regs, smma_error *err);

/* The inverse: registers to a tile of codes.  Returns SMMA_OK, or
 * SMMA_EINVAL for an invalid variant or an 8-bit container whose padding
 * bits are not zero (the ISA defines only zero padding; softmma does not
 * guess what the hardware does with other bits), naming lane, register and
 * byte; the tile is then unspecified. */
int smma_mma_bs_unpack(const smma_mma_bs *v, smma_operand op, const uint32_t *regs,
                       uint32_t *tile, smma_error *err);

/* The scale factor held in byte `byte` of the scale register of lane
 * `lane`, for scale_A (op SMMA_OP_A) or scale_B (SMMA_OP_B) under the
 * selectors: *mn receives the row m of A (0..15) or the column n of B
 * (0..7), *kblk the k block (0 .. scale_vec - 1).  When the instruction does
 * not read that byte (or lane >= 32, byte >= 4), *mn is 16 (A) or 8 (B),
 * outside the tile, and *kblk is scale_vec.  Returns SMMA_OK; SMMA_EINVAL
 * for an invalid or non-block-scaled variant, an operand other than A or B,
 * or illegal selectors (message as smma_mma_bs_sel_check). */
int smma_mma_bs_sf_coord(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                         unsigned lane, unsigned byte, unsigned *mn, unsigned *kblk,
                         smma_error *err);

/* The inverse: the lane and byte that hold scale (mn, kblk).  Returns
 * SMMA_OK, or SMMA_EINVAL as above or for a coordinate outside the scale
 * tile (mn >= 16 or 8, kblk >= scale_vec), *lane and *byte then untouched. */
int smma_mma_bs_sf_slot(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                        unsigned mn, unsigned kblk, unsigned *lane, unsigned *byte,
                        smma_error *err);

/* Writes the scale codes sf into the bytes of the 32 per-lane registers
 * regs that the instruction reads under the selectors; every other byte is
 * left as it was (so several selector sets can share registers).  sf is
 * stored as smma_gemm's scales: scale_A at sf[m * scale_vec + kblk], scale_B
 * at sf[n * scale_vec + kblk].  Returns SMMA_OK, or SMMA_EINVAL as
 * smma_mma_bs_sf_coord or for a code above 0xff (regs then unspecified). */
int smma_mma_bs_sf_pack(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                        const uint32_t *sf, uint32_t *regs, smma_error *err);

/* The inverse: reads the selected bytes into sf (same storage). */
int smma_mma_bs_sf_unpack(const smma_mma_bs *v, smma_operand op, const smma_mma_bs_sel *sel,
                          const uint32_t *regs, uint32_t *sf, smma_error *err);

/* Executes one instruction on per-lane registers: a_regs (32 * 4), b_regs
 * (32 * 2), c_regs (32 * 4, fp32), the scale registers sfa_regs and
 * sfb_regs (32 each) with the selectors sel, and writes d_regs (32 * 4,
 * fp32).  The registers are unpacked through the layouts (containers
 * decoded, scales selected), D = (A * scale_A)(B * scale_B) + C is computed
 * by smma_dot per element under the numerics model, and D is packed back.
 * For .kind::f8f6f4 sel, sfa_regs and sfb_regs are not read (may be NULL).
 * Returns SMMA_OK; SMMA_EINVAL for an invalid variant or selectors, a NULL
 * argument, nonzero container padding, or a ue4m3 scale byte with its most
 * significant bit set (not a ue4m3 code; the message names lane and byte);
 * or the error of smma_model_check.  On failure d_regs is untouched.  d_regs
 * may alias c_regs. */
int smma_mma_bs_exec(const smma_mma_bs *v, const smma_mma_bs_sel *sel,
                     const smma_model *model, const uint32_t *a_regs, const uint32_t *b_regs,
                     const uint32_t *c_regs, const uint32_t *sfa_regs,
                     const uint32_t *sfb_regs, uint32_t *d_regs, smma_error *err);

/*
 * PTX text.  One instruction with its operands and ';', the selectors as
 * immediates, using the registers declared by SMMA_MMA_BS_PTX_DECLS:
 *
 *   mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale
 *   .scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 {%d0, %d1, %d2, %d3},
 *   {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3},
 *   %sfa, {0, 1}, %sfb, {0, 3};
 *
 * (the ISA's operand order: d, a, b, c, scale-a-data, {byte-id-a,
 * thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}).  .scale_vec_size is
 * always written, also where PTX lets it default.
 */
#define SMMA_MMA_BS_PTX_DECLS                                                             \
    "    .reg .f32 %d<4>;\n    .reg .f32 %c<4>;\n    .reg .b32 %a<4>;\n"                  \
    "    .reg .b32 %b<2>;\n    .reg .b32 %sfa;\n    .reg .b32 %sfb;\n"

/* Writes the PTX text of a valid variant with the selectors sel (not read
 * for f8f6f4) to buf.  Returns SMMA_OK; SMMA_EINVAL for an invalid variant
 * or selectors or a NULL buf; SMMA_ERANGE when size is too small. */
int smma_mma_bs_ptx(const smma_mma_bs *v, const smma_mma_bs_sel *sel, char *buf, size_t size,
                    smma_error *err);

/* The target every variant needs, "sm_120a" (Target ISA Notes: the kinds
 * and FP6/FP4 types need sm_120a; also sm_121a, and sm_120f from PTX ISA
 * 8.8 except for mxf4 and mxf4nvf4), or NULL for an invalid variant. */
const char *smma_mma_bs_ptx_target(const smma_mma_bs *v);

/* The oldest PTX ISA version that has the variant: "8.7", or "9.1" for
 * mxf4nvf4 4X with ue8m0 scales; NULL for an invalid variant. */
const char *smma_mma_bs_ptx_version(const smma_mma_bs *v);

/*
 * Drawable form (softmma/grid.h).  Instructions: the short names and PTX
 * spellings of smma_mma_bs_from_name.  Operands: a, b, c, d (labels
 * "T<lane>:r<reg>.<elem>", "T<lane>:r<reg>" for C and D) and, for the
 * block-scaled kinds, sfa (16 x S: row m, column k block) and sfb (S x 8:
 * row k block, column n), labels "T<lane>:b<byte>".  sfa and sfb take
 * o->byte_id and o->thread_id; each defaults to 0 when not given (-1), the
 * value CUTLASS always uses.  Giving them for a, b, c or d, or an illegal
 * value, is an error.
 */
int smma_mma_bs_grid(const char *instr, const char *operand, const smma_grid_opts *o,
                     smma_grid *g, smma_error *err);
void smma_mma_bs_grid_list(smma_grid_emit_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_MMA_BS_H */
