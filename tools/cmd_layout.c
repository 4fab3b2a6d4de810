/*
 * tools/cmd_layout.c - softmma layout ...: draws layouts as text, SVG or
 * an explorable web page (tools/layout_html.c).
 *
 * Two forms:
 *   softmma layout KIND ...                 a kind with its own options:
 *                                           "scale" (the scale-factor
 *                                           layouts of softmma/scale_layout.h),
 *                                           "smem" (shared-memory tiles of the
 *                                           descriptors, softmma/tcgen05.h)
 *   softmma layout INSTRUCTION OPERAND ...  a register fragment layout of
 *                                           softmma/fragment.h, as a text
 *                                           grid, an SVG picture or a page, or
 *                                           the holder of one element (--at) and
 *                                           the elements of a thread (--thread)
 * and "softmma layout --list", which names everything modeled.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <softmma/grid.h>
#include <softmma/scale_layout.h>
#include <softmma/tc05_addr.h>
#include <softmma/tcgen05.h>
#include <softmma/tmem.h>

#include "cli.h"
#include "layout_html.h"
#include "options.h"

static const char scale_usage[] =
    "Usage: softmma layout scale --layout NAME --rows R --k K --vec V\n"
    "           [--at ROW,COL | --offset OFF | --svg FILE | --html FILE]\n\n"
    "Draws where the block scale factors of one operand lie in memory.  The\n"
    "operand has R rows of K elements and one scale per V (16 or 32) elements,\n"
    "so the scale matrix is R x Kb with Kb = ceil(K / V) scale columns.\n"
    "NAME is one of linear, 128x4, triton5d, cdna4-16, cdna4-32 (see\n"
    "doc/scale-layouts.md; the CDNA4 layouts need V 32).\n\n"
    "Prints a header line with the padded size, then one line per row:\n"
    "  row M: OFF(M,0) OFF(M,1) ... OFF(M,Kb-1)\n"
    "the byte offset of each scale in the stored array.  With --at ROW,COL it\n"
    "prints how the offset of that scale follows from the layout's formula: the\n"
    "padded size, row and column taken apart into the formula's terms, the\n"
    "formula, its terms evaluated, and last '       = OFF'.  With --offset OFF\n"
    "it prints which scale lies at byte OFF: 'row M col C', or 'padding row M\n"
    "col C' for a byte of the padded tile that holds no scale.  --svg FILE\n"
    "draws the offsets as an SVG grid (rows m, columns kb, coloured by 16-byte\n"
    "line) into FILE ('-' for stdout), replaced atomically.\n"
    "--html FILE writes the offsets as a web page in which pointing at a scale\n"
    "shows its offset and every scale of the same 16-byte line (see --html in\n"
    "'softmma layout mma.m16n8k16.bf16 a --help').  At most 131072 scales are\n"
    "drawn.  --at, --offset, --svg and --html exclude each other.\n";

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

/* Prints how the offset of scale (m, kb) follows from the layout's formula
 * (softmma/scale_layout.h), term by term, ending with "= OFF"; the result
 * is the library's offset (smma_scale_offset), which the derivation must
 * reproduce. */
