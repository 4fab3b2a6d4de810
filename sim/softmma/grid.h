/*
 * softmma/grid.h - any modeled layout as a grid of labelled cells, the
 * common form in which `softmma layout INSTRUCTION OPERAND` draws them.
 *
 * A grid is a rows x cols tile (the operand's tile, a scale-factor tile, or
 * a window of tensor memory).  Each cell names who holds that element: an
 * owner (the lane or thread: it picks the colour of the cell) and a short
 * label such as "T5:r2.1" (lane 5, register 2, element 1) or "T37:r12".
 * Cells that no one holds have owner SMMA_GRID_NOBODY and label ".".
 *
 * Each family of layouts provides one lookup function of type
 * smma_grid_lookup_fn and one listing function of type smma_grid_list_fn;
 * smma_grid_find and smma_grid_list go through all of them.
 */
#ifndef SOFTMMA_GRID_H
#define SOFTMMA_GRID_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMMA_GRID_NOBODY 0xFFFFFFFFu

/* Returned by a family's lookup when the instruction is not one of its own
 * (not an error: the next family is asked). */
#define SMMA_GRID_NOT_MINE (-1)

typedef struct smma_grid_cell {
    unsigned owner;         /* lane or thread holding the element, or SMMA_GRID_NOBODY */
    char label[32];         /* e.g. "T5:r2.1"; "." for nobody */
} smma_grid_cell;

/* Who holds one element of an operand, as smma_grid_holder answers it. */
typedef enum smma_holder_kind {
    SMMA_HOLDER_NONE = 0,   /* no one: thread, reg and elem are SMMA_GRID_NOBODY */
    SMMA_HOLDER_REG,        /* thread (lane of a warp, thread of a warpgroup), register,
                               element of the register (byte of a scale register) */
    SMMA_HOLDER_TMEM,       /* Tensor Memory: thread = the TMEM lane (128 c + lane for CTA c
                               of a pair), reg = the column, elem = the element (or byte)
                               within the 32-bit cell */
    SMMA_HOLDER_ADDR,       /* the lane whose address operand gives the row (ldmatrix /
                               stmatrix addr); reg and elem 0 */
    SMMA_HOLDER_BYTE        /* a scale factor of block-scaled mma.sync: thread (lane), reg 0,
                               elem = the byte of the lane's scale register */
} smma_holder_kind;

typedef struct smma_holder {
    smma_holder_kind kind;
    unsigned thread, reg, elem;
} smma_holder;

/* One element a thread holds: (row, col) of the operand, and the register
 * (TMEM column) and element it sits in. */
typedef struct smma_grid_slot {
    unsigned row, col, reg, elem;
} smma_grid_slot;

typedef struct smma_grid {
    char name[96];          /* instruction and operand, e.g. "wgmma.m64n16k16.bf16 a" */
    char row_axis[12];      /* what a row indexes, e.g. "m", "k", "lane" */
    char col_axis[12];      /* what a column indexes, e.g. "k", "n", "col" */
    char what[128];         /* one line: tile, format, registers per lane, selectors */
    char legend[64];        /* what a label means, e.g. "T<lane>:r<register>.<element>" */
    unsigned rows, cols;
    unsigned row0, col0;    /* the index of the first row and column shown (a window) */
    unsigned copies;        /* how many cells hold each label: 1 (or 0, read as 1), more
                               where the picture shows copies (tcgen05 scale factors in
                               the four TMEM partitions, tcgen05.cp multicast) */
    /* Fills *out for cell (row, col), 0 <= row < rows, 0 <= col < cols. */
    void (*cell)(const struct smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out);
    unsigned param[16];     /* the family's own parameters */
    /* The queries of one operand, in the operand's own coordinates: rows
     * op_rows x op_cols (the drawn grid itself unless the picture is of tensor
     * memory), threads holders (lanes, threads or TMEM lanes), each with regs
     * registers (TMEM columns) of elems elements.  holder NULL: the layout
     * answers no queries. */
    unsigned op_rows, op_cols;
    char op_row_axis[12], op_col_axis[12];
    bool tmem_picture;      /* the grid draws tensor memory (lanes x columns or bytes),
                               its cells naming the operand's elements; false: the grid
                               is the operand, its cells naming the holders */
    unsigned threads, regs, elems;
    /* The holder of element (row, col), row < op_rows, col < op_cols. */
    void (*holder)(const struct smma_grid *g, unsigned row, unsigned col, smma_holder *out);
    /* The element that (thread, reg, elem) holds: SMMA_OK and *row, *col, or
     * SMMA_EINVAL for a slot that holds none.  For copies (tcgen05 scale
     * factors, tcgen05.cp multicast) every copy answers; holder names copy 0. */
    int (*coord)(const struct smma_grid *g, unsigned thread, unsigned reg, unsigned elem,
                 unsigned *row, unsigned *col);
} smma_grid;

