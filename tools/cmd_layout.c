/*
 * tools/cmd_layout.c - softmma layout ...: draws layouts as text or SVG.
 *
 * Two forms:
 *   softmma layout KIND ...                 a kind with its own options;
 *                                           today "scale" (the scale-factor
 *                                           layouts of softmma/scale_layout.h)
 *   softmma layout INSTRUCTION OPERAND ...  a register fragment layout of
 *                                           softmma/fragment.h, as a text
 *                                           grid or an SVG picture
 * and "softmma layout --list", which names everything modeled.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/fragment.h>
#include <softmma/scale_layout.h>

#include "cli.h"
#include "options.h"

static const char scale_usage[] =
    "Usage: softmma layout scale --layout NAME --rows R --k K --vec V\n"
    "           [--at ROW,COL | --offset OFF]\n\n"
    "Draws where the block scale factors of one operand lie in memory.  The\n"
    "operand has R rows of K elements and one scale per V (16 or 32) elements,\n"
    "so the scale matrix is R x Kb with Kb = ceil(K / V) scale columns.\n"
    "NAME is one of linear, 128x4, triton5d, cdna4-16, cdna4-32 (see\n"
    "doc/scale-layouts.md; the CDNA4 layouts need V 32).\n\n"
    "Prints a header line with the padded size, then one line per row:\n"
    "  row M: OFF(M,0) OFF(M,1) ... OFF(M,Kb-1)\n"
    "the byte offset of each scale in the stored array.  With --at ROW,COL it\n"
    "prints only the offset of that scale; with --offset OFF it prints which\n"
    "scale lies at byte OFF: 'row M col C', or 'padding row M col C' for a\n"
    "byte of the padded tile that holds no scale.\n";

static bool
parse_size(const char *s, size_t *out)
{
    uint64_t v;

    if (!cli_parse_uint(s, (uint64_t) SIZE_MAX, &v))
        return false;
    *out = (size_t) v;
    return true;
}

/* Parses "ROW,COL". */
static bool
parse_pair(const char *s, size_t *a, size_t *b)
{
    const char *comma = strchr(s, ',');
    char *first;
    bool good;

    if (comma == NULL)
        return false;
    first = malloc((size_t) (comma - s) + 1);
    if (first == NULL)
        return false;
    memcpy(first, s, (size_t) (comma - s));
    first[comma - s] = '\0';
    good = parse_size(first, a) && parse_size(comma + 1, b);
    free(first);
    return good;
}