static int
scale_explain(const smma_scale_shape *s, size_t m, size_t kb, size_t off)
{
    size_t kp = s->kb_pad, got;

    printf("%s: %zu x %zu scales padded to %zu x %zu (Kb' = %zu)\n",
           smma_scale_layout_name(s->layout), s->rows, s->kb, s->rows_pad, s->kb_pad, kp);
    switch (s->layout) {
    case SMMA_SL_LINEAR:
        printf("offset = m*Kb + kb\n       = %zu*%zu + %zu\n", m, s->kb, kb);
        got = m * s->kb + kb;
        break;
    case SMMA_SL_128X4:
        printf("m %zu = 128*%zu + 32*%zu + %zu; kb %zu = 4*%zu + %zu\n", m, m / 128, m / 32 % 4,
               m % 32, kb, kb / 4, kb % 4);
        printf("offset = ((m/128)*(Kb'/4) + kb/4)*512 + (m%%32)*16 + ((m/32)%%4)*4 + kb%%4\n"
               "       = (%zu*%zu + %zu)*512 + %zu*16 + %zu*4 + %zu\n", m / 128, kp / 4, kb / 4,
               m % 32, m / 32 % 4, kb % 4);
        got = smma_tc05_sf128x4_off(m, kb, kp);
        break;
    case SMMA_SL_TRITON5D:
        printf("m %zu = a*128 + d*32 + c, kb %zu = b*4 + e: index [a=%zu][b=%zu][c=%zu][d=%zu]"
               "[e=%zu]\n", m, kb, m / 128, kb / 4, m % 32, m / 32 % 4, kb % 4);
        printf("offset = a*(Kb'/4)*512 + b*512 + c*16 + d*4 + e\n"
               "       = %zu*%zu*512 + %zu*512 + %zu*16 + %zu*4 + %zu\n", m / 128, kp / 4,
               kb / 4, m % 32, m / 32 % 4, kb % 4);
        got = m / 128 * (kp / 4) * 512 + kb / 4 * 512 + m % 32 * 16 + m / 32 % 4 * 4 + kb % 4;
        break;
    case SMMA_SL_CDNA4_16:
        printf("m %zu = 32*%zu + 16*%zu + %zu; kb %zu = 8*%zu + 4*%zu + %zu\n", m, m / 32,
               m % 32 / 16, m % 16, kb, kb / 8, kb % 8 / 4, kb % 4);
        printf("offset = (m/32)*(Kb'*32) + (kb/8)*256 + (kb%%4)*64 + (m%%16)*4"
               " + ((kb%%8)/4)*2 + (m%%32)/16\n"
               "       = %zu*%zu + %zu*256 + %zu*64 + %zu*4 + %zu*2 + %zu\n", m / 32, kp * 32,
               kb / 8, kb % 4, m % 16, kb % 8 / 4, m % 32 / 16);
        got = m / 32 * (kp * 32) + kb / 8 * 256 + kb % 4 * 64 + m % 16 * 4 + kb % 8 / 4 * 2
              + m % 32 / 16;
        break;
    case SMMA_SL_CDNA4_32:
    default:
        printf("m %zu = 32*%zu + %zu; kb %zu = 8*%zu + 2*%zu + %zu\n", m, m / 32, m % 32, kb,
               kb / 8, kb % 8 / 2, kb % 2);
        printf("offset = (m/32)*(Kb'*32) + (kb/8)*256 + (kb%%2)*128 + (m%%32)*4 + (kb%%8)/2\n"
               "       = %zu*%zu + %zu*256 + %zu*128 + %zu*4 + %zu\n", m / 32, kp * 32, kb / 8,
               kb % 2, m % 32, kb % 8 / 2);
        got = m / 32 * (kp * 32) + kb / 8 * 256 + kb % 2 * 128 + m % 32 * 4 + kb % 8 / 2;
        break;
    }
    printf("       = %zu\n", off);
    if (got != off)
        return cli_error("the derivation gives %zu, the layout %zu (a defect: please report "
                         "it)", got, off);
    return CLI_OK;
}

/* At most one of n options: names[i] is the option (without "--"), given[i]
 * whether it was given.  Otherwise *rc is the error naming those given,
 * e.g. "--svg and --html exclude each other", and false is returned. */
static bool
one_at_most(const char *const *names, const bool *given, size_t n, int *rc)
{
    char msg[160];
    size_t i, k = 0, count = 0, len = 0;

    for (i = 0; i < n; i++)
        count += given[i] ? 1 : 0;
    if (count < 2)
        return true;
    msg[0] = '\0';
    for (i = 0; i < n && len < sizeof(msg); i++)
        if (given[i]) {
            k++;
            len += (size_t) snprintf(msg + len, sizeof(msg) - len, "%s--%s",
                                     k == 1 ? "" : k == count ? " and " : ", ", names[i]);
        }
    *rc = cli_error("%s exclude each other", msg);
    return false;
}

static int grid_out(const smma_grid *g, const char *svg, const char *html);


