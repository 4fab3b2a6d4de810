/*
 * ldmatrix.c - ldmatrix / stmatrix .m8n8 .b16 as functions, and their
 * executors on a simulated shared memory.  The layout and its source (PTX
 * ISA 9.7.14.5.15 and 9.7.14.5.16) are in softmma/ldmatrix.h.
 *
 * smma_matrix_coord and smma_matrix_slot are each written from the PTX
 * ISA's description, not one from the other; the tests check that they are
 * inverses.
 */
#include <config.h>

#include <string.h>

#include <softmma/ldmatrix.h>

#define WARP 32u
#define ROW_BYTES 16u

static const char *
kind_name(const smma_matrix_op *op)
{
    return op->kind == SMMA_STMATRIX ? "stmatrix" : "ldmatrix";
}

static bool
op_valid(const smma_matrix_op *op)
{
    return op != NULL && (unsigned) op->kind < SMMA_MATRIX_KIND_COUNT
           && (op->num == 1 || op->num == 2 || op->num == 4);
}

int
smma_matrix_op_check(const smma_matrix_op *op, smma_error *err)
{
    if (op == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no ldmatrix/stmatrix variant given");
    if ((unsigned) op->kind >= SMMA_MATRIX_KIND_COUNT)
        return smma_error_set(err, SMMA_EINVAL,
                              "%d is not an instruction kind (ldmatrix 0, stmatrix 1)",
                              (int) op->kind);
    if (op->num != 1 && op->num != 2 && op->num != 4)
        return smma_error_set(err, SMMA_EINVAL,
                              "%s: .x%u is not a valid .num (valid: .x1, .x2, .x4)",
                              kind_name(op), op->num);
    return SMMA_OK;
}

/* Lane t holds elements 2 (t % 4) and 2 (t % 4) + 1 of line t / 4 of the
 * matrix, where a line is a memory row, or with .trans a memory column. */
void
smma_matrix_coord(const smma_matrix_op *op, unsigned lane, unsigned reg, unsigned elem,
                  unsigned *matrix, unsigned *row, unsigned *col)
{
    unsigned line, pos;

    if (!op_valid(op) || lane >= WARP || reg >= op->num || elem >= 2) {
        *matrix = op_valid(op) ? op->num : 0;
        *row = *col = 8;
        return;
    }
    line = lane / 4;
    pos = 2 * (lane % 4) + elem;
    *matrix = reg;
    *row = op->trans ? pos : line;
    *col = op->trans ? line : pos;
}

/* Solved from the same description: the line picks the group of four
 * lanes, the position along it the lane in the group and the half. */
int
smma_matrix_slot(const smma_matrix_op *op, unsigned matrix, unsigned row, unsigned col,
                 unsigned *lane, unsigned *reg, unsigned *elem)
{
    unsigned line, pos;

    if (!op_valid(op) || matrix >= op->num || row >= 8 || col >= 8)
        return SMMA_EINVAL;
    line = op->trans ? col : row;
    pos = op->trans ? row : col;
    *lane = line * 4 + pos / 2;
    *reg = matrix;
    *elem = pos % 2;
    return SMMA_OK;
}

unsigned
smma_matrix_addr_lane(unsigned matrix, unsigned row)
{
    if (matrix >= 4 || row >= 8)
        return WARP;
    return 8 * matrix + row;
}

int
smma_matrix_addr_row(const smma_matrix_op *op, unsigned lane, unsigned *matrix, unsigned *row)
{
    if (!op_valid(op) || lane >= 8 * op->num)
        return SMMA_EINVAL;
    *matrix = lane / 8;
    *row = lane % 8;
    return SMMA_OK;
}

/* Checks every used row address before anything moves, so that a failing
 * call leaves its output untouched. */
static int
check_exec(const smma_matrix_op *op, smma_matrix_kind kind, const uint32_t *addr,
           const void *smem, size_t smem_size, const void *regs, smma_error *err)
{
    unsigned lane;
    int rc;

    if (op == NULL || addr == NULL || smem == NULL || regs == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s: NULL argument",
                              kind == SMMA_STMATRIX ? "stmatrix" : "ldmatrix");
    rc = smma_matrix_op_check(op, err);
    if (rc != SMMA_OK)
        return rc;
    if (op->kind != kind)
        return smma_error_set(err, SMMA_EINVAL, "%s variant given to the %s executor",
                              kind_name(op), kind == SMMA_STMATRIX ? "stmatrix" : "ldmatrix");
    for (lane = 0; lane < 8 * op->num; lane++) {
        if (addr[lane] % ROW_BYTES != 0)
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s: lane %u: row address %#x is not 16-byte aligned",
                                  kind_name(op), lane, (unsigned) addr[lane]);
        if (smem_size < ROW_BYTES || addr[lane] > smem_size - ROW_BYTES)
            return smma_error_set(err, SMMA_EINVAL,
                                  "%s: lane %u: row address %#x + 16 bytes is past the "
                                  "end of shared memory (%zu bytes)",
                                  kind_name(op), lane, (unsigned) addr[lane], smem_size);
    }
    return SMMA_OK;
}

/* The byte offset of element (matrix, row, col) in shared memory. */
static size_t
elem_offset(const uint32_t *addr, unsigned matrix, unsigned row, unsigned col)
{
    return (size_t) addr[8 * matrix + row] + 2 * (size_t) col;
}

int
smma_ldmatrix_exec(const smma_matrix_op *op, const uint32_t addr[32], const uint8_t *smem,
                   size_t smem_size, uint32_t *regs, smma_error *err)
{
    unsigned lane, reg, e, m, r, c;
    int rc;

    rc = check_exec(op, SMMA_LDMATRIX, addr, smem, smem_size, regs, err);
    if (rc != SMMA_OK)
        return rc;
    for (lane = 0; lane < WARP; lane++)
        for (reg = 0; reg < op->num; reg++) {
            uint32_t w = 0;

            for (e = 0; e < 2; e++) {
                size_t off;

                smma_matrix_coord(op, lane, reg, e, &m, &r, &c);
                off = elem_offset(addr, m, r, c);
                w |= (uint32_t) (smem[off] | (unsigned) smem[off + 1] << 8) << (16 * e);
            }
            regs[lane * op->num + reg] = w;
        }
    return SMMA_OK;
}

int
smma_stmatrix_exec(const smma_matrix_op *op, const uint32_t addr[32], const uint32_t *regs,
                   uint8_t *smem, size_t smem_size, smma_error *err)
{
    unsigned m, r, c, slane = 0, sreg = 0, selem = 0;
    int rc;

    rc = check_exec(op, SMMA_STMATRIX, addr, smem, smem_size, regs, err);
    if (rc != SMMA_OK)
        return rc;
    /* In (matrix, row, col) order, so a later row wins a shared address. */
    for (m = 0; m < op->num; m++)
        for (r = 0; r < 8; r++)
            for (c = 0; c < 8; c++) {
                size_t off = elem_offset(addr, m, r, c);
                uint32_t v;

                smma_matrix_slot(op, m, r, c, &slane, &sreg, &selem);
                v = regs[slane * op->num + sreg] >> (16 * selem);
                smem[off] = (uint8_t) (v & 0xff);
                smem[off + 1] = (uint8_t) ((v >> 8) & 0xff);
            }
    return SMMA_OK;
}
