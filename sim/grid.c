/*
 * grid.c - every modeled layout in the drawable form of softmma/grid.h: the
 * families of this file (mma.sync of fragment.h, ldmatrix / stmatrix of
 * ldmatrix.h) and the table of all families (with the block-scaled mma.sync
 * of mma_bs.h, wgmma of wgmma.h and the tcgen05 tensor-memory layouts of
 * tmem.h).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/fragment.h>
#include <softmma/grid.h>
#include <softmma/ldmatrix.h>
#include <softmma/mma_bs.h>
#include <softmma/tmem.h>
#include <softmma/wgmma.h>

/* "T5:r2.1", or "T5:r2" when a register holds one element. */
static void
reg_label(smma_grid_cell *out, unsigned lane, unsigned reg, unsigned elem, unsigned elems)
{
    out->owner = lane;
    if (elems > 1)
        snprintf(out->label, sizeof(out->label), "T%u:r%u.%u", lane, reg, elem);
    else
        snprintf(out->label, sizeof(out->label), "T%u:r%u", lane, reg);
}

static void
nobody(smma_grid_cell *out)
{
    out->owner = SMMA_GRID_NOBODY;
    strcpy(out->label, ".");
}

static bool
no_selectors(const smma_grid_opts *o, const char *instr, smma_error *err)
{
    if (o == NULL || (o->byte_id < 0 && o->thread_id < 0 && o->sf_id < 0 && o->num < 0))
        return true;
    smma_error_set(err, SMMA_EINVAL, "%s takes no selectors (--byte-id, --thread-id, "
                   "--sf-id, --num)", instr);
    return false;
}

/* ---- mma.sync (fragment.h) ------------------------------------------------ */

static const char *const mma_operands[] = { "a", "b", "c", "d" };

static void
mma_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    const smma_frag_layout *l =
        smma_frag_layout_get((smma_mma_instr) g->param[0], (smma_operand) g->param[1]);
    unsigned lane, reg, elem;

    if (smma_frag_slot(l, row, col, &lane, &reg, &elem) != SMMA_OK)
        nobody(out);
    else
        reg_label(out, lane, reg, elem, l->elems);
}

static void
mma_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *out)
{
    const smma_frag_layout *l =
        smma_frag_layout_get((smma_mma_instr) g->param[0], (smma_operand) g->param[1]);

    out->kind = SMMA_HOLDER_REG;
    if (smma_frag_slot(l, row, col, &out->thread, &out->reg, &out->elem) != SMMA_OK)
        smma_holder_none(out);
}

static int
mma_coord(const smma_grid *g, unsigned thread, unsigned reg, unsigned elem, unsigned *row,
          unsigned *col)
{
    const smma_frag_layout *l =
        smma_frag_layout_get((smma_mma_instr) g->param[0], (smma_operand) g->param[1]);

    smma_frag_coord(l, thread, reg, elem, row, col);
    return *row < l->rows && *col < l->cols ? SMMA_OK : SMMA_EINVAL;
}

static void
mma_describe(const smma_frag_layout *l, smma_operand op, char *what, size_t n)
{
    snprintf(what, n, "%u x %u %s (rows %s, cols %s), %u register%s x %u element%s per lane",
             l->rows, l->cols, smma_format_name(l->fmt), op == SMMA_OP_B ? "k" : "m",
             op == SMMA_OP_A ? "k" : "n", l->regs, l->regs == 1 ? "" : "s", l->elems,
             l->elems == 1 ? "" : "s");
}