/* Selectors some layouts take from the command line; -1 = not given. */
typedef struct smma_grid_opts {
    int byte_id;            /* mma.sync block_scale: byte-id-a / byte-id-b */
    int thread_id;          /* mma.sync block_scale: thread-id-a / thread-id-b */
    int sf_id;              /* tcgen05 block scale: scale-factor id */
    int num;                /* tcgen05.ld/st .num (x1 .. x128) */
} smma_grid_opts;

#define SMMA_GRID_OPTS_NONE { -1, -1, -1, -1 }

/* A family's lookup: fills *g for operand of instr and returns SMMA_OK;
 * returns SMMA_GRID_NOT_MINE when instr is not one of the family's
 * instructions; SMMA_EINVAL with a message naming the argument for a known
 * instruction with an unknown operand or a bad or missing selector. */
typedef int (*smma_grid_lookup_fn)(const char *instr, const char *operand,
                                   const smma_grid_opts *o, smma_grid *g, smma_error *err);

/* A family's listing: calls emit once per drawable layout with the
 * instruction, the operand and a one-line description. */
typedef void (*smma_grid_emit_fn)(const char *instr, const char *operand, const char *what,
                                  void *ctx);
typedef void (*smma_grid_list_fn)(smma_grid_emit_fn emit, void *ctx);

/* Every family in turn.  SMMA_EINVAL with "unknown instruction '...' (see
 * softmma layout --list)" when none knows instr. */
int smma_grid_find(const char *instr, const char *operand, const smma_grid_opts *o,
                   smma_grid *g, smma_error *err);
void smma_grid_list(smma_grid_emit_fn emit, void *ctx);

/* For the families: sets the queries of g, whose operand is the drawn grid
 * (op_rows x op_cols and the axes copied from the grid), and marks a holder
 * as no one. */
void smma_grid_queries(smma_grid *g, unsigned threads, unsigned regs, unsigned elems,
                       void (*holder)(const smma_grid *, unsigned, unsigned, smma_holder *),
                       int (*coord)(const smma_grid *, unsigned, unsigned, unsigned, unsigned *,
                                    unsigned *));
void smma_holder_none(smma_holder *h);

/* ---- queries ------------------------------------------------------------------
 *
 * The two questions a layout answers, both ways: who holds element (row,
 * col) of the operand, and which elements a thread holds.  They go through
 * the layout's own functions (smma_frag_slot and smma_frag_coord,
 * smma_wgmma_slot and smma_wgmma_coord, smma_tmem_d_coord and
 * smma_tmem_d_elem, ...), written apart in the simulator, so that the two
 * answers checking each other checks the simulator. */

/* The holder of element (row, col) of g's operand.  SMMA_OK and *h (kind
 * SMMA_HOLDER_NONE for an element no one holds); SMMA_EINVAL naming the
 * bound for row >= op_rows or col >= op_cols, or for a layout without
 * queries. */
int smma_grid_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *h,
                     smma_error *err);

/* The elements thread holds, in register and element order: writes the
 * first cap of them to out (out may be NULL when cap is 0) and their number
 * to *n.  SMMA_EINVAL naming the bound for thread >= threads, or for a
 * layout without queries. */
int smma_grid_cells(const smma_grid *g, unsigned thread, smma_grid_slot *out, size_t cap,
                    size_t *n, smma_error *err);

/* The label of a holder as the text grids write it: "T5:r2.1" (element
 * shown when elems > 1), "T5:b2" (the byte of a scale register), "L5:c9" /
 * "L5:c9.1" (TMEM lane, column, element), "T5" (an address lane), "." (no
 * one). */
void smma_holder_label(const smma_holder *h, unsigned elems, char *buf, size_t n);

/* The same queries by name, for callers without the smma_grid structure
 * (the Python module): instr, operand and o as smma_grid_find.
 * smma_layout_holders answers n elements (rows[i], cols[i]) into thread[i],
 * reg[i], elem[i] (SMMA_GRID_NOBODY in all three for no one) and, when kind
 * is not NULL, kind[i] (an smma_holder_kind); on an error (the first bad
 * coordinate, named with its index) nothing is written.
 * smma_layout_cells is smma_grid_cells into separate arrays (any may be
 * NULL when cap is 0). */
int smma_layout_holders(const char *instr, const char *operand, const smma_grid_opts *o,
                        size_t n, const uint32_t *rows, const uint32_t *cols, uint32_t *thread,
                        uint32_t *reg, uint32_t *elem, int32_t *kind, smma_error *err);
int smma_layout_cells(const char *instr, const char *operand, const smma_grid_opts *o,
                      unsigned thread, size_t cap, uint32_t *rows, uint32_t *cols,
                      uint32_t *regs, uint32_t *elems, size_t *n, smma_error *err);

/* The shape of the operand the queries index and the range of threads:
 * *rows x *cols, *threads (any may be NULL).  Errors as smma_grid_find, and
 * SMMA_EINVAL for a layout without queries. */
int smma_layout_shape(const char *instr, const char *operand, const smma_grid_opts *o,
                      unsigned *rows, unsigned *cols, unsigned *threads, smma_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GRID_H */