static int
layout_scale(int argc, char **argv)
{
    const char *layout_s = NULL, *rows_s = NULL, *k_s = NULL, *vec_s = NULL, *at_s = NULL,
               *offset_s = NULL;
    const struct opt_spec specs[] = {
        { "layout", true, &layout_s, NULL },
        { "rows", true, &rows_s, NULL },
        { "k", true, &k_s, NULL },
        { "vec", true, &vec_s, NULL },
        { "at", true, &at_s, NULL },
        { "offset", true, &offset_s, NULL },
        { NULL, false, NULL, NULL },
    };
    struct opt_result r;
    smma_scale_layout l;
    smma_scale_shape s;
    smma_error err;
    size_t rows, k, at_m = 0, at_kb = 0, off = 0, m, kb;
    uint64_t vec;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(scale_usage, stdout);
        goto done;
    }
    if (r.npos > 0) {
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
        goto done;
    }
    if (layout_s == NULL) {
        rc = cli_error("missing --layout (linear, 128x4, triton5d, cdna4-16, "
                       "cdna4-32)");
        goto done;
    }
    if (rows_s == NULL || k_s == NULL || vec_s == NULL) {
        rc = cli_error("missing --%s",
                       rows_s == NULL ? "rows" : k_s == NULL ? "k" : "vec");
        goto done;
    }
    if (smma_scale_layout_from_name(layout_s, &l, &err) != SMMA_OK) {
        rc = cli_error("--layout: %s", err.msg);
        goto done;
    }
    if (!parse_size(rows_s, &rows)) {
        rc = cli_error("malformed --rows '%s' (a positive integer)", rows_s);
        goto done;
    }
    if (!parse_size(k_s, &k)) {
        rc = cli_error("malformed --k '%s' (a positive integer)", k_s);
        goto done;
    }
    if (!cli_parse_uint(vec_s, 0xffffffffu, &vec)) {
        rc = cli_error("malformed --vec '%s' (16 or 32)", vec_s);
        goto done;
    }
    if (at_s != NULL && offset_s != NULL) {
        rc = cli_error("--at and --offset exclude each other");
        goto done;
    }
    if (at_s != NULL && !parse_pair(at_s, &at_m, &at_kb)) {
        rc = cli_error("malformed --at '%s' (ROW,COL: two integers)", at_s);
        goto done;
    }
    if (offset_s != NULL && !parse_size(offset_s, &off)) {
        rc = cli_error("malformed --offset '%s' (an integer)", offset_s);
        goto done;
    }
    if (smma_scale_layout_shape(l, rows, k, (unsigned) vec, &s, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (at_s != NULL) {
        if (smma_scale_offset(l, rows, k, s.vec, at_m, at_kb, &off, &err) != SMMA_OK) {
            rc = cli_error("--at %s: %s", at_s, err.msg);
            goto done;
        }
        printf("%zu\n", off);
        goto done;
    }
    if (offset_s != NULL) {
        bool pad;

        if (smma_scale_coord(l, rows, k, s.vec, off, &m, &kb, &pad, &err) != SMMA_OK) {
            rc = cli_error("--offset %s: %s", offset_s, err.msg);
            goto done;
        }
        printf("%srow %zu col %zu\n", pad ? "padding " : "", m, kb);
        goto done;
    }
    printf("scale layout %s: rows %zu, k %zu, vec %u -> %zu x %zu scales; "
           "padded %zu x %zu = %zu bytes\n",
           smma_scale_layout_name(l), s.rows, s.k, s.vec, s.rows, s.kb, s.rows_pad, s.kb_pad,
           s.bytes);
    for (m = 0; m < s.rows; m++) {
        printf("row %zu:", m);
        for (kb = 0; kb < s.kb; kb++) {
            /* Cannot fail: (m, kb) is in range and the shape was checked. */
            smma_scale_offset(l, rows, k, s.vec, m, kb, &off, &err);
            printf(" %zu", off);
        }
        putchar('\n');
    }
done:
    opt_free(&r);
    return rc;
}


/* ------------------------------------------------------------ fragments */

static const char frag_usage[] =
    "Usage: softmma layout INSTRUCTION OPERAND [--text | --svg FILE]\n"
    "       softmma layout --list\n\n"
    "Draws a register fragment layout of mma.sync: which lane, register and\n"
    "element of a warp holds each element of one operand tile.  INSTRUCTION is\n"
    "mma.m16n8k16.bf16, mma.m16n8k16.f16, mma.m16n8k32.e4m3 or mma.m16n8k32.e5m2\n"
    "(or its full PTX spelling); OPERAND is a, b, c or d.  The tiles are A 16 x K\n"
    "(rows m, cols k), B K x 8 (rows k, cols n), C and D 16 x 8 (rows m, cols n);\n"
    "see doc/layouts.md.\n\n"
    "--text (the default) prints a header line, a line of column indices, then\n"
    "one line per row: the row index and, for each column, the slot holding that\n"
    "element as T<lane>:r<register>.<element>, e.g. T5:r2.1.\n"
    "--svg FILE draws the same grid as an SVG picture coloured by lane into FILE\n"
    "('-' for stdout).  The file is replaced atomically; on an error nothing is\n"
    "written.  --list names every modeled layout, fragment and scale.\n";

static const char *const operand_names[] = { "a", "b", "c", "d" };

static bool
operand_from_name(const char *s, smma_operand *op)
{
    unsigned i;

    for (i = 0; i < sizeof(operand_names) / sizeof(operand_names[0]); i++)
        if (strcasecmp(s, operand_names[i]) == 0) {
            *op = (smma_operand) i;
            return true;
        }
    return false;
}

/* What the rows and the columns of an operand's tile index. */
static void
tile_axes(smma_operand op, const char **rows, const char **cols)
{
    *rows = op == SMMA_OP_B ? "k" : "m";
    *cols = op == SMMA_OP_A ? "k" : "n";
}

/* "T5:r2.1" for the slot holding (row, col), which is inside the tile. */
static void
cell_text(const smma_frag_layout *l, unsigned row, unsigned col, char *lane_s, size_t lane_n,
          char *slot_s, size_t slot_n)
{
    unsigned lane = 0, reg = 0, elem = 0;

    smma_frag_slot(l, row, col, &lane, &reg, &elem);
    snprintf(lane_s, lane_n, "T%u", lane);
    snprintf(slot_s, slot_n, "r%u.%u", reg, elem);
}

static void
frag_header(FILE *f, const smma_frag_layout *l, smma_operand op)
{
    const char *rows, *cols;

    tile_axes(op, &rows, &cols);
    fprintf(f, "%s: %u x %u %s (rows %s, cols %s), %u registers x %u element%s per lane",
            l->name, l->rows, l->cols, smma_format_name(l->fmt), rows, cols, l->regs,
            l->elems, l->elems == 1 ? "" : "s");
}

/* The text grid: every cell 8 wide ("T31:r3.3" is the widest), no trailing
 * blanks, so that tests can compare whole lines. */
static void
frag_print_text(const smma_frag_layout *l, smma_operand op)
{
    char lane_s[16], slot_s[16], cell[40];
    unsigned row, col;

    frag_header(stdout, l, op);
    printf("; cell T<lane>:r<register>.<element>\n   ");
    for (col = 0; col < l->cols; col++)
        printf(col + 1 < l->cols ? " %-8u" : " %u", col);
    putchar('\n');
    for (row = 0; row < l->rows; row++) {
        printf("%3u", row);
        for (col = 0; col < l->cols; col++) {
            cell_text(l, row, col, lane_s, sizeof(lane_s), slot_s, sizeof(slot_s));
            snprintf(cell, sizeof(cell), "%s:%s", lane_s, slot_s);
            printf(col + 1 < l->cols ? " %-8s" : " %s", cell);
        }
        putchar('\n');
    }
}

/* A light fill for lane 0..31, all 32 different.  Hues step by 13/32 of the
 * circle (13 is prime to 32, so every hue is used once), which puts
 * neighbouring lanes, side by side in most grids, far apart in hue; odd
 * lanes are paler than even ones.  The text stays black on all of them. */
static void
lane_colour(unsigned lane, char *out, size_t n)
{
    double h = (double) ((lane * 13u) % 32u) * 6.0 / 32.0, v = 0.98;
    double s = lane % 2 ? 0.30 : 0.50;
    unsigned sector = (unsigned) h;
    double f = h - sector, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;

    switch (sector % 6) {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
    snprintf(out, n, "#%02x%02x%02x", (unsigned) (r * 255 + 0.5), (unsigned) (g * 255 + 0.5),
             (unsigned) (b * 255 + 0.5));
}

enum { SVG_CW = 48, SVG_CH = 34, SVG_LEFT = 40, SVG_TOP = 52, SVG_PAD = 12 };

/* The SVG picture: a title, column indices above, row indices left, and one
 * line per cell (a rect of class "cell" and its two labels). */
static void
frag_write_svg(FILE *f, const smma_frag_layout *l, smma_operand op)
{
    unsigned w = SVG_LEFT + l->cols * SVG_CW + SVG_PAD, h = SVG_TOP + l->rows * SVG_CH + SVG_PAD;
    char lane_s[16], slot_s[16], fill[16];
    const char *rows, *cols;
    unsigned row, col, lane, reg, elem;

    tile_axes(op, &rows, &cols);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
               "viewBox=\"0 0 %u %u\" font-family=\"monospace\" font-size=\"11\" "
               "text-anchor=\"middle\">\n", w, h, w, h);
    fputs("<title>", f);
    frag_header(f, l, op);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", w, h);
    fprintf(f, "<text x=\"%u\" y=\"18\" text-anchor=\"start\" font-size=\"13\">%s "
               "(rows %s, cols %s)</text>\n", SVG_PAD, l->name, rows, cols);
    fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\" font-style=\"italic\">%s\\%s</text>\n",
            SVG_LEFT - 6, SVG_TOP - 8, rows, cols);
    for (col = 0; col < l->cols; col++)
        fprintf(f, "<text x=\"%u\" y=\"%u\">%u</text>\n", SVG_LEFT + col * SVG_CW + SVG_CW / 2,
                SVG_TOP - 8, col);
    for (row = 0; row < l->rows; row++)
        fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%u</text>\n", SVG_LEFT - 6,
                SVG_TOP + row * SVG_CH + SVG_CH / 2 + 4, row);
    for (row = 0; row < l->rows; row++)
        for (col = 0; col < l->cols; col++) {
            unsigned x = SVG_LEFT + col * SVG_CW, y = SVG_TOP + row * SVG_CH;

            smma_frag_slot(l, row, col, &lane, &reg, &elem);
            lane_colour(lane, fill, sizeof(fill));
            cell_text(l, row, col, lane_s, sizeof(lane_s), slot_s, sizeof(slot_s));
            fprintf(f, "<g><rect class=\"cell\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" "
                       "fill=\"%s\" stroke=\"#404040\" stroke-width=\"0.75\"/>"
                       "<text x=\"%u\" y=\"%u\">%s</text><text x=\"%u\" y=\"%u\">%s</text></g>\n",
                    x, y, (unsigned) SVG_CW, (unsigned) SVG_CH, fill, x + SVG_CW / 2, y + 14,
                    lane_s, x + SVG_CW / 2, y + 28, slot_s);
        }
    fputs("</svg>\n", f);
}

