/*
 * tests/sim/layout-query-t.c - the queries of softmma/grid.h: for every
 * layout that smma_grid_list names, every tcgen05.mma D at every legal M,
 * N and cta_group, every A of tcgen05.mma in TMEM at every M and kind, and
 * tcgen05.ld at every .num, over every cell:
 *   - the holder of (row, col) (smma_grid_holder, through the layout's slot
 *     function) holds (row, col) back (the layout's coord function, written
 *     apart in the simulator);
 *   - the cells of every thread (smma_grid_cells) are held by that thread,
 *     and together they cover every held element once (g.copies times for
 *     a picture of copies);
 *   - the drawn grid agrees: where it draws the operand, each cell's label
 *     is the holder's label; where it draws tensor memory, the holder's
 *     lane and column is a cell of the picture that names the element.
 * And the errors: a row, column or thread out of range names the bound.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/grid.h>
#include <softmma/tcgen05.h>

#include "tap/basic.h"

struct entry {
    char instr[64], operand[16], what[200];
    bool listed; /* from smma_grid_list, with its what */
    smma_grid_opts o;
};

struct listing {
    struct entry *e;
    size_t n, cap;
};

static void
add(struct listing *l, const char *instr, const char *operand, const smma_grid_opts *o)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->e = realloc(l->e, l->cap * sizeof(*l->e));
        if (l->e == NULL)
            sysbail("out of memory");
    }
    snprintf(l->e[l->n].instr, sizeof(l->e[l->n].instr), "%s", instr);
    snprintf(l->e[l->n].operand, sizeof(l->e[l->n].operand), "%s", operand);
    l->e[l->n].what[0] = '\0';
    l->e[l->n].listed = false;
    l->e[l->n].o = *o;
    l->n++;
}

static void
collect(const char *instr, const char *operand, const char *what, void *ctx)
{
    smma_grid_opts none = SMMA_GRID_OPTS_NONE;
    struct listing *l = ctx;

    add(l, instr, operand, &none);
    snprintf(l->e[l->n - 1].what, sizeof(l->e[l->n - 1].what), "%s", what);
    l->e[l->n - 1].listed = true;
}

/* Whether every "M = n", "cta_group::n", ".scale_vec::nX" and "Layout L" of
 * text is in what as well. */
static bool
numbers_agree(const char *text, const char *what)
{
    static const char *const keys[] = { "M = ", "cta_group::", ".scale_vec::", "Layout " };
    char part[48];
    size_t k, n;

    for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        const char *p = text;

        while ((p = strstr(p, keys[k])) != NULL) {
            size_t k0 = strlen(keys[k]);

            n = k0;
            while (p[n] >= '0' && p[n] <= '9')
                n++;
            if (p[n] == 'X' || (k == 3 && p[n] >= 'A' && p[n] <= 'Z'))
                n++;
            snprintf(part, sizeof(part), "%.*s", (int) n, p);
            if (strstr(what, part) == NULL) {
                /* An A picture says M as "A <M> x <K>". */
                snprintf(part, sizeof(part), "A %.*s x ", (int) (n - k0), p + k0);
                if (k != 0 || strstr(what, part) == NULL)
                    return false;
            }
            p += n;
        }
    }
    return true;
}

/* The listing's line of a tcgen05.mma picture (its own words) names the M,
 * cta_group, scale vector and data-path layout of the picture it stands
 * for, and a name's ".<n>x" is the picture's .scale_vec::<n>X. */
static bool
tcgen05_numbers(const struct entry *e, const smma_grid *g)
{
    static const char *const vecs[3] = { ".1x", ".2x", ".4x" };
    char vec[24] = "";
    size_t v;

    for (v = 0; v < 3; v++) {
        const char *x = strstr(e->instr, vecs[v]);

        if (x != NULL && (x[3] == '\0' || x[3] == '.'))
            snprintf(vec, sizeof(vec), ".scale_vec::%cX", vecs[v][1]);
    }
    return numbers_agree(e->what, g->what) && strstr(g->what, vec) != NULL;
}

/* The listing's line of an mma.sync or wgmma layout is the layout's own
 * description (with the default selectors). */
static bool
same_description(const struct entry *e, const smma_grid *g)
{
    return strcmp(g->what, e->what) == 0;
}