static int
mma_grid(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
         smma_error *err)
{
    const smma_frag_layout *l;
    smma_mma_instr in;
    unsigned op;

    if (smma_mma_instr_from_name(instr, &in, NULL) != SMMA_OK)
        return SMMA_GRID_NOT_MINE;
    for (op = 0; op < 4; op++)
        if (strcasecmp(operand, mma_operands[op]) == 0)
            break;
    if (op == 4)
        return smma_error_set(err, SMMA_EINVAL, "unknown operand '%s' of %s (known: a, b, c, "
                              "d)", operand, smma_mma_instr_name(in));
    if (!no_selectors(o, smma_mma_instr_name(in), err))
        return SMMA_EINVAL;
    l = smma_frag_layout_get(in, (smma_operand) op);
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s", l->name);
    strcpy(g->row_axis, op == SMMA_OP_B ? "k" : "m");
    strcpy(g->col_axis, op == SMMA_OP_A ? "k" : "n");
    mma_describe(l, (smma_operand) op, g->what, sizeof(g->what));
    strcpy(g->legend, l->elems > 1 ? "T<lane>:r<register>.<element>" : "T<lane>:r<register>");
    g->rows = l->rows;
    g->cols = l->cols;
    g->cell = mma_cell;
    g->param[0] = (unsigned) in;
    g->param[1] = op;
    smma_grid_queries(g, 32, l->regs, l->elems, mma_holder, mma_coord);
    return SMMA_OK;
}

static void
mma_list(smma_grid_emit_fn emit, void *ctx)
{
    char what[128];
    unsigned i, op;

    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        for (op = 0; op < 4; op++) {
            const smma_frag_layout *l =
                smma_frag_layout_get((smma_mma_instr) i, (smma_operand) op);

            mma_describe(l, (smma_operand) op, what, sizeof(what));
            emit(smma_mma_instr_name((smma_mma_instr) i), mma_operands[op], what, ctx);
        }
}

/* ---- ldmatrix / stmatrix (ldmatrix.h) --------------------------------------
 *
 * Named "ldmatrix.x4.trans", "stmatrix.x1" etc.  Operand "regs": the num 8x8
 * matrices as they lie in memory, stacked (row 8i + r is row r of matrix i),
 * each element labelled with the lane and register holding it.  Operand
 * "addr": the same rows, one column, labelled with the lane whose address
 * gives the row.
 */

static bool
matrix_from_name(const char *s, smma_matrix_op *op)
{
    static const char *const kinds[] = { "ldmatrix", "stmatrix" };
    unsigned k;

    for (k = 0; k < 2; k++) {
        size_t n = strlen(kinds[k]);

        if (strncasecmp(s, kinds[k], n) != 0)
            continue;
        s += n;
        op->kind = (smma_matrix_kind) k;
        if (strncasecmp(s, ".x", 2) != 0 || (s[2] != '1' && s[2] != '2' && s[2] != '4'))
            return false;
        op->num = (unsigned) (s[2] - '0');
        s += 3;
        op->trans = strcasecmp(s, ".trans") == 0;
        return op->trans || *s == '\0';
    }
    return false;
}

static void
matrix_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    smma_matrix_op op = { (smma_matrix_kind) g->param[0], g->param[1], g->param[2] != 0 };
    unsigned lane, reg, elem;

    if (g->param[3]) {  /* addr */
        out->owner = smma_matrix_addr_lane(row / 8, row % 8);
        snprintf(out->label, sizeof(out->label), "T%u", out->owner);
    } else if (smma_matrix_slot(&op, row / 8, row % 8, col, &lane, &reg, &elem) != SMMA_OK) {
        nobody(out);
    } else {
        reg_label(out, lane, reg, elem, 2);
    }
}

static void
matrix_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *out)
{
    smma_matrix_op op = { (smma_matrix_kind) g->param[0], g->param[1], g->param[2] != 0 };

    if (g->param[3]) {  /* addr */
        out->kind = SMMA_HOLDER_ADDR;
        out->thread = smma_matrix_addr_lane(row / 8, row % 8);
        out->reg = out->elem = 0;
        return;
    }
    out->kind = SMMA_HOLDER_REG;
    if (smma_matrix_slot(&op, row / 8, row % 8, col, &out->thread, &out->reg, &out->elem)
        != SMMA_OK)
        smma_holder_none(out);
}

/* addr: lane l gives row l % 8 of matrix l / 8 (the rows are stacked, so
 * row l). */
