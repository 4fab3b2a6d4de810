/*
 * ptx.c - the PTX text of the modeled instructions and their minimum
 * targets (sources in softmma/ptx.h).  tests/sim/ptx-t.c assembles every
 * text with ptxas at its minimum target.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include <softmma/ptx.h>

/* vsnprintf into buf, with truncation reported as SMMA_ERANGE. */
static int
emit(char *buf, size_t size, smma_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int
emit(char *buf, size_t size, smma_error *err, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (buf == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no buffer for the PTX text");
    va_start(ap, fmt);
    n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t) n >= size)
        return smma_error_set(err, SMMA_ERANGE, "PTX text needs %d bytes, buffer has %zu",
                              n + 1, size);
    return SMMA_OK;
}

int
smma_ptx_mma(smma_mma_instr i, char *buf, size_t size, smma_error *err)
{
    if ((unsigned) i >= SMMA_MMA_INSTR_COUNT)
        return smma_error_set(err, SMMA_EINVAL, "instruction %d is not a modeled mma",
                              (int) i);
    if (i == SMMA_MMA_M16N8K16_F16_F16)
        return emit(buf, size, err,
                    "%s {%%dh0, %%dh1}, {%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, {%%ch0, %%ch1};",
                    smma_mma_instr_ptx(i));
    return emit(buf, size, err,
                "%s {%%d0, %%d1, %%d2, %%d3}, {%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, "
                "{%%c0, %%c1, %%c2, %%c3};",
                smma_mma_instr_ptx(i));
}

int
smma_ptx_matrix(const smma_matrix_op *op, char *buf, size_t size, smma_error *err)
{
    static const char *const regs[5] = {
        NULL, "{%r0}", "{%r0, %r1}", NULL, "{%r0, %r1, %r2, %r3}",
    };
    const char *trans;
    int rc;

    rc = smma_matrix_op_check(op, err);
    if (rc != SMMA_OK)
        return rc;
    trans = op->trans ? ".trans" : "";
    if (op->kind == SMMA_LDMATRIX)
        return emit(buf, size, err, "ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%%addr];",
                    op->num, trans, regs[op->num]);
    return emit(buf, size, err, "stmatrix.sync.aligned.m8n8.x%u%s.shared.b16 [%%addr], %s;",
                op->num, trans, regs[op->num]);
}

unsigned
smma_ptx_mma_target(smma_mma_instr i)
{
    switch (i) {
    case SMMA_MMA_M16N8K16_BF16:
    case SMMA_MMA_M16N8K16_F16:
    case SMMA_MMA_M16N8K16_F16_F16:
        return 80;
    case SMMA_MMA_M16N8K32_E4M3:
    case SMMA_MMA_M16N8K32_E5M2:
        return 89;
    default:
        return 0;
    }
}

unsigned
smma_ptx_matrix_target(const smma_matrix_op *op)
{
    if (smma_matrix_op_check(op, NULL) != SMMA_OK)
        return 0;
    return op->kind == SMMA_LDMATRIX ? 75 : 90;
}