/* Compares each listed entry whose name starts with one of prefixes (a
 * NULL-ended list) with the layout it names, by agree; returns how many
 * differ and sets *n to the number compared. */
static unsigned
compare_listed(const struct listing *l, const char *const *prefixes,
               bool (*agree)(const struct entry *, const smma_grid *), size_t *n)
{
    smma_grid g;
    unsigned bad = 0;
    size_t i, p;

    *n = 0;
    for (i = 0; i < l->n; i++) {
        for (p = 0; prefixes[p] != NULL; p++)
            if (strncmp(l->e[i].instr, prefixes[p], strlen(prefixes[p])) == 0)
                break;
        if (!l->e[i].listed || prefixes[p] == NULL)
            continue;
        (*n)++;
        if (smma_grid_find(l->e[i].instr, l->e[i].operand, NULL, &g, NULL) != SMMA_OK
            || !agree(&l->e[i], &g)) {
            if (bad++ < 5)
                diag("%s %s: listed '%s', described '%s'", l->e[i].instr, l->e[i].operand,
                     l->e[i].what, g.what);
        }
    }
    return bad;
}

/* Up to ten lines of diagnostics per layout. */
#define COMPLAIN(...)                                                                       \
    do {                                                                                    \
        if (bad++ < 10)                                                                     \
            diag(__VA_ARGS__);                                                              \
    } while (0)

/* The number of disagreements found in layout g (0: all agree); *held
 * receives the number of operand elements held. */
static unsigned
check_layout(const smma_grid *g, size_t *held)
{
    unsigned bad = 0, row, col, t, r, c;
    size_t copies = g->copies > 1 ? g->copies : 1, total = 0, n, i;
    smma_holder h, back;
    smma_grid_slot *s;
    smma_grid_cell cell;
    char want[32], where[64];

    *held = 0;
    for (row = 0; row < g->op_rows; row++)
        for (col = 0; col < g->op_cols; col++) {
            if (smma_grid_holder(g, row, col, &h, NULL) != SMMA_OK) {
                COMPLAIN("%s (%u, %u): holder refused", g->name, row, col);
                continue;
            }
            smma_holder_label(&h, g->elems, want, sizeof(want));
            if (h.kind == SMMA_HOLDER_NONE) {
                if (!g->tmem_picture) {
                    g->cell(g, row, col, &cell);
                    if (cell.owner != SMMA_GRID_NOBODY)
                        COMPLAIN("%s (%u, %u): no holder, grid %s", g->name, row, col,
                                 cell.label);
                }
                continue;
            }
            (*held)++;
            if (h.thread >= g->threads || h.reg >= g->regs || h.elem >= g->elems
                || g->coord(g, h.thread, h.reg, h.elem, &r, &c) != SMMA_OK || r != row
                || c != col)
                COMPLAIN("%s (%u, %u): holder %s does not hold it back", g->name, row,
                         col, want);
            if (!g->tmem_picture) {
                g->cell(g, row, col, &cell);
                if (strcmp(cell.label, want) != 0)
                    COMPLAIN("%s (%u, %u): grid %s, holder %s", g->name, row, col,
                             cell.label, want);
                continue;
            }
            /* A picture of tensor memory: the holder's cell names (row, col). */
            g->cell(g, h.thread, h.reg * (g->cols / g->regs) + h.elem, &cell);
            snprintf(where, sizeof(where), "m%u,n%u", row, col);
            if (cell.owner == SMMA_GRID_NOBODY
                || (strstr(g->legend, "of D") != NULL && strcmp(cell.label, where) != 0))
                COMPLAIN("%s (%u, %u): the picture's cell at %s says %s", g->name, row,
                         col, want, cell.label);
        }
    for (t = 0; t < g->threads; t++) {
        if (smma_grid_cells(g, t, NULL, 0, &n, NULL) != SMMA_OK) {
            COMPLAIN("%s thread %u: cells refused", g->name, t);
            continue;
        }
        total += n;
        if (n == 0)
            continue;
        s = malloc(n * sizeof(*s));
        if (s == NULL)
            sysbail("out of memory");
        smma_grid_cells(g, t, s, n, &n, NULL);
        for (i = 0; i < n; i++) {
            if (smma_grid_holder(g, s[i].row, s[i].col, &back, NULL) != SMMA_OK
                || back.kind == SMMA_HOLDER_NONE) {
                COMPLAIN("%s thread %u: (%u, %u) is held by no one", g->name, t,
                         s[i].row, s[i].col);
                continue;
            }
            /* Without copies the holder is this very slot. */
            if (copies == 1 && (back.thread != t || back.reg != s[i].reg
                                || back.elem != s[i].elem))
                COMPLAIN("%s thread %u register %u: holder of its cell differs",
                         g->name, t, s[i].reg);
        }
        free(s);
    }
    if (total != *held * copies)
        COMPLAIN("%s: the threads hold %zu cells, the operand %zu held", g->name,
                 total, *held * copies);
    return bad;
}