static int
matrix_coord(const smma_grid *g, unsigned thread, unsigned reg, unsigned elem, unsigned *row,
             unsigned *col)
{
    smma_matrix_op op = { (smma_matrix_kind) g->param[0], g->param[1], g->param[2] != 0 };
    unsigned m, r, c;

    if (g->param[3]) {
        *row = thread;
        *col = 0;
        return thread < 8 * op.num && reg == 0 && elem == 0 ? SMMA_OK : SMMA_EINVAL;
    }
    smma_matrix_coord(&op, thread, reg, elem, &m, &r, &c);
    if (m >= op.num || r >= 8 || c >= 8)
        return SMMA_EINVAL;
    *row = 8 * m + r;
    *col = c;
    return SMMA_OK;
}

static int
matrix_grid(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
            smma_error *err)
{
    smma_matrix_op op;
    bool addr;

    if (!matrix_from_name(instr, &op)) {
        if (strncasecmp(instr, "ldmatrix", 8) == 0 || strncasecmp(instr, "stmatrix", 8) == 0)
            return smma_error_set(err, SMMA_EINVAL, "unknown variant '%s' (known: "
                                  "ldmatrix.x1, .x2, .x4, each also .trans; the same for "
                                  "stmatrix)", instr);
        return SMMA_GRID_NOT_MINE;
    }
    if (strcasecmp(operand, "regs") == 0)
        addr = false;
    else if (strcasecmp(operand, "addr") == 0)
        addr = true;
    else
        return smma_error_set(err, SMMA_EINVAL, "unknown operand '%s' of %s (known: regs, "
                              "addr)", operand, instr);
    if (!no_selectors(o, instr, err))
        return SMMA_EINVAL;
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s.x%u%s %s", op.kind == SMMA_LDMATRIX ? "ldmatrix"
             : "stmatrix", op.num, op.trans ? ".trans" : "", addr ? "addr" : "regs");
    strcpy(g->row_axis, "row");
    strcpy(g->col_axis, addr ? "-" : "col");
    snprintf(g->what, sizeof(g->what), "%u matri%s of 8 x 8 b16 as stored (rows: row r of "
             "matrix i is row 8i+r), %s", op.num, op.num == 1 ? "x" : "ces", addr ? "the lane "
             "giving each row's address" : "the register holding each element");
    strcpy(g->legend, addr ? "T<lane>" : "T<lane>:r<register>.<element>");
    g->rows = 8 * op.num;
    g->cols = addr ? 1 : 8;
    g->cell = matrix_cell;
    g->param[0] = (unsigned) op.kind;
    g->param[1] = op.num;
    g->param[2] = op.trans;
    g->param[3] = addr;
    smma_grid_queries(g, 32, addr ? 1 : op.num, addr ? 1 : 2, matrix_holder, matrix_coord);
    return SMMA_OK;
}

static void
matrix_list(smma_grid_emit_fn emit, void *ctx)
{
    static const char *const names[] = { "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4",
                                         "ldmatrix.x1.trans", "ldmatrix.x2.trans",
                                         "ldmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2",
                                         "stmatrix.x4", "stmatrix.x1.trans", "stmatrix.x2.trans",
                                         "stmatrix.x4.trans" };
    unsigned i;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        emit(names[i], "regs", "8 x 8 b16 matrices: lane and register of each element", ctx);
        emit(names[i], "addr", "the lane giving each row's address", ctx);
    }
}

/* ---- all families ------------------------------------------------------------ */

struct family {
    smma_grid_lookup_fn lookup;
    smma_grid_list_fn list;
};

static const struct family families[] = {
    { mma_grid, mma_list },
    { matrix_grid, matrix_list },
    { smma_mma_bs_grid, smma_mma_bs_grid_list },
    { smma_wgmma_grid, smma_wgmma_grid_list },
    { smma_tmem_grid, smma_tmem_grid_list },
};

