/*
 * tests/sim/grid-t.c - the drawable form of every modeled layout
 * (softmma/grid.h): everything that smma_grid_list names can be found, has a
 * tile, and labels every cell it holds with a label of its own (a layout
 * never puts two elements in one slot), or, in a picture of copies, with a
 * label that exactly g.copies cells share; lookups refuse unknown names,
 * operands and selectors with a message.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/grid.h>

#include "tap/basic.h"

struct entry {
    char instr[64], operand[16];
};

struct listing {
    struct entry *e;
    size_t n, cap;
};

static void
collect(const char *instr, const char *operand, const char *what, void *ctx)
{
    struct listing *l = ctx;

    (void) what;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->e = realloc(l->e, l->cap * sizeof(*l->e));
        if (l->e == NULL)
            sysbail("out of memory");
    }
    snprintf(l->e[l->n].instr, sizeof(l->e[l->n].instr), "%s", instr);
    snprintf(l->e[l->n].operand, sizeof(l->e[l->n].operand), "%s", operand);
    l->n++;
}

static int
cmp_label(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The number of distinct held labels that do not appear exactly g->copies
 * times (once, unless the picture shows copies). */
static size_t
miscounted_labels(const smma_grid *g, size_t *held)
{
    size_t n = (size_t) g->rows * g->cols, k = 0, i, run = 1, bad = 0;
    size_t copies = g->copies > 1 ? g->copies : 1;
    char **labels = malloc(n * sizeof(char *));
    smma_grid_cell c;
    unsigned row, col;

    if (labels == NULL)
        sysbail("out of memory");
    for (row = 0; row < g->rows; row++)
        for (col = 0; col < g->cols; col++) {
            g->cell(g, row, col, &c);
            if (c.owner == SMMA_GRID_NOBODY)
                continue;
            labels[k] = malloc(sizeof(c.label));
            if (labels[k] == NULL)
                sysbail("out of memory");
            memcpy(labels[k++], c.label, sizeof(c.label));
        }
    qsort(labels, k, sizeof(char *), cmp_label);
    for (i = 1; i <= k; i++) {
        if (i < k && strcmp(labels[i - 1], labels[i]) == 0) {
            run++;
            continue;
        }
        if (run != copies)
            bad++;
        run = 1;
    }
    for (i = 0; i < k; i++)
        free(labels[i]);
    free(labels);
    *held = k;
    return bad;
}

int
main(void)
{
    struct listing l = { NULL, 0, 0 };
    smma_grid_opts none = SMMA_GRID_OPTS_NONE, with = SMMA_GRID_OPTS_NONE;
    smma_grid g;
    smma_error err;
    smma_grid_cell c;
    size_t i, held, dup;

    smma_grid_list(collect, &l);
    plan(2 * l.n + 11);
    ok(l.n >= 16 + 24, "the listing names %zu layouts (at least mma.sync and ldmatrix)", l.n);
    for (i = 0; i < l.n; i++) {
        int rc = smma_grid_find(l.e[i].instr, l.e[i].operand, &none, &g, &err);

        if (!is_int(SMMA_OK, rc, "%s %s is found", l.e[i].instr, l.e[i].operand)) {
            diag("%s", err.msg);
            skip("not found");
            continue;
        }
        dup = miscounted_labels(&g, &held);
        ok(g.rows > 0 && g.cols > 0 && held > 0 && dup == 0,
           "%s %s: %u x %u, %zu cells held, each label %u time%s (%zu labels not)",
           l.e[i].instr, l.e[i].operand, g.rows, g.cols, held, g.copies > 1 ? g.copies : 1,
           g.copies > 1 ? "s" : "", dup);
    }
    free(l.e);

    /* Hand-checked cells (PTX ISA m16n8k16 A: lane 5 reg 2 elem 1 holds (1, 11)). */
    smma_grid_find("mma.m16n8k16.bf16", "a", &none, &g, &err);
    g.cell(&g, 1, 11, &c);
    is_string("T5:r2.1", c.label, "mma.m16n8k16.bf16 a (1, 11) is T5:r2.1");
    is_int(5, c.owner, "... owned by lane 5");
    smma_grid_find("mma.m16n8k16.bf16", "d", &none, &g, &err);
    g.cell(&g, 13, 5, &c);
    is_string("T22:r3", c.label, "mma.m16n8k16.bf16 d (13, 5) is T22:r3");

    is_int(SMMA_EINVAL, smma_grid_find("mma.m16n8k8.tf32", "a", &none, &g, &err),
           "an unknown instruction is refused");
    is_string("unknown instruction 'mma.m16n8k8.tf32' (see softmma layout --list)", err.msg,
              "... with a message naming it");
    is_int(SMMA_EINVAL, smma_grid_find("mma.m16n8k16.f16", "e", &none, &g, &err),
           "an unknown operand is refused");
    is_string("unknown operand 'e' of mma.m16n8k16.f16 (known: a, b, c, d)", err.msg,
              "... with a message naming it");
    with.byte_id = 0;
    is_int(SMMA_EINVAL, smma_grid_find("ldmatrix.x1", "regs", &with, &g, &err),
           "a selector the instruction does not take is refused");
    is_int(SMMA_EINVAL, smma_grid_find(NULL, "a", &none, &g, &err), "NULL is refused");
    is_int(SMMA_OK, smma_grid_find("mma.m16n8k16.f16", "c", NULL, &g, &err),
           "NULL options mean none");
    return exit_status();
}