static void
check(const char *instr, const char *operand, const smma_grid_opts *o)
{
    smma_grid g;
    smma_error err;
    size_t held;
    unsigned bad;

    if (smma_grid_find(instr, operand, o, &g, &err) != SMMA_OK) {
        ok(false, "%s %s is found", instr, operand);
        diag("%s", err.msg);
        return;
    }
    if (g.holder == NULL) {
        ok(false, "%s %s answers queries", instr, operand);
        return;
    }
    bad = check_layout(&g, &held);
    ok(bad == 0 && held > 0, "%s: %u x %u, %zu held, %u threads: holder and cells agree with "
       "each other and the picture", g.name, g.op_rows, g.op_cols, held, g.threads);
}

static void
add_tcgen05(struct listing *l)
{
    static const struct { unsigned m, cg; const char *suffix; } mcg[] = {
        { 64, 1, "" }, { 128, 1, "" }, { 128, 2, ".cg2" }, { 256, 2, "" },
    };
    static const char *const kinds[] = { "", ".f16", ".f8f6f4", ".i8", ".mxf8f6f4", ".mxf4",
                                         ".mxf4nvf4" };
    smma_grid_opts none = SMMA_GRID_OPTS_NONE, o = SMMA_GRID_OPTS_NONE;
    char name[64];
    unsigned i, n, k, num;

    for (i = 0; i < 4; i++) {
        for (n = mcg[i].cg * 8; n <= 256; n += mcg[i].cg * 8) {
            snprintf(name, sizeof(name), "tcgen05.mma.m%un%u%s", mcg[i].m, n, mcg[i].suffix);
            add(l, name, "d", &none);
        }
        if (mcg[i].m == 128 && mcg[i].cg == 2)
            continue;
        for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            snprintf(name, sizeof(name), "tcgen05.mma.m%u%s%s", mcg[i].m, mcg[i].suffix,
                     kinds[k]);
            add(l, name, "a", &none);
        }
    }
    for (num = 2; num <= 128; num *= 2) {
        o.num = (int) num;
        add(l, "tcgen05.ld.32x32b", "d", &o);
        if (num <= 32)
            add(l, "tcgen05.ld.16x256b", "d", &o);
    }
    o = none;
    o.sf_id = 2;
    add(l, "tcgen05.mma.mxf4.2x", "sfb", &o);
    o = none;
    o.byte_id = 1;
    o.thread_id = 1;
    add(l, "mma.m16n8k32.mxf8f6f4.e4m3.e4m3", "sfa", &o);
}