int
smma_grid_find(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
               smma_error *err)
{
    size_t i;
    int rc;

    if (instr == NULL || operand == NULL || g == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no instruction or operand given");
    for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
        rc = families[i].lookup(instr, operand, o, g, err);
        if (rc != SMMA_GRID_NOT_MINE)
            return rc;
    }
    return smma_error_set(err, SMMA_EINVAL, "unknown instruction '%s' (see softmma layout "
                          "--list)", instr);
}

void
smma_grid_list(smma_grid_emit_fn emit, void *ctx)
{
    size_t i;

    for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
        families[i].list(emit, ctx);
}

/* ---- queries ------------------------------------------------------------------ */

void
smma_holder_none(smma_holder *h)
{
    h->kind = SMMA_HOLDER_NONE;
    h->thread = h->reg = h->elem = SMMA_GRID_NOBODY;
}

void
smma_grid_queries(smma_grid *g, unsigned threads, unsigned regs, unsigned elems,
                  void (*holder)(const smma_grid *, unsigned, unsigned, smma_holder *),
                  int (*coord)(const smma_grid *, unsigned, unsigned, unsigned, unsigned *,
                               unsigned *))
{
    g->op_rows = g->rows;
    g->op_cols = g->cols;
    memcpy(g->op_row_axis, g->row_axis, sizeof(g->op_row_axis));
    memcpy(g->op_col_axis, g->col_axis, sizeof(g->op_col_axis));
    g->threads = threads;
    g->regs = regs;
    g->elems = elems;
    g->holder = holder;
    g->coord = coord;
}

