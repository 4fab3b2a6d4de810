/*
 * tests/sim/ptx-t.c - the PTX text of the modeled instructions, checked by
 * the real assembler.
 *
 *   - literal text of a few instructions, and the API's refusal of illegal
 *     selectors (ldmatrix .x3, stmatrix .x8) with a message;
 *   - with CUDA: every emitted instruction, in a minimal module whose
 *     .target is the instruction's minimum target, assembles with ptxas;
 *     where ptxas knows the target just below the minimum (sm_75 for the
 *     f16/bf16 mma, sm_86 for the fp8 mma, sm_89 for stmatrix), the same
 *     module is refused there, so the minimum is tight; ptxas refuses
 *     ldmatrix .x3 and stmatrix .x3 too.  (ptxas of CUDA 13 knows no target
 *     below sm_75, so ldmatrix's minimum is checked from above only; and it
 *     accepts .x8 and .x16 with four registers, outside the PTX ISA's
 *     grammar, so .x8 is refused by the API alone: shown as a diagnostic.)
 *
 * ptxas is the one beside the nvcc that configure found (tests/ptxas.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <softmma/ptx.h>

#include "ptxas.h"
#include "tap/basic.h"

/* Assembles one instruction, after the declarations of SMMA_PTX_DECLS,
 * for sm_<target>. */
static int
assemble(const char *instr, unsigned target, bool show)
{
    char body[4096], tgt[16];

    snprintf(body, sizeof(body), "%s    mov.b32 %%addr, 0;\n    %s\n", SMMA_PTX_DECLS, instr);
    snprintf(tgt, sizeof(tgt), "sm_%u", target);
    return ptxas_module(SMMA_PTX_VERSION, tgt, body, show);
}

static const unsigned nums[3] = { 1, 2, 4 };