int
main(void)
{
    struct listing l = { NULL, 0, 0 };
    smma_grid g;
    smma_holder h;
    smma_error err;
    size_t i, n;
    uint32_t rows[3] = { 1, 13, 16 }, cols[3] = { 11, 5, 0 }, th[3], reg[3], el[3], r2[8];
    uint32_t c2[8], g2[8], e2[8];
    int32_t kind[3];
    unsigned orow, ocol, othr;

    smma_grid_list(collect, &l);
    add_tcgen05(&l);
    plan((int) l.n + 50);
    for (i = 0; i < l.n; i++)
        check(l.e[i].instr, l.e[i].operand, &l.e[i].o);
    for (i = 0; i < l.n && strcmp(l.e[i].instr, "wgmma.m64n256k32.e5m2.e5m2") != 0; i++)
        ;
    ok(i < l.n, "the listing has the last wgmma pair, e5m2 x e5m2");
    {
        static const char *const sync_wgmma[] = { "mma.", "wgmma.", NULL };
        static const char *const tcgen05_mma[] = { "tcgen05.mma.", NULL };
        size_t compared;
        unsigned differ = compare_listed(&l, sync_wgmma, same_description, &compared);

        ok(differ == 0 && compared > 200, "the listing describes each of %zu mma.sync and "
           "wgmma layouts as the layout does (%u differ)", compared, differ);
        differ = compare_listed(&l, tcgen05_mma, tcgen05_numbers, &compared);
        ok(differ == 0 && compared >= 23, "the listing's %zu tcgen05.mma pictures name the M, "
           "cta_group and scale vector of their layouts (%u differ)", compared, differ);
    }
    smma_grid_find("ldmatrix.x1", "regs", NULL, &g, &err);
    is_string("1 matrix of 8 x 8 b16 as stored (rows: row r of matrix i is row 8i+r), the "
              "register holding each element", g.what, "ldmatrix.x1 regs: its description");
    smma_grid_find("stmatrix.x4.trans", "addr", NULL, &g, &err);
    is_string("4 matrices of 8 x 8 b16 as stored (rows: row r of matrix i is row 8i+r), the "
              "lane giving each row's address", g.what, "stmatrix.x4.trans addr: its description");
    free(l.e);

    /* A picture of scale factors in TMEM: 4 bytes a column, each colored
     * by its copy (lanes 32p..32p+31 hold copy p). */
    {
        smma_grid_cell cell;
        int found = smma_grid_find("tcgen05.mma.mxf8f6f4.1x", "sfa", NULL, &g, &err);

        ok(found == SMMA_OK && g.elems == 4 && g.regs == 4 && g.threads == 128,
           "tcgen05.mma.mxf8f6f4.1x sfa: 128 lanes of 4 columns of 4 bytes");
        if (found == SMMA_OK) {
            unsigned r, c;

            ok(g.coord(&g, 127, 0, 0, &r, &c) == SMMA_OK &&
                   g.coord(&g, 128, 0, 0, &r, &c) != SMMA_OK,
               "... lane 127 holds a scale, a thread of a second CTA none");
        } else
            ok(false, "... lane 127");
        if (found == SMMA_OK) {
            g.cell(&g, 37, 4 * 0 + 0, &cell);
            ok(cell.owner == 1 && strcmp(cell.label, "m5,k0") == 0,
               "... lane 37, byte 0 of the first column: m5 in copy 1 (%s, %u)", cell.label,
               cell.owner);
        } else
            ok(false, "... lane 37");
        found = smma_grid_find("tcgen05.cp.128x256b", "d", NULL, &g, &err);
        ok(found == SMMA_OK && strstr(g.what, ", 1 copy") != NULL,
           "tcgen05.cp.128x256b makes 1 copy (%s)", g.what);
    }
    /* The one-line descriptions of block-scaled mma.sync operands. */
    {
        static const struct {
            const char *instr, *operand;
            int byte_id, thread_id;
            const char *what;
        } d[] = {
            { "mma.m16n8k32.mxf8f6f4.e4m3.e4m3", "a", -1, -1,
              "A 16 x 32 e4m3, 4 per register, 4 registers per lane" },
            { "mma.m16n8k32.mxf8f6f4.e3m2.e2m3", "b", -1, -1,
              "B 32 x 8 e2m3, in 8-bit containers (bits 5:0), 4 per register, 2 registers "
              "per lane" },
            { "mma.m16n8k32.mxf8f6f4.e4m3.e4m3", "sfa", 1, 1,
              "scale_A 16 x 1 e8m0, k blocks of 32; byte-id-a 1, thread-id-a 1: lanes 4g+2 "
              "(row g), 4g+3 (row g+8)" },
            { "mma.m16n8k32.mxf8f6f4.e4m3.e4m3", "sfb", 2, 1,
              "scale_B 1 x 8 e8m0, k blocks of 32; byte-id-b 2, thread-id-b 1: lanes 4n+1" },
        };
        smma_grid_opts o;

        for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
            o = (smma_grid_opts) SMMA_GRID_OPTS_NONE;
            if (d[i].byte_id >= 0) {
                o.byte_id = d[i].byte_id;
                o.thread_id = d[i].thread_id;
            }
            if (smma_grid_find(d[i].instr, d[i].operand, &o, &g, &err) != SMMA_OK)
                ok(false, "%s %s: %s", d[i].instr, d[i].operand, err.msg);
            else
                is_string(d[i].what, g.what, "%s %s: its description", d[i].instr,
                          d[i].operand);
        }
    }
    /* mma.sync's legends, with and without elements, and a cell outside
     * the tile: nobody's. */
    {
        smma_grid_cell cell;

        smma_grid_find("mma.m16n8k16.bf16", "a", NULL, &g, &err);
        is_string("T<lane>:r<register>.<element>", g.legend, "mma.m16n8k16.bf16 a: its legend");
        smma_grid_find("mma.m16n8k16.bf16", "c", NULL, &g, &err);
        is_string("T<lane>:r<register>", g.legend, "mma.m16n8k16.bf16 c: one element a register");
        cell.owner = 7;
        strcpy(cell.label, "x");
        g.cell(&g, 16, 0, &cell);
        ok(cell.owner == SMMA_GRID_NOBODY && strcmp(cell.label, ".") == 0,
           "... its cell (16, 0), past the last row, is nobody's ('%s')", cell.label);
    }
    /* A wgmma name's numbers have at most 4 digits. */
    is_int(SMMA_OK, smma_grid_find("wgmma.m64n0008k16.bf16", "a", NULL, &g, &err),
           "wgmma.m64n0008k16: N of 4 digits");
    is_int(SMMA_EINVAL, smma_grid_find("wgmma.m64n00008k16.bf16", "a", NULL, &g, &err),
           "wgmma.m64n00008k16: N of 5 digits refused");

    /* Hand-checked: mma.m16n8k16 A (5, 9) is lane 20, register 2, element 1. */
    smma_grid_find("mma.m16n8k16.bf16", "a", NULL, &g, &err);
    smma_grid_holder(&g, 5, 9, &h, &err);
    ok(h.kind == SMMA_HOLDER_REG && h.thread == 20 && h.reg == 2 && h.elem == 1,
       "mma.m16n8k16.bf16 a (5, 9) is held by T20:r2.1");
    is_int(SMMA_EINVAL, smma_grid_holder(&g, 16, 0, &h, &err), "row 16 of a 16-row A is refused");
    is_string("row 16 is outside mma.m16n8k16.bf16 a: m is 0..15", err.msg, "... naming the bound");
    is_int(SMMA_EINVAL, smma_grid_holder(&g, 0, 16, &h, &err), "column 16 is refused");
    is_string("column 16 is outside mma.m16n8k16.bf16 a: k is 0..15", err.msg,
              "... naming the bound");
    is_int(SMMA_EINVAL, smma_grid_cells(&g, 32, NULL, 0, &n, &err), "thread 32 is refused");
    is_string("thread 32 is outside mma.m16n8k16.bf16 a: threads are 0..31", err.msg,
              "... naming the bound");
    smma_grid_cells(&g, 20, NULL, 0, &n, &err);
    is_int(8, (int) n, "lane 20 holds 8 elements of A");

    /* tcgen05 D of M = 128, cta_group::2 (Layout B), N = 64: (70, 40) is CTA 1's lane
     * 6 + 64, column 40 - 32. */
    is_int(SMMA_OK, smma_grid_find("tcgen05.mma.m128n64.cg2", "d", NULL, &g, &err),
           "tcgen05.mma.m128n64.cg2 d is found");
    smma_grid_holder(&g, 70, 40, &h, &err);
    ok(h.kind == SMMA_HOLDER_TMEM && h.thread == 128 + 70 && h.reg == 8,
       "... (70, 40) in CTA 1, lane 70, column 8");
    is_int(SMMA_EINVAL, smma_grid_find("tcgen05.mma.m128n12", "d", NULL, &g, &err),
           "N 12 is refused");
    is_string("tcgen05.mma.m128n12 d: D: N 12 is not a multiple of 8 in [8, 256] "
              "(cta_group::1)", err.msg, "... naming the legal set");
    is_int(SMMA_EINVAL, smma_grid_find("tcgen05.mma.m128.bf8", "a", NULL, &g, &err),
           "an unknown kind is refused");

    /* The flat forms. */
    is_int(SMMA_OK, smma_layout_holders("mma.m16n8k16.bf16", "a", NULL, 2, rows, cols, th, reg,
                                        el, kind, &err), "smma_layout_holders");
    ok(th[0] == 5 && reg[0] == 2 && el[0] == 1 && kind[0] == SMMA_HOLDER_REG && th[1] == 22,
       "... (1, 11) T5:r2.1 and (13, 5) lane 22");
    th[2] = 7;
    is_int(SMMA_EINVAL, smma_layout_holders("mma.m16n8k16.bf16", "a", NULL, 3, rows, cols, th,
                                            reg, el, NULL, &err), "a bad coordinate is refused");
    ok(strstr(err.msg, "element 2: row 16") != NULL && th[2] == 7,
       "... naming it, nothing written (%s)", err.msg);
    is_int(SMMA_OK, smma_layout_cells("mma.m16n8k16.bf16", "a", NULL, 20, 8, r2, c2, g2, e2, &n,
                                      &err), "smma_layout_cells");
    ok(n == 8 && r2[0] == 5 && c2[0] == 0 && r2[5] == 5 && c2[5] == 9 && g2[5] == 2 && e2[5] == 1,
       "... lane 20 starts with (5, 0) and holds (5, 9) in r2.1");
    ok(smma_layout_cells("mma.m16n8k16.bf16", "a", NULL, 20, 1, NULL, c2, g2, e2, &n,
                         &err) == SMMA_EINVAL
           && smma_layout_cells("mma.m16n8k16.bf16", "a", NULL, 20, 8, r2, NULL, g2, e2, &n,
                                &err) == SMMA_EINVAL
           && smma_layout_cells("mma.m16n8k16.bf16", "a", NULL, 20, 8, r2, c2, NULL, e2, &n,
                                &err) == SMMA_EINVAL
           && strcmp(err.msg, "no output given") == 0,
       "smma_layout_cells refuses any one output missing (%s)", err.msg);
    is_int(SMMA_OK, smma_layout_shape("wgmma.m64n16k16.bf16", "d", NULL, &orow, &ocol,
                                      &othr, &err), "smma_layout_shape");
    ok(orow == 64 && ocol == 16 && othr == 128, "... 64 x 16, 128 threads");

    /* Shared-memory tiles: each cell is smma_tc05_smem_addr's byte. */
    {
        smma_tc05_layout sl = { false, SMMA_TC05_SWIZZLE_128B, 16, 16, 1024 };
        smma_tc05_swizzle sw;
        smma_grid_cell cell;
        uint32_t byte;
        unsigned bit, r, c, bad = 0, chunk = 0;

        is_int(SMMA_OK, smma_tc05_smem_grid(&sl, 16, 64, &g, &err), "smem 128B k grid");
        for (r = 0; r < 16; r++)
            for (c = 0; c < 64; c++) {
                char want[16];

                g.cell(&g, r, c, &cell);
                smma_tc05_smem_addr(&sl, 0, r, c, &byte, &bit, NULL);
                snprintf(want, sizeof(want), "%u", (unsigned) byte);
                bad += strcmp(want, cell.label) != 0;
                chunk += cell.owner != byte / 16;
            }
        is_int(0, (int) bad, "... every cell is the element's byte address");
        is_int(0, (int) chunk, "... owned by its 16-byte chunk");
        g.cell(&g, 1, 0, &cell);
        is_string("144", cell.label, "... (1, 0) is 128 with bit 4 flipped by bit 7");
        ok(g.holder == NULL, "... and answers no holder queries");
        sl.swizzle = SMMA_TC05_SWIZZLE_128B_BASE32B;
        is_int(SMMA_EINVAL, smma_tc05_smem_grid(&sl, 8, 8, &g, &err), "128B-base32B is refused");
        sl.swizzle = SMMA_TC05_SWIZZLE_32B;
        is_int(SMMA_EINVAL, smma_tc05_smem_grid(&sl, 8, 17, &g, &err),
               "32B K-major past the atom is refused");
        is_string("element (0, 16): k 16 is outside the 32-byte swizzle atom of a K-major layout",
                  err.msg, "... naming the element");
        ok(smma_tc05_swizzle_from_name("64b", &sw, &err) == SMMA_OK && sw == SMMA_TC05_SWIZZLE_64B
           && strcmp(smma_tc05_swizzle_name(sw), "64B") == 0, "swizzle names both ways");
        sw = SMMA_TC05_SWIZZLE_128B;
        ok(smma_tc05_swizzle_from_name("none", &sw, &err) == SMMA_OK
           && sw == SMMA_TC05_SWIZZLE_NONE, "the first name, none, is found too");
    }
    return exit_status();
}
