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

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/grid.h>
#include <softmma/scale_layout.h>

#include "cli.h"
#include "layout_html.h"
#include "options.h"

static const char scale_usage[] =
    "Usage: softmma layout scale --layout NAME --rows R --k K --vec V\n"
    "           [--at ROW,COL | --offset OFF | --html FILE]\n\n"
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
    "byte of the padded tile that holds no scale.\n"
    "--html FILE writes the offsets as a web page in which pointing at a scale\n"
    "shows its offset and every scale of the same 16-byte line (see --html in\n"
    "'softmma layout mma.m16n8k16.bf16 a --help').\n";

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
               *offset_s = NULL, *html = NULL;
    const struct opt_spec specs[] = {
        { "layout", true, &layout_s, NULL },
        { "rows", true, &rows_s, NULL },
        { "k", true, &k_s, NULL },
        { "vec", true, &vec_s, NULL },
        { "at", true, &at_s, NULL },
        { "offset", true, &offset_s, NULL },
        { "html", true, &html, NULL },
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
    if (html != NULL && (at_s != NULL || offset_s != NULL)) {
        rc = cli_error("--html and --%s exclude each other", at_s != NULL ? "at" : "offset");
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
    if (html != NULL) {
        smma_grid g;

        rc = cli_scale_grid(l, &s, &g);
        if (rc == CLI_OK)
            rc = cli_grid_html(html, &g, NULL);
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


/* ------------------------------------------------------------ grids */

static const char frag_usage[] =
    "Usage: softmma layout INSTRUCTION OPERAND [--text | --svg FILE | --html FILE]\n"
    "           [--byte-id N] [--thread-id N] [--sf-id N] [--num N]\n"
    "       softmma layout --list\n\n"
    "Draws a layout of an instruction: which lane (thread), register and element\n"
    "holds each element of one operand tile, or where an element lies in tensor\n"
    "memory.  'softmma layout --list' names every INSTRUCTION and OPERAND, e.g.\n"
    "'mma.m16n8k16.bf16 a' (the full PTX spelling of an mma.sync works too).  The\n"
    "selectors are those of the instruction: --byte-id and --thread-id for the\n"
    "scale factors of block-scaled mma.sync, --sf-id for the scale-factor id of\n"
    "tcgen05, --num for the .num of tcgen05.ld/st.  See doc/layouts.md.\n\n"
    "--text (the default) prints a header line, a line of column indices, then\n"
    "one line per row: the row index and, for each column, the label of the\n"
    "element's holder, e.g. T5:r2.1 (lane 5, register 2, element 1); '.' marks a\n"
    "cell that no one holds.\n"
    "--svg FILE draws the same grid as an SVG picture coloured by lane into FILE\n"
    "('-' for stdout).  The file is replaced atomically; on an error nothing is\n"
    "written.\n"
    "--html FILE writes the grid as one self-contained web page (inline style\n"
    "and script, nothing loaded from elsewhere) into FILE, as --svg does: pointing\n"
    "at a cell shows its holder and highlights every cell of the same lane or\n"
    "thread; pointing at a thread in the legend, choosing it in the list or the\n"
    "keys n and p show its cells; a click keeps a thread, Esc clears.  The\n"
    "address FILE#t=N opens with thread N shown.\n";

/* The header: "NAME: WHAT", and the axes when WHAT does not name them. */
static void
grid_header(FILE *f, const smma_grid *g)
{
    fprintf(f, "%s: %s", g->name, g->what);
    if (strstr(g->what, "(rows") == NULL)
        fprintf(f, " (rows %s, cols %s)", g->row_axis, g->col_axis);
}

/* The widest label among the first ncols columns of the rows picked (rows
 * NULL: every row). */
static size_t
grid_width(const smma_grid *g, const unsigned *rows, size_t nrows, unsigned ncols)
{
    smma_grid_cell c;
    size_t w = 1, n, i;
    unsigned col;

    if (rows == NULL)
        nrows = g->rows;
    for (i = 0; i < nrows; i++)
        for (col = 0; col < ncols && (rows == NULL || rows[i] < g->rows); col++) {
            g->cell(g, rows != NULL ? rows[i] : (unsigned) i, col, &c);
            n = strlen(c.label);
            if (n > w)
                w = n;
        }
    return w;
}

/* Every column as wide as the widest label shown, no trailing blanks, so
 * that tests can compare whole lines. */
void
cli_grid_print_text(const smma_grid *g, const unsigned *rows, size_t nrows, unsigned ncols,
                    const char *indent)
{
    smma_grid_cell c;
    unsigned row, col;
    size_t i;
    int w;

    if (ncols == 0 || ncols > g->cols)
        ncols = g->cols;
    if (rows == NULL)
        nrows = g->rows;
    w = (int) grid_width(g, rows, nrows, ncols);
    fputs(indent, stdout);
    grid_header(stdout, g);
    printf("; cell %s\n%s   ", g->legend, indent);
    for (col = 0; col < ncols; col++)
        if (col + 1 < ncols)
            printf(" %-*u", w, g->col0 + col);
        else
            printf(" %u", g->col0 + col);
    putchar('\n');
    for (i = 0; i < nrows; i++) {
        row = rows != NULL ? rows[i] : (unsigned) i;
        if (row >= g->rows)
            continue;
        if (i > 0 && rows != NULL && row > rows[i - 1] + 1)
            printf("%s  ...\n", indent);
        printf("%s%3u", indent, g->row0 + row);
        for (col = 0; col < ncols; col++) {
            g->cell(g, row, col, &c);
            if (col + 1 < ncols)
                printf(" %-*s", w, c.label);
            else
                printf(" %s", c.label);
        }
        putchar('\n');
    }
}

/* A light fill for lane 0..31, all 32 different.  Hues step by 13/32 of the
 * circle (13 is prime to 32, so every hue is used once), which puts
 * neighbouring lanes, side by side in most grids, far apart in hue; odd
 * lanes are paler than even ones.  Threads of later warps take the colour
 * of their lane.  The text stays black on all of them. */
void
cli_lane_colour(unsigned lane, char *out, size_t n)
{
    double h = (double) ((lane % 32u * 13u) % 32u) * 6.0 / 32.0, v = 0.98;
    double s = lane % 2 ? 0.30 : 0.50;
    unsigned sector = (unsigned) h;
    double f = h - sector, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;

    if (lane == SMMA_GRID_NOBODY) {
        snprintf(out, n, "#f4f4f4");
        return;
    }
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

enum { SVG_CH = 34, SVG_LEFT = 40, SVG_TOP = 52, SVG_PAD = 12 };

/* The SVG picture: a title, column indices above, row indices left, and one
 * line per cell (a rect of class "cell" and its label, split at ':' into
 * two lines). */
static void
grid_write_svg(FILE *f, const smma_grid *g)
{
    size_t lw = grid_width(g, NULL, 0, g->cols);
    unsigned cw = (unsigned) (lw > 7 ? 6 * lw / 2 + 28 : 48);
    unsigned w = SVG_LEFT + g->cols * cw + SVG_PAD, h = SVG_TOP + g->rows * SVG_CH + SVG_PAD;
    char fill[16], first[32];
    const char *second;
    smma_grid_cell c;
    unsigned row, col;

    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
               "viewBox=\"0 0 %u %u\" font-family=\"monospace\" font-size=\"11\" "
               "text-anchor=\"middle\">\n", w, h, w, h);
    fputs("<title>", f);
    grid_header(f, g);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", w, h);
    fprintf(f, "<text x=\"%u\" y=\"18\" text-anchor=\"start\" font-size=\"13\">%s "
               "(rows %s, cols %s)</text>\n", SVG_PAD, g->name, g->row_axis, g->col_axis);
    fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\" font-style=\"italic\">%s\\%s</text>\n",
            SVG_LEFT - 6, SVG_TOP - 8, g->row_axis, g->col_axis);
    for (col = 0; col < g->cols; col++)
        fprintf(f, "<text x=\"%u\" y=\"%u\">%u</text>\n", SVG_LEFT + col * cw + cw / 2,
                SVG_TOP - 8, g->col0 + col);
    for (row = 0; row < g->rows; row++)
        fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%u</text>\n", SVG_LEFT - 6,
                SVG_TOP + row * SVG_CH + SVG_CH / 2 + 4, g->row0 + row);
    for (row = 0; row < g->rows; row++)
        for (col = 0; col < g->cols; col++) {
            unsigned x = SVG_LEFT + col * cw, y = SVG_TOP + row * SVG_CH;
            char *colon;

            g->cell(g, row, col, &c);
            cli_lane_colour(c.owner, fill, sizeof(fill));
            snprintf(first, sizeof(first), "%s", c.label);
            colon = strchr(first, ':');
            second = "";
            if (colon != NULL) {
                *colon = '\0';
                second = c.label + (colon - first) + 1;
            }
            fprintf(f, "<g><rect class=\"cell\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" "
                       "fill=\"%s\" stroke=\"#404040\" stroke-width=\"0.75\"/>"
                       "<text x=\"%u\" y=\"%u\">%s</text><text x=\"%u\" y=\"%u\">%s</text></g>\n",
                    x, y, cw, (unsigned) SVG_CH, fill, x + cw / 2, y + 14, first, x + cw / 2,
                    y + 28, second);
        }
    fputs("</svg>\n", f);
}

static void
svg_write(FILE *f, const void *g)
{
    grid_write_svg(f, g);
}

static void
list_one(const char *instr, const char *operand, const char *what, void *ctx)
{
    char both[128];

    (void) ctx;
    snprintf(both, sizeof(both), "%s %s", instr, operand);
    printf("  %-40s %s\n", both, what);
}

static void
layout_list(void)
{
    unsigned i;

    puts("instruction layouts (softmma layout INSTRUCTION OPERAND):");
    smma_grid_list(list_one, NULL);
    puts("scale layouts (softmma layout scale --layout NAME ...):");
    for (i = 0; i < SMMA_SL_COUNT; i++)
        printf("  scale --layout %s\n", smma_scale_layout_name((smma_scale_layout) i));
}

/* Parses a selector option into *out (left at -1 when s is NULL). */
static bool
parse_selector(const char *opt, const char *s, int *out, int *rc)
{
    uint64_t v;

    if (s == NULL)
        return true;
    if (!cli_parse_uint(s, 1u << 20, &v)) {
        *rc = cli_error("malformed --%s '%s' (a non-negative integer)", opt, s);
        return false;
    }
    *out = (int) v;
    return true;
}

static int
layout_frag(int argc, char **argv)
{
    const char *svg = NULL, *html = NULL, *byte_s = NULL, *thread_s = NULL, *sf_s = NULL, *num_s = NULL;
    bool text = false, list = false;
    const struct opt_spec specs[] = {
        { "text", false, NULL, &text },
        { "svg", true, &svg, NULL },
        { "html", true, &html, NULL },
        { "list", false, NULL, &list },
        { "byte-id", true, &byte_s, NULL },
        { "thread-id", true, &thread_s, NULL },
        { "sf-id", true, &sf_s, NULL },
        { "num", true, &num_s, NULL },
        { NULL, false, NULL, NULL },
    };
    smma_grid_opts o = SMMA_GRID_OPTS_NONE;
    struct opt_result r;
    smma_grid g;
    smma_error err;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(frag_usage, stdout);
        goto done;
    }
    if (list) {
        if (r.npos > 0 || text || svg != NULL || html != NULL || byte_s != NULL || thread_s != NULL ||
            sf_s != NULL || num_s != NULL)
            rc = cli_error("--list takes no other arguments");
        else
            layout_list();
        goto done;
    }
    if (r.npos == 0) {
        rc = cli_error("usage: softmma layout KIND ... | INSTRUCTION OPERAND | --list");
        goto done;
    }
    if (r.npos == 1) {
        rc = cli_error("missing OPERAND after '%s' (see softmma layout --list)", r.pos[0]);
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
    if (html != NULL && (text || svg != NULL)) {
        rc = cli_error("--html and --%s exclude each other", text ? "text" : "svg");
        goto done;
    }
    if (!parse_selector("byte-id", byte_s, &o.byte_id, &rc) ||
        !parse_selector("thread-id", thread_s, &o.thread_id, &rc) ||
        !parse_selector("sf-id", sf_s, &o.sf_id, &rc) ||
        !parse_selector("num", num_s, &o.num, &rc))
        goto done;
    if (smma_grid_find(r.pos[0], r.pos[1], &o, &g, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (html != NULL)
        rc = cli_grid_html(html, &g, NULL);
    else if (svg == NULL)
        cli_grid_print_text(&g, NULL, 0, 0, "");
    else
        rc = cli_write_file_atomic("--svg", svg, svg_write, &g);
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

/* True for a name that starts like an instruction (its error then names
 * the instruction, not a layout kind). */
static bool
looks_like_instruction(const char *s)
{
    static const char *const prefixes[] = { "mma.", "ldmatrix", "stmatrix", "wgmma", "tcgen05" };
    size_t i;

    for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncasecmp(s, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

int
cmd_layout(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        cli_error("usage: softmma layout KIND ... | INSTRUCTION OPERAND | --list (known "
                  "kinds: scale; try 'softmma layout --help')");
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("Usage: softmma layout KIND [OPTIONS...]\n"
               "       softmma layout INSTRUCTION OPERAND [--text | --svg FILE | --html FILE]\n"
               "       softmma layout --list\n\n"
               "Draws layouts as text, SVG or an explorable web page (--html).  Kinds:\n"
               "  scale   scale-factor layouts (softmma layout scale --help)\n"
               "INSTRUCTION OPERAND draws the layout of an instruction's operand, e.g.\n"
               "'softmma layout mma.m16n8k16.bf16 a' (softmma layout mma.m16n8k16.bf16 a\n"
               "--help).  --list names every modeled layout.\n");
        return CLI_OK;
    }
    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(argv[1], kinds[i].name) == 0)
            return kinds[i].run(argc - 1, argv + 1);
    /* A first word that is neither a kind nor an instruction is named as
     * both. */
    if (argv[1][0] != '-' && !looks_like_instruction(argv[1])) {
        smma_grid g;
        smma_error err;

        if (smma_grid_find(argv[1], "?", NULL, &g, &err) == SMMA_EINVAL &&
            strncmp(err.msg, "unknown instruction", 19) == 0)
            return cli_error("unknown layout kind '%s' (known: scale) and no such instruction "
                             "(see softmma layout --list)", argv[1]);
    }
    return layout_frag(argc, argv);
}