int
main(void)
{
    char buf[256];
    smma_error err;
    smma_matrix_op op;
    unsigned i, k, n, t, target;
    int rc;
    bool have;

    have = ptxas_available();
    plan(15 + SMMA_MMA_INSTR_COUNT * 2 + 12 * 2 + 2);

    /* The API. */
    is_int(SMMA_OK, smma_ptx_mma(SMMA_MMA_M16N8K16_BF16, buf, sizeof(buf), &err),
           "mma bf16 text");
    is_string("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%d0, %d1, %d2, %d3}, "
              "{%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};", buf,
              "... is the exact PTX");
    smma_ptx_mma(SMMA_MMA_M16N8K16_F16_F16, buf, sizeof(buf), &err);
    is_string("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%dh0, %dh1}, "
              "{%a0, %a1, %a2, %a3}, {%b0, %b1}, {%ch0, %ch1};", buf,
              "mma f16 with f16 accumulators: two registers of two f16 for C and D");
    op.kind = SMMA_LDMATRIX;
    op.num = 4;
    op.trans = true;
    smma_ptx_matrix(&op, buf, sizeof(buf), &err);
    is_string("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r0, %r1, %r2, %r3}, [%addr];",
              buf, "ldmatrix.x4.trans text");
    op.kind = SMMA_STMATRIX;
    op.num = 1;
    op.trans = false;
    smma_ptx_matrix(&op, buf, sizeof(buf), &err);
    is_string("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%addr], {%r0};", buf,
              "stmatrix.x1 text");
    is_int(SMMA_ERANGE, smma_ptx_mma(SMMA_MMA_M16N8K32_E4M3, buf, 20, &err),
           "a short buffer is reported");
    is_int(SMMA_EINVAL, smma_ptx_mma(SMMA_MMA_INSTR_COUNT, buf, sizeof(buf), &err),
           "an unknown mma is refused");
    op.kind = SMMA_LDMATRIX;
    op.num = 3;
    is_int(SMMA_EINVAL, smma_ptx_matrix(&op, buf, sizeof(buf), &err), "ldmatrix .x3 refused");
    is_string("ldmatrix: .x3 is not a valid .num (valid: .x1, .x2, .x4)", err.msg,
              "... with a message");
    op.kind = SMMA_STMATRIX;
    op.num = 8;
    is_int(SMMA_EINVAL, smma_ptx_matrix(&op, buf, sizeof(buf), &err), "stmatrix .x8 refused");
    is_string("stmatrix: .x8 is not a valid .num (valid: .x1, .x2, .x4)", err.msg,
              "... with a message");
    is_int(0, smma_ptx_matrix_target(&op), "... and has no target");
    is_int(80, smma_ptx_mma_target(SMMA_MMA_M16N8K16_F16), "f16 mma: sm_80");
    is_int(89, smma_ptx_mma_target(SMMA_MMA_M16N8K32_E5M2), "e5m2 mma: sm_89");
    op.num = 2;
    is_int(90, smma_ptx_matrix_target(&op), "stmatrix: sm_90");

    /* ptxas: every mma at its minimum target, and refused just below. */
    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++) {
        if (smma_ptx_mma((smma_mma_instr) i, buf, sizeof(buf), &err) != SMMA_OK)
            bail("%s", err.msg);
        target = smma_ptx_mma_target((smma_mma_instr) i);
        if (!have) {
            skip_block(2, PTXAS_SKIP);
            continue;
        }
        rc = assemble(buf, target, true);
        is_int(0, rc, "ptxas assembles %s for sm_%u", smma_mma_instr_name((smma_mma_instr) i),
               target);
        target = target == 80 ? 75 : 86;
        rc = assemble(buf, target, false);
        ok(rc != 0, "ptxas refuses %s for sm_%u", smma_mma_instr_name((smma_mma_instr) i),
           target);
    }
    /* Every ldmatrix / stmatrix variant. */
    for (k = 0; k < 2; k++)
        for (n = 0; n < 3; n++)
            for (t = 0; t < 2; t++) {
                op.kind = (smma_matrix_kind) k;
                op.num = nums[n];
                op.trans = t != 0;
                if (smma_ptx_matrix(&op, buf, sizeof(buf), &err) != SMMA_OK)
                    bail("%s", err.msg);
                target = smma_ptx_matrix_target(&op);
                if (!have) {
                    skip_block(2, PTXAS_SKIP);
                    continue;
                }
                is_int(0, assemble(buf, target, true), "ptxas assembles %s for sm_%u", buf,
                       target);
                if (k == SMMA_STMATRIX)
                    ok(assemble(buf, 89, false) != 0, "ptxas refuses it for sm_89");
                else
                    ok(assemble(buf, 90, false) == 0, "ptxas assembles it for sm_90 too");
            }
    /* Illegal selectors. */
    if (!have) {
        skip_block(2, PTXAS_SKIP);
    } else {
        ok(assemble("ldmatrix.sync.aligned.m8n8.x3.shared.b16 {%r0, %r1, %r2}, [%addr];", 75,
                    false) != 0,
           "ptxas refuses ldmatrix.sync.aligned.m8n8.x3.shared.b16");
        ok(assemble("stmatrix.sync.aligned.m8n8.x3.shared.b16 [%addr], {%r0, %r1, %r2};", 90,
                    false) != 0,
           "ptxas refuses stmatrix.sync.aligned.m8n8.x3.shared.b16");
        /* Not a test point: ptxas 13.0 accepts .x8 and .x16 on ldmatrix and
         * stmatrix .m8n8 with four registers, although the PTX ISA's .num is
         * {.x1, .x2, .x4} only; the API refuses them. */
        rc = assemble("stmatrix.sync.aligned.m8n8.x8.shared.b16 [%addr], {%r0, %r1, %r2, %r3};",
                      90, false);
        diag("ptxas %s stmatrix .x8 (outside the PTX ISA grammar; the API refuses it)",
             rc == 0 ? "accepts" : "refuses");
    }
    return exit_status();
}