/* Writes the picture to a new file beside path, then renames it over path,
 * so that a reader never sees half a picture and an error leaves path as it
 * was. */
static int
frag_svg_file(const char *path, const smma_frag_layout *l, smma_operand op)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    FILE *f = NULL;
    unsigned i;
    int rc = CLI_OK, bad;

    if (tmp == NULL)
        return cli_error("out of memory");
    for (i = 0; i < 1000; i++) {
        snprintf(tmp, n, "%s.%u.tmp", path, i);
        errno = 0;
        f = fopen(tmp, "wx");
        if (f != NULL || errno != EEXIST)
            break;
    }
    if (f == NULL) {
        rc = cli_error("--svg %s: cannot create %s: %s", path, tmp, strerror(errno));
        free(tmp);
        return rc;
    }
    frag_write_svg(f, l, op);
    bad = ferror(f);
    if (fclose(f) != 0 || bad)
        rc = cli_error("--svg %s: cannot write %s", path, tmp);
    else if (rename(tmp, path) != 0)
        rc = cli_error("--svg %s: cannot rename %s to it: %s", path, tmp, strerror(errno));
    if (rc != CLI_OK)
        remove(tmp);
    free(tmp);
    return rc;
}

static void
layout_list(void)
{
    const smma_frag_layout *l;
    char what[64];
    unsigned i, op;

    puts("fragment layouts (softmma layout INSTRUCTION OPERAND):");
    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        for (op = SMMA_OP_A; op <= SMMA_OP_D; op++) {
            l = smma_frag_layout_get((smma_mma_instr) i, (smma_operand) op);
            snprintf(what, sizeof(what), "%u x %u %s", l->rows, l->cols,
                     smma_format_name(l->fmt));
            printf("  %-20s %-13s %u registers x %u element%s per lane\n", l->name, what,
                   l->regs, l->elems, l->elems == 1 ? "" : "s");
        }
    puts("scale layouts (softmma layout scale --layout NAME ...):");
    for (i = 0; i < SMMA_SL_COUNT; i++)
        printf("  scale --layout %s\n", smma_scale_layout_name((smma_scale_layout) i));
}