static int
layout_scale(int argc, char **argv)
{
    const char *layout_s = NULL, *rows_s = NULL, *k_s = NULL, *vec_s = NULL, *at_s = NULL,
               *offset_s = NULL, *svg = NULL, *html = NULL;
    const struct opt_spec specs[] = {
        { "layout", true, &layout_s, NULL },
        { "svg", true, &svg, NULL },
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
    {
        const char *const names[] = { "at", "offset", "svg", "html" };
        const bool given[] = { at_s != NULL, offset_s != NULL, svg != NULL, html != NULL };

        if (!one_at_most(names, given, 4, &rc))
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
    if (svg != NULL || html != NULL) {
        smma_grid g;

        if ((rc = cli_scale_grid(l, &s, &g)) == CLI_OK)
            rc = grid_out(&g, svg, html);
        goto done;
    }
    if (at_s != NULL) {
        if (smma_scale_offset(l, rows, k, s.vec, at_m, at_kb, &off, &err) != SMMA_OK) {
            rc = cli_error("--at %s: %s", at_s, err.msg);
            goto done;
        }
        rc = scale_explain(&s, at_m, at_kb, off);
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
    "Usage: softmma layout INSTRUCTION OPERAND [--text | --svg FILE | --html FILE |\n"
    "           --at ROW,COL | --thread T] [--byte-id N] [--thread-id N] [--sf-id N]\n"
    "           [--num N]\n"
    "       softmma layout --list\n\n"
    "Draws a layout of an instruction: which lane (thread), register and element\n"
    "holds each element of one operand tile, or where an element lies in tensor\n"
    "memory.  'softmma layout --list' names every INSTRUCTION and OPERAND, e.g.\n"
    "'mma.m16n8k16.bf16 a' (the full PTX spelling of an mma.sync works too).  The\n"
    "selectors are those of the instruction: --byte-id and --thread-id for the\n"
    "scale factors of block-scaled mma.sync, --sf-id for the scale-factor id of\n"
    "tcgen05, --num for the .num of tcgen05.ld/st.  See doc/layouts.md.\n\n"
    "tcgen05.mma takes M, N, cta_group and kind in its name:\n"
    "tcgen05.mma.m<M>[n<N>][.cg2][.<kind>], e.g. tcgen05.mma.m128n64 d or\n"
    "tcgen05.mma.m128.mxf4 a (N 16 and kind f16 when not given; M 64 or 128, 128\n"
    "with .cg2, or 256; N as the instruction allows: a multiple of 8 (16 with\n"
    "cta_group::2) up to 256).  Operand a is A read from tensor memory.\n\n"
    "--text (the default) prints a header line, a line of column indices, then\n"
    "one line per row: the row index and, for each column, the label of the\n"
    "element's holder, e.g. T5:r2.1 (lane 5, register 2, element 1), L5:c9 (TMEM\n"
    "lane 5, column 9); '.' marks a cell that no one holds.\n"
    "--svg FILE draws the same grid as an SVG picture coloured by lane into FILE\n"
    "('-' for stdout).  The file is replaced atomically; on an error nothing is\n"
    "written.\n"
    "--html FILE writes the grid as one self-contained web page (inline style\n"
    "and script, nothing loaded from elsewhere) into FILE, as --svg does: pointing\n"
    "at a cell shows its holder, in words where the layout answers --at, and\n"
    "highlights every cell of the same lane or thread; pointing at a thread in\n"
    "the legend, choosing it in the list or the keys n and p show its cells; a\n"
    "click keeps a thread, Esc clears.  The address FILE#t=N opens with thread N\n"
    "shown.\n"
    "--at ROW,COL prints the holder of element (ROW, COL) of the operand (row and\n"
    "column of the operand's tile, e.g. m,k of A, m,n of D, also where the picture\n"
    "shows tensor memory): its label and, in words, thread or TMEM lane, register\n"
    "or column, element.\n"
    "--thread T prints every element thread T holds, one line each: its label and\n"
    "its (row, col).  T is the lane (0..31) of a warp, the thread (0..127) of a\n"
    "wgmma warpgroup, or, for what lies in tensor memory, the TMEM lane (128 c +\n"
    "lane for CTA c of a pair), which thread T of the warpgroup reads with\n"
    "tcgen05.ld.32x32b.  A row, column or thread out of range is refused, naming\n"
    "the bound.\n"
    "--text, --svg, --html, --at and --thread exclude each other.\n";

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

/* --svg PATH or --html PATH (the one not NULL): the picture or the page,
 * replaced atomically, "-" for stdout. */
static int
grid_out(const smma_grid *g, const char *svg, const char *html)
{
    if (html != NULL)
        return cli_grid_html(html, g, NULL);
    return cli_write_file_atomic("--svg", svg, svg_write, g);
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

/* "lane", "thread" or "TMEM lane": what the holders of g are. */
static const char *
thread_word(const smma_grid *g)
{
    if (strncmp(g->legend, "L<", 2) == 0 || g->tmem_picture)
        return "TMEM lane";
    return g->threads > 32 ? "thread" : "lane";
}

/* A holder in words, e.g. "lane 20, register 2, element 1"; for a layout
 * of copies, "; the first of N copies" when first_copy. */
static void
holder_words(const smma_grid *g, const smma_holder *h, bool first_copy, char *buf, size_t n)
{
    bool bytes = g->tmem_picture && g->elems == 4; /* scale factors: bytes of a cell */
    size_t len;

    switch (h->kind) {
    case SMMA_HOLDER_REG:
        len = (size_t) snprintf(buf, n, "%s %u, register %u", thread_word(g), h->thread, h->reg);
        if (g->elems > 1 && len < n)
            snprintf(buf + len, n - len, ", element %u", h->elem);
        break;
    case SMMA_HOLDER_BYTE:
        snprintf(buf, n, "lane %u, byte %u of its scale register", h->thread, h->elem);
        break;
    case SMMA_HOLDER_ADDR:
        snprintf(buf, n, "lane %u gives the row's address", h->thread);
        break;
    case SMMA_HOLDER_TMEM:
        len = h->thread >= SMMA_TMEM_LANES
                  ? (size_t) snprintf(buf, n, "CTA %u, ", h->thread / SMMA_TMEM_LANES) : 0;
        if (len < n)
            len += (size_t) snprintf(buf + len, n - len, "TMEM lane %u, column %u",
                                     h->thread % SMMA_TMEM_LANES, h->reg);
        if (g->elems > 1 && len < n)
            len += (size_t) snprintf(buf + len, n - len, ", %s %u", bytes ? "byte" : "element",
                                     h->elem);
        if (first_copy && g->copies > 1 && len < n)
            snprintf(buf + len, n - len, "; the first of %u copies", g->copies);
        break;
    default:
        snprintf(buf, n, "no one holds it");
        break;
    }
}

bool
cli_cell_holder_words(const smma_grid *g, unsigned row, unsigned col, char *buf, size_t n)
{
    smma_holder h, first;
    unsigned r, c, slot;

    if (g->holder == NULL)
        return false;
    if (!g->tmem_picture) {
        /* The drawn grid is the operand. */
        if (g->op_rows != g->rows || g->op_cols != g->cols ||
            smma_grid_holder(g, row, col, &h, NULL) != SMMA_OK || h.kind == SMMA_HOLDER_NONE)
            return false;
        holder_words(g, &h, true, buf, n);
        return true;
    }
    /* A picture of tensor memory: the cell is a TMEM lane and a column (or
     * a byte of one, elems to a column), the holder of the element the
     * layout places there; no words where the slot holds none. */
    slot = g->col0 + col;
    h.kind = SMMA_HOLDER_TMEM;
    h.thread = g->row0 + row;
    h.reg = g->elems > 1 ? slot / g->elems : slot;
    h.elem = g->elems > 1 ? slot % g->elems : 0;
    if (g->coord == NULL || h.thread >= g->threads || h.reg >= g->regs ||
        g->coord(g, h.thread, h.reg, h.elem, &r, &c) != SMMA_OK ||
        smma_grid_holder(g, r, c, &first, NULL) != SMMA_OK)
        return false;
    holder_words(g, &h, first.kind == h.kind && first.thread == h.thread && first.reg == h.reg &&
                        first.elem == h.elem, buf, n);
    return true;
}

/* --at ROW,COL: the holder of one element. */
static int
frag_at(const smma_grid *g, const char *at_s)
{
    smma_holder h;
    smma_error err;
    size_t row, col;
    char label[32], words[128];

    if (!parse_pair(at_s, &row, &col) || row > 0xFFFFFFu || col > 0xFFFFFFu)
        return cli_error("malformed --at '%s' (ROW,COL: two integers)", at_s);
    if (smma_grid_holder(g, (unsigned) row, (unsigned) col, &h, &err) != SMMA_OK)
        return cli_error("--at %s: %s", at_s, err.msg);
    smma_holder_label(&h, g->elems, label, sizeof(label));
    holder_words(g, &h, true, words, sizeof(words));
    if (g->op_cols == 1 && strcmp(g->op_col_axis, "-") == 0) /* one column: no axis */
        printf("%s (%s %zu): %s (%s)\n", g->name, g->op_row_axis, row, label, words);
    else
        printf("%s (%s %zu, %s %zu): %s (%s)\n", g->name, g->op_row_axis, row, g->op_col_axis,
               col, label, words);
    return CLI_OK;
}

/* --thread T: every element thread T holds. */
static int
frag_thread(const smma_grid *g, const char *thread_s)
{
    smma_grid_slot *s;
    smma_holder h;
    smma_error err;
    uint64_t t;
    size_t n, i;
    char label[32];

    if (!cli_parse_uint(thread_s, 0xFFFFFFu, &t))
        return cli_error("malformed --thread '%s' (a non-negative integer)", thread_s);
    if (smma_grid_cells(g, (unsigned) t, NULL, 0, &n, &err) != SMMA_OK)
        return cli_error("--thread %s: %s", thread_s, err.msg);
    printf("%s: %s %u holds %zu element%s\n", g->name, thread_word(g), (unsigned) t, n,
           n == 1 ? "" : "s");
    if (n == 0)
        return CLI_OK;
    if ((s = malloc(n * sizeof(*s))) == NULL)
        return cli_error("out of memory");
    smma_grid_cells(g, (unsigned) t, s, n, &n, NULL);
    for (i = 0; i < n; i++) {
        /* The label of the slot itself (for copies, not necessarily the first). */
        smma_grid_holder(g, s[i].row, s[i].col, &h, NULL);
        h.thread = (unsigned) t;
        h.reg = s[i].reg;
        h.elem = s[i].elem;
        smma_holder_label(&h, g->elems, label, sizeof(label));
        printf("  %-12s %s %u, %s %u\n", label, g->op_row_axis, s[i].row, g->op_col_axis,
               s[i].col);
    }
    free(s);
    return CLI_OK;
}

static int
layout_frag(int argc, char **argv)
{
    const char *svg = NULL, *html = NULL, *byte_s = NULL, *thread_s = NULL, *sf_s = NULL;
    const char *num_s = NULL, *at_s = NULL, *holder_s = NULL;
    bool text = false, list = false;
    const struct opt_spec specs[] = {
        { "text", false, NULL, &text },
        { "svg", true, &svg, NULL },
        { "html", true, &html, NULL },
        { "at", true, &at_s, NULL },
        { "thread", true, &holder_s, NULL },
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
        if (r.npos > 0 || text || svg != NULL || html != NULL || at_s != NULL ||
            holder_s != NULL || byte_s != NULL || thread_s != NULL || sf_s != NULL ||
            num_s != NULL)
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
    {
        const char *const names[] = { "text", "svg", "html", "at", "thread" };
        const bool given[] = { text, svg != NULL, html != NULL, at_s != NULL, holder_s != NULL };

        if (!one_at_most(names, given, 5, &rc))
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
    if (at_s != NULL)
        rc = frag_at(&g, at_s);
    else if (holder_s != NULL)
        rc = frag_thread(&g, holder_s);
    else if (svg != NULL || html != NULL)
        rc = grid_out(&g, svg, html);
    else
        cli_grid_print_text(&g, NULL, 0, 0, "");
done:
    opt_free(&r);
    return rc;
}

/* ------------------------------------------------------------ shared memory */

static const char smem_usage[] =
    "Usage: softmma layout smem SWIZZLE MAJOR [--elem-bits B] [--rows R] [--k K]\n"
    "           [--lbo BYTES] [--sbo BYTES] [--text | --svg FILE | --html FILE |\n"
    "           --at ROW,K]\n\n"
    "Draws where each element of an operand tile lies in shared memory under the\n"
    "canonical layouts the wgmma and tcgen05 shared-memory descriptors describe\n"
    "(softmma/tcgen05.h, smma_tc05_smem_addr), from address 0.  SWIZZLE is none,\n"
    "32B, 64B, 128B (wgmma and tcgen05) or 128B-base32B (tcgen05; its canonical\n"
    "layout is not modelled and is refused); MAJOR is k (K-major: the elements\n"
    "of a row along K are contiguous) or mn (MN-major).  Rows are the M (or N)\n"
    "index, columns the K index.  --elem-bits is 4, 8, 16 (the default) or 32.\n"
    "The default tile is one swizzle atom wide along the contiguous dimension\n"
    "and two deep, 16 rows x W*8/B k (K-major; W = the swizzle width, 32 bytes\n"
    "without swizzle) or W*8/B rows x 16 k (MN-major), packed densely: LBO and\n"
    "SBO default to the offsets of the neighbouring core matrix or atom and\n"
    "are printed in the header; --lbo and --sbo set them.\n\n"
    "--text (the default) prints the tile with each element's byte address\n"
    "(B.4 for the high nibble of byte B); --svg FILE draws it coloured by\n"
    "16-byte chunk ('-' for stdout); --html FILE writes it as a web page in\n"
    "which pointing at an element shows its address and every element of the\n"
    "same 16-byte chunk (see --html in 'softmma layout mma.m16n8k16.bf16 a\n"
    "--help'); --at ROW,K prints how the address of one element follows: the\n"
    "canonical layout's formula with its terms, the offset before swizzling,\n"
    "the swizzle, and last '= byte B'.  The four exclude each other.\n";

/* The formula of the canonical layout in bytes (softmma/tcgen05.h) and its
 * factors for (row, k): what --at prints before the library's value. */
static void
smem_formula(const smma_tc05_layout *l, unsigned w, unsigned row, unsigned k)
{
    unsigned t = 128 / l->elem_bits, c = w / 16;
    char e[8];                  /* bytes per element */

    snprintf(e, sizeof(e), "%s", l->elem_bits == 4 ? "0.5" : l->elem_bits == 8 ? "1"
                                 : l->elem_bits == 16 ? "2" : "4");
    if (!l->mn_major && w == 16)
        printf("offset = (row%%8)*16 + (row/8)*SBO + (k%%%u)*%s + (k/%u)*LBO\n"
               "       = %u*16 + %u*%u + %u*%s + %u*%u\n", t, e, t, row % 8, row / 8,
               (unsigned) l->sbo, k % t, e, k / t, (unsigned) l->lbo);
    else if (!l->mn_major)
        printf("offset = (row%%8)*%u + (row/8)*SBO + k*%s\n"
               "       = %u*%u + %u*%u + %u*%s\n", w, e, row % 8, w, row / 8,
               (unsigned) l->sbo, k, e);
    else if (w == 16)
        printf("offset = (row%%%u)*%s + (row/%u)*SBO + (k%%8)*16 + (k/8)*LBO\n"
               "       = %u*%s + %u*%u + %u*16 + %u*%u\n", t, e, t, row % t, e,
               row / t, (unsigned) l->sbo, k % 8, k / 8, (unsigned) l->lbo);
    else
        printf("offset = (row%%%u)*%s + (row/%u)*LBO + (k%%8)*%u + (k/8)*SBO\n"
               "       = %u*%s + %u*%u + %u*%u + %u*%u\n", c * t, e, c * t, w,
               row % (c * t), e, row / (c * t), (unsigned) l->lbo, k % 8, w, k / 8,
               (unsigned) l->sbo);
}

/* --at ROW,K of a shared-memory tile. */
static int
smem_at(const smma_tc05_layout *l, const smma_grid *g, const char *at_s)
{
    size_t row, k;
    unsigned w = smma_tc05_swizzle_bytes(l->swizzle), bit;
    uint64_t bits;
    uint32_t lin, byte;
    smma_error err;

    if (!parse_pair(at_s, &row, &k))
        return cli_error("malformed --at '%s' (ROW,K: two integers)", at_s);
    if (row >= g->rows || k >= g->cols)
        return cli_error("--at %s: %s %zu is outside the tile: %s is 0..%u", at_s,
                         row >= g->rows ? "row" : "k", row >= g->rows ? row : k,
                         row >= g->rows ? "row" : "k", (row >= g->rows ? g->rows : g->cols) - 1);
    if (smma_tc05_smem_addr(l, 0, (unsigned) row, (unsigned) k, &byte, &bit, &err) != SMMA_OK)
        return cli_error("--at %s: %s", at_s, err.msg);
    bits = smma_tc05_canon_bits(l->mn_major, w, l->elem_bits, l->lbo, l->sbo, (unsigned) row,
                                (unsigned) k);
    lin = (uint32_t) (bits / 8);
    printf("%s (row %zu, k %zu): %s\n", g->name, row, k, g->what);
    smem_formula(l, w, (unsigned) row, (unsigned) k);
    printf("       = %u%s (before swizzling)\n", (unsigned) lin, bits % 8 ? ", bit 4" : "");
    if (l->swizzle != SMMA_TC05_SWIZZLE_NONE)
        printf("swizzle %s: %u -> %u (address bits %s)\n", smma_tc05_swizzle_name(l->swizzle),
               (unsigned) lin, (unsigned) smma_tc05_swizzle_apply(l->swizzle, lin),
               w == 32 ? "4 ^= 7" : w == 64 ? "4-5 ^= 7-8" : "4-6 ^= 7-9");
    if (smma_tc05_swizzle_apply(l->swizzle, lin) != byte)
        return cli_error("the derivation gives %u, the layout %u (a defect: please report it)",
                         (unsigned) smma_tc05_swizzle_apply(l->swizzle, lin), (unsigned) byte);
    printf("= byte %u%s\n", (unsigned) byte, bit ? ", bits 7-4" : "");
    return CLI_OK;
}

/* Parses an optional unsigned option into *out (unchanged when s is NULL). */
static bool
parse_opt_uint(const char *opt, const char *s, uint64_t max, unsigned *out, int *rc)
{
    uint64_t v;

    if (s == NULL)
        return true;
    if (!cli_parse_uint(s, max, &v)) {
        *rc = cli_error("malformed --%s '%s' (an integer 0..%llu)", opt, s,
                        (unsigned long long) max);
        return false;
    }
    *out = (unsigned) v;
    return true;
}

/* Dense defaults for LBO and SBO: the next core matrix (8 rows of 16
 * bytes) or swizzle atom (8 rows of W bytes) along the strided dimension
 * first, as softmma/tcgen05.h's canonical layouts name them. */
static void
smem_defaults(smma_tc05_layout *l, unsigned rows, unsigned k)
{
    unsigned w = smma_tc05_swizzle_bytes(l->swizzle), t = 128 / l->elem_bits, c = w / 16;

    if (!l->mn_major && w == 16) {
        l->lbo = 128;
        l->sbo = 128 * ((k + t - 1) / t);
    } else if (!l->mn_major) {
        l->lbo = 16;
        l->sbo = 8 * w;
    } else if (w == 16) {
        l->sbo = 128;
        l->lbo = 128 * ((rows + t - 1) / t);
    } else {
        l->lbo = 8 * w;
        l->sbo = 8 * w * ((rows + c * t - 1) / (c * t));
    }
}

static int
layout_smem(int argc, char **argv)
{
    const char *eb_s = NULL, *rows_s = NULL, *k_s = NULL, *lbo_s = NULL, *sbo_s = NULL;
    const char *svg = NULL, *html = NULL, *at_s = NULL;
    bool text = false;
    const struct opt_spec specs[] = {
        { "elem-bits", true, &eb_s, NULL },
        { "rows", true, &rows_s, NULL },
        { "k", true, &k_s, NULL },
        { "lbo", true, &lbo_s, NULL },
        { "sbo", true, &sbo_s, NULL },
        { "text", false, NULL, &text },
        { "svg", true, &svg, NULL },
        { "html", true, &html, NULL },
        { "at", true, &at_s, NULL },
        { NULL, false, NULL, NULL },
    };
    smma_tc05_layout l;
    struct opt_result r;
    smma_error err;
    smma_grid g;
    unsigned rows, k, w;
    int rc = opt_parse(argc, argv, specs, &r);

    if (rc != CLI_OK)
        goto done;
    if (r.help) {
        fputs(smem_usage, stdout);
        goto done;
    }
    if (r.npos != 2) {
        rc = cli_error(r.npos < 2 ? "usage: softmma layout smem SWIZZLE MAJOR (e.g. 128B k)"
                                  : "unexpected argument '%s'", r.npos > 2 ? r.pos[2] : "");
        goto done;
    }
    memset(&l, 0, sizeof(l));
    l.elem_bits = 16;
    if (smma_tc05_swizzle_from_name(r.pos[0], &l.swizzle, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (strcasecmp(r.pos[1], "k") != 0 && strcasecmp(r.pos[1], "mn") != 0) {
        rc = cli_error("unknown majorness '%s' (known: k, mn)", r.pos[1]);
        goto done;
    }
    l.mn_major = strcasecmp(r.pos[1], "mn") == 0;
    {
        const char *const names[] = { "text", "svg", "html", "at" };
        const bool given[] = { text, svg != NULL, html != NULL, at_s != NULL };

        if (!one_at_most(names, given, 4, &rc))
            goto done;
    }
    if (!parse_opt_uint("elem-bits", eb_s, 32, &l.elem_bits, &rc))
        goto done;
    if (l.elem_bits != 4 && l.elem_bits != 8 && l.elem_bits != 16 && l.elem_bits != 32) {
        rc = cli_error("--elem-bits %u is not 4, 8, 16 or 32", l.elem_bits);
        goto done;
    }
    /* 128B-base32B has no width for the defaults: smma_tc05_smem_grid refuses it. */
    w = smma_tc05_swizzle_bytes(l.swizzle);
    rows = l.mn_major ? (w == 16 ? 32 : w) * 8 / l.elem_bits : 16;
    k = l.mn_major ? 16 : (w == 16 ? 32 : w) * 8 / l.elem_bits;
    if (!parse_opt_uint("rows", rows_s, 256, &rows, &rc) || !parse_opt_uint("k", k_s, 256, &k, &rc))
        goto done;
    smem_defaults(&l, rows, k);
    if (!parse_opt_uint("lbo", lbo_s, 0x3FFF0, &l.lbo, &rc) ||
        !parse_opt_uint("sbo", sbo_s, 0x3FFF0, &l.sbo, &rc))
        goto done;
    if (smma_tc05_smem_grid(&l, rows, k, &g, &err) != SMMA_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    if (at_s != NULL)
        rc = smem_at(&l, &g, at_s);
    else if (svg != NULL || html != NULL)
        rc = grid_out(&g, svg, html);
    else
        cli_grid_print_text(&g, NULL, 0, 0, "");
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
    { "smem", layout_smem },
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
                  "kinds: scale, smem; try 'softmma layout --help')");
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("Usage: softmma layout KIND [OPTIONS...]\n"
               "       softmma layout INSTRUCTION OPERAND [--text | --svg FILE |\n"
               "           --html FILE | --at ROW,COL | --thread T]\n"
               "       softmma layout --list\n\n"
               "Draws layouts as text, SVG or an explorable web page (--html), and\n"
               "answers where one element lies.  Kinds:\n"
               "  scale   scale-factor layouts (softmma layout scale --help)\n"
               "  smem    shared-memory tiles of the wgmma/tcgen05 descriptors, each\n"
               "          swizzle and majorness (softmma layout smem --help)\n"
               "INSTRUCTION OPERAND draws the layout of an instruction's operand, e.g.\n"
               "'softmma layout mma.m16n8k16.bf16 a'; --at ROW,COL prints who holds one\n"
               "element, --thread T what thread T holds (softmma layout\n"
               "mma.m16n8k16.bf16 a --help).  --list names every modeled layout.\n");
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
            return cli_error("unknown layout kind '%s' (known: scale, smem) and no such "
                             "instruction (see softmma layout --list)", argv[1]);
    }
    return layout_frag(argc, argv);
}
