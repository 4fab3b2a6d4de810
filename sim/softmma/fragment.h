/*
 * softmma/fragment.h - register fragment layouts of mma.sync, as functions,
 * and a warp-level executor of one instruction on per-lane registers.
 *
 * A fragment layout maps (lane, register, element-in-register) of a warp to
 * (row, col) of one operand tile, and back.  The tiles are
 *
 *   A  16 x K  (row = m, col = k)          K = 16 (bf16, f16) or 32 (fp8)
 *   B   K x 8  (row = k, col = n)
 *   C, D 16 x 8 (row = m, col = n), fp32
 *
 * With group = lane / 4 and tig = lane % 4 (the PTX ISA's groupID and
 * threadID_in_group), from PTX ISA 9.7.14.5.8 "Matrix Fragments for
 * mma.m16n8k16 with floating point type" (Figures 79, 81, 83) and
 * 9.7.14.5.10 "Matrix Fragments for mma.m16n8k32" (Figure 88 and the
 * formulas for B and C/D):
 *
 *   m16n8k16 A  reg 0 (group,   2tig..2tig+1)   reg 1 (group+8, 2tig..2tig+1)
 *               reg 2 (group,   2tig+8..+9)     reg 3 (group+8, 2tig+8..+9)
 *   m16n8k16 B  reg 0 (k = 2tig..2tig+1, n = group)
 *               reg 1 (k = 2tig+8..+9,   n = group)
 *   m16n8k32 A  reg 0 (group,   4tig..4tig+3)   reg 1 (group+8, 4tig..4tig+3)
 *               reg 2 (group,   4tig+16..+19)   reg 3 (group+8, 4tig+16..+19)
 *   m16n8k32 B  reg 0 (k = 4tig..4tig+3, n = group)
 *               reg 1 (k = 4tig+16..+19, n = group)
 *   C and D     reg 0, 1 (group, 2tig, 2tig+1)  reg 2, 3 (group+8, 2tig, 2tig+1)
 *   C and D .f16 (m16n8k16 with f16 accumulators, Figure 84 and its formula
 *               "row = groupID for c0, c1, groupID + 8 for c2, c3; col =
 *               threadID_in_group * 2 + (i & 1)"): two f16 per register,
 *               reg 0 (group, 2tig..2tig+1), reg 1 (group+8, 2tig..2tig+1)
 *
 * Within a register the lower-index element (smaller k) occupies the lower
 * bits: element e of a register holds bits [e * elem_bits, (e+1) * elem_bits),
 * the PTX ISA's "Elements (low to high)".
 */
#ifndef SOFTMMA_FRAGMENT_H
#define SOFTMMA_FRAGMENT_H 1

#include <stdbool.h>
#include <stdint.h>

#include <softmma/format.h>
#include <softmma/gemm.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The modeled instructions.  The numbers are shared with the GPU probes
 * (gpu/probes/probes.h) and never change. */
typedef enum smma_mma_instr {
    SMMA_MMA_M16N8K16_BF16 = 0,  /* mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 */
    SMMA_MMA_M16N8K16_F16,       /* mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 */
    SMMA_MMA_M16N8K32_E4M3,      /* mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 */
    SMMA_MMA_M16N8K32_E5M2,      /* mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 */
    SMMA_MMA_M16N8K16_F16_F16,   /* mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 */
    SMMA_MMA_INSTR_COUNT
} smma_mma_instr;

typedef enum smma_operand { SMMA_OP_A = 0, SMMA_OP_B, SMMA_OP_C, SMMA_OP_D } smma_operand;

/* One operand's fragment layout.  Every layout covers its whole tile:
 * 32 * regs * elems == rows * cols. */
typedef struct smma_frag_layout {
    const char *name;        /* e.g. "mma.m16n8k16.bf16 a" */
    smma_format fmt;         /* element format of this operand (fp32 for C/D) */
    unsigned rows, cols;     /* the tile: A 16xK, B Kx8 (row = k, col = n), C/D 16x8 */
    unsigned regs;           /* 32-bit registers per lane */
    unsigned elems;          /* elements per register */
    unsigned elem_bits;      /* bits per element in the register (4, 8, 16, 32) */
    bool acc;                /* an accumulator (C or D): tells a 16 x 8 f16 C or D apart
                                from the 16 x 8 B of m16n8k16 */
} smma_frag_layout;