static int
layout_frag(int argc, char **argv)
{
    const char *svg = NULL;
    bool text = false, list = false;
    const struct opt_spec specs[] = {
        { "text", false, NULL, &text },
        { "svg", true, &svg, NULL },
        { "list", false, NULL, &list },
        { NULL, false, NULL, NULL },
    };
    const smma_frag_layout *l;
    struct opt_result r;
    smma_mma_instr in;
    smma_operand op;
    smma_error err;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(frag_usage, stdout);
        goto done;
    }
    if (list) {
        if (r.npos > 0 || text || svg != NULL)
            rc = cli_error("--list takes no other arguments");
        else
            layout_list();
        goto done;
    }
    if (r.npos == 0) {
        rc = cli_error("usage: softmma layout KIND ... | INSTRUCTION OPERAND | --list");
        goto done;
    }
    if (smma_mma_instr_from_name(r.pos[0], &in, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (r.npos == 1) {
        rc = cli_error("missing OPERAND (a, b, c or d) after '%s'", r.pos[0]);
        goto done;
    }
    if (!operand_from_name(r.pos[1], &op)) {
        rc = cli_error("unknown operand '%s' (known: a, b, c, d)", r.pos[1]);
        goto done;
    }
    if (r.npos > 2) {
        rc = cli_error("unexpected argument '%s'", r.pos[2]);
        goto done;
    }
    if (text && svg != NULL) {
        rc = cli_error("--text and --svg exclude each other");
        goto done;
    }
    l = smma_frag_layout_get(in, op);
    if (svg == NULL)
        frag_print_text(l, op);
    else if (strcmp(svg, "-") == 0)
        frag_write_svg(stdout, l, op);
    else
        rc = frag_svg_file(svg, l, op);
done:
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------ dispatch */

struct layout_kind {
    const char *name;
    int (*run)(int, char **);
};

static const struct layout_kind kinds[] = {
    { "scale", layout_scale },
};

int
cmd_layout(int argc, char **argv)
{
    smma_mma_instr in;
    smma_error err;
    size_t i;

    if (argc < 2) {
        cli_error("usage: softmma layout KIND ... | INSTRUCTION OPERAND | --list (known "
                  "kinds: scale; try 'softmma layout --help')");
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("Usage: softmma layout KIND [OPTIONS...]\n"
               "       softmma layout INSTRUCTION OPERAND [--text | --svg FILE]\n"
               "       softmma layout --list\n\n"
               "Draws layouts as text or SVG.  Kinds:\n"
               "  scale   scale-factor layouts (softmma layout scale --help)\n"
               "INSTRUCTION OPERAND draws a register fragment layout of mma.sync, e.g.\n"
               "'softmma layout mma.m16n8k16.bf16 a' (softmma layout mma.m16n8k16.bf16 a\n"
               "--help).  --list names every modeled layout.\n");
        return CLI_OK;
    }
    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(argv[1], kinds[i].name) == 0)
            return kinds[i].run(argc - 1, argv + 1);
    /* A first word that is neither a kind nor an instruction is named as
     * both, unless it looks like an instruction. */
    if (argv[1][0] != '-' && smma_mma_instr_from_name(argv[1], &in, &err) != SMMA_OK) {
        if (strncasecmp(argv[1], "mma", 3) == 0)
            return cli_error("%s", err.msg);
        return cli_error("unknown layout kind '%s' (known: scale) and no such instruction "
                         "(see softmma layout --list)", argv[1]);
    }
    return layout_frag(argc, argv);
}
