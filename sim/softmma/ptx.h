/*
 * softmma/ptx.h - the exact PTX text of every instruction the simulator
 * models, and the oldest target that assembles it.
 *
 * The text is one instruction with its operands and the closing ';', using
 * fixed register names that a caller declares:
 *
 *   mma.sync (fragment.h)   D {%d0..%d3} .f32, A {%a0..%a3} .b32,
 *                           B {%b0, %b1} .b32, C {%c0..%c3} .f32;
 *                           with f16 accumulators D {%dh0, %dh1} and
 *                           C {%ch0, %ch1}, .b32 (two f16 each)
 *   ldmatrix / stmatrix     {%r0} .. {%r0, %r1, %r2, %r3} .b32, address %addr
 *                           (.b32: a .shared window offset)
 *
 * e.g. "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r0, %r1, %r2, %r3},
 * [%addr];" and "stmatrix.sync.aligned.m8n8.x2.shared.b16 [%addr], {%r0,
 * %r1};".  SMMA_PTX_DECLS is a .reg block that declares all of them.
 *
 * Minimum targets (the "Target ISA Notes" of the PTX ISA's mma section and
 * of 9.7.14.5.15 ldmatrix and 9.7.14.5.16 stmatrix; FACTS.md section 6):
 *   mma.m16n8k16 .f16 / .bf16 with .f32 accumulators   sm_80
 *   mma.m16n8k16 .f16 with .f16 accumulators           sm_80
 *   mma.m16n8k32 .e4m3 / .e5m2                          sm_89
 *   ldmatrix .m8n8 .b16                                 sm_75
 *   stmatrix .m8n8 .b16                                 sm_90
 * tests/sim/ptx-t.c checks each with ptxas, and that ptxas refuses the
 * target below where it knows one (sm_75, sm_86, sm_89).  The PTX ISA
 * version that all of them need is SMMA_PTX_VERSION (ptxas: "mma with FP8
 * floating point type requires PTX ISA .version 8.4 or later").
 */
#ifndef SOFTMMA_PTX_H
#define SOFTMMA_PTX_H 1

#include <stddef.h>

#include <softmma/format.h>
#include <softmma/fragment.h>
#include <softmma/ldmatrix.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A PTX ISA version that has every instruction here (fp8 mma.sync with .f32
 * accumulators arrived in 8.4). */
#define SMMA_PTX_VERSION "8.4"

/* Declarations of every register the emitted text names. */
#define SMMA_PTX_DECLS                                                                    \
    "    .reg .f32 %d<4>;\n    .reg .f32 %c<4>;\n    .reg .b32 %a<4>;\n"                  \
    "    .reg .b32 %b<2>;\n    .reg .b32 %r<4>;\n    .reg .b32 %addr;\n"                \
    "    .reg .b32 %dh<2>;\n    .reg .b32 %ch<2>;\n"

/* Writes the PTX text of mma.sync instruction i (with its operands, as
 * above) to buf, NUL-terminated.  Returns SMMA_OK; SMMA_EINVAL for an
 * instruction out of range or a NULL buf; SMMA_ERANGE when size is too small
 * (buf then holds a truncated string when size > 0). */
int smma_ptx_mma(smma_mma_instr i, char *buf, size_t size, smma_error *err);

/* Writes the PTX text of an ldmatrix or stmatrix variant to buf.  Returns as
 * smma_ptx_mma; SMMA_EINVAL with smma_matrix_op_check's message for an
 * invalid variant (e.g. .x3). */
int smma_ptx_matrix(const smma_matrix_op *op, char *buf, size_t size, smma_error *err);

/* The oldest sm_XX target that assembles instruction i, as XX (80, 89), or 0
 * when i is out of range. */
unsigned smma_ptx_mma_target(smma_mma_instr i);

/* The oldest target of a variant: 75 for ldmatrix, 90 for stmatrix, 0 for an
 * invalid variant. */
unsigned smma_ptx_matrix_target(const smma_matrix_op *op);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_PTX_H */