/* The layout of operand op of instruction i (a static object), or NULL when
 * either is out of range. */
const smma_frag_layout *smma_frag_layout_get(smma_mma_instr i, smma_operand op);

/* The short name of an instruction: "mma.m16n8k16.bf16", "mma.m16n8k16.f16",
 * "mma.m16n8k32.e4m3", "mma.m16n8k32.e5m2", "mma.m16n8k16.f16.f16" (f16
 * accumulators); "?" when i is out of range. */
const char *smma_mma_instr_name(smma_mma_instr i);

/* The full PTX spelling of an instruction, e.g.
 * "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"; "?" when i is out of
 * range. */
const char *smma_mma_instr_ptx(smma_mma_instr i);

/* Looks an instruction up by its short name or its full PTX spelling
 * (case-insensitive).  Returns SMMA_OK and fills *out, or SMMA_EINVAL with a
 * message naming the unknown name and the known ones. */
int smma_mma_instr_from_name(const char *name, smma_mma_instr *out, smma_error *err);

/* The element format of A and B of instruction i (SMMA_FORMAT_COUNT when i
 * is out of range), and its K (0 when out of range). */
smma_format smma_mma_instr_format(smma_mma_instr i);
unsigned smma_mma_instr_k(smma_mma_instr i);

/* The tile coordinate of element elem of register reg of lane lane.  The
 * arguments must satisfy lane < 32, reg < l->regs, elem < l->elems; for any
 * other, *row = l->rows and *col = l->cols (outside the tile). */
void smma_frag_coord(const smma_frag_layout *l, unsigned lane, unsigned reg, unsigned elem,
                     unsigned *row, unsigned *col);

/* The inverse of smma_frag_coord: returns 0 (SMMA_OK) and fills *lane, *reg
 * and *elem with the slot holding (row, col), or SMMA_EINVAL, leaving them
 * unchanged, for a coordinate outside the tile. */
int smma_frag_slot(const smma_frag_layout *l, unsigned row, unsigned col, unsigned *lane,
                   unsigned *reg, unsigned *elem);

/* Packs a tile of codes (row-major, rows x cols, one code per uint32_t) into
 * per-lane registers: regs[lane * l->regs + reg] for lane < 32, reg <
 * l->regs, every register fully written.  Only the low elem_bits bits of each
 * code are kept. */
void smma_frag_pack(const smma_frag_layout *l, const uint32_t *tile, uint32_t *regs);

/* The inverse of smma_frag_pack: writes every element of the tile (row-major,
 * rows x cols) from the per-lane registers. */
void smma_frag_unpack(const smma_frag_layout *l, const uint32_t *regs, uint32_t *tile);

/* Executes one instruction on per-lane registers: a_regs, b_regs and c_regs
 * in, d_regs out (each 32 * regs words of its operand's layout), unpacking
 * through the layouts and computing D = A*B + C with the numerics model
 * (smma_dot per output element: row i of A, column j of B, C[i][j]; C and D
 * fp32, or f16 for SMMA_MMA_M16N8K16_F16_F16; no scales).  Returns SMMA_OK; SMMA_EINVAL for an instruction out of
 * range or a NULL argument; or the error of smma_model_check, d_regs then
 * untouched.  d_regs may alias c_regs (D and C may be the same registers, as
 * in PTX). */
int smma_mma_exec(smma_mma_instr i, const smma_model *model, const uint32_t *a_regs,
                  const uint32_t *b_regs, const uint32_t *c_regs, uint32_t *d_regs,
                  smma_error *err);

/* The shape smma_mma_exec computes: m 16, n 8, k of the instruction, A and
 * B in its element format, no scales, C and D fp32 (f16 for the f16.f16
 * form).  Returns SMMA_EINVAL for
 * an instruction out of range. */
int smma_mma_instr_shape(smma_mma_instr i, smma_gemm_shape *s, smma_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_FRAGMENT_H */
