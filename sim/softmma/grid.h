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

#include <stddef.h>

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

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GRID_H */
