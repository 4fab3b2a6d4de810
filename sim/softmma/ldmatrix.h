/*
 * softmma/ldmatrix.h - the warp-level matrix load and store instructions
 * ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16 and
 * stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16, as functions,
 * and an executor of each on a simulated shared memory.
 *
 * From PTX ISA 9.7.14.5.15 "Warp-level matrix load instruction: ldmatrix"
 * and 9.7.14.5.16 "Warp-level matrix store instruction: stmatrix":
 *
 *   - .x1, .x2 and .x4 move one, two or four 8x8 matrices of 16-bit
 *     elements; register j of every lane holds a fragment of matrix j.
 *   - The eight row addresses of matrix i come from lanes 8i .. 8i+7: lane
 *     8i + r gives the address of row r, the start of 16 contiguous bytes.
 *     Rows need not be contiguous with each other.  The addresses of lanes
 *     8 * num .. 31 are not used.
 *   - Each lane holds two consecutive elements of a row: lane t holds row
 *     t / 4, columns 2 (t % 4) and 2 (t % 4) + 1, the lower column in the
 *     low 16 bits.  A group of four lanes holds a whole row.
 *   - With .trans the matrix is read (written) in column-major form: lane t
 *     holds rows 2 (t % 4) and 2 (t % 4) + 1 of column t / 4 of the matrix
 *     as it lies in memory, the lower row in the low 16 bits.
 *   - stmatrix uses the same fragment layout and address lanes as ldmatrix.
 *
 * Here (matrix, row, col) always names an element of a matrix as it lies in
 * shared memory: row r of matrix i is at the address of lane 8i + r, and
 * column c is the 16-bit element at byte offset 2c of that row (little
 * endian, as on the GPU).  So without .trans a lane's register holds part of
 * a memory row, with .trans part of a memory column.
 */
#ifndef SOFTMMA_LDMATRIX_H
#define SOFTMMA_LDMATRIX_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Load (ldmatrix) or store (stmatrix). */
typedef enum smma_matrix_kind {
    SMMA_LDMATRIX = 0,
    SMMA_STMATRIX,
    SMMA_MATRIX_KIND_COUNT
} smma_matrix_kind;

/* One variant of the instruction: kind, .num (1, 2 or 4 matrices: .x1,
 * .x2, .x4) and .trans.  The shape is always .m8n8 and the type .b16. */
typedef struct smma_matrix_op {
    smma_matrix_kind kind;
    unsigned num;
    bool trans;
} smma_matrix_op;

/* Returns SMMA_OK when op is a valid variant (kind known, num 1, 2 or 4),
 * else SMMA_EINVAL with a message naming the bad selector, e.g. "ldmatrix:
 * .x3 is not a valid .num (valid: .x1, .x2, .x4)". */
int smma_matrix_op_check(const smma_matrix_op *op, smma_error *err);

/* The element of the matrices that slot (lane, reg, elem) holds: reg is the
 * matrix index (reg < op->num), elem 0 the low and 1 the high 16 bits.  For
 * lane >= 32, reg >= op->num, elem >= 2 or an invalid op, *matrix = op->num
 * (or 0 for an invalid op) and *row = *col = 8: outside every matrix. */
void smma_matrix_coord(const smma_matrix_op *op, unsigned lane, unsigned reg, unsigned elem,
                       unsigned *matrix, unsigned *row, unsigned *col);

/* The inverse of smma_matrix_coord: returns SMMA_OK and fills *lane, *reg
 * and *elem with the slot holding element (row, col) of matrix matrix, or
 * SMMA_EINVAL, leaving them unchanged, when the op is invalid or the
 * coordinate lies outside (matrix >= op->num, row or col >= 8). */
int smma_matrix_slot(const smma_matrix_op *op, unsigned matrix, unsigned row, unsigned col,
                     unsigned *lane, unsigned *reg, unsigned *elem);

/* The lane whose address operand gives row row of matrix matrix: 8 *
 * matrix + row (32 when matrix >= 4 or row >= 8). */
unsigned smma_matrix_addr_lane(unsigned matrix, unsigned row);

/* The inverse: returns SMMA_OK and fills *matrix and *row with the row whose
 * address lane lane gives, or SMMA_EINVAL, leaving them unchanged, when the
 * op's variant does not use that lane's address (lane >= 8 * op->num) or
 * the op is invalid. */
int smma_matrix_addr_row(const smma_matrix_op *op, unsigned lane, unsigned *matrix,
                         unsigned *row);

/* Executes ldmatrix: addr[lane] is each lane's shared-memory address (a
 * byte offset into smem, smem_size bytes); regs receives regs[lane *
 * op->num + j] for lane < 32, j < op->num, every register fully written.
 * Returns SMMA_OK; SMMA_EINVAL (regs untouched) for a NULL argument, an op
 * that is not a valid ldmatrix, or a used row address that is not a
 * multiple of 16 or whose 16 bytes do not fit in smem.  (The PTX ISA leaves
 * misaligned rows undefined; the model refuses them.) */
int smma_ldmatrix_exec(const smma_matrix_op *op, const uint32_t addr[32], const uint8_t *smem,
                       size_t smem_size, uint32_t *regs, smma_error *err);

/* Executes stmatrix: the reverse of smma_ldmatrix_exec, writing the 16
 * bytes of every used row from regs[lane * op->num + j].  Bytes outside the
 * rows are left as they were.  Returns as smma_ldmatrix_exec (smem untouched
 * on an error).  When two rows share an address the row of the higher
 * (matrix, row) is the one left in memory; the PTX ISA does not say. */
int smma_stmatrix_exec(const smma_matrix_op *op, const uint32_t addr[32], const uint32_t *regs,
                       uint8_t *smem, size_t smem_size, smma_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_LDMATRIX_H */