int
smma_grid_holder(const smma_grid *g, unsigned row, unsigned col, smma_holder *h,
                 smma_error *err)
{
    if (g == NULL || h == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no layout or holder given");
    if (g->holder == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s answers no holder queries", g->name);
    if (row >= g->op_rows)
        return smma_error_set(err, SMMA_EINVAL, "row %u is outside %s: %s is 0..%u", row,
                              g->name, g->op_row_axis, g->op_rows - 1);
    if (col >= g->op_cols)
        return smma_error_set(err, SMMA_EINVAL, "column %u is outside %s: %s is 0..%u", col,
                              g->name, g->op_col_axis, g->op_cols - 1);
    g->holder(g, row, col, h);
    return SMMA_OK;
}

int
smma_grid_cells(const smma_grid *g, unsigned thread, smma_grid_slot *out, size_t cap,
                size_t *n, smma_error *err)
{
    unsigned reg, elem, row, col;
    size_t k = 0;

    if (g == NULL || n == NULL || (out == NULL && cap > 0))
        return smma_error_set(err, SMMA_EINVAL, "no layout or output given");
    if (g->coord == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s answers no thread queries", g->name);
    if (thread >= g->threads)
        return smma_error_set(err, SMMA_EINVAL, "thread %u is outside %s: threads are 0..%u",
                              thread, g->name, g->threads - 1);
    for (reg = 0; reg < g->regs; reg++)
        for (elem = 0; elem < g->elems; elem++) {
            if (g->coord(g, thread, reg, elem, &row, &col) != SMMA_OK)
                continue;
            if (k < cap) {
                out[k].row = row;
                out[k].col = col;
                out[k].reg = reg;
                out[k].elem = elem;
            }
            k++;
        }
    *n = k;
    return SMMA_OK;
}

void
smma_holder_label(const smma_holder *h, unsigned elems, char *buf, size_t n)
{
    switch (h->kind) {
    case SMMA_HOLDER_BYTE:
        snprintf(buf, n, "T%u:b%u", h->thread, h->elem);
        break;
    case SMMA_HOLDER_REG:
        if (elems > 1)
            snprintf(buf, n, "T%u:r%u.%u", h->thread, h->reg, h->elem);
        else
            snprintf(buf, n, "T%u:r%u", h->thread, h->reg);
        break;
    case SMMA_HOLDER_TMEM:
        if (elems > 1)
            snprintf(buf, n, "L%u:c%u.%u", h->thread, h->reg, h->elem);
        else
            snprintf(buf, n, "L%u:c%u", h->thread, h->reg);
        break;
    case SMMA_HOLDER_ADDR:
        snprintf(buf, n, "T%u", h->thread);
        break;
    default:
        snprintf(buf, n, ".");
        break;
    }
}

/* smma_grid_find for the queries: a layout that answers them. */
static int
query_grid(const char *instr, const char *operand, const smma_grid_opts *o, smma_grid *g,
           smma_error *err)
{
    int rc = smma_grid_find(instr, operand, o, g, err);

    if (rc != SMMA_OK)
        return rc;
    if (g->holder == NULL || g->coord == NULL)
        return smma_error_set(err, SMMA_EINVAL, "%s answers no holder queries", g->name);
    return SMMA_OK;
}

int
smma_layout_holders(const char *instr, const char *operand, const smma_grid_opts *o, size_t n,
                    const uint32_t *rows, const uint32_t *cols, uint32_t *thread, uint32_t *reg,
                    uint32_t *elem, int32_t *kind, smma_error *err)
{
    smma_grid g;
    smma_holder h;
    size_t i;
    int rc = query_grid(instr, operand, o, &g, err);

    if (rc != SMMA_OK)
        return rc;
    if (n > 0 && (rows == NULL || cols == NULL || thread == NULL || reg == NULL || elem == NULL))
        return smma_error_set(err, SMMA_EINVAL, "no coordinates or output given");
    /* Check every coordinate first, so that an error writes nothing. */
    for (i = 0; i < n; i++)
        if (rows[i] >= g.op_rows || cols[i] >= g.op_cols) {
            smma_error why;

            smma_grid_holder(&g, rows[i], cols[i], &h, &why);
            return smma_error_set(err, SMMA_EINVAL, "element %zu: %s", i, why.msg);
        }
    for (i = 0; i < n; i++) {
        g.holder(&g, rows[i], cols[i], &h);
        thread[i] = h.thread;
        reg[i] = h.reg;
        elem[i] = h.elem;
        if (kind != NULL)
            kind[i] = (int32_t) h.kind;
    }
    return SMMA_OK;
}

int
smma_layout_cells(const char *instr, const char *operand, const smma_grid_opts *o,
                  unsigned thread, size_t cap, uint32_t *rows, uint32_t *cols, uint32_t *regs,
                  uint32_t *elems, size_t *n, smma_error *err)
{
    smma_grid g;
    smma_grid_slot *s = NULL;
    size_t i, got;
    int rc = query_grid(instr, operand, o, &g, err);

    if (rc != SMMA_OK)
        return rc;
    if (n == NULL || (cap > 0 && (rows == NULL || cols == NULL || regs == NULL ||
                                  elems == NULL)))
        return smma_error_set(err, SMMA_EINVAL, "no output given");
    if ((rc = smma_grid_cells(&g, thread, NULL, 0, &got, err)) != SMMA_OK)
        return rc;
    if (got > 0 && cap > 0) {
        if ((s = malloc(got * sizeof(*s))) == NULL)
            return smma_error_set(err, SMMA_ENOMEM, "out of memory");
        smma_grid_cells(&g, thread, s, got, &got, NULL);
        for (i = 0; i < got && i < cap; i++) {
            rows[i] = s[i].row;
            cols[i] = s[i].col;
            regs[i] = s[i].reg;
            elems[i] = s[i].elem;
        }
        free(s);
    }
    *n = got;
    return SMMA_OK;
}

int
smma_layout_shape(const char *instr, const char *operand, const smma_grid_opts *o,
                  unsigned *rows, unsigned *cols, unsigned *threads, smma_error *err)
{
    smma_grid g;
    int rc = query_grid(instr, operand, o, &g, err);

    if (rc != SMMA_OK)
        return rc;
    if (rows != NULL)
        *rows = g.op_rows;
    if (cols != NULL)
        *cols = g.op_cols;
    if (threads != NULL)
        *threads = g.threads;
    return SMMA_OK;
}
